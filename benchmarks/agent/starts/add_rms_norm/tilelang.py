"""Residual add + RMSNorm in TileLang, as a first draft: one block per row, x and the residual read once
for the sum of squares and again for the outputs; the thread count was picked without measuring."""

# No `from __future__ import annotations`: TileLang evaluates the kernel's parameter annotations.
import torch

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.tilelang_support import compile_kernel, tilelang_dtype

_kernels: dict[tuple, object] = {}


def build(hidden: int, dtype: str, threads: int = 128):
    """The program for one (hidden, dtype); lowerable without a GPU."""
    import tilelang.language as T

    rows = T.dynamic("rows")
    padded = -(-hidden // threads) * threads  # the row padded to the block, the padding masked

    @T.prim_func
    def add_rms_norm_kernel(
        X: T.Tensor((rows, hidden), dtype),
        R: T.Tensor((rows, hidden), dtype),
        W: T.Tensor((hidden,), dtype),
        Sum: T.Tensor((rows, hidden), dtype),
        Out: T.Tensor((rows, hidden), dtype),
        eps: T.float32,
    ):
        with T.Kernel(rows, threads=threads) as bx:
            squares = T.alloc_fragment((1, padded), "float32")
            scale = T.alloc_fragment((1,), "float32")
            for i, j in T.Parallel(1, padded):
                # The sum rounded once to the model dtype: the value stored and the value normalised. if_then_else
                # guards the loads: the padding past hidden reads nothing.
                total = T.cast(T.cast(T.cast(X[bx, j], "float32") + T.cast(R[bx, j], "float32"), dtype), "float32")
                squares[i, j] = T.if_then_else(j < hidden, total * total, 0.0)
            T.reduce_sum(squares, scale, dim=1)
            for i in T.Parallel(1):
                scale[i] = T.rsqrt(scale[i] / hidden + eps)
            for i, j in T.Parallel(1, padded):
                if j < hidden:
                    total = T.cast(T.cast(X[bx, j], "float32") + T.cast(R[bx, j], "float32"), dtype)
                    Sum[bx, j] = total
                    Out[bx, j] = T.cast(T.cast(total, "float32") * scale[i] * T.cast(W[j], "float32"), dtype)

    return add_rms_norm_kernel


def program(dims: tuple[int, ...], dtype: torch.dtype):
    """The program `add_rms_norm` compiles for x of shape `dims`."""
    return build(dims[-1], tilelang_dtype(dtype))


def add_rms_norm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float, *, out=None):
    SPEC.check_inputs(x, residual, weight, eps, out)
    if out is None:
        out = (torch.empty_like(x), torch.empty_like(x))
    summed, normed = out
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    key = (hidden, x.dtype)
    if key not in _kernels:
        _kernels[key] = compile_kernel(program(x.shape, x.dtype))
    rows = (t.view(-1, hidden) for t in (x, residual))
    _kernels[key](*rows, weight, summed.view(-1, hidden), normed.view(-1, hidden), float(eps))
    return out


def generated_source() -> dict[str, str]:
    return {repr(key): kernel.get_kernel_source() for key, kernel in _kernels.items()}
