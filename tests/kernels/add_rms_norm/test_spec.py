"""The add_rms_norm spec: the exact rounded sum, the normalised output against Hugging Face, validation."""

from __future__ import annotations

import pytest
import torch

from tests.kernels.numerics import ulp, ulps_off
from workbench.kernels import registry
from workbench.kernels.add_rms_norm.spec import SPEC, check_inputs, reference
from workbench.kernels.spec import compare

HALF = [torch.bfloat16, torch.float16]


def hf_llama_add_rms_norm(x, residual, weight, eps):
    """A Llama decoder layer's `hidden_states = residual + hidden_states` then LlamaRMSNorm.forward."""
    hidden_states = residual + x  # in the model dtype: the residual stream is stored rounded
    input_dtype = hidden_states.dtype
    h = hidden_states.to(torch.float32)
    variance = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(variance + eps)
    return hidden_states, weight * h.to(input_dtype)


@pytest.mark.parametrize("dtype", [*HALF, torch.float32], ids=str)
def test_sum_is_exactly_the_rounded_add(dtype):
    x, residual, weight, eps = SPEC.make_inputs((32, 2048), dtype, seed=0)
    summed, _ = SPEC.expected((x, residual, weight, eps), dtype)
    hf_sum, _ = hf_llama_add_rms_norm(x, residual, weight, eps)
    assert torch.equal(summed, hf_sum)
    assert torch.equal(reference(x, residual, weight, eps)[0], (x + residual).float())


def test_normed_reads_the_rounded_sum_not_the_fp32_one():
    # 1 + 2^-9 is exact in fp32 but rounds to 1 in bf16: normalising the fp32 sum would see it.
    x = torch.tensor([[1.0, 1.0]], dtype=torch.bfloat16)
    residual = torch.tensor([[2**-9, 0.0]], dtype=torch.bfloat16)
    summed, normed = reference(x, residual, torch.ones(2, dtype=torch.bfloat16), 1e-5)
    assert summed.tolist() == [[1.0, 1.0]]
    assert normed[0, 0].item() == normed[0, 1].item()


def test_reference_matches_hugging_face_in_fp32():
    args = SPEC.make_inputs((7, 2048), torch.float32, seed=0)
    for ours, hf in zip(reference(*args), hf_llama_add_rms_norm(*args), strict=True):
        torch.testing.assert_close(ours, hf)


@pytest.mark.parametrize("dtype", HALF, ids=str)
def test_hugging_face_is_within_tolerance_and_two_ulp_of_the_single_rounding(dtype):
    """HF rounds the normalised sum, then its product with the weight: two roundings, not one."""
    args = SPEC.make_inputs((64, 4096), dtype, seed=3)
    hf_sum, hf_normed = hf_llama_add_rms_norm(*args)
    _, ref = reference(*args)
    assert float(ulps_off(hf_normed, ref, dtype).max()) <= 2.0
    assert SPEC.compare((hf_sum, hf_normed), args, dtype).ok


@pytest.mark.parametrize("dtype", HALF, ids=str)
def test_tolerance_admits_one_rounding_and_rejects_four_ulp(dtype):
    args = SPEC.make_inputs((16, 2048), dtype, seed=1)
    summed, normed = reference(*args)
    tolerance = SPEC.tolerance(dtype, "normed")
    assert compare(normed.to(dtype), normed, tolerance).ok
    assert not compare(normed - 4 * ulp(normed, dtype), normed, tolerance).ok
    assert SPEC.compare((summed.to(dtype), normed.to(dtype)), args, dtype).ok


@pytest.mark.parametrize("dtype", HALF, ids=str)
def test_sum_tolerance_is_exact(dtype):
    args = SPEC.make_inputs((16, 2048), dtype, seed=2)
    summed, normed = SPEC.expected(args, dtype)
    off = summed.clone()
    off[3, 7] = (off[3, 7].float() + ulp(off[3, 7].float(), dtype)).to(dtype)  # one ulp up
    assert off[3, 7] != summed[3, 7]
    result = SPEC.compare((off, normed), args, dtype)
    assert not result.ok and result.first_bad_index == (3, 7)
    assert "output `sum`" in result.message and "output `normed`" not in result.message


def test_a_missing_or_unwritten_output_fails_with_its_name():
    args = SPEC.make_inputs((4, 64), torch.float32, seed=0)
    summed, normed = SPEC.expected(args, torch.float32)
    result = SPEC.compare((summed, torch.full_like(normed, float("nan"))), args, torch.float32)
    assert not result.ok and result.nonfinite == normed.numel()
    assert result.message.startswith("output `normed`: 256 NaN/Inf")
    assert "expected a tuple of them, got a Tensor" in SPEC.compare(normed, args, torch.float32).message
    assert "got a tuple of 1" in SPEC.compare((normed,), args, torch.float32).message


def test_out_buffers_and_returned_out():
    args = SPEC.make_inputs((3, 16), torch.bfloat16, seed=0)
    out = SPEC.empty_out(args, fill=float("nan"))
    assert isinstance(out, tuple) and len(out) == 2 and all(o.isnan().all() for o in out)
    assert SPEC.returned_out(out, out) and SPEC.returned_out(list(out), out)
    assert not SPEC.returned_out(out[0], out)
    assert not SPEC.returned_out((out[0], out[0].clone()), out)


def test_torch_implementation_writes_both_outputs():
    args = SPEC.make_inputs((5, 1000), torch.bfloat16, seed=4)
    out = SPEC.empty_out(args, fill=float("nan"))
    result = registry.torch_implementation("add_rms_norm")(*args, out=out)
    assert result is out and SPEC.compare(result, args, torch.bfloat16).ok
    allocated = registry.torch_implementation("add_rms_norm")(*args)
    assert isinstance(allocated, tuple) and SPEC.compare(allocated, args, torch.bfloat16).ok


def test_named_shapes():
    names = {s.name for s in SPEC.shapes}
    assert SPEC.shape("llama3-8b/prefill32768").dims == (32768, 4096)
    assert SPEC.shape("llama3.2-1b/decode8").dims == (8, 2048)
    assert SPEC.shape("llama3.2-1b/prefill512").dims == (512, 2048)
    assert len(names) == 2 * (5 + 4)
    assert any(dims[1] % 256 for dims in (s.dims for s in SPEC.hidden_shapes))


def test_bytes_moved():
    # x, residual read; sum, normed written; the weight read once.
    assert SPEC.bytes_moved((16384, 4096), torch.bfloat16) == (4 * 16384 * 4096 + 4096) * 2


def test_inputs_are_seeded_and_drawn_on_the_device():
    first = SPEC.make_inputs((4, 64), torch.bfloat16, seed=5, device="cpu")
    again = SPEC.make_inputs((4, 64), torch.bfloat16, seed=5, device="cpu")
    other = SPEC.make_inputs((4, 64), torch.bfloat16, seed=6, device="cpu")
    assert all(torch.equal(a, b) for a, b in zip(first[:3], again[:3], strict=True))
    assert not torch.equal(first[0], other[0]) and not torch.equal(first[0], first[1])
    assert first[3] == 1e-5


class TestValidation:
    def args(self, rows=2, hidden=8, dtype=torch.float32):
        return (
            torch.randn(rows, hidden, dtype=dtype),
            torch.randn(rows, hidden, dtype=dtype),
            torch.ones(hidden, dtype=dtype),
        )

    def test_residual_shape_and_dtype(self):
        x, residual, weight = self.args()
        with pytest.raises(ValueError, match="residual must have x's shape"):
            check_inputs(x, residual[:1], weight, 1e-5, require_gpu=False)
        with pytest.raises(ValueError, match=r"residual has dtype torch\.bfloat16"):
            check_inputs(x, residual.bfloat16(), weight, 1e-5, require_gpu=False)

    def test_weight_shape_and_dtype(self):
        x, residual, weight = self.args()
        with pytest.raises(ValueError, match=r"weight must be \[hidden\]"):
            check_inputs(x, residual, weight[:7], 1e-5, require_gpu=False)
        with pytest.raises(ValueError, match="cast one of them"):
            check_inputs(x, residual, weight.half(), 1e-5, require_gpu=False)

    def test_eps_type_and_sign(self):
        x, residual, weight = self.args()
        with pytest.raises(TypeError, match="eps must be a float"):
            check_inputs(x, residual, weight, "1e-5", require_gpu=False)
        with pytest.raises(ValueError, match="positive"):
            check_inputs(x, residual, weight, 0.0, require_gpu=False)

    def test_non_contiguous(self):
        x, residual, weight = self.args(rows=8, hidden=8)
        with pytest.raises(ValueError, match="residual is not contiguous"):
            check_inputs(x, residual.t(), weight, 1e-5, require_gpu=False)

    def test_out_must_be_a_pair_of_matching_separate_buffers(self):
        x, residual, weight = self.args()
        with pytest.raises(TypeError, match=r"out must be a \(sum, normed\) pair"):
            check_inputs(x, residual, weight, 1e-5, torch.empty_like(x), require_gpu=False)
        with pytest.raises(ValueError, match=r"out\[1\] \(normed\) must match x"):
            check_inputs(x, residual, weight, 1e-5, (torch.empty_like(x), torch.empty(2, 9)), require_gpu=False)
        same = torch.empty_like(x)
        with pytest.raises(ValueError, match="same memory"):
            check_inputs(x, residual, weight, 1e-5, (same, same), require_gpu=False)
        check_inputs(x, residual, weight, 1e-5, (torch.empty_like(x), torch.empty_like(x)), require_gpu=False)

    def test_gpu_required(self):
        with pytest.raises(ValueError, match="runs on a GPU"):
            check_inputs(*self.args(), 1e-5)
