// gemm-17-simt-tma.cu — rung 17: FP32 on the CUDA cores, warp-specialised:
// the copy engine (TMA) moves the tiles, the FFMA warps only multiply.
// Built only for sm_90a.
//
// What changed from rung 8 (and rung 16).  In rungs 8 and 16 the same
// warps load global memory (LDG), store it to shared memory (STS), compute
// addresses, wait at __syncthreads and multiply.  ncu showed both issuing
// on most cycles, most of the issued instructions FFMAs, at a 128-register
// cap (two blocks per SM).  Here the data movement leaves the
// FFMA warps entirely:
//   1. One producer thread (warpgroup 0) asks the TMA engine for each
//      k-tile of A and B (cp.async.bulk.tensor): the copy lands in one of 3
//      shared-memory stages and completes on that stage's "full" mbarrier.
//      The consumers, done with a stage, arrive on its "empty" mbarrier and
//      the producer reuses it.  No LDG, no STS, no __syncthreads in the
//      consumers: per 32-wide k-tile a consumer thread executes 4096 FFMAs,
//      192 LDS.128 and one mbarrier wait and arrive (95% FFMAs).
//   2. setmaxnreg: the producer warpgroup gives its registers back (40 per
//      thread), the 8 consumer warps take 232 — room for 8 × 16 outputs per
//      thread (128 accumulators) instead of 8 × 8, so each operand loaded
//      from shared memory feeds twice as many FFMAs.
//   3. A arrives in shared memory "k-quad-major", As[k/4][row][k%4], without
//      a transpose: the tensor map views row-major A as a 3-D array —
//      4 consecutive k (16 bytes), then rows (pitch 4k bytes), then k-quads
//      (16 bytes apart) — and a box of 4 × 128 × 8 is written in that order.
//      A consumer then reads 4 k-values of one row with one LDS.128; its 8
//      rows are 4 apart (rows r, r+4, …), so the 4 row-groups of a warp read
//      64 contiguous bytes: no bank conflicts, and every address is the
//      thread's base plus a constant (no index arithmetic in the loop).
//      B's tile is copied as it is (256 floats a row); 8 lanes read 128
//      contiguous bytes.
//
// Shapes: C tile 128 × 256 per CTA for large products (4 × 2 consumer
// warps of 32 × 128; a warp is 4 × 8 lanes, a thread 8 rows × 16 columns:
// rows r + 4i, columns c + 32g … + 3).  k-tile 32.  384 threads:
// warpgroup 0 the producer, warpgroups 1–2 the consumers.  Shared memory:
// 3 stages × (16 KB of A + 32 KB of B) = 144 KB.  One CTA per SM
// (registers).  Grid: one CTA per C tile, numbered in bands of 8
// tile-rows (down a band first), so the CTAs in flight share A's rows and
// B's columns in L2.
//
// Plans (gpu/tl-gpu-plan.c; the tiles in tl-gemm-plans.h).  One tile
// shape cannot serve every size: 1000×777×1111 is 8 × 5 = 40 tiles of
// 128 × 256 on 132 SMs, and 512³ only 8 — most of the GPU would idle
// through the whole multiply.  So the rung runs a *plan*: a tile of
// 128 × 256, 128 × 128, 96 × 192, 64 × 128 or 64 × 64 (the same 8 warps,
// each thread BM/16 × BN/16 outputs: smaller tiles, more CTAs, less reuse
// of each operand), and k cut into 1, 2, 4 or 8 slices whose CTAs form one
// cluster and sum their partial tiles through distributed shared memory in
// a fixed order (tl-gemm-splitk.cuh).  The cost model picks the plan with
// the fewest microseconds by its count of waves, the last wave's idle SMs
// and the price of the split; `--plan` pins another one, to show the
// difference.  Tiles that are not powers of two are there for the waves:
// 1000×777×1111 in 128 × 128 tiles is 72 tiles, and no split of k makes
// that a whole number of waves on 132 SMs (k in 4: 288 CTAs, three waves
// of clusters of 4, the last a third full); in 96 × 192 tiles it is 66,
// and k in 2 makes 132 CTAs — every SM busy, once.
//
// Odd shapes.  TMA needs rows that start on 16-byte boundaries, which
// 1000×777×1111 does not have: rows of 777 floats (A) and of 1111 (B).
// When k or n is not a multiple of 4 (or a base is not 16-byte aligned)
// the launch first copies that operand, and only that one, into a
// zero-padded buffer in the workspace (tl_pad_pair in tl-gemm-async.cuh:
// one memory-bound launch for both when both need it, one 16-byte store
// per thread, timed with the multiply) and TMA reads the copy.  A's copy
// has k rounded up to a multiple of 4 with zero columns; the rows of B
// past k are outside B's tensor map, which TMA fills with zeros, so the
// extra k-steps add nothing.  Everything after the copy — the plans, the
// stages, the main loop — is the aligned shape's.  A producer that filled
// the stages with 4-byte cp.async copies instead, arriving on the same
// barriers, was measured first: at 1000×777×1111 it ran far slower than
// TMA on the same tiles (docs/perf/gemm-plans-h200.md) — 12,288 copies of
// 4 bytes per stage from 128 threads — so the pass over A and B is the
// cheaper way.  Edges of C: TMA fills elements outside A and B with zeros;
// the stores are guarded where the tile leaves C, and are scalar where C's
// rows are not 16-byte aligned.
//
// The instrumented variant (records != nullptr; the same kernel): thread 0
// — the TMA producer — writes the block's start at entry, and the end is
// written after the consumer warps meet at a named barrier (bar.sync 1,
// 256) past their last store of C; the producer warps do not wait.  A
// block-wide __syncthreads there, where producer warps waited at barrier
// 0 for the whole main loop, made every block measurably slower
// (docs/perf/gemm-rung-notes.md); at the named barrier the overhead is
// within the noise.  A split-k plan records
// one block per slice (`launch` = the slice).
//
// Results and profiles: docs/perf/ (gemm-cuda-cores-*.md: ncu sees almost
// only FFMAs among the instructions, but the SM issuing on fewer cycles
// than cuBLAS's kernel — two consumer warps per scheduler hide less
// latency).
//
// Without an sm_90a build or on another GPU, check() refuses: "needs a
// Hopper GPU (compute capability 9.0) and an sm_90a build".
//
// Seed: none.  The structure is CUTLASS's warp-specialised Hopper GEMM
// (producer/consumer warpgroups, TMA, mbarrier ring) with SIMT FFMAs in
// place of wgmma.
#include "tl-gemm-simt-tma.cuh"
#include "tl-gemm-plans.h"

#include <stdio.h>

// The sm_90 (non-"a") and host passes see the device helpers unused.
#pragma nv_diag_suppress 177

namespace {

// The instrumented variant's end: the 256 consumer threads meet at named
// barrier 1 after their last store of C (the producer warps, done issuing
// copies, do not wait), and consumer thread 0 (`t`) writes the end of the
// block's record, naming its C tile and its slice of k.
__device__ __forceinline__ void
record_consumers_done (TlGpuBlockRecord *records, int t, int tn, int tm, int split)
{
  if (records == nullptr)
    return;
  asm volatile ("bar.sync 1, %0;\n" ::"n"(CONSUMERS) : "memory");
  if (t == 0)
    tl_block_record_end (records, split, tl_block_slot (), tn, tm);
}

// ---- the kernel --------------------------------------------------------------
//
// map_a: A viewed as 4 × m × k/4 (see the header), box 4 × BM × BK/4.
// map_b: B (k×n), box BN × BK.  k: A's row length as TMA reads it (a
// multiple of 4).  group: tile-rows per band of the launch order.
// splits > 1: blockIdx.z is the slice of k, and the grid's z dimension is
// one cluster.
template <typename Cfg>
__global__ void __launch_bounds__ (THREADS, 1)
gemm_17_kernel (const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                float *__restrict__ c, int m, int n, int k, int vec_c, int group, int splits,
                TlGpuBlockRecord *records)
{
#if TL_SM90A
  constexpr int BK = Cfg::BK, STAGES = Cfg::STAGES, BM = Cfg::BM, BN = Cfg::BN;
  extern __shared__ __align__ (128) unsigned char smem_raw[];
  __shared__ __align__ (8) uint64_t full[STAGES], empty[STAGES];
  const uint32_t raw = tl_smem_addr (smem_raw);
  const Stages<Cfg> st = { smem_raw + (((raw + 127) & ~127u) - raw) };

  tl_block_begin (records);   // thread 0: the block's start

  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  int tm, tn;
  tile_of (blockIdx.x, tiles_m, tiles_n, group, &tm, &tn);
  const int row0 = tm * BM, col0 = tn * BN;
  const int split = Cfg::SPLIT ? blockIdx.z : 0;
  int kt0 = 0, kt1 = (k + BK - 1) / BK;   // this CTA's k-tiles
  if (Cfg::SPLIT)
    tl_splitk_range (kt1, split, splits, &kt0, &kt1);
  else
    splits = 1;

  init_stage_barriers<STAGES> (full, empty);
  __syncthreads ();

  if (threadIdx.x < 128)
    {
      // Producer warpgroup: gives its registers to the consumers.  Use i
      // of the ring (i = kt − kt0) waits until use i − STAGES was released.
      tl_setmaxnreg_dec<40> ();
      if (threadIdx.x == 0)
        for (int kt = kt0; kt < kt1; kt++)
          {
            const int i = kt - kt0, s = i % STAGES;
            tl_mbar_wait (&empty[s], ((i / STAGES) & 1) ^ 1);
            tma_fill_stage (st, s, &full[s], &map_a, &map_b, row0, col0, kt);
          }
      // Without the split-k epilogue the producer warps are done: lanes 1–31
      // of warp 0 and warps 1–3 exit at once instead of waiting for lane 0
      // at a __syncwarp the whole multiply long.
      if (Cfg::SPLIT)
        tl_splitk_producers_sync (splits);   // their part in the split-k sum
    }
  else
    {
      tl_setmaxnreg_inc<232> ();
      const int t = threadIdx.x - 128;
      int r, col;   // this thread's first row and column of the tile
      consumer_origin<Cfg> (t, &r, &col);

      float acc[Cfg::TM][Cfg::TN];
      zero_acc<Cfg> (acc);
      for (int kt = kt0; kt < kt1; kt++)
        {
          const int i = kt - kt0, s = i % STAGES;
          tl_mbar_wait (&full[s], (i / STAGES) & 1);
          multiply_stage<Cfg> (acc, reinterpret_cast<const float4 *> (st.a (s)) + r,
                               reinterpret_cast<const float4 *> (st.b (s) + col));
          tl_mbar_arrive (&empty[s]);
        }

      if (splits == 1)
        {
          const bool inside = row0 + BM <= m && col0 + BN <= n;
          store_tile<Cfg> (acc, c, m, n, row0 + r, col0 + col, vec_c && inside);
        }
      else
        {
          // Once every consumer is past its last stage, the partial tile
          // may overwrite the stages (tl-gemm-splitk.cuh).
          float *part = st.a (0);
          tl_splitk_consumers_publish (
            [&] { store_tile<Cfg> (acc, part, BM, Cfg::PART_PITCH, r, col, true); });
          tl_splitk_sum<float> (part, Cfg::PART_PITCH, BM, BN, splits, split, c, m, n, row0, col0,
                                vec_c != 0, t, CONSUMERS);
        }
      record_consumers_done (records, t, tn, tm, split);
      tl_splitk_leave (splits);
    }
#endif
}

// ---- host side -----------------------------------------------------------------

template <typename Cfg>
dim3
grid_of (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->m, Cfg::BM) * tl_ceil_div (l->n, Cfg::BN), 1,
               l->plan.splits > 1 ? l->plan.splits : 1);
}

template <typename Cfg>
cudaError_t
launch_cfg (const TlGemmLaunch *l)
{
  const Layout L = layout_of (l);
  const float *a, *b;
  cudaError_t pe = tl_pad_operands (l, L, &a, &b);
  if (pe != cudaSuccess)
    return pe;
  CUtensorMap map_a, map_b;
  if (!make_maps<Cfg> (a, b, l->m, l->k, L, &map_a, &map_b))
    return cudaErrorInvalidValue;
  const dim3 grid = grid_of<Cfg> (l);
  cudaError_t e = tl_launch_clustered (gemm_17_kernel<Cfg>, grid, dim3 (THREADS), Cfg::SMEM, l->stream,
                                       (int) grid.z, 2, map_a, map_b, (float *) l->c, l->m, l->n,
                                       L.kp, vec_c_ok (l) ? 1 : 0, l->plan.raster, (int) grid.z,
                                       l->blocks);
  return e != cudaSuccess ? e : cudaGetLastError ();
}

size_t
workspace_17 (const TlGemmLaunch *l)
{
  const Layout L = layout_of (l);
  return L.a_bytes + L.b_bytes;
}

// The configuration of each tile of the plans: k-tile 32; 3 stages for
// the largest tile (144 KB), 4 for the smaller ones.  The largest is built
// without the split-k epilogue (tl-gemm-plans.h: its plans never split):
// with it, values kept alive for the epilogue pushed its 232-register
// main loop into spills.
template <int BM, int BN>
using Tile17 = Config<BM, BN, 32, BM == 128 && BN == 256 ? 3 : 4, !(BM == 128 && BN == 256)>;

// Calls op (Cfg ()) with the Config of the plan's tile (the list the cost
// model chooses from; an empty plan — a caller that did not plan — runs
// the largest tile), or returns `none` for a tile that is not in it.
template <typename R, typename Op>
R
with_tile (const TlGemmLaunch *l, R none, Op op)
{
  if (l->plan.tile_m == 0)
    return op (Tile17<128, 256> ());
#define TL_17_TILE(bm, bn, per_sm, eff, max_splits)                                                          \
  if (l->plan.tile_m == (bm) && l->plan.tile_n == (bn))                                          \
    return op (Tile17<bm, bn> ());
  TL_GEMM_17_TILES (TL_17_TILE)
#undef TL_17_TILE
  return none;
}

cudaError_t
launch_17 (const TlGemmLaunch *l)
{
  return with_tile (l, cudaErrorInvalidValue, [&] (auto cfg) { return launch_cfg<decltype (cfg)> (l); });
}

void
shape_17 (const TlGemmLaunch *l, TlGemmShape *out)
{
  *out = TlGemmShape ();
  with_tile (l, false, [&] (auto cfg) {
    using Cfg = decltype (cfg);
    tl_gemm_shape_one (out, (const void *) gemm_17_kernel<Cfg>, grid_of<Cfg> (l), dim3 (THREADS),
                       Cfg::SMEM);
    const Layout L = layout_of (l);
    out->launches = L.pad_a || L.pad_b ? 2 : 1;   // the padded copies, then the multiply
    return true;
  });
}

cudaError_t
prepare_17 (TlGemmLaunch *l)
{
  return with_tile (l, cudaErrorInvalidValue, [&] (auto cfg) {
    using Cfg = decltype (cfg);
    return cudaFuncSetAttribute (gemm_17_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 Cfg::SMEM);
  });
}

TlGpuStatus
check_17 (const TlGemmLaunch *l, char *why, size_t why_size)
{
  return tl_wgmma_check (l, 17, why, why_size);
}

} // namespace

extern const TlGemmRung gemm_17_simt_tma_rung = {
  "gemm-17-simt-tma", launch_17, shape_17, check_17, workspace_17, prepare_17,
};
