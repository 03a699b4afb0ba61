"""When a run stops: checked after each iteration's reflection (docs/loop.md, "Stopping")."""

from __future__ import annotations

import time

from agent.config import RunConfig
from agent.state import LoopState
from tools.runfolder import RunFolder, read_record

USER_STOP = "stopped by the user (Ctrl-C)"  # the one stop reason agent resume goes on from


def stop_reason(config: RunConfig, folder: RunFolder, state: LoopState, user_stop: bool) -> str | None:
    """Why the run ends after this iteration, or None to go on."""
    if user_stop:
        return USER_STOP
    if state.iteration >= config.iterations:
        return f"reached --iterations {config.iterations}"
    if config.time_budget_s is not None and time.time() - (state.started or time.time()) >= config.time_budget_s:
        return f"reached --time-budget {config.time_budget_s:.0f} s"
    if config.target_fraction is not None:
        fraction = read_record(folder.locate(state.best_eval), required=True).median_fraction_of_copy()
        if fraction is not None and fraction >= config.target_fraction:
            return f"reached --target {config.target_fraction:.2f} of copy bandwidth (median shape {fraction:.2f})"
    return None
