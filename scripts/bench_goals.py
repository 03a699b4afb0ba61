"""Issue 16's speed goals read off `agent bench` JSON files: which backend meets which, by op.

    python scripts/bench_goals.py benchmarks/results/nvidia-h200/*.json [--json goals.json]

Per op and backend, from the judge's graph scope (device time) on the named bf16 shapes:
- fraction of copy, minimum over shapes moving 16-128 MB (goal >= 0.92) and over >= 128 MB (>= 0.97);
- speedup over Liger-Kernel, the lowest per-shape median (goal > 1 on every shape);
- speedup over torch.compile, the same (goal > 1), read only from records whose compiled yardstick compiled
  each shape on its own (`compiled_per_shape`): earlier compile columns are not to be read;
- decode calls (shapes named decode*), the slowest graph time per call (goal <= 2.5 µs).
It only reads the records; the figures are the bench's own.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

MB = 1e6
GOALS = {"copy_16_128mb": 0.92, "copy_over_128mb": 0.97, "liger_min": 1.0, "compile_min": 1.0, "decode_max_us": 2.5}


def _goals(record: dict) -> dict:
    mid, big, liger, compiled, decode = [], [], [], [], []
    for shape in record.get("benchmark") or []:
        graph = shape.get("graph") or {}
        fraction = graph.get("fraction_of_copy")
        if fraction is not None and shape["bytes_moved"] >= 128 * MB:
            big.append((fraction, shape["shape"]))
        elif fraction is not None and shape["bytes_moved"] >= 16 * MB:
            mid.append((fraction, shape["shape"]))
        if (graph.get("speedup_vs_liger") or {}).get("median") is not None:
            liger.append((graph["speedup_vs_liger"]["median"], shape["shape"]))
        if record.get("compiled_per_shape") and (graph.get("speedup_vs_compiled") or {}).get("median") is not None:
            compiled.append((graph["speedup_vs_compiled"]["median"], shape["shape"]))
        candidate = graph.get("candidate") or {}
        if "/decode" in shape["shape"] and candidate.get("median_us") is not None:
            decode.append((candidate["median_us"], shape["shape"]))
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
        payload = json.loads(path.read_text())
        if "records" not in payload:
            continue  # not a bench file
        for record in payload["records"]:
            rows.append({"op": payload["op"], "backend": record["backend"], **_goals(record)})

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
