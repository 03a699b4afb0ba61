"""What the NineToothed kernel files share: dtype names and whether Triton's interpreter runs them.

Kept out of the kernel files (as kernels/tilelang_support.py is for TileLang) so that an agent's
edit to a kernel is about the kernel. With `TRITON_INTERPRET=1` in the environment the kernels run
on the CPU under Triton's interpreter (tests only) and take CPU tensors.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import ninetoothed
import torch

NINETOOTHED_DTYPES = {
    torch.bfloat16: ninetoothed.bfloat16,
    torch.float16: ninetoothed.float16,
    torch.float32: ninetoothed.float32,
}


def ninetoothed_dtype(dtype: torch.dtype):
    """NineToothed's name for a torch dtype; a ValueError for one the kernels here do not support."""
    try:
        return NINETOOTHED_DTYPES[dtype]
    except KeyError:
        raise ValueError(f"NineToothed kernels here support {list(NINETOOTHED_DTYPES)}, not {dtype}") from None


def interpreting() -> bool:
    """Whether Triton's interpreter runs the kernels (on the CPU, with CPU tensors)."""
    return os.environ.get("TRITON_INTERPRET") == "1"


def launch_hooks_set() -> bool:
    """Whether a profiler (Triton's proton) hooks launches: the cached path would bypass its hooks."""
    runtime = _triton_runtime_knobs()
    return runtime is None or _hooked(runtime.launch_enter_hook) or _hooked(runtime.launch_exit_hook)


def _hooked(hook: Any) -> bool:
    calls = getattr(hook, "calls", None)  # Triton 3.6: always a HookChain, empty unless a profiler added to it
    return bool(calls) if calls is not None else hook is not None


@functools.cache
def _triton_runtime_knobs() -> Any:
    """Triton's runtime settings (3.4 on); None on a Triton without them, whose launches are left to it."""
    try:
        from triton import knobs
    except ImportError:
        return None
    return knobs.runtime


def current_device() -> int:
    return torch.cuda.current_device()


def current_stream(device: int) -> int:
    """torch's current stream on `device`, as Triton's own launch path reads it."""
    return torch._C._cuda_getCurrentRawStream(device)


class CachedLauncher:
    """A NineToothed kernel launched through its compiled Triton kernel, with a plan cached per shape.

    NineToothed's generated launcher passes every size and stride of every tensor to a Triton
    `JITFunction`, whose `run` binds and specialises each argument (about 50 for rope_qk) before it
    looks up the compiled kernel: 20-50 µs of host time per call on the H200 (issue 16). The first
    call of a key (each tensor's shape, strides, dtype and 16-byte alignment, the int arguments' values,
    the current device) goes that way and remembers what it passed to the compiled kernel's `run`.
    Later calls of the key pass the same list with this call's tensors and floats put back in, on
    torch's current stream. Triton specialises on exactly what the key holds (ints' values and
    divisibility, tensors' dtype and alignment), so the compiled kernel is the one Triton would pick.

    Any kernel this cannot plan for (constexpr parameters, more than one launch, launch hooks, Triton's
    interpreter) runs through NineToothed's own launcher every call; `fallback_reason` says why.
    """

    def __init__(self, handle: Any) -> None:
        self._handle = handle
        self._source = handle._source  # generated_source() reads it
        self._plans: dict[tuple, _Plan] = {}
        self.fallback_reason: str | None = "Triton's interpreter runs the kernel" if interpreting() else None

    def __call__(self, *inputs: Any) -> None:
        if self.fallback_reason is not None or launch_hooks_set():
            self._handle(*inputs)
            return
        key = plan_key(inputs)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._record(inputs)
            if plan is not None:
                self._plans[key] = plan
            return  # _record launched the kernel
        arguments = plan.arguments.copy()
        for position, index in plan.slots:
            arguments[position] = inputs[index]
        arguments[3] = current_stream(key[-1])
        plan.run(*arguments)

    def _record(self, inputs: tuple) -> _Plan | None:
        """Launch through NineToothed's launcher, watching the Triton call it makes; the plan, or None."""
        launch = self._handle._launch
        namespace = launch.__globals__
        name = next((name for name, value in namespace.items() if value is self._handle._kernel), None)
        if name is None:
            self.fallback_reason = "the launcher does not reach its kernel through the module's globals"
            self._handle(*inputs)
            return None
        recorder = _Recorder(self._handle._kernel)
        namespace[name] = recorder
        try:
            launch(*inputs)
        finally:
            namespace[name] = self._handle._kernel
        plan, reason = plan_from_call(recorder.calls, inputs, self._handle._kernel)
        if reason is not None:
            self.fallback_reason = reason
        return plan


class _Plan:
    __slots__ = ("arguments", "run", "slots")

    def __init__(self, arguments: list, slots: list[tuple[int, int]], run: Any) -> None:
        self.arguments = arguments  # what the compiled kernel's run takes; stream and inputs filled per call
        self.slots = slots  # (position in arguments, index in the launcher's inputs)
        self.run = run


class _Recorder:
    """Stands in for the Triton kernel during a launcher's first call of a key: launches it, keeps the call."""

    def __init__(self, jit_function: Any) -> None:
        self._jit = jit_function
        self.calls: list[tuple[Any, tuple, Any]] = []  # (grid, positional arguments, compiled kernel)

    def __getitem__(self, grid: Any) -> Any:
        def launch(*args: Any, **kwargs: Any) -> Any:
            compiled = self._jit[grid](*args, **kwargs)
            self.calls.append((grid, args, compiled))
            return compiled

        return launch


def plan_key(inputs: tuple) -> tuple:
    """What a compiled kernel and its size and stride arguments depend on, for the launcher's inputs."""
    key = []
    for value in inputs:
        if isinstance(value, torch.Tensor):
            key.append((value.shape, value.stride(), value.dtype, value.data_ptr() & 15 == 0))
        elif type(value) is float:
            key.append(float)  # passed as is: Triton does not specialise floats
        else:
            key.append(value)
    key.append(current_device())
    return tuple(key)


def plan_from_call(calls: list, inputs: tuple, jit_function: Any) -> tuple[_Plan | None, str | None]:
    """The plan for a recorded launcher call; else None, with the reason none of its calls can be planned.

    (None, None): this call cannot be planned (no launch, an input passed twice), others of the kernel can.
    """
    if not calls:
        return None, None  # nothing launched (an empty grid): the next call of the key records again
    if len(calls) != 1:
        return None, f"the launcher made {len(calls)} kernel launches, not one"
    grid, args, compiled = calls[0]
    if getattr(jit_function, "constexprs", None):
        return None, "the kernel has constexpr parameters"
    if len(args) != len(getattr(jit_function, "arg_names", ())):
        return None, "the launcher passed its arguments by keyword"
    for attribute in ("function", "packed_metadata", "run"):
        if not hasattr(compiled, attribute):
            return None, f"Triton's compiled kernel has no `{attribute}`"
    if callable(grid):
        grid = grid(dict(zip(jit_function.arg_names, args, strict=True)))
    grid = (*grid, 1, 1)
    passed = [(id(value), index) for index, value in enumerate(inputs) if isinstance(value, torch.Tensor | float)]
    by_identity = dict(passed)
    if len(by_identity) != len(passed):
        return None, None  # one object passed twice: this call's plan would tie the two together
    arguments = [grid[0], grid[1], grid[2], None, compiled.function, compiled.packed_metadata, None, None, None]
    slots = []
    for value in args:
        index = by_identity.get(id(value))
        if index is not None:
            slots.append((len(arguments), index))
            arguments.append(None)
        elif isinstance(value, torch.Tensor | float):
            return None, "the launcher passed a tensor or float it made itself"
        else:
            arguments.append(value)
    return _Plan(arguments, slots, compiled.run), None
