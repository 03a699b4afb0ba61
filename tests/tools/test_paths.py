"""How records keep paths: relative to the repository (or a run folder) inside it, absolute outside."""

from __future__ import annotations

from pathlib import Path

from tools.paths import PROJECT_ROOT, record_path, resolve_path


def test_a_file_of_the_repository_is_recorded_relative_to_its_root():
    assert record_path(PROJECT_ROOT / "kernels" / "rope" / "tilelang.py") == "kernels/rope/tilelang.py"


def test_a_file_outside_the_repository_stays_absolute(tmp_path):
    assert record_path(tmp_path / "mine.py") == str((tmp_path / "mine.py").resolve())


def test_a_path_spelled_relative_to_the_cwd_is_recorded_from_where_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT / "kernels")
    assert record_path("rope/tilelang.py") == "kernels/rope/tilelang.py"


def test_any_folder_can_be_the_base(tmp_path):
    run = tmp_path / "runs" / "r1"
    assert record_path(run / "iterations" / "0001" / "candidate.py", run) == "iterations/0001/candidate.py"
    assert record_path(tmp_path / "k.py", run) == str((tmp_path / "k.py").resolve())


def test_a_recorded_path_is_resolved_in_the_clone_this_runs_in(tmp_path):
    assert resolve_path("kernels/rope/tilelang.py") == PROJECT_ROOT / "kernels" / "rope" / "tilelang.py"
    assert resolve_path("kernels/rope/tilelang.py", tmp_path) == tmp_path / "kernels" / "rope" / "tilelang.py"
    assert resolve_path(str(tmp_path / "k.py")) == tmp_path / "k.py"
    assert resolve_path(Path("a") / "b", tmp_path) == tmp_path / "a" / "b"
