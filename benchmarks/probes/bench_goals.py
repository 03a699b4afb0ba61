"""Issue 16's speed goals read off `agent bench` JSON files: which backend meets which, by op.

    python benchmarks/probes/bench_goals.py benchmarks/results/nvidia-h200/*.json [--json goals.json]

Per op and backend, from the judge's graph scope (device time) on the named bf16 shapes:
- fraction of copy, minimum over shapes moving 16-128 MB (goal >= 0.92) and over >= 128 MB (>= 0.97);
- speedup over Liger-Kernel, the lowest per-shape median (goal > 1 on every shape);
- speedup over torch.compile, the same (goal > 1), read only from benches whose compiled yardstick compiled
  each shape on its own (`compiled_per_shape`): other compile columns are not to be read;
- decode calls (shapes named decode*), the slowest graph time per call (goal <= 2.5 µs).
It only reads the bench files (tools/results.py); the figures are the bench's own.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tools.results import ResultRow, ResultTable

MB = 1e6
GOALS = {"copy_16_128mb": 0.92, "copy_over_128mb": 0.97, "liger_min": 1.0, "compile_min": 1.0, "decode_max_us": 2.5}


def _goals(rows: list[ResultRow], compiled_per_shape: bool) -> dict:
    """Each goal's worst (value, shape) over one backend's graph-scope rows; None where no row has the figure."""
    mid, big, liger, compiled, decode = [], [], [], [], []
    for row in rows:
        if row.scope != "graph":
            continue
        if row.fraction_of_copy is not None and row.bytes_moved >= 128 * MB:
            big.append((row.fraction_of_copy, row.shape))
        elif row.fraction_of_copy is not None and row.bytes_moved >= 16 * MB:
            mid.append((row.fraction_of_copy, row.shape))
        if "liger" in row.speedup:
            liger.append((row.speedup["liger"], row.shape))
        if compiled_per_shape and "compiled" in row.speedup:
            compiled.append((row.speedup["compiled"], row.shape))
        if "/decode" in row.shape and row.median_us is not None:
            decode.append((row.median_us, row.shape))
    return {
        "copy_16_128mb": min(mid, default=None),
        "copy_over_128mb": min(big, default=None),
        "liger_min": min(liger, default=None),
        "compile_min": min(compiled, default=None),
        "decode_max_us": max(decode, default=None),
    }


def _met(name: str, value: float) -> bool:
    goal = GOALS[name]
    if name == "decode_max_us":
        return value <= goal
    return value > goal if name in ("liger_min", "compile_min") else value >= goal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    rows = []
    for path in args.files:
        table = ResultTable.load(path)
        for bench in table.benches:
            goals = _goals(table.backend_rows(bench.backend), bench.compiled_per_shape)
            rows.append({"op": table.op, "backend": bench.backend, **goals})

    names = list(GOALS)
    print("| op | backend | " + " | ".join(f"{n} (goal {GOALS[n]})" for n in names) + " |")
    print("|---" * (len(names) + 2) + "|")
    for row in rows:
        cells = []
        for name in names:
            found = row[name]
            if found is None:
                cells.append("-")
                continue
            value, shape = found
            cells.append(f"{value:.2f} {'met' if _met(name, value) else 'MISS'} ({shape})")
        print(f"| {row['op']} | {row['backend']} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps({"goals": GOALS, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
