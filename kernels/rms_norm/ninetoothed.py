"""RMSNorm in NineToothed: the file the agent edits for `rms_norm --backend ninetoothed`.

Design. x [..., hidden] is viewed as rows [rows, hidden]; one program owns one
row. Two kernels, picked by row length:

- single pass (rows up to `CONFIG["max_single_pass_block"]` wide): the whole
  row is one tile of next_power_of_2(hidden) elements, masked past `hidden`
  (masked lanes load 0, so they add nothing to the sum of squares). x is read
  from memory once and kept in registers for the scaling.
- chunked (longer rows): the row is a sequence of `CONFIG["block_n"]` chunks,
  as in ntops' reduction arrangement; a first loop accumulates the sum of
  squares in fp32, a second loop reloads x and writes the result.

Both accumulate in fp32, put eps inside the rsqrt, compute
x * rsqrt(mean(x^2) + eps) * weight in fp32 and round once on store. The row
length is a runtime argument, so one single-pass kernel serves every hidden
size with the same power-of-two block (1000 -> 1024, 4097 and 5120 -> 8192).
The weight is a [rows, hidden] torch view with row stride 0, so each program
reads the same weight row.

This file follows the InfiniTensor/ntops layout: `arrangement` / `application`
/ `premake` (one set per kernel), with the made kernels cached by the
torch-facing wrapper.
"""

from __future__ import annotations

import functools
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import CachedLauncher, interpreting, ninetoothed_dtype
from workbench.kernels.rms_norm.spec import SPEC
from workbench.kernels.spec import dtype_name

# One triton.testing.do_bench run on an H200, bf16: 32768x2048 3.9 TB/s with 4 warps, 3.0 with 8;
# 16384x4096 3.6 vs 3.7. The chunked kernel (max_single_pass_block=1024) was 10-30% slower.
CONFIG = {"max_single_pass_block": 16384, "block_n": 2048, "num_warps": 4, "num_stages": 1}

SEARCH_SPACE = {
    "max_single_pass_block": [1024, 2048, 4096, 8192, 16384, 32768],
    "block_n": [256, 512, 1024, 2048, 4096],
    "num_warps": [1, 2, 4, 8, 16, 32],
    "num_stages": [1, 2, 3, 4],
}

# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(x, weight, eps, hidden, out, block_n):
    """One row per program, the whole row in one tile of `block_n` >= hidden elements."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_n))  # (rows, 1) of (1, block_n)
        arranged.dtype = arranged.dtype.squeeze(0)
        return arranged

    return arrange(x), arrange(weight), eps, hidden, arrange(out)


def application(x, weight, eps, hidden, out):
    x_fp32 = ntl.cast(x, ntl.float32)
    inv_rms = ntl.rsqrt(ntl.sum(x_fp32 * x_fp32) / hidden + eps)
    # Assigning to `out` is NineToothed's store; it converts to out's dtype, the single rounding.
    out = x_fp32 * inv_rms * ntl.cast(weight, ntl.float32)  # noqa: F841


def chunked_arrangement(x, weight, eps, hidden, out, block_n):
    """One row per program, the row as a sequence of `block_n` chunks (ntops' reduction layout)."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_n))  # (rows, chunks) of (1, block_n)
        arranged = arranged.tile((1, -1))  # (rows, 1) of (1, chunks) of (1, block_n)
        arranged.dtype = arranged.dtype.squeeze(0)
        arranged.dtype.dtype = arranged.dtype.dtype.squeeze(0)
        return arranged

    return arrange(x), arrange(weight), eps, hidden, arrange(out)


def chunked_application(x, weight, eps, hidden, out):
    sum_of_squares = ntl.zeros(x.dtype.shape, dtype=ntl.float32)
    for i in range(x.shape[0]):
        x_i = ntl.cast(x[i], ntl.float32)
        sum_of_squares += x_i * x_i
    inv_rms = ntl.rsqrt(ntl.sum(sum_of_squares) / hidden + eps)
    for i in range(x.shape[0]):
        out[i] = ntl.cast(x[i], ntl.float32) * inv_rms * ntl.cast(weight[i], ntl.float32)


def premake(dtype: torch.dtype, block_n: int, chunked: bool) -> tuple:
    arrangement_ = chunked_arrangement if chunked else arrangement
    application_ = chunked_application if chunked else application
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (
        Tensor(2, dtype=nt_dtype, other=0),  # masked lanes read 0: no effect on the sum
        Tensor(2, dtype=nt_dtype, other=0),
        Tensor(0, dtype=ninetoothed.float32),
        Tensor(0, dtype=ninetoothed.int32),
        Tensor(2, dtype=nt_dtype),
    )
    return functools.partial(arrangement_, block_n=block_n), application_, tensors


def _plan(hidden: int) -> tuple[int, bool]:
    """(block_n, chunked) for a row of `hidden` elements under the current CONFIG."""
    whole_row = 1 << (hidden - 1).bit_length()
    if whole_row <= CONFIG["max_single_pass_block"]:
        return whole_row, False
    return CONFIG["block_n"], True


def _kernel(hidden: int, dtype: torch.dtype):
    block_n, chunked = _plan(hidden)
    settings = f"num_warps={CONFIG['num_warps']}, num_stages={CONFIG['num_stages']}"
    name = "rms_norm_chunked" if chunked else "rms_norm"
    key = f"{name}[{dtype_name(dtype)}, block_n={block_n}, {settings}]"
    if key not in _kernels:
        # Launched from a plan per shape after the first call (host cost: see CachedLauncher).
        _kernels[key] = CachedLauncher(
            ninetoothed.make(
                *premake(dtype, block_n, chunked),
                kernel_name=name,
                num_warps=CONFIG["num_warps"],
                num_stages=CONFIG["num_stages"],
            )
        )
    return _kernels[key]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, weight, eps, out, require_gpu=not interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    rows = x.view(-1, hidden)
    # A view with row stride 0: every program reads the same weight row.
    weight_rows = weight.expand(rows.shape[0], hidden)
    _kernel(hidden, x.dtype)(rows, weight_rows, float(eps), hidden, out.view(-1, hidden))
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
