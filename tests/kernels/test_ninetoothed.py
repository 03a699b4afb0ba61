"""Every op's NineToothed kernel against the fp32 reference: on the CPU under Triton's interpreter, on a GPU.

Parametrised over the op folders with a NineToothed kernel (workbench.kernels.registry.ops_with). On the CPU each op's
cases (tests/kernels/ninetoothed_checks.py: cases_of) run once in a child process; the interpreter runs every
program in Python, so they are the hidden shapes and a few small ones rather than the full named set, which
the GPU tests take. What one op's kernel does beyond these is in tests/kernels/<op>/test_ninetoothed.py.
"""

from __future__ import annotations

import pytest
import torch

from tests.kernels.gpu_checks import cases, check
from tests.kernels.ninetoothed_checks import (
    NINETOOTHED_OPS,
    cases_of,
    check_empty_input_returns_empty_output,
    check_matches_reference,
    check_nan_poisoned_out_is_fully_overwritten,
    check_noncontiguous_input_raises_value_error,
    check_numerics,
    ran,
)
from tests.kernels.ninetoothed_interpreter import Case, Outcome
from workbench.kernels.registry import load_native, spec
from workbench.kernels.spec import NamedShape

NUMERICS = [case for op in NINETOOTHED_OPS for case in cases_of(op).numerics]


@pytest.mark.parametrize("case", NUMERICS, ids=lambda case: case.id)
def test_matches_reference(outcomes: dict[str, Outcome], case: Case) -> None:
    check_matches_reference(outcomes, case)


@pytest.mark.parametrize("op", NINETOOTHED_OPS)
def test_allocates_output_when_none_given(outcomes: dict[str, Outcome], op: str) -> None:
    case = cases_of(op).allocates
    check_numerics(case, ran(outcomes, case))


@pytest.mark.parametrize("op", NINETOOTHED_OPS)
def test_nan_poisoned_out_is_fully_overwritten(outcomes: dict[str, Outcome], op: str) -> None:
    check_nan_poisoned_out_is_fully_overwritten(outcomes, cases_of(op).poisoned)


@pytest.mark.parametrize("op", NINETOOTHED_OPS)
def test_inputs_are_not_modified(outcomes: dict[str, Outcome], op: str) -> None:
    assert ran(outcomes, cases_of(op).poisoned).inputs_unchanged


@pytest.mark.parametrize("op", NINETOOTHED_OPS)
def test_empty_input_returns_empty_output(outcomes: dict[str, Outcome], op: str) -> None:
    check_empty_input_returns_empty_output(outcomes, cases_of(op).empty)


@pytest.mark.parametrize("op", NINETOOTHED_OPS)
def test_noncontiguous_input_raises_value_error(outcomes: dict[str, Outcome], op: str) -> None:
    check_noncontiguous_input_raises_value_error(outcomes, cases_of(op).noncontiguous)


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("op", "shape", "dtype"),
    [pytest.param(op, *param.values, id=f"{op}-{param.id}") for op in NINETOOTHED_OPS for param in cases(spec(op))],
)
def test_matches_the_reference_on_a_gpu(op: str, shape: NamedShape, dtype: torch.dtype) -> None:
    check(spec(op), load_native(op, "ninetoothed"), shape, dtype)
