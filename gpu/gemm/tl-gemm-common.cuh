// tl-gemm-common.cuh — small helpers shared by the rung files (CUDA C++).
//
// Element types: the door speaks TlGpuDtype; kernels are templates over the
// C++ type.  TL_GEMM_DISPATCH calls FN<T>(l) for the dtype of l.
#pragma once

#include "tl-gemm-rung.h"
#include "tl-block-timer.cuh"

#include <stdint.h>

#define TL_GEMM_DISPATCH(FN, l)                                   \
  switch ((l)->dtype)                                            \
    {                                                            \
    case TL_GPU_INT32: return FN<int> (l);                       \
    case TL_GPU_FLOAT32: return FN<float> (l);                   \
    case TL_GPU_FLOAT64: return FN<double> (l);                  \
    }

// Fills a TlGemmShape for the common case: one launch of `kernel`.
static inline void
tl_gemm_shape_one (TlGemmShape *out, const void *kernel, dim3 grid, dim3 block, int dynamic_smem)
{
  out->kernel = kernel;
  out->grid = grid;
  out->block = block;
  out->dynamic_smem = dynamic_smem;
  out->launches = 1;
  out->total_blocks = (size_t) grid.x * grid.y * grid.z;
}

static inline bool
tl_aligned16 (const void *p)
{
  return ((uintptr_t) p & 15u) == 0;
}
