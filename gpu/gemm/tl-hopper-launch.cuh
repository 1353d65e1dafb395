// tl-hopper-launch.cuh — the host side of the persistent Hopper rungs 13
// and 14, written once: which kernel a plan runs, how it is prepared, how
// big its grid is, how it is launched.  CUDA C++, internal to gpu/gemm/.
// The device side is tl-hopper-pipeline.cuh's tl_pipe_persistent; as
// there, a rung supplies only what is its own: its tiles, its kernel, and
// how its operands become the tensor maps the copy engine reads.
//
// A launch.  The plan (gpu/tl-gpu-plan.c) names a tile and how many slices
// k is cut into.  Without a cut, the grid is persistent: clusters of
// CLUSTER CTAs — as many as run at once, or fewer when that finishes in the
// same number of rounds with every cluster equally loaded
// (tl_grid_clusters) — loop over the units of the tile schedule, a unit
// being a pair of tiles that share an operand tile.  With a cut, clusters
// of `splits` CTAs take one tile each, CTA r the r-th slice of k, and sum
// their partial tiles in distributed shared memory (tl-gemm-splitk.cuh).
//
// The hooks (a rung's Host type):
//   RUNG, CLUSTER   its number (for check's messages), and its CTAs per
//                   cluster without a cut;
//   Tiles           its tiles, a TlTileList (tl-gemm-common.cuh);
//   kernel<Cfg, CL, INSTR> ()   its __global__ kernel for tile Cfg in
//                   clusters of CL, plain or instrumented;
//   workspace (l)   the scratch its operands take;
//   prepare_operands (l)        in prepare, untimed (rung 14's BF16
//                   conversion; nothing for rung 13);
//   operands<Cfg> (l, &map_a, &map_b, &k)   in launch, timed: the
//                   operands the copy engine reads (rung 13 pads odd
//                   shapes here), their tensor maps, and the k the kernel
//                   walks (padded);
//   launches (l)    kernels per multiply (the padding's launch counts).
// A tile type gives BM, BN, THREADS, SMEM and SHARE_A: whether a pair of
// CTAs shares A's rows (tiles side by side along n) rather than B's
// columns (stacked along m).
#pragma once

#include "tl-gemm-common.cuh"
#include "tl-wgmma.cuh"
#include "tl-gemm-splitk.cuh"

template <typename Host>
struct TlPersistentRung
{
  // The plan's slices of k (1 without a plan or a cut).
  static int
  splits (const TlGemmLaunch *l)
  {
    return l->plan.splits > 1 ? l->plan.splits : 1;
  }

  // The tile schedule: units of CLUSTER tiles, or of one when k is cut.
  template <typename Cfg>
  static TlTileSchedule
  schedule (const TlGemmLaunch *l)
  {
    return tl_tile_schedule_make (l->m, l->n, Cfg::BM, Cfg::BN, splits (l) > 1 ? 1 : Host::CLUSTER,
                                  !Cfg::SHARE_A);
  }

  template <typename Cfg, bool INSTR>
  static cudaError_t
  launch_tile (const TlGemmLaunch *l)
  {
    constexpr int CL = Host::CLUSTER;
    CUtensorMap map_a, map_b;
    int k;
    cudaError_t e = Host::template operands<Cfg> (l, &map_a, &map_b, &k);
    if (e != cudaSuccess)
      return e;
    const int s = splits (l);
    const int vec_c = l->n % 4 == 0 && tl_aligned16 (l->c);
    const TlTileSchedule sched = schedule<Cfg> (l);
    float *C = (float *) l->c;
    if (s > 1)
      e = tl_launch_clustered (Host::template kernel<Cfg, 1, INSTR> (), dim3 (sched.units * s),
                               dim3 (Cfg::THREADS), Cfg::SMEM, l->stream, s, 0, map_a, map_b, sched,
                               l->m, l->n, k, C, s, vec_c, l->blocks);
    else
      e = tl_launch_clusters (Host::template kernel<Cfg, CL, INSTR> (),
                              tl_grid_clusters (l, sched.units, CL, true), CL, Cfg::THREADS,
                              Cfg::SMEM, l->stream, map_a, map_b, sched, l->m, l->n, k, C, 1, vec_c,
                              l->blocks);
    return e != cudaSuccess ? e : cudaGetLastError ();
  }

  // TlGemmRung.launch: the plan's tile, instrumented when l->blocks asks.
  static cudaError_t
  launch (const TlGemmLaunch *l)
  {
    return tl_with_plan_tile (typename Host::Tiles (), l, cudaErrorInvalidValue, [&] (auto cfg) {
      using Cfg = decltype (cfg);
      return l->blocks ? launch_tile<Cfg, true> (l) : launch_tile<Cfg, false> (l);
    });
  }

  // TlGemmRung.shape: one record per tile (and slice): a persistent CTA
  // lives for the whole launch.
  static void
  shape (const TlGemmLaunch *l, TlGemmShape *out)
  {
    *out = TlGemmShape ();
    tl_with_plan_tile (typename Host::Tiles (), l, false, [&] (auto cfg) {
      using Cfg = decltype (cfg);
      constexpr int CL = Host::CLUSTER;
      const int s = splits (l);
      const TlTileSchedule sched = schedule<Cfg> (l);
      out->kernel = (const void *) Host::template kernel<Cfg, CL, false> ();
      out->grid = dim3 (s > 1 ? sched.units * s : tl_grid_clusters (l, sched.units, CL, true) * CL);
      out->block = dim3 (Cfg::THREADS);
      out->dynamic_smem = Cfg::SMEM;
      out->launches = Host::launches (l);
      out->total_blocks = (size_t) sched.tiles_m * sched.tiles_n * s;
      return true;
    });
  }

  // The shared-memory limit of the tile's four kernels (clusters of CL or
  // of one; plain and instrumented), and how many clusters fit on this GPU.
  template <typename Cfg>
  static cudaError_t
  prepare_tile (TlGemmLaunch *l)
  {
    constexpr int CL = Host::CLUSTER;
    const void *plain = (const void *) Host::template kernel<Cfg, CL, false> ();
    const void *instrumented = (const void *) Host::template kernel<Cfg, CL, true> ();
    cudaError_t e = tl_persistent_prepare (l, plain, instrumented, CL, Cfg::THREADS, Cfg::SMEM);
    for (const void *k : { (const void *) Host::template kernel<Cfg, 1, false> (),
                           (const void *) Host::template kernel<Cfg, 1, true> () })
      if (e == cudaSuccess)
        e = cudaFuncSetAttribute (k, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::SMEM);
    return e;
  }

  // TlGemmRung.prepare: once per run, outside every timed region.
  static cudaError_t
  prepare (TlGemmLaunch *l)
  {
    cudaError_t e = tl_with_plan_tile (typename Host::Tiles (), l, cudaErrorInvalidValue,
                                       [&] (auto cfg) { return prepare_tile<decltype (cfg)> (l); });
    return e != cudaSuccess ? e : Host::prepare_operands (l);
  }

  static TlGpuStatus
  check (const TlGemmLaunch *l, char *why, size_t why_size)
  {
    return tl_wgmma_check (l, Host::RUNG, why, why_size);
  }
};
