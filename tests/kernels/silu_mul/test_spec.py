"""The silu_mul (SwiGLU) spec: reference numerics against torch's silu, tolerances, validation, the catalogue."""

from __future__ import annotations

import random

import pytest
import torch
import torch.nn.functional as F

from tests.kernels.numerics import ulp, ulps_off
from workbench.kernels import registry
from workbench.kernels.silu_mul.spec import SPEC, check_inputs, reference
from workbench.kernels.spec import compare


def torch_silu_mul(x: torch.Tensor) -> torch.Tensor:
    """The plain formula in fp32, rounded once: what the spec's reference must agree with."""
    gate, up = x.chunk(2, dim=-1)
    return (F.silu(gate.float()) * up.float()).to(x.dtype)


def hf_llama_mlp_activation(x: torch.Tensor) -> torch.Tensor:
    """transformers' LlamaMLP between the projections: act_fn(gate) * up, each op in the input dtype."""
    gate, up = x.chunk(2, dim=-1)
    return F.silu(gate) * up


@pytest.mark.parametrize("dtype", SPEC.dtypes, ids=str)
def test_reference_rounded_once_is_the_plain_torch_formula(dtype):
    """F.silu and g * sigmoid(g) differ by a few fp32 ulp, so the results rounded to bf16/fp16 by one ulp, rarely."""
    (x,) = SPEC.make_inputs((13, 2 * 1000), dtype, seed=0)
    expected = SPEC.expected((x,), dtype)
    assert expected.dtype == dtype and expected.shape == (13, 1000)
    plain = torch_silu_mul(x)
    if dtype == torch.float32:
        assert float(ulps_off(plain, expected, dtype).max()) <= 4.0
    else:
        assert float(ulps_off(plain, expected.float(), dtype).max()) <= 1.0
        assert float((plain != expected).float().mean()) < 0.01
    assert compare(plain, reference(x), SPEC.tolerances[dtype]).ok


def test_reference_keeps_leading_dims_and_splits_gate_then_up():
    x = torch.zeros(2, 3, 8)
    x[..., :4] = 1.0  # gate
    x[..., 4:] = torch.arange(4.0)  # up
    out = reference(x)
    assert out.shape == (2, 3, 4)
    silu_one = 1.0 / (1.0 + torch.exp(torch.tensor(-1.0)))
    torch.testing.assert_close(out[1, 2], silu_one * torch.arange(4.0))


def test_reference_is_finite_in_the_sigmoids_tails():
    x = torch.tensor([[-100.0, 100.0, 0.0, 2.0, 3.0, 5.0]])
    out = reference(x)
    assert bool(torch.isfinite(out).all())
    assert out[0, 0].abs() < 1e-30 and out[0, 1] == pytest.approx(300.0) and out[0, 2] == 0.0


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_hugging_face_is_within_two_ulp_of_the_single_rounding(dtype):
    """HF rounds silu(gate), then the product with up: two roundings, not one."""
    (x,) = SPEC.make_inputs((64, 2 * 4096), dtype, seed=3)
    ref = reference(x)
    assert float(ulps_off(hf_llama_mlp_activation(x), ref, dtype).max()) <= 2.0


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_tolerance_admits_one_rounding_and_rejects_four_ulp(dtype):
    (x,) = SPEC.make_inputs((16, 2 * 2048), dtype, seed=1)
    ref = reference(x)
    assert compare(ref.to(dtype), ref, SPEC.tolerances[dtype]).ok
    assert not compare(ref - 4 * ulp(ref, dtype), ref, SPEC.tolerances[dtype]).ok


def test_fp32_tolerance_rejects_a_bf16_computation():
    (x,) = SPEC.make_inputs((16, 2 * 2048), torch.float32, seed=2)
    ref = reference(x)
    assert compare(ref, ref, SPEC.tolerances[torch.float32]).ok
    assert not compare(ref.to(torch.bfloat16).float(), ref, SPEC.tolerances[torch.float32]).ok


def test_nan_in_output_fails():
    (x,) = SPEC.make_inputs((4, 64), torch.float32, seed=0)
    out = reference(x)
    out[2, 5] = float("nan")
    result = compare(out, reference(x), SPEC.tolerances[torch.float32])
    assert not result.ok and result.nonfinite == 1 and result.first_bad_index == (2, 5)


def test_inputs_are_seeded_and_exercise_the_sigmoids_tails():
    (a,) = SPEC.make_inputs((64, 2 * 1024), torch.float32, seed=5)
    (b,) = SPEC.make_inputs((64, 2 * 1024), torch.float32, seed=5)
    (c,) = SPEC.make_inputs((64, 2 * 1024), torch.float32, seed=6)
    assert torch.equal(a, b) and not torch.equal(a, c)
    gate = a[:, :1024]
    assert bool((gate < -6).any()) and bool((gate > 6).any())


def test_named_shapes():
    names = {s.name for s in SPEC.shapes}
    assert len(names) == len(SPEC.shapes) == 2 * (4 + 4)
    assert SPEC.shape("llama3.2-1b/prefill512").dims == (512, 2 * 8192)
    assert SPEC.shape("llama3-8b/prefill16384").dims == (16384, 2 * 14336)
    assert SPEC.shape("llama3-8b/decode1").dims == (1, 2 * 14336)
    assert SPEC.shape("llama3.2-1b/decode128").dims == (128, 2 * 8192)
    assert SPEC.shape("llama3-8b/decode8").decode and not SPEC.shape("llama3-8b/prefill512").decode
    intermediates = {s.dims[1] // 2 for s in SPEC.hidden_shapes}
    assert any(i % 2 for i in intermediates)  # an odd I: the up half is never aligned
    assert any(i % 256 for i in intermediates)


def test_random_hidden_shape_is_even_and_varies():
    rng = random.Random(0)
    drawn = [SPEC.random_hidden_shape(rng) for _ in range(20)]
    assert all(s.name == "hidden/random" and s.dims[1] % 2 == 0 for s in drawn)
    assert len({s.dims for s in drawn}) > 10


def test_bytes_moved_reads_2i_and_writes_i_per_token():
    assert SPEC.bytes_moved((16384, 2 * 14336), torch.bfloat16) == (16384 * 2 * 14336 + 16384 * 14336) * 2
    assert SPEC.bytes_moved((1, 2 * 8192), torch.float32) == 3 * 8192 * 4


def test_empty_output_has_half_the_last_dim():
    (x,) = SPEC.make_inputs((3, 2 * 100), torch.float16, seed=0)
    out = SPEC.empty_output((x,))
    assert out.shape == (3, 100) and out.dtype == torch.float16 and out.device == x.device


def test_torch_backend_writes_into_out_and_allocates():
    (x,) = SPEC.make_inputs((5, 2 * 300), torch.bfloat16, seed=0)
    op = registry.torch_implementation("silu_mul")
    out = torch.full((5, 300), float("nan"), dtype=torch.bfloat16)
    assert op(x, out=out) is out and not out.isnan().any()
    torch.testing.assert_close(op(x), torch_silu_mul(x), rtol=0, atol=0)
    assert op(x[:0]).shape == (0, 300)


class TestValidation:
    def test_odd_last_dim(self):
        with pytest.raises(ValueError, match="last dim must be even"):
            check_inputs(torch.randn(2, 7), require_gpu=False)

    def test_scalar(self):
        with pytest.raises(ValueError, match="at least one dimension"):
            check_inputs(torch.tensor(1.0), require_gpu=False)

    def test_not_a_tensor(self):
        with pytest.raises(TypeError, match=r"x must be a torch\.Tensor"):
            check_inputs([[1.0, 2.0]], require_gpu=False)

    def test_dtype(self):
        with pytest.raises(ValueError, match=r"dtype torch\.float64"):
            check_inputs(torch.randn(2, 8, dtype=torch.float64), require_gpu=False)

    def test_non_contiguous(self):
        with pytest.raises(ValueError, match="not contiguous"):
            check_inputs(torch.randn(8, 4).t(), require_gpu=False)

    def test_out_shape(self):
        with pytest.raises(ValueError, match=r"out must match the result: shape \(2, 4\)"):
            check_inputs(torch.randn(2, 8), torch.empty(2, 8), require_gpu=False)

    def test_out_dtype(self):
        with pytest.raises(ValueError, match="out must match"):
            check_inputs(torch.randn(2, 8), torch.empty(2, 4, dtype=torch.float16), require_gpu=False)

    def test_out_non_contiguous(self):
        with pytest.raises(ValueError, match="out is not contiguous"):
            check_inputs(torch.randn(4, 8), torch.empty(4, 4).t(), require_gpu=False)

    def test_gpu_required(self):
        with pytest.raises(ValueError, match="runs on a GPU"):
            check_inputs(torch.randn(2, 8))

    def test_a_good_call_passes(self):
        check_inputs(torch.randn(2, 3, 8), torch.empty(2, 3, 4), require_gpu=False)


@pytest.mark.parametrize("backend", ["tilelang", "ninetoothed"])
def test_config_values_are_in_the_search_space(backend):
    import importlib

    module = importlib.import_module(f"workbench.kernels.silu_mul.{backend}")
    assert set(module.CONFIG) == set(module.SEARCH_SPACE)
    for key, value in module.CONFIG.items():
        assert value in module.SEARCH_SPACE[key]
