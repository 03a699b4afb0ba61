"""RoPE (rotate-half) in NineToothed: the file the agent edits for `rope --backend ninetoothed`.

Design. x [batch, seq, heads, head_dim] is seen by the arrangement as
[tokens = batch * seq, heads, head_dim] (a symbolic flatten, no copy). One
program takes a tile of `block_tokens` tokens x `block_heads` heads and the two
halves of head_dim as two sub-tiles (`x[0]`, `x[1]`), so both halves of a head
are in registers before anything is stored. The fp32 tables, viewed by torch as
[batch, seq, head_dim // 2] with a zero batch stride, are flattened the same
way and tiled by token only: one table row per token is loaded once and
broadcast over the heads of the tile. The math is fp32 and the store rounds
once to x's dtype. Tiles past the end of tokens, heads or head_dim // 2 (80 or
96 wide heads give halves of 40 or 48, padded to 64) are masked by NineToothed.

The arrangement needs head_dim // 2 as a tile size, so one kernel is made per
(head_dim, dtype, CONFIG); token and head counts stay runtime values.

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
from workbench.kernels.rope.spec import SPEC
from workbench.kernels.spec import dtype_name

# One triton.testing.do_bench run on an H200, bf16 llama3-8b/prefill16384/q: 3.7 TB/s with this
# setting, 3.0 TB/s with block_tokens=4 (small shapes were launch-bound and did not discriminate).
CONFIG = {
    "block_tokens": 16,
    "block_heads": 8,
    "num_warps": 4,
    "num_stages": 1,
    "small_block_tokens": 16,
    "small_block_heads": 8,
    "small_num_warps": 4,
}

SEARCH_SPACE = {
    "block_tokens": [1, 2, 4, 8, 16, 32],
    "block_heads": [1, 2, 4, 8, 16, 32],
    "num_warps": [1, 2, 4, 8, 16],
    "num_stages": [1, 2, 3],
    "small_block_tokens": [1, 2, 4, 8, 16],
    "small_block_heads": [1, 2, 4, 8, 16, 32],
    "small_num_warps": [1, 2, 4, 8],
}

# Calls of at most SMALL_TOKENS tokens (decode) use the small_* tiling, larger ones (prefill) the rest,
# as in the TileLang file: a decode call with 16-token tiles runs 1-4 programs (8B decode8 q: 8 tokens x
# 32 heads in tiles of 16 x 8), and the search can split it without slowing prefill. Equal by default.
SMALL_TOKENS = 256
TILING_KEYS = ("block_tokens", "block_heads", "num_warps")


def tiling(tokens: int) -> dict[str, int]:
    """The tile and warp count for a call on `tokens` tokens (batch * seq)."""
    prefix = "small_" if tokens <= SMALL_TOKENS else ""
    return {key: CONFIG[prefix + key] for key in TILING_KEYS}


# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(x, sin_table, cos_table, out, half, block_tokens, block_heads):
    """Tile x/out as (tokens, heads, halves) and the tables as one row per token, broadcast over heads."""

    def arrange_x(tensor):
        arranged = tensor.flatten(0, 2)  # (tokens, heads, head_dim)
        # The last dim splits into exactly two tiles of `half`: the rotate-half pair.
        arranged = arranged.tile((block_tokens, block_heads, half))
        arranged = arranged.tile((1, 1, -1))  # group the pair inside one program
        arranged.dtype = arranged.dtype.squeeze((0, 1))  # (2,) of (block_tokens, block_heads, half)
        return arranged

    x_arranged = arrange_x(x)

    def arrange_table(table):
        arranged = table.flatten(0, 2)  # (tokens, half); the batch stride is 0
        arranged = arranged.tile((block_tokens, half))  # (token tiles, 1) of (block_tokens, half)
        # Give the table the same outer shape as x so every program finds its tokens' rows.
        arranged = arranged.unsqueeze(1)
        return arranged.expand((-1, x_arranged.shape[1], -1))

    return x_arranged, arrange_table(sin_table), arrange_table(cos_table), arrange_x(out)


def application(x, sin_table, cos_table, out):
    # (block_tokens, 1, half): one load per token, broadcast over the tile's heads.
    sin = ntl.expand_dims(ntl.cast(sin_table, ntl.float32), 1)
    cos = ntl.expand_dims(ntl.cast(cos_table, ntl.float32), 1)
    x1 = ntl.cast(x[0], ntl.float32)
    x2 = ntl.cast(x[1], ntl.float32)
    # The store converts to out's dtype: the single rounding of the result.
    out[0] = x1 * cos - x2 * sin
    out[1] = x2 * cos + x1 * sin


def premake(
    head_dim: int, dtype: torch.dtype, block_tokens: int, block_heads: int, table_dtype: torch.dtype = torch.float32
) -> tuple:
    arrangement_ = functools.partial(
        arrangement, half=head_dim // 2, block_tokens=block_tokens, block_heads=block_heads
    )
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (
        Tensor(4, dtype=nt_dtype),
        Tensor(3, dtype=ninetoothed_dtype(table_dtype)),
        Tensor(3, dtype=ninetoothed_dtype(table_dtype)),
        Tensor(4, dtype=nt_dtype),
    )
    return arrangement_, application, tensors


def _kernel(head_dim: int, dtype: torch.dtype, tokens: int, table_dtype: torch.dtype):
    config = {**tiling(tokens), "num_stages": CONFIG["num_stages"]}
    settings = ", ".join(f"{name}={value}" for name, value in sorted(config.items()))
    tables = dtype_name(table_dtype)
    key = f"rope[head_dim={head_dim}, {dtype_name(dtype)}, tables {tables}, {settings}]"  # equal tilings: one kernel
    if key not in _kernels:
        # Launched from a plan per shape after the first call (host cost: see CachedLauncher).
        _kernels[key] = CachedLauncher(
            ninetoothed.make(
                *premake(head_dim, dtype, config["block_tokens"], config["block_heads"], table_dtype),
                kernel_name="rope",
                num_warps=config["num_warps"],
                num_stages=config["num_stages"],
            )
        )
    return _kernels[key]


def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, sin, cos, out, require_gpu=not interpreting())
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    batch, seq, _, head_dim = x.shape
    # Views, not copies: a zero batch stride lets the kernel index tables by flattened token.
    # The first seq rows (a model may pass longer tables), seen once per batch (a zero stride: no copy).
    if sin.shape[0] != seq:  # a slice only when needed: each view costs the host about a microsecond
        sin, cos = sin[:seq], cos[:seq]
    sin_view = sin.expand(batch, seq, head_dim // 2)
    cos_view = cos.expand(batch, seq, head_dim // 2)
    _kernel(head_dim, x.dtype, batch * seq, sin.dtype)(x, sin_view, cos_view, out)
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
