"""What the TileLang kernel files share: dtype names, compiling, lowering to source.

Kept out of the kernel files so that an agent's edit to a kernel is about the
kernel, while compiling and the target stay the same for every candidate.

With `KW_TILELANG_TARGET=c` in the environment, kernels compile for TileLang's C
target and run on the CPU (tests only, as TRITON_INTERPRET=1 is for NineToothed):
a CPU check of a program's index math, masking and tiling. That target knows
fp32 and elementwise programs only: it has no bfloat16 type, its fp16 vector
conversions do not compile, and it cannot lower reductions over fragments
(rms_norm, add_rms_norm); the GPU tests cover those.
"""

from __future__ import annotations

import os
import re
from typing import Any

import torch

from workbench.kernels.target import tilelang_compile_target, tilelang_lower_target

TILELANG_DTYPES: dict[torch.dtype, str] = {
    torch.bfloat16: "bfloat16",
    torch.float16: "float16",
    torch.float32: "float32",
}


def tilelang_dtype(dtype: torch.dtype) -> str:
    try:
        return TILELANG_DTYPES[dtype]
    except KeyError:
        raise ValueError(f"TileLang kernels here support {list(TILELANG_DTYPES)}, not {dtype}") from None


CPU_TARGET_ENV = "KW_TILELANG_TARGET"


def on_cpu() -> bool:
    """Whether kernels compile for TileLang's C target and take CPU tensors (see the module doc)."""
    return os.environ.get(CPU_TARGET_ENV) == "c"


def compile_kernel(prim_func: Any) -> Any:
    """JIT-compile for the selected target; all tensors (outputs too) are passed by the caller.

    The kernel is called through its compiled entry function directly (see `enter_directly`).
    """
    import tilelang

    kernel = tilelang.compile(prim_func, out_idx=None, target="c" if on_cpu() else tilelang_compile_target())
    return enter_directly(kernel)


def enter_directly(kernel: Any) -> Any:
    """Make `kernel(...)` call the compiled entry function (tvm-ffi's `main`) itself, past TileLang's wrapper.

    With every output passed by the caller (out_idx=None) the wrapper only lines the arguments up and
    then calls `main` with them: a Python loop per call, the host cost issue 16 is about. `main` is
    compiled host code that checks each argument's dtype, shape, strides and device before it launches,
    on the stream torch has current, so nothing is checked less. Other execution backends (the Cython
    one of the C target in tests) keep their own wrapper.
    """
    adapter = kernel.adapter
    if type(adapter).__name__ != "TVMFFIKernelAdapter" or adapter.result_idx:
        return kernel
    if getattr(adapter, "_ffi_callee_allocated_output_abi", False):
        return kernel
    kernel.torch_function = adapter._get_executable()["main"]  # a tvm-ffi Module, or a TVM Executable
    return kernel


def lower_to_source(prim_func: Any, arch: str | None = None) -> str:
    """Lower to CUDA source without a GPU or nvcc (TileLang needs a target context for this)."""
    import tilelang
    from tilelang import tvm

    target = tilelang_lower_target(arch) if arch else tilelang_lower_target()
    with tvm.target.Target(target):
        return tilelang.lower(prim_func, target=target).kernel_source


def access_widths(source: str, buffer: str) -> set[str]:
    """The vector types the lowered CUDA `source` uses to access global `buffer` (uint4: 16 bytes, uint2: 8).

    One `T.Parallel` loop gets one vector width for all its accesses, so a width here is how many bytes
    each load or store of that buffer moves; scalar accesses (`X[i]`) do not show.
    """
    return set(re.findall(r"\*\((\w+)\*\)\(" + re.escape(buffer) + r" \+", source))
