"""The RoPE spec: reference numerics against Hugging Face's formulas, shapes, tolerances, validation."""

from __future__ import annotations

import pytest
import torch

from tests.kernels.numerics import ulp
from workbench.kernels.rope.spec import SPEC, check_inputs, inv_freq, reference, rope_tables
from workbench.kernels.spec import compare

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def hf_rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def hf_rope(x: torch.Tensor, positions: torch.Tensor, theta: float = 500000.0) -> torch.Tensor:
    """transformers' LlamaRotaryEmbedding + apply_rotary_pos_emb, for x laid out [b, s, h, d]."""
    head_dim = x.shape[-1]
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    freqs = (inv[:, None].float() @ positions[None, :].float()).transpose(0, 1)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos = emb.cos().to(x.dtype)[None, :, None, :]
    sin = emb.sin().to(x.dtype)[None, :, None, :]
    return (x * cos) + (hf_rotate_half(x) * sin)


def test_tables_are_the_fp32_outer_product_of_positions_and_inv_freq():
    sin, cos = rope_tables(torch.arange(5, 9), 64)
    expected = torch.outer(torch.arange(5, 9).float(), inv_freq(64))
    assert sin.dtype == cos.dtype == torch.float32
    torch.testing.assert_close(sin, expected.sin(), rtol=0, atol=0)
    assert inv_freq(64)[1].item() == pytest.approx(500000.0 ** (-2 / 64))


def test_reference_matches_hugging_face_in_fp32():
    x = torch.randn(2, 11, 4, 64)
    positions = torch.arange(100, 111)
    sin, cos = rope_tables(positions, 64)
    torch.testing.assert_close(reference(x, sin, cos), hf_rope(x, positions), rtol=1e-6, atol=1e-6)


def test_hugging_face_bf16_differs_only_by_its_extra_roundings():
    """HF rounds cos, sin, both products and the sum to bf16; the reference rounds once.

    Each of HF's roundings is at most half an ulp of an operand, so its error is
    bounded by a few ulp of |x1*cos| + |x2*sin|, not of the (possibly cancelled) result.
    """
    x = torch.randn(1, 64, 8, 128).to(torch.bfloat16)
    positions = torch.arange(0, 64) + 3000
    sin, cos = rope_tables(positions, 128)
    ref = reference(x, sin, cos)
    hf = hf_rope(x, positions).float()
    half = 64
    xf = x.float()
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    x1, x2 = xf[..., :half], xf[..., half:]
    magnitude = torch.cat(((x1 * c).abs() + (x2 * s).abs(), (x2 * c).abs() + (x1 * s).abs()), dim=-1)
    assert bool(((hf - ref).abs() <= 2 * ulp(magnitude, torch.bfloat16)).all())
    # ... and that is more than a fused kernel may be off: HF itself would not pass the spec.
    assert not compare(hf, ref, SPEC.tolerances[torch.bfloat16]).ok


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_identity_rotation_at_position_zero_is_exact(dtype):
    x = torch.randn(2, 3, 5, 64).to(dtype)
    sin = torch.zeros(3, 32)
    cos = torch.ones(3, 32)
    assert torch.equal(SPEC.expected((x, sin, cos), dtype), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_quarter_turn_maps_x1_x2_to_minus_x2_x1_exactly(dtype):
    x = torch.randn(1, 4, 3, 128).to(dtype)
    sin = torch.ones(4, 64)
    cos = torch.zeros(4, 64)
    out = SPEC.expected((x, sin, cos), dtype)
    assert torch.equal(out, torch.cat((-x[..., 64:], x[..., :64]), dim=-1))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=str)
def test_tolerance_admits_one_rounding_and_rejects_four_ulp(dtype):
    x, sin, cos = SPEC.make_inputs((1, 32, 8, 64), dtype, seed=1, device="cpu")
    ref = reference(x, sin, cos)
    assert compare(ref.to(dtype), ref, SPEC.tolerances[dtype]).ok
    off = ref + 4 * ulp(ref, dtype)
    result = compare(off, ref, SPEC.tolerances[dtype])
    assert not result.ok and result.first_bad_index is not None


def test_named_shapes_cover_both_models_prefill_and_decode_for_q_and_k():
    names = {s.name for s in SPEC.shapes}
    assert "llama3.2-1b/prefill512/q" in names
    assert SPEC.shape("llama3-8b/prefill16384/k").dims == (1, 16384, 8, 128)
    assert SPEC.shape("llama3-8b/decode128/q").dims == (128, 1, 32, 128)
    assert len(SPEC.shapes) == 2 * (4 + 4) * 2
    assert SPEC.shape("llama3-8b/decode1/k").decode
    assert not any(s.name in names for s in SPEC.hidden_shapes)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_the_reference_reads_the_first_seq_rows_of_model_dtype_tables(dtype):
    """The camp's Llama builds its tables in the model dtype and slices [:seq] from longer ones."""
    x = torch.randn(2, 5, 3, 64)
    sin, cos = rope_tables(torch.arange(40), 64)
    short = reference(x, sin[:5].to(dtype), cos[:5].to(dtype))
    assert torch.equal(reference(x, sin.to(dtype), cos.to(dtype)), short)
    assert torch.equal(short, reference(x, sin[:5].to(dtype).float(), cos[:5].to(dtype).float()))


def test_bytes_moved_counts_x_out_and_both_tables_once():
    dims = (1, 2048, 32, 128)
    assert SPEC.bytes_moved(dims, torch.bfloat16) == 2 * 2048 * 32 * 128 * 2 + 2 * 2048 * 64 * 4


def test_make_inputs_is_fresh_per_seed_and_reproducible():
    a = SPEC.make_inputs((1, 8, 2, 64), torch.bfloat16, seed=1)
    b = SPEC.make_inputs((1, 8, 2, 64), torch.bfloat16, seed=1)
    c = SPEC.make_inputs((1, 8, 2, 64), torch.bfloat16, seed=2)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert not torch.equal(a[0], c[0]) and not torch.equal(a[1], c[1])


class TestValidation:
    def args(self, **over):
        x = torch.randn(1, 4, 2, 64)
        sin, cos = rope_tables(torch.arange(4), 64)
        values = {"x": x, "sin": sin, "cos": cos}
        values.update(over)
        return values

    def test_non_tensor_is_a_type_error(self):
        with pytest.raises(TypeError, match=r"x must be a torch\.Tensor"):
            check_inputs(**self.args(x=[1, 2]), require_gpu=False)

    def test_wrong_rank_names_the_expected_layout(self):
        with pytest.raises(ValueError, match=r"\[batch, seq, heads, head_dim\]"):
            check_inputs(**self.args(x=torch.randn(4, 2, 64)), require_gpu=False)

    def test_odd_head_dim(self):
        with pytest.raises(ValueError, match="even"):
            check_inputs(**self.args(x=torch.randn(1, 4, 2, 63)), require_gpu=False)

    def test_table_shape(self):
        with pytest.raises(ValueError, match=r"sin must be \[seq, head_dim // 2\]"):
            check_inputs(**self.args(sin=torch.zeros(3, 32)), require_gpu=False)  # fewer rows than seq
        with pytest.raises(ValueError, match=r"cos must be \[seq, head_dim // 2\]"):
            check_inputs(**self.args(cos=torch.zeros(4, 30)), require_gpu=False)

    def test_longer_tables_and_model_dtype_tables_are_accepted(self):
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            tables = {"sin": torch.zeros(9, 32, dtype=dtype), "cos": torch.ones(9, 32, dtype=dtype)}
            check_inputs(**self.args(**tables), require_gpu=False)

    def test_table_dtype(self):
        with pytest.raises(ValueError, match=r"cos has dtype torch\.float64"):
            check_inputs(**self.args(cos=torch.zeros(4, 32, dtype=torch.float64)), require_gpu=False)
        with pytest.raises(ValueError, match="one shape and dtype"):
            check_inputs(**self.args(cos=torch.zeros(4, 32, dtype=torch.float16)), require_gpu=False)

    def test_unsupported_dtype(self):
        with pytest.raises(ValueError, match="supported"):
            check_inputs(**self.args(x=torch.zeros(1, 4, 2, 64, dtype=torch.float64)), require_gpu=False)

    def test_non_contiguous_is_rejected_with_the_fix(self):
        x = torch.randn(1, 2, 4, 64).transpose(1, 2)
        with pytest.raises(ValueError, match=r"x\.contiguous\(\)"):
            check_inputs(**self.args(x=x), require_gpu=False)

    def test_cpu_tensor_for_a_gpu_kernel(self):
        with pytest.raises(ValueError, match="runs on a GPU"):
            check_inputs(**self.args())

    def test_out_must_match(self):
        with pytest.raises(ValueError, match="out must match"):
            check_inputs(**self.args(), out=torch.empty(1, 4, 2, 32), require_gpu=False)
