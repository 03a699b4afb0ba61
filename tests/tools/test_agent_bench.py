"""The agent benchmark's figures from given cases: reaching the shipped kernel, fast_p, the summary, the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.agent_bench import AgentBench, CaseResult, Point, Speed, first_reach, sparkline


def _case(op: str, start: float | None, best_at: float | None, shipped: float | None, **fields) -> CaseResult:
    values = dict(
        op=op,
        backend="tilelang",
        policy="search",
        start_file=f"benchmarks/agent/starts/{op}/tilelang.py",
        status="finished",
        budget_iterations=8,
        started="2026-01-01T00:00:00+00:00",
        start=Speed(fraction=start, correct=start is not None),
        best=Speed(fraction=best_at, correct=best_at is not None),
        shipped=Speed(fraction=shipped, correct=True) if shipped is not None else None,
    )
    return CaseResult(**{**values, **fields})


def test_the_first_point_at_the_target_is_the_one_that_reached_it():
    points = [Point(iteration=0, best_fraction=0.5), Point(iteration=1, best_fraction=0.5)]
    points += [Point(iteration=2, elapsed_s=40.0, best_fraction=0.72), Point(iteration=3, best_fraction=0.8)]
    reached = first_reach(points, 0.7)
    assert reached is not None and (reached.iteration, reached.elapsed_s) == (2, 40.0)
    assert first_reach(points, 0.9) is None
    assert first_reach(points, None) is None  # no shipped figure: nothing to reach


def test_fast_p_counts_correct_versions_faster_by_more_than_p():
    fast = _case(
        "rope", 0.5, 0.8, 0.85, best=Speed(fraction=0.8, correct=True, speedup={"torch": 1.3, "compiled": 1.1})
    )
    slow = _case("rms_norm", 0.5, 0.6, 0.9, best=Speed(fraction=0.6, correct=True, speedup={"torch": 1.0}))
    wrong = _case("silu_mul", None, None, 0.9, status="failed")
    skipped = _case("add_rms_norm", None, None, None, status="skipped")
    bench = AgentBench(cases=[fast, slow, wrong, skipped])
    assert bench.fast_p(1.0, "torch") == pytest.approx(1 / 4)  # 1.0 is not faster than 1.0
    assert bench.fast_p(1.2, "torch") == pytest.approx(1 / 4)
    assert bench.fast_p(1.0, "compiled") == pytest.approx(1 / 4)
    assert bench.fast_p(1.2, "compiled") == 0
    assert bench.fast_p(1.0, "torch", "shipped") == 0  # shipped figures without speedups are not fast
    assert AgentBench().fast_p(1.0, "torch") is None


def test_the_summary_counts_cases_at_the_shipped_kernel_and_the_geomean_gain():
    reached = _case("rope", 0.4, 0.9, 0.9, reached_iteration=3, reached_s=50.0)
    missed = _case("rms_norm", 0.4, 0.4, 0.9)
    skipped = _case("silu_mul", None, None, None, status="skipped")
    summary = AgentBench(cases=[reached, missed, skipped]).summary()
    assert summary.startswith("1 of 2 cases reached 0.9 of the shipped kernel's fraction of copy")
    assert "geomean start -> best 0.40 -> 0.60 of copy (1.50x over 2 cases)" in summary
    assert summary.endswith("1 skipped (time budget)")


def test_a_case_replaces_the_earlier_one_of_its_op_backend_and_policy(tmp_path):
    bench = AgentBench().replaced(_case("rope", 0.4, 0.5, 0.9)).replaced(_case("rms_norm", 0.4, 0.4, 0.9))
    bench = bench.replaced(_case("rope", 0.4, 0.8, 0.9, points=[Point(iteration=0, best_fraction=0.4)]))
    assert [(c.op, c.best.fraction) for c in bench.cases] == [("rms_norm", 0.4), ("rope", 0.8)]
    path = tmp_path / "nvidia-h200" / "agent.json"
    bench.save(path)
    assert AgentBench.load(path) == bench
    markdown = path.with_suffix(".md").read_text()
    assert "| rope | tilelang | search | finished | 0.40 | 0.80 | 0.90 | - | - |" in markdown
    assert "rope[tilelang] search" in markdown and "0.40" in markdown.split("## Best fraction")[1]


def test_a_file_of_another_format_is_refused_not_overwritten(tmp_path):
    path = tmp_path / "agent.json"
    path.write_text('{"op": "rope", "benches": [], "rows": []}')
    with pytest.raises(RuntimeError, match="cannot be read as an agent benchmark file"):
        AgentBench.load(path)


def test_a_sparkline_scales_fractions_of_copy_and_leaves_gaps():
    assert sparkline([0.0, 0.5, 1.0, None, 2.0]) == "▁▅█ █"


COMMITTED = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "results").glob("*/agent.json"))


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.parent.name)
def test_the_committed_agent_benchmarks_load_and_their_markdown_is_current(path):
    bench = AgentBench.load(path)
    assert bench.cases
    assert path.with_suffix(".md").read_text() == bench.markdown()
