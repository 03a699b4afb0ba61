"""add_rms_norm, silu_mul and rope_qk on a GPU, both backends: every shape x dtype, plus what their specs promise."""

from __future__ import annotations

import importlib

import pytest
import torch

from kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC
from kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC
from kernels.silu_mul.spec import SPEC as SILU_SPEC
from tests.kernels.gpu_checks import cases, check

pytestmark = pytest.mark.gpu

BACKENDS = ["tilelang", "ninetoothed"]


def _module(op: str, backend: str):
    return importlib.import_module(f"kernels.{op}.{backend}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("shape", "dtype"), cases(ADD_RMS_SPEC))
def test_add_rms_norm(backend, shape, dtype):
    check(ADD_RMS_SPEC, _module("add_rms_norm", backend).add_rms_norm, shape, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_add_rms_norm_sum_is_bitwise_the_rounded_add(backend):
    add_rms_norm = _module("add_rms_norm", backend).add_rms_norm
    for dtype in ADD_RMS_SPEC.dtypes:
        args = ADD_RMS_SPEC.make_inputs((64, 4096), dtype, 3, "cuda")
        summed, _ = add_rms_norm(*args)
        assert torch.equal(summed, args[0] + args[1]), dtype


@pytest.mark.parametrize("backend", BACKENDS)
def test_add_rms_norm_empty_allocating_and_leading_dims(backend):
    add_rms_norm = _module("add_rms_norm", backend).add_rms_norm
    x, residual, w, eps = ADD_RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in add_rms_norm(x, residual, w, eps)] == [(0, 2048), (0, 2048)]
    args = ADD_RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    x, residual, w, eps = args
    summed, normed = add_rms_norm(x.view(2, 3, 2048), residual.view(2, 3, 2048), w, eps)
    assert summed.shape == normed.shape == (2, 3, 2048)
    assert ADD_RMS_SPEC.compare((summed.view(6, 2048), normed.view(6, 2048)), args, torch.bfloat16).ok


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("shape", "dtype"), cases(SILU_SPEC))
def test_silu_mul(backend, shape, dtype):
    check(SILU_SPEC, _module("silu_mul", backend).silu_mul, shape, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_silu_mul_empty_allocating_and_leading_dims(backend):
    silu_mul = _module("silu_mul", backend).silu_mul
    (x,) = SILU_SPEC.make_inputs((0, 2 * 8192), torch.bfloat16, 0, "cuda")
    assert silu_mul(x).shape == (0, 8192)
    (x,) = SILU_SPEC.make_inputs((6, 2 * 1000), torch.float16, 1, "cuda")
    assert SILU_SPEC.compare(silu_mul(x), (x,), torch.float16).ok
    out = silu_mul(x.view(2, 3, 2000))
    assert out.shape == (2, 3, 1000)
    assert SILU_SPEC.compare(out.view(6, 1000), (x,), torch.float16).ok


@pytest.mark.parametrize("backend", BACKENDS)
def test_silu_mul_small_tiles_on_ragged_shapes(backend, monkeypatch: pytest.MonkeyPatch):
    module = _module("silu_mul", backend)
    # Partial tiles in both dims: 17 and 3 rows in tiles of 4, I = 1000 and 4097 in tiles of 256.
    monkeypatch.setitem(module.CONFIG, "block_rows", 4)
    monkeypatch.setitem(module.CONFIG, "block_cols", 256)
    for name in ("hidden/17x2x1000", "hidden/3x2x4097"):
        check(SILU_SPEC, module.silu_mul, SILU_SPEC.shape(name), torch.bfloat16)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_QK_SPEC))
def test_rope_qk(backend, shape, dtype):
    check(ROPE_QK_SPEC, _module("rope_qk", backend).rope_qk, shape, dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_rope_qk_empty_and_allocating(backend):
    rope_qk = _module("rope_qk", backend).rope_qk
    q, k, sin, cos = ROPE_QK_SPEC.make_inputs((1, 0, 32, 8, 64), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in rope_qk(q, k, sin, cos)] == [(1, 0, 32, 64), (1, 0, 8, 64)]
    args = ROPE_QK_SPEC.make_inputs((2, 7, 6, 2, 128), torch.float16, 1, "cuda")
    assert ROPE_QK_SPEC.compare(rope_qk(*args), args, torch.float16).ok


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("groups", [1, 2, 4, 8])
def test_rope_qk_head_groups(backend, groups, monkeypatch: pytest.MonkeyPatch):
    module = _module("rope_qk", backend)
    monkeypatch.setitem(module.CONFIG, "head_groups", groups)
    for name in ("llama3-8b/decode8", "hidden/decode5-9q-3kv-d80", "hidden/17tok-3q-1kv"):
        check(ROPE_QK_SPEC, module.rope_qk, ROPE_QK_SPEC.shape(name), torch.bfloat16)
