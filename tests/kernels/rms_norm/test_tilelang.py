"""rms_norm's TileLang kernel on a GPU, and its lowering to CUDA source on the CPU.

TileLang's C target cannot lower reductions over fragments, so this kernel runs on a GPU only
(see tests/kernels/tilelang_devices.py).
"""

from __future__ import annotations

import functools

import pytest
import torch

import workbench.kernels.rms_norm.tilelang as rms_norm_tl
from tests.kernels.gpu_checks import cases, check
from tests.kernels.lowering import lowering_cases
from workbench.kernels.rms_norm.spec import SPEC as RMS_SPEC
from workbench.kernels.tilelang_support import access_widths, lower_to_source

pytest.importorskip("tilelang")


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(RMS_SPEC))
def test_matches_the_reference_on_a_gpu(shape, dtype):
    check(RMS_SPEC, rms_norm_tl.rms_norm, shape, dtype)


@pytest.mark.gpu
def test_empty_inputs_return_empty_outputs():
    x, w, eps = RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert rms_norm_tl.rms_norm(x, w, eps).shape == (0, 2048)


@pytest.mark.gpu
def test_rms_norm_accepts_leading_batch_dims():
    x, w, eps = RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    out = rms_norm_tl.rms_norm(x.view(2, 3, 2048), w, eps)
    assert out.shape == (2, 3, 2048)
    assert RMS_SPEC.compare(out.view(6, 2048), (x, w, eps), torch.bfloat16).ok


# ---------------------------------------------------------------------------------------------- lowering


@functools.cache
def rms_norm_source(hidden: int, dtype: str) -> str:
    return lower_to_source(rms_norm_tl.build(hidden, dtype, **rms_norm_tl.CONFIG))


@pytest.mark.parametrize(("shape", "dtype"), lowering_cases(RMS_SPEC, lambda shape: shape.dims[1]))
def test_rms_norm_lowers_to_cuda(shape, dtype):
    source = rms_norm_source(shape.dims[1], dtype)
    assert "rms_norm_kernel_kernel(" in source
    assert "rsqrtf(" in source


def test_half_precision_loads_are_vectorised_to_16_bytes():
    # 8 bf16 per load: the kernels should not fall back to scalar loads on aligned shapes.
    assert "uint4" in rms_norm_source(4096, torch.bfloat16)


@pytest.mark.parametrize("hidden", [2048, 4096])
def test_moves_16_bytes_per_bf16_access(hidden):
    rms = rms_norm_source(hidden, torch.bfloat16)
    assert all(access_widths(rms, b) == {"uint4"} for b in ("X", "W", "Out"))


@pytest.mark.parametrize("key", sorted(rms_norm_tl.SEARCH_SPACE))
def test_rms_norm_config_values_are_in_the_search_space(key):
    assert rms_norm_tl.CONFIG[key] in rms_norm_tl.SEARCH_SPACE[key]


def test_refuses_cpu_tensors_with_a_clear_error():
    x, w, eps = RMS_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rms_norm_tl.rms_norm(x, w, eps)
