"""ncu counters of the shipped kernels (our own files, not candidates) and of a copy of the same bytes.

    python benchmarks/probes/ncu_kernels.py --ops rope_qk,rms_norm --backends tilelang,ninetoothed \
        --shapes 'llama3-8b/decode128*' 'llama3.2-1b/prefill2048*' --json ncu-kernels.json

Issue 16 asks, for each goal a kernel misses, what the profile shows. The judge's profile stage runs a
candidate confined in a runner (tools/evaluator/profile.py); the shipped kernels need no confinement,
so this runs them in one process under ncu: per case a warm-up call, then one call between profiler start
and stop, after a one-element fill that marks where the case's kernels begin. Beside each case, the judge's
copy kernel (`contestants.copy`) moves the same bytes under the same counters.

Per kernel: duration, DRAM throughput (% of peak), DRAM bytes read and written against the bytes the op
must move (`spec.bytes_moved`), achieved occupancy, registers, grid and block, waves per SM.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.evaluator.profile import MARKER, NCU_METRICS, ncu_command, parse_ncu_csv, parse_number
from tools.paths import PROJECT_ROOT


def _cases(ops: list[str], backends: list[str], patterns: list[str], dtype: str) -> list[dict]:
    from workbench.kernels import registry

    cases = []
    for op in ops:
        spec = registry.spec(op)
        for shape in spec.select(patterns):
            for backend in [*backends, "copy"]:
                if backend != "copy" and op not in registry.ops_with(backend):
                    continue
                cases.append(
                    {"op": op, "backend": backend, "shape": shape.name, "dims": list(shape.dims), "dtype": dtype}
                )
    return cases


def _inner(cases: list[dict]) -> None:
    """Under ncu: each case's warm-up call, then the marker and one profiled call."""
    import torch

    from tools.evaluator.contestants import copy
    from tools.evaluator.layout import copy_source_bytes
    from workbench.kernels import registry
    from workbench.kernels.spec import parse_dtype

    marker = torch.zeros(1, dtype=torch.int32, device="cuda")
    for i, case in enumerate(cases):
        spec, dtype = registry.spec(case["op"]), parse_dtype(case["dtype"])
        args = spec.make_inputs(tuple(case["dims"]), dtype, i + 1, "cuda")
        if case["backend"] == "copy":
            half = copy_source_bytes(spec.bytes_moved(tuple(case["dims"]), dtype))
            src = torch.randint(0, 256, (half,), dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)

            def call(src=src, dst=dst):
                copy(src, out=dst)
        else:
            fn = registry.load_native(case["op"], case["backend"])
            out = spec.empty_out(args)

            def call(fn=fn, args=args, out=out):
                fn(*args, out=out)

        call()  # JIT and first touch outside the profiled range
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        marker.fill_(i)
        call()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()


def _rows(cases: list[dict], text: str) -> list[dict]:
    from workbench.kernels import registry
    from workbench.kernels.spec import parse_dtype

    labels = [(f"{c['op']}[{c['backend']}] {c['shape']}", c["dtype"]) for c in cases]
    profiles = parse_ncu_csv(text, labels)
    rows = []
    for case, (label, _) in zip(cases, labels, strict=True):
        must = registry.spec(case["op"]).bytes_moved(tuple(case["dims"]), parse_dtype(case["dtype"]))
        for p in (p for p in profiles if p.shape == label):
            raw = p.raw
            moved = sum(parse_number(raw.get(k, "")) or 0.0 for k in ("dram_read_bytes", "dram_write_bytes"))
            rows.append(
                {
                    **case,
                    "kernel": p.kernel,
                    "duration_us": p.duration_us,
                    "dram_throughput_pct": p.dram_throughput_pct,
                    "dram_bytes": moved,
                    "bytes_moved": must,
                    "achieved_occupancy_pct": p.achieved_occupancy_pct,
                    "registers_per_thread": p.registers_per_thread,
                    "grid_size": raw.get("grid_size"),
                    "block_size": raw.get("block_size"),
                    "waves_per_sm": raw.get("waves_per_sm"),
                    "sm_throughput_pct": raw.get("sm_throughput_pct"),
                }
            )
    return rows


def _table(rows: list[dict]) -> str:
    head = (
        f"{'µs':>8} {'DRAM %':>6} {'bytes/needed':>12} {'occ %':>6} {'regs':>4} {'grid':>8} {'block':>5} {'waves':>6}"
    )
    lines = [f"{'case':58} {head}"]
    for r in rows:
        ratio = r["dram_bytes"] / r["bytes_moved"] if r["bytes_moved"] and r["dram_bytes"] else float("nan")
        name = f"{r['op']}[{r['backend']}] {r['shape']}"[:58]
        lines.append(
            f"{name:58} {r['duration_us'] or 0:8.2f} {r['dram_throughput_pct'] or 0:6.1f} {ratio:12.2f} "
            f"{r['achieved_occupancy_pct'] or 0:6.1f} {r['registers_per_thread'] or 0:4d} {r['grid_size'] or '':>8} "
            f"{r['block_size'] or '':>5} {r['waves_per_sm'] or '':>6}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default="rope,rope_qk,rms_norm,add_rms_norm,silu_mul")
    parser.add_argument("--backends", default="tilelang,ninetoothed")
    parser.add_argument("--shapes", nargs="+", default=["llama3-8b/decode128*", "llama3-8b/prefill8192*"])
    parser.add_argument("--dtype", default="bf16")
    parser.add_argument("--json")
    parser.add_argument("--timeout-per-op", type=float, default=120.0, help="seconds for each op's ncu run")
    parser.add_argument("--inner", help=argparse.SUPPRESS)  # the cases file, when run under ncu
    args = parser.parse_args()
    if args.inner:
        _inner(json.loads(Path(args.inner).read_text()))
        return 0
    cases = _cases(args.ops.split(","), args.backends.split(","), args.shapes, args.dtype)
    if not cases:
        print("no cases: check --ops, --backends and --shapes", file=sys.stderr)
        return 2
    ncu = shutil.which("ncu")
    if ncu is None:
        print("ncu is not on PATH (a GPU host with Nsight Compute is needed)", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")]))
    rows: list[dict] = []
    statuses: dict[str, str] = {}
    # One ncu run per op: a run that hangs or outlives its share loses that op only, and the JSON is
    # rewritten after each, so a call stopped from outside keeps what finished.
    for op in dict.fromkeys(c["op"] for c in cases):
        these = [c for c in cases if c["op"] == op]
        status, op_rows, tail = _profile(ncu, these, env, args.timeout_per_op)
        statuses[op] = status
        rows += op_rows
        print(f"{op}: ncu {status}, {len(op_rows)} kernel rows for {len(these)} cases", flush=True)
        if not op_rows:
            print(tail, file=sys.stderr)
        if args.json:
            Path(args.json).write_text(
                json.dumps({"metrics": NCU_METRICS, "status": statuses, "cases": cases, "rows": rows}, indent=1)
            )
    print(f"marker kernel: {MARKER}")
    print(_table(rows))
    return 0 if rows else 1


def _profile(ncu: str, cases: list[dict], env: dict, timeout: float) -> tuple[str, list[dict], str]:
    """One ncu run over `cases`: its status, its rows, the tail of what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        cases_file, log = Path(tmp) / "cases.json", Path(tmp) / "ncu.csv"
        cases_file.write_text(json.dumps(cases))
        command = [*ncu_command(ncu), "--log-file", str(log), sys.executable, __file__, "--inner", str(cases_file)]
        # Its own session: a timeout kills ncu and the program it profiles, which would hold the GPU.
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
        )
        try:
            out, _ = proc.communicate(timeout=timeout)
            status = f"exit {proc.returncode}"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            status = f"stopped after {timeout:g} s"
        tail = (out or "")[-600:]
        text = log.read_text(errors="replace") if log.exists() else ""
    return status, _rows(cases, text), tail


if __name__ == "__main__":
    sys.exit(main())
