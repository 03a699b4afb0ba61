"""The trusted contestants a runner can host instead of a kernel file: the yardsticks of a shape.

Each is a function with the op's calling convention, `fn(*args, out=...)`, writing its result
into the judge's buffers so the judge checks it like a candidate's. Those whose API returns a fresh
result (no `out=`) are `Delivered`: in a timed batch the runner calls `compute` alone and copies the
results into `out` after the judge's clock stopped, so the baseline is not charged a copy that a
caller of it would not make:

- torch: the reference op run eagerly (fp32 math, one rounding), delivered;
- compiled: `torch.compile` of the same, the copy into `out` inside the compiled graph;
- liger: Liger-Kernel's kernel for the op (tools/liger.py), bound once per buffer set and its layout
  preparation redone from the refilled inputs before each batch (`prepare`, not timed), delivered;
- native: torch's own ops in the model dtype (kernels/<op>/native.py: F.rms_norm, rotate-half RoPE,
  F.silu(gate) * up), what a user would write instead of a kernel, delivered;
- copy: the bytes of a buffer copied by an SM kernel, the roofline of a memory-bound op;
- null: one tiny kernel per batch, so the judge can measure what a batch costs that does nothing.

Imported only inside runner processes: the judge never runs a timed contestant itself.
"""

from __future__ import annotations

import types
from collections.abc import Callable

import torch


def _write(spec, out, value) -> None:
    for buffer, part in zip(spec.as_outputs(out), spec.as_outputs(value), strict=True):
        buffer.copy_(part)


class Delivered:
    """A yardstick that returns a fresh result: `compute(*args)` is what is timed, `deliver` writes it into `out`.

    Called as `fn(*args, out=...)` (warm-up, sizing, a candidate's seat) it does both at once. Before, the
    copy was timed: at prefill shapes it doubled the bytes Liger's rms_norm moved, and "vs liger" read high.
    """

    def __init__(self, spec, compute: Callable) -> None:
        self.spec = spec
        self.compute = compute

    def __call__(self, *args, out):
        self.deliver(self.compute(*args), out)
        return out

    def deliver(self, result, out) -> None:
        _write(self.spec, out, result)


def torch_reference(op: str) -> Callable:
    from workbench.kernels.registry import spec as op_spec
    from workbench.kernels.registry import torch_implementation

    return Delivered(op_spec(op), torch_implementation(op))


def shape_key(args: tuple) -> tuple:
    """What a compiled yardstick is specialised for: each tensor's shape, strides and dtype, the scalars' values."""
    return tuple((a.shape, a.stride(), a.dtype) if isinstance(a, torch.Tensor) else a for a in args)


def compiled(op: str) -> Callable:
    """torch.compile of the reference, compiled for each shape on its own, as a model of fixed shapes gets it.

    One compiled function for every shape of an evaluation went wrong on the H200 (rope_qk, 2026-12-02):
    Dynamo keeps one cache, with a recompile limit of 8, per code object, so after the first shapes it
    compiled a dynamic-shape kernel (8B prefill 3-6x slower than torch eager in the graph scope) and
    then fell back, and its eager calls cost 0.1-6 ms. Each shape now gets a copy of the function with
    a code object of its own, compiled with dynamic=False.
    """
    from workbench.kernels.registry import spec as op_spec

    spec = op_spec(op)

    def reference_into(*args, out):
        _write(spec, out, spec.expected(args, args[0].dtype))
        return out

    by_shape: dict[tuple, Callable] = {}

    def call(*args, out):
        key = shape_key(args)
        fn = by_shape.get(key)
        if fn is None:
            code = reference_into.__code__.replace(co_name=f"reference_into_{len(by_shape)}")
            copy = types.FunctionType(code, reference_into.__globals__, code.co_name, None, reference_into.__closure__)
            fn = by_shape[key] = torch.compile(copy, dynamic=False)
        return fn(*args, out=out)

    return call


def binding_key(args: tuple) -> tuple:
    """Which inputs a Liger binding was made for: each tensor's address, shape and dtype, the scalars' values.

    Not the address alone: the next shape's buffers can start where the last one's did, and a binding
    made for 8 rows then copied 512 rows into its 8-row layouts (H200, silu_mul fp32, 2026-12-02).
    """
    return tuple((a.data_ptr(), a.shape, a.dtype) if isinstance(a, torch.Tensor) else a for a in args)


def _shapes_of(key: tuple) -> tuple:
    """A binding key without its addresses: the same for every input set of one shape."""
    return tuple(entry[1:] if isinstance(entry, tuple) else entry for entry in key)


def liger(op: str) -> Callable:
    from tools import liger as liger_adapters
    from workbench.kernels.registry import spec as op_spec

    adapter, fn = liger_adapters.load(op)
    spec = op_spec(op)
    bound: dict[tuple, object] = {}

    def bound_call(args: tuple):
        key = binding_key(args)
        if key not in bound:
            if bound and _shapes_of(next(iter(bound))) != _shapes_of(key):
                # Each binding holds copies of its set's inputs: kept for every shape they pile up, the likeliest
                # reason two H200 benches with three baselines (silu_mul, rope) ran out of memory.
                bound.clear()
            bound[key] = adapter.bind(fn, args)
        return bound[key]

    def compute(*args):
        call = bound_call(args)
        return call.outputs(call.run())

    def prepare(*args) -> None:
        """Untimed, before each batch (the runner's `prepare`): the bound layouts from the refilled inputs."""
        call = bound_call(args)
        if call.refresh is not None:
            call.refresh()

    liger_call = Delivered(spec, compute)
    liger_call.prepare = prepare
    return liger_call


def native(op: str) -> Callable:
    from workbench.kernels.registry import native_op
    from workbench.kernels.registry import spec as op_spec

    return Delivered(op_spec(op), native_op(op))


def copy(src: torch.Tensor, *, out: torch.Tensor) -> torch.Tensor:
    """The bytes of `src` into `out` by an elementwise kernel on the SMs, as a memory-bound kernel moves them.

    Not `copy_`: a device-to-device memcpy captured in a CUDA graph runs on a copy engine, at 2.7 of the
    4.2 TB/s an SM kernel reaches on the H200 (benchmarks/probes/copy_probe.py), which made kernels read as
    faster than a copy.
    """
    if src.numel() % 4 == 0 and src.data_ptr() % 4 == 0 and out.data_ptr() % 4 == 0:
        torch.bitwise_or(src.view(torch.int32), 0, out=out.view(torch.int32))
    else:
        out.copy_(src)
    return out


def null(device: str) -> Callable:
    touch = torch.zeros(1, device=device)

    def nothing(*args, out=None):
        touch.add_(1)
        return out

    return nothing


def builtin(name: str, op: str, device: str) -> Callable:
    if name == "torch":
        return torch_reference(op)
    if name == "compiled":
        return compiled(op)
    if name == "liger":
        return liger(op)
    if name == "native":
        return native(op)
    if name == "copy":
        return copy
    if name == "null":
        return null(device)
    raise ValueError(f"unknown built-in contestant {name!r}")
