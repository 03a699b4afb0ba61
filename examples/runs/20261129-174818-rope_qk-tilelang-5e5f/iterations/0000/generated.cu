// (32, 8, 64, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 8), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) < tokens) {
    float broadcast_var = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
    uint2 __1;
    float4 __2;
      float4 __3;
        float4 __4;
        uint2 v_ = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
        ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
        int rmod = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float4 condval;
        if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
          int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
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
        uint2 v__1 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
        ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
        ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
        int rmod_3 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float4 condval_1;
        if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
          int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
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
    *(uint2*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    uint2 __7;
    float4 __8;
      float4 __9;
        float4 __10;
        uint2 v__2 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
        ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
        ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
        int rmod_6 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float4 condval_2;
        if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
          int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
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
        uint2 v__3 = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
        ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
        int rmod_9 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float4 condval_3;
        if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
          int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
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
    *(uint2*)(QOut + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)8192) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)2048)) + (((int64_t)((int)blockIdx.y)) * (int64_t)256)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)31) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = __7;
    int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_4;
    if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
      int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_4 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_4 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_5;
    if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
      int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_5 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_5 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))] = ((bfloat16_t)((((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_4) - (((float)K[(((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_5)));
    int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_6;
    if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
      int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_6 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_6 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_7;
    if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
      int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_7 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_7 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[(((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)] = ((bfloat16_t)((((float)K[(((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_6) + (((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)512)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_7)));
  }
}



// (7, 7, 96, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 7), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 96) {
    if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) < tokens) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint1 __1;
      float2 __2;
        float2 __3;
          float2 __4;
          uint1 v_ = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          int rmod = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval = make_float2(broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
        float2 __5;
          float2 __6;
          uint1 v__1 = *(uint1*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          int rmod_3 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_1 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_1 = make_float2(broadcast_var_1, broadcast_var_1);
          }
          __5.x = (__6.x*condval_1.x);
          __5.y = (__6.y*condval_1.y);
        __2.x = (__3.x-__5.x);
        __2.y = (__3.y-__5.y);
      (reinterpret_cast<__nv_bfloat162*>(&__1))[0] = __float22bfloat162_rn(((float2*)(&__2))[0]);
      *(uint1*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint1 __7;
      float2 __8;
        float2 __9;
          float2 __10;
          uint1 v__2 = *(uint1*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          int rmod_6 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_2 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_2 = make_float2(broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
        float2 __11;
          float2 __12;
          uint1 v__3 = *(uint1*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          int rmod_9 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_3 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_3 = make_float2(broadcast_var_3, broadcast_var_3);
          }
          __11.x = (__12.x*condval_3.x);
          __11.y = (__12.y*condval_3.y);
        __8.x = (__9.x+__11.x);
        __8.y = (__9.y+__11.y);
      (reinterpret_cast<__nv_bfloat162*>(&__7))[0] = __float22bfloat162_rn(((float2*)(&__8))[0]);
      *(uint1*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48)) = __7;
      float broadcast_var_4 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_5 = 0x0p+0f/*0.000000e+00*/;
      uint1 __13;
      float2 __14;
        float2 __15;
          float2 __16;
          uint1 v__4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__4))[0]);
          int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_4;
          if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
            int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_4 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_4 = make_float2(broadcast_var_4, broadcast_var_4);
          }
          __15.x = (__16.x*condval_4.x);
          __15.y = (__16.y*condval_4.y);
        float2 __17;
          float2 __18;
          uint1 v__5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48));
          ((float2*)(&__18))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__5))[0]);
          int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_5;
          if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
            int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_5 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_5 = make_float2(broadcast_var_5, broadcast_var_5);
          }
          __17.x = (__18.x*condval_5.x);
          __17.y = (__18.y*condval_5.y);
        __14.x = (__15.x-__17.x);
        __14.y = (__15.y-__17.y);
      (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
      *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2))) = __13;
      float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
      uint1 __19;
      float2 __20;
        float2 __21;
          float2 __22;
          uint1 v__6 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48));
          ((float2*)(&__22))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__6))[0]);
          int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_6;
          if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
            int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
          }
          __21.x = (__22.x*condval_6.x);
          __21.y = (__22.y*condval_6.y);
        float2 __23;
          float2 __24;
          uint1 v__7 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          ((float2*)(&__24))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__7))[0]);
          int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 24)) % seq);
          float2 condval_7;
          if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
            int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)24)) % ((int64_t)seq));
            condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)48) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)));
          } else {
            condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
          }
          __23.x = (__24.x*condval_7.x);
          __23.y = (__24.y*condval_7.y);
        __20.x = (__21.x+__23.x);
        __20.y = (__21.y+__23.y);
      (reinterpret_cast<__nv_bfloat162*>(&__19))[0] = __float22bfloat162_rn(((float2*)(&__20))[0]);
      *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2688) + ((((int64_t)((int)threadIdx.x)) / (int64_t)24) * (int64_t)672)) + (((int64_t)((int)blockIdx.y)) * (int64_t)96)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)24) * (int64_t)2)) + (int64_t)48)) = __19;
    }
  }
}



// (9, 3, 80, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 3), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  if (((int)threadIdx.x) < 120) {
    if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 30)) < tokens) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 30)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            condval = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
          } else {
            condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
          }
          __3.x = (__4.x*condval.x);
          __3.y = (__4.y*condval.y);
          __3.z = (__4.z*condval.z);
          __3.w = (__4.w*condval.w);
        float4 __5;
          float4 __6;
          uint2 v__1 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 30)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            condval_1 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
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
      *(uint2*)(QOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)) + (int64_t)40));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 30)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
          } else {
            condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
          }
          __9.x = (__10.x*condval_2.x);
          __9.y = (__10.y*condval_2.y);
          __9.z = (__10.z*condval_2.z);
          __9.w = (__10.w*condval_2.w);
        float4 __11;
          float4 __12;
          uint2 v__3 = *(uint2*)(Q + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 30)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)30)) % ((int64_t)seq));
            condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)));
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
      *(uint2*)(QOut + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)2880) + ((((int64_t)((int)threadIdx.x)) / (int64_t)30) * (int64_t)720)) + (((int64_t)((int)blockIdx.y)) * (int64_t)240)) + (((((int64_t)((int)threadIdx.x)) % (int64_t)30) / (int64_t)10) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)10) * (int64_t)4)) + (int64_t)40)) = __7;
    }
  }
  if (((int)threadIdx.x) < 80) {
    if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 20)) < tokens) {
      float broadcast_var_4 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_5 = 0x0p+0f/*0.000000e+00*/;
      uint1 __13;
      float2 __14;
        float2 __15;
          float2 __16;
          uint1 v__4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__4))[0]);
          int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 20)) % seq);
          float2 condval_4;
          if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
            int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            condval_4 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          } else {
            condval_4 = make_float2(broadcast_var_4, broadcast_var_4);
          }
          __15.x = (__16.x*condval_4.x);
          __15.y = (__16.y*condval_4.y);
        float2 __17;
          float2 __18;
          uint1 v__5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40));
          ((float2*)(&__18))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__5))[0]);
          int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 20)) % seq);
          float2 condval_5;
          if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
            int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            condval_5 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          } else {
            condval_5 = make_float2(broadcast_var_5, broadcast_var_5);
          }
          __17.x = (__18.x*condval_5.x);
          __17.y = (__18.y*condval_5.y);
        __14.x = (__15.x-__17.x);
        __14.y = (__15.y-__17.y);
      (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
      *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2))) = __13;
      float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
      uint1 __19;
      float2 __20;
        float2 __21;
          float2 __22;
          uint1 v__6 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40));
          ((float2*)(&__22))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__6))[0]);
          int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 20)) % seq);
          float2 condval_6;
          if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
            int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          } else {
            condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
          }
          __21.x = (__22.x*condval_6.x);
          __21.y = (__22.y*condval_6.y);
        float2 __23;
          float2 __24;
          uint1 v__7 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          ((float2*)(&__24))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__7))[0]);
          int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) / 20)) % seq);
          float2 condval_7;
          if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
            int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) / (int64_t)20)) % ((int64_t)seq));
            condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)40) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)));
          } else {
            condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
          }
          __23.x = (__24.x*condval_7.x);
          __23.y = (__24.y*condval_7.y);
        __20.x = (__21.x+__23.x);
        __20.y = (__21.y+__23.y);
      (reinterpret_cast<__nv_bfloat162*>(&__19))[0] = __float22bfloat162_rn(((float2*)(&__20))[0]);
      *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)960) + ((((int64_t)((int)threadIdx.x)) / (int64_t)20) * (int64_t)240)) + (((int64_t)((int)blockIdx.y)) * (int64_t)80)) + ((((int64_t)((int)threadIdx.x)) % (int64_t)20) * (int64_t)2)) + (int64_t)40)) = __19;
    }
  }
}



// (32, 8, 128, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 8), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    if ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) < tokens) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
          uint2 v__1 = *(uint2*)(Q + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
      *(uint2*)(QOut + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(Q + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
          uint2 v__3 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
      *(uint2*)(QOut + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)16384) + (((int64_t)i) * (int64_t)8192)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)4096)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
    }
  }
  if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) < tokens) {
    float broadcast_var_4 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_5 = 0x0p+0f/*0.000000e+00*/;
    uint1 __13;
    float2 __14;
      float2 __15;
        float2 __16;
        uint1 v__4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__4))[0]);
        int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_4;
        if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
          int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_4 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_4 = make_float2(broadcast_var_4, broadcast_var_4);
        }
        __15.x = (__16.x*condval_4.x);
        __15.y = (__16.y*condval_4.y);
      float2 __17;
        float2 __18;
        uint1 v__5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64));
        ((float2*)(&__18))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__5))[0]);
        int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_5;
        if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
          int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_5 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_5 = make_float2(broadcast_var_5, broadcast_var_5);
        }
        __17.x = (__18.x*condval_5.x);
        __17.y = (__18.y*condval_5.y);
      __14.x = (__15.x-__17.x);
      __14.y = (__15.y-__17.y);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
    *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2))) = __13;
    float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    uint1 __19;
    float2 __20;
      float2 __21;
        float2 __22;
        uint1 v__6 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64));
        ((float2*)(&__22))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__6))[0]);
        int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_6;
        if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
          int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
        }
        __21.x = (__22.x*condval_6.x);
        __21.y = (__22.y*condval_6.y);
      float2 __23;
        float2 __24;
        uint1 v__7 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        ((float2*)(&__24))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__7))[0]);
        int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_7;
        if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
          int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
        }
        __23.x = (__24.x*condval_7.x);
        __23.y = (__24.y*condval_7.y);
      __20.x = (__21.x+__23.x);
      __20.y = (__21.y+__23.y);
    (reinterpret_cast<__nv_bfloat162*>(&__19))[0] = __float22bfloat162_rn(((float2*)(&__20))[0]);
    *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64)) = __19;
  }
}



// (8, 2, 128, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 2), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  #pragma unroll
  for (int i = 0; i < 2; ++i) {
    if ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) < tokens) {
      float broadcast_var = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
      uint2 __1;
      float4 __2;
        float4 __3;
          float4 __4;
          uint2 v_ = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
          ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
          int rmod = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval;
          if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
            int64_t rmod_1 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_2 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
          uint2 v__1 = *(uint2*)(Q + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
          ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
          int rmod_3 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_1;
          if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
            int64_t rmod_4 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_5 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
      *(uint2*)(QOut + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4))) = __1;
      float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
      float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
      uint2 __7;
      float4 __8;
        float4 __9;
          float4 __10;
          uint2 v__2 = *(uint2*)(Q + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64));
          ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
          ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
          int rmod_6 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_2;
          if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
            int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
          uint2 v__3 = *(uint2*)(Q + ((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)));
          ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
          ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
          int rmod_9 = ((((((int)blockIdx.x) * 4) + (i * 2)) + (((int)threadIdx.x) >> 6)) % seq);
          float4 condval_3;
          if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
            int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
            int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)i) * (int64_t)2)) + (((int64_t)((int)threadIdx.x)) >> (int64_t)6)) % ((int64_t)seq));
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
      *(uint2*)(QOut + (((((((((int64_t)((int)blockIdx.x)) * (int64_t)4096) + (((int64_t)i) * (int64_t)2048)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)6) * (int64_t)1024)) + (((int64_t)((int)blockIdx.y)) * (int64_t)512)) + (((((int64_t)((int)threadIdx.x)) & (int64_t)63) >> (int64_t)4) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)15) * (int64_t)4)) + (int64_t)64)) = __7;
    }
  }
  if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) < tokens) {
    float broadcast_var_4 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_5 = 0x0p+0f/*0.000000e+00*/;
    uint1 __13;
    float2 __14;
      float2 __15;
        float2 __16;
        uint1 v__4 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        ((float2*)(&__16))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__4))[0]);
        int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_4;
        if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
          int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_4 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_4 = make_float2(broadcast_var_4, broadcast_var_4);
        }
        __15.x = (__16.x*condval_4.x);
        __15.y = (__16.y*condval_4.y);
      float2 __17;
        float2 __18;
        uint1 v__5 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64));
        ((float2*)(&__18))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__5))[0]);
        int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_5;
        if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
          int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_5 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_5 = make_float2(broadcast_var_5, broadcast_var_5);
        }
        __17.x = (__18.x*condval_5.x);
        __17.y = (__18.y*condval_5.y);
      __14.x = (__15.x-__17.x);
      __14.y = (__15.y-__17.y);
    (reinterpret_cast<__nv_bfloat162*>(&__13))[0] = __float22bfloat162_rn(((float2*)(&__14))[0]);
    *(uint1*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2))) = __13;
    float broadcast_var_6 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    uint1 __19;
    float2 __20;
      float2 __21;
        float2 __22;
        uint1 v__6 = *(uint1*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64));
        ((float2*)(&__22))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__6))[0]);
        int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_6;
        if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
          int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_6 = *(float2*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_6 = make_float2(broadcast_var_6, broadcast_var_6);
        }
        __21.x = (__22.x*condval_6.x);
        __21.y = (__22.y*condval_6.y);
      float2 __23;
        float2 __24;
        uint1 v__7 = *(uint1*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        ((float2*)(&__24))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__7))[0]);
        int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
        float2 condval_7;
        if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
          int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
          condval_7 = *(float2*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)64) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)));
        } else {
          condval_7 = make_float2(broadcast_var_7, broadcast_var_7);
        }
        __23.x = (__24.x*condval_7.x);
        __23.y = (__24.y*condval_7.y);
      __20.x = (__21.x+__23.x);
      __20.y = (__21.y+__23.y);
    (reinterpret_cast<__nv_bfloat162*>(&__19))[0] = __float22bfloat162_rn(((float2*)(&__20))[0]);
    *(uint1*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)1024) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)256)) + (((int64_t)((int)blockIdx.y)) * (int64_t)128)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)31) * (int64_t)2)) + (int64_t)64)) = __19;
  }
}



// (3, 1, 64, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 1), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  #pragma unroll
  for (int i = 0; i < 3; ++i) {
    if (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) < tokens) {
      int rmod = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval;
      if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
        int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval = 0x0p+0f/*0.000000e+00*/;
      }
      int rmod_3 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_1;
      if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
        int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_1 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_1 = 0x0p+0f/*0.000000e+00*/;
      }
      QOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))] = ((bfloat16_t)((((float)Q[((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval) - (((float)Q[(((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_1)));
      int rmod_6 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_2;
      if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
        int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_2 = 0x0p+0f/*0.000000e+00*/;
      }
      int rmod_9 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_3;
      if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
        int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_3 = 0x0p+0f/*0.000000e+00*/;
      }
      QOut[(((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)] = ((bfloat16_t)((((float)Q[(((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_2) + (((float)Q[((((((int64_t)((int)blockIdx.x)) * (int64_t)768) + (((int64_t)i) * (int64_t)256)) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_3)));
    }
  }
  if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) < tokens) {
    int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_4;
    if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
      int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_4 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_4 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_5;
    if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
      int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_5 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_5 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))] = ((bfloat16_t)((((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_4) - (((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_5)));
    int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_6;
    if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
      int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_6 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_6 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_7;
    if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
      int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_7 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_7 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)] = ((bfloat16_t)((((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_6) + (((float)K[(((((int64_t)((int)blockIdx.x)) * (int64_t)256) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_7)));
  }
}



// (6, 2, 64, torch.bfloat16, (('block_tokens', 4), ('copy_tiles', False), ('groups', 2), ('threads', 128)))
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
extern "C" __global__ void __launch_bounds__(128, 1) rope_qk_kernel_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int seq, int tokens) {
  #pragma unroll
  for (int i = 0; i < 3; ++i) {
    if (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) < tokens) {
      int rmod = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval;
      if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
        int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval = 0x0p+0f/*0.000000e+00*/;
      }
      int rmod_3 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_1;
      if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
        int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_1 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_1 = 0x0p+0f/*0.000000e+00*/;
      }
      QOut[(((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))] = ((bfloat16_t)((((float)Q[(((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval) - (((float)Q[((((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_1)));
      int rmod_6 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_2;
      if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
        int64_t rmod_7 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_8 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_2 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_2 = 0x0p+0f/*0.000000e+00*/;
      }
      int rmod_9 = (((((int)blockIdx.x) * 4) + (((i * 4) + (((int)threadIdx.x) >> 5)) / 3)) % seq);
      float condval_3;
      if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
        int64_t rmod_10 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        int64_t rmod_11 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3)) % ((int64_t)seq));
        condval_3 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
      } else {
        condval_3 = 0x0p+0f/*0.000000e+00*/;
      }
      QOut[((((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)] = ((bfloat16_t)((((float)Q[((((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_2) + (((float)Q[(((((((int64_t)((int)blockIdx.x)) * (int64_t)1536) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) / (int64_t)3) * (int64_t)384)) + (((int64_t)((int)blockIdx.y)) * (int64_t)192)) + ((((((int64_t)i) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % (int64_t)3) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_3)));
    }
  }
  if (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) < tokens) {
    int rmod_12 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_4;
    if ((((((0 <= seq) && (0 <= rmod_12)) || ((seq < 0) && (rmod_12 <= 0))) ? rmod_12 : (rmod_12 + seq)) < seq)) {
      int64_t rmod_13 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_14 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_4 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_14)) || ((((int64_t)seq) < (int64_t)0) && (rmod_14 <= (int64_t)0))) ? rmod_14 : (rmod_14 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_4 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_15 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_5;
    if ((((((0 <= seq) && (0 <= rmod_15)) || ((seq < 0) && (rmod_15 <= 0))) ? rmod_15 : (rmod_15 + seq)) < seq)) {
      int64_t rmod_16 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_17 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_5 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_17)) || ((((int64_t)seq) < (int64_t)0) && (rmod_17 <= (int64_t)0))) ? rmod_17 : (rmod_17 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_5 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))] = ((bfloat16_t)((((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_4) - (((float)K[(((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_5)));
    int rmod_18 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_6;
    if ((((((0 <= seq) && (0 <= rmod_18)) || ((seq < 0) && (rmod_18 <= 0))) ? rmod_18 : (rmod_18 + seq)) < seq)) {
      int64_t rmod_19 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_20 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_6 = Cos[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_20)) || ((((int64_t)seq) < (int64_t)0) && (rmod_20 <= (int64_t)0))) ? rmod_20 : (rmod_20 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_6 = 0x0p+0f/*0.000000e+00*/;
    }
    int rmod_21 = (((((int)blockIdx.x) * 4) + (((int)threadIdx.x) >> 5)) % seq);
    float condval_7;
    if ((((((0 <= seq) && (0 <= rmod_21)) || ((seq < 0) && (rmod_21 <= 0))) ? rmod_21 : (rmod_21 + seq)) < seq)) {
      int64_t rmod_22 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_23 = (((((int64_t)((int)blockIdx.x)) * (int64_t)4) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_7 = Sin[(((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_23)) || ((((int64_t)seq) < (int64_t)0) && (rmod_23 <= (int64_t)0))) ? rmod_23 : (rmod_23 + ((int64_t)seq))) * (int64_t)32) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))];
    } else {
      condval_7 = 0x0p+0f/*0.000000e+00*/;
    }
    KOut[(((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)] = ((bfloat16_t)((((float)K[(((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31)) + (int64_t)32)]) * condval_6) + (((float)K[((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)5) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)64)) + (((int64_t)((int)threadIdx.x)) & (int64_t)31))]) * condval_7)));
  }
}

