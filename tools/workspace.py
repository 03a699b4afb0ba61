"""Git history of accepted kernels (docs/loop.md, "Git history"), through GitPython.

Accepted versions become commits on `agent/<op>-<backend>-<run-id>`, made in a
worktree under the run folder, so the user's checkout (and their uncommitted
edits) are never touched. Without an enclosing repository, the run keeps its
own repository in its folder.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import git

from tools.paths import record_path

AGENT = git.Actor("kernel-workbench agent", "agent@kernel-workbench.invalid")

# In the repository's common git dir: held while a run adds its worktree (see _worktree_lock).
WORKTREE_LOCK = "kernel-workbench-worktree.lock"


@contextmanager
def _worktree_lock(repo: git.Repo) -> Iterator[None]:
    """Serialise `git worktree add` across processes on one repository.

    `git worktree add` reads every entry under .git/worktrees while another add may be
    half-way through writing its own; git does not guard that, and concurrent adds are a
    known source of "fatal: failed to read .git/worktrees/<name>/commondir". Two
    `agent optimize` runs started at once on one repository do exactly this. The lock
    covers only the add; the runs' commits go to their own worktrees and stay parallel.
    """
    with open(Path(repo.common_dir) / WORKTREE_LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def commit_message(
    op: str,
    backend: str,
    iteration: int,
    speedup: float,
    scope: str | None,
    gbps: float | None,
    fraction: float | None,
    rationale: str,
    run_id: str,
) -> str:
    """An accepted version's commit message (docs/loop.md, "Git history"): its result on the first line, the
    why, the run."""
    numbers = f"{speedup:.2f}x over previous ({scope or 'graph'} scope)"
    if gbps:
        numbers += f", {gbps / 1e3:.2f} TB/s median" if gbps >= 100 else f", {gbps:.3g} GB/s median"
    if fraction:
        numbers += f" ({fraction:.2f} of copy)"
    return f"{op}[{backend}]: {numbers}, iteration {iteration}\n\n{rationale}\n\nrun: {run_id}"


@dataclass
class Workspace:
    worktree: Path
    branch: str
    kernel_relpath: str
    base_commit: str
    own_repository: bool

    @classmethod
    def create(cls, run_dir: Path, kernel_file: Path, branch: str, start_source: str) -> Workspace:
        """Branch off HEAD into `run_dir/worktree`; commit `start_source` first if it differs from HEAD's file."""
        kernel_file = Path(kernel_file).resolve()
        try:
            repo = git.Repo(kernel_file.parent, search_parent_directories=True)
            head = repo.head.commit  # raises ValueError in a repository without commits
        except (git.InvalidGitRepositoryError, git.NoSuchPathError, ValueError):
            return cls._own_repository(run_dir, branch, start_source)
        relpath = kernel_file.relative_to(Path(repo.working_tree_dir).resolve()).as_posix()
        worktree = Path(run_dir) / "worktree"
        with _worktree_lock(repo):
            if branch in [h.name for h in repo.heads]:
                raise ValueError(f"git branch {branch} already exists in {repo.working_tree_dir}; use another run id")
            repo.git.worktree("add", "-b", branch, str(worktree), head.hexsha)
        workspace = cls(worktree, branch, relpath, head.hexsha, own_repository=False)
        if workspace.read() != start_source:
            workspace.commit(start_source, f"baseline: the working copy of {relpath} at the start of the run")
        return workspace

    @classmethod
    def _own_repository(cls, run_dir: Path, branch: str, start_source: str) -> Workspace:
        worktree = Path(run_dir) / "repo"
        repo = git.Repo.init(worktree, initial_branch=branch)
        relpath = "kernel.py"
        (worktree / relpath).write_text(start_source)
        repo.index.add([relpath])
        first = repo.index.commit(
            "baseline: the kernel at the start of the run", author=AGENT, committer=AGENT, skip_hooks=True
        )
        return cls(worktree, branch, relpath, first.hexsha, own_repository=True)

    @property
    def repo(self) -> git.Repo:
        return git.Repo(self.worktree)

    def read(self) -> str:
        path = self.worktree / self.kernel_relpath
        return path.read_text() if path.exists() else ""

    def commit(self, source: str, message: str) -> str:
        path = self.worktree / self.kernel_relpath
        # A kernel file HEAD does not track (a new or untracked folder) has no folder in the worktree yet.
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        repo = self.repo
        repo.index.add([self.kernel_relpath])
        # Hooks go through COMMIT_EDITMSG in the git dir all worktrees share: runs at once raced on it.
        return repo.index.commit(message, author=AGENT, committer=AGENT, skip_hooks=True).hexsha

    def stale_locks(self) -> list[Path]:
        """The git lock files a commit of this run takes: its worktree's index and its branch's ref."""
        repo = self.repo
        return [
            Path(repo.git_dir).resolve() / "index.lock",
            Path(repo.common_dir).resolve() / "refs" / "heads" / f"{self.branch}.lock",
        ]

    def clear_stale_locks(self) -> list[str]:
        """Remove the locks a run killed mid-commit left behind; returns those it removed, relative to the
        repository's git dir.

        Only the process that holds the run folder (RunFolder.hold) may call this: no one else
        commits to this run's worktree or branch, so a lock found then belongs to a dead process."""
        common = Path(self.repo.common_dir).resolve()
        removed = []
        for lock in self.stale_locks():
            if lock.exists():
                lock.unlink()
                removed.append(os.path.relpath(lock, common))
        return removed

    def history(self) -> list[tuple[str, str]]:
        """(sha, message) of the run's commits, oldest first."""
        commits = list(self.repo.iter_commits(f"{self.base_commit}..{self.branch}"))
        return [(c.hexsha, c.message.strip()) for c in reversed(commits)]

    def to_dict(self, relative_to: Path | None = None) -> dict:
        """As run.json keeps it; with `relative_to` (the run folder), the worktree relative to that folder."""
        return {
            "worktree": record_path(self.worktree, relative_to) if relative_to is not None else str(self.worktree),
            "branch": self.branch,
            "kernel_relpath": self.kernel_relpath,
            "base_commit": self.base_commit,
            "own_repository": self.own_repository,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Workspace:
        return cls(
            Path(data["worktree"]), data["branch"], data["kernel_relpath"], data["base_commit"], data["own_repository"]
        )
