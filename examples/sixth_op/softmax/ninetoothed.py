"""Softmax in NineToothed: the file the agent edits for `softmax --backend ninetoothed`.

Design. x [..., cols] is viewed as rows [rows, cols]; one program owns one row, loaded whole as
one tile of next_power_of_2(cols) elements, masked past `cols` (masked lanes load -inf, so they
add nothing to the max and exp(-inf) = 0 to the sum). The row max, the exponentials and their
sum are fp32; the division rounds once on store. A whole vocabulary row (128256 -> 131072
elements) is far more than one program's registers: a chunked two-pass version (as rms_norm's
NineToothed kernel has) is the obvious next design.
"""

from __future__ import annotations

import functools
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import interpreting, ninetoothed_dtype
from workbench.kernels.softmax.spec import SPEC
from workbench.kernels.spec import dtype_name

CONFIG = {"num_warps": 8, "num_stages": 1}

SEARCH_SPACE = {"num_warps": [1, 2, 4, 8, 16, 32], "num_stages": [1, 2, 3]}

# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(x, out, block_n):
    """One row per program, the whole row in one tile of `block_n` >= cols elements."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_n))  # (rows, 1) of (1, block_n)
        arranged.dtype = arranged.dtype.squeeze(0)
        return arranged

    return arrange(x), arrange(out)


def application(x, out):
    x_fp32 = ntl.cast(x, ntl.float32)
    exps = ntl.exp(x_fp32 - ntl.max(x_fp32))
    # Assigning to `out` is NineToothed's store; it converts to out's dtype, the single rounding.
    out = exps / ntl.sum(exps)  # noqa: F841


def premake(dtype: torch.dtype, block_n: int) -> tuple:
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (Tensor(2, dtype=nt_dtype, other=float("-inf")), Tensor(2, dtype=nt_dtype))
    return functools.partial(arrangement, block_n=block_n), application, tensors


def _kernel(cols: int, dtype: torch.dtype):
    block_n = 1 << (cols - 1).bit_length()
    key = f"softmax[{dtype_name(dtype)}, block_n={block_n}, num_warps={CONFIG['num_warps']}]"
    if key not in _kernels:
        _kernels[key] = ninetoothed.make(
            *premake(dtype, block_n),
            kernel_name="softmax",
            num_warps=CONFIG["num_warps"],
            num_stages=CONFIG["num_stages"],
        )
    return _kernels[key]


def softmax(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out, require_gpu=not interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    cols = x.shape[-1]
    _kernel(cols, x.dtype)(x.view(-1, cols), out.view(-1, cols))
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
