"""SiLU-and-multiply (SwiGLU) in CUDA C++: the file the agent edits for `silu_mul --backend maca_cpp`.

Design: x [..., 2I] is viewed as [rows, 2I] and out as [rows, I]. The grid is
(row blocks, column blocks): a block of `threads` threads covers `rows_per_block`
rows and `threads` packs of `vec` columns; each thread reads a pack of gate
x[row, col:col+vec] and of up x[row, I+col:...], computes g / (1 + exp(-g)) * u
in fp32 and rounds once on the store. Row blocks walk the grid's x dimension (no
65535 limit on the token count). When I is not a multiple of `vec`, or a pointer
is not aligned to it (I = 4097 puts the up half at an odd element), the same
kernel runs at vec 1.

The C++ source is built by workbench.kernels.cpp_support (nvcc, or MXMACA's cu-bridge on
MetaX: that path has not run on a C500); CONFIG reaches it as constexpr
constants (THREADS, VEC, ROWS_PER_BLOCK).
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, aligned, load
from workbench.kernels.silu_mul.spec import SPEC

CONFIG = {"threads": 256, "vec": 8, "rows_per_block": 2}

SEARCH_SPACE = {
    "threads": [64, 128, 256, 512, 1024],
    "vec": [1, 2, 4, 8],
    "rows_per_block": [1, 2, 4, 8, 16],
}

SOURCE = r"""
// Built after kernels/cpp_support.py's PRELUDE: CUDA headers, to_float, from_float, Pack, warp_sum, block_sum,
// with_dtype (prompts/guide_maca_cpp.md lists them).

template <typename T, int V>
__global__ void __launch_bounds__(THREADS) silu_mul_kernel(
    const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t inter) {
    using P = Pack<T, V>;
    const int64_t packs = inter / V;
    const int64_t p = (int64_t)blockIdx.y * THREADS + threadIdx.x;
    if (p >= packs) return;
    #pragma unroll
    for (int r = 0; r < ROWS_PER_BLOCK; ++r) {
        const int64_t row = (int64_t)blockIdx.x * ROWS_PER_BLOCK + r;
        if (row >= rows) return;
        const P a = reinterpret_cast<const P*>(x + row * 2 * inter)[p];
        const P b = reinterpret_cast<const P*>(x + row * 2 * inter + inter)[p];
        P o;
        #pragma unroll
        for (int k = 0; k < V; ++k) {
            const float g = to_float(a.v[k]);
            o.v[k] = from_float<T>(g / (1.f + expf(-g)) * to_float(b.v[k]));
        }
        reinterpret_cast<P*>(out + row * inter)[p] = o;
    }
}

template <typename T>
static int launch(int vec, const void* x, void* out, int64_t rows, int64_t inter, cudaStream_t stream) {
    const int64_t packs = inter / (vec == VEC ? VEC : 1);
    const dim3 grid((unsigned)((rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK),
                    (unsigned)((packs + THREADS - 1) / THREADS));
    const T* xt = static_cast<const T*>(x);
    T* ot = static_cast<T*>(out);
    if (vec == VEC) silu_mul_kernel<T, VEC><<<grid, THREADS, 0, stream>>>(xt, ot, rows, inter);
    else silu_mul_kernel<T, 1><<<grid, THREADS, 0, stream>>>(xt, ot, rows, inter);
    return (int)cudaGetLastError();
}

extern "C" int kw_silu_mul(int dtype, int vec, const void* x, void* out, int64_t rows, int64_t inter, void* stream) {
    return with_dtype(dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        return launch<T>(vec, x, out, rows, inter, static_cast<cudaStream_t>(stream));
    });
}
"""

# Argument types of each entry point (kernels.cpp_support: p pointer, l int64, i int32, f float).
SIGNATURES = {"kw_silu_mul": "iippll"}


def _library():
    return load("silu_mul", SOURCE, CONFIG, SIGNATURES, origin=__file__)


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out)
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    intermediate = x.shape[-1] // 2
    vec = CONFIG["vec"] if intermediate % CONFIG["vec"] == 0 and aligned(CONFIG["vec"], x, out) else 1
    rows = x.numel() // x.shape[-1]
    _library().launch(
        "kw_silu_mul", DTYPE_CODES[x.dtype], vec, x.data_ptr(), out.data_ptr(), rows, intermediate, device=x.device
    )
    return out


def generated_source() -> dict[str, str]:
    """The translation unit compiled for the current CONFIG (what nvcc sees)."""
    return {"silu_mul.cu": _library().text}
