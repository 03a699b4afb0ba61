"""What a search step taught: one sentence from its change and decision, or nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

from agent.policies.base import ReflectionContext
from agent.policies.search import SearchPolicy
from tools.evaluator.decide import Decision, Rule
from tools.export import reflection_markdown
from tools.lessons import change_of, lesson
from tools.runfolder import RunFolder

ROOT = Path(__file__).resolve().parents[2]
MACA_RUN = ROOT / "examples" / "runs" / "20261202-052242-rms_norm-maca_cpp-9210"  # 10 steps, 1 accepted
STEP = "threads 256 -> 512: neighbour of the best configuration along threads"
SLOWER = "2 shape-scope(s) slower than the best beyond noise (worst llama3-8b/prefill16384 (graph): 0.605x)"


def test_the_change_is_the_rationale_before_its_why():
    assert change_of(STEP) == "threads 256 -> 512"
    assert change_of("a free-text rationale") == "a free-text rationale"


FASTER = Decision(rule=Rule.FASTER, accepted=True, scope="graph", geomean_speedup=1.142, lower_bound=1.1)


def test_each_rule_gives_its_sentence():
    assert lesson(STEP, FASTER) == (
        "threads 256 -> 512 is faster: geomean 1.142x over the best (graph scope, lower bound 1.100x); "
        "it is the new best."
    )
    slower = lesson(STEP, Decision(accepted=False, reason=SLOWER))  # as the committed examples recorded it
    assert slower == f"threads 256 -> 512 is slower on some shape: {SLOWER}."
    within = Decision(rule=Rule.WITHIN_NOISE, accepted=False, scope="graph", geomean_speedup=1.01, lower_bound=0.99)
    assert "no difference beyond the noise: geomean 1.010x" in lesson(STEP, within)
    assert lesson(STEP, FASTER.beaten()) == "threads 256 -> 512 passed the rule too, but " + FASTER.beaten().label + "."
    compile_error = "compile: error: no layout\nmore lines"
    failed = lesson(STEP, Decision(rule=Rule.FAILED_STAGE, accepted=False, stage="compile", message=compile_error))
    assert failed == "threads 256 -> 512: did not compile: failed at compile: compile: error: no layout."


def test_a_decision_no_rule_reads_says_nothing():
    assert lesson(STEP, Decision(accepted=False, reason="a reason no rule has")) is None
    assert lesson(STEP, Decision(rule=Rule.NOT_TIMED, accepted=False)) is None
    assert lesson(STEP, None) is None


def test_the_search_reflects_from_the_decision_without_a_plan_or_a_count():
    def reflect(decision: Decision) -> str:
        context = ReflectionContext(
            "rope", "tilelang", 3, STEP, "rejected", decision.reason, "geomean 0.8x vs the best", decision=decision
        )
        return SearchPolicy("rope", "tilelang").reflect(context).text

    slower = Decision(accepted=False, reason=SLOWER)
    assert reflect(slower) == f"Iteration 3: threads 256 -> 512 is slower on some shape: {SLOWER}."
    assert reflect(Decision(accepted=False, reason="a reason no rule has")) == ""
    assert "another candidate of its round was faster" in reflect(FASTER.beaten())


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
