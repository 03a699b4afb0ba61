"""The search policy's order of proposals, on a kernel file with a small space (no GPU, no loop)."""

from __future__ import annotations

from agent.policies.base import Attempt, ProposalContext
from agent.policies.search import SearchPolicy
from agent.policies.source_edit import read_literal

KERNEL = """CONFIG = {"a": 2, "b": 20}

SEARCH_SPACE = {
    "a": [1, 2, 3],
    "b": [10, 20, 30],
}
"""


def _context(attempts: list[Attempt], k: int = 1) -> ProposalContext:
    return ProposalContext(
        op="rms_norm", backend="nobackend", iteration=len(attempts) + 1, spec_text="", best_source=KERNEL,
        best_summary="", profile_summary="", hardware="", attempts=attempts, k=k,
    )  # fmt: skip


def _attempt(i: int, config: dict, fraction: float | None, outcome: str = "rejected") -> Attempt:
    return Attempt(i, "r", outcome, "m", config=config, median_fraction_of_copy=fraction)


def test_first_the_neighbours_of_the_best():
    proposals = SearchPolicy("rms_norm", "nobackend").propose(_context([], k=4))
    configs = [read_literal(p.source, "CONFIG") for p in proposals]
    assert configs == [{"a": 3, "b": 20}, {"a": 1, "b": 20}, {"a": 2, "b": 30}, {"a": 2, "b": 10}]
    assert all("neighbour of the best" in p.rationale for p in proposals)


def test_once_neighbours_and_two_steps_are_spent_the_rest_comes_best_predicted_first():
    # From (2, 20) every point of a 3x3 space is one or two steps away; a fourth value of `a` is not.
    kernel = KERNEL.replace('"a": [1, 2, 3]', '"a": [1, 2, 3, 4]')
    measured = {(1, 10): 0.5, (1, 20): 0.5, (1, 30): 0.5, (3, 10): 0.8, (3, 20): 0.8, (3, 30): 0.9, (2, 10): 0.6}
    measured |= {(2, 30): 0.7}
    attempts = [_attempt(i, {"a": a, "b": b}, f) for i, ((a, b), f) in enumerate(measured.items(), 1)]
    context = _context(attempts, k=3)
    context.best_source = kernel
    proposals = SearchPolicy("rms_norm", "nobackend").propose(context)
    configs = [read_literal(p.source, "CONFIG") for p in proposals]
    # a=4 is unmeasured, so it is scored with the best fraction seen (0.9); b=30 has the best mean.
    assert configs[0] == {"a": 4, "b": 30}
    assert {"a": 4, "b": 10} in configs and {"a": 4, "b": 20} in configs
    assert all("mean fraction of copy per value" in p.rationale for p in proposals)


def test_a_spent_space_ends_the_walk():
    space = [(a, b) for a in (1, 2, 3) for b in (10, 20, 30) if (a, b) != (2, 20)]
    attempts = [_attempt(i, {"a": a, "b": b}, 0.5) for i, (a, b) in enumerate(space, 1)]
    assert SearchPolicy("rms_norm", "nobackend").propose(_context(attempts)) == []


UNUSED = (
    KERNEL
    + """
UNUSED_KEYS = {"a=2": ["b"]}
"""
)


def test_a_proposal_that_changes_only_unused_keys_is_skipped():
    # Under a=2, b changes nothing: its neighbours would time the same kernel (H200, rope_qk rows design).
    context = _context([], k=4)
    context.best_source = UNUSED
    configs = [read_literal(p.source, "CONFIG") for p in SearchPolicy("rms_norm", "nobackend").propose(context)]
    assert {"a": 2, "b": 30} not in configs and {"a": 2, "b": 10} not in configs
    assert configs[:2] == [{"a": 3, "b": 20}, {"a": 1, "b": 20}]  # a itself, and b where a moved, remain
    assert {"a": 3, "b": 30} in configs


def test_unused_keys_must_name_a_setting():
    import pytest

    from agent.policies.search import unused_keys

    assert unused_keys(KERNEL) == {}
    assert unused_keys(UNUSED) == {("a", 2): {"b"}}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        unused_keys(KERNEL + '\nUNUSED_KEYS = {"a": ["b"]}\n')


def test_rope_qk_tilelang_rows_design_keys():
    from pathlib import Path

    from agent.policies.search import _inert, unused_keys

    source = (Path(__file__).resolve().parents[2] / "kernels" / "rope_qk" / "tilelang.py").read_text()
    best = read_literal(source, "CONFIG")
    rules = unused_keys(source)
    assert best["rows"] and _inert(best, {**best, "block_tokens": 2}, rules)
    assert not _inert(best, {**best, "block_rows": 16}, rules)
    assert not _inert(best, {**best, "rows": False, "block_tokens": 2}, rules)
