// tl-wgmma-tf32.cuh — the TF32 wgmma instructions whose A operand comes
// from registers (rung 13).  CUDA C++ (sm_90a), internal to gpu/gemm/.
//
// wgmma reads its B operand from shared memory, and for 32-bit types it
// must be K-major there; its A operand may instead come from registers,
// in any layout the threads loaded it in (rung 13's header says why that
// is the way round its layout problem).  Each thread holds four TF32
// values of the 64×8 A fragment; the accumulators' count (BN/2 per
// thread) picks the shape, m64nNk8 for N = 256, 128, 64 or 32.  The
// accumulator operand lists (TL_ACC*) are tl-wgmma.cuh's.
#pragma once

#include "tl-wgmma.cuh"

// One wgmma.m64n256k8 with A from registers: d (64×256 per warpgroup) +=
// a (64×8, four TF32 values per thread) · B (8×256, K-major in shared
// memory via desc_b).  scale_d = 0: d = a·B.
__device__ __forceinline__ void
tl_wgmma_m64n256k8_tf32_rs (float (&d)[128], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %133, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TL_ACC128_TEXT
                ", {%128, %129, %130, %131}, %132, p, 1, 1;\n"
                "}\n"
                : TL_ACC128 (d)
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
#endif
}

// The same with n = 128 (64 accumulators): the smaller tiles' wgmma.
__device__ __forceinline__ void
tl_wgmma_m64n128k8_tf32_rs (float (&d)[64], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %69, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 " TL_ACC64_TEXT
                ", {%64, %65, %66, %67}, %68, p, 1, 1;\n"
                "}\n"
                : TL_ACC64 (d)
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
#endif
}

// n = 64 and 32 (32 and 16 accumulators): the smallest tiles, 64 and 32
// rows of C.
__device__ __forceinline__ void
tl_wgmma_m64n64k8_tf32_rs (float (&d)[32], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %37, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " TL_ACC32_TEXT
                ", {%32, %33, %34, %35}, %36, p, 1, 1;\n"
                "}\n"
                : TL_ACC32 (d, 0)
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
#endif
}

__device__ __forceinline__ void
tl_wgmma_m64n32k8_tf32_rs (float (&d)[16], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %21, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 " TL_ACC16_TEXT
                ", {%16, %17, %18, %19}, %20, p, 1, 1;\n"
                "}\n"
                : TL_ACC16 (d, 0)
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
#endif
}

// All under one name: the accumulators' count picks the instruction.
__device__ __forceinline__ void
tl_wgmma_tf32_rs (float (&d)[128], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n256k8_tf32_rs (d, a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_tf32_rs (float (&d)[64], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n128k8_tf32_rs (d, a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_tf32_rs (float (&d)[32], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n64k8_tf32_rs (d, a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_tf32_rs (float (&d)[16], const uint32_t (&a)[4], uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n32k8_tf32_rs (d, a, desc_b, scale_d);
}

