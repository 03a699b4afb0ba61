"""The whole loop on the CPU with the search policy: decisions, git history, run folder, resume."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import git
import pytest

from agent.config import RunConfig
from agent.loop import optimize, resume
from agent.policies.source_edit import read_literal
from tests.agent.recorded_judge import RecordedJudge, start_run
from tests.agent.tuned_candidates import TUNED_ROPE, WRONG_AT_TWO, cpu_config
from tools.runfolder import RunBusyError, RunFolder

SHAPES = ["llama3.2-1b/decode1/q"]


def config_for(kernel: Path, **overrides) -> RunConfig:
    return cpu_config(kernel, **{"iterations": 5, **overrides})


@pytest.fixture
def user_repo(tmp_path: Path) -> Path:
    """A user's checkout with the kernel committed, then edited and left uncommitted."""
    repo_dir = tmp_path / "checkout"
    kernel = repo_dir / "kernels" / "rope" / "tuned.py"
    kernel.parent.mkdir(parents=True)
    kernel.write_text(TUNED_ROPE.replace("(for the loop's tests)", "(committed)"))
    repo = git.Repo.init(repo_dir)
    repo.index.add(["kernels/rope/tuned.py"])
    actor = git.Actor("user", "user@example.invalid")
    repo.index.commit("user's commit", author=actor, committer=actor)
    kernel.write_text(TUNED_ROPE)  # the uncommitted edit the run starts from
    (repo_dir / "notes.txt").write_text("untracked user file\n")
    return repo_dir


def test_search_walks_to_the_fastest_config_and_commits_only_accepted_versions(user_repo, tmp_path):
    repo = git.Repo(user_repo)
    head, status = repo.head.commit.hexsha, repo.git.status("--porcelain")
    kernel = user_repo / "kernels" / "rope" / "tuned.py"
    rows = []
    # 3 iterations: the losing step up (8), the winning step down (2), and one more along the winner's direction.
    # The judge replays the real judge's records of these candidates: the walk does not hinge on the CPU's load.
    config = config_for(kernel, iterations=3)
    run = optimize(config, runs_dir=tmp_path / "runs", on_iteration=rows.append, judge=RecordedJudge())

    assert run["status"] == "finished"
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    attempts = [e for e in folder.events() if e["event"] == "decide"]
    assert len(attempts) == run["iterations"]
    # 4 -> 8 loses; 4 -> 2 wins; the same direction wins again (2 -> 1).
    decisions = [e for e in attempts if e["accepted"] is not None]
    assert [e["accepted"] is not None for e in attempts] == [False, True, True]
    branch = git.Repo(folder.path / "worktree")
    commits = list(reversed(list(branch.iter_commits(f"{head}..{run['branch']}"))))
    assert commits[0].message.startswith("baseline: the working copy")
    accepted = commits[1:]
    assert len(accepted) == len(run["commits"]) == len(decisions)
    assert all(c.message.startswith("rope[torch]: ") and f"run: {run['run_id']}" in c.message for c in accepted)
    assert "x over previous" in accepted[0].message
    delays = [
        read_literal(c.tree["kernels/rope/tuned.py"].data_stream.read().decode(), "CONFIG")["delay_ms"]
        for c in accepted
    ]
    assert delays == [2, 1]
    # The user's checkout is untouched: same HEAD, same uncommitted and untracked files.
    assert repo.head.commit.hexsha == head
    assert repo.git.status("--porcelain") == status
    assert kernel.read_text() == TUNED_ROPE
    # The run folder has every iteration's files.
    for n in range(1, run["iterations"] + 1):
        files = {p.name for p in folder.iteration_dir(n).iterdir()}
        assert {"candidate.py", "diff.patch", "eval.json", "reflection.md"} <= files
    assert rows[0]["iteration"] == 0 and rows[0]["outcome"] == "baseline"


def test_a_wrong_candidate_is_rejected_and_the_walk_goes_on(tmp_path):
    kernel = tmp_path / "wrong_at_two.py"
    kernel.write_text(WRONG_AT_TWO)
    # The real judge's records of this walk, replayed: what fails and what is faster does not hinge on the load.
    run = optimize(config_for(kernel, iterations=3), runs_dir=tmp_path / "runs", judge=RecordedJudge())
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    decisions = [e for e in folder.events() if e["event"] == "decide"]
    assert decisions[1]["accepted"] is None
    assert "failed at correctness" in decisions[1]["decisions"][0]["reason"]
    assert run["commits"] == []  # own repository: nothing beat the start
    assert (folder.path / "repo" / "kernel.py").exists()


def test_a_run_killed_mid_iteration_resumes_without_losing_finished_iterations(user_repo, tmp_path):
    kernel = user_repo / "kernels" / "rope" / "tuned.py"
    runs = tmp_path / "runs"
    # 1 rejected (delay 8), 2 accepted and committed, killed once 3 has started: resume finishes 3.
    config = config_for(kernel, iterations=3)
    # Evaluations run for real (the kill lands in one); decisions are the recorded ones, whatever the load.
    child = start_run(config, runs, "killed", judge="live")
    events = runs / "killed" / "events.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and child.poll() is None:  # kill once a version is committed, the next started
        text = events.read_text() if events.exists() else ""
        if '"commit"' in text and text.count('"evaluate_start"') >= 3:
            break
        time.sleep(0.1)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    folder = RunFolder(runs / "killed")
    before = [e for e in folder.events() if e["event"] == "decide"]
    assert before, "the run was killed before it finished an iteration"

    run = resume("killed", runs_dir=runs, judge=RecordedJudge())
    assert run["status"] == "finished"
    after = [e for e in folder.events() if e["event"] == "decide"]
    assert [d["iteration"] for d in after[: len(before)]] == [d["iteration"] for d in before]
    assert sorted({d["iteration"] for d in after}) == list(range(1, run["iterations"] + 1))
    branch = git.Repo(folder.path / "worktree")
    base = json.loads((folder.path / "run.json").read_text())["workspace"]["base_commit"]
    accepted = [c for c in branch.iter_commits(f"{base}..{run['branch']}") if c.message.startswith("rope[torch]")]
    assert len(accepted) == len(run["commits"]) == len({c.message for c in accepted})


def test_resuming_a_finished_run_changes_nothing(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text(TUNED_ROPE)
    run = optimize(config_for(kernel, iterations=1), runs_dir=tmp_path / "runs", judge=RecordedJudge())
    again = resume(run["run_id"], runs_dir=tmp_path / "runs", judge=RecordedJudge())
    assert again["commits"] == run["commits"] and again["status"] == "finished"


def _stopped_after_one_iteration(kernel: Path, runs: Path) -> dict:
    stop = [False]
    return optimize(
        config_for(kernel, iterations=2),
        runs_dir=runs,
        on_iteration=lambda row: stop.__setitem__(0, row["iteration"] >= 1),  # Ctrl-C after iteration 1
        stop_requested=stop,
        judge=RecordedJudge(),
    )


def test_a_run_killed_inside_a_commit_resumes_and_commits(user_repo, tmp_path):
    # Iteration 1 is rejected, 2 accepted: the locks a kill inside git's commit leaves must not block it.
    runs = tmp_path / "runs"
    run = _stopped_after_one_iteration(user_repo / "kernels" / "rope" / "tuned.py", runs)
    folder = RunFolder(runs / run["run_id"])
    workspace = folder.workspace()
    for lock in workspace.stale_locks():
        lock.write_text("left by a commit killed midway\n")

    run = resume(run["run_id"], runs_dir=runs, judge=RecordedJudge())

    assert run["status"] == "finished" and len(run["commits"]) == 1
    resumed = [e for e in folder.events() if e["event"] == "run_resume"]
    assert resumed[-1]["cleared_locks"] == ["worktrees/worktree/index.lock", f"refs/heads/{run['branch']}.lock"]


def test_a_run_another_process_is_running_is_not_resumed(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text(TUNED_ROPE)
    runs = tmp_path / "runs"
    run = _stopped_after_one_iteration(kernel, runs)
    folder = RunFolder(runs / run["run_id"])
    events = (folder.path / "events.jsonl").read_text()
    with folder.hold():  # as the process running it would
        with pytest.raises(RunBusyError, match=f"run {run['run_id']} is being run by pid {os.getpid()}"):
            resume(run["run_id"], runs_dir=runs, judge=RecordedJudge())
    assert (folder.path / "events.jsonl").read_text() == events
    assert folder.read_json("run.json")["status"] == "stopped"


def test_unknown_run_is_a_clear_error(tmp_path):
    (tmp_path / "runs").mkdir()
    with pytest.raises(FileNotFoundError, match="no run 'nope'"):
        resume("nope", runs_dir=tmp_path / "runs")


def test_a_run_records_no_path_of_its_folder_and_resumes_after_the_folder_moved(tmp_path):
    kernel = tmp_path / "k.py"  # outside any repository: the run keeps its own (repo/, inside its folder)
    kernel.write_text(TUNED_ROPE)
    stop = [False]
    run = optimize(
        config_for(kernel, iterations=2),
        runs_dir=tmp_path / "runs",
        on_iteration=lambda row: stop.__setitem__(0, row["iteration"] >= 1),  # Ctrl-C after iteration 1
        stop_requested=stop,
        judge=RecordedJudge(),  # what is asked here is where paths are kept, not what is decided
    )
    assert run["status"] == "stopped" and run["iterations"] == 1
    old = tmp_path / "runs" / run["run_id"]
    moved = shutil.move(tmp_path / "runs", tmp_path / "elsewhere" / "runs")
    run = resume(run["run_id"], runs_dir=moved, judge=RecordedJudge())
    assert run["status"] == "finished" and run["iterations"] == 2
    folder = RunFolder(moved / run["run_id"])
    assert run["workspace"]["worktree"] == "repo" and run["kernel_file"] == str(kernel)  # outside: absolute
    for n in range(3):
        assert folder.read_json(f"iterations/{n:04d}/eval.json")["candidate"] == f"iterations/{n:04d}/candidate.py"
    # Neither where the run ran nor where it moved is in any record, the checkpoint's state included.
    for path in folder.path.rglob("*"):
        if path.is_file() and "repo" not in path.relative_to(folder.path).parts:
            data = path.read_bytes()
            assert str(old).encode() not in data and str(folder.path).encode() not in data, path
