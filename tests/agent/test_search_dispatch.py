"""A candidate that wins overall but is slower on one shape class is kept as a dispatch by shape class."""

from __future__ import annotations

from pathlib import Path

import torch

from agent.config import candidate_compile_limit
from agent.policies.base import Attempt, ProposalContext
from agent.policies.search import SearchPolicy
from agent.policies.source_edit import dispatch_by_class
from tools.evaluator.static_check import check_source
from workbench.kernels.kernel_file import knob_values, knobs, read_literal

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "kernels" / "silu_mul" / "ninetoothed.py").read_text()

# A kernel file of the shipped convention whose entry point reports the configuration it ran with.
REPORTS_ITS_CONFIG = '''"""A kernel that returns the CONFIG in force (for the dispatch's tests)."""

CONFIG = {"block_rows": 2, "num_warps": 4}

SEARCH_SPACE = {"block_rows": [1, 2, 4], "num_warps": [2, 4, 8]}


def silu_mul(x, *, out=None):
    return dict(CONFIG)
'''

# What decide.py writes when a shape is slower beyond noise; the judge stops timing there.
SLOWER_ON_DECODE = (
    "1 shape(s) slower than the best beyond noise (worst llama3-8b/decode8 bf16 (graph): 0.912x, at most 0.950x)"
)


def _context(source: str, attempts: list[Attempt], k: int = 1) -> ProposalContext:
    return ProposalContext(
        op="silu_mul", backend="ninetoothed", iteration=len(attempts) + 1, spec_text="", best_source=source,
        best_summary="", profile_summary="", hardware="", attempts=attempts, k=k,
    )  # fmt: skip


def _run(source: str, x: torch.Tensor) -> dict:
    namespace: dict = {}
    exec(compile(source, "<dispatch>", "exec"), namespace)
    return namespace["silu_mul"](x)


def test_after_a_rejection_on_decode_shapes_the_policy_proposes_a_dispatch_by_shape_class():
    best = read_literal(SHIPPED, "CONFIG")
    theirs = {**best, "block_rows": 8, "num_warps": 8}
    attempts = [Attempt(8, "catalogue design", "rejected", SLOWER_ON_DECODE, theirs, 1.07, 0.94)]
    proposal = SearchPolicy("silu_mul", "ninetoothed").propose(_context(SHIPPED, attempts))[0]
    assert proposal.rationale.startswith("dispatch by shape class: prefill takes iteration 8's block_rows 2 -> 8")
    values = knob_values(proposal.source)
    assert {k.removeprefix("decode."): v for k, v in values.items() if k.startswith("decode.")} == best
    assert {k.removeprefix("prefill."): v for k, v in values.items() if k.startswith("prefill.")} == theirs
    assert check_source(proposal.source, "silu_mul").ok  # the judge's static check takes it as it is


def test_the_split_is_proposed_once_and_not_after_a_new_best():
    theirs = {**read_literal(SHIPPED, "CONFIG"), "block_rows": 8}
    lost = Attempt(8, "r", "rejected", SLOWER_ON_DECODE, theirs, 1.07, 0.94)
    policy = SearchPolicy("silu_mul", "ninetoothed")
    split = policy.propose(_context(SHIPPED, [lost]))[0]
    tried = Attempt(9, split.rationale, "rejected", "within the noise", knob_values(split.source), 1.0, 0.9)
    assert not policy.propose(_context(SHIPPED, [lost, tried]))[0].rationale.startswith("dispatch")
    won = Attempt(9, "block_cols 1024 -> 2048: neighbour", "accepted", "faster", theirs, 1.1, 0.9)
    assert not policy.propose(_context(SHIPPED, [lost, won]))[0].rationale.startswith("dispatch")
    slower_overall = Attempt(8, "r", "rejected", SLOWER_ON_DECODE, theirs, 0.97, 0.8)
    assert not policy.propose(_context(SHIPPED, [slower_overall]))[0].rationale.startswith("dispatch")


def test_the_written_file_selects_each_configuration_by_the_calls_shape_class():
    source = dispatch_by_class(
        REPORTS_ITS_CONFIG, "silu_mul", {"block_rows": 1, "num_warps": 2}, {"block_rows": 4, "num_warps": 8}
    )
    assert _run(source, torch.empty(8, 64)) == {"block_rows": 1, "num_warps": 2}  # decode: 8 tokens
    assert _run(source, torch.empty(512, 64)) == {"block_rows": 4, "num_warps": 8}  # prefill
    assert _run(source, torch.empty(1, 256, 32, 64)) == {"block_rows": 1, "num_warps": 2}  # rope-like: batch x seq
    assert _run(source, torch.empty(2, 512, 32, 64)) == {"block_rows": 4, "num_warps": 8}
    # Read by a person as one CONFIG is: the two configurations are literals beside each other.
    assert '    "decode": {"block_rows": 1, "num_warps": 2},\n' in source
    assert '    "prefill": {"block_rows": 4, "num_warps": 8},\n' in source


def test_after_the_split_the_walk_tunes_each_class_and_applies_no_design():
    best = read_literal(SHIPPED, "CONFIG")
    split = dispatch_by_class(SHIPPED, "silu_mul", best, {**best, "block_rows": 8})
    assert {k.kind for k in knobs(split)} == {"class"}
    proposals = SearchPolicy("silu_mul", "ninetoothed").propose(_context(split, [], k=300))
    assert proposals and not any("catalogue" in p.rationale for p in proposals)
    assert all(set(knob_values(p.source)) == set(knob_values(split)) for p in proposals)
    assert proposals[0].rationale.startswith("decode.block_rows 2 -> 4")


def test_a_candidates_compile_limit_follows_the_bests_compile():
    assert candidate_compile_limit(180.0, 8.0) == 32.0
    assert candidate_compile_limit(180.0, 2.0) == 30.0  # the floor: a JIT's first calls vary
    assert candidate_compile_limit(180.0, 100.0) == 180.0  # never above the configured cap
    assert candidate_compile_limit(180.0, None) == 180.0
    assert candidate_compile_limit(None, 8.0) is None  # --compile-timeout 0: only --timeout
