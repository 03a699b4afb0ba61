"""agent adopt tells edits not committed apart from changes made in git history."""

from __future__ import annotations

from pathlib import Path

import git

from agent.adopt import why_not

START = 'CONFIG = {"block": 64}\n'
LATER = 'CONFIG = {"block": 128}\n'


def _repo_with(folder: Path, *versions: str) -> tuple[git.Repo, Path]:
    """A repository whose kernel.py went through `versions`, one commit each."""
    repo = git.Repo.init(folder)
    kernel = folder / "kernel.py"
    actor = git.Actor("user", "user@example.invalid")
    for text in versions:
        kernel.write_text(text)
        repo.index.add(["kernel.py"])
        repo.index.commit("kernel", author=actor, committer=actor)
    return repo, kernel


def test_the_file_as_the_run_found_it_is_adopted(tmp_path):
    _, kernel = _repo_with(tmp_path, START)
    assert why_not(kernel, "kernel.py", START) is None


def test_edits_not_committed_are_named_as_such(tmp_path):
    _, kernel = _repo_with(tmp_path, START)
    kernel.write_text(START + "# mine\n")
    reason = why_not(kernel, "kernel.py", START)
    assert reason.startswith("kernel.py has edits not committed") and "commit or stash" in reason


def test_a_change_only_in_history_is_not_called_an_edit(tmp_path):
    repo, kernel = _repo_with(tmp_path, START, LATER)
    reason = why_not(kernel, "kernel.py", START)
    first = next(iter(repo.iter_commits(max_count=2, skip=1))).hexsha[:10]
    assert reason.startswith("kernel.py has no uncommitted edits, but it changed in git history")
    assert f"version of commit {first}, and 1 commit(s) changed it since" in reason
    assert "edits not committed" not in reason


def test_a_start_no_commit_holds_is_said_so(tmp_path):
    _, kernel = _repo_with(tmp_path, LATER)
    assert "no commit of this clone holds the version the run started from" in why_not(kernel, "kernel.py", START)


def test_outside_git_any_difference_is_a_change(tmp_path):
    kernel = tmp_path / "kernel.py"
    kernel.write_text(LATER)
    assert why_not(kernel, "kernel.py", START).startswith("kernel.py changed since the run started")
