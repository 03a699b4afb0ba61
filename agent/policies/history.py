"""What a proposal prompt carries of earlier iterations, within a token budget.

The prompt is a budget. In order, each part taking what is left of it, newest first and the oldest cut:

1. a compact table of every attempt (outcome, speed, CONFIG, what it tried), at most a third of the budget;
2. the reflections: the latest iteration's whole, earlier ones by their `Next:` line;
3. the failure lines of attempts that failed (the compiler's errors, the first wrong check);
4. the diffs of the last few attempts against the best of their time.

Tokens are estimated as characters / 4 (no tokenizer is at hand for an arbitrary endpoint's model); the
estimate is what `RunConfig.history_tokens` budgets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.policies.base import Attempt

CHARS_PER_TOKEN = 4
TABLE_SHARE = 3  # the table takes at most 1/TABLE_SHARE of the budget
MAX_DIFFS = 4  # diffs of this many latest attempts at most
RATIONALE_CHARS = 160
VERDICT_CHARS = 200  # the judge's reason, in the table; a failure's own lines come in their part
REFLECTION_CHARS = 1200
# "Next: ...", also "**Next:** ..." or "- Next step: ...".
_NEXT = re.compile(r"^[\s>*_#-]*next(?: step)?[\s*_]*:[\s*_]*(.+?)[\s*_]*$", re.IGNORECASE | re.MULTILINE)


def tokens(text: str) -> int:
    """The estimate the budget counts in: characters / 4, rounded up."""
    return -(-len(text) // CHARS_PER_TOKEN)


def label(attempt: Attempt) -> str:
    """How an attempt is named in the prompt, as the run folder names it: "7", or "7.2" for a round's second."""
    return f"{attempt.iteration}" if attempt.index == 0 else f"{attempt.iteration}.{attempt.index + 1}"


def next_line(reflection: str) -> str:
    """A reflection's `Next:` line, or its last sentence where it has none."""
    found = _NEXT.findall(reflection)
    if found:
        return found[-1].strip()
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(reflection.split()))
    return sentences[-1] if sentences else ""


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table_row(a: Attempt) -> str:
    cells = [
        label(a),
        a.outcome,
        f"{a.geomean_vs_best:.2f}x" if a.geomean_vs_best is not None else "-",
        f"{100 * a.median_fraction_of_copy:.0f}%" if a.median_fraction_of_copy is not None else "-",
        str(a.config) if a.config else "-",
        _short(a.rationale, RATIONALE_CHARS),
        _short(a.message, VERDICT_CHARS) or "-",
    ]
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


TABLE_HEAD = (
    "| iteration | outcome | vs best (geomean) | % of copy (median) | CONFIG | what it tried | the judge's reason |\n"
    "|---|---|---|---|---|---|---|"
)


@dataclass
class Note:
    label: str
    text: str


@dataclass
class History:
    """The parts of earlier iterations that fit the budget, each newest first."""

    budget: int
    rows: list[str] = field(default_factory=list)
    reflections: list[Note] = field(default_factory=list)
    failures: list[Note] = field(default_factory=list)
    diffs: list[Note] = field(default_factory=list)
    cut: dict[str, int] = field(default_factory=dict)  # what did not fit, by part

    @property
    def table(self) -> str:
        return "\n".join([TABLE_HEAD, *reversed(self.rows)]) if self.rows else ""

    @property
    def used(self) -> int:
        """Estimated tokens of everything kept."""
        parts = [self.table, *(n.text for n in self.reflections + self.failures + self.diffs)]
        return sum(tokens(p) for p in parts)


def fit(attempts: list[Attempt], diffs: dict[str, str], budget: int) -> History:
    """The history of `attempts` (oldest first) that fits `budget` estimated tokens."""
    history = History(budget=budget)
    newest = list(reversed(attempts))
    left = budget

    def take(part: str, text: str, into: list) -> None:
        nonlocal left
        cost = tokens(text)
        if cost <= left:
            into.append(text)
            left -= cost
        else:
            history.cut[part] = history.cut.get(part, 0) + 1

    table_left = budget // TABLE_SHARE - tokens(TABLE_HEAD)
    for a in newest:
        row = table_row(a)
        if tokens(row) <= table_left:
            history.rows.append(row)
            table_left -= tokens(row)
            left -= tokens(row)
        else:
            history.cut["table rows"] = history.cut.get("table rows", 0) + 1
    left -= tokens(TABLE_HEAD) if history.rows else 0

    latest = attempts[-1].iteration if attempts else None
    for a in newest:
        if not a.reflection.strip():
            continue
        whole = a.reflection.strip()
        if len(whole) > REFLECTION_CHARS:
            whole = whole[: REFLECTION_CHARS - 1] + "…"
        text = whole if a.iteration == latest else next_line(a.reflection)
        kept: list[str] = []
        take("reflections", text, kept)
        history.reflections += [Note(label(a), t) for t in kept]
    for a in newest:
        if a.failure.strip():
            kept = []
            take("failure lines", a.failure.strip(), kept)
            history.failures += [Note(label(a), t) for t in kept]
    for a in newest[:MAX_DIFFS]:
        diff = diffs.get(label(a), "").strip()
        if diff:
            kept = []
            take("diffs", diff, kept)
            history.diffs += [Note(label(a), t) for t in kept]
    return history
