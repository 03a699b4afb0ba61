"""The loop's state: what LangGraph checkpoints after every node, one typed field each.

Paths are relative to the run folder (tools/runfolder.py: RunFolder.relative, RunFolder.locate), so a
checkpoint names no folder of the machine it was written on. Nodes return partial updates of these fields.
"""

from __future__ import annotations

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


class LoopState(BaseModel):
    iteration: int = Field(default=0, description="the iteration being worked on; 0 evaluates the starting kernel")
    best_path: str = Field(default="", description="kernel file of the current best version, in the run folder")
    best_eval: str = Field(default="", description="eval.json of the current best version, in the run folder")
    best_profile: str = Field(
        default="", description="profile.txt of the current best version (its largest shape), in the run folder"
    )
    attempts: list[Attempt] = Field(default_factory=list, description="every proposal so far and its outcome")
    proposals: list[Candidate] = Field(default_factory=list, description="this iteration's proposals")
    results: list[Evaluation] = Field(default_factory=list, description="this iteration's evaluations, in order")
    accepted: int | None = Field(default=None, description="index into `proposals` of the version to commit")
    commits: list[str] = Field(default_factory=list, description="shas of the accepted versions, in order")
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
