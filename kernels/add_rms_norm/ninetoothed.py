"""Residual add + RMSNorm in NineToothed: the file the agent edits for `add_rms_norm --backend ninetoothed`.

Design. x and residual [..., hidden] are viewed as rows [rows, hidden]; one program
owns one row, as one tile of next_power_of_2(hidden) elements masked past `hidden`
(masked lanes load 0, so they add nothing to the sum of squares). In one pass it
reads x and residual once, adds them in fp32 and rounds the sum to the model dtype
(the value Hugging Face stores and then normalises), stores that sum, and from the
same rounded values, still in registers, computes sum * rsqrt(mean(sum^2) + eps) *
weight in fp32, rounded once on store. The row length is a runtime argument, so one
kernel serves every hidden size with the same power-of-two block (1000 -> 1024,
4097 and 5120 -> 8192); the row count is dynamic. The weight is a [rows, hidden]
torch view with row stride 0, so each program reads the same weight row.

This file follows the InfiniTensor/ntops layout: `arrangement` / `application` /
`premake`, with the made kernels cached by the torch-facing wrapper.
"""

from __future__ import annotations

import functools
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.ninetoothed_support import CachedLauncher, interpreting, ninetoothed_dtype
from workbench.kernels.spec import dtype_name

# rms_norm's measured choice (H200, bf16: 4 warps 3.9 TB/s at 32768x2048, 8 warps 3.0); not yet timed here.
CONFIG = {"num_warps": 4, "num_stages": 1}

SEARCH_SPACE = {
    "num_warps": [1, 2, 4, 8, 16, 32],
    "num_stages": [1, 2, 3, 4],
}

# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(x, residual, weight, eps, hidden, summed, out, block_n):
    """One row per program, the whole row in one tile of `block_n` >= hidden elements."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_n))  # (rows, 1) of (1, block_n)
        arranged.dtype = arranged.dtype.squeeze(0)
        return arranged

    return arrange(x), arrange(residual), arrange(weight), eps, hidden, arrange(summed), arrange(out)


def application(x, residual, weight, eps, hidden, summed, out):
    # The sum rounded once to the model dtype (x.dtype is the element type): the value stored and normalised.
    h = ntl.cast(ntl.cast(ntl.cast(x, ntl.float32) + ntl.cast(residual, ntl.float32), x.dtype), ntl.float32)
    # Assigning to a parameter is NineToothed's store; it converts to that tensor's dtype.
    summed = h  # noqa: F841 (exact: h already holds a model-dtype value)
    inv_rms = ntl.rsqrt(ntl.sum(h * h) / hidden + eps)
    out = h * inv_rms * ntl.cast(weight, ntl.float32)  # noqa: F841 (the single rounding)


def premake(dtype: torch.dtype, block_n: int) -> tuple:
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (
        Tensor(2, dtype=nt_dtype, other=0),  # masked lanes read 0: no effect on the sum of squares
        Tensor(2, dtype=nt_dtype, other=0),
        Tensor(2, dtype=nt_dtype, other=0),
        Tensor(0, dtype=ninetoothed.float32),
        Tensor(0, dtype=ninetoothed.int32),
        Tensor(2, dtype=nt_dtype),
        Tensor(2, dtype=nt_dtype),
    )
    return functools.partial(arrangement, block_n=block_n), application, tensors


def _kernel(hidden: int, dtype: torch.dtype):
    block_n = 1 << (hidden - 1).bit_length()
    settings = f"num_warps={CONFIG['num_warps']}, num_stages={CONFIG['num_stages']}"
    key = f"add_rms_norm[{dtype_name(dtype)}, block_n={block_n}, {settings}]"
    if key not in _kernels:
        # Launched from a plan per shape after the first call (host cost: see CachedLauncher).
        _kernels[key] = CachedLauncher(
            ninetoothed.make(
                *premake(dtype, block_n),
                kernel_name="add_rms_norm",
                num_warps=CONFIG["num_warps"],
                num_stages=CONFIG["num_stages"],
            )
        )
    return _kernels[key]


def add_rms_norm(
    x: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    *,
    out: tuple[torch.Tensor, torch.Tensor] | None = None,
):
    SPEC.check_inputs(x, residual, weight, eps, out, require_gpu=not interpreting())
    if out is None:
        out = (torch.empty_like(x), torch.empty_like(x))
    summed, normed = out
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    rows = x.view(-1, hidden)
    # A view with row stride 0: every program reads the same weight row.
    weight_rows = weight.expand(rows.shape[0], hidden)
    _kernel(hidden, x.dtype)(
        rows,
        residual.view(-1, hidden),
        weight_rows,
        float(eps),
        hidden,
        summed.view(-1, hidden),
        normed.view(-1, hidden),
    )
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
