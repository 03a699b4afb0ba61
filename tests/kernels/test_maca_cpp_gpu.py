"""maca_cpp (CUDA C++) kernels on a GPU: every op x dtype x shape (named, hidden, camp) and what the specs promise."""

from __future__ import annotations

import importlib

import pytest
import torch

from tests.kernels.gpu_checks import cases, check
from workbench.kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC
from workbench.kernels.registry import ops_with, spec
from workbench.kernels.rms_norm.spec import SPEC as RMS_SPEC
from workbench.kernels.rope.spec import SPEC as ROPE_SPEC
from workbench.kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC
from workbench.kernels.silu_mul.spec import SPEC as SILU_SPEC

pytestmark = pytest.mark.gpu


MACA_CPP_OPS = ops_with("maca_cpp")


def _module(op: str):
    return importlib.import_module(f"workbench.kernels.{op}.maca_cpp")


def _fn(op: str):
    return getattr(_module(op), op)


@pytest.mark.parametrize(
    ("op", "shape", "dtype"),
    [pytest.param(op, *param.values, id=f"{op}-{param.id}") for op in MACA_CPP_OPS for param in cases(spec(op))],
)
def test_matches_the_reference(op, shape, dtype):
    check(spec(op), _fn(op), shape, dtype)


@pytest.mark.parametrize("op", MACA_CPP_OPS)
def test_hazard_rows_zeros_and_extreme_magnitudes(op):
    op_spec = spec(op)
    for dtype in op_spec.dtypes:
        args = op_spec.hazards(*op_spec.make_inputs(op_spec.hidden_shapes[0].dims, dtype, 5, "cuda"))
        result = _fn(op)(*args)
        assert op_spec.compare(result, args, dtype).ok, (op, dtype)


@pytest.mark.parametrize("op", MACA_CPP_OPS)
@pytest.mark.parametrize("vec", [1, 2, 4, 8])
def test_every_vector_width_on_ragged_shapes(op, vec, monkeypatch: pytest.MonkeyPatch):
    module = _module(op)
    monkeypatch.setitem(module.CONFIG, "vec", vec)
    op_spec = spec(op)
    for shape in op_spec.hidden_shapes[:4]:
        for dtype in (torch.bfloat16, torch.float32):
            check(op_spec, module.__dict__[op], shape, dtype)


@pytest.mark.parametrize("op", MACA_CPP_OPS)
def test_the_ends_of_every_search_space_key_are_correct(op, monkeypatch: pytest.MonkeyPatch):
    """The smallest and largest value of each key (vec: all, above), the others at CONFIG: a tuner may land there."""
    module = _module(op)
    op_spec = spec(op)
    for key, values in module.SEARCH_SPACE.items():
        if key == "vec":
            continue
        for value in (values[0], values[-1]):
            monkeypatch.setitem(module.CONFIG, key, value)
            for shape in (op_spec.shapes[0], op_spec.hidden_shapes[1]):
                check(op_spec, module.__dict__[op], shape, torch.bfloat16)
        monkeypatch.undo()


@pytest.mark.parametrize("op", MACA_CPP_OPS)
def test_unaligned_views_fall_back_to_scalar_accesses(op):
    """Inputs starting one element into their storage: no 16-byte vector access is legal, results still right."""
    op_spec = spec(op)
    args = op_spec.make_inputs(op_spec.shapes[0].dims, torch.bfloat16, 7, "cuda")

    def shifted(t):
        if not isinstance(t, torch.Tensor):
            return t
        storage = torch.empty(t.numel() + 1, dtype=t.dtype, device=t.device)
        view = storage[1:].view(t.shape)
        view.copy_(t)
        return view

    moved = tuple(shifted(a) for a in args)
    assert op_spec.compare(_fn(op)(*moved), moved, torch.bfloat16).ok


def test_empty_inputs_return_empty_outputs():
    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), torch.bfloat16, 0, "cuda")
    assert _fn("rope")(x, sin, cos).shape == (1, 0, 8, 64)
    x, w, eps = RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert _fn("rms_norm")(x, w, eps).shape == (0, 2048)
    x, residual, w, eps = ADD_RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in _fn("add_rms_norm")(x, residual, w, eps)] == [(0, 2048), (0, 2048)]
    (x,) = SILU_SPEC.make_inputs((0, 2 * 8192), torch.bfloat16, 0, "cuda")
    assert _fn("silu_mul")(x).shape == (0, 8192)
    q, k, sin, cos = ROPE_QK_SPEC.make_inputs((1, 0, 32, 8, 64), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in _fn("rope_qk")(q, k, sin, cos)] == [(1, 0, 32, 64), (1, 0, 8, 64)]


def test_allocates_outputs_and_accepts_leading_dims():
    args = ROPE_SPEC.make_inputs((2, 9, 3, 64), torch.float16, 1, "cuda")
    assert ROPE_SPEC.compare(_fn("rope")(*args), args, torch.float16).ok
    x, w, eps = RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    out = _fn("rms_norm")(x.view(2, 3, 2048), w, eps)
    assert out.shape == (2, 3, 2048) and RMS_SPEC.compare(out.view(6, 2048), (x, w, eps), torch.bfloat16).ok
    args = ADD_RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    x, residual, w, eps = args
    summed, normed = _fn("add_rms_norm")(x.view(2, 3, 2048), residual.view(2, 3, 2048), w, eps)
    assert summed.shape == normed.shape == (2, 3, 2048)
    assert ADD_RMS_SPEC.compare((summed.view(6, 2048), normed.view(6, 2048)), args, torch.bfloat16).ok
    (x,) = SILU_SPEC.make_inputs((6, 2 * 1000), torch.float16, 1, "cuda")
    out = _fn("silu_mul")(x.view(2, 3, 2000))
    assert out.shape == (2, 3, 1000) and SILU_SPEC.compare(out.view(6, 1000), (x,), torch.float16).ok
    args = ROPE_QK_SPEC.make_inputs((2, 7, 6, 2, 128), torch.float16, 1, "cuda")
    assert ROPE_QK_SPEC.compare(_fn("rope_qk")(*args), args, torch.float16).ok


def test_add_rms_norm_sum_is_bitwise_the_rounded_add():
    for dtype in ADD_RMS_SPEC.dtypes:
        args = ADD_RMS_SPEC.make_inputs((64, 4097), dtype, 3, "cuda")
        summed, _ = _fn("add_rms_norm")(*args)
        assert torch.equal(summed, args[0] + args[1]), dtype


@pytest.mark.parametrize("groups", [1, 2, 4, 8])
def test_rope_qk_head_groups(groups, monkeypatch: pytest.MonkeyPatch):
    module = _module("rope_qk")
    monkeypatch.setitem(module.CONFIG, "head_groups", groups)
    for name in ("llama3-8b/decode8", "hidden/decode5-9q-3kv-d80", "hidden/17tok-3q-1kv"):
        check(ROPE_QK_SPEC, module.rope_qk, ROPE_QK_SPEC.shape(name), torch.bfloat16)


@pytest.mark.parametrize("table_dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_rope_tables_in_any_dtype_and_longer_than_seq(table_dtype):
    from workbench.kernels.rope.spec import rope_tables

    x, _, _ = ROPE_SPEC.make_inputs((2, 33, 5, 128), torch.bfloat16, 4, "cuda")

    long_sin, long_cos = rope_tables(torch.arange(33 + 61, device="cuda"), 128)
    args = (x, long_sin.to(table_dtype), long_cos.to(table_dtype))
    assert ROPE_SPEC.compare(_fn("rope")(*args), args, torch.bfloat16).ok
    q, k, _, _ = ROPE_QK_SPEC.make_inputs((2, 33, 8, 2, 128), torch.bfloat16, 4, "cuda")
    args = (q, k, long_sin.to(table_dtype), long_cos.to(table_dtype))
    assert ROPE_QK_SPEC.compare(_fn("rope_qk")(*args), args, torch.bfloat16).ok


def test_validation_errors_are_raised_before_any_launch():
    rms_norm, rope = _fn("rms_norm"), _fn("rope")
    x, w, eps = RMS_SPEC.make_inputs((4, 2048), torch.bfloat16, 0, "cuda")
    with pytest.raises(ValueError, match="this kernel runs on a GPU"):
        rms_norm(x.cpu(), w.cpu(), eps)
    with pytest.raises(ValueError, match="weight has dtype"):
        rms_norm(x, w.float(), eps)
    with pytest.raises(ValueError, match="not contiguous"):
        rms_norm(x.t(), w[:4].contiguous(), eps)
    with pytest.raises(ValueError, match="out must match the result"):
        rms_norm(x, w, eps, out=torch.empty(4, 2047, dtype=x.dtype, device="cuda"))
    with pytest.raises(TypeError, match="eps must be a float"):
        rms_norm(x, w, "1e-5")
    xr, sin, cos = ROPE_SPEC.make_inputs((1, 8, 4, 64), torch.bfloat16, 0, "cuda")
    with pytest.raises(ValueError, match="sin must be"):
        rope(xr, sin[:4], cos[:4])
    with pytest.raises(ValueError, match="sin and cos must have one shape and dtype"):
        rope(xr, sin, cos.half())
    (xs,) = SILU_SPEC.make_inputs((2, 2 * 64), torch.bfloat16, 0, "cuda")
    with pytest.raises(ValueError, match="last dim must be even"):
        _fn("silu_mul")(xs[:, :127].contiguous())


def test_out_buffers_are_written_and_returned():
    for op in MACA_CPP_OPS:
        op_spec = spec(op)
        args = op_spec.make_inputs(op_spec.shapes[0].dims, torch.bfloat16, 9, "cuda")
        out = op_spec.empty_out(args, fill=float("nan"))
        result = _fn(op)(*args, out=out)
        assert op_spec.returned_out(result, out), op
        assert op_spec.compare(out, args, torch.bfloat16).ok, op


def test_launches_on_the_callers_stream_and_replay_in_a_cuda_graph():
    """Captured into a graph on a side stream, replayed with new input values: the outputs follow the inputs."""
    op_spec, fn = RMS_SPEC, _fn("rms_norm")
    args = op_spec.make_inputs((128, 4096), torch.bfloat16, 1, "cuda")
    out = op_spec.empty_out(args)
    fn(*args, out=out)  # builds outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn(*args, out=out)
    fresh = op_spec.make_inputs((128, 4096), torch.bfloat16, 2, "cuda")
    args[0].copy_(fresh[0])
    graph.replay()
    torch.cuda.synchronize()
    assert op_spec.compare(out, args, torch.bfloat16).ok


def test_registry_runs_the_backend_natively():
    from workbench.kernels.registry import registered_operators

    registered = registered_operators("maca_cpp")
    assert {op: registered[op] for op in MACA_CPP_OPS} == dict.fromkeys(MACA_CPP_OPS, "native")
