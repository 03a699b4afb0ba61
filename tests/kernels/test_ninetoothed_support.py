"""NineToothed kernels launched through a plan cached per shape (workbench.kernels.ninetoothed_support.CachedLauncher).

On the CPU a fake Triton kernel stands in for the compiled one, with the two parts of Triton's protocol the
launcher relies on: `jit[grid](*args)` compiles, launches and returns the compiled kernel, whose
`run(grid_0, grid_1, grid_2, stream, function, packed_metadata, launch_metadata, enter_hook, exit_hook, *args)`
launches it again. On the GPU the real kernels are checked against NineToothed's own launcher.
"""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("ninetoothed")

import workbench.kernels.ninetoothed_support as support

LAUNCHER_SOURCE = """
def launch_scale(x, out, factor, n):
    scale[lambda meta: (x.size(0) * 2,)](x, x.size(0), x.stride(0), out, factor, n)
"""


class FakeCompiled:
    function = "function-handle"
    packed_metadata = "packed"

    def __init__(self) -> None:
        self.runs: list[tuple] = []

    def run(self, *arguments):
        self.runs.append(arguments)
        _, _, _, _, _, _, _, _, _, x, _, _, out, factor, _ = arguments
        out.copy_(x * factor)


class FakeJIT:
    """Triton's JITFunction as the launcher sees it: subscripted by a grid, then called."""

    __name__ = "scale"
    arg_names = ("x", "x_size_0", "x_stride_0", "out", "factor", "n")
    constexprs: tuple[int, ...] = ()

    def __init__(self) -> None:
        self.compiled = FakeCompiled()
        self.launches: list[tuple] = []

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            self.launches.append((grid(dict(zip(self.arg_names, args, strict=True))), args))
            args[3].copy_(args[0] * args[4])
            return self.compiled

        return launch


class FakeHandle:
    """What ninetoothed.make returns: the kernel, the generated launcher and its source file."""

    def __init__(self, jit: FakeJIT, source: str = LAUNCHER_SOURCE) -> None:
        namespace = {"scale": jit}
        exec(source, namespace)
        self._kernel = jit
        self._launch = namespace["launch_scale"]
        self._source = "/tmp/generated.py"

    def __call__(self, *args):
        return self._launch(*args)


@pytest.fixture
def launcher(monkeypatch):
    monkeypatch.setattr(support, "current_device", lambda: 0)
    monkeypatch.setattr(support, "current_stream", lambda device: 1234)
    monkeypatch.setattr(support, "launch_hooks_set", lambda: False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    jit = FakeJIT()
    return support.CachedLauncher(FakeHandle(jit)), jit


def test_the_first_call_of_a_shape_goes_through_triton_and_later_ones_through_the_compiled_kernel(launcher):
    cached, jit = launcher
    x, out = torch.randn(4, 8), torch.empty(4, 8)
    cached(x, out, 2.0, 8)
    assert len(jit.launches) == 1 and not jit.compiled.runs
    x2, out2 = torch.randn(4, 8), torch.empty(4, 8)
    factor = 3.0
    cached(x2, out2, factor, 8)
    assert len(jit.launches) == 1
    (arguments,) = jit.compiled.runs
    # The grid the launcher's lambda gave, torch's stream, the compiled handles, then this call's arguments.
    assert arguments[:9] == (8, 1, 1, 1234, "function-handle", "packed", None, None, None)
    assert arguments[9] is x2 and arguments[12] is out2 and arguments[13] is factor
    assert arguments[10:12] == (4, 8) and arguments[14] == 8
    torch.testing.assert_close(out2, x2 * 3.0)


def test_a_new_shape_stride_alignment_or_int_argument_is_planned_afresh(launcher):
    cached, jit = launcher
    x = torch.randn(4, 8)
    cached(x, torch.empty(4, 8), 2.0, 8)
    cached(torch.randn(6, 8), torch.empty(6, 8), 2.0, 8)  # shape
    cached(x, torch.empty(4, 8), 2.0, 9)  # an int argument: Triton specialises on its value
    storage = torch.randn(40)
    misaligned = storage[1:33].view(4, 8)  # 4 bytes past a 16-byte boundary
    cached(misaligned, torch.empty(4, 8), 2.0, 8)
    assert len(jit.launches) == 4 and not jit.compiled.runs
    cached(torch.randn(6, 8), torch.empty(6, 8), 5.0, 8)
    assert len(jit.compiled.runs) == 1


def test_one_tensor_passed_twice_is_never_replayed_into_two(launcher):
    cached, jit = launcher
    x = torch.randn(4, 8)
    cached(x, x, 2.0, 8)  # in place: the plan would tie out to x
    cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 8)
    assert len(jit.launches) == 2 and cached.fallback_reason is None


def test_a_call_that_launches_nothing_is_not_planned_and_does_not_give_up(launcher):
    _, _ = launcher
    source = LAUNCHER_SOURCE.replace("    scale[", "    if n:\n        scale[")
    jit = FakeJIT()
    cached = support.CachedLauncher(FakeHandle(jit, source))
    cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 0)
    assert cached.fallback_reason is None and not cached._plans
    cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 8)
    assert len(cached._plans) == 1


def test_a_launcher_it_cannot_replay_runs_through_ninetoothed_with_the_reason(monkeypatch, launcher):
    _, _ = launcher
    twice = LAUNCHER_SOURCE + "    scale[lambda meta: (1,)](x, x.size(0), x.stride(0), out, factor, n)\n"
    jit = FakeJIT()
    cached = support.CachedLauncher(FakeHandle(jit, twice))
    for _ in range(2):
        cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 8)
    assert cached.fallback_reason == "the launcher made 2 kernel launches, not one"
    assert len(jit.launches) == 4 and not jit.compiled.runs

    jit = FakeJIT()
    jit.constexprs = (5,)
    cached = support.CachedLauncher(FakeHandle(jit))
    cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 8)
    assert cached.fallback_reason == "the kernel has constexpr parameters"


def test_an_empty_hook_chain_is_no_hook(monkeypatch):
    class HookChain:  # Triton 3.6's launch hooks: a chain a profiler adds to
        def __init__(self, calls):
            self.calls = calls

    class Runtime:
        launch_enter_hook = HookChain([])
        launch_exit_hook = HookChain([])

    monkeypatch.setattr(support, "_triton_runtime_knobs", lambda: Runtime)
    assert not support.launch_hooks_set()
    Runtime.launch_exit_hook = HookChain([print])
    assert support.launch_hooks_set()
    Runtime.launch_exit_hook = None  # before Triton 3.5: a function or None
    assert not support.launch_hooks_set()
    Runtime.launch_enter_hook = print
    assert support.launch_hooks_set()


def test_under_triton_s_interpreter_every_call_is_ninetoothed_s(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    jit = FakeJIT()
    cached = support.CachedLauncher(FakeHandle(jit))
    for _ in range(2):
        cached(torch.randn(4, 8), torch.empty(4, 8), 2.0, 8)
    assert cached.fallback_reason == "Triton's interpreter runs the kernel" and len(jit.launches) == 2


def _rope_qk_inputs(batch: int, seq: int, offset: int = 0):
    from workbench.kernels.rope_qk.spec import SPEC

    inputs = SPEC.make_inputs((batch, seq, 32, 8, 64), torch.bfloat16, 0, "cuda")
    if offset:  # the same values 2 bytes into a buffer: not 16-byte aligned
        inputs = tuple(
            torch.empty(t.numel() + offset, dtype=t.dtype, device=t.device)[offset:].view_as(t).copy_(t)
            if isinstance(t, torch.Tensor)
            else t
            for t in inputs
        )
    return SPEC, inputs


@pytest.mark.gpu
@pytest.mark.parametrize("op", ["rms_norm", "add_rms_norm", "rope", "rope_qk", "silu_mul"])
def test_every_ninetoothed_kernel_is_replayed_from_its_plan(op):
    import importlib

    module = importlib.import_module(f"workbench.kernels.{op}.ninetoothed")
    from workbench.kernels.registry import spec as op_spec

    spec = op_spec(op)
    inputs = spec.make_inputs(spec.shapes[0].dims, torch.bfloat16, 0, "cuda")
    function = getattr(module, op)
    module._kernels.clear()  # only this test's kernel: earlier tests' shapes have plans of their own
    getattr(module, "_by_call", {}).clear()
    for _ in range(3):
        result = function(*inputs)
    torch.cuda.synchronize()
    launchers = [k for k in module._kernels.values() if isinstance(k, support.CachedLauncher)]
    assert not support.launch_hooks_set()
    assert launchers and [(k.fallback_reason, len(k._plans)) for k in launchers] == [(None, 1)] * len(launchers)
    assert spec.compare(result, inputs, torch.bfloat16).ok


@pytest.mark.gpu
def test_replayed_plans_agree_with_ninetoothed_s_launcher_across_buffers_alignment_and_graphs():
    import workbench.kernels.rope_qk.ninetoothed as rope_qk

    for batch, seq, offset in [(1, 1, 0), (1, 1, 0), (2, 7, 0), (2, 7, 1), (1, 1, 1), (2, 7, 0)]:
        spec, inputs = _rope_qk_inputs(batch, seq, offset)
        outputs = rope_qk.rope_qk(*inputs)
        assert spec.compare(outputs, inputs, torch.bfloat16).ok, (batch, seq, offset)

    spec, inputs = _rope_qk_inputs(1, 1)
    q_out, k_out = torch.empty_like(inputs[0]), torch.empty_like(inputs[1])
    rope_qk.rope_qk(*inputs, out=(q_out, k_out))  # planned before the capture
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        rope_qk.rope_qk(*inputs, out=(q_out, k_out))
    q_out.fill_(float("nan"))
    k_out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert spec.compare((q_out, k_out), inputs, torch.bfloat16).ok
