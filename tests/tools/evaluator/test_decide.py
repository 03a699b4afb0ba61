"""The acceptance rule (tools/evaluator/decide.py) as a table: per-round speedups of each shape and scope."""

from __future__ import annotations

import itertools

import pytest

from tools.evaluator.decide import decide
from tools.evaluator.records import EvalRecord, ScopeResult, ShapeBenchmark, Timing

ROUNDS = 20


def _rounds(speedup: float, spread: float, rounds: int) -> tuple[list[float], list[float]]:
    """Candidate and incumbent per-call times whose per-round speedups are `speedup` +- `spread`."""
    wobble = itertools.cycle((-1.0, -0.5, 0.0, 0.5, 1.0))
    incumbent = [10.0] * rounds
    candidate = [10.0 / (speedup * (1 + spread * next(wobble))) for _ in range(rounds)]
    return candidate, incumbent


def _scope(speedup: float, spread: float, rounds: int) -> ScopeResult:
    mine, theirs = _rounds(speedup, spread, rounds)
    return ScopeResult(
        candidate=Timing(median_us=sorted(mine)[rounds // 2], batch_us=mine),
        incumbent=Timing(median_us=10.0, batch_us=theirs),
    )


def _record(
    shapes: list[tuple[float, float, float, float]], status: str = "ok", stage: str | None = None, rounds: int = ROUNDS
):
    """One shape per (graph speedup, graph spread, eager speedup, eager spread)."""
    benchmark = [
        ShapeBenchmark(
            shape=f"s{i}",
            dims=[1],
            dtype="bf16",
            bytes_moved=1,
            graph=_scope(graph, graph_spread, rounds),
            eager=_scope(eager, eager_spread, rounds),
        )
        for i, (graph, graph_spread, eager, eager_spread) in enumerate(shapes)
    ]
    return EvalRecord(
        op="rope",
        backend="tilelang",
        candidate="c.py",
        candidate_sha256="0",
        harness_sha256="0",
        started="now",
        status=status,
        failed_stage=stage,
        message="wrong at call 3" if status == "failed" else "",
        dtypes=["bf16"],
        shapes=[b.shape for b in benchmark],
        benchmark=benchmark,
    )


TABLE = [
    # (what, shapes, accepted, words in the reason)
    ("5% faster everywhere, tight", [(1.05, 0.01, 1.05, 0.01)] * 8, True, "geomean 1.05"),
    ("unchanged (A/A)", [(1.0, 0.02, 1.0, 0.05)] * 8, False, "within the noise"),
    ("0.3% faster: under the floor", [(1.003, 0.001, 1.003, 0.001)] * 8, False, "within the noise"),
    (
        "faster but one shape 20% slower in graph",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(0.8, 0.01, 1.1, 0.01)],
        False,
        "1 shape(s) slower",
    ),
    (
        # The eager scope measures host cost and decides only where no graph was timed.
        "faster in graph, one shape slower in eager: the graph decides",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(1.1, 0.01, 0.8, 0.01)],
        True,
        "graph scope",
    ),
    (
        "faster, one shape 2% slower but within its noise",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(0.98, 0.1, 1.1, 0.01)],
        True,
        "geomean",
    ),
    ("noisy eager does not block a graph win", [(1.08, 0.01, 1.0, 0.3)] * 8, True, "graph scope"),
]


@pytest.mark.parametrize("what, shapes, accepted, words", TABLE, ids=[row[0] for row in TABLE])
def test_the_rule(what, shapes, accepted, words):
    decision = decide(_record(shapes), against_best=True)
    assert decision.accepted is accepted, decision.reason
    assert words in decision.reason
    assert decision.scope == "graph"


def test_a_failed_candidate_is_rejected_whatever_its_speed():
    decision = decide(_record([(2.0, 0.01, 2.0, 0.01)] * 4, status="failed", stage="benchmark"), against_best=True)
    assert not decision.accepted and decision.reason.startswith("failed at benchmark")


def test_the_first_correct_version_becomes_the_best():
    assert decide(_record([(0.5, 0.01, 0.5, 0.01)] * 4), against_best=False).accepted


def test_a_model_mismatch_keeps_its_speed_on_record_but_is_rejected():
    decision = decide(_record([(1.2, 0.01, 1.2, 0.01)] * 4, status="failed", stage="e2e"), against_best=True)
    assert not decision.accepted and decision.geomean_speedup == pytest.approx(1.2, rel=0.01)


def test_too_few_rounds_to_reach_the_confidence_cannot_accept():
    """Three rounds all faster is [min, max] = 75% coverage: an unchanged kernel would pass one time in eight."""
    decision = decide(_record([(1.05, 0.01, 1.05, 0.01)] * 8, rounds=3), against_best=True)
    assert not decision.accepted and "3 rounds per shape cannot show a gain" in decision.reason
    assert "--batches" in decision.reason


def test_a_shape_timed_without_the_best_beside_it_rejects_a_faster_candidate():
    # The best's runner dropped at the third shape (say, out of GPU memory the candidate held): the two
    # shapes before it, both faster, must not carry the decision.
    record = _record([(1.3, 0.01, 1.3, 0.01)] * 3)
    for scope in (record.benchmark[2].graph, record.benchmark[2].eager):
        scope.incumbent = None
    decision = decide(record, against_best=True)
    assert not decision.accepted
    assert "not timed beside it on 1 shape(s) (s2) in the graph scope" in decision.reason
    assert decide(_record([(1.3, 0.01, 1.3, 0.01)] * 3), against_best=True).accepted


def test_a_shape_where_only_the_bests_graph_is_missing_rejects_too():
    record = _record([(1.3, 0.01, 1.3, 0.01)] * 3)
    record.benchmark[1].graph.incumbent = None  # its capture failed there; eager figures remain
    decision = decide(record, against_best=True)
    assert not decision.accepted and "(s1) in the graph scope" in decision.reason
