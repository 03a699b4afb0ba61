"""The RMSNorm spec: reference numerics against Hugging Face's LlamaRMSNorm, tolerances, validation."""

from __future__ import annotations

import pytest
import torch

from tests.kernels.numerics import ulp, ulps_off
from workbench.kernels.rms_norm.spec import SPEC, check_inputs, reference
from workbench.kernels.spec import compare


def hf_llama_rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """transformers' LlamaRMSNorm.forward."""
    input_dtype = x.dtype
    hidden = x.to(torch.float32)
    variance = hidden.pow(2).mean(-1, keepdim=True)
    hidden = hidden * torch.rsqrt(variance + eps)
    return weight * hidden.to(input_dtype)


def test_reference_matches_hugging_face_in_fp32():
    x, weight, eps = SPEC.make_inputs((7, 2048), torch.float32, seed=0)
    torch.testing.assert_close(reference(x, weight, eps), hf_llama_rms_norm(x, weight, eps))


def test_eps_is_inside_the_rsqrt():
    x = torch.zeros(1, 8)
    x[0, 0] = 1e-3
    out = reference(x, torch.ones(8), 1.0)
    assert out[0, 0].item() == pytest.approx(1e-3 / (1e-6 / 8 + 1.0) ** 0.5)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_hugging_face_is_within_two_ulp_of_the_single_rounding(dtype):
    """HF rounds the normalised x, then the product with the weight: two roundings, not one."""
    x, weight, eps = SPEC.make_inputs((64, 4096), dtype, seed=3)
    ref = reference(x, weight, eps)
    assert float(ulps_off(hf_llama_rms_norm(x, weight, eps), ref, dtype).max()) <= 2.0


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_tolerance_admits_one_rounding_and_rejects_four_ulp(dtype):
    x, weight, eps = SPEC.make_inputs((16, 2048), dtype, seed=1)
    ref = reference(x, weight, eps)
    assert compare(ref.to(dtype), ref, SPEC.tolerances[dtype]).ok
    assert not compare(ref - 4 * ulp(ref, dtype), ref, SPEC.tolerances[dtype]).ok


def test_nan_in_output_fails_even_where_the_reference_is_nan_free():
    x, weight, eps = SPEC.make_inputs((4, 64), torch.float32, seed=0)
    out = reference(x, weight, eps)
    out[2, 5] = float("nan")
    result = compare(out, reference(x, weight, eps), SPEC.tolerances[torch.float32])
    assert not result.ok and result.nonfinite == 1 and result.first_bad_index == (2, 5)


def test_named_shapes():
    names = {s.name for s in SPEC.shapes}
    assert SPEC.shape("llama3-8b/prefill32768").dims == (32768, 4096)
    assert SPEC.shape("llama3.2-1b/decode8").dims == (8, 2048)
    assert len(names) == 2 * (5 + 4)
    assert any(dims[1] % 256 for dims in (s.dims for s in SPEC.hidden_shapes))


def test_bytes_moved():
    assert SPEC.bytes_moved((16384, 4096), torch.bfloat16) == (2 * 16384 * 4096 + 4096) * 2


class TestValidation:
    def test_weight_shape(self):
        with pytest.raises(ValueError, match=r"weight must be \[hidden\]"):
            check_inputs(torch.randn(2, 8), torch.ones(7), 1e-5, require_gpu=False)

    def test_weight_dtype_must_match(self):
        with pytest.raises(ValueError, match="cast one of them"):
            check_inputs(torch.randn(2, 8), torch.ones(8, dtype=torch.bfloat16), 1e-5, require_gpu=False)

    def test_eps_type_and_sign(self):
        with pytest.raises(TypeError, match="eps must be a float"):
            check_inputs(torch.randn(2, 8), torch.ones(8), "1e-5", require_gpu=False)
        with pytest.raises(ValueError, match="positive"):
            check_inputs(torch.randn(2, 8), torch.ones(8), 0.0, require_gpu=False)

    def test_non_contiguous(self):
        with pytest.raises(ValueError, match="contiguous"):
            check_inputs(torch.randn(8, 4).t(), torch.ones(8), 1e-5, require_gpu=False)

    def test_gpu_required(self):
        with pytest.raises(ValueError, match="runs on a GPU"):
            check_inputs(torch.randn(2, 8), torch.ones(8), 1e-5)
