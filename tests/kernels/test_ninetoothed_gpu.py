"""NineToothed kernels on a GPU: every op x dtype x shape (named and hidden) against the reference."""

from __future__ import annotations

import pytest
import torch

from kernels.rms_norm.spec import SPEC as RMS_SPEC
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.spec import NamedShape
from tests.kernels.gpu_checks import cases, check

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]


@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_rope(shape: NamedShape, dtype: torch.dtype) -> None:
    from kernels.rope.ninetoothed import rope

    check(ROPE_SPEC, rope, shape, dtype)


@pytest.mark.parametrize(("shape", "dtype"), cases(RMS_SPEC))
def test_rms_norm(shape: NamedShape, dtype: torch.dtype) -> None:
    from kernels.rms_norm.ninetoothed import rms_norm

    check(RMS_SPEC, rms_norm, shape, dtype)


def test_rms_norm_chunked_path_for_long_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    from kernels.rms_norm import ninetoothed

    # Force rows of 4097 onto the chunked kernel (Llama's rows all fit the single-pass one).
    monkeypatch.setitem(ninetoothed.CONFIG, "max_single_pass_block", 1024)
    check(RMS_SPEC, ninetoothed.rms_norm, RMS_SPEC.shape("hidden/129x4097"), torch.bfloat16)
    assert any(key.startswith("rms_norm_chunked[") for key in ninetoothed.generated_source())


def test_empty_inputs_return_empty_outputs() -> None:
    from kernels.rms_norm.ninetoothed import rms_norm
    from kernels.rope.ninetoothed import rope

    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), torch.bfloat16, 0, "cuda")
    assert rope(x, sin, cos).shape == (1, 0, 8, 64)
    x, w, eps = RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert rms_norm(x, w, eps).shape == (0, 2048)


def test_allocates_output_when_none_given() -> None:
    from kernels.rope.ninetoothed import rope

    args = ROPE_SPEC.make_inputs((2, 9, 3, 64), torch.float16, 1, "cuda")
    assert ROPE_SPEC.compare(rope(*args), args, torch.float16).ok


def test_rms_norm_accepts_leading_batch_dims() -> None:
    from kernels.rms_norm.ninetoothed import rms_norm

    x, w, eps = RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    out = rms_norm(x.view(2, 3, 2048), w, eps)
    assert out.shape == (2, 3, 2048)
    assert RMS_SPEC.compare(out.view(6, 2048), (x, w, eps), torch.bfloat16).ok


def test_generated_source_is_triton() -> None:
    from kernels.rope import ninetoothed

    ninetoothed.rope(*ROPE_SPEC.make_inputs((1, 4, 8, 64), torch.bfloat16, 0, "cuda"))
    sources = ninetoothed.generated_source()
    assert sources
    assert all("@triton.jit" in text for text in sources.values())
