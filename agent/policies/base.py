"""What every policy receives and returns. Plain data, so it can be logged and checkpointed."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Protocol

from tools.evaluator.decide import Decision


@dataclass
class Attempt:
    """One earlier proposal and what became of it (shown to the next proposal)."""

    iteration: int
    rationale: str
    outcome: str  # accepted / rejected / failed
    message: str
    config: dict | None = None
    geomean_vs_best: float | None = None
    median_fraction_of_copy: float | None = None
    index: int = 0  # candidate within its round
    failure: str = ""  # what the judge said went wrong: compiler lines, or the first wrong check (agent/failures.py)
    reflection: str = ""  # the policy's reflection on it, once written


@dataclass
class ProposalContext:
    op: str
    backend: str
    iteration: int
    spec_text: str  # the op's signature and docstring
    best_source: str
    best_summary: str  # per-shape table of the current best (errors, timings, % of copy)
    profile_summary: str  # profiler findings for the current best, on its largest shape ("" when none)
    hardware: str  # notes on the device present (prompts.hardware_notes)
    attempts: list[Attempt] = field(default_factory=list)
    k: int = 1
    # Each recent attempt's diff against the best of its time, by candidate label ("7", "7.2").
    diffs: dict[str, str] = field(default_factory=dict)
    history_tokens: int = 12_000  # budget of the earlier-iterations part of a prompt (RunConfig.history_tokens)


@dataclass
class Proposal:
    source: str  # one whole kernel file
    rationale: str  # one line
    prompt: str | None = None
    response: str | None = None
    model: str | None = None
    usage: dict | None = None
    reasks: int = 0  # malformed replies asked again

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReflectionContext:
    op: str
    backend: str
    iteration: int
    rationale: str
    outcome: str
    message: str
    summary: str  # measured numbers of this iteration against the best
    attempts: list[Attempt] = field(default_factory=list)
    failure: str = ""  # the judge's failure lines for this attempt ("" when it passed every check)
    diff: str = ""  # this attempt's diff against the best of its time
    decision: Decision | None = None  # the acceptance rule's, as the round left it (beaten or not)


@dataclass
class Reflection:
    text: str
    prompt: str | None = None
    response: str | None = None
    model: str | None = None
    usage: dict | None = None


class Policy(Protocol):
    name: str

    def propose(self, context: ProposalContext) -> list[Proposal]:
        """Up to `context.k` proposals; an empty list means the policy has nothing left to try."""
        ...

    def reflect(self, context: ReflectionContext) -> Reflection: ...
