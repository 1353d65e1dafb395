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
// The instruction: `mma.sync.aligned.m16n8k4.row.col.f64` — one warp
// multiplies a 16×4 piece of A by a 4×8 piece of B into a 16×8 piece of C
// held in registers, 4 doubles per lane.  (Hopper's PTX also has m16n8k8
// and m16n8k16 for f64; the kernel is written for any of the three, KM
// below.  Ampere has only m8n8k4: there the k4 shape is two m8n8k4.)  Who
// holds what — gid = lane/4 (the "group"), tig = lane%4:
//     A fragment  a[h + 2v] = A[gid + 8h][tig + 4v]      h < 2, v < KM/4
//     B fragment  b[v]      = B[tig + 4v][gid]
//     C fragment  c[j + 2h] = C[gid + 8h][2·tig + j]      j < 2
// No wgmma on Hopper takes doubles: mma.sync is the float64 path.
//
// Tiling: a block of 8 warps computes 128×128 of C; each warp 32×64 =
// 2 × 8 MMA tiles of 16×8, so its 64 accumulators per lane (128 registers)
// are reused across a k-step: one A fragment feeds 8 MMAs, one B fragment
// 2.  Shared memory feeds the fragments with 8-byte loads; rows are padded
// to BK+4 (A) and BN+4 (B) doubles so that the 16 lanes of each half-warp
// hit 16 different pairs of banks (gid·(BK+4) and tig·(BN+4) step by 4
// doubles modulo 16).
//
// Global → shared: cp.async (rung 9), STAGES k-tiles in flight: while the
// tensor cores work on tile kt, tiles kt+1 … kt+STAGES−1 are on their way,
// so the ~1 µs of DRAM latency hides behind MMAs.  Each k-tile moves
// (128+128)·16 doubles = 32 KB for 262144 MMA-FMAs: at 128 FMA per cycle,
// 16 bytes per SM-cycle from L2 — bandwidth L2 has, but only with several
// tiles in flight.
//
// Registers: the fragments of k-chunk c+1 are loaded while the MMAs of
// chunk c run.  The first version loaded them at the top of each chunk, into
// the registers the previous chunk's MMAs were still reading: each warp
// stalled between chunks and the DMMA pipe sat idle for much of the time.
// Double-buffered, the pipe is busier and the rung clearly faster
// (docs/perf/gemm-rung-notes.md).
//
// Bottleneck attacked: the FP64 CUDA cores' peak (rung 12).  Left: the
// tensor pipe itself and the dependencies between one warp's MMAs, with 8
// warps per SM (docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md: cuBLAS
// keeps its DMMA pipe busier).
//
// Plans (gpu/tl-gpu-plan.c; the tiles in tl-gemm-plans.h): the 128×128
// tile of 8 warps for large products; 64×128 (4 warps, two CTAs per SM)
// and 64×64 (2 warps, three per SM) when 128×128 tiles would leave SMs
// idle; and k cut into 2, 4 or 8 slices, one cluster per tile, whose
// partial tiles are summed in a fixed order through distributed shared
// memory (tl-gemm-splitk.cuh) — 1000×777×1111 is 72 tiles of 128×128 for
// 132 SMs, 512³ only 16.  A split plan's instrumented records name the
// slice in `launch`.
//
// Any m, n, k: out-of-range copies are issued with src-size 0 (zeros); the
// 16-byte copies need k and n even and aligned pointers, otherwise a
// second instantiation copies 8 bytes at a time.  Only the store of C is
// guarded.  Needs compute capability 8.0 (the registry row refuses older
// GPUs); the m16n8k8/k16 shapes need the sm_90 code.
//
// From: seed 003 (the lecture's matrix product is in `double`), with the
// tiling of rung 9 and the fragments of rung 10.
#include "tl-gemm-common.cuh"
#include "tl-gemm-async.cuh"
#include "tl-gemm-splitk.cuh"
#include "tl-gemm-plans.h"

#include <stdio.h>

// Device passes for GPUs older than sm_80 compile the kernels empty, and
// then see some constants unused: keep those passes quiet.
#pragma nv_diag_suppress 177

namespace {

constexpr int WARP_M = 32, WARP_N = 64;  // warp tile: 2 × 8 MMA tiles of 16×8
constexpr int MT = WARP_M / 16, NT = WARP_N / 8;

template <int BM_, int BN_, int BK_, int STAGES_, int KM_>
struct DmmaTile
{
  static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_, KM = KM_;
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

// cp.async copies of k-tile kt into one stage.  VEC: 16-byte copies (two
// doubles; k, n even and 16-byte aligned bases), else 8-byte ones.
template <typename Tile, bool VEC>
__device__ __forceinline__ void
load_tile (double *As, double *Bs, const double *__restrict__ A, const double *__restrict__ B,
           int m, int n, int k, int row0, int col0, int kt)
{
  constexpr int W = VEC ? 2 : 1; // doubles per copy
  const int k0 = kt * Tile::BK;
  // A tile BM×BK: consecutive threads copy consecutive pieces of a row.
#pragma unroll
  for (int i = 0; i < Tile::BM * Tile::BK / W / Tile::THREADS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      const int r = e / (Tile::BK / W), kc = (e % (Tile::BK / W)) * W;
      const bool ok = row0 + r < m && k0 + kc < k;
      const double *src = ok ? A + (row0 + r) * k + k0 + kc : A;
      if (VEC)
        tl_cp_async_16 (As + r * Tile::LDA + kc, src, ok);
      else
        tl_cp_async_8 (As + r * Tile::LDA + kc, src, ok);
    }
  // B tile BK×BN: a warp copies 512 (VEC) or 256 contiguous bytes of a row.
#pragma unroll
  for (int i = 0; i < Tile::BK * Tile::BN / W / Tile::THREADS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      const int r = e / (Tile::BN / W), nc = (e % (Tile::BN / W)) * W;
      const bool ok = k0 + r < k && col0 + nc < n;
      const double *src = ok ? B + (k0 + r) * n + col0 + nc : B;
      if (VEC)
        tl_cp_async_16 (Bs + r * Tile::LDB + nc, src, ok);
      else
        tl_cp_async_8 (Bs + r * Tile::LDB + nc, src, ok);
    }
}

// The A and B fragments of one k-chunk of KM: a[i][h + 2v] and b[j][v]
// (header), read from stage `st` with 8-byte loads.
template <typename Tile>
struct Fragments
{
  double a[MT][Tile::KM / 2], b[NT][Tile::KM / 4];
};

template <typename Tile>
__device__ __forceinline__ void
load_fragments (Fragments<Tile> &f, const double *as, const double *bs, int kc)
{
#pragma unroll
  for (int i = 0; i < MT; i++)
#pragma unroll
    for (int v = 0; v < Tile::KM / 4; v++)
#pragma unroll
      for (int h = 0; h < 2; h++)
        f.a[i][h + 2 * v] = as[(i * 16 + 8 * h) * Tile::LDA + kc + 4 * v];
#pragma unroll
  for (int j = 0; j < NT; j++)
#pragma unroll
    for (int v = 0; v < Tile::KM / 4; v++)
      f.b[j][v] = bs[(kc + 4 * v) * Tile::LDB + j * 8];
}

// Epilogue: c[j + 2h] = C[gid + 8h][2·tig + j]: a pair of neighbours per
// row, one 16-byte store; the 4 lanes of a group write 64 contiguous bytes.
// (r0, c0): this lane's first element (row gid, column 2·tig of its warp
// tile).  C is the matrix, or for split-k the partial tile in shared
// memory (m = BM, n = its row pitch).
template <typename Tile, bool VEC>
__device__ __forceinline__ void
store_acc (const double (&acc)[MT][NT][4], double *C, int m, int n, int r0, int c0)
{
#pragma unroll
  for (int i = 0; i < MT; i++)
#pragma unroll
    for (int h = 0; h < 2; h++)
      {
        const int r = r0 + i * 16 + 8 * h;
        if (r >= m)
          continue;
#pragma unroll
        for (int j = 0; j < NT; j++)
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

// One kernel for the timed runs (records == nullptr) and the instrumented
// ones, so both run the same machine code (see tl-gemm-simt.cuh).
template <typename Tile, bool VEC>
__global__ void __launch_bounds__ (Tile::THREADS, 1)
gemm_15_dmma_kernel (int m, int n, int k, const double *__restrict__ A,
                     const double *__restrict__ B, double *__restrict__ C, int splits,
                     TlGpuBlockRecord *records)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int KM = Tile::KM, STAGES = Tile::STAGES, CHUNKS = Tile::BK / KM;
  extern __shared__ __align__ (16) double smem15[];
  double *As = smem15;                            // [STAGES][BM][LDA]
  double *Bs = smem15 + STAGES * Tile::A_STAGE;   // [STAGES][BK][LDB]

  unsigned long long t0 = tl_block_begin (records);

  const int row0 = blockIdx.y * Tile::BM, col0 = blockIdx.x * Tile::BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / (Tile::BN / WARP_N), wn = warp % (Tile::BN / WARP_N);
  const int gid = lane / 4, tig = lane % 4;
  // This lane's first A element (row gid, k tig) and B element (k tig,
  // column gid) inside a stage.
  const int a_off = (wm * WARP_M + gid) * Tile::LDA + tig;
  const int b_off = tig * Tile::LDB + wn * WARP_N + gid;

  double acc[MT][NT][4];
#pragma unroll
  for (int i = 0; i < MT; i++)
#pragma unroll
    for (int j = 0; j < NT; j++)
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
#pragma unroll
  for (int s = 0; s < STAGES - 1; s++)
    {
      if (s < KT)
        load_tile<Tile, VEC> (As + s * Tile::A_STAGE, Bs + s * Tile::B_STAGE, A, B, m, n, k, row0,
                              col0, kt0 + s);
      tl_cp_async_commit ();
    }
  tl_cp_async_wait<STAGES - 2> (); // tile 0 has landed (my copies) …
  __syncthreads ();                 // … and everybody's

  // The main loop is software-pipelined twice over.  Shared memory: tiles
  // kt+1 … kt+STAGES−2 are in flight while tile kt is multiplied.
  // Registers: the fragments of k-chunk c+1 are loaded while the MMAs of
  // chunk c run (f[0]/f[1]), across tile boundaries too — so the tensor
  // cores never wait for a shared-memory load, only for the MMA before.
  Fragments<Tile> f[2];
  load_fragments<Tile> (f[0], As + a_off, Bs + b_off, 0);
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
              const int next = kt + STAGES - 1;
              if (next < KT)
                load_tile<Tile, VEC> (As + (next % STAGES) * Tile::A_STAGE,
                                      Bs + (next % STAGES) * Tile::B_STAGE, A, B, m, n, k, row0,
                                      col0, kt0 + next);
              tl_cp_async_commit ();
            }
          if (c < CHUNKS - 1)
            load_fragments<Tile> (f[(c + 1) % 2], As + st * Tile::A_STAGE + a_off,
                                  Bs + st * Tile::B_STAGE + b_off, (c + 1) * KM);
          else if (kt + 1 < KT)
            load_fragments<Tile> (f[(c + 1) % 2], As + ((kt + 1) % STAGES) * Tile::A_STAGE + a_off,
                                  Bs + ((kt + 1) % STAGES) * Tile::B_STAGE + b_off, 0);
#pragma unroll
          for (int i = 0; i < MT; i++)
#pragma unroll
            for (int j = 0; j < NT; j++)
              dmma<KM> (acc[i][j], f[c % 2].a[i], f[c % 2].b[j]);
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
      tl_splitk_sum<double> (smem15, Tile::PART_PITCH, Tile::BM, Tile::BN, splits, blockIdx.z, C, m,
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
                                       splits, 2, l->m, l->n, l->k, a, b, c, splits, l->blocks)
                : tl_launch_clustered (gemm_15_dmma_kernel<Tile, false>, grid, block, smem, l->stream,
                                       splits, 2, l->m, l->n, l->k, a, b, c, splits, l->blocks);
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

// The tiles of the plans (tl-gemm-plans.h): k-tile 16, 4 stages, m16n8k4
// DMMAs, warps of 32 × 64.  op (Tile ()) for the plan's tile; an empty
// plan runs the largest; `none` for a tile not in the list.
template <int BM, int BN>
using Tile15 = DmmaTile<BM, BN, 16, 4, 4>;

template <typename R, typename Op>
R
with_tile (const TlGemmLaunch *l, R none, Op op)
{
  if (l->plan.tile_m == 0)
    return op (Tile15<128, 128> ());
#define TL_15_TILE(bm, bn, per_sm, eff, max_splits)                                                          \
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
