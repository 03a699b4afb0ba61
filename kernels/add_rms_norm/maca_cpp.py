"""Residual add + RMSNorm in CUDA C++: the file the agent edits for `add_rms_norm --backend maca_cpp`.

Design: x and residual are viewed as [rows, hidden]. A block of `threads` threads
handles `rows_per_block` rows one after another. Each thread reads its share of
x and residual in packs of `vec` elements, adds them in fp32 and rounds the sum
to the model dtype (the value Hugging Face stores and then normalises), stores
that sum (exact: it already holds a dtype value) and keeps it in fp32 registers
for up to `cache_packs` packs; the block sums the squares (warp shuffles over 32
lanes, then shared memory), takes rsqrt(mean + eps) and writes sum * rsqrt *
weight, rounded once. Packs beyond the register cache read the stored sum back
(the same thread wrote it). Rows whose length or pointers do not allow `vec`-wide
accesses run the same kernel at vec 1.

The C++ source is built by workbench.kernels.cpp_support (nvcc, or MXMACA's cu-bridge on
MetaX: that path has not run on a C500); CONFIG reaches it as constexpr
constants (THREADS, VEC, ROWS_PER_BLOCK, CACHE_PACKS).
"""

from __future__ import annotations

import torch

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.cpp_support import DTYPE_CODES, aligned, load

CONFIG = {"threads": 256, "vec": 8, "rows_per_block": 1, "cache_packs": 4}

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
__global__ void __launch_bounds__(THREADS) add_rms_norm_kernel(
    const T* __restrict__ x, const T* __restrict__ res, const T* __restrict__ w, T* __restrict__ sum,
    T* __restrict__ out, int64_t rows, int64_t hidden, float eps) {
    __shared__ float shared[(THREADS + 31) / 32];
    using P = Pack<T, V>;
    const int64_t packs = hidden / V;
    for (int r = 0; r < ROWS_PER_BLOCK; ++r) {
        const int64_t row = (int64_t)blockIdx.x * ROWS_PER_BLOCK + r;
        if (row >= rows) return;  // uniform over the block
        const P* xr = reinterpret_cast<const P*>(x + row * hidden);
        const P* rr = reinterpret_cast<const P*>(res + row * hidden);
        P* sr = reinterpret_cast<P*>(sum + row * hidden);
        P* outr = reinterpret_cast<P*>(out + row * hidden);
        const P* wr = reinterpret_cast<const P*>(w);
        float cache[CACHE_PACKS][V];
        float squares = 0.f;
        #pragma unroll
        for (int c = 0; c < CACHE_PACKS; ++c) {
            const int64_t p = threadIdx.x + (int64_t)c * THREADS;
            if (p < packs) {
                P a = xr[p], b = rr[p], s;
                #pragma unroll
                for (int k = 0; k < V; ++k) {
                    s.v[k] = from_float<T>(to_float(a.v[k]) + to_float(b.v[k]));  // the one rounding of the sum
                    cache[c][k] = to_float(s.v[k]);
                    squares += cache[c][k] * cache[c][k];
                }
                sr[p] = s;
            }
        }
        for (int64_t p = threadIdx.x + (int64_t)CACHE_PACKS * THREADS; p < packs; p += THREADS) {
            P a = xr[p], b = rr[p], s;
            #pragma unroll
            for (int k = 0; k < V; ++k) {
                s.v[k] = from_float<T>(to_float(a.v[k]) + to_float(b.v[k]));
                float f = to_float(s.v[k]);
                squares += f * f;
            }
            sr[p] = s;
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
            P s = sr[p], wp = wr[p], o;  // written above by this same thread
            #pragma unroll
            for (int k = 0; k < V; ++k) o.v[k] = from_float<T>(to_float(s.v[k]) * scale * to_float(wp.v[k]));
            outr[p] = o;
        }
    }
}

template <typename T>
static int launch(int vec, const void* x, const void* res, const void* w, void* sum, void* out, int64_t rows,
                  int64_t hidden, float eps, cudaStream_t stream) {
    const dim3 grid((unsigned)((rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK));
    const T* xt = static_cast<const T*>(x);
    const T* rt = static_cast<const T*>(res);
    const T* wt = static_cast<const T*>(w);
    T* st = static_cast<T*>(sum);
    T* ot = static_cast<T*>(out);
    if (vec == VEC) add_rms_norm_kernel<T, VEC><<<grid, THREADS, 0, stream>>>(xt, rt, wt, st, ot, rows, hidden, eps);
    else add_rms_norm_kernel<T, 1><<<grid, THREADS, 0, stream>>>(xt, rt, wt, st, ot, rows, hidden, eps);
    return (int)cudaGetLastError();
}

extern "C" int kw_add_rms_norm(int dtype, int vec, const void* x, const void* res, const void* w, void* sum,
                               void* out, int64_t rows, int64_t hidden, float eps, void* stream) {
    return with_dtype(dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        return launch<T>(vec, x, res, w, sum, out, rows, hidden, eps, static_cast<cudaStream_t>(stream));
    });
}
"""

# Argument types of each entry point (kernels.cpp_support: p pointer, l int64, i int32, f float).
SIGNATURES = {"kw_add_rms_norm": "iipppppllf"}


def _library():
    return load("add_rms_norm", SOURCE, CONFIG, SIGNATURES, origin=__file__)


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
    vector = CONFIG["vec"]
    vec = vector if hidden % vector == 0 and aligned(vector, x, residual, weight, summed, normed) else 1
    rows = x.numel() // hidden
    _library().launch(
        "kw_add_rms_norm", DTYPE_CODES[x.dtype], vec, x.data_ptr(), residual.data_ptr(), weight.data_ptr(),
        summed.data_ptr(), normed.data_ptr(), rows, hidden, float(eps), device=x.device,
    )  # fmt: skip
    return out


def generated_source() -> dict[str, str]:
    """The translation unit compiled for the current CONFIG (what nvcc sees)."""
    return {"add_rms_norm.cu": _library().text}
