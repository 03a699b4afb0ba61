"""The acceptance rule: correct everywhere, and faster than the best beyond the noise the judge measured.

Every ratio here comes from the judge's clock (tools/evaluator/judge.py): each round timed the
candidate and the current best moments apart, in a random order, and a shape's speedup is the median
of its per-round ratios with an interval from order statistics.

- The geomean over shapes of the decision scope's medians (graph where every shape has one, else
  eager) must be above 1 beyond its noise: the geomean of the shapes' lower bounds above 1 + FLOOR.
- No shape may be slower beyond noise in the decision scope: a shape whose interval lies wholly below
  1 - FLOOR is. With dozens of shapes, those intervals are taken at a confidence that keeps a false
  "slower" on an unchanged kernel rare (Bonferroni over the shapes).

The eager scope (host launch cost included) is measured and shown but decides only where no graph was
timed: on a VM its A/A noise reached several percent between evaluations of one kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.evaluator.records import EvalRecord
from tools.evaluator.records import geomean as geomean_of
from tools.evaluator.rule import FLOOR, GEOMEAN_CONFIDENCE, beyond_noise, shape_confidence, shape_ratios
from tools.evaluator.stats import coverage, median_interval

# The fewest rounds whose median interval reaches GEOMEAN_CONFIDENCE (n = 6: [min, max] covers 96.9%).
ROUNDS_TO_ACCEPT = next(n for n in range(1, 64) if coverage(n, GEOMEAN_CONFIDENCE) >= GEOMEAN_CONFIDENCE)


@dataclass(frozen=True)
class Decision:
    accepted: bool
    reason: str
    geomean_speedup: float | None = None
    noise: float | None = None
    scope: str | None = None


def decide(record: EvalRecord, against_best: bool) -> Decision:
    if record.status != "ok" and record.failed_stage != "e2e":
        return Decision(False, f"failed at {record.failed_stage}: {record.message}")
    speed = _decide_on_speed(record, against_best)
    if record.failed_stage == "e2e":
        # Correct and timed on every shape, but the model's tokens changed (agent/e2e_gate.py): never
        # accepted, yet its speed stays on record for the next proposal ("faster, but wrong in the model").
        return Decision(False, f"failed at e2e: {record.message}", speed.geomean_speedup, speed.noise, speed.scope)
    return speed


def _decide_on_speed(record: EvalRecord, against_best: bool) -> Decision:
    if not against_best:
        return Decision(True, "first correct version: it becomes the best")
    scope = record.decision_scope()
    if scope is None:
        return Decision(False, "no shape was timed against the current best")
    per_shape = {b.shape + " " + b.dtype: shape_ratios(b, scope) for b in record.benchmark}
    per_shape = {k: v for k, v in per_shape.items() if v}
    if not per_shape:
        return Decision(False, "no shape was timed against the current best")
    # A shape the candidate was timed on without the best beside it (the best's runner dropped there, or its
    # graph did not capture: a candidate can starve it of GPU memory) would leave the geomean to the others.
    uncompared = [b.shape for b in record.benchmark if not shape_ratios(b, scope)]
    if uncompared:
        return Decision(
            False,
            f"the best was not timed beside it on {len(uncompared)} shape(s) ({', '.join(uncompared[:3])}) in the "
            f"{scope} scope: a gain is claimed only where the two were compared",
        )
    confidence = shape_confidence(len(per_shape))
    slower = []
    for key, ratios in per_shape.items():
        if beyond_noise(ratios, confidence) == "slower":  # the judge's early stop applies the same test
            median, _low, high = median_interval(ratios, confidence)
            slower.append((f"{key} ({scope})", median, high))
    fewest = min(len(v) for v in per_shape.values())
    intervals = {k: median_interval(v, GEOMEAN_CONFIDENCE) for k, v in per_shape.items()}
    geomean = geomean_of(m for m, _, _ in intervals.values())
    low = geomean_of(lo for _, lo, _ in intervals.values())
    high = geomean_of(hi for _, _, hi in intervals.values())
    noise = max(geomean - low, high - geomean) / geomean
    if slower:
        shape, ratio, high_bound = min(slower, key=lambda item: item[1])
        return Decision(
            False,
            f"{len(slower)} shape(s) slower than the best beyond noise "
            f"(worst {shape}: {ratio:.3f}x, at most {high_bound:.3f}x)",
            geomean,
            noise,
            scope,
        )
    if coverage(fewest, GEOMEAN_CONFIDENCE) < GEOMEAN_CONFIDENCE:
        # [min, max] of n rounds covers the median with 1 - 2 / 2**n only: 75% at 3 rounds, so an unchanged
        # kernel would pass one time in eight. Such a record can reject, never accept.
        return Decision(
            False,
            f"{fewest} rounds per shape cannot show a gain at {GEOMEAN_CONFIDENCE:.0%} (at least "
            f"{ROUNDS_TO_ACCEPT} are needed: --batches)",
            geomean,
            noise,
            scope,
        )
    if low <= 1 + FLOOR:
        return Decision(
            False,
            f"geomean {geomean:.3f}x ({scope} scope) is within the noise (lower bound {low:.3f}x)",
            geomean,
            noise,
            scope,
        )
    return Decision(
        True, f"geomean {geomean:.3f}x over the best ({scope} scope, lower bound {low:.3f}x)", geomean, noise, scope
    )
