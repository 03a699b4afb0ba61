"""SiLU-and-multiply (SwiGLU) in NineToothed: the file the agent edits for `silu_mul --backend ninetoothed`.

Design. x [..., 2I] is viewed as rows [rows, 2I]; the wrapper hands the kernel
its two halves as torch views, gate = rows[:, :I] and up = rows[:, I:] (row
stride 2I, no copy), and out as [rows, I]. All three are tiled alike into
`block_rows` x `block_cols` tiles, one tile per program, so a program loads
the gate and up tiles of the same elements, computes g * sigmoid(g) * u in
fp32 and stores once (the store rounds to out's dtype: the single rounding).
Tiles past the last row or past I are masked by NineToothed. Sizes and
strides are runtime arguments, so one made kernel serves every (rows, I) for
a given dtype and CONFIG; Triton may still specialise on the alignment of the
up half (I odd: its first element is not 16-byte aligned).

This file follows the InfiniTensor/ntops layout: `arrangement` / `application`
/ `premake`, with the made kernel cached by the torch-facing wrapper.
"""

from __future__ import annotations

import functools
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import CachedLauncher, interpreting, ninetoothed_dtype
from workbench.kernels.silu_mul.spec import SPEC
from workbench.kernels.spec import dtype_name

# Not yet timed on a GPU: 2 x 1024 elements per program is 16 per thread with 4 warps.
CONFIG = {"block_rows": 2, "block_cols": 1024, "num_warps": 4, "num_stages": 1}

SEARCH_SPACE = {
    "block_rows": [1, 2, 4, 8, 16],
    "block_cols": [256, 512, 1024, 2048, 4096],
    "num_warps": [1, 2, 4, 8, 16],
    "num_stages": [1, 2, 3],
}

# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(gate, up, out, block_rows, block_cols):
    """The same (block_rows, block_cols) tiling of gate, up and out: program k owns tile k of each."""

    def arrange(tensor):
        return tensor.tile((block_rows, block_cols))  # (row tiles, column tiles) of (block_rows, block_cols)

    return arrange(gate), arrange(up), arrange(out)


def application(gate, up, out):
    g = ntl.cast(gate, ntl.float32)
    # Assigning to `out` is NineToothed's store; it converts to out's dtype, the single rounding.
    out = g * ntl.sigmoid(g) * ntl.cast(up, ntl.float32)  # noqa: F841


def premake(dtype: torch.dtype, block_rows: int, block_cols: int) -> tuple:
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (Tensor(2, dtype=nt_dtype), Tensor(2, dtype=nt_dtype), Tensor(2, dtype=nt_dtype))
    return functools.partial(arrangement, block_rows=block_rows, block_cols=block_cols), application, tensors


def _kernel(dtype: torch.dtype):
    settings = ", ".join(f"{name}={value}" for name, value in sorted(CONFIG.items()))
    key = f"silu_mul[{dtype_name(dtype)}, {settings}]"
    if key not in _kernels:
        # Launched from a plan per shape after the first call (host cost: see CachedLauncher).
        _kernels[key] = CachedLauncher(
            ninetoothed.make(
                *premake(dtype, CONFIG["block_rows"], CONFIG["block_cols"]),
                kernel_name="silu_mul",
                num_warps=CONFIG["num_warps"],
                num_stages=CONFIG["num_stages"],
            )
        )
    return _kernels[key]


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out, require_gpu=not interpreting())
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    width = x.shape[-1]
    intermediate = width // 2
    rows = x.view(-1, width)
    # Views of the two halves (row stride 2I): no copy, the kernel reads each element once.
    _kernel(x.dtype)(rows[:, :intermediate], rows[:, intermediate:], out.view(-1, intermediate))
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
