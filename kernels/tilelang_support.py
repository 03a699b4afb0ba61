"""What the TileLang kernel files share: dtype names, compiling, lowering to source.

Kept out of the kernel files so that an agent's edit to a kernel is about the
kernel, while compiling and the target stay the same for every candidate.
"""

from __future__ import annotations

from typing import Any

import torch

from kernels.target import tilelang_compile_target, tilelang_lower_target

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


def compile_kernel(prim_func: Any) -> Any:
    """JIT-compile for the selected target; all tensors (outputs too) are passed by the caller."""
    import tilelang

    return tilelang.compile(prim_func, out_idx=None, target=tilelang_compile_target())


def lower_to_source(prim_func: Any, arch: str | None = None) -> str:
    """Lower to CUDA source without a GPU or nvcc (TileLang needs a target context for this)."""
    import tilelang
    from tilelang import tvm

    target = tilelang_lower_target(arch) if arch else tilelang_lower_target()
    with tvm.target.Target(target):
        return tilelang.lower(prim_func, target=target).kernel_source
