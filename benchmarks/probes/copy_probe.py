"""How fast can the copy yardstick run? Ways to copy N bytes between the judge's kind of buffers.

The benchmark's copy seat (`out.copy_(src)` between two VMM arenas, the input mapped read-only)
ran at 2.5 TB/s replayed on the H200 against 4.1 TB/s for the same copy in the caching allocator's
memory, so "% of copy" read above 100%. This times each way of copying, on each kind of memory,
in the judge's two scopes (back-to-back eager calls, and a CUDA graph of them), and prints JSON:

    python benchmarks/probes/copy_probe.py --json copy-probe.json
    python benchmarks/probes/copy_probe.py --sizes-mb 672 --ways "SM kernel (bitwise_or int32)"  # 8B prefill16384

Why the larger sizes: at silu_mul's 8B prefill16384 (1.41 GB moved) Liger's kernel, whose inputs and output live
in its runner's caching allocator, ran at 4.9 TB/s, while the copy and our kernels, on the judge's VMM arenas,
ran at 3.8-3.9 (copy.md). Whether the arenas are slower at such spans is what this tells at those sizes.
"""

from __future__ import annotations

import argparse
import json
import statistics

import torch

from tools.evaluator import buffers

SIZES_MB = (16, 128, 512)


def _ways():
    def memcpy(src, dst):
        dst.copy_(src)

    def words(src, dst):  # an elementwise kernel on the SMs: 16-byte vectors of int32
        torch.bitwise_or(src.view(torch.int32), 0, out=dst.view(torch.int32))

    ways = {"memcpy (copy_)": memcpy, "SM kernel (bitwise_or int32)": words}
    try:
        import triton
        import triton.language as tl

        @triton.jit
        def _copy(src, dst, n, BLOCK: tl.constexpr):
            offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            tl.store(dst + offsets, tl.load(src + offsets, mask=mask), mask=mask)

        def triton_copy(src, dst):
            a, b = src.view(torch.int32), dst.view(torch.int32)
            _copy[(triton.cdiv(a.numel(), 4096),)](a, b, a.numel(), BLOCK=4096)

        ways["SM kernel (Triton, 4096 int32 per block)"] = triton_copy
    except ImportError:
        pass
    return ways


def _memories(nbytes: int, device: torch.device):
    """(name, a writable view of the source, the view the copy reads, the destination)."""
    a, b = (torch.empty(nbytes, dtype=torch.uint8, device=device) for _ in range(2))
    yield "caching allocator", a, a, b
    del a, b
    src, dst = (buffers.Arena(nbytes, device, runner_writable=w) for w in (False, True))
    yield "VMM arenas (judge's mapping)", src.tensor, src.tensor, dst.tensor
    ro, keep_ro = buffers.map_shared(src.export_fd(), src.describe(), device)
    rw, keep_rw = buffers.map_shared(dst.export_fd(), dst.describe(), device)
    yield "VMM arenas (a runner's mapping, input read-only)", src.tensor, ro[:nbytes], rw[:nbytes]
    buffers.unmap_shared(keep_ro)
    buffers.unmap_shared(keep_rw)
    src.close()
    dst.close()


def _time(fn, src, dst, reps: int, graph: bool) -> float:
    """Median seconds per copy over 7 batches of `reps` copies, CUDA events around each batch."""
    fn(src, dst)
    torch.cuda.synchronize()
    run = lambda: [fn(src, dst) for _ in range(reps)]  # noqa: E731
    if graph:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            run()
        g.replay()
        run = g.replay
    times = []
    for _ in range(7):
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        run()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end) / 1e3 / reps)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here too")
    parser.add_argument("--sizes-mb", type=int, nargs="+", default=SIZES_MB, help="bytes per buffer, in MiB")
    parser.add_argument("--ways", nargs="+", help="only these ways of copying (names as printed)")
    args = parser.parse_args()
    device = torch.device("cuda")
    ways = _ways()
    unknown = set(args.ways or ()) - set(ways)
    if unknown:
        parser.error(f"unknown ways {sorted(unknown)}; known: {sorted(ways)}")
    ways = {name: fn for name, fn in ways.items() if not args.ways or name in args.ways}
    rows = []
    for mb in args.sizes_mb:
        nbytes = mb * 2**20
        for memory, writable, src, dst in _memories(nbytes, device):
            writable.random_(0, 255)
            for way, fn in ways.items():
                for graph in (False, True):
                    dst.zero_()
                    seconds = _time(fn, src, dst, reps=max(4, 2048 // mb), graph=graph)
                    assert torch.equal(src, dst), f"{way} did not copy"
                    rows.append(
                        {
                            "mb": mb,
                            "memory": memory,
                            "way": way,
                            "scope": "graph" if graph else "eager",
                            "us": round(seconds * 1e6, 2),
                            "tbps": round(2 * nbytes / seconds / 1e12, 3),
                        }
                    )
                    print(f"{mb:4d} MB  {memory:<48} {way:<42} {rows[-1]['scope']:<5} {rows[-1]['tbps']:.2f} TB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
