"""Export, listing and adopting runs, from the run folder alone."""

from __future__ import annotations

import pytest
import torch

from agent.export import export
from agent.loop import optimize
from agent.runfolder import RunFolder
from tests.agent.test_cli import agent
from tests.agent.tuned_candidates import TUNED_ROPE, cpu_config


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
    assert done.returncode == 2 and "needs a GPU" in done.stdout
