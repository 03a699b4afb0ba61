"""Loading a candidate kernel file as a module, by path, without touching sys.path order."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_candidate(op: str, backend: str) -> Path | None:
    """The kernel file the agent edits; the torch backend has none (it is the reference)."""
    if backend == "torch":
        return None
    return PROJECT_ROOT / "kernels" / op / f"{backend}.py"


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_candidate(
    op: str, backend: str, path: str | None, name: str = "candidate"
) -> tuple[Callable, ModuleType | None]:
    if path is None:
        from kernels.registry import torch_implementation

        return torch_implementation(op), None
    module = load_module(Path(path), f"{name}_{op}_{backend}")
    fn = getattr(module, op, None)
    if not callable(fn):
        raise AttributeError(f"{path} defines no function {op}()")
    return fn, module


def sha256_file(path: Path | None) -> str:
    if path is None:
        return "torch-reference"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def harness_sha256() -> str:
    """Hash of the evaluator and the specs: records with different hashes used different rulers."""
    digest = hashlib.sha256()
    files = [
        *sorted((PROJECT_ROOT / "tools").glob("*.py")),
        PROJECT_ROOT / "kernels" / "spec.py",
        PROJECT_ROOT / "kernels" / "validation.py",
        *sorted((PROJECT_ROOT / "kernels").glob("*/spec.py")),
    ]
    for file in files:
        digest.update(file.relative_to(PROJECT_ROOT).as_posix().encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()
