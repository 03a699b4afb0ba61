"""RoPE on q and k in TileLang, as a first draft: one rotate-half program launched for q, then for k (a block
per 8 rows x 32 rotated pairs, every access masked); sizes picked without measuring."""

# No `from __future__ import annotations`: TileLang evaluates the kernel's parameter annotations.
import torch

from workbench.kernels.rope_qk.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

_kernels: dict[tuple, object] = {}


def build(
    heads: int, head_dim: int, dtype: str, table_dtype: str = "float32", block_rows=8, block_cols=32, threads=128
):
    """The program for one (heads, head_dim, dtype, table dtype); lowerable without a GPU."""
    import tilelang.language as T

    half = head_dim // 2
    rows = T.dynamic("rows")
    seq = T.dynamic("seq")

    @T.prim_func
    def rope_kernel(
        X: T.Tensor((rows, head_dim), dtype),
        Sin: T.Tensor((seq, half), table_dtype),
        Cos: T.Tensor((seq, half), table_dtype),
        Out: T.Tensor((rows, head_dim), dtype),
    ):
        with T.Kernel(T.ceildiv(rows, block_rows), T.ceildiv(half, block_cols), threads=threads) as (bx, by):
            for i, jj in T.Parallel(block_rows, block_cols):
                row = bx * block_rows + i
                j = by * block_cols + jj
                if row < rows and j < half:
                    pos = (row // heads) % seq
                    c = T.cast(Cos[pos, j], "float32")
                    s = T.cast(Sin[pos, j], "float32")
                    x1 = T.cast(X[row, j], "float32")
                    x2 = T.cast(X[row, j + half], "float32")
                    Out[row, j] = T.cast(x1 * c - x2 * s, dtype)
                    Out[row, j + half] = T.cast(x2 * c + x1 * s, dtype)

    return rope_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype, table_dtype: torch.dtype = torch.float32):
    """The program `rope_qk` compiles for q or k of shape `dims`."""
    return build(dims[2], dims[3], tilelang_dtype(dtype), tilelang_dtype(table_dtype))


def _rotate(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, out: torch.Tensor) -> None:
    _, seq, heads, head_dim = x.shape
    key = (heads, head_dim, x.dtype, sin.dtype)
    if key not in _kernels:
        _kernels[key] = compile_kernel(program(x.shape, x.dtype, sin.dtype))
    # The first seq rows (a model may pass longer tables).
    _kernels[key](x.view(-1, head_dim), sin[:seq], cos[:seq], out.view(-1, head_dim))


def rope_qk(q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out=None):
    SPEC.check_inputs(q, k, sin, cos, out)
    if out is None:
        out = (torch.empty_like(q), torch.empty_like(k))
    if q.numel() == 0:
        return out
    q_out, k_out = out
    _rotate(q, sin, cos, q_out)
    _rotate(k, sin, cos, k_out)
    return out


def generated_source() -> dict[str, str]:
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
