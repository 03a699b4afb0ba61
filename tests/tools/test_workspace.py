"""The git workspace of a run: a branch in a worktree, the user's checkout untouched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import git
import pytest

from tools.workspace import AGENT, WORKTREE_LOCK, Workspace


def _repo_with_one_commit(path):
    repo = git.Repo.init(path)
    (path / "README.md").write_text("project\n")
    repo.index.add(["README.md"])
    repo.index.commit("first", author=AGENT, committer=AGENT)
    return repo


def test_a_kernel_file_head_does_not_track_starts_the_branch(tmp_path):
    # The H200 session ran from an ignored copy inside the checkout: HEAD had no such folder.
    project = tmp_path / "project"
    project.mkdir()
    repo = _repo_with_one_commit(project)
    kernel = project / "scratch" / "kernels" / "rope" / "tilelang.py"
    kernel.parent.mkdir(parents=True)
    kernel.write_text("CONFIG = {}\n")

    workspace = Workspace.create(tmp_path / "run", kernel, "agent/rope-tilelang-x", kernel.read_text())

    assert workspace.kernel_relpath == "scratch/kernels/rope/tilelang.py"
    assert workspace.read() == "CONFIG = {}\n"
    assert [m for _, m in workspace.history()] == [
        "baseline: the working copy of scratch/kernels/rope/tilelang.py at the start of the run"
    ]
    assert repo.active_branch.name != "agent/rope-tilelang-x"  # the user's checkout stays where it was
    assert not repo.is_dirty(untracked_files=False)


CREATE_SCRIPT = (
    "import sys; from pathlib import Path; from tools.workspace import Workspace;"
    "Workspace.create(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], 'CONFIG = {1: 1}\\n')"
)


def test_runs_started_at_once_each_get_their_worktree(tmp_path):
    # Eight processes add worktrees to one repository at the same moment, three times over: with
    # `git worktree add` serialised by the lock in the common git dir, every one gets its branch.
    project = tmp_path / "project"
    project.mkdir()
    repo = _repo_with_one_commit(project)
    kernel = project / "kernel.py"
    kernel.write_text("CONFIG = {}\n")
    repo.index.add(["kernel.py"])
    repo.index.commit("kernel", author=AGENT, committer=AGENT)
    root = Path(__file__).resolve().parents[2]
    for wave in range(3):
        runs = [(tmp_path / f"run-{wave}-{i}", f"agent/w{wave}-{i}") for i in range(8)]
        children = [
            subprocess.Popen(
                [sys.executable, "-c", CREATE_SCRIPT, str(run_dir), str(kernel), branch],
                cwd=root,
                env=dict(os.environ, PYTHONPATH=str(root)),
                stderr=subprocess.PIPE,
                text=True,
            )
            for run_dir, branch in runs
        ]
        errors = [child.communicate(timeout=120)[1] for child in children]
        assert [child.returncode for child in children] == [0] * 8, "\n".join(errors)
    branches = {head.name for head in repo.heads}
    for wave in range(3):
        for i in range(8):
            assert f"agent/w{wave}-{i}" in branches
            assert (tmp_path / f"run-{wave}-{i}" / "worktree" / "kernel.py").read_text() == "CONFIG = {1: 1}\n"
    assert (Path(repo.common_dir) / WORKTREE_LOCK).exists()
    assert not repo.is_dirty(untracked_files=False)


@pytest.mark.parametrize("in_a_checkout", [True, False], ids=["worktree", "own-repository"])
def test_the_locks_of_a_commit_killed_midway_are_cleared_and_the_next_commit_lands(tmp_path, in_a_checkout):
    # A run SIGKILLed inside repo.index.commit leaves its worktree's index.lock or its branch's ref lock.
    project = tmp_path / "project"
    project.mkdir()
    if in_a_checkout:
        _repo_with_one_commit(project)
    kernel = project / "kernel.py"
    kernel.write_text("CONFIG = {}\n")
    workspace = Workspace.create(tmp_path / "run", kernel, "agent/rope-torch-x", "CONFIG = {1: 1}\n")
    locks = workspace.stale_locks()
    for lock in locks:  # each one alone stops a commit
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text("left by a killed commit\n")
        with pytest.raises(OSError, match="lock"):
            workspace.commit("CONFIG = {2: 2}\n", "blocked")
        lock.unlink()
    for lock in locks:
        lock.write_text("left by a killed commit\n")

    cleared = workspace.clear_stale_locks()

    assert len(cleared) == 2 and not any(lock.exists() for lock in locks)
    workspace.commit("CONFIG = {2: 2}\n", "lands")
    assert [m for _, m in workspace.history()][-1] == "lands"
    assert workspace.clear_stale_locks() == []
