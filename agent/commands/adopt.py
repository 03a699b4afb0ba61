"""`agent adopt RUN_ID`: the run's best version into the kernel file of this clone."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import runs_dir

HELP = "bring a run's best version into the working tree"


def add_arguments(p) -> None:
    p.add_argument("run_id")
    p.add_argument("--force", action="store_true", help="overwrite edits made since the run started")
    runs_dir(p)


def run(args) -> int:
    from agent.adopt import adopt

    print(adopt(Path(args.runs_dir), args.run_id, force=args.force).message)
    return 0
