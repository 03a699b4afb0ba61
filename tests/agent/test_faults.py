"""Faults: random SIGKILLs, a misbehaving LLM endpoint, unwritable folders, branch clashes, parallel runs.

Each must leave nothing lost and a clear account: after `resume`, every finished
iteration is still in the run folder and the branch holds exactly the accepted
versions.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import openai
import pytest

from agent.loop import optimize, resume
from agent.policies.llm import LLMPolicy
from tests.agent.fake_openai import FakeOpenAI, Hangup, Reply, Stall, Status
from tests.agent.recorded_judge import RecordedJudge, start_run
from tests.agent.tuned_candidates import FROM_THE_TOP, TUNED_ROPE, committed_repo, cpu_config, kernel_reply
from tools.runfolder import RunFolder


def decided(folder: RunFolder) -> dict[int, dict]:
    return {e["iteration"]: e for e in folder.events() if e["event"] == "decide"}


def check_branch_matches_decisions(folder: RunFolder, run: dict) -> None:
    """The branch holds exactly the accepted versions, once each, in iteration order."""
    workspace = run["workspace"]
    repo = folder.workspace(run).repo  # run.json's worktree is relative to the run folder
    commits = list(reversed(list(repo.iter_commits(f"{workspace['base_commit']}..{workspace['branch']}"))))
    accepted = [c for c in commits if c.message.startswith("rope[torch]")]
    wanted = sorted(i for i, d in decided(folder).items() if d["accepted"] is not None)
    assert [int(c.message.split("iteration ")[1].split()[0]) for c in accepted] == wanted
    assert [c.hexsha for c in accepted] == run["commits"]


# Where each trial kills the run: right after the child has written an event (and a random moment more,
# up to the second number), or, for the first, a random moment after it started. One trial per phase of
# a one-iteration run that commits a version (FROM_THE_TOP: delay 8 -> 4), so every window is hit wherever
# this runs; random moments alone land mostly inside evaluations (most of a run's time). The judge runs live
# where the kill can land in an evaluation; past the last one, the recording answers at once.
KILL_POINTS = {
    "while starting": (None, 1.5, "live"),
    "after run_start": (("run_start", None), 0.3, "live"),
    "mid baseline": (("baseline_start", None), 2.0, "live"),
    "after baseline_end": (("baseline_end", None), 0.1, "live"),
    "mid evaluation": (("evaluate_start", 1), 2.0, "live"),
    "after decide": (("decide", 1), 0.1, "recorded"),
    "after commit": (("commit", 1), 0.05, "recorded"),
}


def wait_for_event(child: subprocess.Popen, events: Path, kind: str, iteration: int | None, timeout: float) -> bool:
    """Until the child has written event `kind` (of `iteration`); False if it ended or the time ran out first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and child.poll() is None:
        for line in events.read_text().splitlines() if events.exists() else []:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:  # the line being written
                continue
            if event["event"] == kind and (iteration is None or event.get("iteration") == iteration):
                return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_sigkill_loses_no_finished_iteration(tmp_path, point):
    target, spread, judge = KILL_POINTS[point]
    rng = random.Random(f"20261129-{point}")
    _, kernel = committed_repo(tmp_path, source=FROM_THE_TOP)
    runs = tmp_path / "runs"
    run_id = "killed"
    # Evaluations run for real where a kill lands in one; whether 8 -> 4 ms is accepted is the recording's say.
    child = start_run(cpu_config(kernel, iterations=1), runs, run_id, judge=judge)
    if target is not None:
        reached = wait_for_event(child, runs / run_id / "events.jsonl", *target, timeout=300)
        assert reached, f"the run ended or stalled before {target}"
    time.sleep(rng.uniform(0.0, spread))
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    folder = RunFolder(runs / run_id)
    if not (folder.path / "run.json").exists():
        assert target is None, f"killed {point}, yet no run.json"
        assert not (folder.path / "iterations" / "0001").exists()
        return
    before = decided(folder)
    files_before = {i: (folder.iteration_dir(i) / "eval.json").read_text() for i in before}
    run = resume(run_id, runs_dir=runs, judge=RecordedJudge())
    after = decided(folder)
    assert run["status"] == "finished", run
    assert set(after) == set(range(1, run["iterations"] + 1))
    for i, event in before.items():  # a finished iteration is kept as it was
        assert after[i]["decisions"] == event["decisions"]
        assert (folder.iteration_dir(i) / "eval.json").read_text() == files_before[i]
    check_branch_matches_decisions(folder, run)


def test_llm_endpoint_faults_are_retried_then_recorded_and_the_run_stops_with_the_reason(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    script = [
        # iteration 1: a connection cut mid-reply, then a stall past the timeout, then a good kernel
        Hangup(),
        Stall(3.0),
        kernel_reply(2, "halve the delay"),
        "Halving paid off.",
        # iteration 2: an empty reply, a truncated one, one with no code: the candidate fails, the run goes on
        "",
        Reply("Rationale: cut\n\n```python\nimport torch\n\ndef rope(x, sin,", finish_reason="length"),
        "I think the kernel is fine as it is.",
        "Nothing usable came back.",
        # iteration 3: the endpoint is down
        Status(500),
        Status(500),
        Status(500),
    ]
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=2, timeout=1.0)
        policy = LLMPolicy(model="fake-model", client=client, max_reasks=2)
        config = cpu_config(kernel, policy="llm", model="fake-model")
        run = optimize(config, runs_dir=tmp_path / "runs", policy=policy, judge=RecordedJudge())
        client.close()
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    decisions = decided(folder)
    assert decisions[1]["accepted"] == 0
    assert decisions[2]["accepted"] is None and "failed at static" in decisions[2]["decisions"][0]["reason"]
    assert 3 not in decisions
    assert "policy failed" in run["stop_reason"] and "500" in run["stop_reason"]
    failure = next(e for e in folder.events() if e["event"] == "propose_failed")
    assert failure["iteration"] == 3
    proposals = [e for e in folder.events() if e["event"] == "proposal"]
    assert proposals[1]["reasks"] == 2
    assert len(run["commits"]) == 1


def test_an_unwritable_runs_folder_is_a_clear_error_at_start(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the runs folder should be\n")
    with pytest.raises(OSError, match="cannot create the run folder"):
        optimize(cpu_config(kernel), runs_dir=blocker / "runs")


def test_a_clashing_branch_name_is_refused_and_leaves_no_half_run(tmp_path):
    repo, kernel = committed_repo(tmp_path)
    repo.create_head("agent/rope-torch-clash")
    with pytest.raises(ValueError, match="already exists"):
        optimize(cpu_config(kernel), runs_dir=tmp_path / "runs", run_id="clash")
    assert not (tmp_path / "runs" / "clash").exists()


def test_two_runs_on_the_same_op_at_once_do_not_interfere(tmp_path):
    repo, kernel = committed_repo(tmp_path)
    runs = tmp_path / "runs"
    logs = [tmp_path / f"parallel-{i}.log" for i in range(2)]
    # What two runs share is the repository and the runs folder; judges at once are tests/agent/test_workers.py's.
    children = [
        start_run(cpu_config(kernel, iterations=2), runs, f"parallel-{i}", judge="recorded", log=logs[i])
        for i in range(2)
    ]
    codes = [child.wait(timeout=300) for child in children]
    # Once in CI one of the two exited 1 with its output thrown away; now the failure says why.
    assert codes == [0, 0], "\n".join(f"{log.name}:\n{log.read_text()[-3000:]}" for log in logs)
    for i in range(2):
        folder = RunFolder(runs / f"parallel-{i}")
        run = json.loads((folder.path / "run.json").read_text())
        assert run["status"] == "finished"
        check_branch_matches_decisions(folder, run)
    assert kernel.read_text() == TUNED_ROPE and not repo.is_dirty(untracked_files=False)
