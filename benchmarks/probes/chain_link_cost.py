"""What the half-output chain link costs a timed batch, beside the whole-output chain of round 3 (CPU or GPU).

    python benchmarks/probes/chain_link_cost.py [--device cpu] [--calls 64] [--repeats 15] [--json PATH]

Per op, on one decode and one prefill-sized shape: a batch of chained calls of the torch reference (fp32
math, one rounding, written into `out`) laid out as the judge lays out a timed batch (tools/evaluator/layout.py),
once with each call's argument ended by the first half of the last output (the judge's chain) and once led by
the whole of it (`chain_lead` 0, round 3's). Batches of the two alternate; printed are the median µs per call of
each, their ratio, the spread of each (interquartile range over median) and the arena bytes per set. Same
launches and bytes per call by construction: the ratio should be 1 within the spread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

CASES = {
    "rope": ("llama3-8b/decode8/q", "llama3.2-1b/prefill512/q"),
    "rope_qk": ("llama3-8b/decode8", "llama3.2-1b/prefill512"),
    "rms_norm": ("llama3-8b/decode8", "llama3.2-1b/prefill512"),
    "add_rms_norm": ("llama3-8b/decode8", "llama3.2-1b/prefill512"),
    "silu_mul": ("llama3-8b/decode8", "llama3.2-1b/prefill512"),
}


def _batch(spec, layout, arenas, count: int, device: str) -> float:
    """Seconds for `count` chained calls in order, as a runner makes them."""
    import torch

    from workbench.kernels.registry import torch_implementation

    fn = torch_implementation(spec.name)
    calls = [(layout.set_args(arenas, i), spec.as_outputs(layout.set_outputs(arenas[1], i))) for i in range(count)]
    layout.poison(arenas[1], count)
    if device == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    for args, outs in calls:
        for buffer, value in zip(outs, spec.as_outputs(fn(*args)), strict=True):
            buffer.copy_(value)
    if device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


def measure(op: str, shape: str, device: str, calls: int, repeats: int) -> dict:
    import torch

    from tools.evaluator import layout as layouts
    from workbench.kernels import registry

    spec = registry.spec(op)
    args = spec.make_inputs(spec.shape(shape).dims, torch.bfloat16, 1, device)
    outs = spec.as_outputs(spec.empty_out(args))
    real_lead = layouts.chain_lead
    built = {}
    for name, lead in (("half", real_lead), ("whole", lambda arg_nbytes, out_nbytes: 0)):
        layouts.chain_lead = lead
        try:
            layout = layouts.Layout(args, outs, calls, spec.multi_output, chain=spec.chain)
        finally:
            layouts.chain_lead = real_lead
        sizes = (layout.input_bytes, layout.output_bytes)
        arenas = tuple(torch.zeros(n, dtype=torch.uint8, device=device) for n in sizes)
        layout.fill_alike(arenas, args)
        built[name] = (layout, arenas)
    times: dict[str, list[float]] = {"half": [], "whole": []}
    for _ in range(repeats + 1):  # the first pair warms up
        for name in ("half", "whole"):
            layout, arenas = built[name]
            times[name].append(_batch(spec, layout, arenas, calls, device) / calls * 1e6)
    row: dict = {"op": op, "shape": shape}
    for name, values in times.items():
        values = values[1:]
        quartiles = statistics.quantiles(values, n=4)
        row[f"{name}_us"] = round(statistics.median(values), 2)
        row[f"{name}_spread"] = round((quartiles[2] - quartiles[0]) / statistics.median(values), 4)
        row[f"{name}_set_bytes"] = built[name][0].set_bytes
    row["ratio"] = round(row["half_us"] / row["whole_us"], 4)
    return row


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="chain_link_cost.py", description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--calls", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    import torch

    if args.device == "cpu":
        torch.set_flush_denormal(True)  # as the judge's runners do on the CPU
        torch.set_num_threads(1)  # one core's figures: the others' load moves a threaded op by whole multiples
    rows = []
    print(f"{'case':42} {'half µs':>9} {'whole µs':>9} {'ratio':>7} {'spread h/w':>13} {'set bytes h/w':>19}")
    for op, shapes in CASES.items():
        for shape in shapes:
            row = measure(op, shape, args.device, args.calls, args.repeats)
            rows.append(row)
            print(
                f"{op + ' ' + shape:42} {row['half_us']:9.1f} {row['whole_us']:9.1f} {row['ratio']:7.3f} "
                f"{row['half_spread']:6.1%}/{row['whole_spread']:<6.1%} "
                f"{row['half_set_bytes']:>9}/{row['whole_set_bytes']:<9}",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
