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

A decision is data: the rule that fired (`Rule`) and its figures; `Decision.reason` is the sentence made from
them for people, and `Decision.label` the rule's short name that the export, the lessons and the UI group by.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field, model_validator

from tools.evaluator.records import EvalRecord
from tools.evaluator.records import geomean as geomean_of
from tools.evaluator.rule import FLOOR, GEOMEAN_CONFIDENCE, beyond_noise, shape_confidence, shape_ratios
from tools.evaluator.stats import coverage, median_interval

# The fewest rounds whose median interval reaches GEOMEAN_CONFIDENCE (n = 6: [min, max] covers 96.9%).
ROUNDS_TO_ACCEPT = next(n for n in range(1, 64) if coverage(n, GEOMEAN_CONFIDENCE) >= GEOMEAN_CONFIDENCE)


class Rule(StrEnum):
    """The rule that decided a candidate, in the order `decide` tries them (BEATEN is the loop's, after)."""

    FAILED_STAGE = "failed_stage"  # a stage of the judge failed
    FAILED_E2E = "failed_e2e"  # correct and timed, but the model's tokens changed (agent/e2e_gate.py)
    FIRST_VERSION = "first_version"  # nothing to compare with: it becomes the best
    NOT_TIMED = "not_timed"  # no shape was timed against the best
    NOT_COMPARED = "not_compared"  # some shape was timed without the best beside it
    SLOWER_SHAPE = "slower_shape"  # a shape slower than the best beyond noise
    TOO_FEW_ROUNDS = "too_few_rounds"  # too few rounds per shape to show a gain at the confidence
    WITHIN_NOISE = "within_noise"  # the geomean's lower bound does not clear 1 + FLOOR
    FASTER = "faster"  # faster beyond noise: it becomes the best
    BEATEN = "beaten"  # passed the rule, but another candidate of its round was faster and was kept
    UNKNOWN = "unknown"  # recorded by an older judge in words no rule here states (old run folders only)


ACCEPTING = frozenset({Rule.FIRST_VERSION, Rule.FASTER})

# The rule's short name, the one the export groups by and the UI's legend shows. FAILED_STAGE is named by its
# stage (and, at the benchmark, by what went wrong on a shape); UNKNOWN by whether it was accepted.
LABELS = {
    Rule.FAILED_E2E: "changed the model's tokens (e2e)",
    Rule.FIRST_VERSION: "first correct version",
    Rule.NOT_TIMED: "not timed against the best",
    Rule.NOT_COMPARED: "not timed beside the best on every shape",
    Rule.SLOWER_SHAPE: "a shape slower beyond noise",
    Rule.TOO_FEW_ROUNDS: "too few rounds to show a gain",
    Rule.WITHIN_NOISE: "within noise",
    Rule.FASTER: "faster beyond noise",
    Rule.BEATEN: "another candidate of its round was faster",
}
STAGE_LABELS = {"static": "refused by the lint", "compile": "did not compile", "correctness": "incorrect"}
# A failed benchmark stage by the worst status of its shapes (records.py: ShapeBenchmark.status); the roofline
# check is the judge's own (tools/evaluator/figures.py): faster than the device can copy.
SHAPE_STATUS_LABELS = {"measurement_error": "roofline check", "wrong_after_timing": "incorrect while timed"}


class Decision(BaseModel):
    """What the acceptance rule decided about one candidate: which rule fired, and the figures it weighed.

    The figures a rule did not use stay None. As a dict (`model_dump`) it is what a run folder's `decide` event
    and a checkpoint keep, with `reason` and `label` beside the fields for a reader of the file.
    """

    model_config = ConfigDict(frozen=True)

    rule: Rule
    accepted: bool  # it beat the best and becomes the best (FIRST_VERSION or FASTER)
    # A failed stage: its name, the record's message, and at the benchmark the worst status of a shape.
    stage: str | None = None
    message: str | None = None
    shape_status: str | None = None
    # The speed against the best, in the decision scope: the geomean of the shapes' median per-round ratios,
    # the geomean of their lower bounds, and the larger relative distance to either bound.
    scope: str | None = None
    geomean_speedup: float | None = None
    lower_bound: float | None = None
    noise: float | None = None
    # SLOWER_SHAPE: how many shapes, and the slowest one ("shape dtype"), its median ratio and upper bound.
    slower_shapes: int | None = None
    worst_shape: str | None = None
    worst_ratio: float | None = None
    worst_bound: float | None = None
    uncompared: tuple[str, ...] = ()  # NOT_COMPARED: the shapes timed without the best beside them
    # TOO_FEW_ROUNDS: the fewest rounds of a shape, and the rounds the confidence needs.
    rounds: int | None = None
    rounds_needed: int | None = None
    confidence: float | None = None
    recorded_reason: str | None = None  # an older judge's sentence, kept word for word (see _from_old_reason)

    @model_validator(mode="before")
    @classmethod
    def _read_old(cls, data: Any) -> Any:
        if isinstance(data, dict) and "rule" not in data and "reason" in data:
            return _from_old_reason(data)
        return data

    @model_validator(mode="after")
    def _accepted_by_its_rule(self) -> Decision:
        if self.rule is not Rule.UNKNOWN and self.accepted != (self.rule in ACCEPTING):
            raise ValueError(
                f"a decision by rule {self.rule.value} is {'never' if self.accepted else 'always'} "
                "accepted: the rule and `accepted` disagree"
            )
        return self

    @computed_field
    @property
    def reason(self) -> str:
        """The decision in a sentence, for people."""
        return self.recorded_reason if self.recorded_reason is not None else _sentence(self)

    @computed_field
    @property
    def label(self) -> str:
        """The rule's short name: "within noise", "incorrect", "faster beyond noise", ..."""
        if self.rule is Rule.FAILED_STAGE:
            if self.stage == "benchmark" and self.shape_status in SHAPE_STATUS_LABELS:
                return SHAPE_STATUS_LABELS[self.shape_status]
            return STAGE_LABELS.get(self.stage or "", f"failed at {self.stage}")
        if self.rule is Rule.UNKNOWN:
            return "accepted" if self.accepted else "other"
        return LABELS[self.rule]

    def beaten(self) -> Decision:
        """This decision, in a round that kept another candidate that passed the rule and was faster."""
        return self.model_copy(update={"rule": Rule.BEATEN, "accepted": False}) if self.accepted else self


def _made(rule: Rule, **figures: Any) -> Decision:
    return Decision(rule=rule, accepted=rule in ACCEPTING, **figures)


def _sentence(d: Decision) -> str:
    """The one place a decision becomes words."""
    match d.rule:
        case Rule.FAILED_STAGE | Rule.FAILED_E2E:
            return f"failed at {d.stage}: {d.message}"
        case Rule.FIRST_VERSION:
            return "first correct version: it becomes the best"
        case Rule.NOT_TIMED:
            return "no shape was timed against the current best"
        case Rule.NOT_COMPARED:
            return (
                f"the best was not timed beside it on {len(d.uncompared)} shape(s) ({', '.join(d.uncompared[:3])}) "
                f"in the {d.scope} scope: a gain is claimed only where the two were compared"
            )
        case Rule.SLOWER_SHAPE:
            return (
                f"{d.slower_shapes} shape(s) slower than the best beyond noise "
                f"(worst {d.worst_shape} ({d.scope}): {d.worst_ratio:.3f}x, at most {d.worst_bound:.3f}x)"
            )
        case Rule.TOO_FEW_ROUNDS:
            return (
                f"{d.rounds} rounds per shape cannot show a gain at {d.confidence:.0%} (at least "
                f"{d.rounds_needed} are needed: --batches)"
            )
        case Rule.WITHIN_NOISE:
            return (
                f"geomean {d.geomean_speedup:.3f}x ({d.scope} scope) is within the noise "
                f"(lower bound {d.lower_bound:.3f}x)"
            )
        case Rule.FASTER:
            return f"geomean {d.geomean_speedup:.3f}x over the best ({d.scope} scope, lower bound {d.lower_bound:.3f}x)"
        case Rule.BEATEN:
            passed = Rule.FASTER if d.geomean_speedup is not None else Rule.FIRST_VERSION
            return f"{_sentence(d.model_copy(update={'rule': passed, 'accepted': True}))}; {LABELS[Rule.BEATEN]}"
    return d.rule.value  # UNKNOWN carries its recorded sentence; never reached otherwise


def decide(record: EvalRecord, against_best: bool) -> Decision:
    if record.status != "ok" and record.failed_stage != "e2e":
        bad = {b.status for b in record.benchmark if b.status != "ok"}
        worst = next((s for s in ("measurement_error", "wrong_after_timing", "failed") if s in bad), None)
        return _made(Rule.FAILED_STAGE, stage=record.failed_stage, message=record.message, shape_status=worst)
    speed = _decide_on_speed(record, against_best)
    if record.failed_stage == "e2e":
        # Correct and timed on every shape, but the model's tokens changed (agent/e2e_gate.py): never
        # accepted, yet its speed stays on record for the next proposal ("faster, but wrong in the model").
        figures = speed.model_dump(include={"scope", "geomean_speedup", "lower_bound", "noise"})
        return _made(Rule.FAILED_E2E, stage="e2e", message=record.message, **figures)
    return speed


def _decide_on_speed(record: EvalRecord, against_best: bool) -> Decision:
    if not against_best:
        return _made(Rule.FIRST_VERSION)
    scope = record.decision_scope()
    if scope is None:
        return _made(Rule.NOT_TIMED)
    per_shape = {b.shape + " " + b.dtype: shape_ratios(b, scope) for b in record.benchmark}
    per_shape = {k: v for k, v in per_shape.items() if v}
    if not per_shape:
        return _made(Rule.NOT_TIMED)
    # A shape the candidate was timed on without the best beside it (the best's runner dropped there, or its
    # graph did not capture: a candidate can starve it of GPU memory) would leave the geomean to the others.
    uncompared = tuple(b.shape for b in record.benchmark if not shape_ratios(b, scope))
    if uncompared:
        return _made(Rule.NOT_COMPARED, scope=scope, uncompared=uncompared)
    confidence = shape_confidence(len(per_shape))
    slower = []
    for key, ratios in per_shape.items():
        if beyond_noise(ratios, confidence) == "slower":  # the judge's early stop applies the same test
            median, _low, high = median_interval(ratios, confidence)
            slower.append((key, median, high))
    fewest = min(len(v) for v in per_shape.values())
    intervals = {k: median_interval(v, GEOMEAN_CONFIDENCE) for k, v in per_shape.items()}
    geomean = geomean_of(m for m, _, _ in intervals.values())
    low = geomean_of(lo for _, lo, _ in intervals.values())
    high = geomean_of(hi for _, _, hi in intervals.values())
    speed = {
        "scope": scope,
        "geomean_speedup": geomean,
        "lower_bound": low,
        "noise": max(geomean - low, high - geomean) / geomean,
    }
    if slower:
        shape, ratio, high_bound = min(slower, key=lambda item: item[1])
        return _made(
            Rule.SLOWER_SHAPE,
            slower_shapes=len(slower),
            worst_shape=shape,
            worst_ratio=ratio,
            worst_bound=high_bound,
            **speed,
        )
    if coverage(fewest, GEOMEAN_CONFIDENCE) < GEOMEAN_CONFIDENCE:
        # [min, max] of n rounds covers the median with 1 - 2 / 2**n only: 75% at 3 rounds, so an unchanged
        # kernel would pass one time in eight. Such a record can reject, never accept.
        return _made(
            Rule.TOO_FEW_ROUNDS,
            rounds=fewest,
            rounds_needed=ROUNDS_TO_ACCEPT,
            confidence=GEOMEAN_CONFIDENCE,
            **speed,
        )
    if low <= 1 + FLOOR:
        return _made(Rule.WITHIN_NOISE, **speed)
    return _made(Rule.FASTER, **speed)


# The rule an older judge's sentence states, checked in order; for `_from_old_reason` alone.
_OLD_WORDS: tuple[tuple[str, Rule], ...] = (
    (r"^failed at e2e\b", Rule.FAILED_E2E),
    (r"^failed at \w+", Rule.FAILED_STAGE),
    (r"slower than the best beyond noise", Rule.SLOWER_SHAPE),
    (r"within the noise", Rule.WITHIN_NOISE),
    (r"^no shape was timed against", Rule.NOT_TIMED),
    (r"^the best was not timed beside it", Rule.NOT_COMPARED),
    (r"rounds per shape cannot show a gain", Rule.TOO_FEW_ROUNDS),
    (r"^first correct version", Rule.FIRST_VERSION),
    (r"over the best", Rule.FASTER),
)


def _from_old_reason(old: dict) -> dict:
    """A decision as an older judge recorded it (`accepted`, `reason`, and at most `geomean_speedup`, `noise` and
    `scope`): the rule its words state, the figures it recorded, and its sentence kept word for word.

    For run folders and checkpoints written before decisions named their rule; nothing else reads words.
    """
    reason, accepted = old.get("reason") or "", bool(old.get("accepted"))
    rule = next((r for pattern, r in _OLD_WORDS if re.search(pattern, reason) and (r in ACCEPTING) == accepted), None)
    figures = {k: old.get(k) for k in ("geomean_speedup", "noise", "scope")}
    failed = re.match(r"^failed at (\w+):? ?(.*)", reason, re.DOTALL)
    if failed and rule in (Rule.FAILED_STAGE, Rule.FAILED_E2E):
        figures.update(stage=failed[1], message=failed[2])
        if re.search(r"^failed at benchmark\b.*(?:measurement_error|above the device's copy bandwidth)", reason):
            figures["shape_status"] = "measurement_error"
        elif re.search(r"^failed at benchmark\b.*wrong_after_timing", reason):
            figures["shape_status"] = "wrong_after_timing"
    return {"rule": rule or Rule.UNKNOWN, "accepted": accepted, "recorded_reason": reason, **figures}
