"""RoPE on q and k in one launch, in NineToothed: the file the agent edits for `rope_qk --backend ninetoothed`.

Design. q [batch, seq, q_heads, head_dim] and k [batch, seq, kv_heads, head_dim]
are seen as [tokens, heads, head_dim] (symbolic flattens, no copies). The grid
is (token tiles, head groups): a program takes `block_tokens` tokens and one of
`groups` slices of the heads, q_heads / groups of q and kv_heads / groups of k
(Llama's 32 and 8 split into up to 8 such pairs), so one table row per token is
loaded once and serves the q and the k heads of the slice. `groups` is the
largest divisor of both head counts not above `head_groups`: more groups give
decode calls (a few tokens) more programs, fewer give each program more heads
per table load. Each head's two halves are sub-tiles (`q[0]`, `q[1]`), both in
registers before anything is stored; math in fp32, one rounding on store.
Tiles past the end of tokens or of head_dim // 2 (80 or 96 wide heads: halves of
40 or 48, padded to 64) are masked by NineToothed.

The arrangement needs the head counts per group and head_dim // 2 as tile
sizes, so one kernel is made per (q_heads, kv_heads, head_dim, dtype, CONFIG);
the token count stays a runtime value.
"""

from __future__ import annotations

import functools
import pathlib

import ninetoothed
import ninetoothed.language as ntl
import torch
from ninetoothed import Tensor

from workbench.kernels.ninetoothed_support import CachedLauncher, interpreting, ninetoothed_dtype
from workbench.kernels.rope_qk.spec import SPEC, head_groups
from workbench.kernels.spec import dtype_name

# rope's tuned tile (16 tokens x 8 heads, 4 warps) carried over, with the heads split in 8 groups so a
# Llama program holds 4 q heads and 1 k head per token. 12 other tilings were swept on the H200
# (benchmarks/probes/tiling_sweeps.md); the pick, num_warps 2, was 1.004x under the judge: kept.
CONFIG = {"block_tokens": 16, "head_groups": 8, "num_warps": 4, "num_stages": 1}

SEARCH_SPACE = {
    "block_tokens": [1, 2, 4, 8, 16, 32],
    "head_groups": [1, 2, 4, 8],
    "num_warps": [1, 2, 4, 8, 16],
    "num_stages": [1, 2, 3],
}

# Made kernels by cache key; generated_source() reads their Triton files.
_kernels: dict[str, object] = {}


def arrangement(q, k, sin_table, cos_table, q_out, k_out, half, block_tokens, q_group, kv_group):
    """Tile q/k as (token tiles, head groups) of (tokens, heads, halves); tables by token, shared by the groups."""

    def arrange_heads(tensor, group):
        arranged = tensor.flatten(0, 2)  # (tokens, heads, head_dim)
        # The last dim splits into exactly two tiles of `half`: the rotate-half pair.
        arranged = arranged.tile((block_tokens, group, half))
        arranged = arranged.tile((1, 1, -1))  # group the pair inside one program
        arranged.dtype = arranged.dtype.squeeze((0, 1))  # (2,) of (block_tokens, group, half)
        return arranged

    q_arranged = arrange_heads(q, q_group)

    def arrange_table(table):
        arranged = table.flatten(0, 2)  # (tokens, half); the batch stride is 0
        arranged = arranged.tile((block_tokens, half))  # (token tiles, 1) of (block_tokens, half)
        arranged = arranged.unsqueeze(1)  # every head group of a token tile reads the same rows
        return arranged.expand((-1, q_arranged.shape[1], -1))

    return (
        q_arranged,
        arrange_heads(k, kv_group),
        arrange_table(sin_table),
        arrange_table(cos_table),
        arrange_heads(q_out, q_group),
        arrange_heads(k_out, kv_group),
    )


def application(q, k, sin_table, cos_table, q_out, k_out):
    # (block_tokens, 1, half): one load per token, broadcast over the heads of q and of k.
    sin = ntl.expand_dims(ntl.cast(sin_table, ntl.float32), 1)
    cos = ntl.expand_dims(ntl.cast(cos_table, ntl.float32), 1)
    q1 = ntl.cast(q[0], ntl.float32)
    q2 = ntl.cast(q[1], ntl.float32)
    k1 = ntl.cast(k[0], ntl.float32)
    k2 = ntl.cast(k[1], ntl.float32)
    # The stores convert to the outputs' dtype: the single rounding of each result.
    q_out[0] = q1 * cos - q2 * sin
    q_out[1] = q2 * cos + q1 * sin
    k_out[0] = k1 * cos - k2 * sin
    k_out[1] = k2 * cos + k1 * sin


def premake(
    q_heads: int,
    kv_heads: int,
    head_dim: int,
    dtype: torch.dtype,
    block_tokens: int,
    groups: int,
    table_dtype: torch.dtype = torch.float32,
) -> tuple:
    arrangement_ = functools.partial(
        arrangement,
        half=head_dim // 2,
        block_tokens=block_tokens,
        q_group=q_heads // groups,
        kv_group=kv_heads // groups,
    )
    nt_dtype = ninetoothed_dtype(dtype)
    tensors = (
        Tensor(4, dtype=nt_dtype),
        Tensor(4, dtype=nt_dtype),
        Tensor(3, dtype=ninetoothed_dtype(table_dtype)),
        Tensor(3, dtype=ninetoothed_dtype(table_dtype)),
        Tensor(4, dtype=nt_dtype),
        Tensor(4, dtype=nt_dtype),
    )
    return arrangement_, application, tensors


# The same kernels by the call's own arguments and CONFIG's values: looked up on every call without
# formatting the name key again (a host cost at decode, where the launch is most of the time).
_by_call: dict[tuple, object] = {}


def _kernel(q_heads: int, kv_heads: int, head_dim: int, dtype: torch.dtype, table_dtype: torch.dtype):
    fast = (q_heads, kv_heads, head_dim, dtype, table_dtype, *CONFIG.items())
    kernel = _by_call.get(fast)
    if kernel is None:
        kernel = _by_call[fast] = _made(q_heads, kv_heads, head_dim, dtype, table_dtype)
    return kernel


def _made(q_heads: int, kv_heads: int, head_dim: int, dtype: torch.dtype, table_dtype: torch.dtype):
    groups = head_groups(q_heads, kv_heads, CONFIG["head_groups"])
    settings = ", ".join(f"{name}={value}" for name, value in sorted(CONFIG.items()))
    key = (
        f"rope_qk[heads={q_heads}/{kv_heads}, head_dim={head_dim}, groups={groups}, {dtype_name(dtype)}, "
        f"tables {dtype_name(table_dtype)}, {settings}]"
    )
    if key not in _kernels:
        # Launched from a plan per shape after the first call (host cost: see CachedLauncher).
        _kernels[key] = CachedLauncher(
            ninetoothed.make(
                *premake(q_heads, kv_heads, head_dim, dtype, CONFIG["block_tokens"], groups, table_dtype),
                kernel_name="rope_qk",
                num_warps=CONFIG["num_warps"],
                num_stages=CONFIG["num_stages"],
            )
        )
    return _kernels[key]


def rope_qk(
    q: torch.Tensor,
    k: torch.Tensor,
    sin: torch.Tensor,
    cos: torch.Tensor,
    *,
    out: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    SPEC.check_inputs(q, k, sin, cos, out, require_gpu=not interpreting())
    if out is None:
        out = (torch.empty_like(q), torch.empty_like(k))
    q_out, k_out = out
    if q.numel() == 0:  # no tokens: check_inputs has made sure both have heads
        return out
    batch, seq, q_heads, head_dim = q.shape
    # Views, not copies: a zero batch stride lets the kernel index tables by flattened token.
    if sin.shape[0] != seq:  # the first seq rows: a model may pass longer tables (sliced only then: a view costs)
        sin, cos = sin[:seq], cos[:seq]
    sin_view = sin.expand(batch, seq, head_dim // 2)
    cos_view = cos.expand(batch, seq, head_dim // 2)
    _kernel(q_heads, k.shape[2], head_dim, q.dtype, sin.dtype)(q, k, sin_view, cos_view, q_out, k_out)
    return out


def generated_source() -> dict[str, str]:
    """Triton source NineToothed generated for every kernel made in this process, by cache key."""
    return {key: pathlib.Path(kernel._source).read_text() for key, kernel in _kernels.items()}
