"""The loop's state: what LangGraph checkpoints after every node, one typed field each.

Paths are relative to the run folder (tools/runfolder.py: RunFolder.relative, RunFolder.locate), so a
checkpoint names no folder of the machine it was written on. Nodes return partial updates of these fields; the
lists that grow over a run (`attempts`, `commits`) have reducers, so a node returns only its own rows.

A checkpoint written before the reducers holds the same lists, so it loads as it is; a node's write pending in it
(a run killed between a node's end and its checkpoint) is the whole list, which both reducers take without
duplicating a row.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from agent.policies.base import Attempt, Proposal
from tools.evaluator.decide import Decision


class Candidate(BaseModel):
    """One proposal of the iteration, as the run folder keeps it."""

    proposal: Proposal
    path: str = Field(description="its kernel file in the run folder: iterations/NNNN/candidate[-K].py")


class Evaluation(BaseModel):
    """One candidate's evaluation in the iteration, and the acceptance rule's decision on it."""

    eval: str = Field(description="its eval.json in the run folder")
    decision: Decision | None = Field(default=None, description="set by the decide node")


def merge_attempts(current: list[Attempt], update: list[Attempt]) -> list[Attempt]:
    """`attempts`' reducer: a row replaces the one of its (iteration, index) where it stood, a new one is appended.
    decide adds a round's rows; reflect returns the same rows with their reflections."""
    rows = {(a.iteration, a.index): a for a in current}
    rows.update(((a.iteration, a.index), a) for a in update)
    return list(rows.values())


def append_new(current: list[str], update: list[str]) -> list[str]:
    """`commits`' reducer: the shas not listed yet, appended in order (a commit re-run after a kill is the same)."""
    return [*current, *(sha for sha in dict.fromkeys(update) if sha not in current)]


class LoopState(BaseModel):
    iteration: int = Field(default=0, description="the iteration being worked on; 0 evaluates the starting kernel")
    best_path: str = Field(default="", description="kernel file of the current best version, in the run folder")
    best_eval: str = Field(default="", description="eval.json of the current best version, in the run folder")
    best_profile: str = Field(
        default="", description="profile.txt of the current best version (its largest shape), in the run folder"
    )
    attempts: Annotated[list[Attempt], merge_attempts] = Field(
        default_factory=list, description="every proposal so far and its outcome, by (iteration, index)"
    )
    proposals: list[Candidate] = Field(default_factory=list, description="this iteration's proposals")
    results: list[Evaluation] = Field(default_factory=list, description="this iteration's evaluations, in order")
    accepted: int | None = Field(default=None, description="index into `proposals` of the version to commit")
    commits: Annotated[list[str], append_new] = Field(
        default_factory=list, description="shas of the accepted versions, in order"
    )
    started: float = Field(default=0.0, description="wall-clock start of the run (time.time()), for --time-budget")
    stop_reason: str | None = Field(default=None, description="why the run ended; None while it goes on")
    failure: str | None = Field(default=None, description="set when the run ends because the policy raised: why")


# The types a checkpoint holds besides plain values, for LangGraph's deserializer to allow by name.
CHECKPOINTED_TYPES = (
    ("agent.state", "Candidate"),
    ("agent.state", "Evaluation"),
    ("agent.policies.base", "Attempt"),
    ("agent.policies.base", "Proposal"),
    ("tools.evaluator.decide", "Decision"),
    ("tools.evaluator.decide", "Rule"),
)
