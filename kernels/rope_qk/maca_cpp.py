"""RoPE on q and k in one launch, in CUDA C++: the file the agent edits for `rope_qk --backend maca_cpp`.

Design. q and k are viewed as [tokens, heads, head_dim] (tokens = batch * seq).
The grid is (token blocks, head groups): a block takes `tokens_per_block` tokens
and one of `groups` slices of the heads, q_heads / groups of q and kv_heads /
groups of k, so a token's table row is fetched from DRAM once for the q and k
heads of the slice (the repeats hit the cache). `groups` is the largest divisor
of both head counts not above `head_groups` (workbench.kernels.rope_qk.spec.head_groups):
more groups give decode calls more blocks. The block's threads walk its
(token, head, pack) triples, a pack being `vec` consecutive pairs (j, j + half);
each reads the tables at the token's position (token % seq, in fp32, bf16 or
fp16, read as fp32), does fp32 math and rounds once on each store. When half is
not a multiple of `vec`, or a pointer is not aligned to it, the same kernel runs
at vec 1.

The C++ source is built by workbench.kernels.cpp_support (nvcc, or MXMACA's cu-bridge on
MetaX: that path has not run on a C500); CONFIG reaches it as constexpr
constants (THREADS, VEC, TOKENS_PER_BLOCK, HEAD_GROUPS).
"""

from __future__ import annotations

import torch

from workbench.kernels.cpp_support import DTYPE_CODES, aligned, load
from workbench.kernels.rope_qk.spec import SPEC, head_groups

CONFIG = {"threads": 128, "vec": 8, "tokens_per_block": 2, "head_groups": 4}

SEARCH_SPACE = {
    "threads": [32, 64, 128, 256, 512],
    "vec": [1, 2, 4, 8],
    "tokens_per_block": [1, 2, 4, 8, 16],
    "head_groups": [1, 2, 4, 8],
}

SOURCE = r"""
// Built after kernels/cpp_support.py's PRELUDE: CUDA headers, to_float, from_float, Pack, warp_sum, block_sum,
// with_dtype, rotate_pairs (prompts/guide_maca_cpp.md lists them).

template <typename T, typename TT, int V>
__global__ void __launch_bounds__(THREADS) rope_qk_kernel(
    const T* __restrict__ q, const T* __restrict__ k, const TT* __restrict__ sin, const TT* __restrict__ cos,
    T* __restrict__ q_out, T* __restrict__ k_out, int64_t tokens, int64_t q_heads, int64_t kv_heads, int64_t seq,
    int64_t half, int64_t groups) {
    const int64_t packs = half / V;
    const int64_t q_group = q_heads / groups, kv_group = kv_heads / groups;
    const int64_t per_token = (q_group + kv_group) * packs;
    const int64_t items = (int64_t)TOKENS_PER_BLOCK * per_token;
    for (int64_t i = threadIdx.x; i < items; i += THREADS) {
        const int64_t token = (int64_t)blockIdx.x * TOKENS_PER_BLOCK + i / per_token;
        if (token >= tokens) return;  // tokens grow with i
        const int64_t rest = i % per_token, head = rest / packs, p = rest % packs;
        const int64_t pos = token % seq;
        if (head < q_group) {
            const int64_t at = (token * q_heads + blockIdx.y * q_group + head) * 2 * half;
            rotate_pairs<T, TT, V>(q + at, q_out + at, sin + pos * half, cos + pos * half, half, p);
        } else {
            const int64_t at = (token * kv_heads + blockIdx.y * kv_group + head - q_group) * 2 * half;
            rotate_pairs<T, TT, V>(k + at, k_out + at, sin + pos * half, cos + pos * half, half, p);
        }
    }
}

template <typename T, typename TT>
static int launch(int vec, const void* q, const void* k, const void* sin, const void* cos, void* q_out, void* k_out,
                  int64_t tokens, int64_t q_heads, int64_t kv_heads, int64_t seq, int64_t half, int64_t groups,
                  cudaStream_t stream) {
    const dim3 grid((unsigned)((tokens + TOKENS_PER_BLOCK - 1) / TOKENS_PER_BLOCK), (unsigned)groups);
    const T* qt = static_cast<const T*>(q);
    const T* kt = static_cast<const T*>(k);
    const TT* st = static_cast<const TT*>(sin);
    const TT* ct = static_cast<const TT*>(cos);
    T* qo = static_cast<T*>(q_out);
    T* ko = static_cast<T*>(k_out);
    if (vec == VEC)
        rope_qk_kernel<T, TT, VEC><<<grid, THREADS, 0, stream>>>(qt, kt, st, ct, qo, ko, tokens, q_heads, kv_heads,
                                                                 seq, half, groups);
    else
        rope_qk_kernel<T, TT, 1><<<grid, THREADS, 0, stream>>>(qt, kt, st, ct, qo, ko, tokens, q_heads, kv_heads, seq,
                                                               half, groups);
    return (int)cudaGetLastError();
}

extern "C" int kw_rope_qk(int dtype, int table_dtype, int vec, const void* q, const void* k, const void* sin,
                          const void* cos, void* q_out, void* k_out, int64_t tokens, int64_t q_heads,
                          int64_t kv_heads, int64_t seq, int64_t half, int64_t groups, void* stream) {
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    return with_dtype(dtype, [&](auto t) {
        return with_dtype(table_dtype, [&](auto tt) {
            using T = typename decltype(t)::type;
            using TT = typename decltype(tt)::type;
            return launch<T, TT>(vec, q, k, sin, cos, q_out, k_out, tokens, q_heads, kv_heads, seq, half, groups, s);
        });
    });
}
"""

# Argument types of each entry point (kernels.cpp_support: p pointer, l int64, i int32, f float).
SIGNATURES = {"kw_rope_qk": "iiippppppllllll"}


def _library():
    return load("rope_qk", SOURCE, CONFIG, SIGNATURES, origin=__file__)


def rope_qk(q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out=None):
    SPEC.check_inputs(q, k, sin, cos, out)
    if out is None:
        out = (torch.empty_like(q), torch.empty_like(k))
    if q.numel() == 0:  # no tokens: check_inputs has made sure both have heads
        return out
    q_out, k_out = out
    batch, seq, q_heads, head_dim = q.shape
    kv_heads, half = k.shape[2], head_dim // 2
    groups = head_groups(q_heads, kv_heads, CONFIG["head_groups"])
    vector = CONFIG["vec"]
    vec = vector if half % vector == 0 and aligned(vector, q, k, sin, cos, q_out, k_out) else 1
    # Only the first seq rows of the tables are read (a model may pass longer ones).
    _library().launch(
        "kw_rope_qk", DTYPE_CODES[q.dtype], DTYPE_CODES[sin.dtype], vec, q.data_ptr(), k.data_ptr(), sin.data_ptr(),
        cos.data_ptr(), q_out.data_ptr(), k_out.data_ptr(), batch * seq, q_heads, kv_heads, seq, half, groups,
        device=q.device,
    )  # fmt: skip
    return out


def generated_source() -> dict[str, str]:
    """The translation unit compiled for the current CONFIG (what nvcc sees)."""
    return {"rope_qk.cu": _library().text}
