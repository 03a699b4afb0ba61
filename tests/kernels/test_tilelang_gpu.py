"""TileLang kernels on a GPU: every op x dtype x shape (named and hidden) against the reference."""

from __future__ import annotations

import pytest
import torch

from kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC
from kernels.rms_norm.spec import SPEC as RMS_SPEC
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.silu_mul.spec import SPEC as SILU_SPEC
from tests.kernels.gpu_checks import cases, check

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_rope(shape, dtype):
    from kernels.rope.tilelang import rope

    check(ROPE_SPEC, rope, shape, dtype)


@pytest.mark.parametrize(("shape", "dtype"), cases(RMS_SPEC))
def test_rms_norm(shape, dtype):
    from kernels.rms_norm.tilelang import rms_norm

    check(RMS_SPEC, rms_norm, shape, dtype)


def test_empty_inputs_return_empty_outputs():
    from kernels.rms_norm.tilelang import rms_norm
    from kernels.rope.tilelang import rope

    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), torch.bfloat16, 0, "cuda")
    assert rope(x, sin, cos).shape == (1, 0, 8, 64)
    x, w, eps = RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert rms_norm(x, w, eps).shape == (0, 2048)


def test_allocates_output_when_none_given():
    from kernels.rope.tilelang import rope

    args = ROPE_SPEC.make_inputs((2, 9, 3, 64), torch.float16, 1, "cuda")
    assert ROPE_SPEC.compare(rope(*args), args, torch.float16).ok


def test_rms_norm_accepts_leading_batch_dims():
    from kernels.rms_norm.tilelang import rms_norm

    x, w, eps = RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    out = rms_norm(x.view(2, 3, 2048), w, eps)
    assert out.shape == (2, 3, 2048)
    assert RMS_SPEC.compare(out.view(6, 2048), (x, w, eps), torch.bfloat16).ok


@pytest.mark.parametrize(("shape", "dtype"), cases(ADD_RMS_SPEC))
def test_add_rms_norm(shape, dtype):
    from kernels.add_rms_norm.tilelang import add_rms_norm

    check(ADD_RMS_SPEC, add_rms_norm, shape, dtype)


def test_add_rms_norm_sum_is_bitwise_the_rounded_add():
    from kernels.add_rms_norm.tilelang import add_rms_norm

    for dtype in ADD_RMS_SPEC.dtypes:
        args = ADD_RMS_SPEC.make_inputs((64, 4096), dtype, 3, "cuda")
        summed, _ = add_rms_norm(*args)
        assert torch.equal(summed, args[0] + args[1]), dtype


def test_add_rms_norm_empty_allocating_and_leading_dims():
    from kernels.add_rms_norm.tilelang import add_rms_norm

    x, residual, w, eps = ADD_RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in add_rms_norm(x, residual, w, eps)] == [(0, 2048), (0, 2048)]
    args = ADD_RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    x, residual, w, eps = args
    summed, normed = add_rms_norm(x.view(2, 3, 2048), residual.view(2, 3, 2048), w, eps)
    assert summed.shape == normed.shape == (2, 3, 2048)
    assert ADD_RMS_SPEC.compare((summed.view(6, 2048), normed.view(6, 2048)), args, torch.bfloat16).ok


@pytest.mark.parametrize(("shape", "dtype"), cases(SILU_SPEC))
def test_silu_mul(shape, dtype):
    from kernels.silu_mul.tilelang import silu_mul

    check(SILU_SPEC, silu_mul, shape, dtype)


def test_silu_mul_empty_allocating_and_leading_dims():
    from kernels.silu_mul.tilelang import silu_mul

    (x,) = SILU_SPEC.make_inputs((0, 2 * 8192), torch.bfloat16, 0, "cuda")
    assert silu_mul(x).shape == (0, 8192)
    (x,) = SILU_SPEC.make_inputs((6, 2 * 1000), torch.float16, 1, "cuda")
    assert SILU_SPEC.compare(silu_mul(x), (x,), torch.float16).ok
    out = silu_mul(x.view(2, 3, 2000))
    assert out.shape == (2, 3, 1000)
    assert SILU_SPEC.compare(out.view(6, 1000), (x,), torch.float16).ok


def test_silu_mul_small_tiles_on_ragged_shapes(monkeypatch: pytest.MonkeyPatch):
    from kernels.silu_mul import tilelang as module

    # Partial tiles in both dims: 17 and 3 rows in tiles of 4, I = 1000 and 4097 in tiles of 256.
    monkeypatch.setitem(module.CONFIG, "block_rows", 4)
    monkeypatch.setitem(module.CONFIG, "block_cols", 256)
    for name in ("hidden/17x2x1000", "hidden/3x2x4097"):
        check(SILU_SPEC, module.silu_mul, SILU_SPEC.shape(name), torch.bfloat16)
