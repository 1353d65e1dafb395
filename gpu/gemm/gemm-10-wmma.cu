// gemm-10-wmma.cu — rung 10: tensor cores through WMMA, in two precisions.
//
// C (m×n) = A (m×k) · B (k×n), float32 in and out, row-major.
//
// What changed from rung 9: the inner product no longer runs on the FFMA
// pipe.  A tensor core multiplies a whole 16×16×8 (TF32) or 16×16×16 (BF16)
// block per warp-wide instruction.  The frame stays rung 9's (8 warps, each
// owning a warp tile, a multistage cp.async global→shared pipeline; here a
// 128×128 block tile of 64×32 warp tiles, two blocks per SM); what each
// warp does with its slice changes: instead of 64 scalar FMAs per thread per k-step, a warp loads
// "fragments" of A and B from shared memory (the wmma.load of
// load_matrix_sync, here spelled with its .shared state space — see
// load_a_shared) and issues wmma::mma_sync.  A fragment is opaque: which thread holds which
// element is the hardware's business, which is why we stage through shared
// memory and let load/store_matrix_sync do the shuffling.
//
// Two ids, two ways to feed the tensor cores:
//  * gemm-10-wmma-tf32: the float32 tiles go to shared memory unchanged
//    (16-byte cp.async, zero-fill at the edges as in rung 9) and every
//    fragment element is rounded to TF32 (10-bit mantissa, float32 range)
//    with __float_to_tf32 right after it is loaded.  Accumulation is fp32.
//    Expect a relative error near 3e-4 (measured on random inputs), not the
//    1e-7 of rung 9; BF16 lands near 3e-3.
//  * gemm-10-wmma-bf16: a pre-pass converts A and B to bfloat16 (8-bit
//    mantissa) into the launch's workspace, padded with zeros to whole
//    tiles.  That halves the bytes the GEMM reads and lets the main kernel
//    drop all load guards.  The pre-pass runs in the rung's `prepare`, once
//    after the upload and outside the timed region, exactly like the cuBLAS
//    BF16 reference's conversion: the timings compare the multiplies alone.
//    (It is a memory-bound pass, ~6 bytes per input element;
//    docs/perf/gemm-h200-2026-11-21.md gives its time.)
//
// Bottleneck attacked: rung 9 is bound by FFMA throughput (~67 TFLOP/s on
// an H100).  Tensor cores raise the ceiling several-fold, so the limits
// become feeding them: shared-memory bandwidth of the fragment loads (hence
// the padded rows: +4 floats / +8 bf16 keep the 8 rows a load touches in
// different banks) and global latency (hence the pipeline).  WMMA maps to
// the warp-level `mma.sync` (HMMA in SASS); Hopper's faster path, the
// warpgroup-wide wgmma fed by TMA, is rung 11.
//
// Measured (docs/perf/gemm-fast-rungs.md), both precisions reach only a
// fraction of cuBLAS at the same input precision (cuBLAS uses wgmma).  In SASS the TF32 kernel shows HMMA.1684
// (four per 16×16×8 product), scalar LDS for its fragments (ldmatrix moves
// 16-bit elements only) and the per-element TF32 rounding; the BF16 kernel
// loads its fragments with LDSM (ldmatrix) and issues HMMA.16816.  Wider
// warp tiles (64×64, one block per SM) were tried and were slower.
//
// Seed: none (beyond the lectures' tiling).
#include "tl-gemm-rung.h"
#include "tl-block-timer.cuh"
#include "tl-gemm-async.cuh"

#include <mma.h>
#include <stdio.h>

// Device passes for GPUs older than sm_80 compile the kernels empty, and
// then see some constants unused: keep those passes quiet.
#pragma nv_diag_suppress 177

using namespace nvcuda;

namespace {

// The warp tile is FM×FN fragments of 16×16: 64×32.  Wider warp tiles
// (64×64, 128×256 blocks, one block per SM) were measured slower in both
// precisions (docs/perf/gemm-fast-rungs.md).
constexpr int FM = 4, FN = 2;
constexpr int WM = 16 * FM, WN = 16 * FN;  // warp tile 64×32
constexpr int BM = 2 * WM, BN = 4 * WN;    // block tile 128×128
constexpr int THREADS = 256;               // 8 warps: 2 along m × 4 along n
constexpr int MIN_BLOCKS = 2;              // blocks per SM the register budget aims at

// ---- TF32 ---------------------------------------------------------------

constexpr int T_BK = 32, T_STAGES = 3;  // 4 stages were measured slower
constexpr int T_AS = T_BK + 4;             // A row stride (floats) in shared memory
constexpr int T_BS = BN + 4;               // B row stride
constexpr int T_STAGE = BM * T_AS + T_BK * T_BS;   // floats per stage
constexpr int T_SMEM = T_STAGES * T_STAGE * (int) sizeof (float);  // 105984 B: 2 blocks/SM

// The epilogue's per-warp 16×16 scratch (row stride 20 floats), reusing the
// pipeline buffers once the main loop is over.
constexpr int SCRATCH_LD = 20;

// The TF32 and BF16 fragment types exist only for sm_80 and newer: the
// helpers that name them are left out of older device passes (the kernels'
// bodies are too; check() turns such GPUs away).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800

// ---- fragment loads from shared memory ---------------------------------
//
// wmma::load_matrix_sync takes a generic pointer, and nvcc emits the PTX
// `wmma.load` without a state space: the SASS then uses generic loads
// (LD.E, four 32-bit loads per fragment) even though the tile sits in
// shared memory.  The same PTX instruction with `.shared` lets ptxas use
// shared-memory loads (LDS / LDSM).  The fragment stays opaque: the
// registers are filled by the very instruction load_matrix_sync would use.
__device__ __forceinline__ void
load_a_shared (wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> &f,
               const float *p, int ldm)
{
  uint32_t *r = reinterpret_cast<uint32_t *> (&f.x[0]);
  asm volatile ("wmma.load.a.sync.aligned.row.m16n16k8.shared.tf32 {%0, %1, %2, %3}, [%4], %5;\n"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(tl_smem_addr (p)), "r"(ldm) : "memory");
}

__device__ __forceinline__ void
load_b_shared (wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> &f,
               const float *p, int ldm)
{
  uint32_t *r = reinterpret_cast<uint32_t *> (&f.x[0]);
  asm volatile ("wmma.load.b.sync.aligned.row.m16n16k8.shared.tf32 {%0, %1, %2, %3}, [%4], %5;\n"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(tl_smem_addr (p)), "r"(ldm) : "memory");
}

__device__ __forceinline__ void
load_a_shared (wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> &f,
               const __nv_bfloat16 *p, int ldm)
{
  uint32_t *r = reinterpret_cast<uint32_t *> (&f.x[0]);
  asm volatile ("wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(tl_smem_addr (p)), "r"(ldm) : "memory");
}

__device__ __forceinline__ void
load_b_shared (wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> &f,
               const __nv_bfloat16 *p, int ldm)
{
  uint32_t *r = reinterpret_cast<uint32_t *> (&f.x[0]);
  asm volatile ("wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(tl_smem_addr (p)), "r"(ldm) : "memory");
}

#endif // sm_80+

template <bool VEC>
__device__ __forceinline__ void
tf32_load_tile (float *As, float *Bs, const float *__restrict__ A, const float *__restrict__ B,
                int m, int n, int k, int row0, int col0, int kt)
{
  const int tid = threadIdx.x, k0 = kt * T_BK;
  if (VEC)
    {
#pragma unroll
      for (int i = 0; i < BM * T_BK / 4 / THREADS; i++)
        {
          int c = tid + i * THREADS;
          int r = c / (T_BK / 4), kc = (c % (T_BK / 4)) * 4;
          int gr = row0 + r, gk = k0 + kc;
          bool ok = gr < m && gk < k;
          tl_cp_async_16 (As + r * T_AS + kc, ok ? A + (size_t) gr * k + gk : A, ok);
        }
#pragma unroll
      for (int i = 0; i < T_BK * BN / 4 / THREADS; i++)
        {
          int c = tid + i * THREADS;
          int r = c / (BN / 4), nc = (c % (BN / 4)) * 4;
          int gk = k0 + r, gn = col0 + nc;
          bool ok = gk < k && gn < n;
          tl_cp_async_16 (Bs + r * T_BS + nc, ok ? B + (size_t) gk * n + gn : B, ok);
        }
    }
  else
    {
#pragma unroll 4
      for (int i = 0; i < BM * T_BK / THREADS; i++)
        {
          int e = tid + i * THREADS;
          int r = e / T_BK, kc = e % T_BK;
          int gr = row0 + r, gk = k0 + kc;
          bool ok = gr < m && gk < k;
          tl_cp_async_4 (As + r * T_AS + kc, ok ? A + (size_t) gr * k + gk : A, ok);
        }
#pragma unroll 4
      for (int i = 0; i < T_BK * BN / THREADS; i++)
        {
          int e = tid + i * THREADS;
          int r = e / BN, nc = e % BN;
          int gk = k0 + r, gn = col0 + nc;
          bool ok = gk < k && gn < n;
          tl_cp_async_4 (Bs + r * T_BS + nc, ok ? B + (size_t) gk * n + gn : B, ok);
        }
    }
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// Store a warp's 4×2 accumulator fragments.  Whole fragments inside C go
// straight to global memory (store_matrix_sync needs ldm % 4 == 0 and a
// 32-byte aligned pointer: true for n % 4 == 0 because fragment rows and
// columns are multiples of 16); edge fragments go through shared scratch
// and guarded scalar stores.  Templated on the fragment's k (8 for TF32,
// 16 for BF16): the float accumulators have the same 16×16 layout.
template <int K>
__device__ __forceinline__ void
store_acc (wmma::fragment<wmma::accumulator, 16, 16, K, float> (&acc)[FM][FN], float *scratch,
           float *__restrict__ C, int m, int n, int r0, int c0, bool direct_ok)
{
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < FM; i++)
#pragma unroll
    for (int j = 0; j < FN; j++)
      {
        int r = r0 + i * 16, c = c0 + j * 16;
        if (r >= m || c >= n)
          continue;
        if (direct_ok && r + 16 <= m && c + 16 <= n)
          wmma::store_matrix_sync (C + (size_t) r * n + c, acc[i][j], n, wmma::mem_row_major);
        else
          {
            wmma::store_matrix_sync (scratch, acc[i][j], SCRATCH_LD, wmma::mem_row_major);
            __syncwarp ();
            for (int e = lane; e < 256; e += 32)
              {
                int rr = r + e / 16, cc = c + e % 16;
                if (rr < m && cc < n)
                  C[(size_t) rr * n + cc] = scratch[(e / 16) * SCRATCH_LD + e % 16];
              }
            __syncwarp ();
          }
      }
}

#endif // sm_80+

template <bool VEC>
__global__ void __launch_bounds__ (THREADS, MIN_BLOCKS)
gemm_10_wmma_tf32_kernel (int m, int n, int k, const float *__restrict__ A,
                          const float *__restrict__ B, float *__restrict__ C, int direct_ok,
                          TlGpuBlockRecord *records)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__ (128) float smem[];
  __shared__ unsigned int warps_done;
  tl_block_begin_counting (records, &warps_done);

  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32;
  const int wm = warp / (BN / WN), wn = warp % (BN / WN);

  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; i++)
#pragma unroll
    for (int j = 0; j < FN; j++)
      wmma::fill_fragment (acc[i][j], 0.0f);

  const int KT = (k + T_BK - 1) / T_BK;
#pragma unroll
  for (int s = 0; s < T_STAGES - 1; s++)
    {
      if (s < KT)
        tf32_load_tile<VEC> (smem + s * T_STAGE, smem + s * T_STAGE + BM * T_AS, A, B, m, n, k,
                             row0, col0, s);
      tl_cp_async_commit ();
    }

  for (int kt = 0; kt < KT; kt++)
    {
      tl_cp_async_wait<T_STAGES - 2> ();
      __syncthreads ();
      int next = kt + T_STAGES - 1;
      if (next < KT)
        {
          float *st = smem + (next % T_STAGES) * T_STAGE;
          tf32_load_tile<VEC> (st, st + BM * T_AS, A, B, m, n, k, row0, col0, next);
        }
      tl_cp_async_commit ();

      const float *As = smem + (kt % T_STAGES) * T_STAGE;
      const float *Bs = As + BM * T_AS;
#pragma unroll
      for (int kk = 0; kk < T_BK; kk += 8)
        {
          wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[FM];
          wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[FN];
#pragma unroll
          for (int i = 0; i < FM; i++)
            {
              load_a_shared (a[i], As + (wm * WM + i * 16) * T_AS + kk, T_AS);
              // The tensor core reads only the top 19 bits; rounding (not
              // truncating) to TF32 halves the error.
#pragma unroll
              for (int t = 0; t < a[i].num_elements; t++)
                a[i].x[t] = wmma::__float_to_tf32 (a[i].x[t]);
            }
#pragma unroll
          for (int j = 0; j < FN; j++)
            {
              load_b_shared (b[j], Bs + kk * T_BS + wn * WN + j * 16, T_BS);
#pragma unroll
              for (int t = 0; t < b[j].num_elements; t++)
                b[j].x[t] = wmma::__float_to_tf32 (b[j].x[t]);
            }
#pragma unroll
          for (int i = 0; i < FM; i++)
#pragma unroll
            for (int j = 0; j < FN; j++)
              wmma::mma_sync (acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
  tl_cp_async_wait<0> ();
  __syncthreads ();   // the pipeline buffers become the epilogue's scratch

  store_acc (acc, smem + warp * 16 * SCRATCH_LD, C, m, n, row0 + wm * WM, col0 + wn * WN,
             direct_ok != 0);
  tl_block_end_counted (records, &warps_done, 0);
#endif
}

// ---- BF16 ---------------------------------------------------------------

constexpr int H_BK = 64, H_STAGES = 3;   // k-tile 64 was measured faster than 32
static_assert (64 % H_BK == 0, "the padded k (a multiple of 64) must be whole k-tiles");
constexpr int H_AS = H_BK + 8;             // bf16 elements per A row (144 bytes for BK 64)
constexpr int H_BS = BN + 8;               // bf16 elements per B row (272 bytes)
constexpr int H_STAGE = BM * H_AS + H_BK * H_BS;   // elements per stage
constexpr int H_SMEM = H_STAGES * H_STAGE * 2;     // 107520 B: 2 blocks/SM

struct Bf16Layout
{
  int mp, np, kp;             // padded to whole tiles
  size_t a_elems, b_elems;
};

Bf16Layout
bf16_layout (const TlGemmLaunch *l)
{
  Bf16Layout L;
  L.mp = (int) tl_round_up_size (l->m, BM);
  L.np = (int) tl_round_up_size (l->n, BN);
  L.kp = (int) tl_round_up_size (l->k, 64);    // 128-byte rows of A'
  L.a_elems = (size_t) L.mp * L.kp;
  L.b_elems = tl_round_up_size ((size_t) L.kp * L.np, 128);
  return L;
}

// A' is mp×kp and B' kp×np, zero-padded: every tile the kernel reads is
// whole, so its loads need no guards and every cp.async is 16 bytes.
__global__ void __launch_bounds__ (THREADS, MIN_BLOCKS)
gemm_10_wmma_bf16_kernel (int m, int n, int kp, int np, const __nv_bfloat16 *__restrict__ A,
                          const __nv_bfloat16 *__restrict__ B, float *__restrict__ C,
                          int direct_ok, TlGpuBlockRecord *records)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__ (128) __nv_bfloat16 hsmem[];
  __shared__ unsigned int warps_done;
  tl_block_begin_counting (records, &warps_done);

  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int warp = tid / 32;
  const int wm = warp / (BN / WN), wn = warp % (BN / WN);

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; i++)
#pragma unroll
    for (int j = 0; j < FN; j++)
      wmma::fill_fragment (acc[i][j], 0.0f);

  // A tile: 128 rows × 64 bytes = 4 chunks a row; B tile: 32 rows × BN×2
  // bytes = BN/8 chunks a row.  16-byte copies, all whole: no guards.
  auto load = [&] (int stage, int kt) {
    __nv_bfloat16 *As = hsmem + stage * H_STAGE;
    __nv_bfloat16 *Bs = As + BM * H_AS;
#pragma unroll
    for (int i = 0; i < BM * H_BK / 8 / THREADS; i++)
      {
        int c = tid + i * THREADS;
        int r = c / (H_BK / 8), kc = (c % (H_BK / 8)) * 8;
        tl_cp_async_16 (As + r * H_AS + kc, A + (size_t) (row0 + r) * kp + kt * H_BK + kc, true);
      }
#pragma unroll
    for (int i = 0; i < H_BK * BN / 8 / THREADS; i++)
      {
        int c = tid + i * THREADS;
        int r = c / (BN / 8), nc = (c % (BN / 8)) * 8;
        tl_cp_async_16 (Bs + r * H_BS + nc, B + (size_t) (kt * H_BK + r) * np + col0 + nc, true);
      }
  };

  const int KT = kp / H_BK;
#pragma unroll
  for (int s = 0; s < H_STAGES - 1; s++)
    {
      if (s < KT)
        load (s, s);
      tl_cp_async_commit ();
    }
  for (int kt = 0; kt < KT; kt++)
    {
      tl_cp_async_wait<H_STAGES - 2> ();
      __syncthreads ();
      int next = kt + H_STAGES - 1;
      if (next < KT)
        load (next % H_STAGES, next);
      tl_cp_async_commit ();

      const __nv_bfloat16 *As = hsmem + (kt % H_STAGES) * H_STAGE;
      const __nv_bfloat16 *Bs = As + BM * H_AS;
#pragma unroll
      for (int kk = 0; kk < H_BK; kk += 16)
        {
          wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[FM];
          wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[FN];
#pragma unroll
          for (int i = 0; i < FM; i++)
            load_a_shared (a[i], As + (wm * WM + i * 16) * H_AS + kk, H_AS);
#pragma unroll
          for (int j = 0; j < FN; j++)
            load_b_shared (b[j], Bs + kk * H_BS + wn * WN + j * 16, H_BS);
#pragma unroll
          for (int i = 0; i < FM; i++)
#pragma unroll
            for (int j = 0; j < FN; j++)
              wmma::mma_sync (acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
  tl_cp_async_wait<0> ();
  __syncthreads ();

  float *scratch = reinterpret_cast<float *> (hsmem) + warp * 16 * SCRATCH_LD;
  store_acc (acc, scratch, C, m, n, row0 + wm * WM, col0 + wn * WN, direct_ok != 0);
  tl_block_end_counted (records, &warps_done, 0);
#endif
}

// ---- host side ----------------------------------------------------------

bool
tf32_vec (const TlGemmLaunch *l)
{
  return l->k % 4 == 0 && l->n % 4 == 0 && ((uintptr_t) l->a % 16) == 0
         && ((uintptr_t) l->b % 16) == 0;
}

int
direct_ok (const TlGemmLaunch *l)
{
  return l->n % 4 == 0 && ((uintptr_t) l->c % 32) == 0;
}

dim3
grid_of (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN), tl_ceil_div (l->m, BM));
}

// More than 48 KB of dynamic shared memory must be asked for, per kernel
// and per device: in `prepare`, on the run's device, before the first
// launch.  The plain and the instrumented run launch the same kernel
// (records = nullptr when timed): two template instances would be two
// compilations of the main loop, and the difference measured would be the
// compiler's, not the timer's.  With the end written by the last warp to
// finish (tl_block_end_counted) instead of after a __syncthreads, the TF32
// overhead fell to the noise (docs/perf/gemm-ladder-h100-2026-11-24.md).
template <typename K>
cudaError_t
raise_smem (K kernel, int bytes)
{
  return cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

template <bool VEC>
cudaError_t
tf32_launch_cfg (const TlGemmLaunch *l)
{
  gemm_10_wmma_tf32_kernel<VEC><<<grid_of (l), THREADS, T_SMEM, l->stream>>> (
    l->m, l->n, l->k, (const float *) l->a, (const float *) l->b, (float *) l->c, direct_ok (l),
    l->blocks);
  return cudaGetLastError ();
}

cudaError_t
gemm_10_wmma_tf32_launch (const TlGemmLaunch *l)
{
  return tf32_vec (l) ? tf32_launch_cfg<true> (l) : tf32_launch_cfg<false> (l);
}

cudaError_t
gemm_10_wmma_tf32_prepare (TlGemmLaunch *l)
{
  return tf32_vec (l) ? raise_smem (gemm_10_wmma_tf32_kernel<true>, T_SMEM)
                      : raise_smem (gemm_10_wmma_tf32_kernel<false>, T_SMEM);
}

void
gemm_10_wmma_tf32_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  out->kernel = tf32_vec (l) ? (const void *) gemm_10_wmma_tf32_kernel<true>
                             : (const void *) gemm_10_wmma_tf32_kernel<false>;
  out->grid = grid_of (l);
  out->block = dim3 (THREADS);
  out->dynamic_smem = T_SMEM;
  out->launches = 1;
  out->total_blocks = (size_t) out->grid.x * out->grid.y;
}

TlGpuStatus
common_check (const TlGemmLaunch *l, char *why, size_t why_size, const char *what)
{
  if (l->dtype != TL_GPU_FLOAT32)
    {
      snprintf (why, why_size, "%s takes float32 matrices only", what);
      return TL_GPU_BAD_SHAPE;
    }
  if (l->m < 1 || l->n < 1 || l->k < 1 || l->m > 65535 * BM)
    {
      snprintf (why, why_size, "%s needs 1 <= m <= %d and n, k >= 1", what, 65535 * BM);
      return TL_GPU_BAD_SHAPE;
    }
  if (l->cc < 80)
    {
      snprintf (why, why_size, "%s needs TF32/BF16 tensor cores (compute capability 8.0 or newer)", what);
      return TL_GPU_BAD_SHAPE;
    }
  return TL_GPU_OK;
}

TlGpuStatus
gemm_10_wmma_tf32_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  return common_check (l, why, why_size, "rung 10 (WMMA TF32)");
}

size_t
gemm_10_wmma_bf16_workspace (const TlGemmLaunch *l)
{
  Bf16Layout L = bf16_layout (l);
  return (L.a_elems + L.b_elems) * sizeof (__nv_bfloat16);
}

// The BF16 pre-pass, run by the harness once after the upload and outside
// every timed region (TlGemmRung.prepare): A → mp×kp, B → kp×np, zero
// padded.  The cuBLAS BF16 reference converts in its prepare too, so both
// timings cover the multiply alone; docs/perf gives the pre-pass time.
cudaError_t
gemm_10_wmma_bf16_prepare (TlGemmLaunch *l)
{
  Bf16Layout L = bf16_layout (l);
  if (l->workspace == nullptr || l->workspace_bytes < gemm_10_wmma_bf16_workspace (l))
    return cudaErrorInvalidValue;
  __nv_bfloat16 *a16 = (__nv_bfloat16 *) l->workspace;
  __nv_bfloat16 *b16 = a16 + L.a_elems;
  cudaError_t e = raise_smem (gemm_10_wmma_bf16_kernel, H_SMEM);
  if (e == cudaSuccess)
    e = tl_bf16_convert ((const float *) l->a, l->m, l->k, a16, L.mp, L.kp, false, l->stream);
  if (e == cudaSuccess)
    e = tl_bf16_convert ((const float *) l->b, l->k, l->n, b16, L.kp, L.np, false, l->stream);
  return e;
}

cudaError_t
gemm_10_wmma_bf16_launch (const TlGemmLaunch *l)
{
  Bf16Layout L = bf16_layout (l);
  if (l->workspace == nullptr || l->workspace_bytes < gemm_10_wmma_bf16_workspace (l))
    return cudaErrorInvalidValue;
  const __nv_bfloat16 *a16 = (const __nv_bfloat16 *) l->workspace;
  const __nv_bfloat16 *b16 = a16 + L.a_elems;
  gemm_10_wmma_bf16_kernel<<<grid_of (l), THREADS, H_SMEM, l->stream>>> (
    l->m, l->n, L.kp, L.np, a16, b16, (float *) l->c, direct_ok (l), l->blocks);
  return cudaGetLastError ();
}

void
gemm_10_wmma_bf16_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  out->kernel = (const void *) gemm_10_wmma_bf16_kernel;
  out->grid = grid_of (l);
  out->block = dim3 (THREADS);
  out->dynamic_smem = H_SMEM;
  out->launches = 1;   // the BF16 conversion runs in prepare, untimed
  out->total_blocks = (size_t) out->grid.x * out->grid.y;
}

TlGpuStatus
gemm_10_wmma_bf16_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  return common_check (l, why, why_size, "rung 10 (WMMA BF16)");
}

} // namespace

extern const TlGemmRung gemm_10_wmma_tf32_rung = {
  "gemm-10-wmma-tf32",
  gemm_10_wmma_tf32_launch,
  gemm_10_wmma_tf32_shape,
  gemm_10_wmma_tf32_check,
  nullptr,
  gemm_10_wmma_tf32_prepare,
};

extern const TlGemmRung gemm_10_wmma_bf16_rung = {
  "gemm-10-wmma-bf16",
  gemm_10_wmma_bf16_launch,
  gemm_10_wmma_bf16_shape,
  gemm_10_wmma_bf16_check,
  gemm_10_wmma_bf16_workspace,
  gemm_10_wmma_bf16_prepare,
};

