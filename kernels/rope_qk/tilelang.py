"""RoPE on q and k in one launch, in TileLang: the file the agent edits for `rope_qk --backend tilelang`.

Design. q and k are viewed as [tokens, heads, head_dim] (tokens = batch * seq).
The grid is (token blocks, head groups): a block takes `block_tokens` tokens and
one of `groups` slices of the heads, q_heads / groups of q and kv_heads / groups
of k (Llama's 32 and 8 split into up to 8 such pairs), so the table entries of
a token are fetched from DRAM once for the q and the k heads of the slice (the
repeats hit the cache). `groups` is the largest divisor of both head counts not
above `head_groups`: more groups give decode calls more blocks, fewer give each
block more heads per table row. Each thread handles (token, head, j) triples of
the first half, reading x[.., j] and x[.., j + half] and the fp32 tables at the
token's position (token % seq), doing fp32 math and rounding once on store. The
token count and seq are dynamic: one compiled kernel serves every token count
of a size class (decode calls of at most SMALL_TOKENS tokens with the small_*
tiling, prefill with the rest) for a given (q_heads, kv_heads, head_dim, dtype,
config); tokens past the end are masked.

`copy_tiles` moves q, k and their outputs through register tiles with T.copy,
as rope's TileLang kernel can: in one T.Parallel loop the fp32 tables cap the
vector width at 4 lanes, so bf16 data moves 8 bytes per access; a T.copy is a
loop of its own and moves 16 bytes where each thread's share allows. Where
TileLang cannot lay out a tile (see _tile_fits) the direct loop runs instead.

`rows` (per size class) switches to another design, build_rows: q and k as
rows of head_dim, some blocks on q rows and the rest on k rows, as rope's
kernel tiles x. Prefill runs it; decode keeps the heads design.
"""

# No `from __future__ import annotations`: TileLang evaluates the kernel's
# parameter annotations, which refer to local sizes.
import torch

from workbench.kernels.rope_qk.spec import SPEC, head_groups
from workbench.kernels.tilelang_support import compile_kernel, on_cpu, tilelang_dtype

# Calls of at most SMALL_TOKENS tokens (decode) use the small_* tiling, larger ones (prefill) the
# rest, as rope's kernel does: one tiling for every shape had to serve both, and the one that won
# overall left 1B prefill at 0.50-0.55 of copy (benchmarks/results/nvidia-h200/rope_qk.md).
SMALL_TOKENS = 256

# Decode (small_*): one token per 64-thread block, heads in 8 groups (an 8B decode1 call still runs 8
# blocks): found by `agent optimize rope_qk --backend tilelang` on the H200 (run 20261129-174818-
# rope_qk-tilelang-5e5f in examples/runs/ at commit 670a339, the catalogue's decode design; median
# shape 0.63 -> 0.83 of copy).
# Prefill: the rows design, 8 rows per 64-thread block through copied tiles (16-byte accesses at
# head_dim 128, 8-byte at 64), picked from a sweep of 7 (benchmarks/probes/sweeps/rope_qk-tilelang-rows.txt) and
# timed by the judge against the heads tiling: graph geomean 1.092x (lower bound 1.062x), shapes
# 0.972-1.501x, 1B prefill 0.51-0.55 -> 0.78-0.86 of copy in that record, 0.71-0.78 in the bench after
# it (benchmarks/probes/tiling_sweeps.md). While `rows` is on, the heads design's block_tokens
# and head_groups are unused (UNUSED_KEYS).
CONFIG = {
    "block_tokens": 1,
    "head_groups": 8,
    "threads": 64,
    "copy_tiles": True,
    "rows": True,
    "block_rows": 8,
    "small_block_tokens": 1,
    "small_head_groups": 8,
    "small_threads": 64,
    "small_copy_tiles": False,
    "small_rows": False,
    "small_block_rows": 4,
}

SEARCH_SPACE = {
    "block_tokens": [1, 2, 4, 8, 16, 32],
    "head_groups": [1, 2, 4, 8],
    "threads": [64, 128, 256, 512],
    "copy_tiles": [False, True],
    "rows": [False, True],
    "block_rows": [4, 8, 16, 32, 64],
    "small_block_tokens": [1, 2, 4, 8],
    "small_head_groups": [1, 2, 4, 8],
    "small_threads": [32, 64, 128, 256],
    "small_copy_tiles": [False, True],
    "small_rows": [False, True],
    "small_block_rows": [1, 2, 4, 8, 16],
}

# Keys a setting leaves unused (agent/policies/search.py skips proposals that change only those).
UNUSED_KEYS = {
    "rows=True": ["block_tokens", "head_groups"],
    "rows=False": ["block_rows"],
    "small_rows=True": ["small_block_tokens", "small_head_groups"],
    "small_rows=False": ["small_block_rows"],
}

TILING_KEYS = ("block_tokens", "head_groups", "threads", "copy_tiles", "rows", "block_rows")

_kernels: dict[tuple, object] = {}


def build(
    q_heads: int,
    kv_heads: int,
    head_dim: int,
    dtype: str,
    block_tokens: int,
    groups: int,
    threads: int,
    copy_tiles: bool = False,
    table_dtype: str = "float32",
    rows: bool = False,
    block_rows: int = 16,
):
    """The TileLang program for one (q_heads, kv_heads, head_dim, dtype, tiling, table dtype); no GPU needed.

    With `rows`, the rows design (build_rows) instead; block_tokens and groups are then unused.
    """
    if rows:
        return build_rows(q_heads, kv_heads, head_dim, dtype, block_rows, threads, copy_tiles, table_dtype)
    import tilelang.language as T

    half = head_dim // 2
    q_group = q_heads // groups
    kv_group = kv_heads // groups
    tokens = T.dynamic("tokens")
    seq = T.dynamic("seq")

    @T.macro
    def rotate(X, Sin, Cos, Out, group, bx, by):
        """A block's tokens of X (q or k), in its slice `by` of `group` heads, rotated into Out."""
        for r, j in T.Parallel(block_tokens * group, half):
            token = bx * block_tokens + r // group
            if token < tokens:
                head = by * group + r % group
                c = T.cast(Cos[token % seq, j], "float32")
                s = T.cast(Sin[token % seq, j], "float32")
                x1 = T.cast(X[token, head, j], "float32")
                x2 = T.cast(X[token, head, j + half], "float32")
                Out[token, head, j] = T.cast(x1 * c - x2 * s, dtype)
                Out[token, head, j + half] = T.cast(x2 * c + x1 * s, dtype)

    @T.macro
    def rotate_tiles(x1, x2, Sin, Cos, group, bx):
        """A block's tiles of the two halves of X (q or k), rotated in place; the modulo keeps a tail token's
        position inside the tables."""
        for t, h, j in T.Parallel(block_tokens, group, half):
            pos = (bx * block_tokens + t) % seq
            a = T.cast(x1[t, h, j], "float32")
            b = T.cast(x2[t, h, j], "float32")
            c = T.cast(Cos[pos, j], "float32")
            s = T.cast(Sin[pos, j], "float32")
            x1[t, h, j] = T.cast(a * c - b * s, dtype)
            x2[t, h, j] = T.cast(b * c + a * s, dtype)

    @T.prim_func
    def rope_qk_kernel(
        Q: T.Tensor((tokens, q_heads, head_dim), dtype),
        K: T.Tensor((tokens, kv_heads, head_dim), dtype),
        Sin: T.Tensor((seq, half), table_dtype),
        Cos: T.Tensor((seq, half), table_dtype),
        QOut: T.Tensor((tokens, q_heads, head_dim), dtype),
        KOut: T.Tensor((tokens, kv_heads, head_dim), dtype),
    ):
        with T.Kernel(T.ceildiv(tokens, block_tokens), groups, threads=threads) as (bx, by):
            rotate(Q, Sin, Cos, QOut, q_group, bx, by)
            rotate(K, Sin, Cos, KOut, kv_group, bx, by)

    @T.prim_func
    def rope_qk_kernel_copied(
        Q: T.Tensor((tokens, q_heads, head_dim), dtype),
        K: T.Tensor((tokens, kv_heads, head_dim), dtype),
        Sin: T.Tensor((seq, half), table_dtype),
        Cos: T.Tensor((seq, half), table_dtype),
        QOut: T.Tensor((tokens, q_heads, head_dim), dtype),
        KOut: T.Tensor((tokens, kv_heads, head_dim), dtype),
    ):
        with T.Kernel(T.ceildiv(tokens, block_tokens), groups, threads=threads) as (bx, by):
            q1 = T.alloc_fragment((block_tokens, q_group, half), dtype)
            q2 = T.alloc_fragment((block_tokens, q_group, half), dtype)
            k1 = T.alloc_fragment((block_tokens, kv_group, half), dtype)
            k2 = T.alloc_fragment((block_tokens, kv_group, half), dtype)
            # T.copy masks tokens past the end (reads fill 0, writes are skipped).
            T.copy(Q[bx * block_tokens, by * q_group, 0], q1)
            T.copy(Q[bx * block_tokens, by * q_group, half], q2)
            T.copy(K[bx * block_tokens, by * kv_group, 0], k1)
            T.copy(K[bx * block_tokens, by * kv_group, half], k2)
            # Every load issued before the math, every store after it.
            rotate_tiles(q1, q2, Sin, Cos, q_group, bx)
            rotate_tiles(k1, k2, Sin, Cos, kv_group, bx)
            T.copy(q1, QOut[bx * block_tokens, by * q_group, 0])
            T.copy(q2, QOut[bx * block_tokens, by * q_group, half])
            T.copy(k1, KOut[bx * block_tokens, by * kv_group, 0])
            T.copy(k2, KOut[bx * block_tokens, by * kv_group, half])

    copied = copy_tiles and all(_tile_fits(block_tokens * group * half, threads) for group in (q_group, kv_group))
    return rope_qk_kernel_copied if copied else rope_qk_kernel


def build_rows(
    q_heads: int,
    kv_heads: int,
    head_dim: int,
    dtype: str,
    block_rows: int,
    threads: int,
    copy_tiles: bool = False,
    table_dtype: str = "float32",
):
    """The rows design: q and k as rows of head_dim ([tokens * heads, head_dim]), as rope's kernel sees x.

    The first ceil(q rows / block_rows) blocks take block_rows rows of q each, the rest rows of k; a row's
    position is (row // heads) % seq. A block moves a (block_rows, half) tile of each half, so with
    `copy_tiles` every thread holds whole 16-byte vectors whatever the q:k head ratio (the heads design
    gives k a quarter of q's tile in Llama and its k copies fall to 2-4 bytes). The tables are read per
    row from the cache instead of once per token and group. Shipped for prefill (see CONFIG's comment).
    """
    import tilelang.language as T

    half = head_dim // 2
    q_rows = T.dynamic("q_rows")
    k_rows = T.dynamic("k_rows")
    seq = T.dynamic("seq")
    copied = copy_tiles and _tile_fits(block_rows * half, threads)

    @T.macro
    def rotate(X, Sin, Cos, Out, heads, block):
        """One block's rows of X (q or k) rotated into Out: copied tiles or the direct loop."""
        if copied:
            x1 = T.alloc_fragment((block_rows, half), dtype)
            x2 = T.alloc_fragment((block_rows, half), dtype)
            T.copy(X[block * block_rows, 0], x1)  # masks rows past the end
            T.copy(X[block * block_rows, half], x2)
            for i, j in T.Parallel(block_rows, half):
                pos = ((block * block_rows + i) // heads) % seq  # in range for a tail row too
                a = T.cast(x1[i, j], "float32")
                b = T.cast(x2[i, j], "float32")
                c = T.cast(Cos[pos, j], "float32")
                s = T.cast(Sin[pos, j], "float32")
                x1[i, j] = T.cast(a * c - b * s, dtype)
                x2[i, j] = T.cast(b * c + a * s, dtype)
            T.copy(x1, Out[block * block_rows, 0])
            T.copy(x2, Out[block * block_rows, half])
        else:
            for i, j in T.Parallel(block_rows, half):
                row = block * block_rows + i
                if row < X.shape[0]:  # the dynamic row count (passing it into a macro broke the C target)
                    pos = (row // heads) % seq
                    a = T.cast(X[row, j], "float32")
                    b = T.cast(X[row, j + half], "float32")
                    c = T.cast(Cos[pos, j], "float32")
                    s = T.cast(Sin[pos, j], "float32")
                    Out[row, j] = T.cast(a * c - b * s, dtype)
                    Out[row, j + half] = T.cast(b * c + a * s, dtype)

    @T.prim_func
    def rope_qk_rows(
        Q: T.Tensor((q_rows, head_dim), dtype),
        K: T.Tensor((k_rows, head_dim), dtype),
        Sin: T.Tensor((seq, half), table_dtype),
        Cos: T.Tensor((seq, half), table_dtype),
        QOut: T.Tensor((q_rows, head_dim), dtype),
        KOut: T.Tensor((k_rows, head_dim), dtype),
    ):
        q_blocks = T.ceildiv(q_rows, block_rows)
        with T.Kernel(q_blocks + T.ceildiv(k_rows, block_rows), threads=threads) as bx:
            if bx < q_blocks:
                rotate(Q, Sin, Cos, QOut, q_heads, bx)
            else:
                rotate(K, Sin, Cos, KOut, kv_heads, bx - q_blocks)

    return rope_qk_rows


def _tile_fits(elements: int, threads: int) -> bool:
    """Whether TileLang (0.1.15) finds a register layout for a copied tile of this many elements.

    It does when the tile is at most one element per thread or a power-of-two number of elements per
    thread; 3 per thread (Llama-like hidden shapes with 3 q heads per kv head) failed with "no available
    layout found" on the H200 (agent eval rope_qk --set copy_tiles=True). Other tiles fall back to the
    direct loop, as rope's copied kernel does on ragged halves. The rule is conservative: some tiles
    it refuses do lower (tests/kernels/rope_qk/test_tilelang.py checks it against the lowering).
    """
    per_thread, rest = divmod(elements, threads)
    return elements <= threads or (rest == 0 and per_thread & (per_thread - 1) == 0)


def tiling(q_heads: int, kv_heads: int, tokens: int) -> dict[str, int]:
    """build()'s tiling arguments for these head counts on a call of `tokens` tokens (batch * seq)."""
    prefix = "small_" if tokens <= SMALL_TOKENS else ""
    config = {key: CONFIG[prefix + key] for key in TILING_KEYS}
    groups = head_groups(q_heads, kv_heads, config.pop("head_groups"))
    return {**config, "groups": groups}


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `rope_qk` compiles for a shape's dims (batch, seq, q_heads, kv_heads, head_dim)."""
    batch, seq, q_heads, kv_heads, head_dim = dims
    return build(q_heads, kv_heads, head_dim, tilelang_dtype(dtype), **tiling(q_heads, kv_heads, batch * seq))


# The same kernels by the call's own arguments, size class and CONFIG's values: looked up on every call
# without working out the tiling again (a host cost at decode, where the launch is most of the time).
_by_call: dict[tuple, object] = {}


def _kernel(q_heads: int, kv_heads: int, head_dim: int, dtype: torch.dtype, table_dtype: torch.dtype, tokens: int):
    """The compiled kernel for a call and whether it takes q and k as rows (the rows design)."""
    fast = (q_heads, kv_heads, head_dim, dtype, table_dtype, tokens <= SMALL_TOKENS, *CONFIG.items())
    found = _by_call.get(fast)
    if found is None:
        config = tiling(q_heads, kv_heads, tokens)
        found = _by_call[fast] = (_compiled(q_heads, kv_heads, head_dim, dtype, table_dtype, config), config["rows"])
    return found


def _compiled(q_heads: int, kv_heads: int, head_dim: int, dtype: torch.dtype, table_dtype: torch.dtype, config: dict):
    key = (q_heads, kv_heads, head_dim, dtype, table_dtype, tuple(sorted(config.items())))  # equal tilings share one
    if key not in _kernels:
        tables = tilelang_dtype(table_dtype)
        _kernels[key] = compile_kernel(
            build(q_heads, kv_heads, head_dim, tilelang_dtype(dtype), **config, table_dtype=tables)
        )
    return _kernels[key]


def rope_qk(q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out=None):
    SPEC.check_inputs(q, k, sin, cos, out, require_gpu=not on_cpu())
    if out is None:
        out = (torch.empty_like(q), torch.empty_like(k))
    if q.numel() == 0:  # no tokens: check_inputs has made sure both have heads
        return out
    q_out, k_out = out
    head_dim = q.shape[-1]
    seq, tokens = q.shape[1], q.shape[0] * q.shape[1]
    kernel, rows = _kernel(q.shape[2], k.shape[2], head_dim, q.dtype, sin.dtype, tokens)
    if sin.shape[0] != seq:  # the first seq rows (a model may pass longer tables): positions wrap at the table's length
        sin, cos = sin[:seq], cos[:seq]  # sliced only then: each view costs the host about a microsecond
    if rows:
        kernel(q.view(-1, head_dim), k.view(-1, head_dim), sin, cos, q_out.view(-1, head_dim), k_out.view(-1, head_dim))
        return out
    kernel(
        q.view(tokens, q.shape[2], head_dim),
        k.view(tokens, k.shape[2], head_dim),
        sin,
        cos,
        q_out.view(tokens, q.shape[2], head_dim),
        k_out.view(tokens, k.shape[2], head_dim),
    )
    return out


def generated_source() -> dict[str, str]:
    """CUDA source of every kernel compiled in this process, by cache key."""
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
