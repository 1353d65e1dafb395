/* tl-gpu-registry.c — the GEMM ladder as data.
 *
 * The single list that the GUI, the CLI's `kernels` command, the benchmark
 * and the tests iterate.  Plain C, compiled with or without CUDA, so a
 * laptop without a GPU still shows the ladder and its sources.  Adding a
 * rung is adding a file under gpu/gemm/ and a row here (and its launcher in
 * tl-gpu-gemm.cu's dispatch table).
 */
#include "tl-gpu.h"

#include <string.h>

#define I32 TL_GPU_DTYPE_BIT (TL_GPU_INT32)
#define F32 TL_GPU_DTYPE_BIT (TL_GPU_FLOAT32)
#define F64 TL_GPU_DTYPE_BIT (TL_GPU_FLOAT64)

static const TlGpuKernelInfo gemm_ladder[] = {
  { "gemm-01-naive", 1, "naive (uncoalesced)",
    "One thread per C element, threadIdx.x walks rows: neighbouring threads read memory far apart.",
    "000, 002", I32 | F32 | F64, 0, 1, 32, 32, "gpu/gemm/gemm-01-naive.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-02-coalesced", 2, "coalesced",
    "Same work, threadIdx.x walks columns: a warp reads 32 neighbouring floats of B in one transaction.",
    "002", I32 | F32 | F64, 0, 1, 32, 32, "gpu/gemm/gemm-02-coalesced.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-03-smem16", 3, "shared memory 16×16",
    "Each 16×16 block stages tiles of A and B in shared memory: every global load is reused 16 times.",
    "000, 001", I32 | F32 | F64, 0, 1, 16, 16, "gpu/gemm/gemm-03-smem16.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-04-smem32", 4, "shared memory 32×32",
    "Bigger tiles (32×32) with zero-padded edges: twice the reuse, any matrix size.",
    "002", I32 | F32 | F64, 0, 1, 32, 32, "gpu/gemm/gemm-04-smem32.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-05-seed3k", 5, "seed 004: three kernels",
    "32×4 threads compute 8 outputs each; unguarded interior, guarded last k-step and margins.",
    "004", F32, 0, 1, 32, 32, "gpu/gemm/gemm-05-seed3k.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-06-regtile1d", 6, "1-D register tiling",
    "Each thread computes a column of 8 results from registers: fewer shared-memory loads per FMA.",
    "", F32, 0, 1, 64, 64, "gpu/gemm/gemm-06-regtile1d.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-07-regtile2d", 7, "2-D register tiling",
    "Each thread computes an 8×8 outer product: arithmetic intensity grows with the tile.",
    "", F32, 0, 1, 128, 128, "gpu/gemm/gemm-07-regtile2d.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-08-vectorized", 8, "vectorised, conflict-free",
    "128-bit loads, A stored transposed in shared memory, padded rows: no bank conflicts.",
    "", F32, 0, 1, 128, 128, "gpu/gemm/gemm-08-vectorized.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-09-warptile", 9, "warp tiling + async copy",
    "Warps own sub-tiles; cp.async keeps the next tiles in flight (a 4-stage pipeline) while the current one is multiplied.",
    "", F32, 80, 1, 128, 256, "gpu/gemm/gemm-09-warptile.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "gemm-10-wmma-tf32", 10, "tensor cores (WMMA, TF32)",
    "WMMA fragments on tensor cores with TF32 inputs and float accumulation.",
    "", F32, 80, 1, 128, 128, "gpu/gemm/gemm-10-wmma.cu", TL_GPU_KIND_RUNG, "tf32" },
  { "gemm-10-wmma-bf16", 10, "tensor cores (WMMA, BF16)",
    "WMMA fragments on tensor cores with BF16 inputs and float accumulation.",
    "", F32, 80, 1, 128, 128, "gpu/gemm/gemm-10-wmma.cu", TL_GPU_KIND_RUNG, "bf16" },
  { "gemm-11-wgmma", 11, "Hopper wgmma + TMA",
    "A warpgroup issues wgmma from shared memory that the TMA engine fills, several stages deep.",
    "", F32, 90, 1, 128, 256, "gpu/gemm/gemm-11-wgmma.cu", TL_GPU_KIND_RUNG, "bf16" },
  { "gemm-12-regtile-f64", 12, "register tiling, float64",
    "Rung 16's register-tiled kernel in double precision, on the FP64 CUDA cores (half the FP32 rate on H100, 1/64 on consumer GPUs).",
    "003", F64, 0, 1, 128, 128, "gpu/gemm/gemm-12-regtile-f64.cu", TL_GPU_KIND_RUNG, "fp64" },
  { "gemm-13-wgmma-tf32", 13, "Hopper wgmma, TF32",
    "wgmma takes TF32 only K-major from shared memory, so compute Cᵀ = Bᵀ·Aᵀ: A's tile from shared memory, B's from registers.",
    "", F32, 90, 1, 256, 128, "gpu/gemm/gemm-13-wgmma-tf32.cu", TL_GPU_KIND_RUNG, "tf32" },
  { "gemm-14-wgmma-persistent", 14, "Hopper wgmma, persistent",
    "One CTA per SM loops over C's tiles in L2-friendly order; CTA pairs multicast the shared B tile.",
    "", F32, 90, 1, 128, 256, "gpu/gemm/gemm-14-wgmma-persistent.cu", TL_GPU_KIND_RUNG, "bf16" },
  { "gemm-15-dmma-f64", 15, "FP64 tensor cores (DMMA)",
    "mma.sync on doubles: the tensor cores multiply 16×8×4 tiles in full float64, twice the FP64 CUDA-core rate.",
    "003", F64, 80, 1, 128, 128, "gpu/gemm/gemm-15-dmma-f64.cu", TL_GPU_KIND_RUNG, "fp64" },
  { "gemm-16-doublebuf", 16, "double-buffered, 4×8 warps",
    "Two shared buffers, operands loaded a step ahead, 4×8-lane warps: and no faster than rung 8, because issue slots, not waiting, are the limit.",
    "", F32, 0, 1, 128, 128, "gpu/gemm/gemm-16-doublebuf.cu", TL_GPU_KIND_RUNG, "fp32" },
  { "cublas-fp32", 0, "cuBLAS SGEMM (pedantic)",
    "The vendor library with pedantic FP32 math: the reference the CUDA-core rungs chase.",
    "", F32, 0, 0, 0, 0, "gpu/tl-gpu-cublas.cu", TL_GPU_KIND_REFERENCE, "fp32" },
  { "cublas-tf32", 0, "cuBLAS TF32",
    "cuBLAS on tensor cores with TF32 inputs: the reference for the TF32 rung.",
    "", F32, 80, 0, 0, 0, "gpu/tl-gpu-cublas.cu", TL_GPU_KIND_REFERENCE, "tf32" },
  { "cublas-bf16", 0, "cuBLAS BF16",
    "cuBLAS with BF16 inputs and FP32 accumulation: the reference for the BF16 rungs.",
    "", F32, 80, 0, 0, 0, "gpu/tl-gpu-cublas.cu", TL_GPU_KIND_REFERENCE, "bf16" },
  { "cublas-fp64", 0, "cuBLAS DGEMM",
    "The vendor library in double precision.",
    "", F64, 0, 0, 0, 0, "gpu/tl-gpu-cublas.cu", TL_GPU_KIND_REFERENCE, "fp64" },
};

int
tl_gpu_kernel_count (void)
{
  return (int) (sizeof gemm_ladder / sizeof gemm_ladder[0]);
}

const TlGpuKernelInfo *
tl_gpu_kernel_info (int index)
{
  if (index < 0 || index >= tl_gpu_kernel_count ())
    return NULL;
  return &gemm_ladder[index];
}

const TlGpuKernelInfo *
tl_gpu_kernel_find (const char *id)
{
  for (int i = 0; id != NULL && i < tl_gpu_kernel_count (); i++)
    if (strcmp (gemm_ladder[i].id, id) == 0)
      return &gemm_ladder[i];
  return NULL;
}

const char *
tl_gpu_status_name (TlGpuStatus status)
{
  switch (status)
    {
    case TL_GPU_OK: return "ok";
    case TL_GPU_NO_DEVICE: return "no device";
    case TL_GPU_OUT_OF_MEMORY: return "out of GPU memory";
    case TL_GPU_BAD_SHAPE: return "bad shape";
    case TL_GPU_LAUNCH_FAILED: return "launch failed";
    case TL_GPU_DEVICE_LOST: return "GPU lost";
    case TL_GPU_CANCELLED: return "cancelled";
    }
  return "unknown";
}
