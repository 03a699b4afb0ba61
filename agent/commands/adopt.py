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
    """The best version from the run folder (not its worktree, which may be on another machine) into the kernel
    file, resolved in this clone: run.json records it relative to the repository root."""
    from tools.paths import PROJECT_ROOT, resolve_path
    from tools.runfolder import RUN_FILE, RunFolder

    folder = RunFolder.open(Path(args.runs_dir), args.run_id)
    run = folder.read_json(RUN_FILE)
    recorded = run.get("kernel_file")
    if not recorded:
        raise ValueError(f"run {args.run_id}: run.json names no kernel file; the run folder is incomplete")
    kernel = resolve_path(recorded)
    best = folder.best_candidate(run)
    if best is None:
        print(f"run {args.run_id} accepted no version: its best is the kernel it started from; {recorded} is unchanged")
        return 0
    if not kernel.parent.is_dir():
        raise FileNotFoundError(f"{recorded}: no folder {kernel.parent} in this clone ({PROJECT_ROOT})")
    started_from = folder.candidate(0).read_text()
    if kernel.exists() and kernel.read_text() != started_from and not args.force:
        raise RuntimeError(
            f"{recorded} changed since the run started; adopting would overwrite your edits "
            "(use --force to do it anyway)"
        )
    kernel.write_text(best.read_text())
    iteration = run["best"]["iteration"]
    print(f"{recorded} now holds the best version of run {args.run_id} (iteration {iteration}, {best.name})")
    return 0
