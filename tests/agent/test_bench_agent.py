"""`agent bench-agent` on the CPU: the loop from each starting file, one row per case in agent.json and agent.md.

The cases start from torch-backend files whose decisions are the recorded judge's (tests/agent/recorded_judge.py),
so what the rows say does not hinge on the CPU's timing; the command line itself runs the real judge once, with
assertions that hold whatever it decides.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from agent.commands.bench_agent import bench_agent
from tests.agent.fake_openai import FakeOpenAI
from tests.agent.recorded_judge import RecordedJudge
from tests.agent.test_cli import agent
from tests.agent.tuned_candidates import TUNED_ROPE, kernel_reply
from tools.agent_bench import AgentBench, AgentBenchOptions
from tools.evaluator.options import EvalOptions
from tools.runfolder import RunFolder

SHAPES = ["llama3.2-1b/decode1*"]  # matches shapes of every op: rope's decode1/q and /k, rms_norm's decode1


def _starts(tmp_path: Path, files: dict[str, str]) -> Path:
    """A folder of starting files, `<op>/torch.py` each."""
    starts = tmp_path / "starts"
    for op, source in files.items():
        (starts / op).mkdir(parents=True)
        (starts / op / "torch.py").write_text(source)
    return starts


def _options(tmp_path: Path, starts: Path, **overrides) -> AgentBenchOptions:
    values = dict(
        evaluation=EvalOptions(
            shapes=SHAPES, baselines=("eager",), device="cpu", timeout_s=120, compile_timeout_s=90.0
        ),
        iterations=2,
        minutes=None,
        shipped_baselines=["eager"],
        starts_dir=starts,
        out_dir=tmp_path / "results",
    )
    return AgentBenchOptions(**{**values, **overrides})


def _decides(runs: Path, run_id: str) -> list[dict]:
    return [e for e in RunFolder(runs / run_id).events() if e["event"] == "decide"]


def test_a_search_case_and_a_failing_case_each_write_their_row(tmp_path):
    # rope: the recorded walk from delay 4 (8 rejected, 2 accepted); rms_norm: a start that does not parse.
    starts = _starts(tmp_path, {"rope": TUNED_ROPE, "rms_norm": "def rms_norm(:\n"})
    runs, lines = tmp_path / "runs", []
    bench, path = bench_agent(
        [("rope", "torch"), ("rms_norm", "torch")],
        _options(tmp_path, starts),
        runs,
        say=lines.append,
        judge=RecordedJudge(),
    )

    assert path.name == "agent.json" and path.parent.parent == tmp_path / "results"
    again = AgentBench.load(path)
    assert again == bench
    rope, norm = again.cases
    # The iteration budget is honoured: two rounds decided, and the row says so.
    assert rope.status == "finished" and rope.iterations == 2
    assert len(_decides(runs, rope.run_id)) == 2
    assert [p.iteration for p in rope.points] == [0, 1, 2]
    assert [p.outcomes for p in rope.points[1:]] == [["rejected"], ["accepted"]]
    assert len(rope.commits) == 1 and rope.best_iteration == 2
    assert rope.policy == "search" and rope.tokens is None and rope.shapes == SHAPES and rope.budget_iterations == 2
    assert rope.start.correct and rope.best.correct and rope.shipped is None  # the torch backend ships no kernel
    # On the CPU the judge times no copy: no fraction, so nothing to reach.
    assert rope.start.fraction is None and rope.reached_iteration is None
    assert "torch" in rope.best.speedup  # the best version's geomean over torch eager, from its record
    # The failing start still has its row, with why.
    assert norm.status == "failed" and norm.iterations == 0 and norm.commits == []
    assert "starting kernel fails" in norm.message and "static" in norm.message
    # Progress: a line per iteration with its elapsed time, and a line per case.
    assert sum(" s  rope[torch] iteration " in line for line in lines) == 3
    assert any(line.startswith("  rms_norm[torch] failed") for line in lines)

    markdown = path.with_suffix(".md").read_text()
    for title in ("| op | backend | policy | status | start | best | shipped | to 0.9: iter", "## fast_p"):
        assert title in markdown
    assert "| rope | torch | search | finished |" in markdown and "| rms_norm | torch | search | failed |" in markdown
    assert "0 of 0 cases reached 0.9" in markdown


def test_a_rerun_replaces_its_case_and_keeps_the_others(tmp_path):
    starts = _starts(tmp_path, {"rope": TUNED_ROPE, "rms_norm": "def rms_norm(:\n"})
    options = _options(tmp_path, starts, iterations=1)
    bench_agent([("rms_norm", "torch")], options, tmp_path / "runs", say=lambda _: None, judge=RecordedJudge())
    bench, path = bench_agent(
        [("rope", "torch")], options, tmp_path / "runs", say=lambda _: None, judge=RecordedJudge()
    )
    assert [c.op for c in bench.cases] == ["rms_norm", "rope"]
    bench, _ = bench_agent([("rope", "torch")], options, tmp_path / "runs", say=lambda _: None, judge=RecordedJudge())
    assert [c.op for c in AgentBench.load(path).cases] == ["rms_norm", "rope"]


def test_cases_past_the_total_budget_get_a_skipped_row(tmp_path):
    starts = _starts(tmp_path, {"rope": TUNED_ROPE})
    options = _options(tmp_path, starts, total_minutes=1e-9)  # spent before the first case starts
    bench, _ = bench_agent([("rope", "torch")], options, tmp_path / "runs", say=lambda _: None, judge=RecordedJudge())
    (case,) = bench.cases
    assert case.status == "skipped" and case.run_id is None and "--total-minutes" in case.message
    assert not (tmp_path / "runs").exists()


def test_the_llm_policy_through_an_openai_speaking_server_counts_its_tokens(tmp_path, monkeypatch):
    # The recorded llm run's replies: delay 2 (accepted), then a kernel wrong at head_dim 80 and 96 (fails).
    script = [
        kernel_reply(2, "halve the delay"),
        "Halving the delay paid off; try going lower.",
        kernel_reply(1, "special-case odd head sizes (wrong on purpose)").replace(
            "    out.copy_(result)\n", "    out.copy_(result * 2 if x.shape[-1] in (80, 96) else result)\n"
        ),
        "The special case broke head_dim 80 and 96; revert that.",
    ]
    starts = _starts(tmp_path, {"rope": TUNED_ROPE})
    with FakeOpenAI(script) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        options = _options(tmp_path, starts, policy="llm", model="fake-model")
        bench, path = bench_agent(
            [("rope", "torch")], options, tmp_path / "runs", say=lambda _: None, judge=RecordedJudge()
        )
    (case,) = bench.cases
    assert case.policy == "llm" and case.model == "fake-model" and case.iterations == 2
    assert server.requests, "the policy never asked the server"
    # Each reply of the fake server reports 100 prompt and 50 completion tokens.
    assert case.tokens is not None and case.tokens.prompt == 100 * len(server.requests)
    assert case.tokens.completion == 50 * len(server.requests)
    assert f"| {case.tokens.total} |" in path.with_suffix(".md").read_text()


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks what happens without a GPU")
def test_the_command_refuses_the_cpu_unless_asked():
    done = agent("bench-agent", "rope")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("agent: error: agent bench-agent needs a GPU") and len(done.stderr.splitlines()) == 1


def test_the_command_line_writes_the_row_of_a_case_whose_start_fails(tmp_path):
    # The real judge refuses the start at its first stage (the lint), so nothing here is timed.
    starts = _starts(tmp_path, {"rope": "def rope(:\n"})
    out, runs = tmp_path / "results", tmp_path / "runs"
    done = agent(
        "bench-agent", "rope", "--backends", "torch", "--device", "cpu", "--shapes", "llama3.2-1b/decode1/q",
        "--iterations", "1", "--starts", str(starts), "--out", str(out), "--runs-dir", str(runs),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = out.glob("*/agent.json")
    (row,) = json.loads(path.read_text())["cases"]
    assert row["op"] == "rope" and row["backend"] == "torch" and row["status"] == "failed"
    assert row["iterations"] == 0 and "static" in row["message"]
    assert (runs / row["run_id"] / "run.json").is_file()
    assert "case 1/1: rope[torch]" in done.stdout and "rope[torch] failed" in done.stdout
    assert f"wrote {path}" in done.stdout.replace("\n", "") and "cases reached 0.9" in done.stdout
