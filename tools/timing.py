"""The timing protocol: warm-up, L2 flushed outside the timed window, CUDA events, percentiles.

Every variant of a shape (candidate, torch eager, torch.compile, the copy
roofline) is timed with the same function, in the same process, so their
ratios mean something. For shapes small enough that launches dominate,
`time_graph` captures many back-to-back calls in a CUDA graph over rotating
input sets whose total size exceeds the L2, so the replay measures memory, not
cache (a 32 MB RoPE replayed on one buffer reads 5+ TB/s on an H200: L2).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import torch

from tools.records import Timing

MIN_REPS = 20
MAX_REPS = 400
# Measured device time aimed for per variant; reps are derived from a probe call.
TARGET_SECONDS = 0.05
WARMUP_CALLS = 3


def _timing(samples_us: Sequence[float], method: str) -> Timing:
    ordered = sorted(samples_us)
    if len(ordered) >= 10:
        deciles = statistics.quantiles(ordered, n=10, method="inclusive")
        p10, p90 = deciles[0], deciles[-1]
    else:
        p10, p90 = ordered[0], ordered[-1]
    return Timing(median_us=statistics.median(ordered), p10_us=p10, p90_us=p90, reps=len(ordered), method=method)


def l2_bytes(device: torch.device) -> int:
    props = torch.cuda.get_device_properties(device)
    return int(getattr(props, "L2_cache_size", 0) or 64 * 2**20)


# GPU cycles spun after each flush, so the host has queued the timed call before the start
# event fires. Without it, a wrapper whose Python takes longer than the flush leaks host time
# into the device timing (H200, TileLang rope at 512 tokens: p10 13.6 us, median 19.0, p90 41.1).
# A fixed ~50 us was not enough for NineToothed's launcher (H200: rms_norm decode 17-29 us by
# events, 2.3 us by graph replay), so the spin is sized from the host time measured in warm-up.
MIN_SLACK_CYCLES = 100_000
MAX_SLACK_CYCLES = 20_000_000
CYCLES_PER_US = 2_000  # H100/H200 boost clock ~2 GHz; a longer spin only costs idle time


class L2Flusher:
    """Overwrites a buffer twice the L2 size so the next call starts with a cold cache."""

    def __init__(self, device: torch.device):
        self.buffer = torch.empty(max(2 * l2_bytes(device), 128 * 2**20), dtype=torch.uint8, device=device)
        self._sleep = getattr(torch.cuda, "_sleep", None)
        self.slack_cycles = MIN_SLACK_CYCLES

    def cover_host_time(self, host_seconds: float) -> None:
        """Spin at least twice the host time of one call after each flush."""
        cycles = int(2 * host_seconds * 1e6 * CYCLES_PER_US)
        self.slack_cycles = min(MAX_SLACK_CYCLES, max(MIN_SLACK_CYCLES, cycles))

    def flush(self) -> None:
        self.buffer.zero_()
        if self._sleep is not None:
            self._sleep(self.slack_cycles)


def _reps_for(seconds_per_call: float, max_reps: int = MAX_REPS) -> int:
    if seconds_per_call <= 0:
        return max_reps
    return int(min(max_reps, max(MIN_REPS, TARGET_SECONDS / seconds_per_call)))


def time_events(
    fn: Callable[[], object],
    flusher: L2Flusher,
    reps: int | None = None,
    before_each: Callable[[], object] | None = None,
    max_reps: int = MAX_REPS,
) -> Timing:
    """Median / p10 / p90 of single calls, each after an L2 flush, timed with CUDA events.

    `before_each` runs outside the timed window before every call: the evaluator uses it to
    fill the output with fresh garbage, so every timed call must really write its output.
    Without `reps`, a probe call sizes them to about TARGET_SECONDS, between MIN_REPS and `max_reps`.
    """
    return time_events_alternating([fn], flusher, reps, before_first=before_each, max_reps=max_reps)[0]


def time_events_alternating(
    fns: Sequence[Callable[[], object]],
    flusher: L2Flusher,
    reps: int | None = None,
    before_first: Callable[[], object] | None = None,
    max_reps: int = MAX_REPS,
) -> list[Timing]:
    """`time_events` for several functions called in turn (A B A B ...), one Timing each.

    Timed one after the other, two identical ~6 us kernels differed by up to 14% on the H200, the same
    way across the evaluations of a run (examples/runs/20261129-173941-rope-tilelang-8872: decode-only
    candidates timed 0.94-0.95x the incumbent on the unchanged prefill512/q, 0.99-1.14x on prefill512/k),
    which the per-shape noise rule took for a slowdown. In turn, whatever drifts over the series
    (clocks, the state the previous call left) falls on every function alike.
    `before_first` runs, untimed, before every call of `fns[0]` (the candidate). Reps are sized
    from the slowest function's probe call.
    """
    host_seconds = []
    for fn in fns:
        for _ in range(WARMUP_CALLS):
            fn()
        torch.cuda.synchronize()
        for _ in range(WARMUP_CALLS):
            flusher.flush()  # keeps the GPU busy, so the host time is not a wait for the queue
            start = time.perf_counter()
            fn()
            host_seconds.append(time.perf_counter() - start)
        torch.cuda.synchronize()
    flusher.cover_host_time(max(host_seconds))
    if reps is None:
        probes = []
        for fn in fns:
            probe_start, probe_end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            flusher.flush()
            probe_start.record()
            fn()
            probe_end.record()
            torch.cuda.synchronize()
            probes.append(probe_start.elapsed_time(probe_end) / 1e3)
        reps = _reps_for(max(probes), max_reps)
    events = [
        [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)] for _ in fns
    ]
    for rep in range(reps):
        for i, fn in enumerate(fns):
            if i == 0 and before_first is not None:
                before_first()
            start, end = events[i][rep]
            flusher.flush()  # outside the timed window, and it keeps the GPU busy while the host queues
            start.record()
            fn()
            end.record()
    torch.cuda.synchronize()
    return [_timing([s.elapsed_time(e) * 1e3 for s, e in pairs], "events") for pairs in events]


def time_graph(
    make_call: Callable[[int], Callable[[], object]],
    sets: int,
    flusher: L2Flusher,
    replays: int = 20,
) -> Timing:
    """Per-call time from a CUDA graph of `sets` back-to-back calls, call i on input set i.

    `make_call(i)` returns a closure over the i-th input set. Choose `sets` so the
    sets together exceed the L2; the L2 is also flushed before each replay.
    """
    calls = [make_call(i) for i in range(sets)]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for call in calls:  # warm-up (JIT, allocator) outside the capture
            call()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for call in calls:
            call()
    graph.replay()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(replays)]
    for start, end in zip(starts, ends, strict=True):
        flusher.flush()
        start.record()
        graph.replay()
        end.record()
    torch.cuda.synchronize()
    return _timing([s.elapsed_time(e) * 1e3 / sets for s, e in zip(starts, ends, strict=True)], "graph")


def time_wall(fn: Callable[[], object], reps: int | None = None) -> Timing:
    """CPU fallback: wall-clock per call after warm-up (no cache control, no roofline)."""
    for _ in range(WARMUP_CALLS):
        fn()
    if reps is None:
        start = time.perf_counter()
        fn()
        reps = _reps_for(time.perf_counter() - start)
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return _timing(samples, "wall")


# Bytes moved by the copy that stands for the device's memory bandwidth (about 4.2 TB/s on an H200).
CEILING_BYTES = 2**30


class CopyRoofline:
    """Device-to-device copy of a given byte count, timed like a kernel; cached per (device, size)."""

    def __init__(self, flusher: L2Flusher, max_reps: int = MAX_REPS):
        self.flusher = flusher
        self.max_reps = max_reps
        self._cache: dict[tuple[int, int], Timing] = {}

    def timing(self, device: torch.device, nbytes: int) -> Timing:
        key = (device.index or 0, nbytes)
        if key not in self._cache:
            half = max(nbytes // 2, 1)  # read half, write half: bytes_moved counts both
            # Its own generator: the default one can be left unusable by a candidate's failed graph capture.
            gen = torch.Generator(device=device).manual_seed(nbytes)
            src = torch.empty(half, dtype=torch.uint8, device=device).random_(generator=gen)
            dst = torch.empty_like(src)
            self._cache[key] = time_events(lambda: dst.copy_(src), self.flusher, max_reps=self.max_reps)
            del src, dst
        return self._cache[key]

    def ceiling_gbps(self, device: torch.device) -> float:
        """The best the memory moves bytes here: a 1 GiB copy. Faster than this is not from DRAM."""
        return CEILING_BYTES / self.timing(device, CEILING_BYTES).median_us / 1e3


def time_wall_alternating(
    fns: list[Callable[[], object]], reps: int = 15, before_first: Callable[[], object] | None = None
) -> list[Timing]:
    """CPU: wall-clock timings of several functions called in turn, so load drift hits all alike.

    `before_first` runs, untimed, before every call of `fns[0]` (the candidate).
    """
    for fn in fns:
        for _ in range(WARMUP_CALLS):
            fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(reps):
        for i, (fn, bucket) in enumerate(zip(fns, samples, strict=True)):
            if i == 0 and before_first is not None:
                before_first()
            start = time.perf_counter()
            fn()
            bucket.append((time.perf_counter() - start) * 1e6)
    return [_timing(bucket, "wall") for bucket in samples]
