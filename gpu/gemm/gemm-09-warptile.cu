// gemm-09-warptile.cu — rung 9: warp tiling with an asynchronous, multi-stage
// global→shared pipeline.  The flagship CUDA-core (FFMA) kernel.
//
// C (m×n) = A (m×k) · B (k×n), float32, all row-major.
//
// What changed from rung 8 (vectorised, conflict-free 2-D register tiles):
//
//  1. Warp tiling.  The 128×256 block tile is split among 8 warps (2 along
//     m × 4 along n), each owning a 64×64 sub-tile; inside it the 32 lanes
//     form an 8×4 grid and each thread owns an 8×16 register tile (rows
//     ty, ty+8, …, ty+56; columns tx·4 + 16h + 0…3).  A warp is the unit the
//     hardware schedules and the unit that touches shared memory together,
//     so a compact warp region makes its shared reads broadcast-friendly:
//     per instruction the 32 lanes read only 8 different A rows and 4
//     different B float4s, and no two different addresses share a bank.
//
//  2. cp.async, 4 stages deep.  Rung 8 loaded the next tile into registers
//     and then stored it to shared memory, so every thread spent registers
//     and instructions on staging.  Here `cp.async` (Ampere and later) copies
//     global memory straight into shared memory: the thread issues the copy
//     and keeps multiplying.  With 4 buffers, tiles k+1…k+3 are in flight
//     while tile k is multiplied, so the ~600-cycle latency of global memory
//     hides behind arithmetic.  One __syncthreads per 32-deep k-tile.
//
//  3. A stays row-major in shared memory.  cp.async copies bytes as they
//     are; it cannot transpose.  So instead of the classic "A transposed in
//     shared memory", each thread reads a float4 *along k* from each of its
//     8 rows: 8 LDS.128 give it A for 4 k-steps, 16 more give B for the same
//     4 steps: 24 shared loads for 512 FFMAs.  The row stride is BK+4 floats:
//     a multiple of 4 (float4 reads stay 16-byte aligned) that spreads 8
//     consecutive rows over 8 different groups of 4 banks.
//
//  4. Any m, n, k without slowing the interior.  Out-of-range copies are
//     issued with src-size 0 (the hardware writes zeros), so the multiply
//     loop has no branches; only the final store is guarded.  16-byte copies
//     need 16-byte aligned rows: when k or n is not a multiple of 4 a second
//     instantiation uses 4-byte copies (correct for any shape, slower).
//
// Bottleneck attacked: rung 8 stalls on global-memory latency at every tile
// (load → barrier → compute → barrier) and spends issue slots on staging
// through registers.  The target is the FFMA pipe itself: a 128×256×32
// k-tile is 1 M FMAs against 48 KB loaded, so arithmetic, not DRAM, should
// limit this kernel.  What does limit it (measured; docs/perf/gemm-fast-rungs.md):
// shared-memory bandwidth next to FFMA issue.  Every LDS.128 costs four
// shared-memory "wavefronts" (one per quarter-warp) however many lanes
// share an address, so the traffic per FMA is set by the thread tile alone:
// (TM + TN) / (TM · TN) floats.  An 8×8 tile (128×128 blocks, 2 per SM) needs
// as many shared-memory cycles as FFMA cycles; 8×16 needs 25 % fewer, and
// runs clearly faster.
//
// Occupancy and waves: 256 threads with up to 255 registers each
// (128 accumulators; __launch_bounds__(256, 1)) and 200 KB of shared
// memory: one block per SM, 8 warps that hide latency by instruction-level
// parallelism (128 independent FMA chains per thread) rather than by many
// warps.  A 4096×4096 C has 16×32 = 512 tiles = 3.9 waves on 132 SMs.
//
// Seed: none of the lecture seeds goes this far; the structure is the
// well-known CUTLASS-style "warp tile + multistage cp.async" SGEMM.
#include "tl-gemm-rung.h"
#include "tl-block-timer.cuh"
#include "tl-gemm-async.cuh"

#include <stdio.h>

// Device passes for GPUs older than sm_80 compile the kernels empty, and
// then see some constants unused: keep those passes quiet.
#pragma nv_diag_suppress 177

namespace {

constexpr int BM = 128;        // block tile rows (of C and A)
constexpr int WM = 64;         // warp tile rows
constexpr int THREADS = 256;   // 8 warps: 2 along m × 4 along n
constexpr int TM = 8;          // each thread: 8 rows (ty, ty+8, …, ty+56 of its warp tile)
// TN: each thread's columns, TN/4 float4s at tx*4, 16+tx*4, …  TN = 8 gives
// 32-column warp tiles and a 128-column block tile; TN = 16 gives 64 and
// 256.  The warp tile is (8 lanes × TM) × (4 lanes × TN).
template <int TN> __host__ __device__ constexpr int warp_n () { return 4 * TN; }
template <int TN> __host__ __device__ constexpr int block_n () { return 4 * warp_n<TN> (); }

template <int BK>
__host__ __device__ constexpr int a_stride () { return BK + 4; }        // floats per A row in shared memory

template <int BK, int STAGES, int TN>
__host__ __device__ constexpr int smem_bytes ()
{
  return STAGES * (BM * a_stride<BK> () + BK * block_n<TN> ()) * (int) sizeof (float);
}

template <int N>
__device__ __forceinline__ float
lane_of (const float4 &v)
{
  return N == 0 ? v.x : N == 1 ? v.y : N == 2 ? v.z : v.w;
}

// Issue the cp.async copies of k-tile `kt` into stage buffers As, Bs.
// VEC: 16-byte copies (needs k % 4 == 0 and n % 4 == 0); else 4-byte copies.
template <int BK, int BN, bool VEC>
__device__ __forceinline__ void
load_tile (float *As, float *Bs, const float *__restrict__ A, const float *__restrict__ B,
           int m, int n, int k, int row0, int col0, int kt)
{
  const int tid = threadIdx.x;
  const int k0 = kt * BK;
  if (VEC)
    {
      // A tile BM×BK: BK/4 float4 chunks per row; consecutive threads take
      // consecutive chunks of a row, so a warp reads whole 64-byte rows.
#pragma unroll
      for (int i = 0; i < BM * BK / 4 / THREADS; i++)
        {
          int c = tid + i * THREADS;
          int r = c / (BK / 4), kc = (c % (BK / 4)) * 4;
          int gr = row0 + r, gk = k0 + kc;
          bool ok = gr < m && gk < k;
          const float *src = ok ? A + (size_t) gr * k + gk : A;
          tl_cp_async_16 (As + r * a_stride<BK> () + kc, src, ok);
        }
      // B tile BK×BN: 32 chunks per row: one warp reads 512 contiguous bytes.
#pragma unroll
      for (int i = 0; i < BK * BN / 4 / THREADS; i++)
        {
          int c = tid + i * THREADS;
          int r = c / (BN / 4), nc = (c % (BN / 4)) * 4;
          int gk = k0 + r, gn = col0 + nc;
          bool ok = gk < k && gn < n;
          const float *src = ok ? B + (size_t) gk * n + gn : B;
          tl_cp_async_16 (Bs + r * BN + nc, src, ok);
        }
    }
  else
    {
#pragma unroll 4
      for (int i = 0; i < BM * BK / THREADS; i++)
        {
          int e = tid + i * THREADS;
          int r = e / BK, kc = e % BK;
          int gr = row0 + r, gk = k0 + kc;
          bool ok = gr < m && gk < k;
          const float *src = ok ? A + (size_t) gr * k + gk : A;
          tl_cp_async_4 (As + r * a_stride<BK> () + kc, src, ok);
        }
#pragma unroll 4
      for (int i = 0; i < BK * BN / THREADS; i++)
        {
          int e = tid + i * THREADS;
          int r = e / BN, nc = e % BN;
          int gk = k0 + r, gn = col0 + nc;
          bool ok = gk < k && gn < n;
          const float *src = ok ? B + (size_t) gk * n + gn : B;
          tl_cp_async_4 (Bs + r * BN + nc, src, ok);
        }
    }
}

template <int BK, int STAGES, int TN, bool VEC, bool INSTR>
__global__ void __launch_bounds__ (THREADS, TN == 8 ? 2 : 1)
gemm_09_warptile_kernel (int m, int n, int k, const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C,
                         TlGpuBlockRecord *records)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int BN = block_n<TN> (), WN = warp_n<TN> ();
  static_assert ((BM / WM) * (BN / WN) * 32 == THREADS, "8 warps cover the block tile");
  extern __shared__ __align__ (16) float smem[];
  float *As = smem;                                   // [STAGES][BM][BK+4]
  float *Bs = smem + STAGES * BM * a_stride<BK> ();   // [STAGES][BK][BN]

  unsigned long long t0 = tl_block_begin (INSTR ? records : nullptr);

  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / (BN / WN), wn = warp % (BN / WN);
  const int ty = lane / 4, tx = lane % 4;   // 8×4 lanes in the warp tile

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      acc[i][j] = 0.0f;

  const int KT = (k + BK - 1) / BK;

  // Prologue: put STAGES-1 tiles in flight.  Every thread commits a group
  // per tile, even an empty one, so that "wait until at most STAGES-2
  // groups are pending" always means "tile kt has landed".
#pragma unroll
  for (int s = 0; s < STAGES - 1; s++)
    {
      if (s < KT)
        load_tile<BK, BN, VEC> (As + s * BM * a_stride<BK> (), Bs + s * BK * BN, A, B, m, n, k,
                                row0, col0, s);
      tl_cp_async_commit ();
    }

  for (int kt = 0; kt < KT; kt++)
    {
      // My copies of tile kt are done; the barrier makes everyone's visible,
      // and also says every warp finished reading the stage we refill next
      // (it was consumed in iteration kt-1).
      tl_cp_async_wait<STAGES - 2> ();
      __syncthreads ();

      int next = kt + STAGES - 1;
      if (next < KT)
        {
          int s = next % STAGES;
          load_tile<BK, BN, VEC> (As + s * BM * a_stride<BK> (), Bs + s * BK * BN, A, B, m, n,
                                  k, row0, col0, next);
        }
      tl_cp_async_commit ();

      const int s = kt % STAGES;
      const float *as = As + s * BM * a_stride<BK> () + (wm * WM + ty) * a_stride<BK> ();
      const float *bs = Bs + s * BK * BN + wn * WN + tx * 4;

#pragma unroll
      for (int kk = 0; kk < BK; kk += 4)
        {
          // A for 4 k-steps: rows ty + 8i, one float4 along k each.  Lanes
          // with the same ty read the same address (a broadcast); the 8
          // different rows fall in 8 different bank groups.
          float4 a[TM];
#pragma unroll
          for (int i = 0; i < TM; i++)
            a[i] = *reinterpret_cast<const float4 *> (as + i * 8 * a_stride<BK> () + kk);
#pragma unroll
          for (int q = 0; q < 4; q++)
            {
              float b[TN];
#pragma unroll
              for (int h = 0; h < TN / 4; h++)
                {
                  float4 bv = *reinterpret_cast<const float4 *> (bs + (kk + q) * BN + h * 16);
                  b[h * 4 + 0] = bv.x;
                  b[h * 4 + 1] = bv.y;
                  b[h * 4 + 2] = bv.z;
                  b[h * 4 + 3] = bv.w;
                }
              float av[TM];
#pragma unroll
              for (int i = 0; i < TM; i++)
                av[i] = q == 0 ? lane_of<0> (a[i]) : q == 1 ? lane_of<1> (a[i])
                        : q == 2 ? lane_of<2> (a[i]) : lane_of<3> (a[i]);
              // The 128 FMAs, row after row.  Their order matters to the
              // hardware only through register-operand reuse: column-outer
              // and serpentine orders were measured slower (docs/perf).
#pragma unroll
              for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                  acc[i][j] = fmaf (av[i], b[j], acc[i][j]);
            }
        }
    }
  tl_cp_async_wait<0> ();

  // Epilogue: each thread writes its 8 rows as two float4 per row.  Lanes
  // tx = 0..3 write 64 contiguous bytes of one row: full 32-byte sectors.
#pragma unroll
  for (int i = 0; i < TM; i++)
    {
      int r = row0 + wm * WM + ty + 8 * i;
      if (r >= m)
        continue;
#pragma unroll
      for (int h = 0; h < TN / 4; h++)
        {
          int c = col0 + wn * WN + h * 16 + tx * 4;
          float *dst = C + (size_t) r * n + c;
          if (VEC && c + 3 < n)
            *reinterpret_cast<float4 *> (dst) =
              make_float4 (acc[i][h * 4 + 0], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
          else
#pragma unroll
            for (int j = 0; j < 4; j++)
              if (c + j < n)
                dst[j] = acc[i][h * 4 + j];
        }
    }

  tl_block_end (INSTR ? records : nullptr, t0, 0);
#endif
}

bool
use_vec (const TlGemmLaunch *l)
{
  return l->k % 4 == 0 && l->n % 4 == 0
         && ((uintptr_t) l->a % 16) == 0 && ((uintptr_t) l->b % 16) == 0
         && ((uintptr_t) l->c % 16) == 0;
}

// The configuration the rung ships with (chosen by measurement; the
// alternatives tried are in docs/perf/gemm-fast-rungs.md).
constexpr int SHIP_BK = 32;
constexpr int SHIP_STAGES = 4;
constexpr int SHIP_TN = 16;
constexpr int SMEM = smem_bytes<SHIP_BK, SHIP_STAGES, SHIP_TN> ();

template <bool VEC, bool INSTR>
constexpr auto kernel_of = gemm_09_warptile_kernel<SHIP_BK, SHIP_STAGES, SHIP_TN, VEC, INSTR>;

template <bool VEC, bool INSTR>
cudaError_t
launch_cfg (const TlGemmLaunch *l)
{
  dim3 grid (tl_ceil_div (l->n, block_n<SHIP_TN> ()), tl_ceil_div (l->m, BM));
  kernel_of<VEC, INSTR><<<grid, THREADS, SMEM, l->stream>>> (
    l->m, l->n, l->k, (const float *) l->a, (const float *) l->b, (float *) l->c, l->blocks);
  return cudaGetLastError ();
}

cudaError_t
gemm_09_warptile_launch (const TlGemmLaunch *l)
{
  bool vec = use_vec (l);
  if (l->blocks)
    return vec ? launch_cfg<true, true> (l) : launch_cfg<false, true> (l);
  return vec ? launch_cfg<true, false> (l) : launch_cfg<false, false> (l);
}

// More than 48 KB of dynamic shared memory must be asked for, per kernel
// and per device: for both variants (plain, instrumented) of this run's
// shape, on the run's device, before the first launch.
cudaError_t
gemm_09_warptile_prepare (TlGemmLaunch *l)
{
  const cudaFuncAttribute max_smem = cudaFuncAttributeMaxDynamicSharedMemorySize;
  cudaError_t e;
  if (use_vec (l))
    {
      e = cudaFuncSetAttribute (kernel_of<true, false>, max_smem, SMEM);
      if (e == cudaSuccess)
        e = cudaFuncSetAttribute (kernel_of<true, true>, max_smem, SMEM);
    }
  else
    {
      e = cudaFuncSetAttribute (kernel_of<false, false>, max_smem, SMEM);
      if (e == cudaSuccess)
        e = cudaFuncSetAttribute (kernel_of<false, true>, max_smem, SMEM);
    }
  return e;
}

void
gemm_09_warptile_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  out->kernel = use_vec (l) ? (const void *) kernel_of<true, false>
                            : (const void *) kernel_of<false, false>;
  out->grid = dim3 (tl_ceil_div (l->n, block_n<SHIP_TN> ()), tl_ceil_div (l->m, BM));
  out->block = dim3 (THREADS);
  out->dynamic_smem = SMEM;
  out->launches = 1;
  out->total_blocks = (size_t) out->grid.x * out->grid.y;
}

TlGpuStatus
gemm_09_warptile_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  if (l->dtype != TL_GPU_FLOAT32)
    {
      snprintf (why, why_size, "rung 9 computes in float32 only");
      return TL_GPU_BAD_SHAPE;
    }
  if (l->m < 1 || l->n < 1 || l->k < 1 || l->m > 65535 * BM)
    {
      snprintf (why, why_size, "rung 9 needs 1 <= m <= %d and n, k >= 1", 65535 * BM);
      return TL_GPU_BAD_SHAPE;
    }
  if (l->cc < 80)
    {
      snprintf (why, why_size, "rung 9 needs cp.async (compute capability 8.0 or newer)");
      return TL_GPU_BAD_SHAPE;
    }
  return TL_GPU_OK;
}

} // namespace

extern const TlGemmRung gemm_09_warptile_rung = {
  "gemm-09-warptile",
  gemm_09_warptile_launch,
  gemm_09_warptile_shape,
  gemm_09_warptile_check,
  nullptr,
  gemm_09_warptile_prepare,
};
