"""RMSNorm in TileLang: the file the agent edits for `rms_norm --backend tilelang`.

Design: x is viewed as [rows, hidden]. A block normalises `block_rows` rows,
holding each row in registers (fp32) so x is read from memory once: square,
block-wide sum, rsqrt(mean + eps), scale by the weight, round once on store.
The row length is padded up to a multiple of `threads` inside the block and
the padding masked, so any hidden size works (4097 included); the row count is
dynamic, so one compiled kernel serves every token count.
"""

# No `from __future__ import annotations`: TileLang evaluates the kernel's
# parameter annotations, which refer to local sizes.
import torch

from workbench.kernels.rms_norm.spec import SPEC
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
    def rms_norm_kernel(
        X: T.Tensor((rows, hidden), dtype),
        W: T.Tensor((hidden,), dtype),
        Out: T.Tensor((rows, hidden), dtype),
        eps: T.float32,
    ):
        with T.Kernel(T.ceildiv(rows, block_rows), threads=threads) as bx:
            xs = T.alloc_fragment((block_rows, padded), "float32")
            squares = T.alloc_fragment((block_rows, padded), "float32")
            scale = T.alloc_fragment((block_rows,), "float32")
            for i, j in T.Parallel(block_rows, padded):
                inside = (bx * block_rows + i < rows) & (j < hidden)
                xs[i, j] = T.if_then_else(inside, T.cast(X[bx * block_rows + i, j], "float32"), 0.0)
            for i, j in T.Parallel(block_rows, padded):
                squares[i, j] = xs[i, j] * xs[i, j]
            T.reduce_sum(squares, scale, dim=1)
            for i in T.Parallel(block_rows):
                scale[i] = T.rsqrt(scale[i] / hidden + eps)
            for i, j in T.Parallel(block_rows, padded):
                if (bx * block_rows + i < rows) & (j < hidden):
                    value = xs[i, j] * scale[i] * T.cast(W[j], "float32")
                    Out[bx * block_rows + i, j] = T.cast(value, dtype)

    return rms_norm_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `rms_norm` compiles for x of shape `dims` (for lowering and inspection)."""
    return build(dims[-1], tilelang_dtype(dtype), **CONFIG)


def _kernel(hidden: int, dtype: torch.dtype):
    key = (hidden, dtype, tuple(sorted(CONFIG.items())))
    if key not in _kernels:
        _kernels[key] = compile_kernel(build(hidden, tilelang_dtype(dtype), **CONFIG))
    return _kernels[key]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, out: torch.Tensor | None = None):
    SPEC.check_inputs(x, weight, eps, out)
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    kernel = _kernel(hidden, x.dtype)
    kernel(x.view(-1, hidden), weight, out.view(-1, hidden), float(eps))
    return out


def generated_source() -> dict[str, str]:
    """CUDA source of every kernel compiled in this process, by cache key."""
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
