// gemm-06-regtile1d.cu — rung 6: 1-D register tiling.
//
// What changed from rung 5: each thread computes a COLUMN of TM = 8
// results, and the inner loop is turned around: for every k-step p, the
// thread loads one word of B from shared memory into a register and uses
// it for all 8 of its results:
//
//     b = Bs[p][col];                       // 1 shared load
//     for i in 0..7: acc[i] += As[row+i][p] * b;   // 8 loads of A, 8 FMAs
//
// Bottleneck attacked: shared-memory bandwidth.  In rungs 3–5 every FMA
// needed two shared-memory loads; here 8 FMAs need 9 — almost half — and
// the tiles are bigger (64×64 of C per block, BK = 8 deep), so global
// traffic per FMA drops as well.  The loads from As are broadcasts: all 32
// threads of a warp share `row` (they differ in `col`).
// From: no seed — the classic next step (S. Boehm's SGEMM ladder, kernel 4).
//
// Shapes: A m×k, B k×n, C m×n row-major, float32.  Block: BM·BN/TM = 512
// threads (1-D).  Tile BM×BN = 64×64 of C, BK = 8.  Grid ⌈n/64⌉ × ⌈m/64⌉.
// Loads outside A or B fill zeros; stores outside C are skipped: any
// m, n, k ≥ 1.
#include "tl-gemm-common.cuh"

template <int BM, int BN, int BK, int TM, bool INSTR>
__global__ void __launch_bounds__ (BM * BN / TM, 2)
gemm_06_regtile1d_kernel (int m, int n, int k, const float *__restrict__ a,
                          const float *__restrict__ b, float *__restrict__ c,
                          TlGpuBlockRecord *records)
{
  static_assert (BM * BK == BM * BN / TM, "one A element per thread and k-step");
  static_assert (BN * BK == BM * BN / TM, "one B element per thread and k-step");
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];

  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tid = threadIdx.x;
  const int tcol = tid % BN;       // this thread's column in the tile
  const int trow = tid / BN * TM;  // its first row; it owns rows trow..trow+TM-1
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  // Who loads what: A's tile is BM×BK, B's BK×BN; one element each.
  const int ar = tid / BK, ac = tid % BK;
  const int br = tid / BN, bc = tid % BN;

  float acc[TM] = {};
  for (int kk = 0; kk < k; kk += BK)
    {
      As[ar][ac] = (row0 + ar < m && kk + ac < k) ? a[(row0 + ar) * k + kk + ac] : 0.0f;
      Bs[br][bc] = (kk + br < k && col0 + bc < n) ? b[(kk + br) * n + col0 + bc] : 0.0f;
      __syncthreads ();
#pragma unroll
      for (int p = 0; p < BK; p++)
        {
          const float bv = Bs[p][tcol]; // one load, reused TM times
#pragma unroll
          for (int i = 0; i < TM; i++)
            acc[i] += As[trow + i][p] * bv;
        }
      __syncthreads ();
    }
#pragma unroll
  for (int i = 0; i < TM; i++)
    if (row0 + trow + i < m && col0 + tcol < n)
      c[(row0 + trow + i) * n + col0 + tcol] = acc[i];

  if (INSTR)
    tl_block_end (records, t0, 0);
}

enum { BM6 = 64, BN6 = 64, BK6 = 8, TM6 = 8 };

static dim3
grid_06 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN6), tl_ceil_div (l->m, BM6));
}

static cudaError_t
gemm_06_regtile1d_launch (const TlGemmLaunch *l)
{
  const dim3 block (BM6 * BN6 / TM6);
  const float *a = (const float *) l->a, *b = (const float *) l->b;
  float *c = (float *) l->c;
  if (l->blocks != nullptr)
    gemm_06_regtile1d_kernel<BM6, BN6, BK6, TM6, true><<<grid_06 (l), block, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_06_regtile1d_kernel<BM6, BN6, BK6, TM6, false><<<grid_06 (l), block, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

static void
gemm_06_regtile1d_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, (const void *) gemm_06_regtile1d_kernel<BM6, BN6, BK6, TM6, false>,
                     grid_06 (l), dim3 (BM6 * BN6 / TM6), 0);
}

extern const TlGemmRung gemm_06_regtile1d_rung = {
  "gemm-06-regtile1d", gemm_06_regtile1d_launch, gemm_06_regtile1d_shape, nullptr, nullptr, nullptr,
};
