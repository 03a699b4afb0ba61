"""RoPE (rotate-half) in CUDA C++: the file the agent edits for `rope --backend maca_cpp`.

Design: x is viewed as rows of head_dim ([batch * seq * heads, head_dim]). A
block of `threads` threads takes `rows_per_block` rows; its threads walk the
(row, pack) pairs of those rows, a pack being `vec` consecutive pairs (j, j + half)
of the first and second halves. A thread reads a pack of x1 and of x2 and of the
sin/cos tables at the row's position (row // heads) % seq (tables in fp32, bf16
or fp16, read as fp32), computes x1*c - x2*s and x2*c + x1*s in fp32 and rounds
once on each store. Only the first seq rows of the tables are read, so longer
tables (the camp's model) work as they are. When half is not a multiple of
`vec`, or a pointer is not aligned to it, the same kernel runs at vec 1.

The C++ source is built by workbench.kernels.cpp_support (nvcc, or MXMACA's cu-bridge on
MetaX: that path has not run on a C500); CONFIG reaches it as constexpr
constants (THREADS, VEC, ROWS_PER_BLOCK).
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, aligned, load
from workbench.kernels.rope.spec import SPEC

CONFIG = {"threads": 128, "vec": 8, "rows_per_block": 32}

SEARCH_SPACE = {
    "threads": [32, 64, 128, 256, 512],
    "vec": [1, 2, 4, 8],
    "rows_per_block": [4, 8, 16, 32, 64, 128],
}

SOURCE = r"""
// Built after kernels/cpp_support.py's PRELUDE: CUDA headers, to_float, from_float, Pack, warp_sum, block_sum,
// with_dtype, rotate_pairs (prompts/guide_maca_cpp.md lists them).

template <typename T, typename TT, int V>
__global__ void __launch_bounds__(THREADS) rope_kernel(
    const T* __restrict__ x, const TT* __restrict__ sin, const TT* __restrict__ cos, T* __restrict__ out,
    int64_t rows, int64_t heads, int64_t seq, int64_t half) {
    const int64_t packs = half / V;
    const int64_t items = (int64_t)ROWS_PER_BLOCK * packs;
    for (int64_t i = threadIdx.x; i < items; i += THREADS) {
        const int64_t row = (int64_t)blockIdx.x * ROWS_PER_BLOCK + i / packs;
        if (row >= rows) return;  // rows grow with i
        const int64_t pos = (row / heads) % seq;
        const int64_t at = row * 2 * half;
        rotate_pairs<T, TT, V>(x + at, out + at, sin + pos * half, cos + pos * half, half, i % packs);
    }
}

template <typename T, typename TT>
static int launch(int vec, const void* x, const void* sin, const void* cos, void* out, int64_t rows, int64_t heads,
                  int64_t seq, int64_t half, cudaStream_t stream) {
    const dim3 grid((unsigned)((rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK));
    const T* xt = static_cast<const T*>(x);
    const TT* st = static_cast<const TT*>(sin);
    const TT* ct = static_cast<const TT*>(cos);
    T* ot = static_cast<T*>(out);
    if (vec == VEC) rope_kernel<T, TT, VEC><<<grid, THREADS, 0, stream>>>(xt, st, ct, ot, rows, heads, seq, half);
    else rope_kernel<T, TT, 1><<<grid, THREADS, 0, stream>>>(xt, st, ct, ot, rows, heads, seq, half);
    return (int)cudaGetLastError();
}

extern "C" int kw_rope(int dtype, int table_dtype, int vec, const void* x, const void* sin, const void* cos, void* out,
                       int64_t rows, int64_t heads, int64_t seq, int64_t half, void* stream) {
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    return with_dtype(dtype, [&](auto t) {
        return with_dtype(table_dtype, [&](auto tt) {
            using T = typename decltype(t)::type;
            using TT = typename decltype(tt)::type;
            return launch<T, TT>(vec, x, sin, cos, out, rows, heads, seq, half, s);
        });
    });
}
"""

# Argument types of each entry point (kernels.cpp_support: p pointer, l int64, i int32, f float).
SIGNATURES = {"kw_rope": "iiippppllll"}


def _library():
    return load("rope", SOURCE, CONFIG, SIGNATURES, origin=__file__)


def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, sin, cos, out)
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    batch, seq, heads, head_dim = x.shape
    half = head_dim // 2
    vec = CONFIG["vec"] if half % CONFIG["vec"] == 0 and aligned(CONFIG["vec"], x, sin, cos, out) else 1
    # Only the first seq rows of the tables are read (a model may pass longer ones).
    _library().launch(
        "kw_rope", DTYPE_CODES[x.dtype], DTYPE_CODES[sin.dtype], vec, x.data_ptr(), sin.data_ptr(), cos.data_ptr(),
        out.data_ptr(), batch * seq * heads, heads, seq, half, device=x.device,
    )  # fmt: skip
    return out


def generated_source() -> dict[str, str]:
    """The translation unit compiled for the current CONFIG (what nvcc sees)."""
    return {"rope.cu": _library().text}
