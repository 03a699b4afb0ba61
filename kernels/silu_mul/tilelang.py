"""SiLU-and-multiply (SwiGLU) in TileLang: the file the agent edits for `silu_mul --backend tilelang`.

Design: x [..., 2I] is viewed as [rows, 2I] and out as [rows, I]. A block
covers `block_rows` rows x `block_cols` columns of the output; each element
reads gate x[row, col] and up x[row, I + col], computes
g / (1 + exp(-g)) * u in fp32 and rounds once on store. Blocks walk the rows
along the grid's x dimension (no 65535 limit on the token count) and the
column tiles along y. The row count is dynamic and I a compile-time constant,
so one compiled kernel serves every token count for a given (I, dtype,
config); rows past the end are masked, and so are columns past I when I is
not a multiple of `block_cols` (the mask is left out when it is, which keeps
the 16-byte vector loads).
"""

# No `from __future__ import annotations`: TileLang evaluates the kernel's
# parameter annotations, which refer to local sizes.
import torch

from workbench.kernels.silu_mul.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

CONFIG = {"block_rows": 2, "block_cols": 512, "threads": 128}

SEARCH_SPACE = {
    "block_rows": [1, 2, 4, 8],
    "block_cols": [128, 256, 512, 1024, 2048],
    "threads": [64, 128, 256, 512],
}

_kernels: dict[tuple, object] = {}


def build(intermediate: int, dtype: str, block_rows: int, block_cols: int, threads: int):
    """The TileLang program for one (intermediate, dtype, config); lowerable without a GPU."""
    import tilelang.language as T

    rows = T.dynamic("rows")
    width = 2 * intermediate
    ragged = intermediate % block_cols != 0  # the last column tile hangs past I

    @T.prim_func
    def silu_mul_kernel(
        X: T.Tensor((rows, width), dtype),
        Out: T.Tensor((rows, intermediate), dtype),
    ):
        with T.Kernel(T.ceildiv(rows, block_rows), T.ceildiv(intermediate, block_cols), threads=threads) as (bx, by):
            for i, j in T.Parallel(block_rows, block_cols):
                row = bx * block_rows + i
                col = by * block_cols + j
                inside = (row < rows) & (col < intermediate) if ragged else row < rows
                if inside:
                    g = T.cast(X[row, col], "float32")
                    u = T.cast(X[row, intermediate + col], "float32")
                    Out[row, col] = T.cast(g / (1.0 + T.exp(-g)) * u, dtype)

    return silu_mul_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `silu_mul` compiles for x of shape `dims` (for lowering and inspection)."""
    return build(dims[-1] // 2, tilelang_dtype(dtype), **CONFIG)


def _kernel(intermediate: int, dtype: torch.dtype):
    key = (intermediate, dtype, tuple(sorted(CONFIG.items())))
    if key not in _kernels:
        _kernels[key] = compile_kernel(build(intermediate, tilelang_dtype(dtype), **CONFIG))
    return _kernels[key]


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None):
    SPEC.check_inputs(x, out)
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    width = x.shape[-1]
    intermediate = width // 2
    kernel = _kernel(intermediate, x.dtype)
    kernel(x.view(-1, width), out.view(-1, intermediate))
    return out


def generated_source() -> dict[str, str]:
    """CUDA source of every kernel compiled in this process, by cache key."""
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
