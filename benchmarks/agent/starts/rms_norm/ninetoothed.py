"""RMSNorm in NineToothed, as a first draft: one program per row, looping over the row in chunks of
BLOCK_SIZE twice (sum of squares, then the output); sizes picked without measuring."""

from __future__ import annotations

import functools

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import interpreting, ninetoothed_dtype
from workbench.kernels.rms_norm.spec import SPEC

BLOCK_SIZE = 512
NUM_WARPS = 4

_kernels: dict[tuple, object] = {}


def arrangement(x, weight, eps, hidden, out, block_size):
    """One row per program, the row as a sequence of `block_size` chunks (ntops' reduction layout)."""

    def arrange(tensor):
        arranged = tensor.tile((1, block_size)).tile((1, -1))  # (rows, 1) of (1, chunks) of (1, block_size)
        arranged.dtype = arranged.dtype.squeeze(0)
        arranged.dtype.dtype = arranged.dtype.dtype.squeeze(0)
        return arranged

    return arrange(x), arrange(weight), eps, hidden, arrange(out)


def application(x, weight, eps, hidden, out):
    squares = ntl.zeros(x.dtype.shape, dtype=ntl.float32)
    for i in range(x.shape[0]):
        x_i = ntl.cast(x[i], ntl.float32)
        squares += x_i * x_i
    inv_rms = ntl.rsqrt(ntl.sum(squares) / hidden + eps)
    for i in range(x.shape[0]):
        out[i] = ntl.cast(x[i], ntl.float32) * inv_rms * ntl.cast(weight[i], ntl.float32)


def _kernel(dtype: torch.dtype):
    key = (dtype, BLOCK_SIZE, NUM_WARPS)
    if key not in _kernels:
        nt = ninetoothed_dtype(dtype)
        tensors = (
            Tensor(2, dtype=nt, other=0),  # the tail of the last chunk reads 0: no effect on the sum
            Tensor(2, dtype=nt, other=0),
            Tensor(0, dtype=ninetoothed.float32),
            Tensor(0, dtype=ninetoothed.int32),
            Tensor(2, dtype=nt),
        )
        arrange = functools.partial(arrangement, block_size=BLOCK_SIZE)
        _kernels[key] = ninetoothed.make(arrange, application, tensors, kernel_name="rms_norm", num_warps=NUM_WARPS)
    return _kernels[key]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, weight, eps, out, require_gpu=not interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    rows = x.view(-1, hidden)
    # Every program reads the same weight row (a view with row stride 0).
    _kernel(x.dtype)(rows, weight.expand(rows.shape[0], hidden), float(eps), hidden, out.view(-1, hidden))
    return out
