"""`agent export RUN_ID`: prompts.md and reflection.md from the run folder (tools/export.py)."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import runs_dir

HELP = "write prompts.md and reflection.md for a run"


def add_arguments(p) -> None:
    p.add_argument("run_id")
    p.add_argument("--out", help="folder for the two files (default: the run folder)")
    runs_dir(p)


def run(args) -> int:
    from tools.export import export
    from tools.runfolder import RunFolder

    prompts, reflection = export(RunFolder.open(Path(args.runs_dir), args.run_id), args.out)
    print(f"wrote {prompts} and {reflection}")
    return 0
