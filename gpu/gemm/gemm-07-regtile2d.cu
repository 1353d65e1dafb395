// gemm-07-regtile2d.cu — rung 7: 2-D register tiling.
//
// What changed from rung 6: each thread computes an 8×8 block of C instead
// of a column of 8.  Per k-step it loads 8 words of A and 8 words of B from
// shared memory into registers and multiplies them as an outer product:
//
//     for i: ra[i] = As[trow+i][p];      for j: rb[j] = Bs[p][tcol+j];
//     for i, j: acc[i][j] += ra[i] * rb[j];         // 64 FMAs, 16 loads
//
// Bottleneck attacked: still shared-memory bandwidth and instruction
// issue.  Rung 6 did 8 FMAs per 9 loads; this does 64 FMAs per 16 loads.
// Arithmetic intensity grows with the register tile (TM·TN / (TM+TN)).
// The block tile grows to 128×128, so each global element is reused 128
// times.  The cost: 64 accumulators + 16 operands per thread — about 128
// registers — so fewer threads fit on an SM; each does far more work.
// From: no seed (S. Boehm's SGEMM ladder, kernel 5).
//
// Known weaknesses, fixed by rung 8: global loads are 4 bytes wide, and
// the reads As[trow+i][p] of a warp (two values of trow) hit the same bank
// at different addresses — a 2-way bank conflict.
//
// Shapes: A m×k, B k×n, C m×n row-major, float32.  Block 256 threads
// (16×16 threads, each 8×8 of C), tile 128×128, BK = 8.  Grid ⌈n/128⌉ ×
// ⌈m/128⌉.  Zero-filled loads and guarded stores: any m, n, k ≥ 1.
#include "tl-gemm-common.cuh"

template <int BM, int BN, int BK, int TM, int TN, bool INSTR>
__global__ void __launch_bounds__ ((BM / TM) * (BN / TN), 2)
gemm_07_regtile2d_kernel (int m, int n, int k, const float *__restrict__ a,
                          const float *__restrict__ b, float *__restrict__ c,
                          TlGpuBlockRecord *records)
{
  constexpr int THREADS = (BM / TM) * (BN / TN);
  static_assert ((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0, "tiles split evenly");
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];

  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tid = threadIdx.x;
  const int tcol = (tid % (BN / TN)) * TN; // first column of this thread's 8×8
  const int trow = (tid / (BN / TN)) * TM; // first row
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float ra[TM], rb[TN];
  for (int kk = 0; kk < k; kk += BK)
    {
      // Each thread loads (BM·BK)/THREADS elements of A and as many of B,
      // stepping by whole rows so neighbouring threads read neighbours.
#pragma unroll
      for (int e = tid; e < BM * BK; e += THREADS)
        {
          const int r = e / BK, cc = e % BK;
          As[r][cc] = (row0 + r < m && kk + cc < k) ? a[(row0 + r) * k + kk + cc] : 0.0f;
        }
#pragma unroll
      for (int e = tid; e < BK * BN; e += THREADS)
        {
          const int r = e / BN, cc = e % BN;
          Bs[r][cc] = (kk + r < k && col0 + cc < n) ? b[(kk + r) * n + col0 + cc] : 0.0f;
        }
      __syncthreads ();

#pragma unroll
      for (int p = 0; p < BK; p++)
        {
#pragma unroll
          for (int i = 0; i < TM; i++)
            ra[i] = As[trow + i][p];
#pragma unroll
          for (int j = 0; j < TN; j++)
            rb[j] = Bs[p][tcol + j];
#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
              acc[i][j] += ra[i] * rb[j];
        }
      __syncthreads ();
    }

#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      {
        const int r = row0 + trow + i, cc = col0 + tcol + j;
        if (r < m && cc < n)
          c[r * n + cc] = acc[i][j];
      }

  if (INSTR)
    tl_block_end (records, t0, 0);
}

enum { BM7 = 128, BN7 = 128, BK7 = 8, TM7 = 8, TN7 = 8 };
static const dim3 block_07 ((BM7 / TM7) * (BN7 / TN7));

static dim3
grid_07 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN7), tl_ceil_div (l->m, BM7));
}

static cudaError_t
gemm_07_regtile2d_launch (const TlGemmLaunch *l)
{
  const float *a = (const float *) l->a, *b = (const float *) l->b;
  float *c = (float *) l->c;
  if (l->blocks != nullptr)
    gemm_07_regtile2d_kernel<BM7, BN7, BK7, TM7, TN7, true><<<grid_07 (l), block_07, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_07_regtile2d_kernel<BM7, BN7, BK7, TM7, TN7, false><<<grid_07 (l), block_07, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

static void
gemm_07_regtile2d_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, (const void *) gemm_07_regtile2d_kernel<BM7, BN7, BK7, TM7, TN7, false>,
                     grid_07 (l), block_07, 0);
}

extern const TlGemmRung gemm_07_regtile2d_rung = {
  "gemm-07-regtile2d", gemm_07_regtile2d_launch, gemm_07_regtile2d_shape, nullptr, nullptr, nullptr,
};
