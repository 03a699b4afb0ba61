"""The judge's graph-scope µs per call beside Triton's `do_bench` of the same shipped kernels (GPU).

    python benchmarks/probes/judge_vs_do_bench.py [OP:BACKEND:SHAPE ...] [--json PATH] [--runs 3]

For each case: `agent eval`'s judge (one shape, graph and eager scopes, no other dtypes) gives µs per
call and the fraction of a same-size copy; then, in this process, `triton.testing.do_bench` times the
kernel file's op on one input set and a `copy_` of the same bytes, L2 flushed before every call, the
median of `--runs` runs. The judge's figure should sit within a few percent of do_bench's at shapes of
128 MB and more. This process imports the kernel files: its figures are a probe's, never a verdict.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

CASES = (
    "add_rms_norm:tilelang:llama3-8b/prefill16384",
    "rms_norm:tilelang:llama3-8b/prefill32768",
    "silu_mul:ninetoothed:llama3-8b/prefill16384",
    "rope_qk:tilelang:llama3-8b/prefill16384",
    "rope:tilelang:llama3-8b/prefill16384/q",
)


def _judge(op: str, backend: str, shape: str) -> dict:
    from tools.evaluator.evaluate import evaluate

    record = evaluate(op, backend, shapes=[shape], dtypes=("bf16",), baselines=("eager",), other_dtypes=False)
    if record.status != "ok":
        return {"error": record.message[:300]}
    bench = record.benchmark[0]
    graph = bench.graph
    return {
        "us": graph.candidate.median_us,
        "copy_us": graph.roofline.median_us if graph.roofline else None,
        "fraction_of_copy": graph.fraction_of_copy,
        "eager_us": bench.eager.candidate.median_us if bench.eager else None,
        "bytes": bench.bytes_moved,
    }


def _do_bench(op: str, backend: str, shape: str, runs: int) -> dict:
    import torch
    import triton.testing

    from kernels import registry
    from tools.evaluator.layout import copy_source_bytes

    spec = registry.spec(op)
    dims = spec.shape(shape).dims
    path = Path(registry.__file__).parent / op / f"{backend}.py"
    loaded = importlib.util.spec_from_file_location(f"kernels.{op}.{backend}", path)
    module = importlib.util.module_from_spec(loaded)
    sys.modules[loaded.name] = module
    loaded.loader.exec_module(module)
    fn = getattr(module, op)
    args = spec.make_inputs(dims, torch.bfloat16, 1, "cuda")
    out = spec.empty_out(args)
    fn(*args, out=out)
    half = copy_source_bytes(spec.bytes_moved(dims, torch.bfloat16))
    src = torch.empty(half, dtype=torch.uint8, device="cuda").random_(0, 256)
    dst = torch.empty_like(src)

    def median_of(call) -> float:
        times = [triton.testing.do_bench(call, warmup=25, rep=200, return_mode="median") for _ in range(runs)]
        return statistics.median(times)

    kernel_ms = median_of(lambda: fn(*args, out=out))
    copy_ms = median_of(lambda: dst.copy_(src))
    return {"us": kernel_ms * 1e3, "copy_us": copy_ms * 1e3, "fraction_of_copy": copy_ms / kernel_ms}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge_vs_do_bench.py", description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", default=list(CASES), help="OP:BACKEND:SHAPE")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    print(f"{'case':58} {'judge µs':>9} {'do_bench':>9} {'over':>7} {'judge/copy':>10} {'db/copy':>8}")
    for case in args.cases:
        op, backend, shape = case.split(":", 2)
        judged = _judge(op, backend, shape)
        timed = _do_bench(op, backend, shape, args.runs)
        row = {"case": case, "judge": judged, "do_bench": timed}
        rows.append(row)
        if "error" in judged:
            print(f"{case:58} judge failed: {judged['error']}")
            continue
        over = judged["us"] / timed["us"] - 1
        print(
            f"{case:58} {judged['us']:9.1f} {timed['us']:9.1f} {over:+7.1%} "
            f"{judged['fraction_of_copy'] or 0:10.3f} {timed['fraction_of_copy']:8.3f}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
