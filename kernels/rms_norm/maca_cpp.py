"""RMSNorm in CUDA C++: the file the agent edits for `rms_norm --backend maca_cpp`.

Design: x is viewed as [rows, hidden]. A block of `threads` threads normalises
`rows_per_block` rows one after another. Each thread loads its share of a row
in packs of `vec` elements (16 bytes for bf16 at vec 8), keeps up to `cache_packs`
packs in fp32 registers, sums the squares, and the block adds the partial sums
(warp shuffles over 32 lanes, then shared memory). Then rsqrt(mean + eps), scale
by the weight and round once on the store; packs beyond the register cache are
read again (from L1/L2). Rows whose length or pointers do not allow `vec`-wide
accesses (hidden 4097, an unaligned view) run the same kernel at vec 1.

The C++ source is built by workbench.kernels.cpp_support (nvcc, or MXMACA's cu-bridge on
MetaX: that path has not run on a C500); CONFIG reaches it as constexpr
constants (THREADS, VEC, ROWS_PER_BLOCK, CACHE_PACKS).
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, aligned, load
from workbench.kernels.rms_norm.spec import SPEC

# vec 8 -> 4 by `agent optimize rms_norm --backend maca_cpp` on the H200
# (examples/runs/20261202-052242-rms_norm-maca_cpp-9210: 1.14x graph-scope geomean, median 0.70 -> 0.80 of copy).
CONFIG = {"threads": 256, "vec": 4, "rows_per_block": 1, "cache_packs": 4}

SEARCH_SPACE = {
    "threads": [64, 128, 256, 512, 1024],
    "vec": [1, 2, 4, 8],
    "rows_per_block": [1, 2, 4, 8],
    "cache_packs": [1, 2, 4, 8],
}

SOURCE = r"""
// Built after kernels/cpp_support.py's PRELUDE: CUDA headers, to_float, from_float, Pack, warp_sum, block_sum,
// with_dtype (prompts/guide_maca_cpp.md lists them).

template <typename T, int V>
__global__ void __launch_bounds__(THREADS) rms_norm_kernel(
    const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out, int64_t rows, int64_t hidden, float eps) {
    __shared__ float shared[(THREADS + 31) / 32];
    using P = Pack<T, V>;
    const int64_t packs = hidden / V;
    for (int r = 0; r < ROWS_PER_BLOCK; ++r) {
        const int64_t row = (int64_t)blockIdx.x * ROWS_PER_BLOCK + r;
        if (row >= rows) return;  // uniform over the block
        const P* xr = reinterpret_cast<const P*>(x + row * hidden);
        P* outr = reinterpret_cast<P*>(out + row * hidden);
        const P* wr = reinterpret_cast<const P*>(w);
        float cache[CACHE_PACKS][V];
        float squares = 0.f;
        #pragma unroll
        for (int c = 0; c < CACHE_PACKS; ++c) {
            const int64_t p = threadIdx.x + (int64_t)c * THREADS;
            if (p < packs) {
                P pack = xr[p];
                #pragma unroll
                for (int k = 0; k < V; ++k) { cache[c][k] = to_float(pack.v[k]); squares += cache[c][k] * cache[c][k]; }
            }
        }
        for (int64_t p = threadIdx.x + (int64_t)CACHE_PACKS * THREADS; p < packs; p += THREADS) {
            P pack = xr[p];
            #pragma unroll
            for (int k = 0; k < V; ++k) { float f = to_float(pack.v[k]); squares += f * f; }
        }
        const float scale = rsqrtf(block_sum<THREADS>(squares, shared) / (float)hidden + eps);
        #pragma unroll
        for (int c = 0; c < CACHE_PACKS; ++c) {
            const int64_t p = threadIdx.x + (int64_t)c * THREADS;
            if (p < packs) {
                P wp = wr[p], o;
                #pragma unroll
                for (int k = 0; k < V; ++k) o.v[k] = from_float<T>(cache[c][k] * scale * to_float(wp.v[k]));
                outr[p] = o;
            }
        }
        for (int64_t p = threadIdx.x + (int64_t)CACHE_PACKS * THREADS; p < packs; p += THREADS) {
            P pack = xr[p], wp = wr[p], o;
            #pragma unroll
            for (int k = 0; k < V; ++k) o.v[k] = from_float<T>(to_float(pack.v[k]) * scale * to_float(wp.v[k]));
            outr[p] = o;
        }
    }
}

template <typename T>
static int launch(int vec, const void* x, const void* w, void* out, int64_t rows, int64_t hidden, float eps,
                  cudaStream_t stream) {
    const dim3 grid((unsigned)((rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK));
    const T* xt = static_cast<const T*>(x);
    const T* wt = static_cast<const T*>(w);
    T* ot = static_cast<T*>(out);
    if (vec == VEC) rms_norm_kernel<T, VEC><<<grid, THREADS, 0, stream>>>(xt, wt, ot, rows, hidden, eps);
    else rms_norm_kernel<T, 1><<<grid, THREADS, 0, stream>>>(xt, wt, ot, rows, hidden, eps);
    return (int)cudaGetLastError();
}

extern "C" int kw_rms_norm(int dtype, int vec, const void* x, const void* w, void* out, int64_t rows,
                           int64_t hidden, float eps, void* stream) {
    return with_dtype(dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        return launch<T>(vec, x, w, out, rows, hidden, eps, static_cast<cudaStream_t>(stream));
    });
}
"""

# Argument types of each entry point (kernels.cpp_support: p pointer, l int64, i int32, f float).
SIGNATURES = {"kw_rms_norm": "iipppllf"}


def _library():
    return load("rms_norm", SOURCE, CONFIG, SIGNATURES, origin=__file__)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, weight, eps, out)
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    vec = CONFIG["vec"] if hidden % CONFIG["vec"] == 0 and aligned(CONFIG["vec"], x, weight, out) else 1
    rows = x.numel() // hidden
    _library().launch(
        "kw_rms_norm", DTYPE_CODES[x.dtype], vec, x.data_ptr(), weight.data_ptr(), out.data_ptr(), rows, hidden,
        float(eps), device=x.device,
    )  # fmt: skip
    return out


def generated_source() -> dict[str, str]:
    """The translation unit compiled for the current CONFIG (what nvcc sees)."""
    return {"rms_norm.cu": _library().text}
