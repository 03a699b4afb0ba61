"""The registry: native kernels where they can run, the torch reference with a warning otherwise."""

from __future__ import annotations

import importlib
import sys
import types

import pytest
import torch

from workbench.kernels import registry
from workbench.kernels.rope.spec import SPEC as ROPE_SPEC


@pytest.fixture(autouse=True)
def _forget_demotions():
    registry._demoted.clear()
    yield
    registry._demoted.clear()
    registry._kernel_files.clear()


def test_the_operators_are_the_op_folders_in_their_order():
    # The five shipped ops first, in this order; an op folder added later comes after them (its ORDER or none).
    assert registry.OPERATORS[:5] == ("rope", "rope_qk", "rms_norm", "add_rms_norm", "silu_mul")
    orders = [getattr(importlib.import_module(f"workbench.kernels.{op}"), "ORDER", None) for op in registry.OPERATORS]
    numbered = [order for order in orders if order is not None]
    assert numbered == sorted(numbered) and len(set(numbered)) == len(numbered)
    assert None not in orders[: len(numbered)]  # folders without an ORDER come last
    assert all(registry.spec(op).name == op for op in registry.OPERATORS)


def test_torch_backend_is_native_everywhere():
    assert registry.registered_operators("torch") == dict.fromkeys(registry.OPERATORS, "native")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU report")
def test_gpu_backends_report_fallback_without_a_gpu():
    for backend in ("tilelang", "ninetoothed", "maca_cpp"):
        assert set(registry.registered_operators(backend).values()) == {"torch_fallback"}
        assert "no GPU" in registry.registration("rope", backend).reason


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU fallback")
def test_operator_falls_back_to_the_reference_with_a_warning():
    args = ROPE_SPEC.make_inputs((1, 5, 2, 64), torch.float32, seed=0)
    with pytest.warns(RuntimeWarning, match=r"rope\[tilelang\] falls back to torch"):
        rope = registry.operator("rope", "tilelang")
    torch.testing.assert_close(rope(*args), ROPE_SPEC.expected(args, torch.float32))


def test_a_kernel_file_without_the_op_function_is_a_fallback(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")  # so the CPU is allowed for ninetoothed
    monkeypatch.setitem(
        sys.modules, "workbench.kernels.rope.ninetoothed", types.ModuleType("workbench.kernels.rope.ninetoothed")
    )
    reg = registry.registration("rope", "ninetoothed")
    assert reg.status == "torch_fallback"
    assert "defines no function rope()" in reg.reason


def test_a_kernel_that_fails_at_run_time_is_demoted_once_with_a_warning(monkeypatch):
    module = types.ModuleType("workbench.kernels.rope.ninetoothed")
    calls = []

    def rope(x, sin, cos, *, out=None):
        calls.append(1)
        raise RuntimeError("illegal memory access")

    module.rope = rope
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setitem(sys.modules, "workbench.kernels.rope.ninetoothed", module)
    assert registry.registered_operators("ninetoothed")["rope"] == "native"
    op = registry.operator("rope", "ninetoothed")
    args = ROPE_SPEC.make_inputs((1, 3, 2, 64), torch.bfloat16, seed=0)
    with pytest.warns(RuntimeWarning, match="illegal memory access"):
        out = op(*args)
    torch.testing.assert_close(out, ROPE_SPEC.expected(args, torch.bfloat16))
    op(*args)
    assert len(calls) == 1
    assert registry.registered_operators("ninetoothed")["rope"] == "torch_fallback"


def test_input_errors_are_not_hidden_by_the_fallback(monkeypatch):
    module = types.ModuleType("workbench.kernels.rope.ninetoothed")
    module.rope = lambda x, sin, cos, *, out=None: ROPE_SPEC.check_inputs(x, sin, cos, out, require_gpu=False)
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setitem(sys.modules, "workbench.kernels.rope.ninetoothed", module)
    op = registry.operator("rope", "ninetoothed")
    with pytest.raises(ValueError, match="even"):
        op(torch.randn(1, 2, 2, 63), torch.zeros(2, 31), torch.zeros(2, 31))


def test_torch_implementation_writes_into_out():
    args = ROPE_SPEC.make_inputs((1, 4, 2, 64), torch.bfloat16, seed=0)
    out = torch.full_like(args[0], float("nan"))
    result = registry.torch_implementation("rope")(*args, out=out)
    assert result is out and not out.isnan().any()


def test_unknown_names_are_value_errors():
    with pytest.raises(ValueError, match="unknown operator 'softmaxx'"):
        registry.spec("softmaxx")
    with pytest.raises(ValueError, match="unknown backend 'cutlass'"):
        registry.registered_operators("cutlass")


def test_a_kernel_file_replaces_one_op_and_never_falls_back(tmp_path):
    # The end-to-end check runs a candidate inside the model this way (in a child process).
    path = tmp_path / "candidate.py"
    path.write_text("import torch\n\n\ndef rope(x, sin, cos, *, out=None):\n    raise RuntimeError('broken kernel')\n")
    registry.use_kernel_file("rope", "tilelang", path)  # a GPU backend: the file is used even without a GPU
    reg = registry.registration("rope", "tilelang")
    assert reg.status == "native" and str(path) in reg.reason
    op = registry.operator("rope", "tilelang")
    args = ROPE_SPEC.make_inputs((1, 3, 2, 64), torch.float32, seed=0)
    with pytest.raises(RuntimeError, match="broken kernel"):
        op(*args)  # no fallback to torch: a kernel under test that fails must fail
    assert ("rope", "tilelang") not in registry._demoted
    registry.use_kernel_file("rope", "tilelang", None)
    assert registry.registration("rope", "tilelang").reason != reg.reason


def test_a_kernel_file_without_the_op_is_refused_at_once(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("CONFIG = {}\n")
    with pytest.raises(AttributeError, match="defines no function rms_norm"):
        registry.use_kernel_file("rms_norm", "torch", path)
    assert registry.registered_operators("torch")["rms_norm"] == "native"
