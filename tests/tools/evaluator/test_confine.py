"""Compile caches per file content: one runner at a time, and a private copy for a second runner of one file."""

from __future__ import annotations

import os

import pytest

from tools.evaluator import confine


@pytest.fixture
def runner_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("KW_RUNNER_DIR", str(tmp_path))
    return tmp_path


def _compiled(identity: confine.Identity) -> None:
    (identity.home / "triton").mkdir()
    (identity.home / "triton" / "kernel.so").write_text("compiled")


def test_a_cache_in_use_gives_the_second_runner_an_empty_one(runner_dir):
    first = confine.prepare("file-torch-abc", uids=None)
    _compiled(first)
    second = confine.prepare("file-torch-abc", uids=None)
    assert second.home != first.home and not (second.home / "triton" / "kernel.so").exists()
    assert any("empty cache" in note for note in second.notes)
    confine.release(second)
    confine.release(first)
    assert (first.home / "triton" / "kernel.so").read_text() == "compiled"  # the owner's cache stays


def test_a_copy_taken_at_rest_starts_warm_and_goes_with_its_runner(runner_dir):
    owner = confine.prepare("file-torch-abc", uids=None)
    _compiled(owner)
    confine.release(owner)
    key = confine.copy_cache("file-torch-abc")
    assert key != "file-torch-abc" and confine.COPY_MARK in key
    first = confine.prepare("file-torch-abc", uids=None)
    second = confine.prepare(key, uids=None)
    assert not second.notes  # its own cache: no note of an empty one
    assert (second.home / "triton" / "kernel.so").read_text() == "compiled"
    (second.home / "triton" / "kernel.so").write_text("changed by the second runner")
    confine.release(second)
    confine.release(first)
    assert not second.home.exists()
    assert (first.home / "triton" / "kernel.so").read_text() == "compiled"


def test_no_copy_of_a_cache_in_use(runner_dir):
    owner = confine.prepare("file-torch-abc", uids=None)
    assert confine.copy_cache("file-torch-abc") == "file-torch-abc"
    confine.release(owner)


def test_a_runners_home_keeps_only_its_compile_caches(runner_dir):
    runner = confine.prepare("file-torch-left", uids=None)
    _compiled(runner)
    (runner.home / ".ninetoothed").mkdir()
    (runner.home / "notes.txt").write_text("for a later runner")
    (runner.home / "stash").mkdir()
    os.mkfifo(runner.home / "triton" / "pipe")
    confine.release(runner)
    assert sorted(p.name for p in runner.home.iterdir()) == [".ninetoothed", "triton"]
    copy = confine.prepare(confine.copy_cache("file-torch-left"), uids=None)
    assert sorted(p.name for p in (copy.home / "triton").iterdir()) == ["kernel.so"]  # the FIFO is not copied
    confine.release(copy)
