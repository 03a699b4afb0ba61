// (32, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((int)blockIdx.x) * 2) + (i >> 1)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((int)blockIdx.x) * 2) + (i >> 1)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((int)blockIdx.x) * 2) + (i >> 1)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((int)blockIdx.x) * 2) + (i >> 1)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)1)) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = __7;
    }
  }
}



// (2, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[16];
  bfloat16_t x2[16];
  bfloat16_t o1[16];
  bfloat16_t o2[16];
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 2; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((((int)blockIdx.x) * 32) + ((i_2 >> 1) * 16)) + (((int)threadIdx.x) >> 3)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((((int)blockIdx.x) * 32) + ((i_2 >> 1) * 16)) + (((int)threadIdx.x) >> 3)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 2; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 2; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (8, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = ((((((int)blockIdx.x) * 8) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = ((((((int)blockIdx.x) * 8) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = ((((((int)blockIdx.x) * 8) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = ((((((int)blockIdx.x) * 8) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = __7;
    }
  }
}



// (32, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[16];
  bfloat16_t x2[16];
  bfloat16_t o1[16];
  bfloat16_t o2[16];
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 2; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = (((((int)blockIdx.x) * 2) + (i_2 >> 1)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)1)) % ((int64_t)seq));
      int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)1)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((((int)blockIdx.x) * 2) + (i_2 >> 1)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)1)) % ((int64_t)seq));
      int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)1)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 2; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 2; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (32, 128, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((int)blockIdx.x) * 2) + (i >> 2)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((int)blockIdx.x) * 2) + (i >> 2)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((int)blockIdx.x) * 2) + (i >> 2)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((int)blockIdx.x) * 2) + (i >> 2)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i) >> (int64_t)2)) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
    }
  }
}



// (8, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[16];
  bfloat16_t x2[16];
  bfloat16_t o1[16];
  bfloat16_t o2[16];
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 2; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((((int)blockIdx.x) * 8) + ((i_2 >> 1) * 4)) + (((int)threadIdx.x) >> 5)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)4)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)4)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((((int)blockIdx.x) * 8) + ((i_2 >> 1) * 4)) + (((int)threadIdx.x) >> 5)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)4)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)4)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 2; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 2; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (9, 80, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 5; ++i) {
    if (((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40)) = __7;
    }
  }
}



// (8, 128, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((int)blockIdx.x) * 8) + i) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((int)blockIdx.x) * 8) + i) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((int)blockIdx.x) * 8) + i) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((int)blockIdx.x) * 8) + i) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((int64_t)i)) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
    }
  }
}



// (32, 128, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[32];
  bfloat16_t x2[32];
  bfloat16_t o1[32];
  bfloat16_t o2[32];
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 4; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 16)) + (((int)threadIdx.x) >> 3)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + (int64_t)64));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 8; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = (((((int)blockIdx.x) * 2) + (i_2 >> 2)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)2)) % ((int64_t)seq));
      int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)2)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((((int)blockIdx.x) * 2) + (i_2 >> 2)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)2)) % ((int64_t)seq));
      int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)i_2) >> (int64_t)2)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 4; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 4; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + (int64_t)64)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (7, 96, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[24];
  bfloat16_t x2[24];
  bfloat16_t o1[24];
  bfloat16_t o2[24];
  #pragma unroll
  for (int i = 0; i < 3; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows)) {
      condval = *(uint4*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 3; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if ((((((int)blockIdx.x) * 64) + (((i_1 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows)) {
      condval_1 = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + (int64_t)48));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 6; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((((int)blockIdx.x) * 64) + ((((i_2 >> 1) * 64) + (((int)threadIdx.x) >> 1)) / 3)) / 7) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)48) + (((((((int64_t)i_2) >> (int64_t)1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((((int)blockIdx.x) * 64) + ((((i_2 >> 1) * 64) + (((int)threadIdx.x) >> 1)) / 3)) / 7) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)48) + (((((((int64_t)i_2) >> (int64_t)1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 3; ++i_3) {
    if (((((int)blockIdx.x) * 64) + (((i_3 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows) {
      *(uint4*)(Out + (((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_3) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_3) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 3; ++i_4) {
    if (((((int)blockIdx.x) * 64) + (((i_4 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_4) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_4) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + (int64_t)48)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (3, 64, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_2 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_5 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_8 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_11 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = __7;
    }
  }
}



// (8, 128, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[32];
  bfloat16_t x2[32];
  bfloat16_t o1[32];
  bfloat16_t o2[32];
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 4; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 16)) + (((int)threadIdx.x) >> 3)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + (int64_t)64));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 8; ++i_2) {
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    int rmod = ((((((int)blockIdx.x) * 8) + ((i_2 >> 1) * 2)) + (((int)threadIdx.x) >> 6)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = ((((((int)blockIdx.x) * 8) + ((i_2 >> 1) * 2)) + (((int)threadIdx.x) >> 6)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
    }
    float4 s = condval_3;
    float4 __1;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __1;
    float4 __2;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __2;
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
    *(uint2*)(o1 + (i_2 * 4)) = __3;
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
    *(uint2*)(o2 + (i_2 * 4)) = __7;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 4; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 4; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)8)) + (int64_t)64)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (3, 64, torch.bfloat16, torch.bfloat16, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 4; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) < rows) {
      bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          float4 __5;
          int rmod = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          uint2 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_2 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
          }
          ((float2*)(&__5))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
          ((float2*)(&__5))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[1]);
          __3.x = (__4.x*__5.x);
          __3.y = (__4.y*__5.y);
          __3.z = (__4.z*__5.z);
          __3.w = (__4.w*__5.w);
        float4 __6;
          float4 __7;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__7))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__7))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          float4 __8;
          int rmod_3 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          uint2 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_5 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_1 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_1 = make_uint2(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
          }
          ((float2*)(&__8))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
          ((float2*)(&__8))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[1]);
          __6.x = (__7.x*__8.x);
          __6.y = (__7.y*__8.y);
          __6.z = (__7.z*__8.z);
          __6.w = (__7.w*__8.w);
        __2.x = (__3.x-__6.x);
        __2.y = (__3.y-__6.y);
        __2.z = (__3.z-__6.z);
        __2.w = (__3.w-__6.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
      bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __9;
      float4 __10;
        float4 __11;
          float4 __12;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          float4 __13;
          int rmod_6 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          uint2 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_8 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_2 = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_2 = make_uint2(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2), __pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
          }
          ((float2*)(&__13))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
          ((float2*)(&__13))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[1]);
          __11.x = (__12.x*__13.x);
          __11.y = (__12.y*__13.y);
          __11.z = (__12.z*__13.z);
          __11.w = (__12.w*__13.w);
        float4 __14;
          float4 __15;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          ((float2*)(&__15))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__15))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          float4 __16;
          int rmod_9 = (((((((int)blockIdx.x) * 64) + (i * 16)) + (((int)threadIdx.x) >> 3)) / 3) % seq);
          uint2 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            int64_t rmod_11 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) / (int64_t)3) % ((int64_t)seq));
            condval_3 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
          } else {
            condval_3 = make_uint2(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3), __pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
          }
          ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
          ((float2*)(&__16))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[1]);
          __14.x = (__15.x*__16.x);
          __14.y = (__15.y*__16.y);
          __14.z = (__15.z*__16.z);
          __14.w = (__15.w*__16.w);
        __10.x = (__11.x+__14.x);
        __10.y = (__11.y+__14.y);
        __10.z = (__11.z+__14.z);
        __10.w = (__11.w+__14.w);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = __9;
    }
  }
}



// (9, 80, torch.bfloat16, torch.bfloat16, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 5; ++i) {
    if (((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) < rows) {
      bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          float4 __5;
          int rmod = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          uint2 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
          }
          ((float2*)(&__5))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
          ((float2*)(&__5))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[1]);
          __3.x = (__4.x*__5.x);
          __3.y = (__4.y*__5.y);
          __3.z = (__4.z*__5.z);
          __3.w = (__4.w*__5.w);
        float4 __6;
          float4 __7;
          uint2 v__1 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__7))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__7))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          float4 __8;
          int rmod_3 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          uint2 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_1 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_1 = make_uint2(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
          }
          ((float2*)(&__8))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
          ((float2*)(&__8))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[1]);
          __6.x = (__7.x*__8.x);
          __6.y = (__7.y*__8.y);
          __6.z = (__7.z*__8.z);
          __6.w = (__7.w*__8.w);
        __2.x = (__3.x-__6.x);
        __2.y = (__3.y-__6.y);
        __2.z = (__3.z-__6.z);
        __2.w = (__3.w-__6.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4))) = __1;
      bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __9;
      float4 __10;
        float4 __11;
          float4 __12;
          uint2 v__2 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          float4 __13;
          int rmod_6 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          uint2 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_2 = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_2 = make_uint2(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2), __pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
          }
          ((float2*)(&__13))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
          ((float2*)(&__13))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[1]);
          __11.x = (__12.x*__13.x);
          __11.y = (__12.y*__13.y);
          __11.z = (__12.z*__13.z);
          __11.w = (__12.w*__13.w);
        float4 __14;
          float4 __15;
          uint2 v__3 = *(uint2*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__15))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__15))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          float4 __16;
          int rmod_9 = ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 5)) / 9) % seq);
          uint2 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5)) / (int64_t)9) % ((int64_t)seq));
            condval_3 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)40) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_3 = make_uint2(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3), __pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
          }
          ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
          ((float2*)(&__16))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[1]);
          __14.x = (__15.x*__16.x);
          __14.y = (__15.y*__16.y);
          __14.z = (__15.z*__16.z);
          __14.w = (__15.w*__16.w);
        __10.x = (__11.x+__14.x);
        __10.y = (__11.y+__14.y);
        __10.z = (__11.z+__14.z);
        __10.w = (__11.w+__14.w);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)5120) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)5) * (int64_t)80)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)10) * (int64_t)4)) + (int64_t)40)) = __9;
    }
  }
}



// (7, 96, torch.bfloat16, torch.bfloat16, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[24];
  bfloat16_t x2[24];
  bfloat16_t o1[24];
  bfloat16_t o2[24];
  #pragma unroll
  for (int i = 0; i < 3; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if ((((((int)blockIdx.x) * 64) + (((i * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows)) {
      condval = *(uint4*)(X + (((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 3; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if ((((((int)blockIdx.x) * 64) + (((i_1 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows)) {
      condval_1 = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + (int64_t)48));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 6; ++i_2) {
    bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float4 __1;
    int rmod = ((((((int)blockIdx.x) * 64) + ((((i_2 >> 1) * 64) + (((int)threadIdx.x) >> 1)) / 3)) / 7) % seq);
    uint2 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      condval_2 = *(uint2*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)48) + (((((((int64_t)i_2) >> (int64_t)1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_uint2(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2), __pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
    }
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[1]);
    float4 c = __1;
    bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float4 __2;
    int rmod_3 = ((((((int)blockIdx.x) * 64) + ((((i_2 >> 1) * 64) + (((int)threadIdx.x) >> 1)) / 3)) / 7) % seq);
    uint2 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + ((((((int64_t)i_2) >> (int64_t)1) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3)) / (int64_t)7) % ((int64_t)seq));
      condval_3 = *(uint2*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)48) + (((((((int64_t)i_2) >> (int64_t)1) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_uint2(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3), __pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
    }
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[1]);
    float4 s = __2;
    float4 __3;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__3))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __3;
    float4 __4;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __4;
    uint2 __5;
    float4 __6;
      float4 __7;
        __7.x = (a.x*c.x);
        __7.y = (a.y*c.y);
        __7.z = (a.z*c.z);
        __7.w = (a.w*c.w);
      float4 __8;
        __8.x = (b.x*s.x);
        __8.y = (b.y*s.y);
        __8.z = (b.z*s.z);
        __8.w = (b.w*s.w);
      __6.x = (__7.x-__8.x);
      __6.y = (__7.y-__8.y);
      __6.z = (__7.z-__8.z);
      __6.w = (__7.w-__8.w);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[1] = __float22bfloat162_rn(((float2*)(&__6))[1]);
    *(uint2*)(o1 + (i_2 * 4)) = __5;
    uint2 __9;
    float4 __10;
      float4 __11;
        __11.x = (b.x*c.x);
        __11.y = (b.y*c.y);
        __11.z = (b.z*c.z);
        __11.w = (b.w*c.w);
      float4 __12;
        __12.x = (a.x*s.x);
        __12.y = (a.y*s.y);
        __12.z = (a.z*s.z);
        __12.w = (a.w*s.w);
      __10.x = (__11.x+__12.x);
      __10.y = (__11.y+__12.y);
      __10.z = (__11.z+__12.z);
      __10.w = (__11.w+__12.w);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
    *(uint2*)(o2 + (i_2 * 4)) = __9;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 3; ++i_3) {
    if (((((int)blockIdx.x) * 64) + (((i_3 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows) {
      *(uint4*)(Out + (((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_3) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_3) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 3; ++i_4) {
    if (((((int)blockIdx.x) * 64) + (((i_4 * 64) + (((int)threadIdx.x) >> 1)) / 3)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)6144) + ((((((int64_t)i_4) * (int64_t)64) + (((int64_t)((int)threadIdx.x)) >> (int64_t)1)) / (int64_t)3) * (int64_t)96)) + ((((((int64_t)i_4) * (int64_t)128) + ((int64_t)((int)threadIdx.x))) % (int64_t)6) * (int64_t)8)) + (int64_t)48)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (2, 64, torch.bfloat16, torch.bfloat16, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', True), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_copied_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_copied_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  bfloat16_t x1[16];
  bfloat16_t x2[16];
  bfloat16_t o1[16];
  bfloat16_t o2[16];
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval;
    if (((((((int)blockIdx.x) * 64) + (i * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval = *(uint4*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)));
    } else {
      condval = make_uint4(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint4*)(x1 + (i * 8)) = condval;
  }
  #pragma unroll
  for (int i_1 = 0; i_1 < 2; ++i_1) {
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint4 condval_1;
    if (((((((int)blockIdx.x) * 64) + (i_1 * 32)) + (((int)threadIdx.x) >> 2)) < rows)) {
      condval_1 = *(uint4*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_1) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32));
    } else {
      condval_1 = make_uint4(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
    }
    *(uint4*)(x2 + (i_1 * 8)) = condval_1;
  }
  #pragma unroll
  for (int i_2 = 0; i_2 < 4; ++i_2) {
    bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float4 __1;
    int rmod = ((((((int)blockIdx.x) * 32) + ((i_2 >> 1) * 16)) + (((int)threadIdx.x) >> 3)) % seq);
    uint2 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      condval_2 = *(uint2*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_2 = make_uint2(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2), __pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
    }
    ((float2*)(&__1))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
    ((float2*)(&__1))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[1]);
    float4 c = __1;
    bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    float4 __2;
    int rmod_3 = ((((((int)blockIdx.x) * 32) + ((i_2 >> 1) * 16)) + (((int)threadIdx.x) >> 3)) % seq);
    uint2 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)32) + ((((int64_t)i_2) >> (int64_t)1) * (int64_t)16)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) % ((int64_t)seq));
      condval_3 = *(uint2*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + ((((int64_t)i_2) & (int64_t)1) * (int64_t)4)));
    } else {
      condval_3 = make_uint2(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3), __pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
    }
    ((float2*)(&__2))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
    ((float2*)(&__2))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[1]);
    float4 s = __2;
    float4 __3;
    uint2 v_ = *(uint2*)(x1 + (i_2 * 4));
    ((float2*)(&__3))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
    ((float2*)(&__3))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
    float4 a = __3;
    float4 __4;
    uint2 v__1 = *(uint2*)(x2 + (i_2 * 4));
    ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
    ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
    float4 b = __4;
    uint2 __5;
    float4 __6;
      float4 __7;
        __7.x = (a.x*c.x);
        __7.y = (a.y*c.y);
        __7.z = (a.z*c.z);
        __7.w = (a.w*c.w);
      float4 __8;
        __8.x = (b.x*s.x);
        __8.y = (b.y*s.y);
        __8.z = (b.z*s.z);
        __8.w = (b.w*s.w);
      __6.x = (__7.x-__8.x);
      __6.y = (__7.y-__8.y);
      __6.z = (__7.z-__8.z);
      __6.w = (__7.w-__8.w);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[0] = __float22bfloat162_rn(((float2*)(&__6))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__5))[1] = __float22bfloat162_rn(((float2*)(&__6))[1]);
    *(uint2*)(o1 + (i_2 * 4)) = __5;
    uint2 __9;
    float4 __10;
      float4 __11;
        __11.x = (b.x*c.x);
        __11.y = (b.y*c.y);
        __11.z = (b.z*c.z);
        __11.w = (b.w*c.w);
      float4 __12;
        __12.x = (a.x*s.x);
        __12.y = (a.y*s.y);
        __12.z = (a.z*s.z);
        __12.w = (a.w*s.w);
      __10.x = (__11.x+__12.x);
      __10.y = (__11.y+__12.y);
      __10.z = (__11.z+__12.z);
      __10.w = (__11.w+__12.w);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
    (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
    *(uint2*)(o2 + (i_2 * 4)) = __9;
  }
  #pragma unroll
  for (int i_3 = 0; i_3 < 2; ++i_3) {
    if ((((((int)blockIdx.x) * 64) + (i_3 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_3) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8))) = *(uint4*)(o1 + (i_3 * 8));
    }
  }
  #pragma unroll
  for (int i_4 = 0; i_4 < 2; ++i_4) {
    if ((((((int)blockIdx.x) * 64) + (i_4 * 32)) + (((int)threadIdx.x) >> 2)) < rows) {
      *(uint4*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i_4) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)2) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)3) * (int64_t)8)) + (int64_t)32)) = *(uint4*)(o2 + (i_4 * 8));
    }
  }
}



// (5, 128, torch.bfloat16, torch.float32, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const float* __restrict__ Cos, bfloat16_t* __restrict__ Out, const float* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) < rows) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_2 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_5 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_1 = make_float4(broadcast_var_1, broadcast_var_1, broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
          __5.z = (__6.z*condval_1.z);
          __5.w = (__6.w*condval_1.w);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
        __2.z = (__3.z-__5.z);
        __2.w = (__3.w-__5.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_8 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_11 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_3 = make_float4(broadcast_var_3, broadcast_var_3, broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
          __11.z = (__12.z*condval_3.z);
          __11.w = (__12.w*condval_3.w);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
        __8.z = (__9.z+__11.z);
        __8.w = (__9.w+__11.w);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[1] = __float22bfloat162_rn(((float2*)(&__8))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
    }
  }
}



// (5, 128, torch.bfloat16, torch.bfloat16, (('block_cols', 64), ('block_rows', 64), ('copy_tiles', False), ('threads', 128)))
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

extern "C" __global__ void rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq);
extern "C" __global__ void __launch_bounds__(128, 1) rope_kernel_kernel(const bfloat16_t* __restrict__ Cos, bfloat16_t* __restrict__ Out, const bfloat16_t* __restrict__ Sin, const bfloat16_t* __restrict__ X, int rows, int seq) {
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    if ((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) < rows) {
      bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          float4 __5;
          int rmod = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          uint2 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_2 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
          }
          ((float2*)(&__5))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[0]);
          ((float2*)(&__5))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval))[1]);
          __3.x = (__4.x*__5.x);
          __3.y = (__4.y*__5.y);
          __3.z = (__4.z*__5.z);
          __3.w = (__4.w*__5.w);
        float4 __6;
          float4 __7;
          uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__7))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__7))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          float4 __8;
          int rmod_3 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          uint2 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_5 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_1 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_1 = make_uint2(__pack_nv_bfloat162(broadcast_var_1, broadcast_var_1), __pack_nv_bfloat162(broadcast_var_1, broadcast_var_1));
          }
          ((float2*)(&__8))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[0]);
          ((float2*)(&__8))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_1))[1]);
          __6.x = (__7.x*__8.x);
          __6.y = (__7.y*__8.y);
          __6.z = (__7.z*__8.z);
          __6.w = (__7.w*__8.w);
        __2.x = (__3.x-__6.x);
        __2.y = (__3.y-__6.y);
        __2.z = (__3.z-__6.z);
        __2.w = (__3.w-__6.w);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[1] = __float22bfloat162_rn(((float2*)(&__2))[1]);
      *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      bfloat16_t broadcast_var_2 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      bfloat16_t broadcast_var_3 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
      uint2 __9;
      float4 __10;
        float4 __11;
          float4 __12;
          uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          float4 __13;
          int rmod_6 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          uint2 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_8 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_2 = *(uint2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_2 = make_uint2(__pack_nv_bfloat162(broadcast_var_2, broadcast_var_2), __pack_nv_bfloat162(broadcast_var_2, broadcast_var_2));
          }
          ((float2*)(&__13))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[0]);
          ((float2*)(&__13))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_2))[1]);
          __11.x = (__12.x*__13.x);
          __11.y = (__12.y*__13.y);
          __11.z = (__12.z*__13.z);
          __11.w = (__12.w*__13.w);
        float4 __14;
          float4 __15;
          uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__15))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__15))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          float4 __16;
          int rmod_9 = (((((((int)blockIdx.x) * 64) + (i * 8)) + (((int)threadIdx.x) >> 4)) / 5) % seq);
          uint2 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            int64_t rmod_11 = (((((((int64_t)((int)blockIdx.x)) * (int64_t)64) + (((int64_t)i) * (int64_t)8)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)4)) / (int64_t)5) % ((int64_t)seq));
            condval_3 = *(uint2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          } else {
            condval_3 = make_uint2(__pack_nv_bfloat162(broadcast_var_3, broadcast_var_3), __pack_nv_bfloat162(broadcast_var_3, broadcast_var_3));
          }
          ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[0]);
          ((float2*)(&__16))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&condval_3))[1]);
          __14.x = (__15.x*__16.x);
          __14.y = (__15.y*__16.y);
          __14.z = (__15.z*__16.z);
          __14.w = (__15.w*__16.w);
        __10.x = (__11.x+__14.x);
        __10.y = (__11.y+__14.y);
        __10.z = (__11.z+__14.z);
        __10.w = (__11.w+__14.w);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[0] = __float22bfloat162_rn(((float2*)(&__10))[0]);
      (reinterpret_cast<__nv_bfloat162*>(&__9))[1] = __float22bfloat162_rn(((float2*)(&__10))[1]);
      *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + (((int64_t)i) * (int64_t)1024)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __9;
    }
  }
}

