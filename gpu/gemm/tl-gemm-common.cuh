// tl-gemm-common.cuh — small helpers shared by the rung files (CUDA C++).
//
// Element types: the door speaks TlGpuDtype; kernels are templates over the
// C++ type.  tl_gemm_with_dtype calls op (T ()) for the dtype of a launch
// (a generic lambda gets T as the type of its argument).
#pragma once

#include "tl-gemm-rung.h"
#include "tl-block-timer.cuh"

#include <stdint.h>

// op (int ()), op (float ()) or op (double ()) for l's element type; `none`
// for a dtype that is none of them.
template <typename R, typename Op>
static inline R
tl_gemm_with_dtype (const TlGemmLaunch *l, R none, Op op)
{
  switch (l->dtype)
    {
    case TL_GPU_INT32: return op (int ());
    case TL_GPU_FLOAT32: return op (float ());
    case TL_GPU_FLOAT64: return op (double ());
    }
  return none;
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

// ---- the plan's tile ----------------------------------------------------------
//
// A planned rung builds one kernel per tile of its list in tl-gemm-plans.h
// and runs the one the plan names.  Its tiles as types: the first is what
// an empty plan runs (a caller that did not plan), the rest are the plans'
// list.  A rung writes it from its X-macro list, e.g.
//     #define TILE_13(bm, bn, per_sm, eff, max_splits) , Tile13<bm, bn>
//     using Tiles13 = TlTileList<Tile13<256, 128> TL_GEMM_13_TILES (TILE_13)>;
template <typename Unplanned, typename... Planned>
struct TlTileList
{
};

// op (Tile ()) for the tile of l's plan (a tile type has BM and BN), or
// `none` for a tile that is not in the list.
template <typename R, typename Op, typename Unplanned, typename... Planned>
static inline R
tl_with_plan_tile (TlTileList<Unplanned, Planned...>, const TlGemmLaunch *l, R none, Op op)
{
  if (l->plan.tile_m == 0)
    return op (Unplanned ());
  R r = none;
  bool found = false;
  ((found = found
            || (l->plan.tile_m == Planned::BM && l->plan.tile_n == Planned::BN
                && ((void) (r = op (Planned ())), true))),
   ...);
  return r;
}
