"""RMSNorm in CUDA C++, as a first draft: one block per row, scalar loads, the row read twice.

Correct for every dtype and size; the block size was picked without measuring, and nothing is vectorised.
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, load
from workbench.kernels.rms_norm.spec import SPEC

THREADS = 256

SOURCE = r"""
template <typename T>
__global__ void rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ out,
                                int64_t hidden, float eps) {
    __shared__ float shared[(THREADS + 31) / 32];
    const T* xr = x + (int64_t)blockIdx.x * hidden;
    T* outr = out + (int64_t)blockIdx.x * hidden;
    float squares = 0.f;
    for (int64_t j = threadIdx.x; j < hidden; j += THREADS) {
        const float v = to_float(xr[j]);
        squares += v * v;
    }
    const float scale = rsqrtf(block_sum<THREADS>(squares, shared) / (float)hidden + eps);
    for (int64_t j = threadIdx.x; j < hidden; j += THREADS) {
        outr[j] = from_float<T>(to_float(xr[j]) * scale * to_float(w[j]));
    }
}

extern "C" int kw_rms_norm(int dtype, const void* x, const void* w, void* out, int64_t rows, int64_t hidden,
                           float eps, void* stream_ptr) {
    cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
    return with_dtype(dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        rms_norm_kernel<T><<<(unsigned)rows, THREADS, 0, stream>>>(
            static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(out), hidden, eps);
        return (int)cudaGetLastError();
    });
}
"""

SIGNATURES = {"kw_rms_norm": "ipppllf"}


def _library():
    return load("rms_norm", SOURCE, {"threads": THREADS}, SIGNATURES, origin=__file__)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, out: torch.Tensor | None = None) -> torch.Tensor:
    SPEC.check_inputs(x, weight, eps, out)
    if out is None:
        out = torch.empty_like(x)
    if x.numel() == 0:
        return out
    hidden = x.shape[-1]
    _library().launch(
        "kw_rms_norm", DTYPE_CODES[x.dtype], x.data_ptr(), weight.data_ptr(), out.data_ptr(), x.numel() // hidden,
        hidden, float(eps), device=x.device,
    )  # fmt: skip
    return out


def generated_source() -> dict[str, str]:
    return {"rms_norm.cu": _library().text}
