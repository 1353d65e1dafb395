// gemm-14-wgmma-persistent.cu — rung 14: rung 11's wgmma + TMA pipeline as
// a *persistent*, clustered kernel.  Built only for sm_90a.  The pipeline
// (tl-hopper-pipeline.cuh) is shared with rungs 11 and 13; this file is
// what rung 14 puts into it: its tiles' copies, wgmmas and stores.
//
// C (m×n, float32) = A (m×k) · B (k×n), inputs float32 converted to BF16 in
// `prepare` (untimed, as for rung 11 and the cuBLAS BF16 reference), fp32
// accumulation, all row-major.  The BF16 operands are those of rung 11:
// A16 m×kp and B16ᵀ n×kp, both K-major, kp = k rounded up to 64.
//
// Rung 11 launches one CTA per 128×256 tile of C, in row order.  Three
// things cost it time, and grow with the problem (its share of cuBLAS's
// rate falls from 4096³ to 8192³, more on an H100, whose DRAM is slower;
// docs/perf/gemm-tensor-cores-h200-2026-11-24.md):
//  1. L2 reuse — the 8192³ drop.  In row order the 132 CTAs of a wave
//     cover ~4 rows of tiles across the *whole* width of C, so every wave
//     reads all of B; at 8192³ B16 is 128 MB, more than twice the L2, and
//     streams from DRAM again and again.  ncu at 8192³ (clocks untouched;
//     docs/perf/gemm-tensor-cores-h100-2026-11-24.md): rung 11 reads
//     several times more from DRAM than cuBLAS, at a lower L2 hit rate and
//     near the DRAM's peak throughput: at this size it is DRAM-bound.  Not
//     the clocks: it ran at higher clocks than cuBLAS.
//  2. Per-tile start-up.  Each new CTA initialises its barriers, then waits
//     a full memory latency for its first stage before the tensor cores
//     start; and the 4-stage pipeline drains at the end of every tile.
//  3. L2 → SM bandwidth.  A 128×256 tile pulls 48 KB per k-step of 64; at
//     the tensor cores' rate that is ~11 TB/s over 132 SMs, close to what
//     the L2 delivers.
// What changes here:
//  1. Persistent CTAs loop over the tiles in *grouped* order (tl-wgmma.cuh:
//     TlTileSchedule): the tiles in flight form a ~2048×2048 block of C,
//     whose A rows and B columns are read from DRAM once and reused from L2
//     by all the CTAs that need them.  At 8192³ that brings the DRAM
//     traffic down to cuBLAS's.
//  2. The producer never stops: while the consumers run the epilogue of
//     tile t, it is already loading the first stages of tile t+1 (the stage
//     ring and its mbarrier phases simply continue across tiles).
//  3. Clusters of two CTAs (template CLUSTER = 2) compute two tiles stacked
//     along m — same columns of B.  Each CTA loads its own A tile and HALF
//     of the shared B tile, multicast into both CTAs' shared memory: 32 KB
//     instead of 48 KB per CTA and k-step leave L2.  The price is a wider
//     handshake: a stage is free only when the consumers of *both* CTAs have
//     released it, so each consumer warp arrives on the "empty" barrier of
//     both CTAs (tl_release_stage).  Against one CTA per cluster it was
//     faster at every size measured, with less DRAM traffic
//     (docs/perf/gemm-rung-notes.md).
//  4. The epilogue stores 16 bytes per thread: one shuffle exchange between
//     neighbouring lanes turns the accumulator's pairs of columns into runs
//     of four, so a warp writes 8 rows × 64 contiguous bytes per instruction
//     (rung 11: 8 rows × 32 bytes, twice the instructions).
// What is left at large sizes: cuBLAS picks the same structure (a
// cooperative 256×128 or 320×128 tile, cluster of 2, 3–4 stages) at the
// same clock; both lose the tile rounds' quantisation (4096³: 512 tiles on
// 132 SMs) and an epilogue in which the tensor cores wait — writing the
// 128 KB of fp32 results of a tile through L1 takes about 1,000 cycles
// while both consumer warpgroups store; cuBLAS's epilogue goes through
// shared memory and TMA instead.  Clusters of four (2 × 2 tiles, A and B
// both multicast) were tried: only 30 fit (120 SMs), and they were slower.
// Numbers and profiles: docs/perf/gemm-tensor-cores-*.md,
// gemm-bf16-h100-2026-11-24.md, gemm-plans-h200.md.
//
// Shapes: block 384 threads = warpgroup 0 (producer: one thread issues TMA)
// + warpgroups 1, 2 (consumers: rows 0–63 and 64–127 of the 128×256 tile,
// one m64n256k16 wgmma per k16, 128 fp32 accumulators per thread).  Shared
// memory: 4 stages × (A 128×64 + B 256×64) BF16 = 192 KB: one CTA per SM.
// Grid: at most as many clusters as the GPU holds at once (66 × 2 CTAs on
// an H100), fewer when that finishes in the same number of rounds with
// every cluster equally loaded (tl_persistent_clusters: 64 × 2 at 4096³).
//
// Plans (gpu/tl-gpu-plan.c): the pairs above, or — when the tiles are too
// few for the SMs (512³ is 8 tiles) — k cut into 2, 4 or 8 slices, one
// cluster of that many CTAs per tile (no multicast, no persistence: one
// tile each), whose partial tiles are summed in a fixed order through
// distributed shared memory (tl-gemm-splitk.cuh).  And smaller tiles
// (Tile14, tl-gemm-plans.h): 128×128 — the two consumer warpgroups issue
// m64n128k16, 64 accumulators each — and 64×128, one consumer warpgroup.
// They give a small product more CTAs before k has to be cut (512³: 32
// tiles of 64×128 instead of 8), at the price of less reuse per operand
// byte; with fewer registers to feed they need no setmaxnreg, and their
// smaller stages let the ring grow to 7 and 8 deep.  Smaller still:
// 128×64 (two consumer warpgroups issuing m64n64k16; its pairs sit side by
// side along n and multicast A, the larger operand tile, instead of B),
// 64×64 and 64×32 (one consumer, m64n64k16 and m64n32k16).  At 256³–512³
// a product is one wave, and its time is mostly what no arithmetic hides:
// the launch, one SM taking in its rows of A and columns of B, the first
// wgmma's wait, the stores.
// Thin tiles spread those bytes over more SMs (512³: 128 CTAs of 64×32
// instead of 32 of 64×128), at the price of reuse the small end does not
// need.  As in rung 13, the producer prefetches both tensor maps before
// its first copy.
//
// Between the two ends, products of about one round of tiles (1536³:
// 72 tiles of 128×256 leave 60 SMs idle, 144 of 128×128 take two rounds
// on 132 SMs) get a tile of three consumer warpgroups: 192×96 (each
// warpgroup issues m64n96k16, 48 accumulators a thread; 512 threads a
// CTA, 6 stages of 36 KB).  It reuses each operand byte as much as
// 128×128 does (192·96 / (192 + 96) = 64 outputs per element loaded), and
// cuts 1536³ into 128 tiles, one round on 128 SMs with every CTA doing
// the same work — the tile cuBLAS's own kernel for that size names
// (nvjet …192x96…, in ncu: docs/perf/gemm-h200-2026-11-29-evening.md).
// Taller than wide, its pairs sit side by side along n and multicast A.
// Without it, a CTA of 128×256 does twice that work while the idle SMs
// wait, and persistence has nothing to overlap.
//
// Instrumented variant: one record per C tile (see tl-wgmma.cuh), not per
// CTA — a persistent CTA lives for the whole launch; a split plan writes
// one per tile and slice (`launch` = the slice).
//
// Without an sm_90a build or on another GPU, check() refuses: "needs a
// Hopper GPU (compute capability 9.0) and an sm_90a build".
//
// Seed: none.  The structure follows CUTLASS's sm90 warp-specialised
// persistent kernels and the public "fast.cu" H100 worklog; the code is
// our own.
#include "tl-gemm-rung.h"
#include "tl-gemm-common.cuh"
#include "tl-hopper-pipeline.cuh"
#include "tl-hopper-launch.cuh"
#include "tl-gemm-plans.h"

// The sm_90 (non-"a") and host passes see the wgmma helpers unused.
#pragma nv_diag_suppress 177

namespace {

constexpr int BK = 64;   // BK × 2 bytes = one 128-byte swizzle row

// One tile of the plans (tl-gemm-plans.h): BM_ × BN_ of C, one consumer
// warpgroup per 64 rows (one, two or three), each issuing m64nBN_k16
// wgmmas (BN_ = 256, 128, 96, 64 or 32: BN_/2 accumulators per thread).  The largest tile, 128 × 256,
// keeps the 4 stages it was tuned with; the smaller ones take as many
// stages as the shared memory holds, up to 8.
template <int BM_, int BN_>
struct Tile14
{
  static constexpr int BM = BM_, BN = BN_;
  static constexpr int CONSUMERS = BM / 64;          // consumer warpgroups, 64 rows of C each
  static constexpr int CONSUMER_THREADS = 128 * CONSUMERS;
  static constexpr int THREADS = 128 * (CONSUMERS + 1);
  static constexpr int ACC = BN / 2;                 // fp32 accumulators per consumer thread
  static constexpr int A_BYTES = BM * BK * 2;        // 16 KB for 128 rows
  // A pair of CTAs shares the larger of its two operand tiles: B's (two
  // tiles stacked along m) unless the tile is taller than wide — 128 × 64
  // — where the pair sits side by side along n and shares A's rows, each
  // CTA bringing half of them (so A's box is half a tile tall).
  static constexpr bool SHARE_A = BM > BN;
  static constexpr int A_BOX_ROWS = SHARE_A ? BM / 2 : BM;
  static constexpr int B_HALF_BYTES = BN / 2 * BK * 2; // one TMA box of BN/2 rows
  static constexpr int STAGE_BYTES = A_BYTES + 2 * B_HALF_BYTES;   // 48 KB for 128 × 256
  static constexpr int STAGES = BN == 256 ? 4 : tl_stages_that_fit (STAGE_BYTES);
  static constexpr int SMEM = STAGES * STAGE_BYTES + 1024;   // + slack to align to 1024
  static constexpr int PART_PITCH = BN + 16;  // split-k: the partial tile's rows, padded (in the stages)
  static_assert (BM * PART_PITCH * 4 <= STAGES * STAGE_BYTES, "the partial tile fits the stages");
  static_assert ((BM == 64 || BM == 128 || BM == 192)
                   && (BN == 32 || BN == 64 || BN == 96 || BN == 128 || BN == 256),
                 "a tile rung 14 builds");
};

// ---- the wgmmas of the tiles ------------------------------------------------
//
// m64n256k16 (the largest tile) is tl-wgmma.cuh's, shared with rung 11.
// n = 128: d (64×128 per warpgroup, 64 accumulators per thread) += A
// (64×16) · B (16×128), both from shared memory.
__device__ __forceinline__ void
tl_wgmma_m64n128k16_bf16 (float (&d)[64], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %66, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " TL_ACC64_TEXT
                ", %64, %65, p, 1, 1, 0, 0;\n"
                "}\n"
                : TL_ACC64 (d)
                : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

// n = 64 and n = 32 (32 and 16 accumulators per thread): the tiles that
// give a small product many CTAs, each with little to load.
__device__ __forceinline__ void
tl_wgmma_m64n64k16_bf16 (float (&d)[32], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %34, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " TL_ACC32_TEXT
                ", %32, %33, p, 1, 1, 0, 0;\n"
                "}\n"
                : TL_ACC32 (d, 0)
                : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

__device__ __forceinline__ void
tl_wgmma_m64n32k16_bf16 (float (&d)[16], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %18, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 " TL_ACC16_TEXT
                ", %16, %17, p, 1, 1, 0, 0;\n"
                "}\n"
                : TL_ACC16 (d, 0)
                : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

// n = 96 (48 accumulators per thread): the 192 × 96 tile's three consumer
// warpgroups.  Its operand list is m64n128's first 48.
#define TL_ACC48(d) TL_ACC32 (d, 0), TL_ACC16 (d, 32)
#define TL_ACC48_TEXT                                                                         \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                  \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "         \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47}"

__device__ __forceinline__ void
tl_wgmma_m64n96k16_bf16 (float (&d)[48], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
#if TL_SM90A
  asm volatile ("{\n"
                ".reg .pred p;\n"
                "setp.ne.b32 p, %50, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n96k16.f32.bf16.bf16 " TL_ACC48_TEXT
                ", %48, %49, p, 1, 1, 0, 0;\n"
                "}\n"
                : TL_ACC48 (d)
                : "l"(desc_a), "l"(desc_b), "r"(scale_d));
#endif
}

// All under one name: the accumulators' count picks the instruction.
__device__ __forceinline__ void
tl_wgmma_bf16 (float (&d)[128], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n256k16_bf16 (d, desc_a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_bf16 (float (&d)[64], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n128k16_bf16 (d, desc_a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_bf16 (float (&d)[48], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n96k16_bf16 (d, desc_a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_bf16 (float (&d)[32], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n64k16_bf16 (d, desc_a, desc_b, scale_d);
}

__device__ __forceinline__ void
tl_wgmma_bf16 (float (&d)[16], uint64_t desc_a, uint64_t desc_b, int scale_d)
{
  tl_wgmma_m64n32k16_bf16 (d, desc_a, desc_b, scale_d);
}

// ---- the epilogue ------------------------------------------------------------
//
// wgmma's accumulator layout: warp w of the warpgroup owns rows 16w … 16w+15
// of its 64; lane l = 4g + t holds, for each 8-column group i, the pairs
// (row g, cols 8i + 2t + {0,1}) in d[4i + {0,1}] and the same for row g+8 in
// d[4i + {2,3}].  Take two groups i = 2p, 2p+1: the four lanes of a row hold
// its 16 columns as pairs.  One exchange with the neighbouring lane (t^1)
// regroups them into runs of four: even lanes keep group 2p and take the
// odd neighbour's pair of that group, odd lanes the reverse.  Lane t then
// holds columns 16p + 8(t&1) + 4(t>>1) … +3: one 16-byte store.
template <int ACC>
__device__ __forceinline__ void
store_tile (const float (&d)[ACC], float *__restrict__ C, int m, int n, int row0, int col0)
{
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const bool odd = t & 1;
  const bool vec = (n % 4) == 0;       // rows start on 16-byte boundaries
#pragma unroll
  for (int h = 0; h < 2; h++)
    {
      const int r = row0 + g + 8 * h;
      float *crow = C + (size_t) r * n;
#pragma unroll
      for (int p = 0; p < ACC / 8; p++)
        {
          const float x0 = d[8 * p + 2 * h], x1 = d[8 * p + 2 * h + 1];      // group 2p
          const float x2 = d[8 * p + 4 + 2 * h], x3 = d[8 * p + 4 + 2 * h + 1]; // group 2p+1
          const float r0 = __shfl_xor_sync (0xffffffffu, odd ? x0 : x2, 1);
          const float r1 = __shfl_xor_sync (0xffffffffu, odd ? x1 : x3, 1);
          const float4 v = odd ? make_float4 (r0, r1, x2, x3) : make_float4 (x0, x1, r0, r1);
          const int c = col0 + 16 * p + 8 * (t & 1) + 4 * (t >> 1);
          if (r >= m)
            continue;
          if (vec && c < n)
            *reinterpret_cast<float4 *> (crow + c) = v;
          else if (!vec)
            {
              if (c < n) crow[c] = v.x;
              if (c + 1 < n) crow[c + 1] = v.y;
              if (c + 2 < n) crow[c + 2] = v.z;
              if (c + 3 < n) crow[c + 3] = v.w;
            }
        }
    }
}

// ---- the pipeline's hooks ----------------------------------------------------------
//
// The producer/consumer pipeline itself — the stage ring, its mbarrier
// phases, the producer's loop, the consumers' wait → wgmma → release loop,
// the persistent tile loop and the split-k sum — is tl-hopper-pipeline.cuh's
// (read it first).  What rung 14 adds is below: what a stage holds and how
// it gets there, how its wgmmas read it, how a tile is stored.
//
// A stage: A's BM × 64 tile, then B's BN × 64 tile (two boxes of BN/2 rows),
// both BF16 in the 128-byte swizzled layout.
template <typename Cfg_, int CLUSTER>
struct Pipe14
{
  using Cfg = Cfg_;
  static constexpr int BK = ::BK;

  // map_a: A16, m×kp, box 64 (k) × BM (m), or half that for a tile whose
  // pairs share A.  map_b: B16ᵀ, n×kp, box 64 × BN/2 (half a B tile).
  // The producer's context (the maps, the stages, C's size, the rank) is
  // tl-hopper-pipeline.cuh's TlPipeProducer.
  static constexpr int A_BYTES = Cfg::A_BYTES;   // A's tile in a stage; B's follows
  using Producer = TlPipeProducer<Cfg::STAGE_BYTES, A_BYTES>;

  // The copies of k-step kt of tile (tm, tn) into stage s.  Boxes that
  // start outside C (the missing second tile of a unit, the right half of
  // a B tile when n is small) are moved inside: what they bring only
  // feeds outputs nobody stores.
  static __device__ __forceinline__ void
  load (const Producer &p, int s, uint64_t *bar, int kt, int tm, int tn)
  {
    constexpr int BM = Cfg::BM, BN = Cfg::BN, B_HALF_BYTES = Cfg::B_HALF_BYTES;
    constexpr int A_BOX_ROWS = Cfg::A_BOX_ROWS, A_BOX_BYTES = A_BOX_ROWS * BK * 2;
    if (Cfg::SHARE_A && CLUSTER > 1) // both CTAs share tm: each brings half of A, to both
      tl_tma_load_multicast (p.stage_a (s) + p.rank * A_BOX_BYTES, &p.map_a, bar, kt * BK,
                             tl_box_start (tm * BM + p.rank * A_BOX_ROWS, p.m), 0x3);
    else
      for (int box = 0; box < BM / A_BOX_ROWS; box++)
        tl_tma_load (p.stage_a (s) + box * A_BOX_BYTES, &p.map_a, bar, kt * BK,
                     tl_box_start (tm * BM + box * A_BOX_ROWS, p.m));
    if (CLUSTER == 1 || Cfg::SHARE_A)
      for (int half = 0; half < 2; half++)
        tl_tma_load (p.stage_b (s) + half * B_HALF_BYTES, &p.map_b, bar, kt * BK,
                     tl_box_start (tn * BN + half * (BN / 2), p.n));
    else // both CTAs share tn: each brings half of B, to both
      tl_tma_load_multicast (p.stage_b (s) + p.rank * B_HALF_BYTES, &p.map_b, bar, kt * BK,
                             tl_box_start (tn * BN + p.rank * (BN / 2), p.n), 0x3);
  }

  // Consumer warpgroup cw computes rows cw*64 … cw*64+63 of the tile; both
  // operands stay in shared memory.
  struct Consumer : TlSmemOperands
  {
    unsigned char *base;
    int cw, warp;
    const unsigned char *a, *b;   // this k-step's tiles: our 64 rows of A, all of B

    __device__ __forceinline__ Consumer (unsigned char *base_, int wg, int tid, Registers &)
      : base (base_), cw (wg - 1), warp (tid / 32)
    {
    }

    template <int B>
    __device__ __forceinline__ void
    fetch (int s)
    {
      a = base + s * Cfg::STAGE_BYTES + cw * 64 * BK * 2;
      b = base + s * Cfg::STAGE_BYTES + Cfg::A_BYTES;
    }

    // Four k16 steps across the 128-byte swizzled rows: the descriptors'
    // start address moves by 32 bytes.  The first wgmma of a tile runs with
    // scale-d = 0 (d = A·B): no zero-fill, and the previous tile's values
    // need no clearing.
    template <int B>
    __device__ __forceinline__ void
    mma (float (&d)[Cfg::ACC], bool acc)
    {
#pragma unroll
      for (int kk = 0; kk < BK / 16; kk++)
        tl_wgmma_bf16 (d, tl_desc_k128 (a + kk * 32), tl_desc_k128 (b + kk * 32),
                       (acc || kk > 0) ? 1 : 0);
    }

    // A split-k slice's partial tile, into the stages (pitch PART_PITCH).
    __device__ __forceinline__ void
    store_part (const float (&d)[Cfg::ACC], float *part)
    {
      store_tile (d, part, Cfg::BM, Cfg::PART_PITCH, cw * 64 + warp * 16, 0);
    }

    __device__ __forceinline__ void
    store (const float (&d)[Cfg::ACC], float *__restrict__ C, int m, int n, int tm, int tn)
    {
      store_tile (d, C, m, n, tm * Cfg::BM + cw * 64 + warp * 16, tn * Cfg::BN);
    }
  };
};

// ---- the kernel -----------------------------------------------------------------

// map_a, map_b: see Pipe14::Producer.  sched: the tiles in grouped order,
// in units of CLUSTER tiles.  splits > 1 (a split-k plan; CLUSTER is 1):
// the grid's clusters of `splits` CTAs along x each take one tile, CTA r
// of a cluster the r-th slice of k, and the cluster sums its partial tiles
// (tl-gemm-splitk.cuh).
template <typename Cfg, int CLUSTER, bool INSTR>
__global__ void __launch_bounds__ (Cfg::THREADS, 1)
gemm_14_wgmma_persistent_kernel (const __grid_constant__ CUtensorMap map_a,
                                 const __grid_constant__ CUtensorMap map_b, TlTileSchedule sched,
                                 int m, int n, int kp, float *__restrict__ C, int splits, int vec_c,
                                 TlGpuBlockRecord *records)
{
#if TL_SM90A
  tl_pipe_persistent<Pipe14<Cfg, CLUSTER>, CLUSTER, INSTR> (map_a, map_b, sched, m, n, kp, C, splits,
                                                           vec_c, records);
#endif
}

// ---- host side -----------------------------------------------------------------------
//
// The launch, its plans and its grid are tl-hopper-launch.cuh's, shared with
// rung 13; these are rung 14's hooks.
struct Host14
{
  // The configuration the ladder runs: clusters of two, balanced grid
  // (measured against one CTA per cluster and against a grid of every SM
  // in docs/perf/gemm-tensor-cores-*.md).
  static constexpr int RUNG = 14, CLUSTER = 2;

#define TILE_14(bm, bn, per_sm, eff, max_splits) , Tile14<bm, bn>
  using Tiles = TlTileList<Tile14<128, 256> TL_GEMM_14_TILES (TILE_14)>;
#undef TILE_14

  template <typename Cfg, int CL, bool INSTR>
  static auto
  kernel ()
  {
    return gemm_14_wgmma_persistent_kernel<Cfg, CL, INSTR>;
  }

  // The BF16 operands in the workspace: A16 (m×kp) at 0, B16ᵀ (n×kp) at
  // a_bytes (a multiple of 1024).
  struct Layout
  {
    int kp;
    size_t a_bytes, b_bytes;
  };

  static Layout
  layout (const TlGemmLaunch *l)
  {
    Layout L;
    L.kp = (int) tl_round_up_size (l->k, 64);   // 128-byte rows: every TMA box row is one aligned line
    L.a_bytes = tl_round_up_size ((size_t) l->m * L.kp * 2, 1024);
    L.b_bytes = tl_round_up_size ((size_t) l->n * L.kp * 2, 1024);
    return L;
  }

  static size_t
  workspace (const TlGemmLaunch *l)
  {
    const Layout L = layout (l);
    return L.a_bytes + L.b_bytes;
  }

  // The BF16 pre-pass of rung 11 (A → m×kp, B → Bᵀ n×kp), untimed.
  static cudaError_t
  prepare_operands (TlGemmLaunch *l)
  {
    const Layout L = layout (l);
    if (l->workspace == nullptr || l->workspace_bytes < L.a_bytes + L.b_bytes)
      return cudaErrorInvalidValue;
    __nv_bfloat16 *a16 = (__nv_bfloat16 *) l->workspace;
    __nv_bfloat16 *b16 = (__nv_bfloat16 *) ((char *) l->workspace + L.a_bytes);
    cudaError_t e = tl_bf16_convert ((const float *) l->a, l->m, l->k, a16, l->m, L.kp, false,
                                     l->stream);
    if (e != cudaSuccess)
      return e;
    return tl_bf16_convert ((const float *) l->b, l->k, l->n, b16, l->n, L.kp, true, l->stream);
  }

  // map_a: A16, box 64 (k) × A_BOX_ROWS (m).  map_b: B16ᵀ, box 64 × BN/2
  // (half a B tile).  Both 128-byte swizzled.
  template <typename Cfg>
  static cudaError_t
  operands (const TlGemmLaunch *l, CUtensorMap *map_a, CUtensorMap *map_b, int *k)
  {
    const Layout L = layout (l);
    if (l->workspace == nullptr || l->workspace_bytes < L.a_bytes + L.b_bytes)
      return cudaErrorInvalidValue;
    const __nv_bfloat16 *a16 = (const __nv_bfloat16 *) l->workspace;
    const __nv_bfloat16 *b16 = (const __nv_bfloat16 *) ((const char *) l->workspace + L.a_bytes);
    *k = L.kp;
    if (!tl_tensor_map_2d (map_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, a16, l->m, L.kp,
                           (size_t) L.kp * 2, Cfg::A_BOX_ROWS, BK, CU_TENSOR_MAP_SWIZZLE_128B)
        || !tl_tensor_map_2d (map_b, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, b16, l->n, L.kp,
                              (size_t) L.kp * 2, Cfg::BN / 2, BK, CU_TENSOR_MAP_SWIZZLE_128B))
      return cudaErrorInvalidValue;
    return cudaSuccess;
  }

  static int
  launches (const TlGemmLaunch *)
  {
    return 1;   // the BF16 conversion runs in prepare, untimed
  }
};

using Rung14 = TlPersistentRung<Host14>;

} // namespace

extern const TlGemmRung gemm_14_wgmma_persistent_rung = {
  "gemm-14-wgmma-persistent", Rung14::launch, Rung14::shape, Rung14::check, Host14::workspace,
  Rung14::prepare,
};
