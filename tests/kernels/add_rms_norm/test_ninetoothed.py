"""add_rms_norm's NineToothed kernel: on the CPU under Triton's interpreter, and on a GPU, against the fp32 reference.

On the CPU all cases run once, in a child process (tests/kernels/ninetoothed_checks.py); the
interpreter runs every program in Python, so the shapes are the hidden ones plus a few small
Llama-like ones rather than the full named set, which the GPU tests cover.
"""

from __future__ import annotations

import pytest
import torch

import kernels.add_rms_norm.ninetoothed as add_rms_norm_nt
from kernels.add_rms_norm.spec import SPEC
from kernels.spec import NamedShape
from tests.kernels.add_rms_norm.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_sum_is_bitwise_the_rounded_add,
)
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

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2048": (5, 2048), "small/3x4096": (3, 4096)}
NUMERICS = numerics_cases("add_rms_norm", hidden_and("add_rms_norm", SMALL_SHAPES))
ALLOCATES = Case("add_rms_norm/allocates", "add_rms_norm", (4, 1000), "fp16", seed=1, out="none")
POISONED = Case("add_rms_norm/nan-out", "add_rms_norm", (7, 1000), "bf16", seed=2)
EMPTY = Case("add_rms_norm/empty", "add_rms_norm", (0, 2048), "bf16")
NONCONTIGUOUS = Case("add_rms_norm/noncontiguous", "add_rms_norm", (4, 1000), "bf16", layout="noncontiguous")
ALL_CASES = [*NUMERICS, ALLOCATES, POISONED, EMPTY, NONCONTIGUOUS]


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


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(SPEC))
def test_matches_the_reference_on_a_gpu(shape: NamedShape, dtype: torch.dtype) -> None:
    check(SPEC, add_rms_norm_nt.add_rms_norm, shape, dtype)


@pytest.mark.gpu
def test_sum_is_bitwise_the_rounded_add_on_a_gpu() -> None:
    check_sum_is_bitwise_the_rounded_add(add_rms_norm_nt)


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims_on_a_gpu() -> None:
    check_empty_allocating_and_leading_dims(add_rms_norm_nt)
