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
  if (((((int)blockIdx.x) * 16) + (((int)threadIdx.x) >> 3)) < rows) {
    float broadcast_var = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_1 = 0x0p+0f/*0.000000e+00*/;
    uint2 __1;
    float4 __2;
      float4 __3;
        float4 __4;
        uint2 v_ = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        ((float2*)(&__4))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[0]);
        ((float2*)(&__4))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v_))[1]);
        int rmod = ((((int)blockIdx.x) >> 1) % seq);
        float4 condval;
        if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
          int64_t rmod_1 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          int64_t rmod_2 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          condval = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)64) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        } else {
          condval = make_float4(broadcast_var, broadcast_var, broadcast_var, broadcast_var);
        }
        __3.x = (__4.x*condval.x);
        __3.y = (__4.y*condval.y);
        __3.z = (__4.z*condval.z);
        __3.w = (__4.w*condval.w);
      float4 __5;
        float4 __6;
        uint2 v__1 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)64));
        ((float2*)(&__6))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[0]);
        ((float2*)(&__6))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__1))[1]);
        int rmod_3 = ((((int)blockIdx.x) >> 1) % seq);
        float4 condval_1;
        if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
          int64_t rmod_4 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          int64_t rmod_5 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          condval_1 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)64) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
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
    *(uint2*)(Out + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = __1;
    float broadcast_var_2 = 0x0p+0f/*0.000000e+00*/;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    uint2 __7;
    float4 __8;
      float4 __9;
        float4 __10;
        uint2 v__2 = *(uint2*)(X + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)64));
        ((float2*)(&__10))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[0]);
        ((float2*)(&__10))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__2))[1]);
        int rmod_6 = ((((int)blockIdx.x) >> 1) % seq);
        float4 condval_2;
        if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
          int64_t rmod_7 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          int64_t rmod_8 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          condval_2 = *(float4*)(Cos + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)64) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        } else {
          condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
        }
        __9.x = (__10.x*condval_2.x);
        __9.y = (__10.y*condval_2.y);
        __9.z = (__10.z*condval_2.z);
        __9.w = (__10.w*condval_2.w);
      float4 __11;
        float4 __12;
        uint2 v__3 = *(uint2*)(X + ((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
        ((float2*)(&__12))[0] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[0]);
        ((float2*)(&__12))[1] = __bfloat1622float2((reinterpret_cast<__nv_bfloat162*>(&v__3))[1]);
        int rmod_9 = ((((int)blockIdx.x) >> 1) % seq);
        float4 condval_3;
        if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
          int64_t rmod_10 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          int64_t rmod_11 = ((((int64_t)((int)blockIdx.x)) >> (int64_t)1) % ((int64_t)seq));
          condval_3 = *(float4*)(Sin + ((((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)64) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
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
    *(uint2*)(Out + (((((((int64_t)((int)blockIdx.x)) * (int64_t)2048) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)128)) + (((int64_t)((int)blockIdx.y)) * (int64_t)32)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)64)) = __7;
  }
}

