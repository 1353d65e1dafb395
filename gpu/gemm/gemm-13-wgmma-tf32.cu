// gemm-13-wgmma-tf32.cu — rung 13: TF32 on Hopper's wgmma, reading the
// float32 matrices as they are (no pre-pass).  Built only for sm_90a.
//
// C (m×n, float32) = A (m×k) · B (k×n), all float32 row-major; the tensor
// cores multiply in TF32 (10-bit mantissa), accumulate in fp32.
//
// What changed from rung 10 (WMMA TF32, far below cuBLAS TF32): the Hopper
// machinery of rung 11 — TMA copies into a 4-stage mbarrier ring, a
// producer warp and two consumer warpgroups issuing asynchronous wgmma —
// run persistently and in clusters of two as in rung 14 (read rung 14 for
// those parts).  The pipeline is tl-hopper-pipeline.cuh's, shared with
// rungs 11 and 14; this file is its hooks.  What is new is a layout problem.
//
// The layout problem.  wgmma reads its B operand from shared memory, and
// for 32-bit types (TF32) it must be K-major: for each output column, k
// contiguous.  (Only 16-bit types may be transposed on the fly.)  Our B is
// k×n row-major — n contiguous, "MN-major".  cuBLAS TF32 takes row-major
// float32 directly, so a pre-pass that transposes B (a full read and write
// of B: ~11% of cuBLAS's time at 4096³) would be counted against us.
// The way out: compute the transpose,
//     Cᵀ (n×m) = Bᵀ (n×k) · Aᵀ (k×m).
// Now the wgmma B operand is Aᵀ, i.e. A's tile: A is m×k row-major — k
// contiguous for each m — exactly K-major.  The wgmma A operand is Bᵀ, and
// wgmma can take its A operand from *registers*, in any layout we like to
// load it from: each consumer thread reads its fragment of the B tile from
// shared memory with ordinary loads, 16 floats per k-step, and hands their
// bits to wgmma as they are; A's tile goes to the tensor cores straight
// from shared memory.  The tensor cores read the TF32 part of both (the
// float32's upper 19 bits) and ignore the rest (load_frag says what
// rounding first cost).
//
// Loading the register fragment without bank conflicts.  A thread's four
// registers per k8 hold rows {g, g+8} × columns {t, t+4} of the 64×8
// fragment (lane = 4g + t, warp w: rows 16w …): lanes with the same g read
// the same n and four different k — four different rows of the B tile.
// TMA writes B's tile as boxes 16 floats (64 bytes) wide with the 64-byte
// swizzle (16-byte chunk c of row k is stored at chunk c ^ ((k/2) % 4)),
// and the fragment row r = g + 8h of warp w is assigned to column
//     n = 16w + 8(g/4) + 4h + g%4
// of the tile (any assignment works: it only permutes C's columns, and the
// epilogue undoes it).  Then the 32 lanes of every load hit 32 different
// banks (worked through in frag_offsets).  Each warp owns one 16-column box.
//
// The epilogue.  The accumulators hold Cᵀ: a thread's pairs run along m,
// while C is n-contiguous.  Four lanes (g%4 = 0…3) hold a 4×4 block —
// four consecutive columns × four values — so a 4×4 transpose across them
// (two shuffle rounds) gives each lane four consecutive columns of one row
// of C: one 16-byte store; a warp writes 8 rows × 64 contiguous bytes.
//
// Shapes: C tile 256 (m) × 128 (n) per CTA; consumer warpgroup c owns
// columns 64c … 64c+63, one m64n256k8 wgmma per k8 (its "m" = our n, its
// "n" = our 256 rows of m), 128 fp32 accumulators per thread.  k-step 32
// floats (one 128-byte swizzle row of A).  Shared memory: 4 stages × (A
// 256×32 + B 32×128) floats = 192 KB.  Clusters of two CTAs compute two
// tiles side by side along n — same rows of A — and multicast A's tile.
//
// What is left at large sizes: ncu sees it like cuBLAS TF32 (SM throughput
// and DRAM and L2 equally busy) but at a lower clock, the power limit's
// choice.  Numbers: docs/perf/gemm-tensor-cores-*.md, gemm-plans-h200.md.
//
// TMA needs row pitches that are multiples of 16 bytes: when k or n is not
// a multiple of 4, launch first copies A and/or B into zero-padded buffers,
// both in one memory-bound launch (tl_pad_pair; counted in the timing).
//
// Plans (gpu/tl-gpu-plan.c): the pairs above, or — when the tiles are too
// few for the SMs — k cut into 2, 4 or 8 slices, one cluster per tile,
// summed in a fixed order through distributed shared memory
// (tl-gemm-splitk.cuh; as rung 14).  A split plan writes one record per
// tile and slice (`launch` = the slice).  And smaller tiles (Tile13,
// tl-gemm-plans.h): 128×128 — m64n128k8, A's tile 128 rows, two consumer
// warpgroups with 64 accumulators each — and 128×64, one consumer
// warpgroup.  They give a small product more CTAs before k has to be cut
// (1024³: 128 tiles of 128×64 instead of 32), at the price of less reuse
// per operand byte; with fewer registers to feed they need no setmaxnreg,
// and their smaller stages let the ring grow to 7 and 8 deep.  The two
// smallest, 64×64 and 32×64 (m64n64k8 and m64n32k8: 32 and 16
// accumulators), are for products of one wave, 256³–512³: there the time
// is not the arithmetic but how long one SM takes to receive its share of
// A and B before its first wgmma, so thin tiles on many SMs win even
// though each operand byte then feeds fewer multiply-adds.
//
// Before its first copy the producer prefetches both tensor maps
// (prefetch.tensormap): the copy engine reads a map's 128 bytes from
// memory the first time it is used, and after an L2 flush that would be a
// DRAM round trip in front of the first stage's.
//
// Without an sm_90a build or on another GPU, check() refuses: "needs a
// Hopper GPU (compute capability 9.0) and an sm_90a build".
//
// Seed: none.
#include "tl-gemm-rung.h"
#include "tl-gemm-common.cuh"
#include "tl-hopper-pipeline.cuh"
#include "tl-hopper-launch.cuh"
#include "tl-wgmma-tf32.cuh"
#include "tl-gemm-plans.h"

// The sm_90 (non-"a") and host passes see the wgmma helpers unused.
#pragma nv_diag_suppress 177

namespace {

constexpr int BK = 32;                        // BK × 4 bytes = one 128-byte swizzle row of A
constexpr int B_BOX_COLS = 16;                // 64-byte rows: one box per consumer warp
constexpr int B_BOX_BYTES = BK * B_BOX_COLS * 4;          // 2 KB

// One tile of the plans (tl-gemm-plans.h): BM_ (m, the wgmma's n: 256 or
// 128, so 128 or 64 accumulators per thread) × BN_ (n: one consumer
// warpgroup per 64 columns).  The largest tile, 256 × 128, keeps the 4
// stages it was tuned with; the smaller ones take as many stages as the
// shared memory holds, up to 8.
template <int BM_, int BN_>
struct Tile13
{
  static constexpr int BM = BM_, BN = BN_;
  static constexpr int CONSUMERS = BN / 64;          // consumer warpgroups, 64 columns of C each
  static constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
  static constexpr int THREADS = 128 * (CONSUMERS + 1);
  static constexpr int ACC = BM / 2;                 // fp32 accumulators per consumer thread
  static constexpr int A_HALF_BYTES = BM / 2 * BK * 4;   // one TMA box of BM/2 rows of A
  static constexpr int STAGE_BYTES = 2 * A_HALF_BYTES + BN / B_BOX_COLS * B_BOX_BYTES; // 48 KB at 256 × 128
  static constexpr int STAGES = BM == 256 ? 4 : tl_stages_that_fit (STAGE_BYTES);
  static constexpr int SMEM = STAGES * STAGE_BYTES + 1024;
  static constexpr int PART_PITCH = BN + 16;  // split-k: the partial tile's rows, padded (in the stages)
  static constexpr bool SHARE_A = true;       // a pair's tiles sit side by side along n
  static_assert (BM * PART_PITCH * 4 <= STAGES * STAGE_BYTES, "the partial tile fits the stages");
  static_assert ((BM == 32 || BM == 64 || BM == 128 || BM == 256) && (BN == 64 || BN == 128),
                 "a tile rung 13 builds");
};

// Byte offsets, inside a warp's 16-column box of the B tile, of this
// thread's fragment elements for k8 step 0: off[v][h] for register h + 2v
// (row g + 8h of the fragment → column n = 8(g/4) + 4h + g%4 of the box;
// column t + 4v of the fragment → row k = t + 4v).  Step kk adds kk·512
// (8 rows of 64 bytes), which leaves the swizzle unchanged.
//
// Why no conflicts: the box row k is 64 bytes, so rows k and k+1 share a
// 128-byte line (banks 0–15, 16–31): bank = 16·(k%2) + 4·chunk' + g%4 with
// chunk' = (n/4) ^ ((k/2)%4) = (2(g/4) + h) ^ (t/2 + 2v).  Over a warp's
// lanes, k%2 = t%2 picks the half, chunk' takes four values (g/4 and t/2
// flip different bits of it), g%4 the word: 2 × 4 × 4 = 32 banks.
__device__ __forceinline__ void
frag_offsets (int lane, int (&off)[2][2])
{
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int v = 0; v < 2; v++)
#pragma unroll
    for (int h = 0; h < 2; h++)
      {
        const int k = t + 4 * v, col = 8 * (g / 4) + 4 * h + g % 4;
        const int lin = k * 64 + col * 4;                 // bytes, unswizzled
        off[v][h] = lin ^ (((lin >> 7) & 3) << 4);        // the 64-byte swizzle
      }
}

// The whole k-step's fragment: 4 k8 steps × 4 registers, the float32 bits
// as they are: the tensor cores read the TF32 part of each (its 10 upper
// mantissa bits) and drop the rest, as they do for A's tile in shared
// memory.  Rounding first (cvt.rna.tf32.f32) cost a conversion per
// element and the moves around it: at 4096³ the kernel executed 87.3 M
// instructions with it and 61.8 M without (ncu, H200; cuBLAS TF32's
// kernel 58.2 M), ran 1–2% faster without (95.3% → 96.2% of cuBLAS), and
// the worst error grew from 4.9e-5 to 8.0e-5 of |A|·|B| against a bound
// of 2.4e-3 (docs/perf/gemm-h200-2026-11-30.md).
__device__ __forceinline__ void
load_frag (uint32_t (&f)[4][4], const unsigned char *box, const int (&off)[2][2])
{
#pragma unroll
  for (int kk = 0; kk < 4; kk++)
#pragma unroll
    for (int v = 0; v < 2; v++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        f[kk][h + 2 * v] = *reinterpret_cast<const uint32_t *> (box + kk * 512 + off[v][h]);
}

// Keeps a fragment's registers alive (and unmodified) until this point:
// wgmma reads them asynchronously, after the asm statement that issued it.
__device__ __forceinline__ void
pin_frag (uint32_t (&f)[4][4])
{
#pragma unroll
  for (int kk = 0; kk < 4; kk++)
#pragma unroll
    for (int i = 0; i < 4; i++)
      asm volatile ("" : "+r"(f[kk][i])::"memory");
}

// ---- the epilogue -------------------------------------------------------------
//
// d[4i + 2h + j] is Cᵀ's (fragment row g + 8h, column 8i + 2t + j), i.e.
// C[m0 + 8i + 2t + j][n0 + 8(g/4) + 4h + e] with e = g%4.  For one i, the
// four lanes e = 0…3 of a group (lane bits 2–3) hold M[e][2h + j]: four
// columns (e) × four (h, j).  Transposing M across them (exchange with lane
// ^4, then ^8) gives lane e the values M[0…3][e]: columns 8(g/4) + 4h + 0…3
// of row 8i + 2t + j, where (h, j) = (e/2, e%2).
template <int ACC>
__device__ __forceinline__ void
store_tile (const float (&d)[ACC], float *__restrict__ C, int m, int n, int row0, int col0)
{
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4, e = g % 4;
  const bool e_odd = e & 1, e_hi = e & 2;
  const bool vec = (n % 4) == 0;
  const int c = col0 + 8 * (g / 4) + 4 * (e >> 1);
#pragma unroll
  for (int i = 0; i < ACC / 4; i++)
    {
      float x0 = d[4 * i], x1 = d[4 * i + 1], x2 = d[4 * i + 2], x3 = d[4 * i + 3];
      // Round 1, partner e^1 (lane ^ 4): swap within 2×2 blocks.
      float s0 = __shfl_xor_sync (0xffffffffu, e_odd ? x0 : x1, 4);
      float s1 = __shfl_xor_sync (0xffffffffu, e_odd ? x2 : x3, 4);
      if (e_odd) { x0 = s0; x2 = s1; } else { x1 = s0; x3 = s1; }
      // Round 2, partner e^2 (lane ^ 8): swap the off-diagonal 2×2 blocks.
      s0 = __shfl_xor_sync (0xffffffffu, e_hi ? x0 : x2, 8);
      s1 = __shfl_xor_sync (0xffffffffu, e_hi ? x1 : x3, 8);
      if (e_hi) { x0 = s0; x1 = s1; } else { x2 = s0; x3 = s1; }
      const int r = row0 + 8 * i + 2 * t + (e & 1);
      if (r >= m)
        continue;
      float *cp = C + (size_t) r * n + c;
      if (vec && c < n)
        *reinterpret_cast<float4 *> (cp) = make_float4 (x0, x1, x2, x3);
      else if (!vec)
        {
          if (c < n) cp[0] = x0;
          if (c + 1 < n) cp[1] = x1;
          if (c + 2 < n) cp[2] = x2;
          if (c + 3 < n) cp[3] = x3;
        }
    }
}

// ---- the pipeline's hooks ----------------------------------------------------------
//
// The producer/consumer pipeline itself — the stage ring, its mbarrier
// phases, the producer's loop, the consumers' wait → wgmma → release loop,
// the persistent tile loop and the split-k sum — is tl-hopper-pipeline.cuh's,
// shared with rung 14 (read it first).  What rung 13 adds is below.
//
// A stage: A's tile (BM × 32 floats, two boxes of BM/2 rows, 128-byte
// swizzle), then B's 32 × BN (BN/16 boxes of 16 columns, 64-byte swizzle).
template <typename Cfg_, int CLUSTER>
struct Pipe13
{
  using Cfg = Cfg_;
  static constexpr int BK = ::BK;

  // map_a: A (m×k fp32), box 32 (k) × BM/2 (m).  map_b: B (k×n fp32), box
  // 16 (n) × 32 (k).
  // The producer's context (the maps, the stages, C's size, the rank) is
  // tl-hopper-pipeline.cuh's TlPipeProducer.
  static constexpr int A_BYTES = 2 * Cfg::A_HALF_BYTES;   // A's tile in a stage; B's follows
  using Producer = TlPipeProducer<Cfg::STAGE_BYTES, A_BYTES>;

  // The copies of k-step kt of tile (tm, tn) into stage s.  Boxes that
  // would start outside C are moved inside (see rung 14).
  static __device__ __forceinline__ void
  load (const Producer &p, int s, uint64_t *bar, int kt, int tm, int tn)
  {
    constexpr int BM = Cfg::BM, BN = Cfg::BN, A_HALF_BYTES = Cfg::A_HALF_BYTES;
    if (CLUSTER == 1)
      for (int half = 0; half < 2; half++)
        tl_tma_load (p.stage_a (s) + half * A_HALF_BYTES, &p.map_a, bar, kt * BK,
                     tl_box_start (tm * BM + half * (BM / 2), p.m));
    else // both CTAs share tm: each brings half of A's tile, to both
      tl_tma_load_multicast (p.stage_a (s) + p.rank * A_HALF_BYTES, &p.map_a, bar, kt * BK,
                             tl_box_start (tm * BM + p.rank * (BM / 2), p.m), 0x3);
    for (int j = 0; j < BN / B_BOX_COLS; j++)
      tl_tma_load (p.stage_b (s) + j * B_BOX_BYTES, &p.map_b, bar,
                   tl_box_start (tn * BN + j * B_BOX_COLS, p.n, 4), kt * BK);
  }

  // Consumer warp `warp` (0 … 7) owns B's box `warp`: 16 columns of C.
  // Each k-step it loads its fragment of B into registers (fetch), then
  // issues 4 wgmmas (k8 each; A's descriptor moves 32 bytes per step).
  // The fragment of a k-step must stay untouched until its wgmmas have
  // completed, one k-step later: two buffers, alternating (BUFFERS = 2),
  // kept with the fragment offsets in Registers (see the pipeline's
  // header for why apart from the Consumer).
  struct Consumer
  {
    static constexpr int BUFFERS = 2;
    struct Registers
    {
      int off[2][2];          // frag_offsets
      uint32_t f[2][4][4];    // the fragments of even and odd k-steps
    };
    unsigned char *base;
    int warp;
    Registers &r;
    const unsigned char *a;   // this k-step's tile of A

    __device__ __forceinline__ Consumer (unsigned char *base_, int, int tid, Registers &r_)
      : base (base_), warp (threadIdx.x / 32 - 4), r (r_)
    {
      frag_offsets (tid % 32, r.off);
    }

    template <int B>
    __device__ __forceinline__ void
    fetch (int s)
    {
      load_frag (r.f[B], base + s * Cfg::STAGE_BYTES + 2 * Cfg::A_HALF_BYTES + warp * B_BOX_BYTES,
                 r.off);
      a = base + s * Cfg::STAGE_BYTES;
    }

    template <int B>
    __device__ __forceinline__ void
    mma (float (&d)[Cfg::ACC], bool acc)
    {
#pragma unroll
      for (int kk = 0; kk < BK / 8; kk++)
        tl_wgmma_tf32_rs (d, r.f[B][kk], tl_desc_k128 (a + kk * 32), (acc || kk > 0) ? 1 : 0);
    }

    template <int B>
    __device__ __forceinline__ void
    retire ()
    {
      pin_frag (r.f[B]);
    }

    // A split-k slice's partial tile, into the stages (pitch PART_PITCH).
    __device__ __forceinline__ void
    store_part (const float (&d)[Cfg::ACC], float *part)
    {
      store_tile (d, part, Cfg::BM, Cfg::PART_PITCH, 0, warp * B_BOX_COLS);
    }

    __device__ __forceinline__ void
    store (const float (&d)[Cfg::ACC], float *__restrict__ C, int m, int n, int tm, int tn)
    {
      store_tile (d, C, m, n, tm * Cfg::BM, tn * Cfg::BN + warp * B_BOX_COLS);
    }
  };
};

// ---- the kernel -----------------------------------------------------------------

// map_a, map_b: see Pipe13::Producer.  splits > 1 (a split-k plan; CLUSTER
// is 1): clusters of `splits` CTAs along x, one tile each, CTA r the r-th
// slice of k (see rung 14).
template <typename Cfg, int CLUSTER, bool INSTR>
__global__ void __launch_bounds__ (Cfg::THREADS, 1)
gemm_13_wgmma_tf32_kernel (const __grid_constant__ CUtensorMap map_a,
                           const __grid_constant__ CUtensorMap map_b, TlTileSchedule sched, int m,
                           int n, int k, float *__restrict__ C, int splits, int vec_c,
                           TlGpuBlockRecord *records)
{
#if TL_SM90A
  tl_pipe_persistent<Pipe13<Cfg, CLUSTER>, CLUSTER, INSTR> (map_a, map_b, sched, m, n, k, C, splits,
                                                           vec_c, records);
#endif
}

// ---- host side -------------------------------------------------------------------
//
// The launch, its plans and its grid are tl-hopper-launch.cuh's, shared with
// rung 14; these are rung 13's hooks.  TMA reads rows whose pitch is a
// multiple of 16 bytes: odd shapes are padded first, in the timed launch
// (tl_pad_layout, tl_pad_operands in tl-gemm-async.cuh).
struct Host13
{
  static constexpr int RUNG = 13, CLUSTER = 2;   // clusters of two, as rung 14

#define TILE_13(bm, bn, per_sm, eff, max_splits) , Tile13<bm, bn>
  using Tiles = TlTileList<Tile13<256, 128> TL_GEMM_13_TILES (TILE_13)>;
#undef TILE_13

  template <typename Cfg, int CL, bool INSTR>
  static auto
  kernel ()
  {
    return gemm_13_wgmma_tf32_kernel<Cfg, CL, INSTR>;
  }

  static size_t
  workspace (const TlGemmLaunch *l)
  {
    const TlPadLayout L = tl_pad_layout (l);
    return L.a_bytes + L.b_bytes;
  }

  static cudaError_t
  prepare_operands (TlGemmLaunch *)
  {
    return cudaSuccess;   // no pre-pass: the float32 matrices are read as they are
  }

  // map_a: A (m×k fp32), box 32 (k) × BM/2 (m), 128-byte swizzle.  map_b:
  // B (k×n fp32), box 16 (n) × 32 (k), 64-byte swizzle.
  template <typename Cfg>
  static cudaError_t
  operands (const TlGemmLaunch *l, CUtensorMap *map_a, CUtensorMap *map_b, int *k)
  {
    const TlPadLayout L = tl_pad_layout (l);
    const float *a, *b;
    cudaError_t e = tl_pad_operands (l, L, &a, &b);
    if (e != cudaSuccess)
      return e;
    *k = L.kp;
    if (!tl_tensor_map_2d (map_a, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, a, l->m, L.kp, (size_t) L.kp * 4,
                           Cfg::BM / 2, BK, CU_TENSOR_MAP_SWIZZLE_128B)
        || !tl_tensor_map_2d (map_b, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, b, l->k, L.np,
                              (size_t) L.np * 4, BK, B_BOX_COLS, CU_TENSOR_MAP_SWIZZLE_64B))
      return cudaErrorInvalidValue;
    return cudaSuccess;
  }

  static int
  launches (const TlGemmLaunch *l)
  {
    const TlPadLayout L = tl_pad_layout (l);
    return L.pad_a || L.pad_b ? 2 : 1;
  }
};

using Rung13 = TlPersistentRung<Host13>;

} // namespace

extern const TlGemmRung gemm_13_wgmma_tf32_rung = {
  "gemm-13-wgmma-tf32", Rung13::launch, Rung13::shape, Rung13::check, Host13::workspace,
  Rung13::prepare,
};
