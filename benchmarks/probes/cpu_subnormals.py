"""Subnormal values and CPU timings: chained silu_mul in one process, and the judge's A/A on the CPU.

    python benchmarks/probes/cpu_subnormals.py [--trials 3] [--json out.json]

1. In this process: silu_mul called along a chain as the judge's timed batches chain it (call i+1's
   input begins with call i's output), with subnormal flushing off and on; the outputs shrink from
   call to call, so the chain soon computes on subnormal numbers, which x86 CPUs handle in microcode.
2. The judge: the honest torch silu_mul timed against a copy of itself (A/A) on the CPU at decode1
   and decode8, `--trials` times, with the loop's decision on each.

CPU only; see timing_noise.md ("Subnormal values on the CPU").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

HONEST = """import torch


def silu_mul(x, *, out=None):
    half = x.shape[-1] // 2
    gate, up = x[..., :half].float(), x[..., half:].float()
    result = gate * torch.sigmoid(gate) * up
    if out is None:
        out = torch.empty_like(x[..., :half])
    out.copy_(result)
    return out
"""


def chained_us_per_call(rows: int, width: int, calls: int, flush: bool) -> float:
    """Median µs per call over the later half of a chain of `calls`, subnormal flushing as asked."""
    from workbench.kernels.silu_mul.spec import make_inputs

    torch.set_flush_denormal(flush)
    try:
        # Values in [-1, 1], as the judge's timed batches once chained them whole: |silu(g) * u| shrinks each call.
        (first,) = make_inputs((rows, width), torch.bfloat16, 0, "cpu")
        first = first.clamp(-1.0, 1.0)
        step = rows * width  # one set: its input; its output begins the next set's input
        arena = torch.empty(step * (calls + 2), dtype=torch.bfloat16)
        for j in range(calls + 1):
            arena[j * step : (j + 1) * step].view(rows, width).copy_(first)
        namespace: dict = {}
        exec(HONEST, namespace)
        op = namespace["silu_mul"]
        times = []
        for j in range(calls):
            x = arena[j * step : (j + 1) * step].view(rows, width)
            out = arena[(j + 1) * step : (j + 1) * step + step // 2].view(rows, width // 2)
            start = time.perf_counter()
            op(x, out=out)
            times.append((time.perf_counter() - start) * 1e6)
        return statistics.median(times[calls // 2 :])
    finally:
        torch.set_flush_denormal(False)


def judge_aa(trials: int) -> list[dict]:
    from tools.evaluator.decide import ROUNDS_TO_ACCEPT, decide
    from tools.evaluator.evaluate import evaluate
    from tools.evaluator.options import EvalOptions

    folder = Path(tempfile.mkdtemp(prefix="kw-subnormals-"))
    os.chmod(folder, 0o755)
    incumbent, candidate = folder / "a.py", folder / "b.py"
    incumbent.write_text(HONEST)
    candidate.write_text(HONEST + "\n# the same file\n")
    for path in (incumbent, candidate):
        os.chmod(path, 0o644)
    rows = []
    for trial in range(trials):
        record = evaluate(
            "silu_mul",
            "torch",
            candidate,
            EvalOptions(
                device="cpu",
                shapes=["llama3.2-1b/decode1", "llama3-8b/decode8"],
                dtypes=("bf16",),
                batches=ROUNDS_TO_ACCEPT,
                baselines=("eager",),
                static_check=False,
                timeout_s=300,
            ),
            incumbent=incumbent,
        )
        decision = decide(record, against_best=True)
        shapes = {
            b.shape: {
                "candidate_us": b.eager.candidate.median_us if b.eager.candidate else None,
                "incumbent_us": b.eager.incumbent.median_us if b.eager.incumbent else None,
                "ratio": b.eager.speedup_vs_incumbent.median if b.eager.speedup_vs_incumbent else None,
            }
            for b in record.benchmark
        }
        rows.append({"trial": trial, "accepted": decision.accepted, "reason": decision.reason, "shapes": shapes})
        print(f"A/A {trial}: {'ACCEPTED' if decision.accepted else 'rejected'} ({decision.reason})")
        for name, row in shapes.items():
            print(f"    {name}: candidate {row['candidate_us']:.1f} µs, incumbent {row['incumbent_us']:.1f} µs")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--calls", type=int, default=64)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    chain = {}
    for rows in (1, 8):
        for flush in (False, True):
            us = chained_us_per_call(rows, 28672, args.calls, flush)
            chain[f"rows{rows}-flush{int(flush)}"] = us
            print(f"chained silu_mul {rows}x28672 bf16, flush {'on ' if flush else 'off'}: {us:.1f} µs a call")
    result = {"chain_us_per_call": chain, "judge_aa": judge_aa(args.trials)}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
