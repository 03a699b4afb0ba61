"""The evaluator with an op of two outputs (add_rms_norm: sum, normed), on the CPU with torch-backend candidates.

`out=` is a (sum, normed) pair of NaN-poisoned buffers; a candidate must write both and
return them, and each output is judged with its own tolerance (the sum exactly).

add_rms_norm stays out of the single-output cheats of tests/tools/evaluator/cheats.py: those cheats
are written against a single `out` tensor (`out.copy_(x)`, `out.view(-1)[...]`,
`out.data_ptr()`), so over a tuple they would fail with a TypeError for the wrong reason
and prove nothing. The threats specific to two outputs are covered here instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions
from tools.evaluator.records import EvalRecord
from workbench.kernels.add_rms_norm.candidates import (
    GOOD_ADD_RMS_NORM as GOOD,
)
from workbench.kernels.add_rms_norm.candidates import (
    RETURNS_ONLY_NORMED,
    TRUNCATES_THE_SUM,
    WRITES_ONLY_NORMED,
    WRITES_ONLY_SUM,
)
from workbench.kernels.rope_qk.candidates import COPIES_K_UNROTATED, GOOD_ROPE_QK, K_AT_THE_FIRST_POSITION

# A decode1 and a decode8 shape of the two models (the hidden ones are checked whatever is asked).
SHAPES = ["llama3.2-1b/decode1", "llama3-8b/decode8"]


def run(tmp_path: Path, source: str, **kwargs) -> EvalRecord:
    path = tmp_path / "add_rms_norm_candidate.py"
    path.write_text(source)
    kwargs.setdefault("benchmark", False)
    return evaluate(
        "add_rms_norm",
        "torch",
        path,
        EvalOptions(shapes=SHAPES, dtypes=("bf16",), device="cpu", timeout_s=300, batches=3, **kwargs),
    )


def assert_failed_at(record: EvalRecord, stage: str, *fragments: str) -> None:
    assert record.status == "failed", "accepted"
    assert record.failed_stage == stage, record.message
    for fragment in fragments:
        assert fragment in record.message, record.message


def test_an_honest_two_output_candidate_passes_every_stage(tmp_path):
    record = run(tmp_path, GOOD, benchmark=True)
    assert record.status == "ok", record.message
    assert all(c.wrote_into_out and c.inputs_unchanged for c in record.correctness)
    assert record.benchmark and all(b.status == "ok" and b.eager.gbps > 0 for b in record.benchmark)


@pytest.mark.parametrize(
    ("source", "unwritten"),
    [(WRITES_ONLY_SUM, "normed"), (WRITES_ONLY_NORMED, "sum")],
    ids=["writes only the sum", "writes only normed"],
)
def test_writing_one_of_the_two_outputs_fails_correctness_naming_the_other(tmp_path, source, unwritten):
    record = run(tmp_path, source)
    assert_failed_at(
        record,
        "correctness",
        f"never wrote output(s) `{unwritten}` (still NaN-poisoned)",
        f"output `{unwritten}`: ",
        "NaN/Inf in output",
    )
    assert not any(c.ok for c in record.correctness)
    assert all(c.wrote_into_out for c in record.correctness)  # it returned both buffers, one left unwritten


def test_returning_one_tensor_instead_of_the_pair_fails(tmp_path):
    record = run(tmp_path, RETURNS_ONLY_NORMED)
    assert_failed_at(
        record,
        "correctness",
        "did not return the `out` buffer it was given (a tuple: sum, normed); it returned a Tensor",
    )
    assert not any(c.wrote_into_out for c in record.correctness)


def test_a_sum_one_ulp_off_fails_the_exact_sum_tolerance(tmp_path):
    record = run(tmp_path, TRUNCATES_THE_SUM)
    assert_failed_at(record, "correctness", "output `sum`: ", "(atol=0, rtol=0)")


def run_rope_qk(tmp_path: Path, source: str, **kwargs) -> EvalRecord:
    path = tmp_path / "rope_qk_candidate.py"
    path.write_text(source)
    kwargs.setdefault("benchmark", False)
    return evaluate(
        "rope_qk", "torch", path, EvalOptions(shapes=SHAPES, dtypes=("bf16",), device="cpu", timeout_s=300, **kwargs)
    )


def test_an_honest_rope_qk_passes_with_outputs_shaped_like_q_and_k(tmp_path):
    record = run_rope_qk(tmp_path, GOOD_ROPE_QK, benchmark=True)
    assert record.status == "ok", record.message
    assert all(c.wrote_into_out and c.inputs_unchanged for c in record.correctness)


def test_a_rope_qk_that_copies_k_unrotated_fails_naming_k(tmp_path):
    lazy = COPIES_K_UNROTATED
    assert lazy != GOOD_ROPE_QK
    assert_failed_at(run_rope_qk(tmp_path, lazy), "correctness", "output `k`: ")


def test_a_rope_qk_right_only_on_the_shapes_it_was_shown_fails_on_hidden_ones(tmp_path):
    # k rotated with the first position's tables for every token: the same thing on the decode shapes
    # asked for (seq 1), wrong wherever seq > 1, which only the hidden shapes have.
    shifted = K_AT_THE_FIRST_POSITION
    assert shifted != GOOD_ROPE_QK
    assert_failed_at(run_rope_qk(tmp_path, shifted), "correctness", "output `k`: ")
