"""`agent resume RUN_ID`: continue a stopped or killed run from its checkpoint."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import runs_dir
from agent.console import (
    final_summary,
    iteration_printer,
    judge_with_progress,
    make_console,
    stop_on_first_ctrl_c,
)

HELP = "continue a stopped or killed run"


def add_arguments(p) -> None:
    p.add_argument("run_id")
    runs_dir(p)


def run(args) -> int:
    from agent.loop import resume
    from tools.runfolder import RUN_FILE, RunFolder

    console = make_console()
    runs_dir = Path(args.runs_dir)
    finished = RunFolder.open(runs_dir, args.run_id).read_json(RUN_FILE)
    if finished.get("status") == "finished":
        # Nothing to continue: the run folder (committed examples too) stays as it is.
        console.print(
            f"run {args.run_id} is finished (stopped because: {finished.get('stop_reason')}); nothing to resume"
        )
        return 0
    flag = stop_on_first_ctrl_c(console)
    printer, judge = iteration_printer(console), judge_with_progress()
    run = resume(args.run_id, runs_dir=runs_dir, on_iteration=printer, stop_requested=flag, judge=judge)
    final_summary(run, runs_dir, console)
    return 0
