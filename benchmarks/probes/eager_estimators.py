"""How many shapes of an A/A record fall within 0.98-1.02 under other statistics of the eager batches.

    python benchmarks/probes/eager_estimators.py aa-rope-tilelang-*.json   # records of `agent eval --against` itself

The judge takes the median of per-round ratios (incumbent over candidate). This re-reads the same batches
as the ratio of medians, of quartiles, of 10th percentiles and of minima, and as the ratio of the runner's
main-thread CPU time per call: whether any statistic of the batches the judge already times would get the
A/A within 2% (timing_noise.md).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    at = (len(ordered) - 1) * q
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def _statistics(candidate: dict, incumbent: dict) -> dict[str, float]:
    mine, theirs = candidate["batch_us"], incumbent["batch_us"]
    main = [b["main_us"] / a["main_us"] for a, b in zip(candidate["host"], incumbent["host"], strict=False)]
    return {
        "median of per-round ratios": statistics.median(t / m for t, m in zip(theirs, mine, strict=True)),
        "ratio of medians": statistics.median(theirs) / statistics.median(mine),
        "ratio of quartiles": _quantile(theirs, 0.25) / _quantile(mine, 0.25),
        "ratio of 10th percentiles": _quantile(theirs, 0.1) / _quantile(mine, 0.1),
        "ratio of minima": min(theirs) / min(mine),
        "main-thread CPU time": statistics.median(main) if main else float("nan"),
    }


def summarise(path: Path) -> str:
    record = json.loads(path.read_text())
    within: dict[str, int] = {}
    spreads: list[float] = []
    shapes = 0
    for bench in record["benchmark"]:
        eager = bench.get("eager") or {}
        if not (eager.get("candidate") and eager.get("incumbent")):
            continue
        shapes += 1
        mine, theirs = eager["candidate"]["batch_us"], eager["incumbent"]["batch_us"]
        spreads.append(statistics.pstdev(math.log(t / m) for t, m in zip(theirs, mine, strict=True)))
        for name, value in _statistics(eager["candidate"], eager["incumbent"]).items():
            within[name] = within.get(name, 0) + (0.98 <= value <= 1.02)
    lines = [f"{path.name}: {shapes} shapes with an eager pair"]
    lines += [f"  {name:<28} {count:3d} of {shapes} within 0.98-1.02" for name, count in within.items()]
    if spreads:  # how far apart a round's two batches ran: what pairing them in time did not remove
        lines.append(f"  per-round log-ratio spread, median over shapes: {statistics.median(spreads):.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print("\n".join(summarise(Path(p)) for p in sys.argv[1:]))
