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
  float broadcast_var = 0x0p+0f/*0.000000e+00*/;
  int rmod = (((int)blockIdx.x) % seq);
  float4 condval;
  if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
    int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  } else {
    condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
  }
  float4 c = condval;
  float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
  int rmod_3 = (((int)blockIdx.x) % seq);
  float4 condval_1;
  if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
    int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  } else {
    condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
  }
  float4 s = condval_1;
  float4 __1;
  uint2 v_ = *(uint2*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
  ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
  float4 x1 = __1;
  float4 __2;
  uint2 v__1 = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
  ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
  ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
  float4 x2 = __2;
  uint2 __3;
  float4 __4;
    float4 __5;
      __5.x = (x1.x*c.x);
      __5.y = (x1.y*c.y);
      __5.z = (x1.z*c.z);
      __5.w = (x1.w*c.w);
    float4 __6;
      __6.x = (x2.x*s.x);
      __6.y = (x2.y*s.y);
      __6.z = (x2.z*s.z);
      __6.w = (x2.w*s.w);
    __4.x = (__5.x-__6.x);
    __4.y = (__5.y-__6.y);
    __4.z = (__5.z-__6.z);
    __4.w = (__5.w-__6.w);
  (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
  (reinterpret_cast<__nv_bfloat162*>(&__3))[1] = __float22bfloat162_rn(((float2*)(&__4))[1]);
  *(uint2*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __3;
  uint2 __7;
  float4 __8;
    float4 __9;
      __9.x = (x2.x*c.x);
      __9.y = (x2.y*c.y);
      __9.z = (x2.z*c.z);
      __9.w = (x2.w*c.w);
    float4 __10;
      __10.x = (x1.x*s.x);
      __10.y = (x1.y*s.y);
      __10.z = (x1.z*s.z);
      __10.w = (x1.w*s.w);
    __8.x = (__9.x+__10.x);
    __8.y = (__9.y+__10.y);
    __8.z = (__9.z+__10.z);
    __8.w = (__9.w+__10.w);
  (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
  (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
  *(uint2*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
  int rmod_6 = (((int)blockIdx.x) % seq);
  float condval_2;
  if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
    int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))];
  } else {
    condval_2 = 0x0p+0f/*0.000000e+00*/;
  }
  float c_1 = condval_2;
  int rmod_9 = (((int)blockIdx.x) % seq);
  float condval_3;
  if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
    int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))];
  } else {
    condval_3 = 0x0p+0f/*0.000000e+00*/;
  }
  float s_1 = condval_3;
  float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))]);
  float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)]);
  KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
  KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
}

