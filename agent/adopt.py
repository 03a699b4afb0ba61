"""`agent adopt RUN_ID`: a run's best version into the kernel file of this clone, unless that loses something.

The kernel file may differ from the version the run started from in two ways, and they are told apart
because only one of them can lose work: edits not committed (adopting would overwrite them for good), or
commits made since (the file is clean; adopting would undo those commits' changes in the working copy, which
git can restore). Both refuse without --force, each saying which it is and what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import git

from tools.paths import PROJECT_ROOT, resolve_path
from tools.runfolder import RUN_FILE, RunFolder

HISTORY_SEARCH = 500  # commits of the file's history searched for the version the run started from


@dataclass(frozen=True)
class Adopted:
    """What adopt did, for the one line the command prints."""

    message: str


def _head_text(repo: git.Repo, relative: str) -> str | None:
    try:
        return (repo.head.commit.tree / relative).data_stream.read().decode()
    except (KeyError, ValueError, UnicodeDecodeError):  # not committed, no commit yet, not text
        return None


def _last_commit_holding(repo: git.Repo, relative: str, text: str) -> tuple[str, int] | None:
    """The newest commit whose version of the file is `text`, and how many commits changed the file since."""
    for since, commit in enumerate(repo.iter_commits(paths=relative, max_count=HISTORY_SEARCH)):
        try:
            if (commit.tree / relative).data_stream.read().decode() == text:
                return commit.hexsha[:10], since
        except (KeyError, UnicodeDecodeError):
            continue
    return None


def why_not(kernel: Path, recorded: str, started_from: str) -> str | None:
    """Why adopting into `kernel` would lose something (None: the file is as the run found it, or absent)."""
    if not kernel.exists():
        return None
    current = kernel.read_text()
    if current == started_from:
        return None
    try:
        repo = git.Repo(kernel.parent, search_parent_directories=True)
        relative = kernel.resolve().relative_to(Path(repo.working_tree_dir).resolve()).as_posix()
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, ValueError):
        return f"{recorded} changed since the run started; adopting would overwrite it (use --force to do it anyway)"
    committed = _head_text(repo, relative)
    if current != committed:
        return (
            f"{recorded} has edits not committed; adopting would overwrite them: commit or stash them first "
            "(use --force to overwrite them)"
        )
    found = _last_commit_holding(repo, relative, started_from)
    where = (
        f"the run started from its version of commit {found[0]}, and {found[1]} commit(s) changed it since"
        if found
        else "no commit of this clone holds the version the run started from"
    )
    return (
        f"{recorded} has no uncommitted edits, but it changed in git history: {where}; adopting would undo those "
        "changes in your working copy (git can restore them: git checkout -- FILE); use --force to adopt anyway"
    )


def adopt(runs_dir: Path, run_id: str, force: bool = False) -> Adopted:
    """The best version from the run folder (not its worktree, which may be on another machine) into the kernel
    file, resolved in this clone: run.json records it relative to the repository root."""
    folder = RunFolder.open(runs_dir, run_id)
    run = folder.read_json(RUN_FILE)
    recorded = run.get("kernel_file")
    if not recorded:
        raise ValueError(f"run {run_id}: run.json names no kernel file; the run folder is incomplete")
    kernel = resolve_path(recorded)
    best = folder.best_candidate(run)
    if best is None:
        return Adopted(
            f"run {run_id} accepted no version: its best is the kernel it started from; {recorded} is unchanged"
        )
    if not kernel.parent.is_dir():
        raise FileNotFoundError(f"{recorded}: no folder {kernel.parent} in this clone ({PROJECT_ROOT})")
    reason = None if force else why_not(kernel, recorded, folder.candidate(0).read_text())
    if reason:
        raise RuntimeError(reason)
    kernel.write_text(best.read_text())
    iteration = run["best"]["iteration"]
    return Adopted(f"{recorded} now holds the best version of run {run_id} (iteration {iteration}, {best.name})")
