#if defined(_MSC_VER) && !defined(__clang__) && _MSC_VER < 1940
#define _tl_orig_alignas alignas
#define alignas(N) _tl_orig_alignas((N) <= 64 ? (N) : 64)
#include <cuda.h>
#undef alignas
#define alignas _tl_orig_alignas
#endif
#include <tl_templates/cuda/reduce.h>
#include <tl_templates/cuda/scan.h>
#include <tl_templates/cuda/ldsm.h>
#include <tl_templates/cuda/threadblock_swizzle.h>
#include <tl_templates/cuda/debug.h>
#ifdef ENABLE_BF16
#include <tl_templates/cuda/cuda_bf16_fallbacks.cuh>
#endif

extern "C" __global__ void rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens);
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 48) {
    int rmod = (((int)blockIdx.x) % seq);
    float condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval = 0x0p+0f/*0.000000e+00*/;
    }
    float c = condval;
    int rmod_3 = (((int)blockIdx.x) % seq);
    float condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_1 = 0x0p+0f/*0.000000e+00*/;
    }
    float s = condval_1;
    float x1 = ((float)Q[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))]);
    float x2 = ((float)Q[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)]);
    QOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1 * c) - (x2 * s)));
    QOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)] = ((bfloat16_t)((x2 * c) + (x1 * s)));
    int rmod_6 = (((int)blockIdx.x) % seq);
    float condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = 0x0p+0f/*0.000000e+00*/;
    }
    float c_1 = condval_2;
    int rmod_9 = (((int)blockIdx.x) % seq);
    float condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = 0x0p+0f/*0.000000e+00*/;
    }
    float s_1 = condval_3;
    float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)]);
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}

