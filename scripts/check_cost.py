"""Host cost of each op's input checks alone (`spec.check_inputs` with `out=`), on any machine.

The checks are plain Python on tensor metadata, so their cost can be followed without a GPU: CPU
tensors of each op's decode1 shape in bf16, `require_gpu=False` (the GPU check is one `is_cuda` read).
scripts/host_cost.py times the same checks on the GPU host beside whole calls; this is the quick loop
for changing them. Figures from one machine compare with each other only.

    python scripts/check_cost.py [--ops rope_qk,add_rms_norm] [--json check-cost.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import torch

from kernels import registry

CALLS = 2000
ROUNDS = 15


def _inputs(op: str) -> tuple[object, tuple, object]:
    spec = registry.spec(op)
    shape = next(s for s in spec.shapes if s.name.startswith("llama3.2-1b/decode1"))
    args = spec.make_inputs(shape.dims, torch.bfloat16, 0, "cpu")
    return spec, args, spec.empty_out(args)


def _per_call_us(check, args, out) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        check(*args, out, require_gpu=False)
    return (time.perf_counter() - start) / CALLS * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default=",".join(registry.OPERATORS))
    parser.add_argument("--json", help="write the results here")
    options = parser.parse_args()
    cases = {op: _inputs(op) for op in options.ops.split(",")}
    samples: dict[str, list[float]] = {op: [] for op in cases}
    for _ in range(ROUNDS):  # round by round, so every op meets the same machine
        for op, (spec, args, out) in cases.items():
            samples[op].append(_per_call_us(spec.check_inputs, args, out))
    results = {op: round(statistics.median(values), 3) for op, values in samples.items()}
    for op, median in results.items():
        print(f"{op:14s} check_inputs with out=  {median:6.2f} µs/call")
    if options.json:
        record = {"what": "spec.check_inputs(*args, out) on CPU tensors, decode1, bf16", "machine": platform.node()}
        record |= {"calls_per_round": CALLS, "rounds": ROUNDS, "median_us": results}
        with open(options.json, "w") as handle:
            json.dump(record, handle, indent=1)


if __name__ == "__main__":
    main()
