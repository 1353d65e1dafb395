// gemm-05-seed3k.cu — rung 5: the seed 004 report's three-kernel scheme.
//
// What changed from rung 4: 32×32 tiles as before, but a block has only
// 32×4 = 128 threads, and each thread computes 8 outputs of C (rows
// ty, ty+4, …, ty+28 of the tile, column tx).  And edges are no longer
// guarded everywhere: the work is split over three kernels (seed 004 §2.3,
// Abbildung 1):
//
//     launch 0  "interior"  — the full 32×32 tiles of C (⌊m/32⌋ × ⌊n/32⌋),
//                             the full k-steps (⌊k/32⌋): no bounds checks
//                             at all, no zero padding;
//     launch 1  "last k"    — the same tiles, the last partial k-step
//                             (only when 32 ∤ k): guarded loads, adds to C;
//     launch 2  "margins"   — the bottom row and right column of partial
//                             tiles, everything guarded.
//
//     ┌───────────────┬──┐
//     │  0 (+1)       │2 │    As the report says: once matrices are large
//     │               │  │    enough, the fast unguarded kernel decides the
//     ├───────────────┼──┤    run time.
//     │      2        │2 │
//     └───────────────┴──┘
//
// Bottleneck attacked: instruction overhead.  Rung 4 spends instructions
// on bounds checks in every load of every round; here the interior, which
// is nearly all of a large product, runs without a single check.  And a
// block has 128 threads instead of 1024: smaller scheduling units (more
// blocks per SM, a finer last wave), each thread with 8 independent sums in
// registers.  Each FMA still reads two shared-memory words — the next rungs
// attack that.
// From: seed 004, appendix C.1 (`mm`, `mm_last`, `mm_guarded`; NTHREADS
// 128, BLOCKW 32, BLOCKH 4, ITER 8).  Differences from the seed, on purpose:
//   - the seed keeps the 8 running sums in a third shared array `temp`;
//     here they live in registers (same scheme, 4 KiB less shared memory);
//   - the seed launches the interior in grids of 2×2 blocks from a host
//     loop (many tiny launches); here each of the three parts is one launch;
//   - the seed's `load` reads floats into an `int val` — truncating every
//     element to an integer; here the element type is kept.
// float32 only (the report's type).
//
// Shapes: A m×k, B k×n, C m×n row-major.  Block 32×4 threads.  Launch 0
// and 1: grid ⌊n/32⌋ × ⌊m/32⌋.  Launch 2: a 1-D grid of the margin tiles.
// Any m, n, k ≥ 1 (for m < 32 or n < 32 only the margin kernel runs).
#include "tl-gemm-common.cuh"

enum
{
  BW = 32,      // tile width (BLOCKW)
  BH = 4,       // threads in y (BLOCKH)
  ITER = 8,     // outputs per thread: BW / BH
};

// One round: the 32×32 tiles are in shared memory; each thread adds the
// 32-long dot products for its 8 outputs.  rows[r][p] is a broadcast across
// the warp (all 32 threads share ty), cols[p][tx] 32 neighbouring words.
__device__ __forceinline__ void
mult (float (&acc)[ITER], const float (*rows)[BW], const float (*cols)[BW], int tx, int ty)
{
#pragma unroll
  for (int i = 0; i < ITER; i++)
    {
      float sum = 0.0f;
#pragma unroll
      for (int p = 0; p < BW; p++)
        sum += rows[ty + i * BH][p] * cols[p][tx];
      acc[i] += sum;
    }
}

// Launch 0: full tiles, full k-steps — not a single bounds check.
template <bool INSTR>
__global__ void __launch_bounds__ (BW * BH, 6)
gemm_05_interior_kernel (int m, int n, int k, const float *a, const float *b, float *c,
                         TlGpuBlockRecord *records)
{
  __shared__ float rows[BW][BW]; // A tile
  __shared__ float cols[BW][BW]; // B tile
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x, y = blockIdx.y; // tile coordinates in C
  float acc[ITER] = {};
  const int rounds = k / BW;
  for (int r = 0; r < rounds; r++)
    {
#pragma unroll
      for (int i = 0; i < ITER; i++)
        {
          rows[ty + i * BH][tx] = a[(y * BW + ty + i * BH) * k + r * BW + tx];
          cols[ty + i * BH][tx] = b[(r * BW + ty + i * BH) * n + x * BW + tx];
        }
      __syncthreads ();
      mult (acc, rows, cols, tx, ty);
      __syncthreads ();
    }
#pragma unroll
  for (int i = 0; i < ITER; i++)
    c[(y * BW + ty + i * BH) * n + x * BW + tx] = acc[i];

  if (INSTR)
    tl_block_end (records, t0, 0);
}

// Launch 1: the same tiles, the last partial k-step: reads C back, adds.
template <bool INSTR>
__global__ void __launch_bounds__ (BW * BH, 6)
gemm_05_last_kernel (int m, int n, int k, const float *a, const float *b, float *c,
                     TlGpuBlockRecord *records)
{
  __shared__ float rows[BW][BW];
  __shared__ float cols[BW][BW];
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x, y = blockIdx.y;
  const int kk = (k / BW) * BW; // first k of the partial step
  float acc[ITER];
#pragma unroll
  for (int i = 0; i < ITER; i++)
    {
      acc[i] = c[(y * BW + ty + i * BH) * n + x * BW + tx];
      // Only k is guarded: the tile itself lies inside C.
      rows[ty + i * BH][tx] = (kk + tx < k) ? a[(y * BW + ty + i * BH) * k + kk + tx] : 0.0f;
      cols[ty + i * BH][tx] = (kk + ty + i * BH < k) ? b[(kk + ty + i * BH) * n + x * BW + tx] : 0.0f;
    }
  __syncthreads ();
  mult (acc, rows, cols, tx, ty);
#pragma unroll
  for (int i = 0; i < ITER; i++)
    c[(y * BW + ty + i * BH) * n + x * BW + tx] = acc[i];

  if (INSTR)
    tl_block_end (records, t0, 1);
}

// Launch 2: the margin tiles, every access guarded.  Block b < bottom
// walks the bottom row of tiles (when 32 ∤ m), the rest the right column
// (when 32 ∤ n) above it.
template <bool INSTR>
__global__ void __launch_bounds__ (BW * BH, 6)
gemm_05_margin_kernel (int m, int n, int k, const float *a, const float *b, float *c,
                       TlGpuBlockRecord *records)
{
  __shared__ float rows[BW][BW];
  __shared__ float cols[BW][BW];
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bottom = (m % BW) ? (n + BW - 1) / BW : 0;
  int x, y;
  if ((int) blockIdx.x < bottom)
    {
      x = blockIdx.x;
      y = m / BW;
    }
  else
    {
      x = n / BW;
      y = blockIdx.x - bottom;
    }
  const int col = x * BW + tx;
  float acc[ITER] = {};
  const int rounds = (k + BW - 1) / BW;
  for (int r = 0; r < rounds; r++)
    {
#pragma unroll
      for (int i = 0; i < ITER; i++)
        {
          const int row = y * BW + ty + i * BH;
          const int ka = r * BW + tx, kb = r * BW + ty + i * BH;
          rows[ty + i * BH][tx] = (row < m && ka < k) ? a[row * k + ka] : 0.0f;
          cols[ty + i * BH][tx] = (kb < k && col < n) ? b[kb * n + col] : 0.0f;
        }
      __syncthreads ();
      mult (acc, rows, cols, tx, ty);
      __syncthreads ();
    }
#pragma unroll
  for (int i = 0; i < ITER; i++)
    {
      const int row = y * BW + ty + i * BH;
      if (row < m && col < n)
        c[row * n + col] = acc[i];
    }

  if (INSTR)
    tl_block_end_tile (records, t0, 2, blockIdx.x, x, y);
}

// The three grids of one multiply.
struct Plan
{
  dim3 interior;  // also the grid of the last-k kernel
  bool run_interior, run_last;
  unsigned margins;
};

static Plan
plan_05 (const TlGemmLaunch *l)
{
  Plan p;
  p.interior = dim3 (l->n / BW, l->m / BW);
  p.run_interior = p.interior.x > 0 && p.interior.y > 0;
  p.run_last = p.run_interior && (l->k % BW) != 0;
  p.margins = 0;
  if (l->m % BW)
    p.margins += tl_ceil_div (l->n, BW);
  if (l->n % BW)
    p.margins += l->m / BW;
  return p;
}

static cudaError_t
gemm_05_seed3k_launch (const TlGemmLaunch *l)
{
  const Plan p = plan_05 (l);
  const dim3 block (BW, BH);
  const float *a = (const float *) l->a, *b = (const float *) l->b;
  float *c = (float *) l->c;
  TlGpuBlockRecord *rec = l->blocks;
  const size_t interior_blocks = (size_t) p.interior.x * p.interior.y;
  if (p.run_interior)
    {
      if (rec)
        gemm_05_interior_kernel<true><<<p.interior, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, rec);
      else
        gemm_05_interior_kernel<false><<<p.interior, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, nullptr);
      if (rec)
        rec += interior_blocks;
    }
  if (p.run_last)
    {
      if (rec)
        gemm_05_last_kernel<true><<<p.interior, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, rec);
      else
        gemm_05_last_kernel<false><<<p.interior, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, nullptr);
      if (rec)
        rec += interior_blocks;
    }
  if (p.margins > 0)
    {
      if (rec)
        gemm_05_margin_kernel<true><<<p.margins, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, rec);
      else
        gemm_05_margin_kernel<false><<<p.margins, block, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, nullptr);
    }
  return cudaGetLastError ();
}

static void
gemm_05_seed3k_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  const Plan p = plan_05 (l);
  const size_t interior_blocks = (size_t) p.interior.x * p.interior.y;
  // The main kernel is the interior one when it runs, else the margins.
  if (p.run_interior)
    tl_gemm_shape_one (out, (const void *) gemm_05_interior_kernel<false>, p.interior,
                       dim3 (BW, BH), 0);
  else
    tl_gemm_shape_one (out, (const void *) gemm_05_margin_kernel<false>, dim3 (p.margins),
                       dim3 (BW, BH), 0);
  out->launches = (p.run_interior ? 1 : 0) + (p.run_last ? 1 : 0) + (p.margins > 0 ? 1 : 0);
  out->total_blocks = (p.run_interior ? interior_blocks : 0) + (p.run_last ? interior_blocks : 0)
                      + p.margins;
}

extern const TlGemmRung gemm_05_seed3k_rung = {
  "gemm-05-seed3k", gemm_05_seed3k_launch, gemm_05_seed3k_shape, nullptr, nullptr, nullptr,
};
