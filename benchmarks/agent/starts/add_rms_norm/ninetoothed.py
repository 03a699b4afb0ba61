"""Residual add + RMSNorm in NineToothed, as a first draft: one program per row, looping over the row in
chunks of BLOCK_SIZE twice (the rounded sum and its squares, then the outputs); sizes picked without
measuring."""

from __future__ import annotations

import functools

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.ninetoothed_support import interpreting, ninetoothed_dtype

BLOCK_SIZE = 512
NUM_WARPS = 4

_kernels: dict[tuple, object] = {}


def arrangement(x, residual, weight, eps, hidden, summed, out, block_size):
    """One row per program, the row as a sequence of `block_size` chunks (ntops' reduction layout)."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_size)).tile((1, -1))  # (rows, 1) of (1, chunks) of (1, block_size)
        arranged.dtype = arranged.dtype.squeeze(0)
        arranged.dtype.dtype = arranged.dtype.dtype.squeeze(0)
        return arranged

    tiled = [arrange(t) for t in (x, residual, weight, summed, out)]
    return tiled[0], tiled[1], tiled[2], eps, hidden, tiled[3], tiled[4]


def application(x, residual, weight, eps, hidden, summed, out):
    squares = ntl.zeros(x.dtype.shape, dtype=ntl.float32)
    for i in range(x.shape[0]):
        # The sum rounded once to the model dtype: the value stored and the value normalised.
        h = ntl.cast(ntl.cast(x[i], ntl.float32) + ntl.cast(residual[i], ntl.float32), x.dtype.dtype)
        summed[i] = h
        h = ntl.cast(h, ntl.float32)
        squares += h * h
    inv_rms = ntl.rsqrt(ntl.sum(squares) / hidden + eps)
    for i in range(x.shape[0]):
        h = ntl.cast(
            ntl.cast(ntl.cast(x[i], ntl.float32) + ntl.cast(residual[i], ntl.float32), x.dtype.dtype), ntl.float32
        )
        out[i] = h * inv_rms * ntl.cast(weight[i], ntl.float32)


def _kernel(dtype: torch.dtype):
    key = (dtype, BLOCK_SIZE, NUM_WARPS)
    if key not in _kernels:
        nt = ninetoothed_dtype(dtype)
        tensors = (
            Tensor(2, dtype=nt, other=0),  # the tail of the last chunk reads 0: no effect on the sum
            Tensor(2, dtype=nt, other=0),
            Tensor(2, dtype=nt, other=0),
            Tensor(0, dtype=ninetoothed.float32),
            Tensor(0, dtype=ninetoothed.int32),
            Tensor(2, dtype=nt),
            Tensor(2, dtype=nt),
        )
        arrange = functools.partial(arrangement, block_size=BLOCK_SIZE)
        _kernels[key] = ninetoothed.make(arrange, application, tensors, kernel_name="add_rms_norm", num_warps=NUM_WARPS)
    return _kernels[key]


def add_rms_norm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float, *, out=None):
    SPEC.check_inputs(x, residual, weight, eps, out, require_gpu=not interpreting())
    if out is None:
        out = (torch.empty_like(x), torch.empty_like(x))
    summed, normed = out
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    rows = x.view(-1, hidden)
    weight_rows = weight.expand(rows.shape[0], hidden)  # every program reads the same weight row
    _kernel(x.dtype)(
        rows,
        residual.view(-1, hidden),
        weight_rows,
        float(eps),
        hidden,
        summed.view(-1, hidden),
        normed.view(-1, hidden),
    )
    return out
