// gemm-17-simt-tma.cu — rung 17: FP32 on the CUDA cores, warp-specialised:
// the copy engine (TMA) moves the tiles, the FFMA warps only multiply.
// Built only for sm_90a.
//
// What changed from rung 8 (and rung 16).  In rungs 8 and 16 the same
// warps load global memory (LDG), store it to shared memory (STS), compute
// addresses, wait at __syncthreads and multiply.  ncu showed both issuing
// on 76–77% of cycles with 85–90% of the issued instructions FFMAs, at a
// 128-register cap (two blocks per SM).  Here the data movement leaves the
// FFMA warps entirely:
//   1. One producer thread (warpgroup 0) asks the TMA engine for each
//      k-tile of A and B (cp.async.bulk.tensor): the copy lands in one of 3
//      shared-memory stages and completes on that stage's "full" mbarrier.
//      The consumers, done with a stage, arrive on its "empty" mbarrier and
//      the producer reuses it.  No LDG, no STS, no __syncthreads in the
//      consumers: per 32-wide k-tile a consumer thread executes 4096 FFMAs,
//      192 LDS.128 and one mbarrier wait and arrive (95% FFMAs).
//   2. setmaxnreg: the producer warpgroup gives its registers back (40 per
//      thread), the 8 consumer warps take 232 — room for 8 × 16 outputs per
//      thread (128 accumulators) instead of 8 × 8, so each operand loaded
//      from shared memory feeds twice as many FFMAs.
//   3. A arrives in shared memory "k-quad-major", As[k/4][row][k%4], without
//      a transpose: the tensor map views row-major A as a 3-D array —
//      4 consecutive k (16 bytes), then rows (pitch 4k bytes), then k-quads
//      (16 bytes apart) — and a box of 4 × 128 × 8 is written in that order.
//      A consumer then reads 4 k-values of one row with one LDS.128; its 8
//      rows are 4 apart (rows r, r+4, …), so the 4 row-groups of a warp read
//      64 contiguous bytes: no bank conflicts, and every address is the
//      thread's base plus a constant (no index arithmetic in the loop).
//      B's tile is copied as it is (256 floats a row); 8 lanes read 128
//      contiguous bytes.
//
// Shapes: C tile 128 × 256 per CTA (4 × 2 consumer warps of 32 × 128; a
// warp is 4 × 8 lanes, a thread 8 rows × 16 columns: rows r + 4i, columns
// c + 32g … + 3).  k-tile 32.  384 threads: warpgroup 0 the producer,
// warpgroups 1–2 the consumers.  Shared memory: 3 stages × (16 KB of A +
// 32 KB of B) = 144 KB.  One CTA per SM (registers).  Grid: one CTA per C
// tile, numbered in bands of 8 tile-rows (down a band first); plain row
// order measured the same (DRAM is 4.5% busy: L2 reuse is not a limit).
//
// Result (H100, 2026-11-24, tests/lab-gemm-17.cu, median of 3 rounds of
// median-of-10, L2 flushed, cuBLAS SGEMM pedantic in the same process):
// 95.1% of cuBLAS at 4096³, 96.3% at 8192³, 101.7% at 4000×3000×5000
// (rung 8: 88.7 / 89.1 / 91.3%); re-measured 06:40 UTC: 94.6 / 96.3 /
// 101.8% — 4096³ sits at 95% ± 0.5 from run to run.  BK 16 with 6 or 8
// stages: 89–96%; 4 stages instead of 3: 0.3–0.4% slower; bands of 4 or
// 16 tile-rows or row order: within 0.2% (no cheap knob lifts 4096³).
// ncu at 4096³: 2.27 G instructions (cuBLAS: 2.43 G; rung 8: 2.38 G),
// FFMA 94.7% of them, but the SM issues
// on only 77% of cycles (cuBLAS 87%): two consumer warps per scheduler do
// not hide the latency of the shared loads and the FFMA dependences that
// ptxas's schedule leaves (FMA pipe 73.0% against cuBLAS's 77.2%).  The
// margin at 4096³ is thin; details in docs/perf/gemm-cuda-cores-fp64-
// h100-2026-11-24.md.
//
// Any m, n, k ≥ 1.  TMA needs rows that start on 16-byte boundaries: when
// k or n is not a multiple of 4 (or a pointer is misaligned), the producer
// warpgroup's 128 threads fill the stages themselves with guarded scalar
// loads in the same layout (fill_stage; slow, the consumers unchanged).
// Edges of C: TMA fills elements outside A and B with zeros; the stores
// are guarded where the tile leaves C.
//
// The instrumented variant (records != nullptr; the same kernel): thread 0
// — the TMA producer — writes the block's start at entry, and the end is
// written after the consumer warps meet at a named barrier (bar.sync 1,
// 256) past their last store of C; the producer warps do not wait.  A
// block-wide __syncthreads there, where producer warps waited at barrier
// 0 for the whole main loop, made every block 4% slower (H100:
// +4.4% / +4.5% / +3.5% at 4096³, 8192³, 4000×3000×5000; the start alone
// costs 0.0%); at the named barrier, or with the last consumer warp to
// finish writing the end (shared counter), the overhead is 0.0%.  Why parked
// producer warps slow the consumers was not established.
//
// Without an sm_90a build or on another GPU, check() refuses: "needs a
// Hopper GPU (compute capability 9.0) and an sm_90a build".
//
// Seed: none.  The structure is CUTLASS's warp-specialised Hopper GEMM
// (producer/consumer warpgroups, TMA, mbarrier ring) with SIMT FFMAs in
// place of wgmma.
#include "tl-gemm-simt-tma.cuh"

#include <stdio.h>

// The sm_90 (non-"a") and host passes see the device helpers unused.
#pragma nv_diag_suppress 177

namespace {

// The instrumented variant's end: the 256 consumer threads meet at named
// barrier 1 after their last store of C (the producer warps, done issuing
// copies, exit without waiting), and consumer thread 0 (`t`) writes the
// end of the block's record, naming its C tile.
__device__ __forceinline__ void
record_consumers_done (TlGpuBlockRecord *records, int t, int tn, int tm)
{
  if (records == nullptr)
    return;
  asm volatile ("bar.sync 1, %0;\n" ::"n"(CONSUMERS) : "memory");
  if (t == 0)
    tl_block_record_end (records, 0, blockIdx.x, tn, tm);
}

// ---- the kernel --------------------------------------------------------------
//
// map_a: A viewed as 4 × m × k/4 (see the header), box 4 × BM × BK/4.
// map_b: B (k×n), box BN × BK.  tma = 0: the maps are unused and the
// producer warpgroup copies (fill_stage).
template <typename Cfg>
__global__ void __launch_bounds__ (THREADS, 1)
gemm_17_kernel (const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m,
                int n, int k, int tma, int vec_c, TlGpuBlockRecord *records)
{
#if TL_SM90A
  constexpr int BK = Cfg::BK, STAGES = Cfg::STAGES;
  extern __shared__ __align__ (128) unsigned char smem_raw[];
  __shared__ __align__ (8) uint64_t full[STAGES], empty[STAGES];
  const uint32_t raw = tl_smem_addr (smem_raw);
  const Stages<Cfg> st = { smem_raw + (((raw + 127) & ~127u) - raw) };

  tl_block_begin (records);   // thread 0: the block's start

  const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
  int tm, tn;
  tile_of (blockIdx.x, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
  const int row0 = tm * BM, col0 = tn * BN;
  const int KT = (k + BK - 1) / BK;

  init_stage_barriers<STAGES> (full, empty, tma);
  __syncthreads ();

  if (threadIdx.x < 128)
    {
      // Producer warpgroup: gives its registers to the consumers.
      tl_setmaxnreg_dec<40> ();
      if (tma)
        {
          if (threadIdx.x == 0)
            for (int kt = 0; kt < KT; kt++)
              {
                const int s = kt % STAGES;
                tl_mbar_wait (&empty[s], ((kt / STAGES) & 1) ^ 1);
                tma_fill_stage (st, s, &full[s], &map_a, &map_b, row0, col0, kt);
              }
        }
      else
        for (int kt = 0; kt < KT; kt++)
          {
            const int s = kt % STAGES;
            tl_mbar_wait (&empty[s], ((kt / STAGES) & 1) ^ 1);
            fill_stage<BK> (st.a (s), st.b (s), a, b, m, n, k, row0, col0, kt * BK, threadIdx.x);
            tl_mbar_arrive (&full[s]);
          }
    }
  else
    {
      tl_setmaxnreg_inc<232> ();
      const int t = threadIdx.x - 128;
      int r, col;   // this thread's first row and column of the tile
      consumer_origin (t, &r, &col);

      float acc[TM][TN];
      zero_acc (acc);
      for (int kt = 0; kt < KT; kt++)
        {
          const int s = kt % STAGES;
          tl_mbar_wait (&full[s], (kt / STAGES) & 1);
          multiply_stage<BK> (acc, reinterpret_cast<const float4 *> (st.a (s)) + r,
                              reinterpret_cast<const float4 *> (st.b (s) + col));
          tl_mbar_arrive (&empty[s]);
        }

      const bool inside = row0 + BM <= m && col0 + BN <= n;
      store_tile (acc, c, m, n, row0 + r, col0 + col, vec_c && inside);
      record_consumers_done (records, t, tn, tm);
    }
#endif
}

// ---- host side -----------------------------------------------------------------

template <typename Cfg>
dim3
grid_of (const TlGemmLaunch *l)
{
  return dim3 (tl_ceil_div (l->m, BM) * tl_ceil_div (l->n, BN));
}

template <typename Cfg>
cudaError_t
launch_cfg (const TlGemmLaunch *l)
{
  CUtensorMap map_a, map_b;
  bool tma;
  if (!make_maps<Cfg> (l, &map_a, &map_b, &tma))
    return cudaErrorInvalidValue;
  gemm_17_kernel<Cfg><<<grid_of<Cfg> (l), THREADS, Cfg::SMEM, l->stream>>> (
    map_a, map_b, (const float *) l->a, (const float *) l->b, (float *) l->c, l->m, l->n, l->k,
    tma ? 1 : 0, vec_c_ok (l) ? 1 : 0, l->blocks);
  return cudaGetLastError ();
}

template <typename Cfg>
void
shape_cfg (const TlGemmLaunch *l, TlGemmShape *out)
{
  tl_gemm_shape_one (out, (const void *) gemm_17_kernel<Cfg>, grid_of<Cfg> (l), dim3 (THREADS),
                     Cfg::SMEM);
}

template <typename Cfg>
cudaError_t
prepare_cfg (TlGemmLaunch *)
{
  return cudaFuncSetAttribute (gemm_17_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               Cfg::SMEM);
}

TlGpuStatus
check_17 (const TlGemmLaunch *l, char *why, size_t why_size)
{
  return tl_wgmma_check (l, 17, why, why_size);
}

using Rung17 = Config<32, 3, 8>;   // BK 32, 3 stages, bands of 8 tile-rows (see the header)

} // namespace

extern const TlGemmRung gemm_17_simt_tma_rung = {
  "gemm-17-simt-tma", launch_cfg<Rung17>, shape_cfg<Rung17>, check_17, nullptr, prepare_cfg<Rung17>,
};
