"""The git workspace of a run: a branch in a worktree, the user's checkout untouched."""

from __future__ import annotations

import git

from tools.workspace import AGENT, Workspace


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
