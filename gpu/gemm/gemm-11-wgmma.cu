// gemm-11-wgmma.cu — rung 11: the Hopper path.  wgmma (warpgroup matrix
// multiply-accumulate) fed by TMA (the Tensor Memory Accelerator, the bulk
// tensor copy engine), a 4-stage shared-memory pipeline synchronised with
// mbarriers, and warp specialisation (one producer warpgroup, two consumer
// warpgroups).  Built only for sm_90a.
//
// C (m×n, float32) = A (m×k) · B (k×n), inputs float32 converted to BF16,
// fp32 accumulation, all row-major.
//
// What changed from rung 10 (WMMA):
//  1. wgmma instead of mma.sync.  A *warpgroup* (4 consecutive warps, 128
//     threads) issues one asynchronous m64n256k16 product: 64×256×16 MACs
//     per instruction, operands read by the tensor cores straight from
//     shared memory through 64-bit "matrix descriptors" (address, strides,
//     swizzle mode) — no load_matrix_sync into registers, so registers hold
//     only the 64×256 fp32 accumulator (128 floats per thread).  In SASS
//     this is HGMMA; rung 10 was HMMA.
//  2. TMA instead of cp.async.  One thread hands the copy engine a
//     CUtensorMap (built on the host with cuTensorMapEncodeTiled, passed as
//     a __grid_constant__ kernel parameter) and tile coordinates; the engine
//     moves the whole 128×64 (A) or 256×64 (B) box, zero-fills whatever
//     lies outside the matrix (so the kernel has no edge code at all on the
//     load side), writes it in the 128-byte swizzled layout wgmma reads
//     without bank conflicts, and signals an mbarrier when the bytes landed.
//  3. Warp specialisation.  Warpgroup 0 is the producer: one of its threads
//     waits for a free stage (the "empty" mbarrier), announces the bytes to
//     expect on the "full" mbarrier and issues the two TMA copies.
//     Warpgroups 1 and 2 are consumers: each waits on "full", multiplies
//     its 64×256 half of the 128×256 block tile, and arrives on "empty"
//     when its wgmmas have read the stage.  The producer gives registers
//     back (setmaxnreg.dec to 40) and the consumers take them (setmaxnreg.inc
//     to 232): the accumulators need them.
//
// The pre-pass (in `prepare`: run once after the upload, outside the timed
// region, as the cuBLAS BF16 reference does — the timings compare the
// multiplies alone; docs/perf lists the pre-pass time): A → bf16 m×kp, B → bf16
// transposed, n×kp (kp = k rounded up to 64: TMA needs rows that start on
// 16-byte boundaries, and with 128-byte rows every box row is one aligned
// 128-byte line; the padding is zeros).  Both operands are then "K-major" —
// the layout wgmma reads with no transpose — and the same 128-byte
// swizzle serves both.
//
// Bottleneck attacked: rung 10's warps load every fragment through the
// register file with load_matrix_sync and issue small synchronous mma.sync
// instructions; on Hopper that path reaches only part of the tensor cores'
// rate.  Here the tensor cores read shared memory themselves, the loads
// are one instruction per tile, and copy, multiply and release overlap
// across 4 stages.
//
// Occupancy: 384 threads, 4 × 48 KB of shared memory: one block per SM;
// the pipeline, not other blocks, hides latency.  Waves: 4096² is
// 32×16 = 512 tiles of 128×256 on 132 SMs: 3.9 waves.
//
// Without an sm_90a build or on another GPU, check() answers "bad shape:
// needs a Hopper GPU (sm_90a build)".
//
// Seed: none.  The structure follows the public Hopper GEMM write-ups
// (CUTLASS's warp-specialised mainloop; the "fast.cu" worklog).
#include "tl-gemm-rung.h"
#include "tl-block-timer.cuh"
#include "tl-gemm-async.cuh"
#include "tl-hopper-pipeline.cuh" // the pipeline, shared with rungs 13 and 14 (and tl-wgmma.cuh's instructions)

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdio.h>

// The sm_90 (non-"a") and host passes see the wgmma helpers below unused:
// their bodies compile only for sm_90a.  Keep those passes quiet.
#pragma nv_diag_suppress 177

namespace {

constexpr int BM = 128, BN = 256, BK = 64;   // block tile; BK × 2 bytes = one 128-byte swizzle row
constexpr int STAGES = 4;
constexpr int CONSUMERS = 2;                  // consumer warpgroups, 64 rows of C each
constexpr int THREADS = 128 * (CONSUMERS + 1);
constexpr int A_STAGE = BM * BK;              // bf16 elements
constexpr int B_STAGE = BN * BK;
constexpr int STAGE_BYTES = (A_STAGE + B_STAGE) * 2;      // 48 KB
constexpr int SMEM = STAGES * STAGE_BYTES + 1024;         // + slack to align to 1024

// ---- the instructions ------------------------------------------------------
//
// The PTX wrappers live in tl-wgmma.cuh, shared with rungs 13, 14 and 17
// (their comments say what each instruction does); the pipeline below is
// built from them:
//   tl_mbar_init / tl_mbar_expect_tx / tl_mbar_arrive / tl_mbar_wait — the
//     mbarriers: a 64-bit word in shared memory counting arrivals and, for
//     TMA, bytes; waiters ask whether the phase of parity p has completed;
//   tl_tma_load — one TMA box into shared memory, completing on an mbarrier;
//   tl_desc_k128 — the 64-bit matrix descriptor of a K-major tile in the
//     128-byte swizzled layout TMA writes;
//   tl_wgmma_m64n256k16_bf16, tl_wgmma_fence / _commit / _wait — the
//     asynchronous warpgroup multiply and its fences;
//   tl_setmaxnreg_inc / _dec — moving registers between warpgroups;
//   tl_fence_acc — keeps the compiler from serialising the wgmmas.
// All of them compile to nothing outside the sm_90a pass (TL_SM90A).

// ---- the pipeline ----------------------------------------------------------
//
// The stage ring with its mbarrier phases (the producer waits for an empty
// stage and expects its bytes) and the consumers' loop (wait for a full
// stage, wgmma, release the previous one) are tl-hopper-pipeline.cuh's,
// shared with rungs 13 and 14; its header comment explains them.  Rung 11
// runs them for one tile per CTA.  Its own part: where the stages lie (all
// A tiles, then all B tiles), what the producer copies and what the
// consumers multiply.

// Consumer warpgroup cw: rows cw*64 … cw*64+63 of the block tile, both
// operands read by the tensor cores straight from shared memory.
struct Consumer : TlSmemOperands
{
  const __nv_bfloat16 *sA, *sB;   // [STAGES][128][64], [STAGES][256][64]
  int cw;
  const __nv_bfloat16 *a, *b;     // this k-step's tiles: our 64 rows of A, all of B

  __device__ __forceinline__
  Consumer (const __nv_bfloat16 *sA_, const __nv_bfloat16 *sB_, int cw_)
    : sA (sA_), sB (sB_), cw (cw_)
  {
  }

  template <int B>
  __device__ __forceinline__ void
  fetch (int s)
  {
    a = sA + s * A_STAGE + cw * 64 * BK;
    b = sB + s * B_STAGE;
  }

  // Four k16 steps across the 64-wide (128-byte) swizzled rows: the
  // descriptor's start address moves by 32 bytes; the hardware applies the
  // swizzle to the final address.  No zero-fill of d: the very first wgmma
  // runs with scale-d = 0 (d = A·B), so no ordinary instruction writes the
  // accumulators while wgmmas are in flight.
  template <int B>
  __device__ __forceinline__ void
  mma (float (&d)[128], bool acc)
  {
#pragma unroll
    for (int kk = 0; kk < BK / 16; kk++)
      tl_wgmma_m64n256k16_bf16 (d, tl_desc_k128 (a + kk * 16), tl_desc_k128 (b + kk * 16),
                                (acc || kk > 0) ? 1 : 0);
  }
};

// ---- the kernel -----------------------------------------------------------

// map_a: A16, m×kp bf16, box 64 (k) × 128 (m).  map_b: B16ᵀ, n×kp, box
// 64 × 256.  Both 128-byte swizzled.  One block computes a 128×256 tile.
template <bool INSTR>
__global__ void __launch_bounds__ (THREADS, 1)
gemm_11_wgmma_kernel (const __grid_constant__ CUtensorMap map_a,
                      const __grid_constant__ CUtensorMap map_b, int m, int n, int kp,
                      float *__restrict__ C, TlGpuBlockRecord *records)
{
#if TL_SM90A
  // The swizzle pattern repeats every 1024 bytes and the descriptors assume
  // tiles start on such a boundary, so align the dynamic buffer by hand.
  extern __shared__ __align__ (1024) unsigned char smem_raw[];
  __shared__ __align__ (8) uint64_t full[STAGES], empty[STAGES];
  uint32_t raw = tl_smem_addr (smem_raw);
  unsigned char *base = smem_raw + (((raw + 1023) & ~1023u) - raw);
  __nv_bfloat16 *sA = reinterpret_cast<__nv_bfloat16 *> (base);     // [STAGES][128][64]
  __nv_bfloat16 *sB = sA + STAGES * A_STAGE;                          // [STAGES][256][64]
  const TlStageRing<STAGES, 1> ring = { full, empty };

  unsigned long long t0 = tl_block_begin (INSTR ? records : nullptr);

  const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int KT = (kp + BK - 1) / BK;

  // "full": one arrival (the producer's expect_tx, plus the bytes);
  // "empty": one arrival per consumer warp.
  tl_stage_ring_init<STAGES, 1> (full, empty, CONSUMERS * 4);

  if (wg == 0)
    {
      // Producer: one thread, two TMA copies per k-step.  With one tile
      // per CTA the k-step is the ring's counter.
      tl_setmaxnreg_dec<40> ();
      if (tid == 0)
        for (int kt = 0; kt < KT; kt++)
          {
            const int s = ring.acquire (kt, STAGE_BYTES);   // an empty stage, its bytes announced
            tl_tma_load (sA + s * A_STAGE, &map_a, &full[s], kt * BK, m0);
            tl_tma_load (sB + s * B_STAGE, &map_b, &full[s], kt * BK, n0);
          }
    }
  else
    {
      tl_setmaxnreg_inc<232> ();
      const int cw = wg - 1;          // rows cw*64 … cw*64+63 of the block tile
      Consumer consumer (sA, sB, cw);
      float d[128];
      int it = 0;
      tl_pipe_mainloop (ring, consumer, d, it, 0, KT);

      // Epilogue.  wgmma's accumulator layout: warp w of the warpgroup owns
      // rows 16w … 16w+15; lane l holds, for each 8-column group i, the
      // pairs (row l/4, cols 8i + 2(l%4) + {0,1}) and the same 8 rows lower.
      const int w = tid / 32, l = tid % 32;
      const int r_top = m0 + cw * 64 + w * 16 + l / 4;
      const bool pairs = (n % 2) == 0;
#pragma unroll
      for (int half = 0; half < 2; half++)
        {
          int r = r_top + half * 8;
          if (r >= m)
            continue;
          float *crow = C + (size_t) r * n;
#pragma unroll
          for (int i = 0; i < 32; i++)
            {
              int c = n0 + i * 8 + (l % 4) * 2;
              float v0 = d[i * 4 + half * 2], v1 = d[i * 4 + half * 2 + 1];
              if (pairs && c + 1 < n)
                *reinterpret_cast<float2 *> (crow + c) = make_float2 (v0, v1);
              else
                {
                  if (c < n)
                    crow[c] = v0;
                  if (c + 1 < n)
                    crow[c + 1] = v1;
                }
            }
        }
    }

  tl_block_end (INSTR ? records : nullptr, t0, 0);
#endif
}

// ---- host side ------------------------------------------------------------

struct Layout
{
  int kp;
  size_t a_bytes, b_bytes;    // b starts at a_bytes (a multiple of 1024)
};

Layout
layout_of (const TlGemmLaunch *l)
{
  Layout L;
  L.kp = (int) tl_round_up_size (l->k, 64);   // 128-byte rows: every TMA box row is one aligned 128-byte line
  L.a_bytes = tl_round_up_size ((size_t) l->m * L.kp * 2, 1024);
  L.b_bytes = tl_round_up_size ((size_t) l->n * L.kp * 2, 1024);
  return L;
}

size_t
gemm_11_wgmma_workspace (const TlGemmLaunch *l)
{
  Layout L = layout_of (l);
  return L.a_bytes + L.b_bytes;
}

// rows × kp bf16, row-major; box BK × box_rows, 128-byte swizzle; out-of-
// range elements of a box read as zero.
bool
make_map (CUtensorMap *map, const void *ptr, int rows, int kp, int box_rows)
{
  return tl_tensor_map_2d (map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, rows, kp, (size_t) kp * 2,
                           box_rows, BK, CU_TENSOR_MAP_SWIZZLE_128B);
}

dim3
grid_of (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->n, BN), tl_ceil_div (l->m, BM));
}

// The BF16 pre-pass (TlGemmRung.prepare: once after the upload, outside
// every timed region, like the cuBLAS BF16 reference's conversion):
// A → m×kp; B (k×n) → Bᵀ, n×kp.
// It also raises the kernels' shared-memory limit (over 48 KB must be
// asked for, per kernel and per device), for the plain and the
// instrumented variant.
cudaError_t
gemm_11_wgmma_prepare (TlGemmLaunch *l)
{
  Layout L = layout_of (l);
  if (l->workspace == nullptr || l->workspace_bytes < L.a_bytes + L.b_bytes)
    return cudaErrorInvalidValue;
  __nv_bfloat16 *a16 = (__nv_bfloat16 *) l->workspace;
  __nv_bfloat16 *b16 = (__nv_bfloat16 *) ((char *) l->workspace + L.a_bytes);
  const cudaFuncAttribute max_smem = cudaFuncAttributeMaxDynamicSharedMemorySize;
  cudaError_t e = cudaFuncSetAttribute (gemm_11_wgmma_kernel<false>, max_smem, SMEM);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute (gemm_11_wgmma_kernel<true>, max_smem, SMEM);
  if (e == cudaSuccess)
    e = tl_bf16_convert ((const float *) l->a, l->m, l->k, a16, l->m, L.kp, false, l->stream);
  if (e == cudaSuccess)
    e = tl_bf16_convert ((const float *) l->b, l->k, l->n, b16, l->n, L.kp, true, l->stream);
  return e;
}

template <bool INSTR>
cudaError_t
launch_cfg (const TlGemmLaunch *l)
{
  Layout L = layout_of (l);
  if (l->workspace == nullptr || l->workspace_bytes < L.a_bytes + L.b_bytes)
    return cudaErrorInvalidValue;
  __nv_bfloat16 *a16 = (__nv_bfloat16 *) l->workspace;
  __nv_bfloat16 *b16 = (__nv_bfloat16 *) ((char *) l->workspace + L.a_bytes);
  CUtensorMap map_a, map_b;
  if (!make_map (&map_a, a16, l->m, L.kp, BM) || !make_map (&map_b, b16, l->n, L.kp, BN))
    return cudaErrorInvalidValue;
  gemm_11_wgmma_kernel<INSTR><<<grid_of (l), THREADS, SMEM, l->stream>>> (
    map_a, map_b, l->m, l->n, L.kp, (float *) l->c, l->blocks);
  return cudaGetLastError ();
}

cudaError_t
gemm_11_wgmma_launch (const TlGemmLaunch *l)
{
  return l->blocks ? launch_cfg<true> (l) : launch_cfg<false> (l);
}

void
gemm_11_wgmma_shape (const TlGemmLaunch *l, TlGemmShape *out)
{
  out->kernel = (const void *) gemm_11_wgmma_kernel<false>;
  out->grid = grid_of (l);
  out->block = dim3 (THREADS);
  out->dynamic_smem = SMEM;
  out->launches = 1;   // the BF16 conversion runs in prepare, untimed
  out->total_blocks = (size_t) out->grid.x * out->grid.y;
}

TlGpuStatus
gemm_11_wgmma_check (const TlGemmLaunch *l, char *why, size_t why_size)
{
  if (l->dtype != TL_GPU_FLOAT32)
    {
      snprintf (why, why_size, "rung 11 takes float32 matrices only");
      return TL_GPU_BAD_SHAPE;
    }
  if (l->m < 1 || l->n < 1 || l->k < 1 || l->m > 65535 * BM)
    {
      snprintf (why, why_size, "rung 11 needs 1 <= m <= %d and n, k >= 1", 65535 * BM);
      return TL_GPU_BAD_SHAPE;
    }
  if (!tl_sm90a_ready (l))
    {
      snprintf (why, why_size, "needs a Hopper GPU (sm_90a build)");
      return TL_GPU_BAD_SHAPE;
    }
  if (tl_tensor_map_encoder () == nullptr)
    {
      snprintf (why, why_size, "rung 11 needs cuTensorMapEncodeTiled (CUDA 12 driver or newer)");
      return TL_GPU_BAD_SHAPE;
    }
  return TL_GPU_OK;
}

} // namespace

extern const TlGemmRung gemm_11_wgmma_rung = {
  "gemm-11-wgmma",
  gemm_11_wgmma_launch,
  gemm_11_wgmma_shape,
  gemm_11_wgmma_check,
  gemm_11_wgmma_workspace,
  gemm_11_wgmma_prepare,
};

