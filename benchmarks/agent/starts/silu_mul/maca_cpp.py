"""SiLU-and-multiply in CUDA C++, as a first draft: one thread per output element, scalar loads.

Correct for every dtype and size; the block size was picked without measuring, and nothing is vectorised.
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, load
from workbench.kernels.silu_mul.spec import SPEC

THREADS = 256

SOURCE = r"""
template <typename T>
__global__ void silu_mul_kernel(const T* __restrict__ x, T* __restrict__ out, int64_t rows, int64_t inter) {
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (i >= rows * inter) return;
    const int64_t row = i / inter, col = i % inter;
    const float g = to_float(x[row * 2 * inter + col]);
    const float u = to_float(x[row * 2 * inter + inter + col]);
    out[i] = from_float<T>(g / (1.f + expf(-g)) * u);
}

extern "C" int kw_silu_mul(int dtype, const void* x, void* out, int64_t rows, int64_t inter, void* stream_ptr) {
    cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
    return with_dtype(dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        const dim3 grid((unsigned)((rows * inter + THREADS - 1) / THREADS));
        silu_mul_kernel<T><<<grid, THREADS, 0, stream>>>(
            static_cast<const T*>(x), static_cast<T*>(out), rows, inter);
        return (int)cudaGetLastError();
    });
}
"""

SIGNATURES = {"kw_silu_mul": "ippll"}


def _library():
    return load("silu_mul", SOURCE, {"threads": THREADS}, SIGNATURES, origin=__file__)


def silu_mul(x: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, out)
    if out is None:
        out = SPEC.empty_output((x,))
    if x.numel() == 0:
        return out
    inter = x.shape[-1] // 2
    rows = x.numel() // x.shape[-1]
    _library().launch("kw_silu_mul", DTYPE_CODES[x.dtype], x.data_ptr(), out.data_ptr(), rows, inter, device=x.device)
    return out


def generated_source() -> dict[str, str]:
    return {"silu_mul.cu": _library().text}
