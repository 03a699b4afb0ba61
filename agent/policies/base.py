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


@dataclass
class ProposalContext:
    op: str
    backend: str
    iteration: int
    spec_text: str  # the op's signature and docstring
    best_source: str
    best_summary: str  # per-shape table of the current best (errors, timings, % of copy)
    profile_summary: str
    hardware: str
    attempts: list[Attempt] = field(default_factory=list)
    k: int = 1


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
