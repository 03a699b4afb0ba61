"""SiLU-and-multiply in NineToothed, as a first draft: one program per row chunk of BLOCK_SIZE outputs,
reading gate and up through two views of x; sizes picked without measuring."""

from __future__ import annotations

import functools

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import interpreting, ninetoothed_dtype
from workbench.kernels.silu_mul.spec import SPEC

BLOCK_SIZE = 1024
NUM_WARPS = 4

_kernels: dict[tuple, object] = {}


def arrangement(gate, up, out, block_size):
    return gate.tile((1, block_size)), up.tile((1, block_size)), out.tile((1, block_size))


def application(gate, up, out):
    g = ntl.cast(gate, ntl.float32)
    out = g * ntl.sigmoid(g) * ntl.cast(up, ntl.float32)  # noqa: F841 (the store rounds once to out's dtype)


def _kernel(dtype: torch.dtype):
    key = (dtype, BLOCK_SIZE, NUM_WARPS)
    if key not in _kernels:
        tensors = tuple(Tensor(2, dtype=ninetoothed_dtype(dtype)) for _ in range(3))
        arrange = functools.partial(arrangement, block_size=BLOCK_SIZE)
        _kernels[key] = ninetoothed.make(arrange, application, tensors, kernel_name="silu_mul", num_warps=NUM_WARPS)
    return _kernels[key]


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out, require_gpu=not interpreting())
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    inter = x.shape[-1] // 2
    rows = x.view(-1, 2 * inter)
    _kernel(x.dtype)(rows[:, :inter], rows[:, inter:], out.view(-1, inter))
    return out
