"""The loop with the llm policy, through the real `openai` client and a local OpenAI-speaking server: what the
prompts carry of earlier iterations, the tokens run.json counts, and runs whose policy raises.

Candidates that fail are judged live (failing does not hinge on timing); those that pass are replayed from the
real judge's records (tests/agent/recorded_judge.py).
"""

from __future__ import annotations

from pathlib import Path

import openai
import pytest

from agent.loop import optimize
from agent.policies.base import Proposal, Reflection
from agent.policies.llm import LLMPolicy
from tests.agent.fake_openai import FakeOpenAI, Reply
from tests.agent.recorded_judge import RecordedJudge
from tests.agent.tuned_candidates import TUNED_ROPE, cpu_config, kernel_reply
from tools.evaluator.records import EvalRecord, ShapeProfile
from tools.export import export
from tools.runfolder import RunFolder
from ui import data

# Raises at import: the judge's runner cannot load it, so it fails at compile.
BROKEN_IMPORT = kernel_reply(2, "precompute a table at import").replace(
    "\nimport torch\n", "\nimport torch\n\n_TABLE = torch.ones(3)[7]  # out of range on purpose\n"
)
REFLECTIONS = [
    "The file raised at import: index 7 is out of range for a table of 3.\nNext: drop the import-time table.",
    "Doubling the output broke every shape by a factor of two.\nNext: keep the output as computed, halve the delay.",
]


def _kernel(tmp_path: Path) -> Path:
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    return kernel


def _llm_run(tmp_path: Path, script: list, iterations: int, **config) -> tuple[dict, FakeOpenAI]:
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=10)
        try:
            policy = LLMPolicy(model="fake-model", client=client)
            run_config = cpu_config(
                _kernel(tmp_path), policy="llm", model="fake-model", iterations=iterations, **config
            )
            run = optimize(run_config, runs_dir=tmp_path / "runs", policy=policy, judge=RecordedJudge())
        finally:
            client.close()
    return run, server


def _user_prompt(request: dict) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "user")


def test_the_third_prompt_carries_the_reflections_diffs_and_failure_lines_of_the_first_two(tmp_path):
    script = [
        Reply(BROKEN_IMPORT, prompt_tokens=1000, completion_tokens=400),
        Reply(REFLECTIONS[0], prompt_tokens=700, completion_tokens=60),
        Reply(
            kernel_reply(1, "scale the output (wrong on purpose)", wrong=True),
            prompt_tokens=1500,
            completion_tokens=420,
        ),
        Reply(REFLECTIONS[1], prompt_tokens=800, completion_tokens=70),
        Reply(kernel_reply(2, "halve the delay"), prompt_tokens=2100, completion_tokens=410),
        Reply("Halving the delay paid off.\nNext: try 1 ms.", prompt_tokens=900, completion_tokens=30),
    ]
    run, server = _llm_run(tmp_path, list(script), iterations=3)
    assert len(server.requests) == len(script)
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    failed = {e["iteration"]: e for e in folder.events() if e["event"] == "evaluate_end"}
    assert failed[1]["status"] == "failed" and failed[1]["message"].startswith("compile:")
    assert failed[2]["status"] == "failed" and failed[2]["message"].startswith("correctness:")

    third = _user_prompt(server.requests[4])  # proposals are requests 0, 2, 4; reflections 1, 3, 5
    # The reflections: the latest whole, the earlier by its Next: line.
    assert REFLECTIONS[1].replace("\n", "\n  ") in third
    assert "- after 1: drop the import-time table." in third
    # The diffs against the best of their time (both against the start: neither was accepted).
    assert "+_TABLE = torch.ones(3)[7]  # out of range on purpose" in third
    assert "+    out.copy_(result * 2)" in third
    # The failure lines: the error the import raised, and the first wrong check with its shape, error, tolerance.
    assert "IndexError" in third
    assert "first wrong check: llama3.2-1b/decode1/q [1, 1, 32, 64] bf16" in third
    assert "max abs error" in third and "tolerance atol=1e-05, rtol=0.0078125" in third
    # Both earlier attempts in the table, in order.
    assert third.index("| 1 | failed |") < third.index("| 2 | failed |")

    # Saved with the iteration: each reflection's prompt, reply and model.
    for iteration in (1, 2, 3):
        assert (folder.reflection_prompt(iteration)).read_text().count("## user") == 1
    assert folder.reflection_response(1).read_text() == REFLECTIONS[0]
    assert [e.model for e in folder.reflections()] == ["fake-model"] * 3
    # Tokens: run.json's totals are the server's usage summed, and per iteration too.
    tokens = folder.info().tokens
    assert tokens.prompt_tokens == sum(r.prompt_tokens for r in script)
    assert tokens.completion_tokens == sum(r.completion_tokens for r in script)
    assert tokens.calls == len(script)
    assert tokens.per_iteration["2"].prompt_tokens == 1500 + 800
    assert tokens.cost is None  # no prices given


def test_prices_give_a_cost(tmp_path):
    script = [
        Reply(kernel_reply(2, "halve the delay"), prompt_tokens=2_000_000, completion_tokens=100_000),
        Reply("Next: 1 ms.", prompt_tokens=500_000, completion_tokens=20_000),
    ]
    run, _ = _llm_run(tmp_path, script, iterations=1, price_in=3.0, price_out=15.0)
    assert run["tokens"]["cost"] == pytest.approx(2.5 * 3.0 + 0.12 * 15.0)
    assert run["tokens"]["per_iteration"]["1"]["cost"] == pytest.approx(run["tokens"]["cost"])
    # The UI and the export show them, and the reflection with its model and prompt.
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    rows = data.iteration_rows(folder.path)
    assert [r.tokens for r in rows] == [None, 2_620_000]
    assert data.iteration_table(rows)[1]["tokens"] == 2_620_000
    assert "cost 9.3000 at 3 / 15 per million" in data.tokens_text(folder.info())
    detail = data.iteration_detail(folder.path, 1)
    assert detail.reflection_model == "fake-model" and "## user" in detail.reflection_prompt
    assert detail.reflection_response == "Next: 1 ms."
    prompts_md, reflection_md = export(folder)
    text = prompts_md.read_text()
    assert "- Tokens: 2,000,000 prompt + 100,000 completion tokens" in text
    assert "- Reflection: by fake-model (500,000 prompt + 20,000 completion tokens; see iterations/0001/" in text
    assert "cost 9.3000" in text and "cost 9.3000" in reflection_md.read_text()


def test_a_prompt_keeps_within_its_history_budget_and_says_what_it_cut(tmp_path):
    script = []
    for delay in (8, 8, 8):  # each slower than the start: rejected, with a diff and a reflection
        script += [kernel_reply(delay, f"delay {delay} again " + "padding " * 40), "x " * 400 + "\nNext: go lower."]
    script += [kernel_reply(2, "halve the delay"), "Next: 1 ms."]
    _, server = _llm_run(tmp_path, script, iterations=4, history_tokens=300)
    last = _user_prompt(server.requests[6])
    history = last[last.index("### Earlier attempts") : last.index("### Backend guide")]
    assert len(history) <= 4 * 300 + 1200  # the budget, and the section's fixed words
    assert "Left out to keep this prompt within its budget" in history


class RaisingPolicy:
    """Proposes the delay-2 kernel (accepted in the recording); raises `error` where told to."""

    name = "raising"

    def __init__(self, error: Exception, on: str):
        self.error, self.on = error, on

    def propose(self, context):
        if self.on == "propose":
            raise self.error
        source = kernel_reply(2, "halve the delay").split("```python\n")[1].split("```")[0]
        return [Proposal(source=source, rationale="halve the delay")]

    def reflect(self, context):
        if self.on == "reflect":
            raise self.error
        return Reflection(text="fine")


@pytest.mark.parametrize("error", [ValueError("no CONFIG literal"), KeyError("block_rows"), RuntimeError("HTTP 500")])
def test_a_policy_that_raises_ends_the_run_as_failed_with_the_reason(tmp_path, error):
    policy = RaisingPolicy(error, on="propose")
    run = optimize(cpu_config(_kernel(tmp_path)), runs_dir=tmp_path / "runs", policy=policy, judge=RecordedJudge())
    assert run["status"] == "failed"
    assert type(error).__name__ in run["stop_reason"] and str(error.args[0]) in run["stop_reason"]
    saved = RunFolder(tmp_path / "runs" / run["run_id"]).info()
    assert (saved.status, saved.stop_reason) == ("failed", run["stop_reason"])


def test_a_reflection_that_raises_still_records_its_row_and_fails_the_run(tmp_path):
    rows = []
    policy = RaisingPolicy(KeyError("next"), on="reflect")
    run = optimize(
        cpu_config(_kernel(tmp_path)),
        runs_dir=tmp_path / "runs",
        policy=policy,
        judge=RecordedJudge(),
        on_iteration=rows.append,
    )
    assert [(r["iteration"], r["outcome"]) for r in rows] == [(0, "baseline"), (1, "accepted")]
    assert run["status"] == "failed" and "KeyError" in run["stop_reason"]
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    assert "(no reflection: KeyError" in folder.reflection(1).read_text()
    assert len(run["commits"]) == 1  # what was accepted before the failure stays committed


def test_an_exception_outside_the_policy_leaves_run_json_failed_too(tmp_path):
    def judge(op, backend, candidate, options, *, incumbent=None) -> EvalRecord:
        if incumbent is not None:
            raise OSError("the disk is full")
        return RecordedJudge()(op, backend, candidate, options, incumbent=incumbent)

    policy = RaisingPolicy(ValueError("unused"), on="nothing")
    with pytest.raises(OSError, match="the disk is full"):
        optimize(cpu_config(_kernel(tmp_path)), runs_dir=tmp_path / "runs", policy=policy, judge=judge)
    [folder] = [RunFolder(p) for p in (tmp_path / "runs").iterdir()]
    assert folder.info().status == "failed" and "the disk is full" in folder.info().stop_reason


def test_each_new_best_is_profiled_on_its_largest_shape_and_the_next_prompt_carries_it(tmp_path):
    asked, judged = [], []

    def judge(op, backend, candidate, options, *, incumbent=None) -> EvalRecord:
        if not options.profile:
            judged.append(RecordedJudge()(op, backend, candidate, options, incumbent=incumbent))
            return judged[-1]
        asked.append(options.shapes)  # the profiler's counters, as ncu would give them for the last best
        row = ShapeProfile(shape=options.shapes[0], dtype="bf16", kernel="rope_kernel", dram_throughput_pct=41.0)
        return judged[-1].model_copy(update={"profile": [row]})

    script = [kernel_reply(2, "halve the delay"), "Next: 1 ms.", kernel_reply(1, "1 ms"), "Next: 0 ms."]
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=10)
        config = cpu_config(_kernel(tmp_path), policy="llm", model="fake-model", iterations=2, profile_best=True)
        run = optimize(config, tmp_path / "runs", policy=LLMPolicy(model="fake-model", client=client), judge=judge)
        client.close()
    assert asked == [["llama3.2-1b/decode1/q"]] * 3  # the start, then each accepted version
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    assert "DRAM 41%" in folder.profile(1).read_text()
    second = _user_prompt(server.requests[2])
    assert "### Profile of the current best\n\nllama3.2-1b/decode1/q bf16 rope_kernel" in second
