"""The judge's own clock on the device: its probe kernel, the L2 flush, and whether the GPU is quiet.

A batch's window ends when the judge's tiny probe kernel, queued after the runner's answer, is done:
on one GPU it runs after work the runner left queued. The same probe, timed on the host, says whether
the GPU is busy (with someone's work) before a batch, and after one. On the CPU there is nothing to
probe: `sync` does nothing and the GPU is never busy.
"""

from __future__ import annotations

import statistics
import time

import torch

# A GPU that takes longer than this to run the judge's tiny probe kernel is busy with someone's work.
QUIET_FACTOR, QUIET_SLACK_US = 4.0, 300.0
QUIET_WAIT_S = 0.2
# Quiet means the median of this many probes in a row is fast: under time-slicing one probe can land at
# the start of the judge's slice while another process's kernel still runs.
QUIET_PROBES = 5
CALIBRATION_PROBES = 30


class DeviceClock:
    """The judge's probe and flush buffers on `device`, and the probe time below which the GPU is quiet."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.cuda = device.type == "cuda"
        self.quiet_limit_us = 0.0
        if self.cuda:
            torch.cuda.init()
            self._probe = torch.zeros(1, device=device)
            self._flush = torch.empty(self.l2_bytes() * 2, dtype=torch.uint8, device=device)
            quiet = statistics.median([self.probe_us() for _ in range(CALIBRATION_PROBES)])
            self.quiet_limit_us = max(QUIET_FACTOR * quiet, quiet + QUIET_SLACK_US)

    def l2_bytes(self) -> int:
        props = torch.cuda.get_device_properties(self.device)
        return int(getattr(props, "L2_cache_size", 0) or 64 * 2**20)

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def flush(self) -> None:
        """Evict the L2 (a buffer twice its size written), so no batch starts with another's data cached."""
        if self.cuda:
            self._flush.zero_()

    def probe_us(self) -> float:
        start = time.perf_counter()
        self._probe.add_(1)
        torch.cuda.synchronize(self.device)
        return (time.perf_counter() - start) * 1e6

    def stop(self) -> None:
        """The end of a batch's window: the probe queued after what the runner left, and waited for."""
        if self.cuda:
            self._probe.add_(1)
            self.sync()

    def busy(self) -> bool:
        """Whether the GPU is busy now: the median of a few of the judge's probe kernels is slow."""
        return self.cuda and statistics.median([self.probe_us() for _ in range(QUIET_PROBES)]) > self.quiet_limit_us

    def wait_quiet(self) -> bool:
        """Wait up to QUIET_WAIT_S for the GPU to be idle; False if it stayed busy."""
        waited = time.monotonic()
        while self.busy():
            if time.monotonic() - waited > QUIET_WAIT_S:
                return False
            time.sleep(0.002)
        return True

    def ceiling_gbps(self) -> float:
        """The device's large-copy bandwidth (1 GiB moved), the judge's own copy: above it is not DRAM.

        The faster of the driver's device-to-device memcpy and an elementwise kernel over the same bytes: on an
        H100 the memcpy moved 2536 GB/s where a copy kernel of the same size moved about 2950, so a kernel at
        the copy kernel's speed read as past the ceiling (benchmarks/probes/judge_vs_dobench.md).
        """
        half = 2**29
        src = torch.empty(half, dtype=torch.uint8, device=self.device).random_()
        dst = torch.empty_like(src)
        words, into = src.view(torch.int32), dst.view(torch.int32)
        copies = (lambda: dst.copy_(src), lambda: torch.bitwise_not(words, out=into))
        best = min(self._median_s(copy) for copy in copies)
        return 2 * half / best / 1e9

    def _median_s(self, work) -> float:
        """The median of five timed runs of `work`, in seconds, each after a sync."""
        work()  # the elementwise kernel's first launch loads it
        times = []
        for _ in range(5):
            self.sync()
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record()
            work()
            end.record()
            end.synchronize()
            times.append(begin.elapsed_time(end) / 1e3)
        return statistics.median(times)
