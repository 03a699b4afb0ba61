"""The run folder: where its records' paths point on this machine, and which file is the run's best version."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.runfolder import RunFolder

ROOT = Path(__file__).resolve().parents[2]


def test_a_relative_path_is_in_the_run_folder(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.iteration_dir(1) / "candidate.py"
    assert folder.relative(candidate) == "iterations/0001/candidate.py"
    assert folder.locate("iterations/0001/candidate.py") == candidate


def test_an_old_absolute_path_of_the_run_follows_the_folder_where_it_moved(tmp_path):
    folder = RunFolder.create(tmp_path / "here", "r1")
    (folder.iteration_dir(1) / "candidate.py").write_text("x = 1\n")
    old = "/home/someone/checkout/runs/r1/iterations/0001/candidate.py"  # an older checkpoint's state
    assert folder.locate(old) == folder.path / "iterations" / "0001" / "candidate.py"
    # Not one of the run's files (or not here): the path as it was, for the error to name.
    assert folder.locate("/home/someone/checkout/runs/r1/iterations/0009/candidate.py") == Path(
        "/home/someone/checkout/runs/r1/iterations/0009/candidate.py"
    )
    assert folder.locate(str(tmp_path / "k.py")) == tmp_path / "k.py"


@pytest.mark.parametrize("recorded", ["worktree", "/old/machine/runs/r1/worktree"])
def test_the_workspace_is_located_in_the_run_folder(tmp_path, recorded):
    folder = RunFolder.create(tmp_path, "r1")
    (folder.path / "worktree").mkdir()
    workspace = {"branch": "b", "kernel_relpath": "kernels/rope/tilelang.py", "base_commit": "0" * 40}
    folder.update_run(workspace={**workspace, "worktree": recorded, "own_repository": False})
    assert folder.workspace().worktree == folder.path / "worktree"


def test_messages_name_the_runs_files_relative_to_it(tmp_path):
    folder = RunFolder.create(tmp_path, "r1")
    candidate = folder.path.resolve() / "iterations" / "0001" / "candidate.py"
    folder.event("evaluate_end", message=f"other users cannot read {candidate}; see {ROOT / 'tools' / 'paths.py'}")
    assert folder.events()[0]["message"] == "other users cannot read iterations/0001/candidate.py; see tools/paths.py"
