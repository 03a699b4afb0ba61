constexpr int THREADS = 256;
constexpr int VEC = 4;
constexpr int ROWS_PER_BLOCK = 2;
constexpr int CACHE_PACKS = 4;
#line 66 "kernels/cpp_support.py"

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

// An element's value in fp32, where every kernel does its math.
__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

// fp32 to the element type, rounded to nearest even: the one rounding of a result, on its store.
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

// N elements as one aligned load or store (16 bytes at 8 bf16): pointers must be N-aligned (cpp_support.aligned).
template <typename T, int N> struct alignas(sizeof(T) * N) Pack { T v[N]; };

// Sum over each 32-lane group, every lane gets it: right on 32-wide NVIDIA warps and 64-wide MetaX waves.
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset, 32);
    return v;
}

// Sum over a block of BLOCK threads, every thread gets it; `shared` holds (BLOCK + 31) / 32 floats.
template <int BLOCK> __device__ __forceinline__ float block_sum(float v, float* shared) {
    v = warp_sum(v);
    constexpr int GROUPS = (BLOCK + 31) / 32;
    const int group = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) shared[group] = v;
    __syncthreads();
    float total = 0.f;
    #pragma unroll
    for (int g = 0; g < GROUPS; ++g) total += shared[g];
    __syncthreads();  // the caller may reuse `shared` (the next row) at once
    return total;
}

// Calls f(TypeTag<T>{}) with the element type of a dtype code (kernels.cpp_support.DTYPE_CODES).
template <typename T> struct TypeTag { using type = T; };
template <typename F> static int with_dtype(int dtype, F&& f) {
    switch (dtype) {
        case 0: return f(TypeTag<float>{});
        case 1: return f(TypeTag<__half>{});
        case 2: return f(TypeTag<__nv_bfloat16>{});
        default: return (int)cudaErrorInvalidValue;
    }
}
#line 33 "iterations/0005/candidate.py"

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

extern "C" const char* kw_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
