// (9, 3, 80, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 3), ('rows', False), ('threads', 64)))
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
  if (((int)threadIdx.x) < 60) {
    float broadcast_var = 0x0p+0f/*0.000000e+00*/;
    int rmod = (((int)blockIdx.x) % seq);
    float2 condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    } else {
      condval = make_float2(broadcast_var, broadcast_var);
    }
    float2 c = condval;
    float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((int)blockIdx.x) % seq);
    float2 condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    } else {
      condval_1 = make_float2(broadcast_var_1, broadcast_var_1);
    }
    float2 s = condval_1;
    float2 __1;
    uint1 v_ = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 x1 = __1;
    float2 __2;
    uint1 v__1 = *(uint1*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 x2 = __2;
    uint1 __3;
    float2 __4;
      float2 __5;
        __5.x = (x1.x*c.x);
        __5.y = (x1.y*c.y);
      float2 __6;
        __6.x = (x2.x*s.x);
        __6.y = (x2.y*s.y);
      __4.x = (__5.x-__6.x);
      __4.y = (__5.y-__6.y);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
    *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2))) = __3;
    uint1 __7;
    float2 __8;
      float2 __9;
        __9.x = (x2.x*c.x);
        __9.y = (x2.y*c.y);
      float2 __10;
        __10.x = (x1.x*s.x);
        __10.y = (x1.y*s.y);
      __8.x = (__9.x+__10.x);
      __8.y = (__9.y+__10.y);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
    *(uint1*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40)) = __7;
  }
  if (((int)threadIdx.x) < 40) {
    int rmod_6 = (((int)blockIdx.x) % seq);
    float condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)40) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = 0x0p+0f/*0.000000e+00*/;
    }
    float c_1 = condval_2;
    int rmod_9 = (((int)blockIdx.x) % seq);
    float condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)40) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = 0x0p+0f/*0.000000e+00*/;
    }
    float s_1 = condval_3;
    float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x))) + (int64_t)40)]);
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x))) + (int64_t)40)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (32, 8, 128, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 8), ('rows', False), ('threads', 64)))
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
  uint2 v_ = *(uint2*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
  ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
  float4 x1 = __1;
  float4 __2;
  uint2 v__1 = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
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
  *(uint2*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __3;
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
  *(uint2*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
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
  float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))]);
  float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)]);
  KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
  KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
}



// (7, 7, 96, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 7), ('rows', False), ('threads', 64)))
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



// (7, 7, 96, torch.bfloat16, torch.bfloat16, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 7), ('rows', False), ('threads', 64)))
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

extern "C" __global__ void rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens);
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 48) {
    int rmod = (((int)blockIdx.x) % seq);
    bfloat16_t condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float c = ((float)condval);
    int rmod_3 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float s = ((float)condval_1);
    float x1 = ((float)Q[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))]);
    float x2 = ((float)Q[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)]);
    QOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1 * c) - (x2 * s)));
    QOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)] = ((bfloat16_t)((x2 * c) + (x1 * s)));
    int rmod_6 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float c_1 = ((float)condval_2);
    int rmod_9 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)48) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float s_1 = ((float)condval_3);
    float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)]);
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)672) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((int64_t)((int)threadIdx.x))) + (int64_t)48)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (3, 1, 64, torch.bfloat16, torch.bfloat16, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 1), ('rows', False), ('threads', 64)))
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

extern "C" __global__ void rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens);
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 48) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __1;
    int rmod = (((int)blockIdx.x) % seq);
    uint1 condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = *(uint1*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval = make_uint1(__pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
    float2 c = __1;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __2;
    int rmod_3 = (((int)blockIdx.x) % seq);
    uint1 condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = *(uint1*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_1 = make_uint1(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
    float2 s = __2;
    float2 __3;
    uint1 v_ = *(uint1*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 x1 = __3;
    float2 __4;
    uint1 v__1 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
    ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 x2 = __4;
    uint1 __5;
    float2 __6;
      float2 __7;
        __7.x = (x1.x*c.x);
        __7.y = (x1.y*c.y);
      float2 __8;
        __8.x = (x2.x*s.x);
        __8.y = (x2.y*s.y);
      __6.x = (__7.x-__8.x);
      __6.y = (__7.y-__8.y);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
    *(uint1*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = __5;
    uint1 __9;
    float2 __10;
      float2 __11;
        __11.x = (x2.x*c.x);
        __11.y = (x2.y*c.y);
      float2 __12;
        __12.x = (x1.x*s.x);
        __12.y = (x1.y*s.y);
      __10.x = (__11.x+__12.x);
      __10.y = (__11.y+__12.y);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
    *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = __9;
  }
  if (((int)threadIdx.x) < 32) {
    int rmod_6 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float c_1 = ((float)condval_2);
    int rmod_9 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float s_1 = ((float)condval_3);
    float x1_1 = ((float)K[((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)]);
    KOut[((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (9, 3, 80, torch.bfloat16, torch.bfloat16, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 3), ('rows', False), ('threads', 64)))
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

extern "C" __global__ void rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens);
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 60) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __1;
    int rmod = (((int)blockIdx.x) % seq);
    uint1 condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = *(uint1*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    } else {
      condval = make_uint1(__pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
    float2 c = __1;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __2;
    int rmod_3 = (((int)blockIdx.x) % seq);
    uint1 condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = *(uint1*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    } else {
      condval_1 = make_uint1(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
    float2 s = __2;
    float2 __3;
    uint1 v_ = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
    ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 x1 = __3;
    float2 __4;
    uint1 v__1 = *(uint1*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40));
    ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 x2 = __4;
    uint1 __5;
    float2 __6;
      float2 __7;
        __7.x = (x1.x*c.x);
        __7.y = (x1.y*c.y);
      float2 __8;
        __8.x = (x2.x*s.x);
        __8.y = (x2.y*s.y);
      __6.x = (__7.x-__8.x);
      __6.y = (__7.y-__8.y);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
    *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2))) = __5;
    uint1 __9;
    float2 __10;
      float2 __11;
        __11.x = (x2.x*c.x);
        __11.y = (x2.y*c.y);
      float2 __12;
        __12.x = (x1.x*s.x);
        __12.y = (x1.y*s.y);
      __10.x = (__11.x+__12.x);
      __10.y = (__11.y+__12.y);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
    *(uint1*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)720) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40)) = __9;
  }
  if (((int)threadIdx.x) < 40) {
    int rmod_6 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)40) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float c_1 = ((float)condval_2);
    int rmod_9 = (((int)blockIdx.x) % seq);
    bfloat16_t condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)40) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    }
    float s_1 = ((float)condval_3);
    float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x))) + (int64_t)40)]);
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)240) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((int64_t)((int)threadIdx.x))) + (int64_t)40)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (32, 8, 64, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 8), ('rows', False), ('threads', 64)))
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
  float2 condval;
  if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
    int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
  } else {
    condval = make_float2(broadcast_var, broadcast_var);
  }
  float2 c = condval;
  float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
  int rmod_3 = (((int)blockIdx.x) % seq);
  float2 condval_1;
  if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
    int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_1 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
  } else {
    condval_1 = make_float2(broadcast_var_1, broadcast_var_1);
  }
  float2 s = condval_1;
  float2 __1;
  uint1 v_ = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
  ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
  float2 x1 = __1;
  float2 __2;
  uint1 v__1 = *(uint1*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
  ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
  float2 x2 = __2;
  uint1 __3;
  float2 __4;
    float2 __5;
      __5.x = (x1.x*c.x);
      __5.y = (x1.y*c.y);
    float2 __6;
      __6.x = (x2.x*s.x);
      __6.y = (x2.y*s.y);
    __4.x = (__5.x-__6.x);
    __4.y = (__5.y-__6.y);
  (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
  *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = __3;
  uint1 __7;
  float2 __8;
    float2 __9;
      __9.x = (x2.x*c.x);
      __9.y = (x2.y*c.y);
    float2 __10;
      __10.x = (x1.x*s.x);
      __10.y = (x1.y*s.y);
    __8.x = (__9.x+__10.x);
    __8.y = (__9.y+__10.y);
  (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
  *(uint1*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = __7;
  if (((int)threadIdx.x) < 32) {
    int rmod_6 = (((int)blockIdx.x) % seq);
    float condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = 0x0p+0f/*0.000000e+00*/;
    }
    float c_1 = condval_2;
    int rmod_9 = (((int)blockIdx.x) % seq);
    float condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = 0x0p+0f/*0.000000e+00*/;
    }
    float s_1 = condval_3;
    float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)512) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)]);
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)512) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (8, 2, 128, torch.bfloat16, torch.bfloat16, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 2), ('rows', False), ('threads', 64)))
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

extern "C" __global__ void rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens);
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_kernel_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int seq, int tokens) {
  bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
  float4 __1;
  int rmod = (((int)blockIdx.x) % seq);
  uint2 condval;
  if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
    int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  } else {
    condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
  }
  ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
  ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[1]);
  float4 c = __1;
  bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
  float4 __2;
  int rmod_3 = (((int)blockIdx.x) % seq);
  uint2 condval_1;
  if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
    int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_1 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  } else {
    condval_1 = make_uint2(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
  }
  ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
  ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[1]);
  float4 s = __2;
  float4 __3;
  uint2 v_ = *(uint2*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
  ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
  ((float2*)(&__3))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
  float4 x1 = __3;
  float4 __4;
  uint2 v__1 = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
  ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
  ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
  float4 x2 = __4;
  uint2 __5;
  float4 __6;
    float4 __7;
      __7.x = (x1.x*c.x);
      __7.y = (x1.y*c.y);
      __7.z = (x1.z*c.z);
      __7.w = (x1.w*c.w);
    float4 __8;
      __8.x = (x2.x*s.x);
      __8.y = (x2.y*s.y);
      __8.z = (x2.z*s.z);
      __8.w = (x2.w*s.w);
    __6.x = (__7.x-__8.x);
    __6.y = (__7.y-__8.y);
    __6.z = (__7.z-__8.z);
    __6.w = (__7.w-__8.w);
  (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
  (reinterpret_cast<__nv_bfloat162*>(&__5))[1] = __float22bfloat162_rn(((float2*)(&__6))[1]);
  *(uint2*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __5;
  uint2 __9;
  float4 __10;
    float4 __11;
      __11.x = (x2.x*c.x);
      __11.y = (x2.y*c.y);
      __11.z = (x2.z*c.z);
      __11.w = (x2.w*c.w);
    float4 __12;
      __12.x = (x1.x*s.x);
      __12.y = (x1.y*s.y);
      __12.z = (x1.z*s.z);
      __12.w = (x1.w*s.w);
    __10.x = (__11.x+__12.x);
    __10.y = (__11.y+__12.y);
    __10.z = (__11.z+__12.z);
    __10.w = (__11.w+__12.w);
  (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
  (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
  *(uint2*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __9;
  int rmod_6 = (((int)blockIdx.x) % seq);
  bfloat16_t condval_2;
  if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
    int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))];
  } else {
    condval_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
  }
  float c_1 = ((float)condval_2);
  int rmod_9 = (((int)blockIdx.x) % seq);
  bfloat16_t condval_3;
  if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
    int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
    condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))];
  } else {
    condval_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
  }
  float s_1 = ((float)condval_3);
  float x1_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))]);
  float x2_1 = ((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)]);
  KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
  KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((int64_t)((int)threadIdx.x))) + (int64_t)64)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
}



// (3, 1, 64, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 1), ('rows', False), ('threads', 64)))
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
    float broadcast_var = 0x0p+0f/*0.000000e+00*/;
    int rmod = (((int)blockIdx.x) % seq);
    float2 condval;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_2 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval = make_float2(broadcast_var, broadcast_var);
    }
    float2 c = condval;
    float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((int)blockIdx.x) % seq);
    float2 condval_1;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_5 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_1 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_1 = make_float2(broadcast_var_1, broadcast_var_1);
    }
    float2 s = condval_1;
    float2 __1;
    uint1 v_ = *(uint1*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 x1 = __1;
    float2 __2;
    uint1 v__1 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 x2 = __2;
    uint1 __3;
    float2 __4;
      float2 __5;
        __5.x = (x1.x*c.x);
        __5.y = (x1.y*c.y);
      float2 __6;
        __6.x = (x2.x*s.x);
        __6.y = (x2.y*s.y);
      __4.x = (__5.x-__6.x);
      __4.y = (__5.y-__6.y);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
    *(uint1*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = __3;
    uint1 __7;
    float2 __8;
      float2 __9;
        __9.x = (x2.x*c.x);
        __9.y = (x2.y*c.y);
      float2 __10;
        __10.x = (x1.x*s.x);
        __10.y = (x1.y*s.y);
      __8.x = (__9.x+__10.x);
      __8.y = (__9.y+__10.y);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
    *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = __7;
  }
  if (((int)threadIdx.x) < 32) {
    int rmod_6 = (((int)blockIdx.x) % seq);
    float condval_2;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_8 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_2 = 0x0p+0f/*0.000000e+00*/;
    }
    float c_1 = condval_2;
    int rmod_9 = (((int)blockIdx.x) % seq);
    float condval_3;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      int64_t rmod_11 = (((int64_t)((int)blockIdx.x)) % ((int64_t)seq));
      condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((int64_t)((int)threadIdx.x)))];
    } else {
      condval_3 = 0x0p+0f/*0.000000e+00*/;
    }
    float s_1 = condval_3;
    float x1_1 = ((float)K[((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))]);
    float x2_1 = ((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)]);
    KOut[((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x)))] = ((bfloat16_t)((x1_1 * c_1) - (x2_1 * s_1)));
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((int64_t)((int)threadIdx.x))) + (int64_t)32)] = ((bfloat16_t)((x2_1 * c_1) + (x1_1 * s_1)));
  }
}



// (8, 2, 128, torch.bfloat16, torch.float32, (('block_rows', 4), ('block_tokens', 1), ('copy_tiles', False), ('groups', 2), ('rows', False), ('threads', 64)))
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



// (4, 1, 64, torch.bfloat16, torch.float32, (('block_rows', 8), ('block_tokens', 1), ('copy_tiles', True), ('groups', 1), ('rows', True), ('threads', 128)))
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

extern "C" __global__ void rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq) {
  bfloat16_t x1[2];
  bfloat16_t x2[2];
  bfloat16_t x1_1[2];
  bfloat16_t x2_1[2];
  if (((int)blockIdx.x) < ((q_rows + 7) >> 3)) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval = *(uint1*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval = make_uint1(__pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint1*)(x1 + 0) = condval;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_1;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval_1 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
    } else {
      condval_1 = make_uint1(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint1*)(x2 + 0) = condval_1;
    float2 __1;
    uint1 v_ = *(uint1*)(x1 + 0);
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 a = __1;
    float2 __2;
    uint1 v__1 = *(uint1*)(x2 + 0);
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 b = __2;
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 6)) % seq);
    float2 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_2 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_2 = make_float2(broadcast_var_2, broadcast_var_2);
    }
    float2 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 6)) % seq);
    float2 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_3 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_3 = make_float2(broadcast_var_3, broadcast_var_3);
    }
    float2 s = condval_3;
    uint1 __3;
    float2 __4;
      float2 __5;
        __5.x = (a.x*c.x);
        __5.y = (a.y*c.y);
      float2 __6;
        __6.x = (b.x*s.x);
        __6.y = (b.y*s.y);
      __4.x = (__5.x-__6.x);
      __4.y = (__5.y-__6.y);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
    *(uint1*)(x1 + 0) = __3;
    uint1 __7;
    float2 __8;
      float2 __9;
        __9.x = (b.x*c.x);
        __9.y = (b.y*c.y);
      float2 __10;
        __10.x = (a.x*s.x);
        __10.y = (a.y*s.y);
      __8.x = (__9.x+__10.x);
      __8.y = (__9.y+__10.y);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
    *(uint1*)(x2 + 0) = __7;
    if (((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows) {
      *(uint1*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = *(uint1*)(x1 + 0);
      *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = *(uint1*)(x2 + 0);
    }
  } else {
    bfloat16_t broadcast_var_4 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_4;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_4 = make_uint1(__pack_nv_bfloat162(broadcast_var_4, broadcast_var_4));
    }
    *(uint1*)(x1_1 + 0) = condval_4;
    bfloat16_t broadcast_var_5 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_5;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_5 = make_uint1(__pack_nv_bfloat162(broadcast_var_5, broadcast_var_5));
    }
    *(uint1*)(x2_1 + 0) = condval_5;
    float2 __11;
    uint1 v__2 = *(uint1*)(x1_1 + 0);
    ((float2*)(&__11))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
    float2 a_1 = __11;
    float2 __12;
    uint1 v__3 = *(uint1*)(x2_1 + 0);
    ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
    float2 b_1 = __12;
    float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
    int rmod_6 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) % seq);
    float2 condval_6;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
    }
    float2 c_1 = condval_6;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    int rmod_9 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) % seq);
    float2 condval_7;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
    }
    float2 s_1 = condval_7;
    uint1 __13;
    float2 __14;
      float2 __15;
        __15.x = (a_1.x*c_1.x);
        __15.y = (a_1.y*c_1.y);
      float2 __16;
        __16.x = (b_1.x*s_1.x);
        __16.y = (b_1.y*s_1.y);
      __14.x = (__15.x-__16.x);
      __14.y = (__15.y-__16.y);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
    *(uint1*)(x1_1 + 0) = __13;
    uint1 __17;
    float2 __18;
      float2 __19;
        __19.x = (b_1.x*c_1.x);
        __19.y = (b_1.y*c_1.y);
      float2 __20;
        __20.x = (a_1.x*s_1.x);
        __20.y = (a_1.y*s_1.y);
      __18.x = (__19.x+__20.x);
      __18.y = (__19.y+__20.y);
    (reinterpret_cast<__nv_bfloat162*>(&__17))[0] = __float22bfloat162_rn(((float2*)(&__18))[0]);
    *(uint1*)(x2_1 + 0) = __17;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows) {
      *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x1_1 + 0);
      *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x2_1 + 0);
    }
  }
}



// (32, 8, 128, torch.bfloat16, torch.float32, (('block_rows', 8), ('block_tokens', 1), ('copy_tiles', True), ('groups', 8), ('rows', True), ('threads', 128)))
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

extern "C" __global__ void rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq) {
  bfloat16_t x1[4];
  bfloat16_t x2[4];
  bfloat16_t x1_1[4];
  bfloat16_t x2_1[4];
  if (((int)blockIdx.x) < ((q_rows + 7) >> 3)) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval = *(uint2*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
    } else {
      condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint2*)(x1 + 0) = condval;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_1;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval_1 = *(uint2*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
    } else {
      condval_1 = make_uint2(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint2*)(x2 + 0) = condval_1;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + 0);
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + 0);
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((int)blockIdx.x) >> 2) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      int64_t rmod_2 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((int)blockIdx.x) >> 2) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      int64_t rmod_5 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    uint2 __3;
    float4 __4;
      float4 __5;
        __5.x = (a.x*c.x);
        __5.y = (a.y*c.y);
        __5.z = (a.z*c.z);
        __5.w = (a.w*c.w);
      float4 __6;
        __6.x = (b.x*s.x);
        __6.y = (b.y*s.y);
        __6.z = (b.z*s.z);
        __6.w = (b.w*s.w);
      __4.x = (__5.x-__6.x);
      __4.y = (__5.y-__6.y);
      __4.z = (__5.z-__6.z);
      __4.w = (__5.w-__6.w);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[1] = __float22bfloat162_rn(((float2*)(&__4))[1]);
    *(uint2*)(x1 + 0) = __3;
    uint2 __7;
    float4 __8;
      float4 __9;
        __9.x = (b.x*c.x);
        __9.y = (b.y*c.y);
        __9.z = (b.z*c.z);
        __9.w = (b.w*c.w);
      float4 __10;
        __10.x = (a.x*s.x);
        __10.y = (a.y*s.y);
        __10.z = (a.z*s.z);
        __10.w = (a.w*s.w);
      __8.x = (__9.x+__10.x);
      __8.y = (__9.y+__10.y);
      __8.z = (__9.z+__10.z);
      __8.w = (__9.w+__10.w);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
    *(uint2*)(x2 + 0) = __7;
    if (((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows) {
      *(uint2*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = *(uint2*)(x1 + 0);
      *(uint2*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = *(uint2*)(x2 + 0);
    }
  } else {
    bfloat16_t broadcast_var_4 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_4;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_4 = *(uint2*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)1024)));
    } else {
      condval_4 = make_uint2(__pack_nv_bfloat162(broadcast_var_4, broadcast_var_4), __pack_nv_bfloat162(broadcast_var_4, broadcast_var_4));
    }
    *(uint2*)(x1_1 + 0) = condval_4;
    bfloat16_t broadcast_var_5 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_5;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_5 = *(uint2*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)1024)));
    } else {
      condval_5 = make_uint2(__pack_nv_bfloat162(broadcast_var_5, broadcast_var_5), __pack_nv_bfloat162(broadcast_var_5, broadcast_var_5));
    }
    *(uint2*)(x2_1 + 0) = condval_5;
    float4 __11;
    uint2 v__2 = *(uint2*)(x1_1 + 0);
    ((float2*)(&__11))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
    ((float2*)(&__11))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
    float4 a_1 = __11;
    float4 __12;
    uint2 v__3 = *(uint2*)(x2_1 + 0);
    ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
    ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
    float4 b_1 = __12;
    float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
    int rmod_6 = ((((int)blockIdx.x) - ((q_rows + 7) >> 3)) % seq);
    float4 condval_6;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_8 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      condval_6 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
    } else {
      condval_6 = make_float4(broadcast_var_6, broadcast_var_6, broadcast_var_6, broadcast_var_6);
    }
    float4 c_1 = condval_6;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    int rmod_9 = ((((int)blockIdx.x) - ((q_rows + 7) >> 3)) % seq);
    float4 condval_7;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_11 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      condval_7 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
    } else {
      condval_7 = make_float4(broadcast_var_7, broadcast_var_7, broadcast_var_7, broadcast_var_7);
    }
    float4 s_1 = condval_7;
    uint2 __13;
    float4 __14;
      float4 __15;
        __15.x = (a_1.x*c_1.x);
        __15.y = (a_1.y*c_1.y);
        __15.z = (a_1.z*c_1.z);
        __15.w = (a_1.w*c_1.w);
      float4 __16;
        __16.x = (b_1.x*s_1.x);
        __16.y = (b_1.y*s_1.y);
        __16.z = (b_1.z*s_1.z);
        __16.w = (b_1.w*s_1.w);
      __14.x = (__15.x-__16.x);
      __14.y = (__15.y-__16.y);
      __14.z = (__15.z-__16.z);
      __14.w = (__15.w-__16.w);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[1] = __float22bfloat162_rn(((float2*)(&__14))[1]);
    *(uint2*)(x1_1 + 0) = __13;
    uint2 __17;
    float4 __18;
      float4 __19;
        __19.x = (b_1.x*c_1.x);
        __19.y = (b_1.y*c_1.y);
        __19.z = (b_1.z*c_1.z);
        __19.w = (b_1.w*c_1.w);
      float4 __20;
        __20.x = (a_1.x*s_1.x);
        __20.y = (a_1.y*s_1.y);
        __20.z = (a_1.z*s_1.z);
        __20.w = (a_1.w*s_1.w);
      __18.x = (__19.x+__20.x);
      __18.y = (__19.y+__20.y);
      __18.z = (__19.z+__20.z);
      __18.w = (__19.w+__20.w);
    (reinterpret_cast<__nv_bfloat162*>(&__17))[0] = __float22bfloat162_rn(((float2*)(&__18))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__17))[1] = __float22bfloat162_rn(((float2*)(&__18))[1]);
    *(uint2*)(x2_1 + 0) = __17;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows) {
      *(uint2*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)1024))) = *(uint2*)(x1_1 + 0);
      *(uint2*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)1024))) = *(uint2*)(x2_1 + 0);
    }
  }
}



// (4, 1, 64, torch.bfloat16, torch.bfloat16, (('block_rows', 8), ('block_tokens', 1), ('copy_tiles', True), ('groups', 1), ('rows', True), ('threads', 128)))
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

extern "C" __global__ void rope_qk_rows_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int k_rows, int q_rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_rows_kernel(const bfloat16_t* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const bfloat16_t* __restrict__ Sin, int k_rows, int q_rows, int seq) {
  bfloat16_t x1[2];
  bfloat16_t x2[2];
  bfloat16_t x1_1[2];
  bfloat16_t x2_1[2];
  if (((int)blockIdx.x) < ((q_rows + 7) >> 3)) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval = *(uint1*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval = make_uint1(__pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint1*)(x1 + 0) = condval;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_1;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval_1 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
    } else {
      condval_1 = make_uint1(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint1*)(x2 + 0) = condval_1;
    float2 __1;
    uint1 v_ = *(uint1*)(x1 + 0);
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 a = __1;
    float2 __2;
    uint1 v__1 = *(uint1*)(x2 + 0);
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 b = __2;
    bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __3;
    int rmod = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 6)) % seq);
    uint1 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_2 = *(uint1*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_2 = make_uint1(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
    }
    ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
    float2 c = __3;
    bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __4;
    int rmod_3 = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 6)) % seq);
    uint1 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_3 = *(uint1*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_3 = make_uint1(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
    }
    ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
    float2 s = __4;
    uint1 __5;
    float2 __6;
      float2 __7;
        __7.x = (a.x*c.x);
        __7.y = (a.y*c.y);
      float2 __8;
        __8.x = (b.x*s.x);
        __8.y = (b.y*s.y);
      __6.x = (__7.x-__8.x);
      __6.y = (__7.y-__8.y);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
    *(uint1*)(x1 + 0) = __5;
    uint1 __9;
    float2 __10;
      float2 __11;
        __11.x = (b.x*c.x);
        __11.y = (b.y*c.y);
      float2 __12;
        __12.x = (a.x*s.x);
        __12.y = (a.y*s.y);
      __10.x = (__11.x+__12.x);
      __10.y = (__11.y+__12.y);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
    *(uint1*)(x2 + 0) = __9;
    if (((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows) {
      *(uint1*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = *(uint1*)(x1 + 0);
      *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = *(uint1*)(x2 + 0);
    }
  } else {
    bfloat16_t broadcast_var_4 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_4;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_4 = make_uint1(__pack_nv_bfloat162(broadcast_var_4, broadcast_var_4));
    }
    *(uint1*)(x1_1 + 0) = condval_4;
    bfloat16_t broadcast_var_5 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_5;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_5 = make_uint1(__pack_nv_bfloat162(broadcast_var_5, broadcast_var_5));
    }
    *(uint1*)(x2_1 + 0) = condval_5;
    float2 __13;
    uint1 v__2 = *(uint1*)(x1_1 + 0);
    ((float2*)(&__13))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
    float2 a_1 = __13;
    float2 __14;
    uint1 v__3 = *(uint1*)(x2_1 + 0);
    ((float2*)(&__14))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
    float2 b_1 = __14;
    bfloat16_t broadcast_var_6 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __15;
    int rmod_6 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) % seq);
    uint1 condval_6;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_6 = *(uint1*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_6 = make_uint1(__pack_nv_bfloat162(broadcast_var_6, broadcast_var_6));
    }
    ((float2*)(&__15))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_6))[0]);
    float2 c_1 = __15;
    bfloat16_t broadcast_var_7 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float2 __16;
    int rmod_9 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) % seq);
    uint1 condval_7;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_7 = *(uint1*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_7 = make_uint1(__pack_nv_bfloat162(broadcast_var_7, broadcast_var_7));
    }
    ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_7))[0]);
    float2 s_1 = __16;
    uint1 __17;
    float2 __18;
      float2 __19;
        __19.x = (a_1.x*c_1.x);
        __19.y = (a_1.y*c_1.y);
      float2 __20;
        __20.x = (b_1.x*s_1.x);
        __20.y = (b_1.y*s_1.y);
      __18.x = (__19.x-__20.x);
      __18.y = (__19.y-__20.y);
    (reinterpret_cast<__nv_bfloat162*>(&__17))[0] = __float22bfloat162_rn(((float2*)(&__18))[0]);
    *(uint1*)(x1_1 + 0) = __17;
    uint1 __21;
    float2 __22;
      float2 __23;
        __23.x = (b_1.x*c_1.x);
        __23.y = (b_1.y*c_1.y);
      float2 __24;
        __24.x = (a_1.x*s_1.x);
        __24.y = (a_1.y*s_1.y);
      __22.x = (__23.x+__24.x);
      __22.y = (__23.y+__24.y);
    (reinterpret_cast<__nv_bfloat162*>(&__21))[0] = __float22bfloat162_rn(((float2*)(&__22))[0]);
    *(uint1*)(x2_1 + 0) = __21;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows) {
      *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x1_1 + 0);
      *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x2_1 + 0);
    }
  }
}



// (32, 8, 64, torch.bfloat16, torch.float32, (('block_rows', 8), ('block_tokens', 1), ('copy_tiles', True), ('groups', 8), ('rows', True), ('threads', 128)))
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

extern "C" __global__ void rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq) {
  bfloat16_t x1[2];
  bfloat16_t x2[2];
  bfloat16_t x1_1[2];
  bfloat16_t x2_1[2];
  if (((int)blockIdx.x) < ((q_rows + 7) >> 3)) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval = *(uint1*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval = make_uint1(__pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint1*)(x1 + 0) = condval;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_1;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows)) {
      condval_1 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32));
    } else {
      condval_1 = make_uint1(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint1*)(x2 + 0) = condval_1;
    float2 __1;
    uint1 v_ = *(uint1*)(x1 + 0);
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    float2 a = __1;
    float2 __2;
    uint1 v__1 = *(uint1*)(x2 + 0);
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    float2 b = __2;
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((int)blockIdx.x) >> 2) % seq);
    float2 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      int64_t rmod_2 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      condval_2 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_2 = make_float2(broadcast_var_2, broadcast_var_2);
    }
    float2 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((int)blockIdx.x) >> 2) % seq);
    float2 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      int64_t rmod_5 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)2) % ((int64_t)seq));
      condval_3 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_3 = make_float2(broadcast_var_3, broadcast_var_3);
    }
    float2 s = condval_3;
    uint1 __3;
    float2 __4;
      float2 __5;
        __5.x = (a.x*c.x);
        __5.y = (a.y*c.y);
      float2 __6;
        __6.x = (b.x*s.x);
        __6.y = (b.y*s.y);
      __4.x = (__5.x-__6.x);
      __4.y = (__5.y-__6.y);
    (reinterpret_cast<__nv_bfloat162*>(&__3))[0] = __float22bfloat162_rn(((float2*)(&__4))[0]);
    *(uint1*)(x1 + 0) = __3;
    uint1 __7;
    float2 __8;
      float2 __9;
        __9.x = (b.x*c.x);
        __9.y = (b.y*c.y);
      float2 __10;
        __10.x = (a.x*s.x);
        __10.y = (a.y*s.y);
      __8.x = (__9.x+__10.x);
      __8.y = (__9.y+__10.y);
    (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
    *(uint1*)(x2 + 0) = __7;
    if (((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) < q_rows) {
      *(uint1*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2))) = *(uint1*)(x1 + 0);
      *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32)) = *(uint1*)(x2 + 0);
    }
  } else {
    bfloat16_t broadcast_var_4 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_4;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_4 = make_uint1(__pack_nv_bfloat162(broadcast_var_4, broadcast_var_4));
    }
    *(uint1*)(x1_1 + 0) = condval_4;
    bfloat16_t broadcast_var_5 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint1 condval_5;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_5 = make_uint1(__pack_nv_bfloat162(broadcast_var_5, broadcast_var_5));
    }
    *(uint1*)(x2_1 + 0) = condval_5;
    float2 __11;
    uint1 v__2 = *(uint1*)(x1_1 + 0);
    ((float2*)(&__11))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
    float2 a_1 = __11;
    float2 __12;
    uint1 v__3 = *(uint1*)(x2_1 + 0);
    ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
    float2 b_1 = __12;
    float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
    int rmod_6 = ((((int)blockIdx.x) - ((q_rows + 7) >> 3)) % seq);
    float2 condval_6;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_8 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
    }
    float2 c_1 = condval_6;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    int rmod_9 = ((((int)blockIdx.x) - ((q_rows + 7) >> 3)) % seq);
    float2 condval_7;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_11 = ((((int64_t)((int)blockIdx.x)) - ((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3)) % ((int64_t)seq));
      condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)));
    } else {
      condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
    }
    float2 s_1 = condval_7;
    uint1 __13;
    float2 __14;
      float2 __15;
        __15.x = (a_1.x*c_1.x);
        __15.y = (a_1.y*c_1.y);
      float2 __16;
        __16.x = (b_1.x*s_1.x);
        __16.y = (b_1.y*s_1.y);
      __14.x = (__15.x-__16.x);
      __14.y = (__15.y-__16.y);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
    *(uint1*)(x1_1 + 0) = __13;
    uint1 __17;
    float2 __18;
      float2 __19;
        __19.x = (b_1.x*c_1.x);
        __19.y = (b_1.y*c_1.y);
      float2 __20;
        __20.x = (a_1.x*s_1.x);
        __20.y = (a_1.y*s_1.y);
      __18.x = (__19.x+__20.x);
      __18.y = (__19.y+__20.y);
    (reinterpret_cast<__nv_bfloat162*>(&__17))[0] = __float22bfloat162_rn(((float2*)(&__18))[0]);
    *(uint1*)(x2_1 + 0) = __17;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 4)) - (((q_rows + 7) >> 3) * 8)) < k_rows) {
      *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x1_1 + 0);
      *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)2)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint1*)(x2_1 + 0);
    }
  }
}

