"""What the judge's quiet check sees while another process keeps the GPU busy (time-slicing).

The judge tells an idle GPU from a busy one by the host time of a tiny probe kernel
(tools/evaluator/benchmark.py, `_quiet`). Two processes' contexts share the GPU by time-slicing, so a
probe may run at the start of the judge's slice although another process's kernel is still running.
This measures, on one GPU: probe latencies with the GPU idle, and with a second process spinning
(`torch.cuda._sleep` kernels back to back); single probes and medians of five, against the judge's limit
(max(4 x idle median, idle median + 300 µs)).

    python benchmarks/probes/timeslice_probe.py --json probe.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import torch

SPINNER = """
import sys, time, torch
x = torch.zeros(1, device="cuda"); torch.cuda.synchronize()
print("ready", flush=True)
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    torch.cuda._sleep(20_000_000)  # ~10 ms per kernel
    torch.cuda.synchronize()
"""


def probe_us(buffer: torch.Tensor) -> float:
    start = time.perf_counter()
    buffer.add_(1)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e6


def summary(values: list[float], limit: float) -> dict:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "n": len(values),
        "median_us": statistics.median(values),
        "p10_us": pick(0.1),
        "p90_us": pick(0.9),
        "max_us": ordered[-1],
        "above_limit": sum(v > limit for v in values) / len(values),
    }


def measure(buffer: torch.Tensor, seconds: float) -> tuple[list[float], list[float]]:
    singles, medians = [], []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        five = [probe_us(buffer) for _ in range(5)]
        singles += five
        medians.append(statistics.median(five))
        time.sleep(0.002)
    return singles, medians


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    buffer = torch.zeros(1, device="cuda")
    for _ in range(50):
        probe_us(buffer)
    idle, idle_medians = measure(buffer, args.seconds)
    quiet = statistics.median(idle[:30])
    limit = max(4.0 * quiet, quiet + 300.0)
    spinner = subprocess.Popen(
        [sys.executable, "-c", SPINNER, str(args.seconds + 10)], stdout=subprocess.PIPE, text=True
    )
    assert spinner.stdout is not None and spinner.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    busy, busy_medians = measure(buffer, args.seconds)
    spinner.kill()
    result = {
        "device": torch.cuda.get_device_name(),
        "limit_us": limit,
        "idle": {"single": summary(idle, limit), "median_of_5": summary(idle_medians, limit)},
        "busy": {"single": summary(busy, limit), "median_of_5": summary(busy_medians, limit)},
    }
    for state in ("idle", "busy"):
        for kind in ("single", "median_of_5"):
            s = result[state][kind]
            print(
                f"{state:4} {kind:11} n={s['n']:5} median {s['median_us']:8.1f} µs  p10 {s['p10_us']:8.1f}  "
                f"p90 {s['p90_us']:8.1f}  max {s['max_us']:9.1f}  above the {limit:.0f} µs limit: "
                f"{100 * s['above_limit']:.1f}%"
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
