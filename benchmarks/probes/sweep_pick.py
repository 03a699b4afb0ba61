"""From a tiling sweep to the judge, and from the judge's verdict to the kernel file, without a person between.

    python benchmarks/probes/sweep_pick.py sweep.json               # prints the pick as KEY=VALUE,KEY=VALUE
    python benchmarks/probes/sweep_pick.py --adopt OP BACKEND DIR   # the best accepted variant record in DIR replaces
                                                          # kernels/OP/BACKEND.py

The pick is the sweep's tiling with the highest geomean fraction of copy, every shape correct, at least
MARGIN above the shipped CONFIG's (the sweep's first row). The sweep is self-reported, so the pick is only
what the judge times next (`agent eval --set ... --against`).
Adoption takes only a record the judge accepted as agent optimize would (tools/evaluator/decide.py), and only a
candidate file whose sha256 is the record's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

from tools.evaluator.decide import decide
from tools.evaluator.records import EvalRecord

# A sweep's geomeans of one tiling move about this much between rounds; a pick nearer the shipped one is noise
# (H200, 2026-12-02: rope[ninetoothed]'s best of 10 tilings came 0.843 against the shipped 0.840).
MARGIN = 1.02


def pick(sweep: dict) -> dict | None:
    """The best tiling of a sweep record, or None when none beats the shipped CONFIG's geomean by MARGIN."""
    shipped, *others = sweep["results"]
    correct = [r for r in others if r["geomean_fraction"] and all("error" not in s for s in r["shapes"])]
    best = max(correct, key=lambda r: r["geomean_fraction"], default=None)
    if best is None or best["geomean_fraction"] < MARGIN * (shipped["geomean_fraction"] or 0):
        return None
    return best["config"]


def accepted_variants(op: str, backend: str, folder: Path) -> list[tuple[float, EvalRecord, Path]]:
    """(graph geomean over the shipped file, record, record path) of every accepted variant, best first."""
    found = []
    for path in sorted(folder.glob(f"variant-{op}-{backend}-*.json")):
        record = EvalRecord.model_validate_json(path.read_text())
        decision = decide(record, against_best=True)
        if decision.accepted:
            found.append((record.geomean_speedup("incumbent", "graph"), record, path))
    return sorted(found, key=lambda item: -item[0])


def adopt(op: str, backend: str, folder: Path, kernels: Path = Path("kernels")) -> str:
    found = accepted_variants(op, backend, folder)
    if not found:
        return f"{op}[{backend}]: no variant in {folder} was accepted; kernels/{op}/{backend}.py unchanged"
    geomean, record, path = found[0]
    candidate = Path(record.candidate)
    digest = hashlib.sha256(candidate.read_bytes()).hexdigest()
    if digest != record.candidate_sha256:
        raise SystemExit(
            f"{candidate} is not the file the judge timed (sha256 {digest[:12]} != {record.candidate_sha256[:12]})"
        )
    target = kernels / op / f"{backend}.py"
    shutil.copyfile(candidate, target)
    return f"{op}[{backend}]: adopted {path.name} (graph geomean {geomean:.3f}x over the shipped file), sha256 {digest}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sweep", nargs="?", help="a benchmarks/probes/tiling_sweep.py --json record")
    parser.add_argument("--adopt", nargs=3, metavar=("OP", "BACKEND", "DIR"))
    args = parser.parse_args()
    if args.adopt:
        op, backend, folder = args.adopt
        print(adopt(op, backend, Path(folder)))
        return 0
    if not args.sweep:
        parser.error("give a sweep record, or --adopt OP BACKEND DIR")
    config = pick(json.loads(Path(args.sweep).read_text()))
    if config is None:
        print(f"no tiling {MARGIN}x above the shipped CONFIG's geomean", file=sys.stderr)
        return 1
    print(",".join(f"{key}={value}" for key, value in config.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
