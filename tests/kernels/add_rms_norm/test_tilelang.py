"""add_rms_norm's TileLang kernel on a GPU, and its lowering to CUDA source on the CPU.

TileLang's C target cannot lower reductions over fragments, so this kernel runs on a GPU only
(see tests/kernels/tilelang_devices.py).
"""

from __future__ import annotations

import functools

import pytest
import torch

import workbench.kernels.add_rms_norm.tilelang as add_rms_norm_tl
from tests.kernels.add_rms_norm.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_sum_is_bitwise_the_rounded_add,
)
from tests.kernels.gpu_checks import cases, check
from tests.kernels.lowering import lowering_cases
from workbench.kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC
from workbench.kernels.tilelang_support import access_widths, lower_to_source

pytest.importorskip("tilelang")


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(ADD_RMS_SPEC))
def test_matches_the_reference_on_a_gpu(shape, dtype):
    check(ADD_RMS_SPEC, add_rms_norm_tl.add_rms_norm, shape, dtype)


@pytest.mark.gpu
def test_sum_is_bitwise_the_rounded_add():
    check_sum_is_bitwise_the_rounded_add(add_rms_norm_tl)


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims():
    check_empty_allocating_and_leading_dims(add_rms_norm_tl)


# ---------------------------------------------------------------------------------------------- lowering


@functools.cache
def add_rms_norm_source(hidden: int, dtype: str) -> str:
    return lower_to_source(add_rms_norm_tl.build(hidden, dtype, **add_rms_norm_tl.CONFIG))


@pytest.mark.parametrize(("shape", "dtype"), lowering_cases(ADD_RMS_SPEC, lambda shape: shape.dims[1]))
def test_add_rms_norm_lowers_to_cuda(shape, dtype):
    source = add_rms_norm_source(shape.dims[1], dtype)
    assert "add_rms_norm_kernel_kernel(" in source
    assert "rsqrtf(" in source
    # Five tensors, both outputs written: the sum and the normalised row.
    assert "Sum[" in source or "(Sum + " in source
    assert "Out[" in source or "(Out + " in source


@pytest.mark.parametrize(("block_rows", "threads"), [(2, 64), (4, 128), (8, 1024)])
def test_add_rms_norm_guards_the_row_tail_for_several_rows_per_block(block_rows, threads):
    source = lower_to_source(add_rms_norm_tl.build(1000, "float16", block_rows, threads))
    assert "< rows" in source


def test_add_rms_norm_rounds_the_sum_before_normalising():
    # bf16: fp32 sum -> bf16 (round to nearest) -> fp32, then squared; in fp32 there is nothing to round.
    bf16 = add_rms_norm_source(4096, torch.bfloat16)
    assert "__float22bfloat162_rn" in bf16 and "__bfloat1622float2" in bf16
    assert "uint4" in bf16  # x and residual loaded 16 bytes at a time


@pytest.mark.parametrize("hidden", [2048, 4096])
def test_moves_16_bytes_per_bf16_access(hidden):
    # A loop that also stores another output (add_rms_norm's sum) or reads fp32 can narrow the accesses to
    # 8 bytes: add_rms_norm stored sum and normed as uint2 until each got a loop of its own.
    add = add_rms_norm_source(hidden, torch.bfloat16)
    assert all(access_widths(add, b) == {"uint4"} for b in ("X", "R", "W", "Sum", "Out"))


@pytest.mark.parametrize("key", sorted(add_rms_norm_tl.SEARCH_SPACE))
def test_add_rms_norm_config_values_are_in_the_search_space(key):
    assert add_rms_norm_tl.CONFIG[key] in add_rms_norm_tl.SEARCH_SPACE[key]


def test_refuses_cpu_tensors_with_a_clear_error():
    with pytest.raises(ValueError, match="runs on a GPU"):
        add_rms_norm_tl.add_rms_norm(*ADD_RMS_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0))
