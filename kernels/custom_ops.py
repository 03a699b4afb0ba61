"""Each op's kernel of a backend as a torch custom op: `torch.ops.workbench.<op>_<backend>` and its `out=` form.

A TileLang or NineToothed launch is Python that `torch.compile` cannot trace; a custom op with a fake
(meta) implementation is opaque to it instead: Dynamo records one call with the output shapes the fake
gives, so a model that calls these ops compiles with `fullgraph=True`, and under CUDA graphs the kernel is
captured like any other launch. Two ops per (op, backend):

    workbench::rms_norm_tilelang(x, weight, eps) -> Tensor                 new outputs, like the kernel's
    workbench::rms_norm_tilelang_out(x, weight, eps, Tensor(a!) out) -> () writes the caller's buffers

(an op with several outputs, add_rms_norm and rope_qk, returns a tuple and takes one buffer per output).
The schema comes from the op's spec (its reference's annotations, its `outputs`), so a new op folder needs
no line here. The kernel is what model code gets from the registry (`registry.operator`): the backend's
file (`agent adopt` writes it), a file set with `use_kernel_file`, or the torch reference where the backend
cannot run here, with the registry's warning. The torch backend is the reference itself, and runs anywhere.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass

import torch

from workbench.kernels.registry import Status, check_backend, operator, registration, spec

NAMESPACE = "workbench"

# Schema types of the annotations an op's reference uses.
_SCHEMA_TYPES = {torch.Tensor: "Tensor", float: "float", int: "int", bool: "bool"}


@dataclass(frozen=True)
class CustomOp:
    """One registered (op, backend): the functional op, its out= form, and which kernel is behind them."""

    op: str
    backend: str
    functional: torch._ops.OpOverloadPacket
    out: torch._ops.OpOverloadPacket
    status: Status  # native, or torch_fallback (the registry's reason in `reason`)
    reason: str = ""

    @property
    def name(self) -> str:
        return f"{NAMESPACE}::{op_name(self.op, self.backend)}"


def op_name(op: str, backend: str) -> str:
    """The op's name in the namespace, e.g. `rms_norm_tilelang`."""
    return f"{op}_{backend}"


def schema_arguments(op: str) -> str:
    """`Tensor x, Tensor weight, float eps`: the op's inputs, from its reference's signature and annotations."""
    reference = spec(op).reference
    hints = typing.get_type_hints(reference)
    parts = []
    for name in inspect.signature(reference).parameters:
        kind = _SCHEMA_TYPES.get(hints.get(name))
        if kind is None:
            raise TypeError(
                f"kernels/{op}/spec.py: reference() argument {name!r} is annotated {hints.get(name)!r}; "
                f"a custom op takes {', '.join(t.__name__ for t in _SCHEMA_TYPES)}"
            )
        parts.append(f"{kind} {name}")
    return ", ".join(parts)


# The kernels behind the registered ops, by op name. torch's op table is process-wide, so this is too:
# registering an (op, backend) again (after use_kernel_file, say) points its op at the kernel found then.
_kernels: dict[str, Callable[..., object]] = {}
_registered: dict[str, CustomOp] = {}


def register(op: str, backend: str) -> CustomOp:
    """Register op[backend] (both forms) once per process, and point it at the registry's kernel for it now."""
    check_backend(backend)
    op_spec = spec(op)  # checks the op
    name = op_name(op, backend)
    reg = registration(op, backend)
    _kernels[name] = operator(op, backend)  # warns here, once, when the torch reference stands in
    if name in _registered:
        known = _registered[name]
        _registered[name] = CustomOp(op, backend, known.functional, known.out, reg.status, reg.reason)
        return _registered[name]

    arguments = schema_arguments(op)
    several = op_spec.multi_output
    returns = "(" + ", ".join("Tensor" for _ in op_spec.outputs) + ")" if several else "Tensor"
    # One buffer per output: `out`, or `out_<output>` for several (rope_qk's outputs are named like its inputs).
    names = [f"out_{output}" for output in op_spec.outputs] if several else ["out"]
    buffers = ", ".join(f"Tensor({chr(ord('a') + i)}!) {buffer}" for i, buffer in enumerate(names))

    def functional(*args):
        result = _kernels[name](*args)
        # A custom op's outputs may not alias its inputs or each other; a kernel owes new tensors anyway.
        return tuple(result) if several else result

    def fake(*args):
        outputs = tuple(op_spec.empty_output(args, i) for i in range(len(op_spec.outputs)))
        return outputs if several else outputs[0]

    def into(*args):
        inputs, buffers_given = args[: -len(op_spec.outputs)], args[-len(op_spec.outputs) :]
        _kernels[name](*inputs, out=buffers_given if several else buffers_given[0])

    functional_op = torch.library.custom_op(
        f"{NAMESPACE}::{name}", functional, mutates_args=(), schema=f"({arguments}) -> {returns}"
    )
    functional_op.register_fake(fake)
    out_op = torch.library.custom_op(
        f"{NAMESPACE}::{name}_out", into, mutates_args=tuple(names), schema=f"({arguments}, {buffers}) -> ()"
    )
    out_op.register_fake(lambda *args: None)
    namespace = getattr(torch.ops, NAMESPACE)
    _registered[name] = CustomOp(
        op, backend, getattr(namespace, name), getattr(namespace, f"{name}_out"), reg.status, reg.reason
    )
    return _registered[name]


def register_all(backend: str) -> dict[str, CustomOp]:
    """Every op of `backend` registered (an op the backend has no file for runs the torch reference)."""
    from workbench.kernels.registry import OPERATORS

    return {op: register(op, backend) for op in OPERATORS}
