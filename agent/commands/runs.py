"""`agent runs`: the runs under a folder, one line each."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import runs_dir

HELP = "list runs"


def add_arguments(p) -> None:
    runs_dir(p)


def run(args) -> int:
    from tools.runfolder import list_runs

    runs = [(folder, info) for folder in list_runs(Path(args.runs_dir)) if (info := folder.info()) is not None]
    if not runs:
        print(f"no runs under {args.runs_dir}")
        return 0
    for folder, run in runs:
        fraction = run.best.median_fraction_of_copy if run.best else None
        print(
            f"{run.run_id or folder.run_id:<48} {run.status or '?':<9} iterations {run.iterations:>3}  "
            f"commits {len(run.commits):>2}  best {f'{fraction:.2f} of copy' if fraction else '-'}"
        )
    return 0
