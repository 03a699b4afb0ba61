"""The acceptance rule (tools/evaluator/decide.py) as a table: per-round speedups of each shape and scope."""

from __future__ import annotations

import itertools

import pytest

from tools.evaluator.decide import ROUNDS_TO_ACCEPT, Decision, Rule, decide
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
    # (what, shapes, the rule that fires, words in the reason)
    ("5% faster everywhere, tight", [(1.05, 0.01, 1.05, 0.01)] * 8, Rule.FASTER, "geomean 1.05"),
    ("unchanged (A/A)", [(1.0, 0.02, 1.0, 0.05)] * 8, Rule.WITHIN_NOISE, "within the noise"),
    ("0.3% faster: under the floor", [(1.003, 0.001, 1.003, 0.001)] * 8, Rule.WITHIN_NOISE, "within the noise"),
    (
        "faster but one shape 20% slower in graph",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(0.8, 0.01, 1.1, 0.01)],
        Rule.SLOWER_SHAPE,
        "1 shape(s) slower",
    ),
    (
        # The eager scope measures host cost and decides only where no graph was timed.
        "faster in graph, one shape slower in eager: the graph decides",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(1.1, 0.01, 0.8, 0.01)],
        Rule.FASTER,
        "graph scope",
    ),
    (
        "faster, one shape 2% slower but within its noise",
        [(1.1, 0.01, 1.1, 0.01)] * 7 + [(0.98, 0.1, 1.1, 0.01)],
        Rule.FASTER,
        "geomean",
    ),
    ("noisy eager does not block a graph win", [(1.08, 0.01, 1.0, 0.3)] * 8, Rule.FASTER, "graph scope"),
]


@pytest.mark.parametrize("what, shapes, rule, words", TABLE, ids=[row[0] for row in TABLE])
def test_the_rule(what, shapes, rule, words):
    decision = decide(_record(shapes), against_best=True)
    assert decision.rule is rule, decision.reason
    assert decision.accepted is (rule is Rule.FASTER)
    assert words in decision.reason
    assert decision.scope == "graph"
    # The speed it weighed: a geomean between its bounds; the lower one is what the floor is held against.
    assert decision.lower_bound < decision.geomean_speedup and 0 < decision.noise < 1


def test_a_faster_candidate_names_its_geomean_and_lower_bound():
    decision = decide(_record([(1.05, 0.01, 1.05, 0.01)] * 8), against_best=True)
    assert decision.geomean_speedup == pytest.approx(1.05, rel=0.01) and decision.lower_bound > 1.01
    assert decision.reason == (
        f"geomean {decision.geomean_speedup:.3f}x over the best (graph scope, lower bound {decision.lower_bound:.3f}x)"
    )


def test_a_slower_shape_names_the_worst_one_with_its_ratio_and_bound():
    shapes = [(1.1, 0.01, 1.1, 0.01)] * 6 + [(0.9, 0.01, 1.1, 0.01), (0.8, 0.01, 1.1, 0.01)]
    decision = decide(_record(shapes), against_best=True)
    assert (decision.rule, decision.slower_shapes, decision.worst_shape) == (Rule.SLOWER_SHAPE, 2, "s7 bf16")
    assert decision.worst_ratio == pytest.approx(0.8, rel=0.02) and decision.worst_ratio < decision.worst_bound < 1
    assert f"(worst s7 bf16 (graph): {decision.worst_ratio:.3f}x, at most {decision.worst_bound:.3f}x)" in (
        decision.reason
    )


def test_a_failed_candidate_is_rejected_whatever_its_speed():
    decision = decide(_record([(2.0, 0.01, 2.0, 0.01)] * 4, status="failed", stage="benchmark"), against_best=True)
    assert not decision.accepted and decision.reason.startswith("failed at benchmark")
    assert (decision.rule, decision.stage, decision.message) == (Rule.FAILED_STAGE, "benchmark", "wrong at call 3")
    assert decision.geomean_speedup is None and decision.label == "failed at benchmark"


def test_a_failed_benchmark_is_named_by_the_worst_status_of_its_shapes():
    record = _record([(2.0, 0.01, 2.0, 0.01)] * 3, status="failed", stage="benchmark")
    record.benchmark[1].status, record.benchmark[2].status = "wrong_after_timing", "measurement_error"
    decision = decide(record, against_best=True)
    assert (decision.shape_status, decision.label) == ("measurement_error", "roofline check")


def test_the_first_correct_version_becomes_the_best():
    decision = decide(_record([(0.5, 0.01, 0.5, 0.01)] * 4), against_best=False)
    assert decision.accepted and decision.rule is Rule.FIRST_VERSION and decision.geomean_speedup is None


def test_a_model_mismatch_keeps_its_speed_on_record_but_is_rejected():
    decision = decide(_record([(1.2, 0.01, 1.2, 0.01)] * 4, status="failed", stage="e2e"), against_best=True)
    assert not decision.accepted and decision.geomean_speedup == pytest.approx(1.2, rel=0.01)
    assert (decision.rule, decision.stage, decision.scope) == (Rule.FAILED_E2E, "e2e", "graph")
    assert decision.lower_bound is not None and decision.reason == "failed at e2e: wrong at call 3"


def test_too_few_rounds_to_reach_the_confidence_cannot_accept():
    """Three rounds all faster is [min, max] = 75% coverage: an unchanged kernel would pass one time in eight."""
    decision = decide(_record([(1.05, 0.01, 1.05, 0.01)] * 8, rounds=3), against_best=True)
    assert not decision.accepted and "3 rounds per shape cannot show a gain" in decision.reason
    assert "--batches" in decision.reason
    assert (decision.rule, decision.rounds, decision.rounds_needed) == (Rule.TOO_FEW_ROUNDS, 3, ROUNDS_TO_ACCEPT)


def test_nothing_timed_against_the_best_cannot_accept():
    record = _record([(1.3, 0.01, 1.3, 0.01)] * 3)
    for bench in record.benchmark:
        bench.graph = bench.eager = None
    decision = decide(record, against_best=True)
    assert (decision.rule, decision.accepted, decision.label) == (Rule.NOT_TIMED, False, "not timed against the best")


def test_a_shape_timed_without_the_best_beside_it_rejects_a_faster_candidate():
    # The best's runner dropped at the third shape (say, out of GPU memory the candidate held): the two
    # shapes before it, both faster, must not carry the decision.
    record = _record([(1.3, 0.01, 1.3, 0.01)] * 3)
    for scope in (record.benchmark[2].graph, record.benchmark[2].eager):
        scope.incumbent = None
    decision = decide(record, against_best=True)
    assert not decision.accepted
    assert "not timed beside it on 1 shape(s) (s2) in the graph scope" in decision.reason
    assert (decision.rule, decision.uncompared, decision.scope) == (Rule.NOT_COMPARED, ("s2",), "graph")
    assert decide(_record([(1.3, 0.01, 1.3, 0.01)] * 3), against_best=True).accepted


def test_a_shape_where_only_the_bests_graph_is_missing_rejects_too():
    record = _record([(1.3, 0.01, 1.3, 0.01)] * 3)
    record.benchmark[1].graph.incumbent = None  # its capture failed there; eager figures remain
    decision = decide(record, against_best=True)
    assert not decision.accepted and "(s1) in the graph scope" in decision.reason


def test_a_passing_decision_beaten_in_its_round_names_the_rule_and_keeps_its_figures():
    faster = decide(_record([(1.05, 0.01, 1.05, 0.01)] * 8), against_best=True)
    beaten = faster.beaten()
    assert (beaten.rule, beaten.accepted) == (Rule.BEATEN, False)
    assert (beaten.geomean_speedup, beaten.lower_bound) == (faster.geomean_speedup, faster.lower_bound)
    assert beaten.reason == f"{faster.reason}; {beaten.label}"
    rejected = decide(_record([(1.0, 0.02, 1.0, 0.05)] * 8), against_best=True)
    assert rejected.beaten() == rejected  # only a decision that passed can be beaten


def test_a_decision_reads_back_from_its_dict_the_same():
    for shapes in ([(1.05, 0.01, 1.05, 0.01)] * 8, [(1.1, 0.01, 1.1, 0.01)] * 7 + [(0.8, 0.01, 1.1, 0.01)]):
        decision = decide(_record(shapes), against_best=True)
        recorded = decision.model_dump(mode="json")
        assert recorded["rule"] == decision.rule.value and recorded["reason"] == decision.reason
        assert Decision.model_validate(recorded) == decision


def test_a_rule_and_accepted_that_disagree_are_refused():
    with pytest.raises(ValueError, match="rule and `accepted` disagree"):
        Decision(rule=Rule.WITHIN_NOISE, accepted=True)
