"""rope_qk's NineToothed kernel: on the CPU under Triton's interpreter, and on a GPU, against the fp32 reference.

On the CPU all cases run once, in a child process (tests/kernels/ninetoothed_checks.py); the
interpreter runs every program in Python, so the shapes are the hidden ones plus a few small
Llama-like ones rather than the full named set, which the GPU tests cover.
"""

from __future__ import annotations

import pytest
import torch

import kernels.rope_qk.ninetoothed as rope_qk_nt
from kernels.rope_qk.spec import SPEC
from kernels.spec import NamedShape
from tests.kernels.gpu_checks import cases, check
from tests.kernels.ninetoothed_checks import (
    check_empty_input_returns_empty_output,
    check_matches_reference,
    check_nan_poisoned_out_is_fully_overwritten,
    check_noncontiguous_input_raises_value_error,
    check_numerics,
    hidden_and,
    numerics_cases,
    ran,
    run_op_cases,
)
from tests.kernels.ninetoothed_interpreter import Case, Outcome
from tests.kernels.rope_qk.gpu_promises import check_empty_and_allocating, check_head_groups

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/1x9x32x8x64": (1, 9, 32, 8, 64), "small/2x3x32x8x128": (2, 3, 32, 8, 128)}
# The slowest shape under the interpreter, in bf16 only: it took 41/39/22 s in bf16/fp16/fp32 on a 2-core
# machine under load. Its tails (tokens, heads, a half of 48) are index math, the same in every dtype; each
# dtype's loads, casts and rounding run on every other shape, d80 and d96 included.
ONE_DTYPE = {"hidden/seq120-7q-7kv-d96"}
NUMERICS = numerics_cases("rope_qk", hidden_and("rope_qk", SMALL_SHAPES), one_dtype=ONE_DTYPE)
ALLOCATES = Case("rope_qk/allocates", "rope_qk", (2, 9, 6, 2, 64), "fp16", seed=1, out="none")
POISONED = Case("rope_qk/nan-out", "rope_qk", (1, 7, 6, 3, 96), "bf16", seed=2)
EMPTY = Case("rope_qk/empty", "rope_qk", (1, 0, 4, 2, 64), "bf16")
NONCONTIGUOUS = Case("rope_qk/noncontiguous", "rope_qk", (2, 5, 3, 1, 64), "bf16", layout="noncontiguous")
# rope_qk's head groups: 8 q and 4 kv heads in 1, 2 and 4 groups (4 groups: one kv head per program),
# 17 tokens in tiles of 4 (the last one partial).
ROPE_QK_GROUPS = [
    Case(
        f"rope_qk/groups{groups}-bf16",
        "rope_qk",
        (1, 17, 8, 4, 64),
        "bf16",
        config={"head_groups": groups, "block_tokens": 4},
    )
    for groups in (1, 2, 4)
]
# The MetaX camp's calling convention: tables in the model's dtype, sliced [:seq] from longer ones.
CAMP_TABLES = [
    Case(f"rope_qk/camp-tables-{tables}-{dtype}", "rope_qk", (2, 7, 4, 2, 64), dtype, seed=4, tables=tables)
    for dtype in ("bf16", "fp16")
    for tables in (f"{dtype}+0", f"{dtype}+13", "fp32+13")
]
ALL_CASES = [*NUMERICS, ALLOCATES, POISONED, EMPTY, NONCONTIGUOUS, *ROPE_QK_GROUPS, *CAMP_TABLES]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    return run_op_cases(ALL_CASES, tmp_path_factory)


@pytest.mark.parametrize("case", NUMERICS, ids=lambda case: case.id)
def test_matches_reference(outcomes: dict[str, Outcome], case: Case) -> None:
    check_matches_reference(outcomes, case)


def test_allocates_output_when_none_given(outcomes: dict[str, Outcome]) -> None:
    check_numerics(ALLOCATES, ran(outcomes, ALLOCATES))


def test_nan_poisoned_out_is_fully_overwritten(outcomes: dict[str, Outcome]) -> None:
    check_nan_poisoned_out_is_fully_overwritten(outcomes, POISONED)


def test_inputs_are_not_modified(outcomes: dict[str, Outcome]) -> None:
    assert ran(outcomes, POISONED).inputs_unchanged


def test_empty_input_returns_empty_output(outcomes: dict[str, Outcome]) -> None:
    check_empty_input_returns_empty_output(outcomes, EMPTY)


def test_noncontiguous_input_raises_value_error(outcomes: dict[str, Outcome]) -> None:
    check_noncontiguous_input_raises_value_error(outcomes, NONCONTIGUOUS)


@pytest.mark.parametrize("case", CAMP_TABLES, ids=lambda case: case.id)
def test_model_dtype_and_longer_tables(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out and outcome.inputs_unchanged
    check_numerics(case, outcome)


@pytest.mark.parametrize("case", ROPE_QK_GROUPS, ids=lambda case: case.id)
def test_rope_qk_head_groups(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    check_numerics(case, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(SPEC))
def test_matches_the_reference_on_a_gpu(shape: NamedShape, dtype: torch.dtype) -> None:
    check(SPEC, rope_qk_nt.rope_qk, shape, dtype)


@pytest.mark.gpu
def test_empty_and_allocating_on_a_gpu() -> None:
    check_empty_and_allocating(rope_qk_nt)


@pytest.mark.gpu
@pytest.mark.parametrize("groups", [1, 2, 4, 8])
def test_head_groups_on_a_gpu(groups: int, monkeypatch: pytest.MonkeyPatch) -> None:
    check_head_groups(rope_qk_nt, groups, monkeypatch)
