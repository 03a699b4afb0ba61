"""Maps (backend, op) to an implementation, with the torch reference as fallback.

`operator(op, backend)` is what model code (the Llama end-to-end check) calls:
when the backend's kernel is missing, cannot be imported, cannot run here (no
GPU) or fails at run time, the torch reference takes over with a warning, and
`registered_operators(backend)` reports `torch_fallback` for that op. The
evaluator and the benchmarks never come through here: they load a candidate
with `load_native`, so a failing kernel fails instead of quietly falling back.

The operators are discovered, never listed: every package `kernels/<op>/` whose `spec.py` defines
`SPEC` (named `<op>`) is one. They are ordered by the `ORDER` number in the folder's `__init__.py`
(folders without one come last, by name); the order is presentation (tables, CLI, tests), so it lives
outside the spec and a new op's place does not change the harness hash. Everything else the folder
knows is found here too (`op_file`): its designs, its Liger adapter, torch's own ops for it
(`native_op`) and the Llama forward that calls it (`model_plan`).

`use_kernel_file(op, backend, path)` makes one op of a backend run another file
(the end-to-end check runs a candidate inside the model this way); such an op
never falls back, so a candidate that fails in the model fails the check.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Literal

import torch

from workbench.kernels.backends import BACKENDS as ALL_BACKENDS
from workbench.kernels.backends import backend as backend_of
from workbench.kernels.folders import KERNELS, op_folders
from workbench.kernels.llama import ModelPlan
from workbench.kernels.spec import OpSpec


def discover_operators() -> tuple[str, ...]:
    """The op folders under kernels/ (kernels/folders.py), each checked to define SPEC = OpSpec named after it."""
    for op in op_folders():
        op_spec = getattr(importlib.import_module(f"workbench.kernels.{op}.spec"), "SPEC", None)
        if not isinstance(op_spec, OpSpec):
            raise TypeError(f"{KERNELS / op / 'spec.py'} defines no SPEC = OpSpec(...)")
        if op_spec.name != op:
            raise ValueError(f"{KERNELS / op / 'spec.py'} names its op {op_spec.name!r}; the folder says {op!r}")
    return op_folders()


OPERATORS = discover_operators()
BACKENDS = tuple(ALL_BACKENDS)


def ops_with(backend: str) -> tuple[str, ...]:
    """The ops whose folder holds `<backend>.py` (torch: every op), in OPERATORS' order.

    A backend's kernel file, or another per-op file by the same rule (`ops_with("liger")`: the Liger adapters).
    """
    return tuple(op for op in OPERATORS if backend == "torch" or (KERNELS / op / f"{backend}.py").is_file())


Status = Literal["native", "torch_fallback"]


@dataclass(frozen=True)
class Registration:
    op: str
    backend: str
    status: Status
    reason: str = ""


def check_op(op: str) -> None:
    if op not in OPERATORS:
        raise ValueError(f"unknown operator {op!r}; known: {', '.join(OPERATORS)}")


def check_backend(backend: str) -> None:
    backend_of(backend)


def spec(op: str) -> OpSpec:
    check_op(op)
    return importlib.import_module(f"workbench.kernels.{op}.spec").SPEC


def op_file(op: str, name: str) -> ModuleType | None:
    """The op folder's `<name>.py` (designs, liger, native, ...), imported; None where the folder has none."""
    check_op(op)
    if not (KERNELS / op / f"{name}.py").is_file():
        return None
    return importlib.import_module(f"workbench.kernels.{op}.{name}")


def native_op(op: str) -> Callable | None:
    """torch's own ops for `op` in the model dtype, as a user writes them (`kernels/<op>/native.py`); None if none."""
    module = op_file(op, "native")
    return getattr(module, op) if module is not None else None


def model_plan(op: str) -> ModelPlan | None:
    """The Llama forward that calls `op` wherever it can (its folder's MODEL_PLAN); None: the model never calls it."""
    check_op(op)
    return getattr(importlib.import_module(f"workbench.kernels.{op}"), "MODEL_PLAN", None)


def torch_implementation(op: str) -> Callable[..., torch.Tensor]:
    """The reference as an op: fp32 math, rounded once, honouring `out=`."""
    op_spec = spec(op)

    def run(*args, out=None):
        op_spec.check_inputs(*args, out, require_gpu=False)
        result = op_spec.expected(args, args[0].dtype)
        if out is None:
            return result
        # One buffer per output (a tuple of them for an op with several outputs).
        for buffer, value in zip(op_spec.as_outputs(out), op_spec.as_outputs(result), strict=True):
            buffer.copy_(value)
        return out

    run.__name__ = f"{op}_torch"
    return run


def module_name(op: str, backend: str) -> str:
    return f"workbench.kernels.{op}.{backend}"


# (op, backend) -> (kernel file, its function), set by use_kernel_file.
_kernel_files: dict[tuple[str, str], tuple[Path, Callable[..., torch.Tensor]]] = {}


def use_kernel_file(op: str, backend: str, path: str | Path | None) -> None:
    """From now on `op[backend]` is the function `op` of the file at `path` (None: the backend's own file again).

    The file is imported here, so a broken one raises here. Candidate code is untrusted: call this only
    in a child process (tools/llama/e2e.py does), never in the loop's own process.
    """
    check_op(op)
    check_backend(backend)
    if path is None:
        _kernel_files.pop((op, backend), None)
        return
    fn = getattr(_load_file(Path(path), f"kernel_file_{op}_{backend}"), op, None)
    if not callable(fn):
        raise AttributeError(f"{path} defines no function {op}()")
    _kernel_files[(op, backend)] = (Path(path), fn)


def _load_file(path: Path, name: str):
    """A kernel file imported as a module under `name`, by path (sys.path untouched)."""
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    from workbench import alias_old_kernel_imports

    alias_old_kernel_imports()  # a kernel file written before the rename imports kernels.<module>
    module_spec.loader.exec_module(module)
    return module


def load_native(op: str, backend: str) -> Callable[..., torch.Tensor]:
    """The backend's own function for `op` (or its use_kernel_file); raises (ImportError, AttributeError) if none."""
    check_op(op)
    check_backend(backend)
    if (op, backend) in _kernel_files:
        return _kernel_files[(op, backend)][1]
    if backend == "torch":
        return torch_implementation(op)
    module = importlib.import_module(module_name(op, backend))
    fn = getattr(module, op, None)
    if not callable(fn):
        raise AttributeError(f"{module.__name__} defines no function {op}()")
    return fn


# Ops demoted to the fallback after a run-time failure, with the reason.
_demoted: dict[tuple[str, str], str] = {}


def registration(op: str, backend: str) -> Registration:
    check_op(op)
    check_backend(backend)
    if (op, backend) in _kernel_files:
        return Registration(op, backend, "native", f"kernel file {_kernel_files[(op, backend)][0]}")
    if (op, backend) in _demoted:
        return Registration(op, backend, "torch_fallback", _demoted[(op, backend)])
    if not backend_of(backend).runs_here(torch.cuda.is_available()):
        return Registration(op, backend, "torch_fallback", "no GPU visible to PyTorch")
    try:
        load_native(op, backend)
    except Exception as err:  # an import of a broken kernel file can raise anything
        return Registration(op, backend, "torch_fallback", f"{type(err).__name__}: {err}")
    return Registration(op, backend, "native")


def registered_operators(backend: str) -> dict[str, Status]:
    """`native` or `torch_fallback` for every operator of `backend`."""
    return {op: registration(op, backend).status for op in OPERATORS}


def operator(op: str, backend: str) -> Callable[..., torch.Tensor]:
    """The op for model code: the native kernel, or the torch reference with a warning."""
    if (op, backend) in _kernel_files:
        return _kernel_files[(op, backend)][1]  # a kernel file under test: no fallback to hide its failures
    reg = registration(op, backend)
    fallback = torch_implementation(op)
    if reg.status == "torch_fallback":
        warnings.warn(f"{op}[{backend}] falls back to torch: {reg.reason}", RuntimeWarning, stacklevel=2)
        return fallback
    native = load_native(op, backend)

    def run(*args, **kwargs):
        if (op, backend) in _demoted:
            return fallback(*args, **kwargs)
        try:
            return native(*args, **kwargs)
        except (TypeError, ValueError):
            raise  # the caller's arguments are wrong; the torch path would refuse them too
        except Exception as err:
            _demoted[(op, backend)] = f"failed at run time: {type(err).__name__}: {err}"
            warnings.warn(
                f"{op}[{backend}] failed ({err}); falling back to torch from now on",
                RuntimeWarning,
                stacklevel=2,
            )
            return fallback(*args, **kwargs)

    run.__name__ = f"{op}_{backend}"
    return run
