// tl-gemm-simt.cuh — the double-buffered CUDA-core ("SIMT") GEMM kernel
// behind rung 16 (float32) and rung 12 (float64).  CUDA C++, internal to
// gpu/gemm/.
//
// C (m×n) = A (m×k) · B (k×n), all row-major, T = float or double.
//
// It is rung 8 (2-D register tiles, 16-byte loads, A transposed in shared
// memory) with the three things rung 8 still leaves on the table:
//
//  1. Two shared-memory buffers.  Rung 8 has one: it waits at a barrier
//     before it may overwrite the tile everybody is reading, and again
//     before it may read the tile just written — two barriers per k-tile,
//     with every warp of the block lined up at each.  Here tile kt+1 is
//     written into the *other* buffer while tile kt is multiplied, so one
//     barrier per k-tile is enough, and it falls where the warps have work
//     left (the last k-step of the tile) to overlap with it.
//
//  2. Register double-buffering of the operands.  At k-step p a thread
//     multiplies the fragments it loaded during step p−1 while the loads for
//     step p+1 are in flight: shared-memory latency (~30 cycles) hides behind
//     TM·TN independent FMAs instead of stalling the first of them.
//
//  3. A warp layout made for 16-byte shared loads.  A warp's 32 lanes form
//     4 rows × 8 columns (lm = lane/8, ln = lane%8).  Each thread owns TM
//     rows and TN columns of C, in groups of V = 16/sizeof(T) neighbours
//     (4 floats or 2 doubles: one LDS.128 each), the groups spread across
//     the warp tile:
//         rows  wm·WM + g·4V + lm·V + 0…V−1     (g < TM/V)
//         cols  wn·WN + g·8V + ln·V + 0…V−1     (g < TN/V)
//     One LDS.128 of B then reads 8 different 16-byte vectors that lie side
//     by side — 128 contiguous bytes, every bank once — and one of A reads
//     4 vectors (64 bytes), each a broadcast to the 8 lanes of its row.
//     (Rung 8's 2×16 layout reads 256 bytes of B per LDS.128.  ncu counts
//     the same number of wavefronts per LDS.128 for both, so the hardware
//     does not reward the narrower footprint; shared memory is not what
//     limits either kernel.)  The
//     stores of C follow the same layout: 8 lanes write 128 contiguous
//     bytes of a row.
//
// What stays from rung 8: global loads are 16-byte LDG into registers
// (issued at the top of the k-tile, stored to shared memory at its end, so
// ~TM·TN·BK FMAs hide their latency); A is stored transposed, As[k][m], so
// that a thread's TM values of A at step k are neighbours; the block-uniform
// choice between an unguarded fast path and a guarded one (edges, k not a
// multiple of BK, misaligned rows); no cp.async — it cannot transpose.
//
// Shared-memory banks, the padding: As rows are BM + V elements long.  The
// loaders write A transposed, one element at a time: thread t holds V
// elements of row t/(BK/V) at k = (t % (BK/V))·V.  With rows of BM elements
// the k-groups of one warp would land in the same banks; BM + V shifts
// them apart (float: 4·(BM+4) ≡ 16 banks; double: 2·(BM+2) doubles ≡ 4
// double-banks, so the half-warp's 16 stores fill all 32 banks) and keeps
// each row 16-byte aligned for the LDS.128 reads.
//
// Indices are 32-bit ints: the harness refuses matrices of 2^31 elements
// or more for our rungs.
//
// Shapes: block THREADS = 32 · (BM/WM) · (BN/WN) threads, warp tile
// WM × WN = 4TM × 8TN, block tile BM × BN, k-tile BK (even, a multiple of
// V).  Grid ⌈n/BN⌉ × ⌈m/BM⌉.  Any m, n, k ≥ 1.
#pragma once

#include "tl-gemm-common.cuh"

#include <stdio.h>
#include <type_traits>

// 16 bytes of T: the unit of every global and shared access on the fast path.
template <typename T> struct TlVec16;
template <> struct TlVec16<float> { using type = float4; };
template <> struct TlVec16<double> { using type = double2; };

template <typename T, int BM_, int BN_, int BK_, int TM_, int TN_>
struct TlSimtTile
{
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
  static constexpr int V = 16 / (int) sizeof (T);  // elements per 16-byte vector
  static constexpr int WM = 4 * TM, WN = 8 * TN;   // warp tile: 4 × 8 lanes
  static constexpr int THREADS = 32 * (BM / WM) * (BN / WN);
  static constexpr int AS = BM + V;                // As row length (padding: see above)
  static constexpr int A_VECS = BM * BK / V / THREADS; // 16-byte loads of A per thread per k-tile
  static constexpr int B_VECS = BK * BN / V / THREADS;
  static_assert (BM % WM == 0 && BN % WN == 0, "warps tile the block");
  static_assert (TM % V == 0 && TN % V == 0 && BK % V == 0 && BK % 2 == 0, "whole vectors");
  static_assert (A_VECS >= 1 && B_VECS >= 1 && A_VECS * V * THREADS == BM * BK
                   && B_VECS * V * THREADS == BK * BN,
                 "every thread loads whole vectors of both tiles");
  static constexpr size_t smem_bytes = 2 * (size_t) BK * (AS + BN) * sizeof (T);
};

// The k-tile a thread carries from global memory to shared memory.
template <typename T, typename Tile>
struct TlSimtStaging
{
  using Vec = typename TlVec16<T>::type;
  Vec a[Tile::A_VECS], b[Tile::B_VECS];
};

// Global → registers, for the k-tile starting at k0.  Thread t's i-th
// vector of A is row (t + i·THREADS) / (BK/V), k-offset ((t + i·THREADS) %
// (BK/V))·V: neighbouring threads read neighbouring 16 bytes of a row.  B
// the same way along its rows.  GUARD: scalar loads, zero outside the
// matrices (any shape, any alignment).
template <typename T, typename Tile, bool GUARD>
__device__ __forceinline__ void
tl_simt_load (TlSimtStaging<T, Tile> &s, const T *__restrict__ a, const T *__restrict__ b, int m,
              int n, int k, int row0, int col0, int k0)
{
  using Vec = typename TlVec16<T>::type;
  constexpr int V = Tile::V, A_PER_ROW = Tile::BK / V, B_PER_ROW = Tile::BN / V;
#pragma unroll
  for (int i = 0; i < Tile::A_VECS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      const int r = row0 + e / A_PER_ROW, kk = k0 + (e % A_PER_ROW) * V;
      if (!GUARD)
        s.a[i] = *reinterpret_cast<const Vec *> (&a[r * k + kk]);
      else
        {
          T *v = reinterpret_cast<T *> (&s.a[i]);
#pragma unroll
          for (int j = 0; j < V; j++)
            v[j] = (r < m && kk + j < k) ? a[r * k + kk + j] : T (0);
        }
    }
#pragma unroll
  for (int i = 0; i < Tile::B_VECS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      const int kk = k0 + e / B_PER_ROW, cc = col0 + (e % B_PER_ROW) * V;
      if (!GUARD)
        s.b[i] = *reinterpret_cast<const Vec *> (&b[kk * n + cc]);
      else
        {
          T *v = reinterpret_cast<T *> (&s.b[i]);
#pragma unroll
          for (int j = 0; j < V; j++)
            v[j] = (kk < k && cc + j < n) ? b[kk * n + cc + j] : T (0);
        }
    }
}

// Registers → shared: A transposed (V scalar stores per vector), B as it is.
template <typename T, typename Tile>
__device__ __forceinline__ void
tl_simt_store (const TlSimtStaging<T, Tile> &s, T *As, T *Bs)
{
  using Vec = typename TlVec16<T>::type;
  constexpr int V = Tile::V, A_PER_ROW = Tile::BK / V, B_PER_ROW = Tile::BN / V;
#pragma unroll
  for (int i = 0; i < Tile::A_VECS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      const int r = e / A_PER_ROW, kk = (e % A_PER_ROW) * V;
      const T *v = reinterpret_cast<const T *> (&s.a[i]);
#pragma unroll
      for (int j = 0; j < V; j++)
        As[(kk + j) * Tile::AS + r] = v[j];
    }
#pragma unroll
  for (int i = 0; i < Tile::B_VECS; i++)
    {
      const int e = threadIdx.x + i * Tile::THREADS;
      *reinterpret_cast<Vec *> (&Bs[(e / B_PER_ROW) * Tile::BN + (e % B_PER_ROW) * V]) = s.b[i];
    }
}

// One block's whole multiply.  As/Bs: two buffers each, [2][BK][AS] and
// [2][BK][BN].
template <typename T, typename Tile, bool GUARD>
__device__ __forceinline__ void
tl_simt_block (int m, int n, int k, const T *__restrict__ a, const T *__restrict__ b,
               T *__restrict__ c, T *As, T *Bs)
{
  using Vec = typename TlVec16<T>::type;
  constexpr int V = Tile::V, TM = Tile::TM, TN = Tile::TN, BK = Tile::BK;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int lm = lane / 8, ln = lane % 8;                       // 4 × 8 lanes
  const int wm = warp / (Tile::BN / Tile::WN), wn = warp % (Tile::BN / Tile::WN);
  const int row0 = blockIdx.y * Tile::BM, col0 = blockIdx.x * Tile::BN;
  // This thread's first row and column inside the block tile; group g of
  // rows starts 4V further down, group g of columns 8V further right.
  const int tr = wm * Tile::WM + lm * V, tc = wn * Tile::WN + ln * V;

  // Operands of A and B for one k-step, twice: [p % 2] is multiplied while
  // [(p + 1) % 2] is being loaded.
  T fa[2][TM], fb[2][TN];
  auto load_fragments = [&] (int buf, int p, int f) {
    const T *as = As + buf * BK * Tile::AS + p * Tile::AS + tr;
    const T *bs = Bs + buf * BK * Tile::BN + p * Tile::BN + tc;
#pragma unroll
    for (int g = 0; g < TM / V; g++)
      *reinterpret_cast<Vec *> (&fa[f][g * V]) = *reinterpret_cast<const Vec *> (as + g * 4 * V);
#pragma unroll
    for (int g = 0; g < TN / V; g++)
      *reinterpret_cast<Vec *> (&fb[f][g * V]) = *reinterpret_cast<const Vec *> (bs + g * 8 * V);
  };

  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      acc[i][j] = T (0);

  const int KT = (k + BK - 1) / BK;
  TlSimtStaging<T, Tile> stage;
  tl_simt_load<T, Tile, GUARD> (stage, a, b, m, n, k, row0, col0, 0);
  tl_simt_store<T, Tile> (stage, As, Bs);
  __syncthreads ();
  load_fragments (0, 0, 0);

  // One k-tile, multiplied out of buffer CUR while the next tile goes into
  // the other one.  CUR is a compile-time 0 or 1 (the loop below calls the
  // tile twice per turn), so every shared-memory address in it is the
  // thread's base plus a constant: LDS and STS with immediate offsets.  With
  // the buffer as a run-time kt & 1, each fragment load recomputed its
  // address: 24 more integer instructions per 512 FFMAs than rung 8.
  auto k_tile = [&] (int kt, auto cur_c) {
    constexpr int cur = decltype (cur_c)::value;
    const bool more = kt + 1 < KT;
    // The next tile's global loads go out first: the whole k-tile of FMAs
    // below runs while they travel.
    if (more)
      tl_simt_load<T, Tile, GUARD> (stage, a, b, m, n, k, row0, col0, (kt + 1) * BK);
#pragma unroll
    for (int p = 0; p < BK; p++)
      {
        if (p == BK - 1 && more)
          {
            // Everybody finished reading buffer cur^1 (tile kt−1) before
            // the previous barrier, so it may be overwritten now; this
            // barrier then publishes it.  The fragments of step BK−1 are
            // already in registers: the FMAs below overlap the wait.
            tl_simt_store<T, Tile> (stage, As + (cur ^ 1) * BK * Tile::AS,
                                    Bs + (cur ^ 1) * BK * Tile::BN);
            __syncthreads ();
          }
        if (p < BK - 1)
          load_fragments (cur, p + 1, (p + 1) % 2);
        else if (more)
          load_fragments (cur ^ 1, 0, 0);
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++)
            acc[i][j] = fma (fa[p % 2][i], fb[p % 2][j], acc[i][j]);
      }
  };
  for (int kt = 0; kt < KT; kt += 2)
    {
      k_tile (kt, std::integral_constant<int, 0> ());
      if (kt + 1 < KT)
        k_tile (kt + 1, std::integral_constant<int, 1> ());
    }

  // Epilogue: every (row, group of V columns) is one 16-byte store; 8 lanes
  // write 128 contiguous bytes of one row.
#pragma unroll
  for (int i = 0; i < TM; i++)
    {
      const int r = row0 + tr + (i / V) * 4 * V + i % V;
#pragma unroll
      for (int g = 0; g < TN / V; g++)
        {
          const int cc = col0 + tc + g * 8 * V;
          if (!GUARD)
            {
              Vec v;
              T *e = reinterpret_cast<T *> (&v);
#pragma unroll
              for (int j = 0; j < V; j++)
                e[j] = acc[i][g * V + j];
              *reinterpret_cast<Vec *> (&c[r * n + cc]) = v;
            }
          else if (r < m)
            {
#pragma unroll
              for (int j = 0; j < V; j++)
                if (cc + j < n)
                  c[r * n + cc + j] = acc[i][g * V + j];
            }
        }
    }
}

// The fast path needs 16-byte aligned rows and whole k-tiles.  Decided once
// per launch on the host; each block then also checks that its tile lies
// inside C (one uniform branch, no divergence).
template <typename T, typename Tile>
static inline bool
tl_simt_vectorizable (const TlGemmLaunch *l)
{
  return tl_aligned16 (l->a) && tl_aligned16 (l->b) && tl_aligned16 (l->c)
         && l->k % Tile::BK == 0 && l->n % Tile::V == 0;
}

// One kernel serves the timed runs (records == nullptr) and the
// instrumented ones: the two then run the very same machine code, and the
// instrumented run pays for the timer alone.  (Two template instances —
// "INSTR" true/false — compiled to different register assignments and
// instruction orders, and that alone moved this kernel's time.)
template <typename T, typename Tile, int MIN_BLOCKS>
__global__ void __launch_bounds__ (Tile::THREADS, MIN_BLOCKS)
tl_simt_kernel (int m, int n, int k, const T *__restrict__ a, const T *__restrict__ b,
                T *__restrict__ c, int vec, TlGpuBlockRecord *records)
{
  extern __shared__ __align__ (16) unsigned char tl_simt_smem[];
  T *As = reinterpret_cast<T *> (tl_simt_smem);
  T *Bs = As + 2 * Tile::BK * Tile::AS;

  unsigned long long t0 = tl_block_begin (records);

  const bool inside = (int) (blockIdx.y + 1) * Tile::BM <= m && (int) (blockIdx.x + 1) * Tile::BN <= n;
  if (vec && inside)
    tl_simt_block<T, Tile, false> (m, n, k, a, b, c, As, Bs);
  else
    tl_simt_block<T, Tile, true> (m, n, k, a, b, c, As, Bs);

  tl_block_end (records, t0, 0);
}

// Host side: grid, launch, the kernel for the launch facts, and the
// shared-memory limit (raised in `prepare` when a tile needs over 48 KB).
template <typename T, typename Tile>
static inline dim3
tl_simt_grid (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, Tile::BN), tl_ceil_div (l->m, Tile::BM));
}

template <typename T, typename Tile, int MIN_BLOCKS>
static cudaError_t
tl_simt_launch (const TlGemmLaunch *l)
{
  tl_simt_kernel<T, Tile, MIN_BLOCKS><<<tl_simt_grid<T, Tile> (l), Tile::THREADS, Tile::smem_bytes,
                                        l->stream>>> (
    l->m, l->n, l->k, (const T *) l->a, (const T *) l->b, (T *) l->c,
    tl_simt_vectorizable<T, Tile> (l), l->blocks);
  return cudaGetLastError ();
}

template <typename T, typename Tile, int MIN_BLOCKS>
static void
tl_simt_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, (const void *) tl_simt_kernel<T, Tile, MIN_BLOCKS>,
                     tl_simt_grid<T, Tile> (l), dim3 (Tile::THREADS), (int) Tile::smem_bytes);
}

template <typename T, typename Tile, int MIN_BLOCKS>
static cudaError_t
tl_simt_prepare (TlGemmLaunch *)
{
  if (Tile::smem_bytes <= 48 * 1024)
    return cudaSuccess;
  return cudaFuncSetAttribute (tl_simt_kernel<T, Tile, MIN_BLOCKS>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, (int) Tile::smem_bytes);
}

// The rung's `check`: the kernel is compiled for one element type.
template <typename T>
static TlGpuStatus
tl_simt_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  const TlGpuDtype want = sizeof (T) == 8 ? TL_GPU_FLOAT64 : TL_GPU_FLOAT32;
  if (l->dtype != want)
    {
      snprintf (why, why_size, "this rung computes in %s only", sizeof (T) == 8 ? "float64" : "float32");
      return TL_GPU_BAD_SHAPE;
    }
  return TL_GPU_OK;
}
