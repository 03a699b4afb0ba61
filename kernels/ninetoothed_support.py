"""What the NineToothed kernel files share: dtype names and whether Triton's interpreter runs them.

Kept out of the kernel files (as kernels/tilelang_support.py is for TileLang) so that an agent's
edit to a kernel is about the kernel. With `TRITON_INTERPRET=1` in the environment the kernels run
on the CPU under Triton's interpreter (tests only) and take CPU tensors.
"""

from __future__ import annotations

import os

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
