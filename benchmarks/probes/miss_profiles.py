"""What the profile shows where a kernel misses issue 16's goals: the judge's bench beside ncu's counters.

    python benchmarks/probes/miss_profiles.py benchmarks/results/nvidia-h200/*.json \
        --ncu ncu-kernels.json   # benchmarks/probes/ncu_kernels.py --json's output

Two tables, both read from files the project's commands wrote (nothing is measured here):
- per op, backend and profiled shape: the judge's graph-scope time and fraction of copy (`agent bench`),
  then ncu's single call of the kernel and of the judge's copy kernel on the same bytes
  (`benchmarks/probes/ncu_kernels.py`): their ratio, DRAM throughput, achieved occupancy, registers, grid and waves;
- per decode shape: the time of the judge's copy of the same bytes, against the 2.5 µs goal, with the
  fastest kernel backend and torch.compile beside it: where the copy alone takes longer than the goal,
  no kernel that moves those bytes can meet it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.evaluator.profile import parse_number
from tools.results import ResultRow, ResultTable

DECODE_GOAL_US = 2.5


def _bench(paths: list[Path]) -> dict[tuple[str, str, str], ResultRow]:
    """(op, backend, shape) -> that shape's bf16 graph-scope row."""
    found = {}
    for path in paths:
        table = ResultTable.load(path)
        for row in table.rows:
            if row.dtype == "bf16" and row.scope == "graph":
                found[(table.op, row.backend, row.shape)] = row
    return found


def _copy_us(row: ResultRow) -> float | None:
    """The judge's copy of the same bytes, timed beside the kernel: fraction of copy is copy time over kernel time."""
    return row.median_us * row.fraction_of_copy if row.median_us and row.fraction_of_copy else None


def _compiled_us(row: ResultRow) -> float | None:
    """torch.compile's time per call, from the kernel's time and the median per-round ratio over it."""
    return row.median_us * row.speedup["compiled"] if row.median_us and "compiled" in row.speedup else None


def _ncu_table(bench: dict, ncu: dict) -> list[str]:
    rows = ncu["rows"]
    copies = {(r["op"], r["shape"]): r for r in rows if r["backend"] == "copy"}
    lines = [
        "| op | backend | shape | judge µs | judge of copy | ncu µs | ncu copy µs | ncu of copy | DRAM % "
        "(copy) | occupancy % (copy) | regs | grid x block | waves |",
        "|---" * 13 + "|",
    ]
    for r in rows:
        if r["backend"] == "copy":
            continue
        copy = copies.get((r["op"], r["shape"]), {})
        graph = bench.get((r["op"], r["backend"], r["shape"]))
        judge_us, fraction = (graph.median_us, graph.fraction_of_copy) if graph else (None, None)
        ratio = copy["duration_us"] / r["duration_us"] if copy.get("duration_us") and r["duration_us"] else None
        lines.append(
            f"| {r['op']} | {r['backend']} | {r['shape']} | {_f(judge_us)} | {_f(fraction)} | {_f(r['duration_us'])} "
            f"| {_f(copy.get('duration_us'))} | {_f(ratio)} | {_f(r['dram_throughput_pct'], 0)} "
            f"({_f(copy.get('dram_throughput_pct'), 0)}) | {_f(r['achieved_occupancy_pct'], 0)} "
            f"({_f(copy.get('achieved_occupancy_pct'), 0)}) | {r['registers_per_thread']} "
            f"| {r['grid_size']} x {r['block_size']} | {r['waves_per_sm']} |"
        )
    return lines


def _decode_table(bench: dict) -> list[str]:
    lines = [
        f"| op | shape | copy µs (judge) | copy within {DECODE_GOAL_US} µs | fastest backend µs | torch.compile µs |",
        "|---" * 6 + "|",
    ]
    shapes = sorted({(op, shape) for op, _, shape in bench if "/decode" in shape})
    for op, shape in shapes:
        graphs = {b: g for (o, b, s), g in bench.items() if o == op and s == shape}
        copy = min((us for g in graphs.values() if (us := _copy_us(g))), default=None)
        timed = {b: g.median_us for b, g in graphs.items() if g.median_us}
        best = min(timed.items(), key=lambda kv: kv[1], default=None)
        compiled = min((us for g in graphs.values() if (us := _compiled_us(g))), default=None)
        within = "-" if copy is None else ("yes" if copy <= DECODE_GOAL_US else "no")
        fastest = f"{best[1]:.2f} ({best[0]})" if best else "-"
        lines.append(f"| {op} | {shape} | {_f(copy)} | {within} | {fastest} | {_f(compiled)} |")
    return lines


def _f(value, digits: int = 2) -> str:
    number = None if value is None else parse_number(str(value))  # ncu writes "4,096"
    return "-" if number is None else f"{number:.{digits}f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench", nargs="+", type=Path, help="agent bench JSON files")
    parser.add_argument("--ncu", type=Path, required=True, help="benchmarks/probes/ncu_kernels.py --json output")
    args = parser.parse_args()
    bench = _bench(args.bench)
    ncu = json.loads(args.ncu.read_text())
    print("## The judge's bench beside ncu (bf16, graph scope; ncu: one call, caches flushed)\n")
    print("\n".join(_ncu_table(bench, ncu)))
    print(f"\n## Decode: the copy of the same bytes against the {DECODE_GOAL_US} µs goal (judge, graph scope)\n")
    print("\n".join(_decode_table(bench)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
