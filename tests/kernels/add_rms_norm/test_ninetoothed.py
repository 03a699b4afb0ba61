"""What only add_rms_norm's NineToothed kernel promises, on a GPU: the sum bitwise HF's rounded add, and
empty, allocating and leading-dim calls.

What every op's kernel must do is tests/kernels/test_ninetoothed.py, on the cases in ninetoothed_cases.py.
"""

from __future__ import annotations

import pytest

import workbench.kernels.add_rms_norm.ninetoothed as add_rms_norm_nt
from tests.kernels.add_rms_norm.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_sum_is_bitwise_the_rounded_add,
)


@pytest.mark.gpu
def test_sum_is_bitwise_the_rounded_add_on_a_gpu() -> None:
    check_sum_is_bitwise_the_rounded_add(add_rms_norm_nt)


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims_on_a_gpu() -> None:
    check_empty_allocating_and_leading_dims(add_rms_norm_nt)
