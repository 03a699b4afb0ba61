"""The acceptance rule (DESIGN §2): correct everywhere and faster than the best beyond the noise.

The candidate and the current best are timed in the same child process, shape by
shape, so each shape's ratio comes from one run. Noise is half the p10-p90
spread of the noisier of the two, never below NOISE_FLOOR.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from tools.records import EvalRecord

NOISE_FLOOR = 0.02


@dataclass(frozen=True)
class Decision:
    accepted: bool
    reason: str
    geomean_speedup: float | None = None
    noise: float | None = None


def _shape_noise(candidate_spread: float, incumbent_spread: float) -> float:
    return max(NOISE_FLOOR, max(candidate_spread, incumbent_spread) / 2)


def decide(record: EvalRecord, against_best: bool) -> Decision:
    if record.status != "ok" and record.failed_stage != "e2e":
        return Decision(False, f"failed at {record.failed_stage}: {record.message}")
    speed = _decide_on_speed(record, against_best)
    if record.failed_stage == "e2e":
        # Correct and timed on every shape, but the model's tokens changed (agent/e2e_gate.py): never
        # accepted, yet its speed stays on record for the next proposal ("faster, but wrong in the model").
        return Decision(False, f"failed at e2e: {record.message}", speed.geomean_speedup, speed.noise)
    return speed


def _decide_on_speed(record: EvalRecord, against_best: bool) -> Decision:
    if not against_best:
        return Decision(True, "first correct version: it becomes the best")
    rows = [b for b in record.benchmark if b.speedup_vs_incumbent is not None and b.incumbent is not None]
    if not rows:
        return Decision(False, "no shape was timed against the current best")
    noises = [_shape_noise(b.candidate.spread, b.incumbent.spread) for b in rows]
    ratios = [b.speedup_vs_incumbent for b in rows]
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    noise = statistics.median(noises)
    slower = [(b.shape, r, n) for b, r, n in zip(rows, ratios, noises, strict=True) if r < 1 - n]
    if slower:
        shape, ratio, n = min(slower, key=lambda item: item[1])
        return Decision(
            False,
            f"{len(slower)} shape(s) slower than the best beyond noise (worst {shape}: {ratio:.2f}x, noise {n:.0%})",
            geomean,
            noise,
        )
    if geomean <= 1 + noise:
        return Decision(False, f"geomean {geomean:.3f}x is within the noise ({noise:.1%})", geomean, noise)
    return Decision(True, f"geomean {geomean:.3f}x over the best (noise {noise:.1%})", geomean, noise)
