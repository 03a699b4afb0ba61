"""kernels/custom_ops.py: each op's kernel as a torch custom op, with a fake implementation and an out= form."""

from __future__ import annotations

import math
import warnings

import pytest
import torch

from workbench.kernels import registry
from workbench.kernels.custom_ops import register, register_all


def _small_inputs(op: str, dtype: torch.dtype = torch.float32) -> tuple:
    """The op's inputs on its smallest named or hidden shape, on the CPU."""
    spec = registry.spec(op)
    shape = min((*spec.shapes, *spec.hidden_shapes), key=lambda s: math.prod(s.dims))
    return spec.make_inputs(shape.dims, dtype, 0, "cpu")


@pytest.fixture(autouse=True)
def _torch_ops_point_at_the_reference():
    yield
    registry._kernel_files.clear()
    register_all("torch")  # a test that swapped a kernel file in leaves the ops on the backend's own again


def test_every_op_is_registered_under_the_workbench_namespace():
    ops = register_all("torch")
    assert list(ops) == list(registry.OPERATORS)
    for op, custom in ops.items():
        assert custom.name == f"workbench::{op}_torch" and custom.status == "native"
        assert custom.functional is getattr(torch.ops.workbench, f"{op}_torch")
        assert custom.out is getattr(torch.ops.workbench, f"{op}_torch_out")


def test_the_schema_comes_from_the_spec():
    schema = str(register("add_rms_norm", "torch").out.default._schema)
    assert schema == (
        "workbench::add_rms_norm_torch_out(Tensor x, Tensor residual, Tensor weight, float eps, "
        "Tensor(a!) out_sum, Tensor(b!) out_normed) -> ()"
    )
    assert str(register("rms_norm", "torch").functional.default._schema).endswith("float eps) -> Tensor")


def test_registering_again_keeps_the_ops():
    first = register("silu_mul", "torch")
    assert register("silu_mul", "torch").functional is first.functional


@pytest.mark.parametrize("op", registry.OPERATORS)
def test_functional_and_out_forms_give_the_reference(op):
    spec = registry.spec(op)
    custom = register(op, "torch")
    args = _small_inputs(op)
    expected = spec.as_outputs(spec.expected(args, torch.float32))
    got = spec.as_outputs(custom.functional(*args))
    buffers = spec.as_outputs(spec.empty_out(args, fill=float("nan")))
    custom.out(*args, *buffers)
    for value, buffer, reference in zip(got, buffers, expected, strict=True):
        torch.testing.assert_close(value, reference, rtol=0, atol=0)
        torch.testing.assert_close(buffer, reference, rtol=0, atol=0)


@pytest.mark.parametrize("op", registry.OPERATORS)
def test_opcheck_passes_for_both_forms(op):
    spec = registry.spec(op)
    custom = register(op, "torch")
    args = _small_inputs(op)
    # opcheck: the schema matches what the op does, the fake gives the real output's metadata, and AOT dispatch
    # (what torch.compile runs) traces it; for the out= form, that it writes only the buffers it declares.
    torch.library.opcheck(custom.functional.default, args)
    torch.library.opcheck(custom.out.default, (*args, *spec.as_outputs(spec.empty_out(args))))


def test_the_fake_gives_shapes_without_running_the_kernel():
    custom = register("silu_mul", "torch")
    with torch._subclasses.fake_tensor.FakeTensorMode():
        x = torch.empty(3, 5, 16, dtype=torch.bfloat16)
        out = custom.functional(x)
    assert out.shape == (3, 5, 8) and out.dtype == torch.bfloat16


def _layer(x, residual, weight, gate_up):
    """A decoder layer's memory-bound ops between torch ones, as a model calls them."""
    ops = torch.ops.workbench
    summed, normed = ops.add_rms_norm_torch(x * 2, residual, weight, 1e-5)
    hidden = ops.silu_mul_torch(normed @ gate_up)
    return summed + hidden @ gate_up[:, : hidden.shape[-1]].T


def test_a_model_calling_the_ops_compiles_without_a_graph_break():
    register_all("torch")
    gen = torch.Generator().manual_seed(0)
    x, residual = torch.randn(4, 32, generator=gen), torch.randn(4, 32, generator=gen)
    weight, gate_up = torch.randn(32, generator=gen), torch.randn(32, 64, generator=gen)
    explained = torch._dynamo.explain(_layer)(x, residual, weight, gate_up)
    assert explained.graph_break_count == 0 and explained.graph_count == 1
    # Each op is one opaque node of the graph (a kernel launch Dynamo never traces into), not its torch math.
    targets = {str(node.target) for node in explained.graphs[0].graph.nodes if node.op == "call_function"}
    assert {"workbench.add_rms_norm_torch", "workbench.silu_mul_torch"} <= targets
    compiled = torch.compile(_layer, fullgraph=True, backend="aot_eager")  # fullgraph: a break would raise
    torch.testing.assert_close(compiled(x, residual, weight, gate_up), _layer(x, residual, weight, gate_up))


def test_a_kernel_file_set_for_the_backend_is_what_the_op_runs(tmp_path):
    # What `agent adopt` writes, or the end-to-end check's candidate: the op calls that file's function.
    kernel = tmp_path / "rms_norm_file.py"
    kernel.write_text(
        "import torch\n"
        "def rms_norm(x, weight, eps, out=None):\n"
        "    result = torch.full_like(x, 7.0)\n"
        "    return result if out is None else out.copy_(result)\n"
    )
    registry.use_kernel_file("rms_norm", "torch", kernel)
    custom = register("rms_norm", "torch")
    x, weight, eps = _small_inputs("rms_norm")
    assert torch.equal(custom.functional(x, weight, eps), torch.full_like(x, 7.0))
    assert "kernel file" in custom.reason


def test_a_backend_that_cannot_run_here_falls_back_with_the_registrys_warning():
    if torch.cuda.is_available():
        pytest.skip("checks the no-GPU fallback")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        custom = register("rms_norm", "tilelang")
    assert custom.status == "torch_fallback" and "no GPU" in custom.reason
    assert any("falls back to torch" in str(w.message) for w in caught)
    args = _small_inputs("rms_norm")
    torch.testing.assert_close(custom.functional(*args), registry.spec("rms_norm").expected(args, torch.float32))


def test_an_unknown_backend_or_op_is_refused():
    with pytest.raises(ValueError, match="unknown backend"):
        register("rms_norm", "cutlass")
    with pytest.raises(ValueError, match="unknown operator"):
        register("layer_norm", "torch")


@pytest.mark.gpu
@pytest.mark.parametrize("backend", ["tilelang", "ninetoothed"])
def test_a_backends_ops_compile_fullgraph_and_replay_in_a_cuda_graph(backend):
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")
    ops = register_all(backend)
    assert all(custom.status == "native" for custom in ops.values()), {o: c.reason for o, c in ops.items()}
    spec = registry.spec("add_rms_norm")
    args = spec.make_inputs((8, 2048), torch.bfloat16, 0, "cuda")
    fn = getattr(torch.ops.workbench, f"add_rms_norm_{backend}")
    compiled = torch.compile(lambda *a: fn(*a), fullgraph=True)
    expected = spec.expected(args, torch.bfloat16)
    for got, ref in zip(compiled(*args), expected, strict=True):
        torch.testing.assert_close(got, ref, **vars(spec.tolerance(torch.bfloat16)))
    buffers = spec.empty_out(args)
    out_op = getattr(torch.ops.workbench, f"add_rms_norm_{backend}_out")
    out_op(*args, *buffers)  # first call outside the capture: JIT compilation
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out_op(*args, *buffers)
    for buffer in buffers:
        buffer.zero_()
    graph.replay()
    torch.cuda.synchronize()
    for got, ref in zip(buffers, expected, strict=True):
        torch.testing.assert_close(got, ref, **vars(spec.tolerance(torch.bfloat16)))
