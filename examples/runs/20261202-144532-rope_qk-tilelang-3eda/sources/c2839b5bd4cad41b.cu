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

