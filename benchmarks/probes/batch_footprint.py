"""Where a batch's µs per call parts from do_bench's at large shapes: footprint, chaining or the flush (GPU).

    python benchmarks/probes/batch_footprint.py [OP:BACKEND:SHAPE ...] [--calls 15] [--json PATH]

Times one shipped kernel in this process, each figure the median of 10 CUDA-graph replays (L2 flushed
before each), µs per call:
- chained: N calls over N+1 buffers, call i+1 reading call i's output (the judge's layout);
- ping-pong: N chained calls over two buffers (the same chain, a fortieth of the footprint);
- repeated: N calls on one input and one output (no chain, the smallest footprint);
- do_bench: triton.testing.do_bench of one call (L2 flushed before each call, events around each).
A gap between chained and ping-pong is the footprint's (TLB, pages); between repeated and do_bench, the
per-call flush (do_bench's calls end with dirty lines in L2 that the next flush writes back, unpaid).
This process imports the kernel files: a probe's figures, never a verdict.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

CASES = ("rms_norm:tilelang:llama3-8b/prefill32768", "rope:tilelang:llama3-8b/prefill16384/q")


def _kernel(op: str, backend: str):
    from workbench.kernels import registry

    path = Path(registry.__file__).parent / op / f"{backend}.py"
    loaded = importlib.util.spec_from_file_location(f"workbench.kernels.{op}.{backend}", path)
    module = importlib.util.module_from_spec(loaded)
    sys.modules[loaded.name] = module
    loaded.loader.exec_module(module)
    return getattr(module, op)


def _replayed(torch, calls: list, flush) -> float:
    """Median µs per call of a graph of `calls`, L2 flushed before each replay."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for call in calls[:2]:
            call()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for call in calls:
            call()
    graph.replay()
    times = []
    for _ in range(10):
        flush.zero_()
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end) * 1e3 / len(calls))
    return statistics.median(times)


def measure(op: str, backend: str, shape: str, calls: int) -> dict:
    import torch
    import triton.testing

    from workbench.kernels import registry

    spec = registry.spec(op)
    dims = spec.shape(shape).dims
    fn = _kernel(op, backend)
    args = spec.make_inputs(dims, torch.bfloat16, 1, "cuda")
    link = spec.chain[0]
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device="cuda")

    def call_on(buffer_in, buffer_out):
        call_args = list(args)
        call_args[link.arg] = buffer_in
        return lambda: fn(*call_args, out=buffer_out)

    x = args[link.arg]
    chained = [x.clone() for _ in range(calls + 1)]
    ping, pong = x.clone(), x.clone()
    out = torch.empty_like(x)
    row = {
        "chained": _replayed(torch, [call_on(chained[i], chained[i + 1]) for i in range(calls)], flush),
        "ping-pong": _replayed(torch, [call_on(*((ping, pong), (pong, ping))[i % 2]) for i in range(calls)], flush),
        "repeated": _replayed(torch, [call_on(x, out)] * calls, flush),
        "do_bench": triton.testing.do_bench(call_on(x, out), warmup=25, rep=200, return_mode="median") * 1e3,
    }
    return {name: round(value, 2) for name, value in row.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="batch_footprint.py", description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", default=list(CASES), help="OP:BACKEND:SHAPE (ops with one output)")
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = {}
    for case in args.cases:
        op, backend, shape = case.split(":", 2)
        rows[case] = measure(op, backend, shape, args.calls)
        print(case, rows[case], flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
