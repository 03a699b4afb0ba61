"""The loop's state: plain, JSON-friendly values, checkpointed by LangGraph after every node.

Paths are relative to the run folder (tools/runfolder.py: RunFolder.relative, RunFolder.locate).
"""

from __future__ import annotations

from typing import TypedDict


class LoopState(TypedDict, total=False):
    iteration: int
    """The iteration being worked on; 0 is the evaluation of the starting kernel."""
    best_path: str
    """Kernel file of the current best version, in the run folder: iterations/NNNN/candidate.py."""
    best_eval: str
    """eval.json of the current best version, in the run folder."""
    attempts: list[dict]
    """Every proposal so far and its outcome (agent.policies.base.Attempt as a dict)."""
    proposals: list[dict]
    """This iteration's proposals (Proposal dicts plus `path`, the candidate file's in the run folder)."""
    results: list[dict]
    """This iteration's evaluations: `eval` (eval.json in the run folder) and the decision, one per proposal."""
    accepted: int | None
    """Index into `proposals` of the version to commit, or None."""
    commits: list[str]
    """Shas of the accepted versions, in order."""
    started: float
    """Wall-clock start of the run (time.time()), for --time-budget across resumes."""
    stop_reason: str | None
    """Why the run ended; None while it goes on."""
