"""The backends: one object each, holding everything the rest of the code asks about a backend.

A backend is a language a kernel file is written in (`kernels/<op>/<backend>.py`): what its generated sources
are (language and file extension), the guide the `llm` policy gives the model, whether it runs without a GPU,
how the judge compiles it, and what can be done with its file on a machine without a GPU (build it, or lower
its programs to CUDA source). `torch` is the reference itself: no file to edit, nothing generated.

Plain data and lazy hooks: importing this module imports no torch, so the command line can list the backends
without loading a kernel library.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Backend:
    name: str
    language: str  # what its generated sources are written in ("cuda", "triton"); "" where it generates none
    extension: str  # the file extension of those sources
    guide: str  # the prompts/ file the llm policy gives the model for writing such a kernel file
    editable: bool = True  # has kernel files the agent edits; torch is the reference itself
    gpu_only: bool = True
    cpu_env: str | None = None  # an environment variable that, set to 1, lets its kernels run on the CPU
    parallel_first_calls: bool = False  # the judge compiles its programs on threads (independent programs)
    # Without a GPU: build a kernel file from its literals, never importing it (returns the library's path, raises
    # kernels.cpp_support.CompileError), or lower one of its programs to CUDA source (the judge's runner imports
    # the file and calls this on each program: tools/evaluator/without_gpu.py, lower_without_gpu).
    build: Callable[[Path, str], str] | None = None
    lower: Callable[[Any], str] | None = None

    def runs_here(self, cuda_available: bool) -> bool:
        """Whether its kernels can run in this process: a GPU, or the CPU stand-in its environment asks for."""
        if not self.gpu_only or cuda_available:
            return True
        return self.cpu_env is not None and os.environ.get(self.cpu_env) == "1"


def _build_maca_cpp(path: Path, op: str) -> str:
    from workbench.kernels.cpp_support import build_file

    return str(build_file(path, op))


def _lower_tilelang(program: Any) -> str:
    from workbench.kernels.tilelang_support import lower_to_source

    return lower_to_source(program)


BACKENDS: dict[str, Backend] = {
    backend.name: backend
    for backend in (
        Backend(
            "tilelang",
            language="cuda",
            extension="cu",
            guide="guide_tilelang.md",
            parallel_first_calls=True,
            lower=_lower_tilelang,
        ),
        Backend(
            "ninetoothed", language="triton", extension="py", guide="guide_ninetoothed.md", cpu_env="TRITON_INTERPRET"
        ),
        Backend("maca_cpp", language="cuda", extension="cu", guide="guide_maca_cpp.md", build=_build_maca_cpp),
        Backend("torch", language="", extension="txt", guide="guide_torch.md", editable=False, gpu_only=False),
    )
}
# The backends with kernel files to edit: what `agent optimize` and `agent bench` take.
EDITABLE: tuple[str, ...] = tuple(name for name, backend in BACKENDS.items() if backend.editable)


def backend(name: str) -> Backend:
    """The backend called `name`; a ValueError naming the known ones otherwise."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
    return BACKENDS[name]
