"""RoPE (rotate-half) in NineToothed, as a first draft: one program per BLOCK_TOKENS tokens x BLOCK_HEADS
heads, both halves of head_dim in the program; sizes picked without measuring."""

from __future__ import annotations

import functools

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import interpreting, ninetoothed_dtype
from workbench.kernels.rope.spec import SPEC

BLOCK_TOKENS = 4
BLOCK_HEADS = 4
NUM_WARPS = 4

_kernels: dict[tuple, object] = {}


def arrangement(x, sin_table, cos_table, out, half, block_tokens, block_heads):
    """x/out as (tokens, heads, the two halves); the tables one row per token, broadcast over heads."""

    def arrange_x(tensor):
        arranged = tensor.flatten(0, 2).tile((block_tokens, block_heads, half)).tile((1, 1, -1))
        arranged.dtype = arranged.dtype.squeeze((0, 1))  # (2,) of (block_tokens, block_heads, half)
        return arranged

    x_arranged = arrange_x(x)

    def arrange_table(table):
        arranged = table.flatten(0, 2).tile((block_tokens, half)).unsqueeze(1)  # the batch stride is 0
        return arranged.expand((-1, x_arranged.shape[1], -1))

    return x_arranged, arrange_table(sin_table), arrange_table(cos_table), arrange_x(out)


def application(x, sin_table, cos_table, out):
    sin = ntl.expand_dims(ntl.cast(sin_table, ntl.float32), 1)
    cos = ntl.expand_dims(ntl.cast(cos_table, ntl.float32), 1)
    x1 = ntl.cast(x[0], ntl.float32)
    x2 = ntl.cast(x[1], ntl.float32)
    out[0] = x1 * cos - x2 * sin  # the store rounds once to out's dtype
    out[1] = x2 * cos + x1 * sin


def rotate(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, out: torch.Tensor) -> None:
    batch, seq, _, head_dim = x.shape
    key = (head_dim, x.dtype, sin.dtype, BLOCK_TOKENS, BLOCK_HEADS, NUM_WARPS)
    if key not in _kernels:
        x_type, table_type = ninetoothed_dtype(x.dtype), ninetoothed_dtype(sin.dtype)
        tensors = (
            Tensor(4, dtype=x_type),
            Tensor(3, dtype=table_type),
            Tensor(3, dtype=table_type),
            Tensor(4, dtype=x_type),
        )
        arrange = functools.partial(arrangement, half=head_dim // 2, block_tokens=BLOCK_TOKENS, block_heads=BLOCK_HEADS)
        _kernels[key] = ninetoothed.make(arrange, application, tensors, kernel_name="rope", num_warps=NUM_WARPS)
    # The first seq rows of the tables, seen once per batch (a zero stride: no copy).
    sin_view = sin[:seq].expand(batch, seq, head_dim // 2)
    cos_view = cos[:seq].expand(batch, seq, head_dim // 2)
    _kernels[key](x, sin_view, cos_view, out)


def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, sin, cos, out, require_gpu=not interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    rotate(x, sin, cos, out)
    return out
