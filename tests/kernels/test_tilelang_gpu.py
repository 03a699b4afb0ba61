"""TileLang kernels on a GPU: every op x dtype x shape (named and hidden) against the reference."""

from __future__ import annotations

import pytest
import torch

from kernels.rms_norm.spec import SPEC as RMS_SPEC
from kernels.rope.spec import SPEC as ROPE_SPEC
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
