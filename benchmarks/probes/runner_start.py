"""What a runner costs to start: exec'd (a new interpreter importing torch) against forked from the zygote.

    PYTHONPATH=$PWD python benchmarks/probes/runner_start.py [--runners 6] [--device cpu|cuda]

Starts `--runners` runners of the trusted torch baseline one after another in each mode
(`KW_RUNNER_ZYGOTE=0`, then the zygote; tools/evaluator/zygote.py) and prints, per mode, the
median and total of: seconds from asking for the runner to its hello (the judge's wait), and the
runner's own CPU-seconds until its hello (every thread, from /proc/PID/task/*/schedstat). The
zygote's one-time start (seconds to its hello, its CPU-seconds) is printed apart: the first
forked runner of a judge process waits for it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from tools.evaluator import confine, zygote
from tools.evaluator.process import RunnerProcess


def start_one(device: str, index: int, zygotes: zygote.Zygotes) -> tuple[float, float, bool]:
    """(seconds to hello, the runner's CPU-seconds until then, forked) for one runner."""
    asked = time.monotonic()
    runner = RunnerProcess(
        "reference",
        {"kind": "builtin", "names": ["torch"], "op": "rms_norm", "device": device},
        device=device,
        target="auto",
        cache_key=f"runner-start-{index}",
        zygotes=zygotes,
    )
    try:
        hello = runner.wait_hello(time.monotonic() + 300)
        waited = time.monotonic() - asked
        use = confine.cpu_use(runner.pid)
        if not hello.ok:
            raise SystemExit(f"the runner failed to start: {hello.error}")
        return waited, (use.main_ns + use.others_ns) / 1e9, runner.forked
    finally:
        runner.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", type=int, default=6)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    zygotes = zygote.Zygotes()
    for mode in ("exec", "zygote"):
        os.environ["KW_RUNNER_ZYGOTE"] = "0" if mode == "exec" else "1"
        results = [start_one(args.device, i, zygotes) for i in range(args.runners)]
        waits, cpus, forked = zip(*results, strict=True)
        print(
            f"{mode:>6}: {len(results)} runners ({sum(forked)} forked); "
            f"to hello median {statistics.median(waits):.2f} s "
            f"(total {sum(waits):.1f} s); runner CPU median {statistics.median(cpus):.2f} s (total {sum(cpus):.1f} s)"
        )
        if mode == "zygote":
            for parent in zygotes.running():
                print(
                    "zygote start (once per Zygotes, before its first forked runner): "
                    f"{parent.start_seconds:.2f} s to its hello, {parent.start_cpu_seconds:.2f} CPU-s"
                )
    zygotes.close()


if __name__ == "__main__":
    main()
