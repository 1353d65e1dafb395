// gemm-08-vectorized.cu — rung 8: 128-bit loads, A transposed, no bank conflicts.
//
// What changed from rung 7, three things:
//   1. Global loads are float4 (LDG.128): one instruction moves 16 bytes,
//      a quarter of the load instructions of rung 7.  A tile of A
//      (128 rows × 8) is 256 float4 — exactly one per thread; so is B's.
//   2. A is stored TRANSPOSED in shared memory, As[p][row], so that the 8
//      values of A a thread needs at step p are contiguous and come in two
//      LDS.128 (rung 7 needed 8 scalar loads, strided by BK).
//   3. No bank conflicts.  Shared memory has 32 banks of 4 bytes.
//      - Each thread owns rows {4·tr..4·tr+3} ∪ {64+4·tr..} and columns
//        {4·tc..4·tc+3} ∪ {64+4·tc..} — two float4 of each, 64 apart —
//        rather than 8 neighbours.  Then the 16 values of tc in a warp read
//        Bs[p][4·tc] — 256 contiguous bytes, the minimum 2 wavefronts — and
//        the float4 reads of As are broadcasts.
//      - Writing the transposed A tile, thread t stores to As[kq+i][t/2]
//        with kq ∈ {0, 4}.  With rows of 128 floats both kq groups would
//        hit the same 16 banks (4·128 ≡ 0 mod 32): a 2-way conflict.  Rows
//        padded to 128+4 floats shift the second group by 16 banks.
// Bottleneck attacked: load instructions and shared-memory wavefronts — the
// issue slots that are not FMAs.
// From: no seed (S. Boehm's SGEMM ladder, kernels 6–7).
//
// Any m, n, k: float4 needs 16-byte alignment, so the fast path runs only
// in blocks whose whole tile lies inside C, when k is a multiple of BK and
// n of 4 and the pointers are 16-byte aligned.  The choice is made once
// per block (uniform: no divergence) between two instantiations of the
// same code: without any bounds check, or with guarded scalar loads that
// fill zeros and guarded stores (edges, misaligned leading dimensions).
// Three versions were timed, each faster than the one before
// (docs/perf/gemm-rung-notes.md):
//   v1  fast/guarded decided per load, loads at the loop top
//   v2  one decision per block, loads at the loop top
//   v3  one decision per block, next loads right after the second barrier
//       (this file)
// v2 → v3 moves no instruction in or out of the loop; only the order
// changes — the compiler's schedule of the loads around the barrier matters.
//
// Shapes: A m×k, B k×n, C m×n row-major, float32.  Block 256 threads
// (16×16), tile 128×128 of C, BK = 8, each thread 8×8.  Grid ⌈n/128⌉ ×
// ⌈m/128⌉.
#include "tl-gemm-common.cuh"

// user-template: begin gemm-08-block (gpu/user/gemm-08-vectorized.cu)
// The whole multiply of one block.  GUARD = false: the block's tiles lie
// inside A, B and C and rows are 16-byte aligned — float4 everywhere, not
// a single bounds check.  GUARD = true: edges and misaligned leading
// dimensions — scalar loads that fill zeros, guarded stores.  Same
// shared-memory layout and the same compute loop in both.
//
// The shared arrays are declared here, so every access is plainly to
// shared memory (each instantiation has its own 8 KiB; a block uses one).
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
      // they are in flight while this k-step computes (v3 in the rung's
      // header: faster than issuing them at the top of the loop).
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
// user-template: end gemm-08-block

template <int BM, int BN, int BK, bool INSTR>
__global__ void __launch_bounds__ (256, 2)
gemm_08_vectorized_kernel (int m, int n, int k, const float *__restrict__ a,
                           const float *__restrict__ b, float *__restrict__ c, int vec,
                           TlGpuBlockRecord *records)
{
  unsigned long long t0 = 0;
  if (INSTR)
    t0 = tl_block_begin (records);

  // One decision per block, the same for all its threads: no divergence.
  const bool inside = (int) (blockIdx.y + 1) * BM <= m && (int) (blockIdx.x + 1) * BN <= n;
  if (vec && inside)
    gemm_08_block<BM, BN, BK, false> (m, n, k, a, b, c);
  else
    gemm_08_block<BM, BN, BK, true> (m, n, k, a, b, c);

  if (INSTR)
    tl_block_end (records, t0, 0);
}

enum { BM8 = 128, BN8 = 128, BK8 = 8 };

static dim3
grid_08 (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN8), tl_ceil_div (l->m, BM8));
}

static cudaError_t
gemm_08_vectorized_launch (const TlGemmLaunch *l)
{
  const float *a = (const float *) l->a, *b = (const float *) l->b;
  float *c = (float *) l->c;
  // float4 is legal where every row starts on a 16-byte boundary; the
  // unguarded path also needs whole k-steps (BK | k).
  const int vec = tl_aligned16 (a) && tl_aligned16 (b) && tl_aligned16 (c) && l->k % BK8 == 0
                  && l->n % 4 == 0;
  if (l->blocks != nullptr)
    gemm_08_vectorized_kernel<BM8, BN8, BK8, true><<<grid_08 (l), 256, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, vec, l->blocks);
  else
    gemm_08_vectorized_kernel<BM8, BN8, BK8, false><<<grid_08 (l), 256, 0, l->stream>>> (
      l->m, l->n, l->k, a, b, c, vec, nullptr);
  return cudaGetLastError ();
}

static void
gemm_08_vectorized_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, (const void *) gemm_08_vectorized_kernel<BM8, BN8, BK8, false>,
                     grid_08 (l), dim3 (256), 0);
}

extern const TlGemmRung gemm_08_vectorized_rung = {
  "gemm-08-vectorized", gemm_08_vectorized_launch, gemm_08_vectorized_shape, nullptr, nullptr, nullptr,
};
