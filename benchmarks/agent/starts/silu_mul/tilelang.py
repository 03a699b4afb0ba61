"""SiLU-and-multiply in TileLang, as a first draft: a block per row and 1024 output columns, every access
masked; block and thread counts picked without measuring."""

# No `from __future__ import annotations`: TileLang evaluates the kernel's parameter annotations.
import torch

from workbench.kernels.silu_mul.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

_kernels: dict[tuple, object] = {}


def build(intermediate: int, dtype: str, block_cols: int = 1024, threads: int = 128):
    """The program for one (intermediate, dtype); lowerable without a GPU."""
    import tilelang.language as T

    rows = T.dynamic("rows")

    @T.prim_func
    def silu_mul_kernel(X: T.Tensor((rows, 2 * intermediate), dtype), Out: T.Tensor((rows, intermediate), dtype)):
        with T.Kernel(rows, T.ceildiv(intermediate, block_cols), threads=threads) as (bx, by):
            for j in T.Parallel(block_cols):
                col = by * block_cols + j
                if col < intermediate:
                    g = T.cast(X[bx, col], "float32")
                    u = T.cast(X[bx, intermediate + col], "float32")
                    Out[bx, col] = T.cast(g / (1.0 + T.exp(-g)) * u, dtype)

    return silu_mul_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `silu_mul` compiles for x of shape `dims`."""
    return build(dims[-1] // 2, tilelang_dtype(dtype))


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out)
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    width = x.shape[-1]
    key = (width, x.dtype)
    if key not in _kernels:
        _kernels[key] = compile_kernel(program(x.shape, x.dtype))
    _kernels[key](x.view(-1, width), out.view(-1, width // 2))
    return out


def generated_source() -> dict[str, str]:
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
