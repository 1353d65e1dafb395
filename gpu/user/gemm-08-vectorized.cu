// mine.cu — a GEMM kernel of your own: rung 8 of the ladder (128-bit
// loads, A transposed, no bank conflicts), in the form Tilelab compiles at
// run time.  float32 only.
//
// Each block of 256 threads (16×16) computes a 128×128 tile of C in steps
// of BK = 8 along k; each thread computes 8×8 results from registers.
// Three things make it fast (the ladder's gpu/gemm/gemm-08-vectorized.cu
// says more):
//   1. global loads are float4 (LDG.128): one instruction moves 16 bytes;
//   2. A's tile is stored transposed in shared memory, so the 8 values of
//      A a thread needs at a step come in two LDS.128;
//   3. no bank conflicts: each thread owns rows and columns 64 apart, and
//      the rows of As are padded by 4 floats.
// float4 needs 16-byte alignment, so the unguarded path runs only in
// blocks whose whole tile lies inside C, when k is a multiple of 8 and n
// of 4 and the pointers are aligned; edge blocks take a guarded copy of
// the same code with scalar loads that fill zeros.
//
// tilelab: title   = vectorized (mine)
// tilelab: float32 = gemm_vectorized
// tilelab: block   = 256
// tilelab: grid    = ceil_div(n, 128), ceil_div(m, 128)
// tilelab: tile    = 128, 128
#include "tilelab.cuh"

template <int BM, int BN, int BK, bool GUARD>
__device__ __forceinline__ void
gemm_08_block (int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b,
               float *__restrict__ c)
{
  constexpr int TM = 8, TN = 8, PAD = 4;
  // +PAD: see (3) above.  Rows stay multiples of 16 bytes, as float4 needs.
  __shared__ __align__ (16) float As[BK][BM + PAD];
  __shared__ __align__ (16) float Bs[BK][BN];
  static_assert (BM == 128 && BN == 128 && BK == 8, "the index maps below assume 128×128×8");
  const int tid = threadIdx.x;
  const int tr = tid / 16, tc = tid % 16;        // 16×16 threads
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  // Loader roles: one float4 of A (row ar, k-columns aq..aq+3) and one of B.
  const int ar = tid / 2, aq = (tid % 2) * 4;
  const int br = tid / 32, bq = (tid % 32) * 4;

  // Global → registers: one float4 of A and one of B for the k-step at kk.
  auto load = [&] (int kk, float4 &va, float4 &vb) {
    if (!GUARD)
      {
        va = *reinterpret_cast<const float4 *> (&a[(row0 + ar) * k + kk + aq]);
        vb = *reinterpret_cast<const float4 *> (&b[(kk + br) * n + col0 + bq]);
      }
    else
      {
        const int r = row0 + ar;
        va.x = (r < m && kk + aq + 0 < k) ? a[r * k + kk + aq + 0] : 0.0f;
        va.y = (r < m && kk + aq + 1 < k) ? a[r * k + kk + aq + 1] : 0.0f;
        va.z = (r < m && kk + aq + 2 < k) ? a[r * k + kk + aq + 2] : 0.0f;
        va.w = (r < m && kk + aq + 3 < k) ? a[r * k + kk + aq + 3] : 0.0f;
        const int rb = kk + br, cc = col0 + bq;
        const bool rin = rb < k;
        vb.x = (rin && cc + 0 < n) ? b[rb * n + cc + 0] : 0.0f;
        vb.y = (rin && cc + 1 < n) ? b[rb * n + cc + 1] : 0.0f;
        vb.z = (rin && cc + 2 < n) ? b[rb * n + cc + 2] : 0.0f;
        vb.w = (rin && cc + 3 < n) ? b[rb * n + cc + 3] : 0.0f;
      }
  };

  float acc[TM][TN] = {};
  float4 va, vb;
  load (0, va, vb);
  for (int kk = 0; kk < k; kk += BK)
    {
      // ---- registers → shared: A transposed, B as it is
      As[aq + 0][ar] = va.x;
      As[aq + 1][ar] = va.y;
      As[aq + 2][ar] = va.z;
      As[aq + 3][ar] = va.w;
      *reinterpret_cast<float4 *> (&Bs[br][bq]) = vb;
      __syncthreads ();

      // ---- 8 outer products of 8×8, operands by LDS.128
#pragma unroll
      for (int p = 0; p < BK; p++)
        {
          const float4 a0 = *reinterpret_cast<const float4 *> (&As[p][4 * tr]);
          const float4 a1 = *reinterpret_cast<const float4 *> (&As[p][64 + 4 * tr]);
          const float4 b0 = *reinterpret_cast<const float4 *> (&Bs[p][4 * tc]);
          const float4 b1 = *reinterpret_cast<const float4 *> (&Bs[p][64 + 4 * tc]);
          const float ra[TM] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
          const float rb[TN] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
#pragma unroll
          for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
              acc[i][j] += ra[i] * rb[j];
        }
      __syncthreads ();
      // Issue the next k-step's global loads right after the barrier, so
      // they are in flight while this k-step computes (docs/perf has the
      // numbers against issuing them at the loop's top).
      if (kk + BK < k)
        load (kk + BK, va, vb);
    }

  // ---- store: row i of acc is C row (i<4 ? 4tr+i : 64+4tr+i-4), columns
  // 4tc..4tc+3 and 64+4tc..: two float4 per row on the fast path.
#pragma unroll
  for (int i = 0; i < TM; i++)
    {
      const int r = row0 + (i < 4 ? 4 * tr + i : 64 + 4 * tr + i - 4);
#pragma unroll
      for (int h = 0; h < 2; h++)
        {
          const int cc = col0 + h * 64 + 4 * tc;
          if (!GUARD)
            *reinterpret_cast<float4 *> (&c[r * n + cc])
              = make_float4 (acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
          else if (r < m)
            {
#pragma unroll
              for (int j = 0; j < 4; j++)
                if (cc + j < n)
                  c[r * n + cc + j] = acc[i][4 * h + j];
            }
        }
    }
}

// One decision per block, the same for all its threads (no divergence):
// the float4 path where the whole tile is inside C and every row of A, B
// and C starts on a 16-byte boundary.
__global__ void __launch_bounds__ (256, 2)
gemm_vectorized (int m, int n, int k, const float *__restrict__ a, const float *__restrict__ b,
                 float *__restrict__ c)
{
  TILELAB_BLOCK_BEGIN ();

  constexpr int BM = 128, BN = 128, BK = 8;
  const bool aligned = (((unsigned long long) a | (unsigned long long) b | (unsigned long long) c)
                        & 15) == 0;
  const bool vec = aligned && k % BK == 0 && n % 4 == 0;
  const bool inside = (int) (blockIdx.y + 1) * BM <= m && (int) (blockIdx.x + 1) * BN <= n;
  if (vec && inside)
    gemm_08_block<BM, BN, BK, false> (m, n, k, a, b, c);
  else
    gemm_08_block<BM, BN, BK, true> (m, n, k, a, b, c);

  TILELAB_BLOCK_END ();
}
