"""What only silu_mul's NineToothed kernel does: leading batch dims, and partial tiles in both dims.

What every op's kernel must do is tests/kernels/test_ninetoothed.py, on the cases in ninetoothed_cases.py.
"""

from __future__ import annotations

import pytest

import workbench.kernels.silu_mul.ninetoothed as silu_mul_nt
from tests.kernels.ninetoothed_checks import check_numerics, ran
from tests.kernels.ninetoothed_interpreter import Case, Outcome
from tests.kernels.silu_mul.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_small_tiles_on_ragged_shapes,
)
from tests.kernels.silu_mul.ninetoothed_cases import LEADING_DIMS, SMALL_TILES


def test_silu_mul_flattens_leading_dims(outcomes: dict[str, Outcome]) -> None:
    outcome = ran(outcomes, LEADING_DIMS)
    assert tuple(outcome.output.shape) == (2, 3, 1000)
    check_numerics(LEADING_DIMS, outcome)


@pytest.mark.parametrize("case", SMALL_TILES, ids=lambda case: case.id)
def test_silu_mul_partial_tiles(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    check_numerics(case, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims_on_a_gpu() -> None:
    check_empty_allocating_and_leading_dims(silu_mul_nt)


@pytest.mark.gpu
def test_small_tiles_on_ragged_shapes_on_a_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    check_small_tiles_on_ragged_shapes(silu_mul_nt, monkeypatch)
