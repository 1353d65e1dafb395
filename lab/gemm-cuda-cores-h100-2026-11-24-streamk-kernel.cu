// gemm-18-simt-streamk.cu — rung 18: rung 17's FP32 kernel without the
// tail: persistent CTAs, and the last partial wave of tiles shared out by
// k-steps ("stream-K").  Built only for sm_90a.
//
// What is left of rung 17.  Its CTAs are one per 128×256 tile of C, one
// CTA per SM.  At 4096³ that is 512 tiles on 132 SMs: three full waves and
// a fourth of 116 tiles, during which 16 SMs idle — the launch takes four
// tile-times for 3.88 tiles' worth of work per SM (ncu: "Waves Per SM
// 3.88"; cuBLAS's 256×128 SGEMM tile has the same tail).  At 8192³ it is
// 15.52 waves, at 4000×3000×5000 2.91: in each case about 3% of the SMs'
// time is idle at the end.  On the Blocks page it is the ragged right
// edge of rung 17's timeline.
//
// What changes here:
//  1. Persistent CTAs.  The grid is one CTA per SM; CTA c computes whole
//     tiles c, c + G, c + 2G, ... (G CTAs) — rung 17's work, but the stage
//     ring and its barriers carry on from tile to tile, so the producer is
//     already copying the next tile's first k-tiles while the consumers
//     store the last one's C.
//  2. Stream-K for the tail.  The T mod G tiles that would form the last
//     partial wave are not given to single CTAs.  Their k-steps — tail × KT
//     of them, KT = ⌈k / 32⌉ per tile — are laid end to end (tile by tile)
//     and cut into G equal runs, one per CTA; every CTA does its run first,
//     then its whole tiles.  Each CTA now has the same work: 3 tiles + 112
//     or 113 k-steps at 4096³ instead of 4 tiles or 3.
//  3. The fix-up.  A run that starts or ends inside a tile computes only
//     part of that tile's sum over k.  The CTA holding the tile's first
//     k-steps (at the *end* of its run) finishes it; the CTAs holding the
//     later k-steps (at the *start* of theirs, so long done by then) write
//     their 128×256 partial sums to a workspace slot of their own, then
//     count themselves in the tile's flag (after a fence, so the data is
//     visible first).  The finisher waits until the flag counts them all,
//     adds their slots to its registers, resets the flag for the next
//     launch, and stores the tile.  Waits only point to CTAs of higher
//     index that started at the same time, and all G CTAs are resident at
//     once (the grid is what the occupancy query says fits), so nobody
//     waits for a CTA that cannot run.  The order of the additions is
//     fixed by the plan: the result does not depend on timing.
//  The price: one extra 128 KB write and read per split piece, through L2
//  (about 2,000 cycles against the ~700,000 of a tile at 4096³).
//
// Shapes, stages, the consumers' FFMAs and the stores of C: rung 17's,
// shared in tl-gemm-simt-tma.cuh.  Shared memory 3 × 48 KB; workspace:
// one 128 KB partial slot per SM and one flag per split tile.
//
// Result (bench-gpu-gemm, H100): see docs/perf/gemm-cuda-cores-h100-
// 2026-11-24-streamk.md.
//
// The instrumented variant (records != nullptr; the same kernel) writes one
// record per *piece* of work — a whole tile, or a CTA's part of a split
// tile — numbered in the plan's order (StreamKPlan::piece_slot): the SM
// timeline shows each SM's run of split pieces, then its whole tiles, all
// ending together; the tile map names each piece's tile.
//
// Without an sm_90a build or on another GPU, check() refuses: "needs a
// Hopper GPU (compute capability 9.0) and an sm_90a build".
//
// Seed: none.  Stream-K is Osama, Merrill, Cecka, Garland and Ravishankar,
// "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix
// Multiplication on the GPU" (PPoPP 2023), in its "data-parallel + one
// stream-K wave" hybrid; CUTLASS ships it as a tile scheduler.  The code
// is our own.
#include "tl-gemm-simt-tma.cuh"

#include <stdio.h>

// The sm_90 (non-"a") and host passes see the device helpers unused.
#pragma nv_diag_suppress 177

namespace {

using Cfg = Config<32, 3, 8>;   // rung 17's: BK 32, 3 stages, bands of 8 tile-rows

// Split pieces shorter than this many k-tiles cost more in fix-up than
// they save: with few k-steps to share, fewer CTAs share them.
constexpr int MIN_SPLIT_KTILES = 4;

#ifndef GEMM18_SPLIT_LAST
#define GEMM18_SPLIT_LAST 1
#endif
constexpr bool SPLIT_LAST = GEMM18_SPLIT_LAST;

// The launch's work, planned once on the host.  Tiles are numbered in
// rung 17's banded order (tile_of); tiles 0 … split_tiles−1 are shared
// out by k-steps among CTAs 0 … split_ctas−1, tiles split_tiles … T−1 go
// whole to CTA (t − split_tiles) mod G.
struct StreamKPlan
{
  int tiles_m, tiles_n, tiles;
  int kt;              // k-tiles per tile
  int ctas;            // G, the grid
  int split_tiles;     // the tail: T mod G (or T when T < G), 0 when T is a multiple of G
  int split_base;      // the first split tile (0, or T − split_tiles when they come last)
  int whole_base;      // the first whole tile (split_tiles, or 0)
  bool split_last;     // each CTA's whole tiles before its run (else after)
  int split_ctas;      // CTAs sharing the split tiles' k-steps
  int run_base;        // CTA c < split_ctas runs k-steps [begin(c), begin(c+1))
  int run_extra;       // the first run_extra runs are one k-step longer

  __host__ __device__ int
  begin (int c) const
  {
    return c * run_base + (c < run_extra ? c : run_extra);
  }

  // The CTA whose run holds k-step x of the split tiles.
  __host__ __device__ int
  owner (int x) const
  {
    const int long_runs = run_extra * (run_base + 1);
    return x < long_runs ? x / (run_base + 1) : run_extra + (x - long_runs) / run_base;
  }

  // Record slot of the piece that starts at k-step x of the split tiles:
  // how many pieces start before it — tile starts and run starts in
  // (0, x], counted once where they coincide.  Instrumented runs only.
  __host__ __device__ int
  piece_slot (int x) const
  {
    int slot = (int) (x / kt);
    for (int c = 1; c <= owner (x) && c < split_ctas; c++)
      slot += begin (c) % kt != 0;
    return slot;
  }

  __host__ __device__ int
  split_pieces () const
  {
    return split_tiles == 0 ? 0 : piece_slot (split_tiles * kt - 1) + 1;
  }

  __host__ __device__ int
  pieces () const
  {
    return split_pieces () + (tiles - split_tiles);
  }
};

StreamKPlan
plan_of (int m, int n, int k, int most_ctas, bool split_last)
{
  StreamKPlan p;
  p.tiles_m = (int) tl_ceil_div (m, BM);
  p.tiles_n = (int) tl_ceil_div (n, BN);
  p.tiles = p.tiles_m * p.tiles_n;
  p.kt = (int) tl_ceil_div (k, Cfg::BK);
  const int g = most_ctas > 0 ? most_ctas : 1;
  p.split_tiles = p.tiles % g;        // T < G: all of them
  // k-steps are counted in int: a tail of more (k beyond ~500 million)
  // goes whole, like the other tiles.
  if ((long long) p.split_tiles * p.kt > INT32_MAX)
    p.split_tiles = 0;
  const int steps = p.split_tiles * p.kt;
  const int sharers = steps / MIN_SPLIT_KTILES;
  p.split_ctas = p.split_tiles == 0 ? 0 : (int) (sharers < 1 ? 1 : sharers < g ? sharers : g);
  p.run_base = p.split_ctas > 0 ? steps / p.split_ctas : 0;
  p.run_extra = p.split_ctas > 0 ? (int) (steps % p.split_ctas) : 0;
  // Whole tiles keep every CTA busy; with none, only the sharers start.
  p.ctas = p.tiles >= g ? g : p.split_ctas;
  p.split_last = split_last;
  p.split_base = split_last ? p.tiles - p.split_tiles : 0;
  p.whole_base = split_last ? 0 : p.split_tiles;
  return p;
}

// One piece of a CTA's work: k-tiles k0 … k1−1 of tile `tile`.
struct Piece
{
  int tile, k0, k1;
  int split;         // index among the split tiles (its flag), −1 for whole tiles
  int start;         // split pieces: its first k-step in the plan; −1 for whole tiles
};

// CTA c's pieces in order: its whole tiles and its run (cut at tile
// boundaries), in the plan's order.  Producer and consumers walk the same
// sequence.
//
// No division here: the uniform datapath (the scalar unit that runs a
// warp's loop counters and barrier addresses) has no divider, so one
// division on the way to a piece's k-range puts the k-loop's bounds, its
// counter and its barrier addresses in vector registers — which cost the
// consumers' FFMA schedule 15% (docs/perf/gemm-cuda-cores-h100-2026-11-24-
// streamk.md).  The run's first tile is found by subtraction instead.
struct PieceWalk
{
  int split, k;      // the run's next k-step: k-step k of split tile `split`
  int left;          // k-steps of the run not yet walked
  int next_tile, whole_end;

  __device__ PieceWalk (const StreamKPlan &p, int c)
  {
    split = 0;
    k = c < p.split_ctas ? p.begin (c) : 0;
    left = c < p.split_ctas ? p.begin (c + 1) - k : 0;
    while (k >= p.kt)   // at most split_tiles steps, once per CTA
      {
        k -= p.kt;
        split++;
      }
    next_tile = p.whole_base + c;
    whole_end = p.whole_base + (p.tiles - p.split_tiles);
  }

  __device__ bool
  next (const StreamKPlan &p, Piece *pc)
  {
    return p.split_last ? next_whole (p, pc) || next_split (p, pc)
                        : next_split (p, pc) || next_whole (p, pc);
  }

  __device__ bool
  next_split (const StreamKPlan &p, Piece *pc)
  {
    if (left == 0)
      return false;
    const int take = left < p.kt - k ? left : p.kt - k;
    pc->tile = p.split_base + split;
    pc->split = split;
    pc->k0 = k;
    pc->k1 = k + take;
    pc->start = split * p.kt + k;
    left -= take;
    k += take;
    if (k == p.kt)
      {
        k = 0;
        split++;
      }
    return true;
  }

  __device__ bool
  next_whole (const StreamKPlan &p, Piece *pc)
  {
    if (next_tile >= whole_end)
      return false;
    pc->tile = next_tile;
    pc->split = -1;
    pc->k0 = 0;
    pc->k1 = p.kt;
    pc->start = -1;
    next_tile += p.ctas;
    return true;
  }
};

// ---- the fix-up -----------------------------------------------------------------
//
// A partial slot holds one consumer thread's 128 sums as 32 float4, laid
// out so that the 256 threads write (and read) 4 KB of neighbouring
// 16-byte vectors per step: element q of thread t at slot[q·256 + t].
// __stcg/__ldcg go through L2 only: the slot is written on one SM and read
// on another, and L1 is not coherent.

__device__ __forceinline__ void
write_partial (const float (&acc)[TM][TN], float4 *slot, int t)
{
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int g = 0; g < TN / 4; g++)
      __stcg (&slot[(4 * i + g) * CONSUMERS + t],
              make_float4 (acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]));
}

// The 256 consumer threads of this CTA (the producer warps never join).
__device__ __forceinline__ void
consumers_sync ()
{
  asm volatile ("bar.sync 1, %0;\n" ::"n"(CONSUMERS) : "memory");
}

// A piece that lacks the tile's first k-steps: its sums are in this CTA's
// slot; count the CTA in.  Every thread fences its own stores before the
// barrier, so once thread 0 counts, all 128 KB are visible.
__device__ __forceinline__ void
contribute (int *flag, int t)
{
  __threadfence ();
  consumers_sync ();
  if (t == 0)
    atomicAdd (flag, 1);
}

// The piece with the tile's first k-steps, not its last: wait for the
// CTAs self+1 … last, add their slots to its own sums in that order, store the sums as store_tile would, and reset
// the flag.  The accumulators are only read after the k-loop (tried, to
// keep ptxas's register assignment of the FFMA loop rung 17's: it did not).
__device__ __forceinline__ void
finish (const float (&acc)[TM][TN], const float4 *slots, int *flag, int self, int last,
        float *__restrict__ c, int m, int n, int r0, int c0, bool vec, int t)
{
  if (t == 0)
    {
      const volatile int *vflag = flag;
      while (*vflag < last - self)
        __nanosleep (64);
      __threadfence ();
      *flag = 0;   // no contributor of this launch is left; the next launch starts at 0
    }
  consumers_sync ();
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int g = 0; g < TN / 4; g++)
      {
        const size_t q = (size_t) (4 * i + g) * CONSUMERS + t;
        float4 v = make_float4 (acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
        for (int from = self + 1; from <= last; from++)
          {
            const float4 w = __ldcg (&slots[(size_t) from * (BM * BN / 4) + q]);
            v.x += w.x, v.y += w.y, v.z += w.z, v.w += w.w;
          }
        store_quad (v, c, m, n, r0 + 4 * i, c0 + 32 * g, vec);
      }
}

// The producer: for every k-tile of every piece, wait until its stage is
// free and fill it — by TMA (thread 0 alone), or by the 128 producer
// threads' guarded loads.  Two instantiations, called from two branches,
// not one loop that asks `tma` at every k-tile: with the copy loop inside
// the TMA loop, ptxas gave the consumers' FFMAs a register assignment with
// four times the register-bank conflicts and the kernel ran 15% slower.
template <bool TMA, typename Cfg>
__device__ __forceinline__ void
produce (const Stages<Cfg> &st, uint64_t *full, uint64_t *empty, const CUtensorMap *map_a,
         const CUtensorMap *map_b, const float *__restrict__ a, const float *__restrict__ b, int m,
         int n, int k, const StreamKPlan &plan, PieceWalk walk)
{
  constexpr int STAGES = Cfg::STAGES;
  Piece pc;
  int it = 0;
  while (walk.next (plan, &pc))
    {
      int tm, tn;
      tile_of (pc.tile, plan.tiles_m, plan.tiles_n, Cfg::GROUP, &tm, &tn);
      for (int kt = pc.k0; kt < pc.k1; kt++, it++)
        {
          const int s = it % STAGES;
          tl_mbar_wait (&empty[s], ((it / STAGES) & 1) ^ 1);
          if (TMA)
            tma_fill_stage (st, s, &full[s], map_a, map_b, tm * BM, tn * BN, kt);
          else
            {
              fill_stage<Cfg::BK> (st.a (s), st.b (s), a, b, m, n, k, tm * BM, tn * BN, kt * Cfg::BK,
                                   threadIdx.x);
              tl_mbar_arrive (&full[s]);
            }
        }
    }
}

// ---- the kernel ------------------------------------------------------------------
//
// Rung 17's kernel, looping over the plan's pieces.  `it` counts k-tiles
// over all of this CTA's pieces: stage it % STAGES, use it / STAGES (the
// ring's phases continue across pieces, as in rung 14).
__global__ void __launch_bounds__ (THREADS, 1)
gemm_18_kernel (const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m,
                int n, int k, int tma, int vec_c, StreamKPlan plan, float4 *partials, int *flags,
                TlGpuBlockRecord *records)
{
#if TL_SM90A
  constexpr int BK = Cfg::BK, STAGES = Cfg::STAGES;
  extern __shared__ __align__ (128) unsigned char smem_raw[];
  __shared__ __align__ (8) uint64_t full[STAGES], empty[STAGES];
  __shared__ unsigned long long piece_start_ns;   // instrumented: the current piece's start
  const uint32_t raw = tl_smem_addr (smem_raw);
  const Stages<Cfg> st = { smem_raw + (((raw + 127) & ~127u) - raw) };

  init_stage_barriers<STAGES> (full, empty, tma);
  __syncthreads ();

  PieceWalk walk (plan, blockIdx.x);
  Piece pc;
  if (threadIdx.x < 128)
    {
      tl_setmaxnreg_dec<40> ();
      if (tma)
        {
          if (threadIdx.x == 0)
            produce<true, Cfg> (st, full, empty, &map_a, &map_b, a, b, m, n, k, plan, walk);
        }
      else
        produce<false, Cfg> (st, full, empty, &map_a, &map_b, a, b, m, n, k, plan, walk);
    }
  else
    {
      tl_setmaxnreg_inc<232> ();
      const int t = threadIdx.x - 128;
      int r, col;
      consumer_origin (t, &r, &col);
      float acc[TM][TN];
      int it = 0;
      while (walk.next (plan, &pc))
        {
          // the piece's start, kept in shared memory, not in a register
          if (records != nullptr && t == 0)
            piece_start_ns = tl_globaltimer_ns ();

          zero_acc (acc);
          for (int kt = pc.k0; kt < pc.k1; kt++, it++)
            {
              const int s = it % STAGES;
              tl_mbar_wait (&full[s], (it / STAGES) & 1);
              multiply_stage<BK> (acc, reinterpret_cast<const float4 *> (st.a (s)) + r,
                                  reinterpret_cast<const float4 *> (st.b (s) + col));
              tl_mbar_arrive (&empty[s]);
            }

          int tm, tn;
          tile_of (pc.tile, plan.tiles_m, plan.tiles_n, Cfg::GROUP, &tm, &tn);
          const int row0 = tm * BM, col0 = tn * BN;
          const bool vec = vec_c && row0 + BM <= m && col0 + BN <= n;
          if (pc.k0 == 0 && pc.k1 == plan.kt)   // a whole tile
            store_tile (acc, c, m, n, row0 + r, col0 + col, vec);
          else
            {
              if (pc.k0 > 0)   // later k-steps: to the finisher
                {
                  write_partial (acc, partials + (size_t) blockIdx.x * (BM * BN / 4), t);
                  contribute (&flags[pc.split], t);
                }
              else
                finish (acc, partials, &flags[pc.split], blockIdx.x,
                        plan.owner (pc.split * plan.kt + plan.kt - 1), c, m, n, row0 + r,
                        col0 + col, vec, t);
            }
          if (records != nullptr)
            {
              consumers_sync ();
              if (t == 0)
                {
                  const int slot = pc.start < 0 ? plan.split_pieces () + (pc.tile - plan.whole_base)
                                                : plan.piece_slot (pc.start);
                  records[slot].start_ns = piece_start_ns;
                  tl_block_record_end (records, 0, slot, tn, tm);
                }
            }
        }
    }
#endif
}

// ---- host side -----------------------------------------------------------------

// CTAs that fit at once (one per SM); before prepare has asked, the SM count.
StreamKPlan
plan_of (const TlGemmLaunch *l)
{
  return plan_of (l->m, l->n, l->k, tl_grid_clusters (l, INT32_MAX, 1, false), SPLIT_LAST);
}

// One partial slot per CTA (at most one per SM), then one flag per split
// tile (fewer than the CTAs).
size_t
partials_bytes (const TlGemmLaunch *l)
{
  return (size_t) (l->sm_count > 0 ? l->sm_count : 1) * BM * BN * sizeof (float);
}

size_t
gemm_18_workspace (const TlGemmLaunch *l)
{
  return partials_bytes (l) + (size_t) (l->sm_count > 0 ? l->sm_count : 1) * sizeof (int);
}

cudaError_t
gemm_18_prepare (TlGemmLaunch *l)
{
  cudaError_t e = tl_persistent_prepare (l, (const void *) gemm_18_kernel, (const void *) gemm_18_kernel,
                                         1, THREADS, Cfg::SMEM);
  if (e != cudaSuccess)
    return e;
  if (l->workspace == nullptr || l->workspace_bytes < gemm_18_workspace (l))
    return cudaErrorInvalidValue;
  if (l->clusters > (l->sm_count > 0 ? l->sm_count : 1))
    return cudaErrorInvalidConfiguration;   // more CTAs than partial slots
  // The flags start at 0; every finisher leaves its flag at 0 again.
  return cudaMemsetAsync ((char *) l->workspace + partials_bytes (l), 0,
                          gemm_18_workspace (l) - partials_bytes (l), l->stream);
}

cudaError_t
gemm_18_launch (const TlGemmLaunch *l)
{
  if (l->workspace == nullptr || l->workspace_bytes < gemm_18_workspace (l))
    return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b;
  bool tma;
  if (!make_maps<Cfg> (l, &map_a, &map_b, &tma))
    return cudaErrorInvalidValue;
  const StreamKPlan plan = plan_of (l);
  float4 *partials = (float4 *) l->workspace;
  int *flags = (int *) ((char *) l->workspace + partials_bytes (l));
  gemm_18_kernel<<<plan.ctas, THREADS, Cfg::SMEM, l->stream>>> (
    map_a, map_b, (const float *) l->a, (const float *) l->b, (float *) l->c, l->m, l->n, l->k,
    tma ? 1 : 0, vec_c_ok (l) ? 1 : 0, plan, partials, flags, l->blocks);
  return cudaGetLastError ();
}

void
gemm_18_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  const StreamKPlan plan = plan_of (l);
  tl_gemm_shape_one (out, (const void *) gemm_18_kernel, dim3 (plan.ctas), dim3 (THREADS), Cfg::SMEM);
  out->total_blocks = (size_t) plan.pieces ();   // one record per piece
}

TlGpuStatus
gemm_18_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  return tl_wgmma_check (l, 18, why, why_size);
}

} // namespace

extern const TlGemmRung gemm_18_simt_streamk_rung = {
  "gemm-18-simt-streamk", gemm_18_launch, gemm_18_shape, gemm_18_check, gemm_18_workspace,
  gemm_18_prepare,
};
