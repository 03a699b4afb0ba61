"""Liger-Kernel as an optional baseline: loading it, finding each op's adapter, checking it.

Liger-Kernel (linkedin/Liger-Kernel) is pure Python + Triton. When it is importable the
benchmark times its kernel for the op beside the candidate, under the same protocol
(`time_events`, L2 flushed), after checking its output against the op's spec with the same
`spec.compare` the candidate passes: a mis-adapted baseline shows as wrong, never as a speedup.
Without it, the baseline is skipped with a note; it never fails the candidate.

The adapters live in the op folders: `kernels/<op>/liger.py` names Liger's function for the op
(`LIGER_MODULE`, `LIGER_NAME`) and `bind(fn, args)` prepares one set of our inputs for it; an op
folder without one has no Liger baseline. They were written against liger-kernel 0.8.5 (the
wheel's source was read; `LIGER_VERSION` below).

Each adapter does its preparation (copies, layout and tables) when it is bound to a set of
inputs, outside the timed region; the timed call is Liger's public function alone, so Liger
pays for nothing our API asks and its own does not. What each one does is said at the adapter.
Liger returns fresh tensors (it has no `out=`), so its timed calls also include the caching
allocator's handing out of its outputs, as the torch.compile baseline's do.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass

import torch

from workbench.kernels.liger_support import LigerCall
from workbench.kernels.registry import OPERATORS, op_file
from workbench.kernels.spec import Comparison, OpSpec

__all__ = ["ADAPTERS", "LIGER_VERSION", "Adapter", "LigerCall", "LigerUnavailable", "check", "load"]

# The release whose source the adapters (kernels/<op>/liger.py) were written against.
LIGER_VERSION = "0.8.5"


class LigerUnavailable(Exception):
    """The Liger baseline cannot run here; the message says why (it becomes the record's note)."""


@dataclass(frozen=True)
class Adapter:
    """How one of our ops maps onto Liger: the function to import and how to call it on our inputs."""

    op: str
    module: str
    name: str
    bind: Callable[[Callable, tuple], LigerCall]

    @property
    def api(self) -> str:
        return f"{self.module}.{self.name}"


def adapter_of(op: str) -> Adapter | None:
    """The adapter in `kernels/<op>/liger.py`, or None when the op folder has none."""
    module = op_file(op, "liger")
    return None if module is None else Adapter(op, module.LIGER_MODULE, module.LIGER_NAME, module.bind)


# Every op folder's adapter, in the registry's order.
ADAPTERS: dict[str, Adapter] = {op: a for op in OPERATORS if (a := adapter_of(op)) is not None}


def _apply(function: Callable) -> Callable:
    """An autograd.Function's `apply` (Liger's ops are autograd Functions; the forward is what runs here)."""
    return function.apply


def installed_version() -> str | None:
    """liger-kernel's version, or None when it is not installed."""
    try:
        return importlib.metadata.version("liger_kernel")
    except importlib.metadata.PackageNotFoundError:
        return None


def load(op: str) -> tuple[Adapter, Callable]:
    """The op's adapter and Liger's function for it; raises LigerUnavailable with the reason otherwise."""
    adapter = ADAPTERS.get(op)
    if adapter is None:
        raise LigerUnavailable(f"Liger-Kernel has no kernel for {op}")
    try:
        importlib.import_module("liger_kernel")
    except ModuleNotFoundError as err:
        if err.name == "liger_kernel":
            raise LigerUnavailable("liger-kernel not installed") from None
        raise LigerUnavailable(f"import liger_kernel failed: {err}") from None
    except Exception as err:  # a broken install is a missing baseline, never a failed candidate
        raise LigerUnavailable(f"import liger_kernel failed: {type(err).__name__}: {err}") from None
    try:
        module = importlib.import_module(adapter.module)
        function = getattr(module, adapter.name)
    except (ImportError, AttributeError) as err:
        version = installed_version() or "?"
        raise LigerUnavailable(
            f"liger-kernel {version} has no {adapter.api} (adapters written against {LIGER_VERSION}): {err}"
        ) from None
    except Exception as err:
        raise LigerUnavailable(f"import {adapter.module} failed: {type(err).__name__}: {err}") from None
    return adapter, _apply(function) if isinstance(function, type) else function


def check(call: LigerCall, spec: OpSpec, args: tuple, dtype: torch.dtype) -> Comparison:
    """Run Liger once on `args` and compare what it gives back with the op's fp32 reference (the spec's check)."""
    return spec.compare(call.outputs(call.run()), args, dtype)
