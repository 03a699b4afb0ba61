"""silu_mul's NineToothed kernel: on the CPU under Triton's interpreter, and on a GPU, against the fp32 reference.

On the CPU all cases run once, in a child process (tests/kernels/ninetoothed_checks.py); the
interpreter runs every program in Python, so the shapes are the hidden ones plus a few small
Llama-like ones rather than the full named set, which the GPU tests cover.
"""

from __future__ import annotations

import pytest
import torch

import kernels.silu_mul.ninetoothed as silu_mul_nt
from kernels.silu_mul.spec import SPEC
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
from tests.kernels.silu_mul.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_small_tiles_on_ragged_shapes,
)

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2x8192": (5, 2 * 8192), "small/3x2x14336": (3, 2 * 14336)}
NUMERICS = numerics_cases("silu_mul", hidden_and("silu_mul", SMALL_SHAPES))
ALLOCATES = Case("silu_mul/allocates", "silu_mul", (4, 2 * 1000), "fp16", seed=1, out="none")
POISONED = Case("silu_mul/nan-out", "silu_mul", (7, 2 * 1000), "bf16", seed=2)
EMPTY = Case("silu_mul/empty", "silu_mul", (0, 2 * 1000), "bf16")
NONCONTIGUOUS = Case("silu_mul/noncontiguous", "silu_mul", (4, 2 * 1000), "bf16", layout="noncontiguous")
SILU_LEADING_DIMS = Case("silu_mul/leading-dims", "silu_mul", (6, 2 * 1000), "bf16", layout="leading_dims")
# Small tiles: I = 1000 and 4097 end in a partial column tile, 17 and 3 rows in a partial row tile.
SILU_SMALL_TILES = [
    Case(f"silu_mul/small-tiles/{name}-bf16", "silu_mul", dims, "bf16", config={"block_rows": 4, "block_cols": 256})
    for name, dims in (("17x2x1000", (17, 2 * 1000)), ("3x2x4097", (3, 2 * 4097)))
]
ALL_CASES = [*NUMERICS, ALLOCATES, POISONED, EMPTY, NONCONTIGUOUS, SILU_LEADING_DIMS, *SILU_SMALL_TILES]


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


def test_silu_mul_flattens_leading_dims(outcomes: dict[str, Outcome]) -> None:
    outcome = ran(outcomes, SILU_LEADING_DIMS)
    assert tuple(outcome.output.shape) == (2, 3, 1000)
    check_numerics(SILU_LEADING_DIMS, outcome)


@pytest.mark.parametrize("case", SILU_SMALL_TILES, ids=lambda case: case.id)
def test_silu_mul_partial_tiles(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    check_numerics(case, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(SPEC))
def test_matches_the_reference_on_a_gpu(shape: NamedShape, dtype: torch.dtype) -> None:
    check(SPEC, silu_mul_nt.silu_mul, shape, dtype)


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims_on_a_gpu() -> None:
    check_empty_allocating_and_leading_dims(silu_mul_nt)


@pytest.mark.gpu
def test_small_tiles_on_ragged_shapes_on_a_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    check_small_tiles_on_ragged_shapes(silu_mul_nt, monkeypatch)
