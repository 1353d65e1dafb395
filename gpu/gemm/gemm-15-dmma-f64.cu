// gemm-15-dmma-f64.cu — rung 15: float64 on the FP64 tensor cores (DMMA).
//
// C (m×n) = A (m×k) · B (k×n), float64, all row-major.
//
// What changed from rung 12 (float64 on the CUDA cores): the multiply-adds
// move to the tensor cores.  Since Ampere (A100) the tensor cores also take
// doubles — "DMMA", with full IEEE float64 products and sums, no rounding
// of the inputs as TF32 or BF16 have — and on Hopper they run at twice the
// FP64 CUDA-core rate: 128 DFMA per SM per cycle against 64, ~67 TFLOP/s
// against ~33 on an H100.  This is what cuBLAS DGEMM uses.
//
// The instruction: `mma.sync.aligned.m16n8kKM.row.col.f64` — one warp
// multiplies a 16×KM piece of A by a KM×8 piece of B into a 16×8 piece of
// C held in registers, 4 doubles per lane.  Hopper has KM = 4, 8 and 16,
// each one SASS instruction (DMMA.16x8x4 …), all at the same peak rate;
// Ampere has only m8n8k4 (there a 16×8×KM tile is 2·KM/4 of them).  Who
// holds what — gid = lane/4 (the "group"), tig = lane%4:
//     A fragment  a[h + 2v] = A[gid + 8h][tig + 4v]      h < 2, v < KM/4
//     B fragment  b[v]      = B[tig + 4v][gid]
//     C fragment  c[j + 2h] = C[gid + 8h][2·tig + j]      j < 2
// No wgmma on Hopper takes doubles: mma.sync is the float64 path.
//
// Which KM: one DMMA.16x8x4 keeps the FP64 pipe of its SM quarter busy
// for 16 cycles, but ptxas cannot issue a warp's next DMMA right behind
// it: in the SASS most pairs of DMMAs have a dummy instruction
// (`@!UPT UIADD3`) between them, and the warps wait on those fixed gaps
// ("wait", the largest stall reason) more than on anything else.
// m16n8k8 does the same work in half the DMMAs and half the gaps — what
// cuBLAS DGEMM runs on Hopper.  Its fragments are twice as large, so the
// largest tile (below) keeps only A's fragments double-buffered, and it
// takes k-tiles of 32 so that each tile has four chunks of k8 between
// its barriers.
//
// Tiling: the largest tile is 128×128 of C for 8 warps of 32×64 = 2 × 8
// MMA tiles of 16×8, so a warp's 64 accumulators per lane (128 registers)
// are reused across a k-step: one A fragment feeds 8 MMAs, one B fragment
// 2.  Shared memory feeds the fragments with 8-byte loads; rows are padded
// to BK+4 (A) and BN+4 (B) doubles so that the 16 lanes of each half-warp
// hit 16 different pairs of banks (gid·(BK+4) and tig·(BN+4) step by 4
// doubles modulo 16).
//
// Global → shared: cp.async (rung 9), STAGES k-tiles in flight: while the
// tensor cores work on tile kt, tiles kt+1 … kt+STAGES−1 are on their way,
// so the ~1 µs of DRAM latency hides behind MMAs.  Each k-tile of 32
// moves (128+128)·32 doubles = 64 KB for 524288 MMA-FMAs: at 128 FMA per
// cycle, 16 bytes per SM-cycle from L2 — bandwidth L2 has, but only with
// several tiles in flight.  A thread's copies of a tile lie a fixed number
// of rows apart, so their addresses and which of them fall inside the
// matrix are worked out once, before the loop (TileSource): a copy in the
// loop is an add and a cp.async.  Worked out per copy, as before, the
// address arithmetic took twice as many instructions as the DMMAs.
//
// Registers: the fragments of k-chunk c+1 are loaded while the MMAs of
// chunk c run.  The first version loaded them at the top of each chunk,
// into the registers the previous chunk's MMAs were still reading: each
// warp stalled between chunks.  Now A's fragments alternate between two
// buffers, and each B fragment is reloaded right after the two MMAs that
// read it, so the tensor cores never wait for a shared-memory load.
//
// Bottleneck attacked: the FP64 CUDA cores' peak (rung 12), then the issue
// gaps between DMMAs and the copies' arithmetic.  Left: one CTA of 8 warps
// per SM, whose barriers every k-tile no other CTA covers (cuBLAS runs two
// CTAs of 4 warps per SM); docs/perf/gemm-fp64-h200-2026-11-29.md has the
// profiles.
//
// Plans (gpu/tl-gpu-plan.c; the tiles in tl-gemm-plans.h): 128×128 for
// large products; 192×96 (12 warps of 32×48) for products of about one
// round of tiles — 1536³ is 144 tiles of 128×128 on 132 SMs (two rounds,
// the second of 12) but 128 of 192×96 (one): 89.1% → 98.8% of cuBLAS
// DGEMM on an H200 (docs/perf/gemm-h200-2026-11-30.md);
// 64×128 (4 warps of 32×64), 64×64 (4 warps of 32×32)
// and 32×64 (2 warps of 32×32) when 128×128 tiles would leave SMs idle —
// k-tiles of 16 and m16n8k4 there, which measured faster than k8 for the
// small tiles; 32×32 (4 warps of 16×16, m16n8k16, never split: cuBLAS's
// shape for the smallest products, where a cluster's barriers and the
// exchange of partial tiles cost more than the k they share out); and
// k cut into 2 … 8 slices (any count: 3 CTAs to a tile), one cluster per tile,
// whose partial tiles are summed in a fixed order through distributed
// shared memory (tl-gemm-splitk.cuh) — 512³ is 64 tiles of 64×64 for 132
// SMs.  Large products run their tiles in bands of 8 tile-rows (the CTAs
// in flight share rows of A and columns of B in L2).  A split plan's
// instrumented records name the slice in `launch`.
//
// Any m, n, k: out-of-range copies are issued with src-size 0 (zeros); the
// 16-byte copies need k and n even and aligned pointers, otherwise a
// second instantiation copies 8 bytes at a time.  Only the store of C is
// guarded.  Needs compute capability 8.0 (the registry row refuses older
// GPUs); on Ampere the MMAs run as m8n8k4.
//
// From: seed 003 (the lecture's matrix product is in `double`), with the
// tiling of rung 9 and the fragments of rung 10.
#include "tl-gemm-common.cuh"
#include "tl-gemm-async.cuh"
#include "tl-gemm-splitk.cuh"
#include "tl-gemm-plans.h"

#include <stdio.h>
#include <type_traits>

// Device passes for GPUs older than sm_80 compile the kernels empty, and
// then see some constants unused: keep those passes quiet.
#pragma nv_diag_suppress 177

namespace {

// A CTA tile of BM × BN, k-tiles of BK, STAGES of them in flight, MMAs of
// 16×8×KM, warps of WM × WN outputs (MT × NT MMA tiles each).
template <int BM_, int BN_, int BK_, int STAGES_, int KM_, int WM_ = 32, int WN_ = 64, int MIN_CTAS_ = 1>
struct DmmaTile
{
  static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_, KM = KM_;
  static constexpr int MIN_CTAS = MIN_CTAS_; // CTAs per SM the registers must leave room for
  static constexpr int WARP_M = WM_, WARP_N = WN_, MT = WARP_M / 16, NT = WARP_N / 8;
  static constexpr int THREADS = 32 * (BM / WARP_M) * (BN / WARP_N);
  static constexpr int LDA = BK + 4, LDB = BN + 4;        // padded rows (see the header)
  static constexpr int A_STAGE = BM * LDA, B_STAGE = BK * LDB;  // doubles
  static constexpr size_t smem_bytes = (size_t) STAGES * (A_STAGE + B_STAGE) * sizeof (double);
  // split-k: the partial tile, rows padded by 8 doubles, in the stages
  static constexpr int PART_PITCH = BN + 8;
  static_assert ((size_t) BM * PART_PITCH * sizeof (double) <= smem_bytes, "the partial tile fits");
  static_assert (BK % KM == 0 && (KM == 4 || KM == 8 || KM == 16), "k-tile of whole MMAs");
  static_assert (STAGES >= 3, "the main loop keeps one tile ahead of the one it multiplies");
  static_assert ((BK / KM) % 2 == 0, "fragment buffers alternate: an even number of chunks per tile");
};

// D += A·B for one 16×8×KM tile.  a[h + 2v], b[v], d[j + 2h] as in the header.
template <int KM>
__device__ __forceinline__ void
dmma (double (&d)[4], const double (&a)[KM / 2], const double (&b)[KM / 4])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (KM == 4)
    asm volatile ("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
                  "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                  : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                  : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  else if constexpr (KM == 8)
    asm volatile ("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
                  "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                  : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                  : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
  else
    asm volatile ("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
                  "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, "
                  "{%0,%1,%2,%3};\n"
                  : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                  : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
                    "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // Ampere: the 16×8×KM tile as 2·KM/4 MMAs of 8×8×4 (rows gid and gid+8).
#pragma unroll
  for (int v = 0; v < KM / 4; v++)
    {
      asm volatile ("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                    : "+d"(d[0]), "+d"(d[1]) : "d"(a[2 * v]), "d"(b[v]));
      asm volatile ("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                    : "+d"(d[2]), "+d"(d[3]) : "d"(a[2 * v + 1]), "d"(b[v]));
    }
#endif
}

// cp.async copies of the k-tiles into the stages.  VEC: 16-byte copies
// (two doubles; k, n even and 16-byte aligned bases), else 8-byte ones.
// Consecutive threads copy consecutive pieces of a row; a thread's copies
// of one tile are ROW_STEP rows apart, so where they start is worked out
// once: two pointers that advance by one k-tile per call, and which of
// the thread's A rows and B columns lie inside the matrix.  Inside the
// main loop a copy is then an add, a compare for k (only a partial last
// k-tile fails it) and the cp.async — not a row times a stride each time.
template <typename Tile, bool VEC>
struct TileSource
{
  static constexpr int W = VEC ? 2 : 1; // doubles per copy
  static constexpr int A_PER_ROW = Tile::BK / W, B_PER_ROW = Tile::BN / W;
  static constexpr int A_COPIES = Tile::BM * A_PER_ROW / Tile::THREADS;
  static constexpr int B_COPIES = Tile::BK * B_PER_ROW / Tile::THREADS;
  static constexpr int A_ROW_STEP = Tile::THREADS / A_PER_ROW, B_ROW_STEP = Tile::THREADS / B_PER_ROW;
  static_assert (Tile::THREADS % A_PER_ROW == 0 && Tile::THREADS % B_PER_ROW == 0,
                 "whole rows per round of copies");
  static_assert (A_COPIES * Tile::THREADS == Tile::BM * A_PER_ROW
                   && B_COPIES * Tile::THREADS == Tile::BK * B_PER_ROW,
                 "every thread copies alike");

  const double *A, *B;   // the matrices (the address of a copy that reads nothing)
  const double *a, *b;   // this thread's first source of the next k-tile
  int k, n, k0;          // k0: the next k-tile's first k
  int a_k, b_row;        // the thread's column of A, row of B in a tile
  int a_dst, b_dst;      // … and its first destinations in a stage
  unsigned a_rows_ok;    // bit i: A row of copy i is inside the matrix
  bool b_col_ok;         // the B column is inside the matrix

  __device__ __forceinline__ void
  init (const double *A_, const double *B_, int m, int n_, int k_, int row0, int col0, int kt)
  {
    A = A_, B = B_, k = k_, n = n_, k0 = kt * Tile::BK;
    const int t = threadIdx.x;
    const int a_row = t / A_PER_ROW, b_col = (t % B_PER_ROW) * W;
    a_k = (t % A_PER_ROW) * W;
    b_row = t / B_PER_ROW;
    a_dst = a_row * Tile::LDA + a_k;
    b_dst = b_row * Tile::LDB + b_col;
    a_rows_ok = 0;
#pragma unroll
    for (int i = 0; i < A_COPIES; i++)
      if (row0 + a_row + i * A_ROW_STEP < m)
        a_rows_ok |= 1u << i;
    b_col_ok = col0 + b_col < n;
    a = A + (size_t) min (row0 + a_row, m - 1) * k + k0 + a_k;
    b = B + (size_t) (k0 + b_row) * n + min (col0 + b_col, n - 1);
  }

  // One operand's share of a k-tile: COPIES copies, ROW_STEP rows apart
  // in the source (rows of pitch doubles) and in the stage (rows of LD).
  // inside (i): whether copy i reads the matrix; one that does not reads
  // `nothing` with src-size 0 and leaves zeros.
  template <int COPIES, int ROW_STEP, int LD, typename Inside>
  static __device__ __forceinline__ void
  copy_rows (double *dst, const double *src, int pitch, const double *nothing, Inside inside)
  {
#pragma unroll
    for (int i = 0; i < COPIES; i++)
      {
        const bool ok = inside (i);
        const double *from = ok ? src + (size_t) i * ROW_STEP * pitch : nothing;
        double *to = dst + i * ROW_STEP * LD;
        if (VEC)
          tl_cp_async_16 (to, from, ok);
        else
          tl_cp_async_8 (to, from, ok);
      }
  }

  // The next k-tile into stage (As, Bs).
  __device__ __forceinline__ void
  load_next (double *As, double *Bs)
  {
    const bool a_in = k0 + a_k < k;
    copy_rows<A_COPIES, A_ROW_STEP, Tile::LDA> (As + a_dst, a, k, A, [&] (int i) {
      return a_in && (a_rows_ok >> i & 1u);
    });
    copy_rows<B_COPIES, B_ROW_STEP, Tile::LDB> (Bs + b_dst, b, n, B, [&] (int i) {
      return b_col_ok && k0 + b_row + i * B_ROW_STEP < k;
    });
    a += Tile::BK;
    b += (size_t) Tile::BK * n;
    k0 += Tile::BK;
  }
};

// The fragments of one k-chunk of KM (header: a[h + 2v], b[v]), read from
// a stage with 8-byte loads: A's of one MMA row i, B's of one column j.
template <typename Tile>
__device__ __forceinline__ void
load_a (double (&a)[Tile::MT][Tile::KM / 2], const double *as, int kc)
{
#pragma unroll
  for (int i = 0; i < Tile::MT; i++)
#pragma unroll
    for (int v = 0; v < Tile::KM / 4; v++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        a[i][h + 2 * v] = as[(i * 16 + 8 * h) * Tile::LDA + kc + 4 * v];
}

template <typename Tile>
__device__ __forceinline__ void
load_b (double (&b)[Tile::KM / 4], const double *bs, int kc, int j)
{
#pragma unroll
  for (int v = 0; v < Tile::KM / 4; v++)
    b[v] = bs[(kc + 4 * v) * Tile::LDB + j * 8];
}

// Epilogue: c[j + 2h] = C[gid + 8h][2·tig + j]: a pair of neighbours per
// row, one 16-byte store; the 4 lanes of a group write 64 contiguous bytes.
// (r0, c0): this lane's first element (row gid, column 2·tig of its warp
// tile).  C is the matrix, or for split-k the partial tile in shared
// memory (m = BM, n = its row pitch).
template <typename Tile, bool VEC>
__device__ __forceinline__ void
store_acc (const double (&acc)[Tile::MT][Tile::NT][4], double *C, int m, int n, int r0, int c0)
{
#pragma unroll
  for (int i = 0; i < Tile::MT; i++)
#pragma unroll
    for (int h = 0; h < 2; h++)
      {
        const int r = r0 + i * 16 + 8 * h;
        if (r >= m)
          continue;
#pragma unroll
        for (int j = 0; j < Tile::NT; j++)
          {
            const int cc = c0 + j * 8;
            double *dst = C + (size_t) r * n + cc;
            if (VEC && cc + 1 < n)
              *reinterpret_cast<double2 *> (dst) = make_double2 (acc[i][j][2 * h], acc[i][j][2 * h + 1]);
            else
              {
                if (cc < n)
                  dst[0] = acc[i][j][2 * h];
                if (cc + 1 < n)
                  dst[1] = acc[i][j][2 * h + 1];
              }
          }
      }
}

// The CTA's C tile from its linear index: row order (group 0), or bands
// of `group` tile-rows, down the band first, so that the CTAs in flight
// share rows of A and columns of B in L2 instead of sweeping all of B.
__device__ __forceinline__ void
tile_order (int bid, int tiles_m, int tiles_n, int group, int *tm, int *tn)
{
  if (group <= 0)
    {
      *tm = bid / tiles_n;
      *tn = bid % tiles_n;
      return;
    }
  const int per_band = group * tiles_n, band = bid / per_band, r = bid % per_band;
  const int rows = min (group, tiles_m - band * group);
  *tm = band * group + r % rows;
  *tn = r / rows;
}

// One kernel for the timed runs (records == nullptr) and the instrumented
// ones, so both run the same machine code (see tl-gemm-simt.cuh).
template <typename Tile, bool VEC>
__global__ void __launch_bounds__ (Tile::THREADS, Tile::MIN_CTAS)
gemm_15_dmma_kernel (int m, int n, int k, const double *__restrict__ A,
                     const double *__restrict__ B, double *__restrict__ C, int splits,
                     int group, TlGpuBlockRecord *records)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int KM = Tile::KM, STAGES = Tile::STAGES, CHUNKS = Tile::BK / KM;
  constexpr int WARP_M = Tile::WARP_M, WARP_N = Tile::WARP_N;
  extern __shared__ __align__ (16) double smem15[];
  double *As = smem15;                            // [STAGES][BM][LDA]
  double *Bs = smem15 + STAGES * Tile::A_STAGE;   // [STAGES][BK][LDB]

  unsigned long long t0 = tl_block_begin (records);

  int tm, tn;
  tile_order (blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, group, &tm, &tn);
  const int row0 = tm * Tile::BM, col0 = tn * Tile::BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / (Tile::BN / WARP_N), wn = warp % (Tile::BN / WARP_N);
  const int gid = lane / 4, tig = lane % 4;
  // This lane's first A element (row gid, k tig) and B element (k tig,
  // column gid) inside a stage.
  const int a_off = (wm * WARP_M + gid) * Tile::LDA + tig;
  const int b_off = tig * Tile::LDB + wn * WARP_N + gid;

  double acc[Tile::MT][Tile::NT][4];
#pragma unroll
  for (int i = 0; i < Tile::MT; i++)
#pragma unroll
    for (int j = 0; j < Tile::NT; j++)
#pragma unroll
      for (int e = 0; e < 4; e++)
        acc[i][j][e] = 0.0;

  // This CTA's k-tiles: all of them, or its slice of a split-k plan
  // (blockIdx.z; tl-gemm-splitk.cuh).  Below, kt counts from kt0.
  int kt0, kt1;
  tl_splitk_range ((k + Tile::BK - 1) / Tile::BK, blockIdx.z, splits, &kt0, &kt1);
  const int KT = kt1 - kt0;
  // Prologue: STAGES−1 tiles in flight.  Every thread commits a group per
  // tile, even an empty one, so that the wait counts below always mean
  // the same tiles.
  TileSource<Tile, VEC> src;
  src.init (A, B, m, n, k, row0, col0, kt0);
#pragma unroll
  for (int s = 0; s < STAGES - 1; s++)
    {
      if (s < KT)
        src.load_next (As + s * Tile::A_STAGE, Bs + s * Tile::B_STAGE);
      tl_cp_async_commit ();
    }
  tl_cp_async_wait<STAGES - 2> (); // tile 0 has landed (my copies) …
  __syncthreads ();                 // … and everybody's

  // The main loop is software-pipelined twice over.  Shared memory: tiles
  // kt+1 … kt+STAGES−2 are in flight while tile kt is multiplied.
  // Registers: the fragments of k-chunk c+1 are loaded while the MMAs of
  // chunk c run, across tile boundaries too — A's into a second buffer
  // (fa[0]/fa[1]) at the start of the chunk, each B fragment into its own
  // registers right after the MMAs of its column j have read them.  So
  // the tensor cores never wait for a shared-memory load, and the
  // fragments take 2·MT·KM/2 + NT·KM/4 doubles instead of twice
  // MT·KM/2 + NT·KM/4: what lets a warp run the wider m16n8k8 MMAs
  // (half the instructions of m16n8k4 for the same work) without spilling.
  double fa[2][Tile::MT][KM / 2], fb[Tile::NT][KM / 4];
  load_a<Tile> (fa[0], As + a_off, 0);
#pragma unroll
  for (int j = 0; j < Tile::NT; j++)
    load_b<Tile> (fb[j], Bs + b_off, 0, j);
  for (int kt = 0; kt < KT; kt++)
    {
      const int st = kt % STAGES;
#pragma unroll
      for (int c = 0; c < CHUNKS; c++)
        {
          if (c == CHUNKS - 1)
            {
              // Before the last chunk: make tile kt+1 visible, and refill
              // the stage tile kt−1 used (everybody finished reading it
              // before the previous barrier: its last chunk was loaded
              // during its second-to-last one).
              tl_cp_async_wait<STAGES - 3> ();
              __syncthreads ();
              if (kt + STAGES - 1 < KT)
                src.load_next (As + ((kt + STAGES - 1) % STAGES) * Tile::A_STAGE,
                               Bs + ((kt + STAGES - 1) % STAGES) * Tile::B_STAGE);
              tl_cp_async_commit ();
            }
          // Where chunk c+1 lies: this tile, or the first chunk of the next.
          const bool more = c < CHUNKS - 1 || kt + 1 < KT;
          const int nst = c < CHUNKS - 1 ? st : (kt + 1) % STAGES;
          const int nkc = c < CHUNKS - 1 ? (c + 1) * KM : 0;
          const double *as = As + nst * Tile::A_STAGE + a_off;
          const double *bs = Bs + nst * Tile::B_STAGE + b_off;
          if (more)
            load_a<Tile> (fa[(c + 1) % 2], as, nkc);
#pragma unroll
          for (int j = 0; j < Tile::NT; j++)
            {
#pragma unroll
              for (int i = 0; i < Tile::MT; i++)
                dmma<KM> (acc[i][j], fa[c % 2][i], fb[j]);
              if (more)
                load_b<Tile> (fb[j], bs, nkc, j);
            }
        }
    }
  tl_cp_async_wait<0> ();

  if (splits == 1)
    store_acc<Tile, VEC> (acc, C, m, n, row0 + wm * WARP_M + gid, col0 + wn * WARP_N + 2 * tig);
  else
    {
      // Split-k: the partial tile goes into this CTA's stages (every warp
      // is past its last fragment load), the cluster sums them in slice
      // order (tl-gemm-splitk.cuh).
      __syncthreads ();
      store_acc<Tile, true> (acc, smem15, Tile::BM, Tile::PART_PITCH, wm * WARP_M + gid,
                             wn * WARP_N + 2 * tig);
      tl_splitk_cluster_sync ();
      tl_splitk_sum<double, true> (smem15, Tile::PART_PITCH, Tile::BM, Tile::BN, splits, blockIdx.z, C, m,
                             n, row0, col0, VEC, threadIdx.x, Tile::THREADS);
    }

  tl_block_end (records, t0, blockIdx.z);
  tl_splitk_leave (splits);
#endif
}

bool
use_vec (const TlGemmLaunch *l)
{
  return l->k % 2 == 0 && l->n % 2 == 0 && tl_aligned16 (l->a) && tl_aligned16 (l->b)
         && tl_aligned16 (l->c);
}

template <typename Tile>
dim3
grid_15 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, Tile::BN), tl_ceil_div (l->m, Tile::BM),
               l->plan.splits > 1 ? l->plan.splits : 1);
}

template <typename Tile>
cudaError_t
launch_tile (const TlGemmLaunch *l)
{
  const double *a = (const double *) l->a, *b = (const double *) l->b;
  double *c = (double *) l->c;
  const dim3 grid = grid_15<Tile> (l);
  const dim3 block (Tile::THREADS);
  const int smem = (int) Tile::smem_bytes, splits = (int) grid.z;
  cudaError_t e =
    use_vec (l) ? tl_launch_clustered (gemm_15_dmma_kernel<Tile, true>, grid, block, smem, l->stream,
                                       splits, 2, l->m, l->n, l->k, a, b, c, splits, l->plan.raster,
                                       l->blocks)
                : tl_launch_clustered (gemm_15_dmma_kernel<Tile, false>, grid, block, smem, l->stream,
                                       splits, 2, l->m, l->n, l->k, a, b, c, splits, l->plan.raster,
                                       l->blocks);
  return e != cudaSuccess ? e : cudaGetLastError ();
}

// More than 48 KB of dynamic shared memory must be asked for, per kernel.
template <typename Tile>
cudaError_t
prepare_tile (TlGemmLaunch *)
{
  cudaError_t e = cudaFuncSetAttribute (gemm_15_dmma_kernel<Tile, true>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int) Tile::smem_bytes);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute (gemm_15_dmma_kernel<Tile, false>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, (int) Tile::smem_bytes);
  return e;
}

template <typename Tile>
void
shape_tile (const TlGemmLaunch *l, TlGemmShape *out)
{
  const void *kernel = use_vec (l) ? (const void *) gemm_15_dmma_kernel<Tile, true>
                                   : (const void *) gemm_15_dmma_kernel<Tile, false>;
  tl_gemm_shape_one (out, kernel, grid_15<Tile> (l), dim3 (Tile::THREADS), (int) Tile::smem_bytes);
}

// The kernel of each tile of the plans (tl-gemm-plans.h).  The 128×128
// tile: 8 warps of 32×64, k-tiles of 32, 3 stages, m16n8k8 MMAs.  The
// smaller tiles: k-tiles of 16, 4 stages, m16n8k4 MMAs, in warps of
// 32×32 where a tile is narrower than 128 — more warps for the same
// tile, and each thread issues fewer copies (with warps of 32×64, the
// 64×64 tile's two warps spilled their copy addresses).  Their registers
// are bounded so that an SM holds 8 warps of them (two CTAs of 4 warps,
// four of 2); where shared memory leaves room an SM holds more (64×64:
// three), which the bound does not ask for.  op (Tile ()) for the plan's
// tile; an empty plan runs the largest; `none` for a tile not in the
// list.
//
// The 32×32 tile is cuBLAS's small-product DGEMM shape: 4 warps of 16×16
// (one MMA row, two columns), k-tiles of 32 in 5 stages, m16n8k16 MMAs
// (two a chunk per warp: the widest MMA, fewest issue gaps), and never a
// split of k — at 256³ its 64 CTAs each run all of k, with no cluster
// barrier and no exchange of partial tiles.
//
// The 192×96 tile is for products of about one round of tiles (1536³:
// 144 tiles of 128×128 on 132 SMs make two rounds, the second of 12; 128
// of 192×96 make one): 12 warps of 32×48 (48 accumulators a lane), k-tiles
// of 16 in 4 stages of 43.5 KB, m16n8k4 MMAs (with m16n8k8's larger
// fragments ptxas spilled 44 bytes at the 168 registers 384 threads
// leave; with k4, 168 and no spills).  Rows padded to BK+4 = 20 and
// BN+4 = 100 doubles, both 4 modulo 16, as the header asks.
template <int BM, int BN, int WN = (BN == 128 ? 64 : 32), int WARPS = BM / 32 * (BN / WN)>
using Tile15 = std::conditional_t<
  BM == 192 && BN == 96, DmmaTile<192, 96, 16, 4, 4, 32, 48, 1>,
  std::conditional_t<
    BM * BN >= 128 * 128, DmmaTile<BM, BN, 32, 3, 8, 32, 64, 1>,
    std::conditional_t<BM * BN <= 32 * 32, DmmaTile<BM, BN, 32, 5, 16, 16, 16, 2>,
                       DmmaTile<BM, BN, 16, 4, 4, 32, WN, 8 / WARPS>>>>;

template <typename R, typename Op>
R
with_tile (const TlGemmLaunch *l, R none, Op op)
{
  if (l->plan.tile_m == 0)
    return op (Tile15<128, 128> ());
#define TL_15_TILE(bm, bn, per_sm, eff, max_splits)                                              \
  if (l->plan.tile_m == (bm) && l->plan.tile_n == (bn))                                          \
    return op (Tile15<bm, bn> ());
  TL_GEMM_15_TILES (TL_15_TILE)
#undef TL_15_TILE
  return none;
}

cudaError_t
gemm_15_dmma_f64_launch (const TlGemmLaunch *l)
{
  return with_tile (l, cudaErrorInvalidValue, [&] (auto t) { return launch_tile<decltype (t)> (l); });
}

void
gemm_15_dmma_f64_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  *out = TlGemmShape ();
  with_tile (l, false, [&] (auto t) {
    shape_tile<decltype (t)> (l, out);
    return true;
  });
}

cudaError_t
gemm_15_dmma_f64_prepare (TlGemmLaunch *l)
{
  return with_tile (l, cudaErrorInvalidValue, [&] (auto t) { return prepare_tile<decltype (t)> (l); });
}

TlGpuStatus
gemm_15_dmma_f64_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  if (l->dtype != TL_GPU_FLOAT64)
    {
      snprintf (why, why_size, "rung 15 computes in float64 only (the FP64 tensor cores)");
      return TL_GPU_BAD_SHAPE;
    }
  return TL_GPU_OK;
}

} // namespace

extern const TlGemmRung gemm_15_dmma_f64_rung = {
  "gemm-15-dmma-f64",
  gemm_15_dmma_f64_launch,
  gemm_15_dmma_f64_shape,
  gemm_15_dmma_f64_check,
  nullptr,
  gemm_15_dmma_f64_prepare,
};
