"""`agent optimize --e2e` on the CPU: a version that changes the model's greedy tokens is never committed."""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter
from pathlib import Path

import pytest

from agent.cli import build_parser, main
from agent.config import RunConfig
from agent.e2e_gate import REFERENCE_FILE
from agent.loop import optimize, resume
from agent.policies.source_edit import read_literal
from tests.agent.recorded_judge import RecordedJudge, e2e_config, start_run
from tests.agent.tuned_candidates import CHANGES_TOKENS_AT_TWO, TUNED_ROPE
from tests.tools.tiny_llama import write_tiny_checkpoint
from tools.evaluator.records import EvalRecord
from tools.runfolder import RunFolder
from ui.data import iteration_rows


def events_of(folder: RunFolder, kind: str, **match) -> list[dict]:
    return [e for e in folder.events() if e["event"] == kind and all(e.get(k) == v for k, v in match.items())]


def checked(run_dir: Path, iteration: int) -> bool:
    """Has the run written the e2e check of `iteration`? (The last line may be half written.)"""
    path = run_dir / "events.jsonl"
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if event["event"] == "e2e_end" and event["iteration"] == iteration:
            return True
    return False


def test_a_version_that_changes_the_tokens_is_not_committed_and_a_resume_redoes_no_check(tmp_path):
    checkpoint = write_tiny_checkpoint(tmp_path / "tiny-llama")
    kernel = tmp_path / "rope.py"
    kernel.write_text(CHANGES_TOKENS_AT_TWO)
    runs = tmp_path / "runs"
    # Walk: 8 -> 16 slower; 8 -> 4 faster, same tokens: committed; 4 -> 2 faster, other tokens: not committed.
    # The run is killed once the check of iteration 2 is written, and resumed.
    # The judge replays the real judge's records: which versions are faster does not hinge on this machine's load;
    # the e2e gate, the kill and the resume are real.
    child = start_run(e2e_config(kernel, checkpoint), runs, "e2e", judge="recorded")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and child.poll() is None and not checked(runs / "e2e", iteration=2):
        time.sleep(0.05)
    if child.poll() is None:
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    folder = RunFolder(runs / "e2e")
    assert events_of(folder, "e2e_end", iteration=2), "the run died before checking iteration 2"

    run = resume("e2e", runs_dir=runs, judge=RecordedJudge())
    assert run["status"] == "finished", run
    # No finished check was redone: the torch reference ran once, the start and iteration 2 once each
    # (iteration 3's may have been cut by the kill), and the slower iteration 1 never.
    assert len(events_of(folder, "e2e_reference_start")) == 1
    starts = Counter(e["iteration"] for e in events_of(folder, "e2e_start"))
    assert starts[0] == starts[2] == 1 and starts[3] >= 1 and 1 not in starts
    reference = json.loads((folder.path / REFERENCE_FILE).read_text())
    assert len(reference["run"]["generated_ids"]) == 6

    decisions = {e["iteration"]: e for e in events_of(folder, "decide")}
    assert decisions[1]["accepted"] is None and "e2e" not in decisions[1]["decisions"][0]["reason"]
    assert decisions[2]["accepted"] == 0
    assert decisions[3]["accepted"] is None
    reason = decisions[3]["decisions"][0]["reason"]
    assert reason.startswith("failed at e2e: ") and "greedy tokens differ from torch from position" in reason
    assert decisions[3]["decisions"][0]["geomean_speedup"] > 1  # faster: its speed stays on record for the policy

    # The files of the iterations: no check for a slower version, a passed one, a failed one.
    iteration = folder.iteration_dir
    assert not (iteration(1) / "e2e.json").exists()
    passed = json.loads((iteration(2) / "e2e.json").read_text())
    failed = json.loads((iteration(3) / "e2e.json").read_text())
    assert passed["ok"] and passed["generated_ids"] == reference["run"]["generated_ids"]
    assert not failed["ok"] and failed["first_mismatch"] is not None
    record = EvalRecord.model_validate_json((iteration(3) / "eval.json").read_text())
    assert record.status == "failed" and record.failed_stage == "e2e" and record.stage("e2e").status == "failed"
    assert EvalRecord.model_validate_json((iteration(2) / "eval.json").read_text()).stage("e2e").status == "ok"
    assert EvalRecord.model_validate_json((iteration(0) / "eval.json").read_text()).stage("e2e").status == "ok"
    assert "e2e" in (iteration(3) / "reflection.md").read_text()

    # The branch holds the start and the one good version; the review UI sees the failure at stage e2e.
    workspace = run["workspace"]
    repo = folder.workspace(run).repo  # run.json's worktree is relative to the run folder
    commits = list(reversed(list(repo.iter_commits(f"{workspace['base_commit']}..{workspace['branch']}"))))
    assert [c.hexsha for c in commits] == run["commits"] and len(commits) == 1
    assert read_literal(commits[0].tree[workspace["kernel_relpath"]].data_stream.read().decode(), "CONFIG") == {
        "delay_ms": 4
    }
    assert run["best"]["iteration"] == 2
    rows = {row.iteration: row for row in iteration_rows(folder.path)}
    assert rows[2].outcome == "accepted" and rows[2].commit == run["commits"][0]
    assert rows[3].outcome == "failed" and rows[3].failed_stage == "e2e" and rows[3].reason == reason


def test_a_starting_kernel_the_model_cannot_run_stops_the_run_at_once(tmp_path):
    kernel = tmp_path / "rope.py"
    kernel.write_text(TUNED_ROPE)
    config = e2e_config(kernel, tmp_path / "no-such-model", iterations=2)
    run = optimize(config, runs_dir=tmp_path / "runs", judge=RecordedJudge())
    assert run["stop_reason"].startswith("the e2e check cannot run: the torch reference run")
    assert "has no config.json" in run["stop_reason"]
    assert run["commits"] == [] and run["iterations"] == 0


def test_the_command_line_takes_the_e2e_options(tmp_path, capsys):
    args = build_parser().parse_args(
        ["optimize", "rope", "--backend", "tilelang", "--e2e", "--e2e-prompt-len", "16", "--e2e-new-tokens", "4"]
    )
    assert (args.e2e, args.e2e_model, args.e2e_prompt_len, args.e2e_new_tokens) == (True, None, 16, 4)
    assert main(["optimize", "rope", "--backend", "tilelang", "--e2e-new-tokens", "4"]) == 2
    assert "--e2e-new-tokens applies only with --e2e" in capsys.readouterr().err
    assert main(["optimize", "rope", "--backend", "tilelang", "--e2e", "--e2e-model", str(tmp_path)]) == 2
    assert "has no config.json" in capsys.readouterr().err


def test_a_run_config_takes_one_e2e_model():
    with pytest.raises(ValueError, match="not both"):
        RunConfig(op="rope", backend="torch", e2e=True, e2e_model="/models/llama", e2e_config={"vocab_size": 8})
