// gemm-12-regtile-f64.cu — rung 12: 2-D register tiling in float64.
//
// What changed from rung 7: the element type is double, and the tiles
// shrink to fit: 64×64 of C per block, 4×4 per thread (256 threads), BK 8.
// A double needs two 32-bit registers, so rung 7's 8×8 accumulators would
// take 128 registers for the sums alone; 4×4 keeps 32 and leaves room for
// operands without spilling.  A is stored transposed (As[p][row]) so each
// thread's four A values are neighbours, as in rung 8.
//
// Bottleneck it shows: the float64 units.  On consumer GPUs FP64 runs at
// 1/32 or 1/64 of the FP32 rate and this rung is hopelessly compute-bound;
// on H100/H200 the FP64 pipes run at half the FP32 rate, and cuBLAS DGEMM
// additionally uses the FP64 tensor cores (DMMA), which CUDA-core code
// cannot reach — compare with cublas-fp64.
// From: seed 003 (the lecture's matrix code uses `double`, "Real"), with the
// register tiling of rung 7.
//
// Banks: doubles are 8 bytes, two banks each.  A warp holds 16 values of
// tc and 2 of tr: its reads of As[p][4·tr+i] touch 2 addresses (broadcast
// to 16 threads each, different banks); its reads of Bs[p][4·tc+j] touch 16
// doubles 32 bytes apart — 512 bytes, spread so that each request takes the
// minimum of wavefronts for 8-byte words.  The +1 on As rows spreads the
// transposing stores (row-major A → As[p][r]) over the banks.
//
// Shapes: A m×k, B k×n, C m×n row-major, float64.  Block 256 threads
// (16×16), tile 64×64, BK 8.  Grid ⌈n/64⌉ × ⌈m/64⌉.  Zero-filled loads,
// guarded stores: any m, n, k ≥ 1.
#include "tl-gemm-common.cuh"

template <typename T, int BM, int BN, int BK, int TM, int TN, bool INSTR>
__global__ void __launch_bounds__ ((BM / TM) * (BN / TN), 3)
gemm_12_regtile_f64_kernel (int m, int n, int k, const T *__restrict__ a,
                            const T *__restrict__ b, T *__restrict__ c,
                            TlGpuBlockRecord *records)
{
  constexpr int THREADS = (BM / TM) * (BN / TN);
  __shared__ T As[BK][BM + 1]; // transposed; +1 spreads the transposing stores over banks
  __shared__ T Bs[BK][BN];

  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  const int tid = threadIdx.x;
  const int tc = tid % (BN / TN), tr = tid / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  T acc[TM][TN] = {};
  T ra[TM], rb[TN];
  for (int kk = 0; kk < k; kk += BK)
    {
#pragma unroll
      for (int e = tid; e < BM * BK; e += THREADS)
        {
          const int r = e / BK, p = e % BK; // neighbouring threads: neighbouring k of one row
          As[p][r] = (row0 + r < m && kk + p < k) ? a[(row0 + r) * k + kk + p] : T (0);
        }
#pragma unroll
      for (int e = tid; e < BK * BN; e += THREADS)
        {
          const int p = e / BN, cc = e % BN;
          Bs[p][cc] = (kk + p < k && col0 + cc < n) ? b[(kk + p) * n + col0 + cc] : T (0);
        }
      __syncthreads ();
#pragma unroll
      for (int p = 0; p < BK; p++)
        {
#pragma unroll
          for (int i = 0; i < TM; i++)
            ra[i] = As[p][tr * TM + i];
#pragma unroll
          for (int j = 0; j < TN; j++)
            rb[j] = Bs[p][tc * TN + j];
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
        const int r = row0 + tr * TM + i, cc = col0 + tc * TN + j;
        if (r < m && cc < n)
          c[r * n + cc] = acc[i][j];
      }

  if (INSTR)
    tl_block_end (records, t0, 0);
}

enum { BM12 = 64, BN12 = 64, BK12 = 8, TM12 = 4, TN12 = 4 };
static const dim3 block_12 ((BM12 / TM12) * (BN12 / TN12));

static dim3
grid_12 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN12), tl_ceil_div (l->m, BM12));
}

static cudaError_t
gemm_12_regtile_f64_launch (const TlGemmLaunch *l)
{
  const double *a = (const double *) l->a, *b = (const double *) l->b;
  double *c = (double *) l->c;
  if (l->blocks != nullptr)
    gemm_12_regtile_f64_kernel<double, BM12, BN12, BK12, TM12, TN12, true>
      <<<grid_12 (l), block_12, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, l->blocks);
  else
    gemm_12_regtile_f64_kernel<double, BM12, BN12, BK12, TM12, TN12, false>
      <<<grid_12 (l), block_12, 0, l->stream>>> (l->m, l->n, l->k, a, b, c, nullptr);
  return cudaGetLastError ();
}

static void
gemm_12_regtile_f64_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out,
                     (const void *) gemm_12_regtile_f64_kernel<double, BM12, BN12, BK12, TM12, TN12, false>,
                     grid_12 (l), block_12, 0);
}

extern const TlGemmRung gemm_12_regtile_f64_rung = {
  "gemm-12-regtile-f64", gemm_12_regtile_f64_launch, gemm_12_regtile_f64_shape, nullptr, nullptr,
  nullptr,
};
