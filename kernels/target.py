"""Which GPU platform we run on, and what follows from it (docs/targets.md).

MetaX C500 builds of PyTorch still say `device="cuda"`; they are told apart by
`torch.version` (a `maca` attribute / version string). The target picks the smi
tool, the profiler, the TileLang target and the hardware facts given to the LLM.

A target is a value: `resolve(--target)` gives it, and the judge and the loop pass it on. The one
place it cannot be passed is a kernel file's compile (kernels/cpp_support.py, kernels/tilelang_support.py),
called by candidate code: that reads the process's own setting, `KERNELS_TARGET` in its environment,
which a process's entry point sets from its `--target` (a runner's, `agent ops`), else the detected one.
This module holds no state.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Literal

TargetName = Literal["cuda", "maca"]
TARGET_CHOICES = ("auto", "cuda", "maca")

# TileLang lowers for this architecture when no GPU is present to ask.
DEFAULT_CUDA_ARCH = "sm_90"


@dataclass(frozen=True)
class TargetInfo:
    name: TargetName
    smi: str
    profiler: str
    tilelang_kind: str
    warp_size: int


TARGETS: dict[str, TargetInfo] = {
    "cuda": TargetInfo("cuda", smi="nvidia-smi", profiler="ncu", tilelang_kind="cuda", warp_size=32),
    "maca": TargetInfo("maca", smi="mx-smi", profiler="mcProfiler", tilelang_kind="maca", warp_size=64),
}

# The process's target for the kernel libraries' compiles; unset (or "auto"): detected.
TARGET_ENV = "KERNELS_TARGET"


def is_metax_torch() -> bool:
    """True for MetaX (MXMACA) PyTorch builds, whose `torch.version` names MACA."""
    import torch  # here, not at the top: the command line lists the targets without loading torch

    version = torch.version
    if getattr(version, "maca", None):
        return True
    text = " ".join(str(getattr(version, k, "")) for k in dir(version) if not k.startswith("_"))
    return "maca" in text.lower() or "metax" in text.lower()


def detect() -> TargetName:
    return "maca" if is_metax_torch() else "cuda"


def resolve(requested: str = "auto") -> TargetInfo:
    if requested not in TARGET_CHOICES:
        raise ValueError(f"unknown target {requested!r}; choose one of {', '.join(TARGET_CHOICES)}")
    return TARGETS[detect() if requested == "auto" else requested]


def current() -> TargetInfo:
    """The target this process compiles kernels for: its environment's KERNELS_TARGET, else detected."""
    requested = os.environ.get(TARGET_ENV) or "auto"
    if requested not in TARGET_CHOICES:
        raise ValueError(f"{TARGET_ENV}={requested!r} names no target; set one of {', '.join(TARGET_CHOICES)}")
    return resolve(requested)


def gpu_available() -> bool:
    import torch

    return torch.cuda.is_available()


def _tilelang_target_module():
    # TileLang moved its target helpers to tilelang.backend.target in 0.1.12.
    for name in ("tilelang.backend.target", "tilelang.utils.target"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise RuntimeError("this TileLang has neither tilelang.backend.target nor tilelang.utils.target")


def tilelang_compile_target() -> object:
    """The target passed to `tilelang.compile`: the live GPU's when there is one."""
    info = current()
    if info.name == "maca":
        return "maca"
    if gpu_available():
        return _tilelang_target_module().determine_target("auto")
    return tilelang_lower_target()


def tilelang_lower_target(arch: str = DEFAULT_CUDA_ARCH) -> dict[str, str]:
    """A CUDA target for lowering to source without a GPU (no nvcc needed)."""
    return {"kind": "cuda", "arch": arch}
