"""What one search step taught, in a sentence, from its change and its decision; None when nothing.

The search policy's reflection after each iteration, and reflection.md's for a search run (tools/export.py),
which recomputes them from the recorded decisions, so an older run's export reads the same. A sentence states
the change and what the judge found; there is no "next" line: the search's order is in its docstring, and a
plan repeated after every step (17 times in a 20-iteration run) told a reader nothing.
"""

from __future__ import annotations

from tools.evaluator.decide import Decision, Rule

MAX_REASON = 300  # characters of a decision's reason quoted (a failure's can be a compiler's output)


def change_of(rationale: str) -> str:
    """The change a search rationale names: 'threads 256 -> 512: neighbour of ...' gives 'threads 256 -> 512'."""
    return rationale.split(": ", 1)[0].strip() or rationale.strip()


def _quoted(reason: str) -> str:
    first = (reason or "").strip().splitlines()[0] if (reason or "").strip() else ""
    return first if len(first) <= MAX_REASON else first[: MAX_REASON - 3] + "..."


def lesson(rationale: str, decision: Decision | None) -> str | None:
    """One sentence for one step, or None where its rule teaches nothing about the change (not decided, not
    compared with the best, too few rounds, or words an older judge wrote that no rule states)."""
    if decision is None:
        return None
    change, why = change_of(rationale), _quoted(decision.reason)
    match decision.rule:
        case Rule.FASTER:
            return f"{change} is faster: {why}; it is the new best."
        case Rule.FIRST_VERSION:
            return f"{change} is the first correct version."
        case Rule.BEATEN:
            return f"{change} passed the rule too, but {decision.label}."
        case Rule.SLOWER_SHAPE:
            return f"{change} is slower on some shape: {why}."
        case Rule.WITHIN_NOISE:
            return f"{change} makes no difference beyond the noise: {why}."
        case Rule.FAILED_STAGE | Rule.FAILED_E2E:
            return f"{change}: {decision.label}: {why}."
    return None
