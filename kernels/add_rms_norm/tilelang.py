"""Residual add + RMSNorm in TileLang: the file the agent edits for `add_rms_norm --backend tilelang`.

Design: x and residual are viewed as [rows, hidden]. A block handles `block_rows`
rows in one pass: it reads x and residual once, adds them in fp32 and rounds the
sum to the model dtype (the value Hugging Face stores and then normalises), keeps
that rounded sum in registers (fp32), squares it, reduces block-wide,
rsqrt(mean + eps), and writes both the sum (exact: it already holds a dtype value)
and sum * rsqrt * weight, rounded once. The row length is padded up to a multiple
of `threads` inside the block and the padding masked, so any hidden size works
(4097 included); the row count is dynamic, so one compiled kernel serves every
token count.
"""

# No `from __future__ import annotations`: TileLang evaluates the kernel's
# parameter annotations, which refer to local sizes.
import torch

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

CONFIG = {"block_rows": 1, "threads": 256}

SEARCH_SPACE = {
    "block_rows": [1, 2, 4, 8],
    "threads": [64, 128, 256, 512, 1024],
}

_kernels: dict[tuple, object] = {}


def build(hidden: int, dtype: str, block_rows: int, threads: int):
    """The TileLang program for one (hidden, dtype, config); lowerable without a GPU."""
    import tilelang.language as T

    rows = T.dynamic("rows")
    padded = -(-hidden // threads) * threads

    @T.prim_func
    def add_rms_norm_kernel(
        X: T.Tensor((rows, hidden), dtype),
        R: T.Tensor((rows, hidden), dtype),
        W: T.Tensor((hidden,), dtype),
        Sum: T.Tensor((rows, hidden), dtype),
        Out: T.Tensor((rows, hidden), dtype),
        eps: T.float32,
    ):
        with T.Kernel(T.ceildiv(rows, block_rows), threads=threads) as bx:
            hs = T.alloc_fragment((block_rows, padded), "float32")
            squares = T.alloc_fragment((block_rows, padded), "float32")
            scale = T.alloc_fragment((block_rows,), "float32")
            for i, j in T.Parallel(block_rows, padded):
                inside = (bx * block_rows + i < rows) & (j < hidden)
                row = bx * block_rows + i
                # The sum rounded once to the model dtype: the value stored and the value normalised.
                total = T.cast(X[row, j], "float32") + T.cast(R[row, j], "float32")
                hs[i, j] = T.if_then_else(inside, T.cast(T.cast(total, dtype), "float32"), 0.0)
            for i, j in T.Parallel(block_rows, padded):
                squares[i, j] = hs[i, j] * hs[i, j]
            T.reduce_sum(squares, scale, dim=1)
            for i in T.Parallel(block_rows):
                scale[i] = T.rsqrt(scale[i] / hidden + eps)
            # Two loops, one store each: TileLang then stages each cast store through registers and
            # writes 16 bytes at a time; one loop with both stores wrote 8 (lowered CUDA: uint2).
            for i, j in T.Parallel(block_rows, padded):
                if (bx * block_rows + i < rows) & (j < hidden):
                    Sum[bx * block_rows + i, j] = T.cast(hs[i, j], dtype)
            for i, j in T.Parallel(block_rows, padded):
                if (bx * block_rows + i < rows) & (j < hidden):
                    value = hs[i, j] * scale[i] * T.cast(W[j], "float32")
                    Out[bx * block_rows + i, j] = T.cast(value, dtype)

    return add_rms_norm_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `add_rms_norm` compiles for x of shape `dims` (for lowering and inspection)."""
    return build(dims[-1], tilelang_dtype(dtype), **CONFIG)


def _kernel(hidden: int, dtype: torch.dtype):
    key = (hidden, dtype, tuple(sorted(CONFIG.items())))
    if key not in _kernels:
        _kernels[key] = compile_kernel(build(hidden, tilelang_dtype(dtype), **CONFIG))
    return _kernels[key]


def add_rms_norm(
    x: torch.Tensor,
    residual: torch.Tensor,
    weight: torch.Tensor,
    eps: float,
    *,
    out: tuple[torch.Tensor, torch.Tensor] | None = None,
):
    SPEC.check_inputs(x, residual, weight, eps, out)
    if out is None:
        out = (torch.empty_like(x), torch.empty_like(x))
    summed, normed = out
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    kernel = _kernel(hidden, x.dtype)
    kernel(
        x.view(-1, hidden),
        residual.view(-1, hidden),
        weight,
        summed.view(-1, hidden),
        normed.view(-1, hidden),
        float(eps),
    )
    return out


def generated_source() -> dict[str, str]:
    """CUDA source of every kernel compiled in this process, by cache key."""
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
