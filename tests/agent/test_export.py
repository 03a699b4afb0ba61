"""Export, listing and adopting runs, from the run folder alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from agent.export import export, prompts_markdown, reflection_markdown
from agent.loop import optimize
from agent.runfolder import RunFolder
from tests.agent.test_cli import agent
from tests.agent.tuned_candidates import TUNED_ROPE, cpu_config
from tests.ui import judged

# A committed run from before the judge: its records and run.json carry the legacy scope only.
LEGACY_RUN = Path(__file__).resolve().parents[2] / "examples" / "runs" / "20261129-131457-rope-tilelang-5df4"


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("export")
    kernel = base / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    config = cpu_config(kernel)
    run = optimize(config, runs_dir=base / "runs")
    return base, run


def test_prompts_md_has_one_section_per_round_with_the_facts(finished_run):
    base, run = finished_run
    folder = RunFolder(base / "runs" / run["run_id"])
    prompts, _ = export(folder)
    text = prompts.read_text()
    rounds = [e for e in folder.events() if e["event"] == "proposal"]
    assert text.count("## Iteration ") == len(rounds) == run["iterations"]
    for field in (
        "- Date:",
        "- Model: search policy (no LLM)",
        "- What changed: delay_ms",
        "- Test command: `agent eval rope",
        "- Result:",
        "- Adopted: yes, commit",
        "- Adopted: no",
    ):
        assert field in text, field


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
    assert "- Runners confined as `" in text


def test_results_of_a_cpu_run_name_the_eager_scope(finished_run):
    base, run = finished_run
    text = prompts_markdown(RunFolder(base / "runs" / run["run_id"]))
    results = [line for line in text.splitlines() if line.startswith("- Result:")]
    assert results and all(line.startswith("- Result: eager scope: ") for line in results)
    assert "x over the best" in results[0]


@pytest.fixture(scope="module")
def two_scopes(tmp_path_factory) -> RunFolder:
    return RunFolder(judged.write_run(tmp_path_factory.mktemp("judged")))


def test_prompts_md_names_the_decision_scope_of_each_result(two_scopes):
    results = [line for line in prompts_markdown(two_scopes).splitlines() if line.startswith("- Result:")]
    assert len(results) == 2
    assert results[0].startswith("- Result: graph scope: 1.25x over the best, median shape ")
    assert "% of copy)" in results[0] and results[0].endswith("4/4 correctness checks passed")
    # Graph capture failed on one shape of iteration 2: it was judged in the eager scope, and says so.
    assert results[1].startswith("- Result: eager scope: 0.95x over the best")


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
    assert "- Runners confined as `root`: uid separation yes, network isolated" in text


def test_a_legacy_run_exports_as_legacy():
    folder = RunFolder(LEGACY_RUN)
    prompts = prompts_markdown(folder)
    assert "- Result: legacy (pre-judge, untrusted) scope: 1.27x over the best" in prompts
    text = reflection_markdown(folder)
    assert "Median shape, legacy (pre-judge, untrusted) scope: 0.11 TB/s at the start, 0.17 TB/s best" in text
    header = next(line for line in text.splitlines() if line.startswith("| shape |"))
    assert "start legacy µs/call" in header and "best GB/s (legacy)" in header and "graph" not in header
    assert "| llama3.2-1b/prefill512/q | 11.71 | 8.93 | 369 | 484 | 56% | 73% | 1.31x (legacy) |" in text
    assert "untrusted" in text[text.index("## Measured results") :]
    assert "- Runners: no confinement recorded (a record from before the judge)" in text


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


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks what happens without a GPU")
def test_optimize_without_a_gpu_says_so_and_fails():
    done = agent("optimize", "rope", "--backend", "tilelang")
    assert done.returncode == 2 and "needs a GPU" in done.stderr
