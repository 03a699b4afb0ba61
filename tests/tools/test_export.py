"""Export, listing and adopting runs, from the run folder alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.agent.recorded_judge import RecordedJudge, from_the_top_run
from tests.agent.test_cli import agent
from tests.agent.tuned_candidates import TUNED_ROPE
from tests.ui import judged
from tools.evaluator.decide import Decision, Rule, decide
from tools.export import export, prompts_markdown, reflection_markdown
from tools.runfolder import RunFolder

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "runs"
WIDE_RUN = EXAMPLES / "20261202-052242-rms_norm-maca_cpp-9210"  # 10 iterations, 9 not adopted
TWO_RULES_RUN = EXAMPLES / "20261202-144532-rope_qk-tilelang-3eda"  # 3 iterations, none adopted


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A search run from the top of its space that accepted versions (2 of 3), decided by the judge's recorded
    records (tests/agent/recorded_judge.py): what it decides does not hinge on the CPU's timing."""
    base = tmp_path_factory.mktemp("export")
    run = from_the_top_run(base, base / "runs", RecordedJudge())
    return base, run


def iteration_log(text: str) -> list[dict[str, str]]:
    """The rows of prompts.md's iteration log (a run where no LLM was asked), by column title."""
    lines = text[text.index("## Iteration log") :].splitlines()
    table = [line for line in lines if line.startswith("| ")]
    titles = [t.strip() for t in table[0].strip("|").split(" | ")]
    return [dict(zip(titles, (c.strip() for c in row.strip("|").split(" | ")), strict=True)) for row in table[1:]]


def test_prompts_md_of_a_search_run_says_no_llm_was_asked_and_logs_each_iteration(finished_run):
    base, run = finished_run
    folder = RunFolder(base / "runs" / run["run_id"])
    prompts, _ = export(folder)
    text = prompts.read_text()
    head = text[: text.index("## Iteration log")]
    assert "No LLM was asked in this run: the search policy chose every edit" in head
    # No empty prompt blocks: one row per proposal instead, what it tried and what became of it.
    assert "- Asked:" not in text and "- Model:" not in text and "## Iteration 1" not in text
    rounds = [e for e in folder.events() if e["event"] == "proposal"]
    rows = iteration_log(text)
    assert [r["iteration"] for r in rows] == [str(e["iteration"]) for e in rounds] and len(rows) == run["iterations"]
    assert [r["what it tried"] for r in rows] == [e["rationale"] for e in rounds]
    assert all(r["diff"].endswith(" lines") and r["date"] for r in rows)
    decided = {e["iteration"]: e for e in folder.events() if e["event"] == "decide"}
    for row, event in zip(rows, rounds, strict=True):
        decision = decided[event["iteration"]]
        assert row["decision"] == decision["decisions"][0]["reason"]
        if decision["accepted"] == 0:
            assert row["outcome"].startswith("adopted, commit ")
        else:  # a slower neighbour: rejected, with the rule that rejected it
            assert row["outcome"] in ("rejected: a shape slower beyond noise", "rejected: within noise")
    assert "`agent eval rope --backend torch --candidate " in text


def test_reflection_md_covers_environment_method_results_and_checklist(finished_run):
    base, run = finished_run
    _, reflection = export(RunFolder(base / "runs" / run["run_id"]), base / "out")
    text = reflection.read_text()
    for heading in (
        "## Operator and environment",
        "## How the agent worked",
        "## What helped",
        "## What misled it",
        "## Reflections",
        "## Measured results",
        "## Review checklist",
    ):
        assert heading in text
    assert "| llama3.2-1b/decode1/q |" in text
    assert f"{len(run['commits'])} commit(s)" in text
    # A CPU run: judged in the eager scope; the table still has both scopes' columns (graph empty).
    assert "Median shape, eager scope:" in text
    header = next(line for line in text.splitlines() if line.startswith("| shape |"))
    for title in ("start eager µs/call", "best eager µs/call", "start graph µs/call", "best GB/s (eager)"):
        assert title in header, title
    # The recorded records are from before the sandbox: their confinement as the exports of the time gave it.
    assert "- Runners confined as `root`: uid separation no, network isolated" in text


def test_results_of_a_cpu_run_name_the_eager_scope(finished_run):
    base, run = finished_run
    results = [r["result"] for r in iteration_log(prompts_markdown(RunFolder(base / "runs" / run["run_id"])))]
    assert results and all(result.startswith("eager scope: ") for result in results)
    assert "x over the best" in results[0]


@pytest.fixture(scope="module")
def two_scopes(tmp_path_factory) -> RunFolder:
    return RunFolder(judged.write_run(tmp_path_factory.mktemp("judged")))


def test_prompts_md_names_the_decision_scope_of_each_result(two_scopes):
    results = [r["result"] for r in iteration_log(prompts_markdown(two_scopes))]
    assert len(results) == 2
    assert results[0].startswith("graph scope: 1.25x over the best, median shape ")
    assert "% of copy)" in results[0] and results[0].endswith("4/4 correctness checks passed")
    # Graph capture failed on one shape of iteration 2: it was judged in the eager scope, and says so.
    assert results[1].startswith("eager scope: 0.95x over the best")


def test_reflection_md_has_both_scopes_in_the_measured_results(two_scopes):
    text = reflection_markdown(two_scopes)
    results = text[text.index("## Measured results") : text.index("## Review checklist")]
    assert "Median shape, graph scope: " in results and "(iteration 1)" in results
    lines = results.splitlines()
    header = next(line for line in lines if line.startswith("| shape |"))
    titles = [t.strip() for t in header.strip("|").split("|")]
    assert titles == [
        "shape",
        "start eager µs/call",
        "best eager µs/call",
        "start graph µs/call",
        "best graph µs/call",
        "start GB/s (graph)",
        "best GB/s (graph)",
        "start % of copy (graph)",
        "best % of copy (graph)",
        "best vs start",
    ]
    decode = next(line for line in lines if line.startswith(f"| {judged.DECODE} |"))
    cells = [c.strip() for c in decode.strip("|").split("|")]
    assert cells[1:5] == ["12.00", "10.00", "4.00", "3.00"]
    assert cells[7:] == ["50%", "67%", "1.33x (graph)"]
    # A record from before the sandbox: its fields as the exports of the time gave them (the committed examples').
    assert "- Runners confined as `root`: uid separation yes, network isolated, environment allow-list" in text


def test_cli_lists_exports_and_adopts(finished_run):
    base, run = finished_run
    runs = str(base / "runs")
    listing = agent("runs", "--runs-dir", runs)
    assert run["run_id"] in listing.stdout and "finished" in listing.stdout
    exported = agent("export", run["run_id"], "--runs-dir", runs, "--out", str(base / "cli-out"))
    assert exported.returncode == 0 and (base / "cli-out" / "prompts.md").exists()

    kernel = base / "tuned.py"
    kernel.write_text(TUNED_ROPE.replace("4}", "4}  # edited after the run started"))
    refused = agent("adopt", run["run_id"], "--runs-dir", runs)
    assert refused.returncode == 2 and "changed since the run started" in refused.stderr
    adopted = agent("adopt", run["run_id"], "--runs-dir", runs, "--force")
    assert adopted.returncode == 0, adopted.stderr
    best = RunFolder(base / "runs" / run["run_id"]).path / "repo" / "kernel.py"  # the run's own repository
    assert kernel.read_text() == best.read_text()


EXAMPLE_RUNS = sorted(p.name for p in EXAMPLES.iterdir() if (p / "run.json").exists())


@pytest.mark.parametrize("run", EXAMPLE_RUNS)
def test_exporting_a_committed_example_gives_its_committed_files(run, tmp_path):
    prompts, reflection = export(RunFolder(EXAMPLES / run), tmp_path)
    assert prompts.read_bytes() == (EXAMPLES / run / "prompts.md").read_bytes()
    assert reflection.read_bytes() == (EXAMPLES / run / "reflection.md").read_bytes()


def test_export_of_an_example_writes_next_to_the_users_runs_not_into_the_examples(tmp_path):
    from tests.agent.test_cli import MACA, clone_with, in_clone

    clone = clone_with(MACA, tmp_path)
    example = clone / "examples" / "runs" / MACA
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    done = in_clone(clone, "export", MACA, "--runs-dir", "examples/runs")
    assert done.returncode == 0, done.stderr
    written = clone / "runs" / "exports" / MACA
    assert done.stdout == f"wrote {written / 'prompts.md'} and {written / 'reflection.md'}\n"
    assert (written / "reflection.md").read_bytes() == (example / "reflection.md").read_bytes()
    assert {p: p.read_bytes() for p in example.rglob("*") if p.is_file()} == before


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks what happens without a GPU")
def test_optimize_without_a_gpu_says_so_and_fails():
    done = agent("optimize", "rope", "--backend", "tilelang")
    assert done.returncode == 2 and "needs a GPU" in done.stderr


def _failed(stage: str, message: str, shape_status: str = "ok"):
    record = judged.record(0, None)
    record.status, record.failed_stage, record.message = "failed", stage, message
    record.benchmark[0].status = shape_status  # as the benchmark stage words it: "<shape>: <status> (<note>)"
    return record


@pytest.mark.parametrize(
    ("record", "against_best", "rule"),
    [
        (judged.record(1, 0), True, "faster beyond noise"),
        (judged.record(0, None), False, "first correct version"),
        (judged.record(0, 0), True, "within noise"),  # the best against itself
        (judged.record(2, 1), True, "a shape slower beyond noise"),  # 10 -> 11 us on the decode shape
        (judged.record(0, None), True, "not timed against the best"),
        (_failed("correctness", "2/4 correctness checks failed"), True, "incorrect"),
        (_failed("compile", "compile: tvm.error.InternalError"), True, "did not compile"),
        (_failed("static", "imports os"), True, "refused by the lint"),
        (_failed("e2e", "tokens differ at step 3"), True, "changed the model's tokens (e2e)"),
        # The judge's roofline check: its benchmark stage message (tools/evaluator/benchmark.py).
        (
            _failed(
                "benchmark",
                "llama3.2-1b/decode1/q bf16: measurement_error (graph: 9000 GB/s is above the device's copy "
                "bandwidth (4100 GB/s))",
                "measurement_error",
            ),
            True,
            "roofline check",
        ),
        (
            _failed("benchmark", "x bf16: wrong_after_timing (outputs changed)", "wrong_after_timing"),
            True,
            "incorrect while timed",
        ),
    ],
)
def test_the_rule_a_decision_names_reads_back_the_same(record, against_best, rule):
    decision = decide(record, against_best=against_best)
    recorded = Decision.model_validate(decision.model_dump(mode="json"))  # as the decide event keeps it
    assert recorded == decision and recorded.label == rule
    # As an older judge recorded the same decision, its sentence alone: its words name the same rule.
    older = Decision.model_validate({"accepted": decision.accepted, "reason": decision.reason})
    assert older.label == rule and older.reason == decision.reason


def test_a_candidate_that_passed_in_a_round_that_kept_another_is_beaten():
    faster = decide(judged.record(1, 0), against_best=True)
    beaten = faster.beaten()
    assert (beaten.rule, beaten.accepted, beaten.geomean_speedup) == (Rule.BEATEN, False, faster.geomean_speedup)
    assert beaten.reason == faster.reason + "; " + beaten.label
    assert Decision.model_validate(beaten.model_dump(mode="json")) == beaten


def test_reflection_md_groups_what_was_not_adopted_by_rule():
    text = reflection_markdown(RunFolder(WIDE_RUN))
    misled = text[text.index("## What misled it") : text.index("## Reflections")]
    assert "Not adopted: 9 of 10 proposals, by the rule that turned them down:" in misled
    items = [line for line in misled.splitlines() if line.startswith("- ")]
    assert items == ["- a shape slower beyond noise: 9 rejected (iterations 1, 2, 4, 5, 6, 7, 8, 9, 10)"]
    # The most common rule first.
    two = reflection_markdown(RunFolder(TWO_RULES_RUN))
    assert two.index("- within noise: 2 rejected (iterations 1, 2)") < two.index(
        "- a shape slower beyond noise: 1 rejected (iteration 3)"
    )


@pytest.mark.parametrize("run", EXAMPLE_RUNS)
def test_exports_give_bandwidth_in_gb_per_s_only(run):
    folder = RunFolder(EXAMPLES / run)
    for text in (prompts_markdown(folder), reflection_markdown(folder)):
        assert "TB/s" not in text and "GB/s" in text
