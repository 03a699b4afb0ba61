"""The acceptance rule's parameters and its per-shape test, shared by the judge and `tools/evaluator/decide.py`.

The judge uses the per-shape test to stop spending rounds on a shape whose verdict is in; the
decision itself (tools/evaluator/decide.py) applies it to every shape and scope of the record.
"""

from __future__ import annotations

from collections.abc import Sequence

from tools.evaluator.records import ShapeBenchmark
from tools.evaluator.stats import median_interval, per_round_ratios

# Below this a gain or loss is not claimed even with a tight interval: clocks and placement move
# an unchanged kernel by about this much between evaluations.
FLOOR = 0.005
GEOMEAN_CONFIDENCE = 0.95
SHAPE_ERROR_RATE = 0.05  # the chance, over all shapes and scopes, of calling an unchanged kernel slower


def shape_confidence(tests: int) -> float:
    """The confidence of each shape-scope interval: Bonferroni over `tests` of them."""
    return 1 - SHAPE_ERROR_RATE / max(tests, 1)


def beyond_noise(speedups: Sequence[float], confidence: float) -> str | None:
    """'slower' or 'faster' where the per-round speedups' interval lies wholly past 1 -/+ FLOOR, else None."""
    _median, low, high = median_interval(speedups, confidence)
    if high < 1 - FLOOR:
        return "slower"
    if low > 1 + FLOOR:
        return "faster"
    return None


def deciding_scope(bench: ShapeBenchmark) -> str | None:
    """The scope whose figures decide on this shape: graph (device time) where it was timed, else eager.

    The eager scope adds the host's launch cost, whose noise on a VM reached several percent between
    evaluations of one kernel; it is measured and shown, and decides only where no graph could be timed.
    """
    for scope in ("graph", "eager"):
        if shape_ratios(bench, scope):
            return scope
    return None


def shape_ratios(bench: ShapeBenchmark, scope: str) -> list[float] | None:
    """The per-round speedups over the incumbent in one scope of one shape (None: not timed against it)."""
    result = bench.scope(scope)
    if result is None or result.candidate is None or result.incumbent is None:
        return None
    mine, theirs = result.candidate.batch_us, result.incumbent.batch_us
    if not mine or len(mine) != len(theirs):
        return None
    return per_round_ratios(theirs, mine)
