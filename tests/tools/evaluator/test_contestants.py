"""The trusted yardsticks' own bookkeeping (tools/evaluator/contestants.py)."""

from __future__ import annotations

import torch

from tools.evaluator.contestants import binding_key


def test_a_liger_binding_is_per_shape_not_per_address():
    # The next shape's buffers can start at the last one's address: its binding must not be reused.
    arena = torch.zeros(512 * 64)
    small, large = arena[: 8 * 64].view(8, 64), arena.view(512, 64)
    assert small.data_ptr() == large.data_ptr()
    assert binding_key((small, 1e-6)) != binding_key((large, 1e-6))
    assert binding_key((small, 1e-6)) != binding_key((small.view(torch.int32), 1e-6))
    assert binding_key((small, 1e-6)) == binding_key((arena[: 8 * 64].view(8, 64), 1e-6))


def test_the_compiled_yardstick_compiles_each_shape_on_its_own(monkeypatch):
    # One function for all shapes recompiled into a dynamic kernel, then fell back to eager (H200, rope_qk).
    import torch._dynamo

    from tools.evaluator import contestants
    from workbench.kernels.rms_norm.spec import SPEC

    real_compile = torch.compile
    compiled_for = []

    def compile_eagerly(fn, **kwargs):  # Dynamo's tracing and guards for real, without Inductor's C++ build
        compiled_for.append((fn.__code__, kwargs))
        return real_compile(fn, backend="eager", **kwargs)

    monkeypatch.setattr(torch, "compile", compile_eagerly)
    monkeypatch.setattr(torch._dynamo.config, "error_on_recompile", True)
    torch._dynamo.reset()
    fn = contestants.compiled("rms_norm")
    for dims in [(4, 64), (8, 64), (8, 128), (4, 64)]:
        args = SPEC.make_inputs(dims, torch.float32, 0, "cpu")
        out = SPEC.empty_out(args, fill=float("nan"))
        fn(*args, out=out)
        assert SPEC.compare(out, args, torch.float32).ok
    assert len(compiled_for) == 3  # the fourth call reused the first shape's
    assert len({code for code, _ in compiled_for}) == 3
    assert all(kwargs == {"dynamic": False} for _, kwargs in compiled_for)


def test_liger_keeps_the_bindings_of_the_current_shape_only(monkeypatch):
    # Each binding holds copies of its set's inputs; kept for every shape they filled the H200 (silu_mul bench).
    from tools import liger as liger_adapters
    from tools.evaluator import contestants
    from workbench.kernels.liger_support import LigerCall

    made = []

    def bind(fn, args):
        made.append(args[0].shape)
        return LigerCall(run=lambda: args[0] * 2, outputs=lambda result: result)

    adapter = liger_adapters.Adapter("silu_mul", "fake", "fake", bind)
    monkeypatch.setattr(liger_adapters, "load", lambda op: (adapter, None))
    call = contestants.liger("silu_mul")
    small = [torch.ones(2, 8) for _ in range(3)]
    large = torch.ones(4, 8)
    for x in small:
        call.prepare(x)
    call.prepare(small[0])  # the same set again: its binding is reused
    assert len(made) == 3
    call.prepare(large)
    call.prepare(small[1])  # back to the first shape: bound anew, the others' copies were let go
    assert made == [(2, 8)] * 3 + [(4, 8), (2, 8)]
