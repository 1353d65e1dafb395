// tl-gemm-rung.h — what every GEMM rung file provides (CUDA C++, internal).
//
// A rung file gpu/gemm/gemm-NN-name.cu defines its kernel(s) and one
// `extern const TlGemmRung gemm_NN_name_rung` with:
//   launch  — enqueues C = A·B on l->stream (one or more kernels).  When
//             l->blocks is non-null, launches the instrumented variant,
//             writing one TlGpuBlockRecord per block (tl-block-timer.cuh),
//             launch after launch (offset the pointer by each grid's size).
//   shape   — the main kernel's function pointer, grid, block, dynamic
//             shared memory and launch count for this problem, so the
//             harness can query registers, spills and occupancy, and size
//             the block-record buffer (total_blocks over all launches).
//   check   — optional: TL_GPU_BAD_SHAPE with a reason for shapes or dtypes
//             the rung cannot take (most rungs take any m, n, k).
//   workspace_bytes — optional: scratch the rung needs (e.g. BF16 copies).
//   prepare — optional: runs once per run after the upload, outside every
//             timed region, with the run's device current (e.g. converting
//             A and B to BF16 into the workspace).  It may record facts of
//             this run in the launch (l->clusters); the harness takes the
//             shape again afterwards, and every launch of the run sees them.  A kernel that needs more
//             than 48 KB of dynamic shared memory raises its limit here
//             (cudaFuncSetAttribute is per device, so no process-wide "done"
//             flag: every run asks its own device).  Rungs that convert
//             here say so in their header comment: the timings then cover
//             the multiply alone.
// The harness (tl-gpu-gemm.cu) owns allocation, timing, and the registry.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include "tl-gpu.h"

struct TlGemmLaunch
{
  TlGpuDtype dtype;
  int m, n, k;          // C m×n, A m×k, B k×n; all row-major, contiguous, on the device
  const void *a;
  const void *b;
  void *c;
  cudaStream_t stream;
  TlGpuBlockRecord *blocks; // device; nullptr = uninstrumented (the timed path)
  void *workspace;          // device scratch of workspace_bytes, or nullptr
  size_t workspace_bytes;
  void *cublas;             // cublasHandle_t bound to `stream`, for the reference rungs
  int device;               // the device's ordinal (current while the rung runs)
  int cc;                   // its compute capability × 10 (e.g. 90), from its facts
  int sm_count;             // its multiprocessors (persistent rungs size their grid)
  int clusters;             // persistent rungs: clusters of their kernel the GPU holds at
                            // once, counted by their prepare for this run (0 before)
  TlGpuGemmPlan plan;       // planned rungs: the tile, splits and cluster to run (chosen
                            // by the harness before check and shape; name "" otherwise)
  const void *user;         // a rung made at run time: its data (tl_gpu_gemm_run_rung)
};

struct TlGemmShape
{
  const void *kernel;   // main kernel, for cudaFuncGetAttributes / occupancy
  dim3 grid;
  dim3 block;
  int dynamic_smem;     // bytes
  int launches;         // kernels per multiply
  size_t total_blocks;  // over all launches: the block-record count
};

struct TlGemmRung
{
  const char *id;       // its row's id in tl-gemm-ladder.h
  cudaError_t (*launch) (const TlGemmLaunch *l);
  void (*shape) (const TlGemmLaunch *l, TlGemmShape *out);
  TlGpuStatus (*check) (const TlGemmLaunch *l, char *why, size_t why_size); // may be null
  size_t (*workspace_bytes) (const TlGemmLaunch *l);                       // may be null
  cudaError_t (*prepare) (TlGemmLaunch *l);                                // may be null
};

static inline unsigned int
tl_ceil_div (int a, int b)
{
  return (unsigned int) ((a + b - 1) / b);
}
