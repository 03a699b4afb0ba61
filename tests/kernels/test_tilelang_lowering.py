"""Every TileLang kernel lowers to CUDA source on the CPU, for every spec shape and dtype.

No GPU and no nvcc: `tilelang.lower` inside a CUDA target context. One program
serves many shapes (token counts are dynamic), so lowering is cached per program.
"""

from __future__ import annotations

import functools

import pytest
import torch

import kernels.rms_norm.tilelang as rms_norm_tl
import kernels.rope.tilelang as rope_tl
from kernels.rms_norm.spec import SPEC as RMS_SPEC
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.spec import dtype_name
from kernels.tilelang_support import lower_to_source

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


@functools.cache
def rope_source(heads: int, head_dim: int, dtype: str) -> str:
    return lower_to_source(rope_tl.build(heads, head_dim, dtype, **rope_tl.CONFIG))


@functools.cache
def rms_norm_source(hidden: int, dtype: str) -> str:
    return lower_to_source(rms_norm_tl.build(hidden, dtype, **rms_norm_tl.CONFIG))


def cases(spec):
    return [
        pytest.param(shape, dtype, id=f"{shape.name}-{dtype_name(dtype)}")
        for shape in (*spec.shapes, *spec.hidden_shapes)
        for dtype in DTYPES
    ]


@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_rope_lowers_to_cuda(shape, dtype):
    _, _, heads, head_dim = shape.dims
    source = rope_source(heads, head_dim, dtype)
    assert "__global__ void __launch_bounds__(" in source
    assert "rope_kernel_kernel(" in source
    assert "< rows" in source  # the tail guard for row counts that are not a multiple of block_rows


@pytest.mark.parametrize(("shape", "dtype"), cases(RMS_SPEC))
def test_rms_norm_lowers_to_cuda(shape, dtype):
    source = rms_norm_source(shape.dims[1], dtype)
    assert "rms_norm_kernel_kernel(" in source
    assert "rsqrtf(" in source


def test_half_precision_loads_are_vectorised_to_16_bytes():
    # 8 bf16 per load: the kernels should not fall back to scalar loads on aligned shapes.
    assert "uint4" in rms_norm_source(4096, torch.bfloat16)


@pytest.mark.parametrize("key", sorted(rope_tl.SEARCH_SPACE))
def test_rope_config_values_are_in_the_search_space(key):
    assert rope_tl.CONFIG[key] in rope_tl.SEARCH_SPACE[key]


@pytest.mark.parametrize("key", sorted(rms_norm_tl.SEARCH_SPACE))
def test_rms_norm_config_values_are_in_the_search_space(key):
    assert rms_norm_tl.CONFIG[key] in rms_norm_tl.SEARCH_SPACE[key]


def test_tilelang_kernels_refuse_cpu_tensors_with_a_clear_error():
    x, sin, cos = ROPE_SPEC.make_inputs((1, 4, 2, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rope_tl.rope(x, sin, cos)
    x, w, eps = RMS_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rms_norm_tl.rms_norm(x, w, eps)
