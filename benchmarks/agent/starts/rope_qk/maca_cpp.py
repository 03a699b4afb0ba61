"""RoPE on q and k in CUDA C++, as a first draft: one rotate-half kernel launched for q, then for k.

Correct for every dtype, table dtype and size; the block size was picked without measuring, and the
tables are read again for every head.
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, load
from workbench.kernels.rope_qk.spec import SPEC

THREADS = 256

SOURCE = r"""
template <typename T, typename TT>
__global__ void rope_kernel(const T* __restrict__ x, const TT* __restrict__ sin, const TT* __restrict__ cos,
                            T* __restrict__ out, int64_t rows, int64_t heads, int64_t seq, int64_t half) {
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;  // over rows (token, head) x half
    if (i >= rows * half) return;
    const int64_t row = i / half, j = i % half;
    const int64_t pos = (row / heads) % seq;
    const float x1 = to_float(x[row * 2 * half + j]), x2 = to_float(x[row * 2 * half + half + j]);
    const float s = to_float(sin[pos * half + j]), c = to_float(cos[pos * half + j]);
    out[row * 2 * half + j] = from_float<T>(x1 * c - x2 * s);
    out[row * 2 * half + half + j] = from_float<T>(x2 * c + x1 * s);
}

extern "C" int kw_rope(int dtype, int table_dtype, const void* x, const void* sin, const void* cos, void* out,
                       int64_t rows, int64_t heads, int64_t seq, int64_t half, void* stream_ptr) {
    cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
    return with_dtype(dtype, [&](auto t) {
        return with_dtype(table_dtype, [&](auto tt) {
            using T = typename decltype(t)::type;
            using TT = typename decltype(tt)::type;
            const dim3 grid((unsigned)((rows * half + THREADS - 1) / THREADS));
            rope_kernel<T, TT><<<grid, THREADS, 0, stream>>>(
                static_cast<const T*>(x), static_cast<const TT*>(sin), static_cast<const TT*>(cos),
                static_cast<T*>(out), rows, heads, seq, half);
            return (int)cudaGetLastError();
        });
    });
}
"""

SIGNATURES = {"kw_rope": "iippppllll"}


def _library():
    return load("rope_qk", SOURCE, {"threads": THREADS}, SIGNATURES, origin=__file__)


def _rotate(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, out: torch.Tensor) -> None:
    batch, seq, heads, head_dim = x.shape
    # Only the first seq rows of the tables are read (a model may pass longer ones).
    _library().launch(
        "kw_rope", DTYPE_CODES[x.dtype], DTYPE_CODES[sin.dtype], x.data_ptr(), sin.data_ptr(), cos.data_ptr(),
        out.data_ptr(), batch * seq * heads, heads, seq, head_dim // 2, device=x.device,
    )  # fmt: skip


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
    return {"rope_qk.cu": _library().text}
