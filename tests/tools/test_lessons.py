"""What a search step taught: one sentence from its change and decision, or nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

from agent.policies.base import ReflectionContext
from agent.policies.search import SearchPolicy
from tools.export import BEATEN, reflection_markdown
from tools.lessons import change_of, lesson, lesson_of_step
from tools.runfolder import RunFolder

ROOT = Path(__file__).resolve().parents[2]
MACA_RUN = ROOT / "examples" / "runs" / "20261202-052242-rms_norm-maca_cpp-9210"  # 10 steps, 1 accepted
STEP = "threads 256 -> 512: neighbour of the best configuration along threads"
SLOWER = "2 shape-scope(s) slower than the best beyond noise (worst llama3-8b/prefill16384 (graph): 0.605x)"


def test_the_change_is_the_rationale_before_its_why():
    assert change_of(STEP) == "threads 256 -> 512"
    assert change_of("a free-text rationale") == "a free-text rationale"


def test_each_rule_gives_its_sentence():
    assert lesson(STEP, "faster beyond noise", "geomean 1.142x over the best") == (
        "threads 256 -> 512 is faster: geomean 1.142x over the best; it is the new best."
    )
    slower = lesson(STEP, "a shape slower beyond noise", SLOWER)
    assert slower == f"threads 256 -> 512 is slower on some shape: {SLOWER}."
    assert "no difference beyond the noise" in lesson(STEP, "within noise", "geomean 1.01x is within the noise")
    assert "another candidate of its round was faster" in lesson(STEP, BEATEN, "geomean 1.1x over the best")
    failed = lesson(STEP, "did not compile", "failed at compile: error: no layout\nmore lines")
    assert failed == "threads 256 -> 512: did not compile: failed at compile: error: no layout."


def test_a_decision_no_rule_reads_says_nothing():
    assert lesson(STEP, "other", "a reason no rule has") is None
    assert lesson(STEP, "not decided", "") is None


def test_the_search_reflects_without_a_plan_or_a_count():
    def reflect(outcome: str, message: str) -> str:
        context = ReflectionContext("rope", "tilelang", 3, STEP, outcome, message, "geomean 0.8x vs the best")
        return SearchPolicy("rope", "tilelang").reflect(context).text

    assert reflect("rejected", SLOWER) == f"Iteration 3: threads 256 -> 512 is slower on some shape: {SLOWER}."
    assert reflect("rejected", "a reason no rule has") == ""
    beaten = lesson_of_step(STEP, "rejected", "geomean 1.2x over the best; another candidate of this round was faster")
    assert "another candidate of its round was faster" in beaten


def test_reflection_md_of_a_search_run_without_reflections_has_one_distinct_line_per_step(tmp_path):
    # A run that wrote its reflections is exported with them, as written; one that wrote none gets the lessons.
    run = shutil.copytree(MACA_RUN, tmp_path / MACA_RUN.name)
    for written in run.glob("iterations/*/reflection.md"):
        written.unlink()
    text = reflection_markdown(RunFolder(run))
    section = text[text.index("## Reflections") : text.index("## Measured results")]
    steps = [line for line in section.splitlines() if line.startswith("- Iteration ")]
    assert len(steps) == 10 and len(set(steps)) == 10
    assert "Next:" not in section and "So far" not in section
    assert "- Iteration 3: vec 8 -> 4 is faster: geomean 1.142x over the best" in section
