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
extern "C" __global__ void __launch_bounds__(64, 1) rope_qk_rows_kernel(const float* __restrict__ Cos, const bfloat16_t* __restrict__ K, bfloat16_t* __restrict__ KOut, const bfloat16_t* __restrict__ Q, bfloat16_t* __restrict__ QOut, const float* __restrict__ Sin, int k_rows, int q_rows, int seq) {
  bfloat16_t x1[4];
  bfloat16_t x2[4];
  bfloat16_t x1_1[4];
  bfloat16_t x2_1[4];
  if (((int)blockIdx.x) < ((q_rows + 7) >> 3)) {
    bfloat16_t broadcast_var = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) < q_rows)) {
      condval = *(uint2*)(Q + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
    } else {
      condval = make_uint2(__pack_nv_bfloat162(broadcast_var, broadcast_var), __pack_nv_bfloat162(broadcast_var, broadcast_var));
    }
    *(uint2*)(x1 + 0) = condval;
    bfloat16_t broadcast_var_1 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_1;
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) < q_rows)) {
      condval_1 = *(uint2*)(Q + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32));
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
    int rmod = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 5)) % seq);
    float4 condval_2;
    if ((((((0 <= seq) && (0 <= rmod)) || ((seq < 0) && (rmod <= 0))) ? rmod : (rmod + seq)) < seq)) {
      int64_t rmod_1 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_2 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_2 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_2)) || ((((int64_t)seq) < (int64_t)0) && (rmod_2 <= (int64_t)0))) ? rmod_2 : (rmod_2 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
    } else {
      condval_2 = make_float4(broadcast_var_2, broadcast_var_2, broadcast_var_2, broadcast_var_2);
    }
    float4 c = condval_2;
    float broadcast_var_3 = 0x0p+0f/*0.000000e+00*/;
    int rmod_3 = (((((int)blockIdx.x) * 2) + (((int)threadIdx.x) >> 5)) % seq);
    float4 condval_3;
    if ((((((0 <= seq) && (0 <= rmod_3)) || ((seq < 0) && (rmod_3 <= 0))) ? rmod_3 : (rmod_3 + seq)) < seq)) {
      int64_t rmod_4 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      int64_t rmod_5 = (((((int64_t)((int)blockIdx.x)) * (int64_t)2) + (((int64_t)((int)threadIdx.x)) >> (int64_t)5)) % ((int64_t)seq));
      condval_3 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_5)) || ((((int64_t)seq) < (int64_t)0) && (rmod_5 <= (int64_t)0))) ? rmod_5 : (rmod_5 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
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
    if (((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) < q_rows) {
      *(uint2*)(QOut + (((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4))) = *(uint2*)(x1 + 0);
      *(uint2*)(QOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32)) = *(uint2*)(x2 + 0);
    }
  } else {
    bfloat16_t broadcast_var_4 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_4;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_4 = *(uint2*)(K + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
    } else {
      condval_4 = make_uint2(__pack_nv_bfloat162(broadcast_var_4, broadcast_var_4), __pack_nv_bfloat162(broadcast_var_4, broadcast_var_4));
    }
    *(uint2*)(x1_1 + 0) = condval_4;
    bfloat16_t broadcast_var_5 = bfloat16_t(0x0p+0f/*0.000000e+00*/);
    uint2 condval_5;
    if (((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) - (((q_rows + 7) >> 3) * 8)) < k_rows)) {
      condval_5 = *(uint2*)(K + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512)));
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
    int rmod_6 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) - (((q_rows + 7) >> 3) * 8)) % seq);
    float4 condval_6;
    if ((((((0 <= seq) && (0 <= rmod_6)) || ((seq < 0) && (rmod_6 <= 0))) ? rmod_6 : (rmod_6 + seq)) < seq)) {
      int64_t rmod_7 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_8 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_6 = *(float4*)(Cos + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_8)) || ((((int64_t)seq) < (int64_t)0) && (rmod_8 <= (int64_t)0))) ? rmod_8 : (rmod_8 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
    } else {
      condval_6 = make_float4(broadcast_var_6, broadcast_var_6, broadcast_var_6, broadcast_var_6);
    }
    float4 c_1 = condval_6;
    float broadcast_var_7 = 0x0p+0f/*0.000000e+00*/;
    int rmod_9 = ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) - (((q_rows + 7) >> 3) * 8)) % seq);
    float4 condval_7;
    if ((((((0 <= seq) && (0 <= rmod_9)) || ((seq < 0) && (rmod_9 <= 0))) ? rmod_9 : (rmod_9 + seq)) < seq)) {
      int64_t rmod_10 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      int64_t rmod_11 = ((((((int64_t)((int)blockIdx.x)) * (int64_t)8) + (((int64_t)((int)threadIdx.x)) >> (int64_t)3)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)8)) % ((int64_t)seq));
      condval_7 = *(float4*)(Sin + (((((((int64_t)0 <= ((int64_t)seq)) && ((int64_t)0 <= rmod_11)) || ((((int64_t)seq) < (int64_t)0) && (rmod_11 <= (int64_t)0))) ? rmod_11 : (rmod_11 + ((int64_t)seq))) * (int64_t)32) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)));
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
    if ((((((int)blockIdx.x) * 8) + (((int)threadIdx.x) >> 3)) - (((q_rows + 7) >> 3) * 8)) < k_rows) {
      *(uint2*)(KOut + ((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint2*)(x1_1 + 0);
      *(uint2*)(KOut + (((((((int64_t)((int)blockIdx.x)) * (int64_t)512) + ((((int64_t)((int)threadIdx.x)) >> (int64_t)3) * (int64_t)64)) + ((((int64_t)((int)threadIdx.x)) & (int64_t)7) * (int64_t)4)) + (int64_t)32) - (((((int64_t)q_rows) + (int64_t)7) >> (int64_t)3) * (int64_t)512))) = *(uint2*)(x2_1 + 0);
    }
  }
}

