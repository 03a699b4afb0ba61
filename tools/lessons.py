"""What one search step taught, in a sentence, from its change and its recorded decision; None when nothing.

The search policy's reflection after each iteration, and reflection.md's for a search run (tools/export.py),
which recomputes them from the decisions, so an older run's export reads the same. A sentence states the
change and what the judge found; there is no "next" line: the search's order is in its docstring, and a
plan repeated after every step (17 times in a 20-iteration run) told a reader nothing.
"""

from __future__ import annotations

from tools.export import BEATEN, decision_rule

MAX_REASON = 300  # characters of a decision's reason quoted (a failure's can be a compiler's output)

# The rules of a step that failed a stage, as tools/export.py names them.
FAILURES = (
    "refused by the lint",
    "did not compile",
    "incorrect",
    "incorrect while timed",
    "roofline check",
    "changed the model's tokens (e2e)",
)


def change_of(rationale: str) -> str:
    """The change a search rationale names: 'threads 256 -> 512: neighbour of ...' gives 'threads 256 -> 512'."""
    return rationale.split(": ", 1)[0].strip() or rationale.strip()


def _quoted(reason: str) -> str:
    first = (reason or "").strip().splitlines()[0] if (reason or "").strip() else ""
    return first if len(first) <= MAX_REASON else first[: MAX_REASON - 3] + "..."


def lesson(rationale: str, rule: str, reason: str) -> str | None:
    """One sentence for one step, or None where the decision names no rule it can read (nothing to say)."""
    change, why = change_of(rationale), _quoted(reason)
    if rule == "faster beyond noise":
        return f"{change} is faster: {why}; it is the new best."
    if rule == "first correct version":
        return f"{change} is the first correct version."
    if rule == BEATEN:
        return f"{change} passed the rule too, but another candidate of its round was faster."
    if rule == "a shape slower beyond noise":
        return f"{change} is slower on some shape: {why}."
    if rule == "within noise":
        return f"{change} makes no difference beyond the noise: {why}."
    if rule in FAILURES or rule.startswith("failed at "):
        return f"{change}: {rule}: {why}."
    return None


def lesson_of_step(rationale: str, outcome: str, reason: str) -> str | None:
    """`lesson` from what a reflection is told at run time: the outcome and the decision's reason.

    A candidate that passed but lost its round to a faster one is `rejected` with the round's note appended
    (agent/graph.py), so that note is what tells it apart.
    """
    beaten = "another candidate of this round was faster" in reason
    rule = decision_rule({"accepted": outcome == "accepted" or beaten, "reason": reason}, winner=not beaten)
    return lesson(rationale, rule, reason)
