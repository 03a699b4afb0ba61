"""The loop's state: plain, JSON-friendly values, checkpointed by LangGraph after every node."""

from __future__ import annotations

from typing import TypedDict


class LoopState(TypedDict, total=False):
    iteration: int
    """The iteration being worked on; 0 is the evaluation of the starting kernel."""
    best_path: str
    """Kernel file of the current best version (inside the run folder)."""
    best_eval: str
    """eval.json of the current best version."""
    attempts: list[dict]
    """Every proposal so far and its outcome (agent.policies.base.Attempt as a dict)."""
    proposals: list[dict]
    """This iteration's proposals (Proposal dicts plus the candidate file's path)."""
    results: list[dict]
    """This iteration's evaluations: eval.json path and the decision, one per proposal."""
    accepted: int | None
    """Index into `proposals` of the version to commit, or None."""
    commits: list[str]
    """Shas of the accepted versions, in order."""
    started: float
    """Wall-clock start of the run (time.time()), for --time-budget across resumes."""
    stop_reason: str | None
    """Why the run ended; None while it goes on."""
