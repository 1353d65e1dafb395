// lu-06-fused-kernel.cuh — rung 6's kernels: the whole factorisation in ONE
// persistent launch, the panel in one SM's registers, the rest of the GPU
// updating column blocks, the two kinds of thread block handing work to
// each other through flags in L2.  The rung around them is lu-06-fused.cu.
//
// Shapes.  A is row-major m×n with leading dimension lda.  The columns are
// cut into BLOCKS of W (16 or 32 float32, 8 or 16 float64); block k is also
// PANEL k for k < nsteps = ⌈min(m,n)/W⌉.  A launch is G thread blocks of
// LU06_THREADS threads, one per SM (cooperative launch: all resident):
//
//   block 0, the PANEL CTA: slot r of thread t holds one row of the panel,
//     x[r][0 … W), in REGISTERS, and the row it stands for, lab[r]; RPT ≤ 4
//     slots per thread, so one SM holds m ≤ 512·RPT rows.  Per panel:
//       1. factor its W columns, one __syncthreads per column (below);
//       2. write the panel (L, and U's W×W block) and the list of the
//          rows its pivoting moved, then publish: panels = k + 1;
//       3. LOOK AHEAD: apply step k to block k+1 itself — its rows come in
//          through a shared-memory stage (prefetched with cp.async while
//          step 1 ran, when the block was ready), U12 = L11⁻¹·A12 by W
//          threads, and the rank-W update of every slot's row — and keep
//          the result in the registers: it IS panel k+1.  The panel never
//          leaves the SM between steps except to be published.
//   blocks 1 … G−1, the WORKERS: worker w owns the column blocks
//     b ≡ w − 1 (mod G − 1), one or several.  For each step k, once
//     panels > k, each of its blocks right of the panel: the rows the
//     panel moved (gathered, then scattered), U12 by a triangular solve,
//     and the rank-W update of the block's rows below, in chunks of
//     LU06_THREADS rows whose loads (cp.async) overlap the previous
//     chunk's arithmetic; then done[b] = k + 1 and updated[k] += 1.  Its
//     blocks left of the panel only get the row swaps.  The next panel's
//     block is the panel CTA's (step 3); block k+2 goes first, it is the
//     one the panel CTA waits for next (done[k+2] ≥ k + 1).
//
// Which bottleneck this attacks.  At n ≤ 2048 an LU is latency, not
// arithmetic (2/3·n³ is 5.7 GFLOP at n = 2048: a millisecond at a tenth of
// the GPU's rate).  cuSOLVER's getrf and lu-05 pay per column for a grid or
// cluster agreement (≈ 2 µs: launches, L2 handshakes, cluster barriers and
// their fences) and per block step for several launches (swaps, TRSM, GEMM,
// the look-ahead's events).  Here a column costs one CTA barrier and a few
// warp reductions (≈ 0.3 µs), a block step a flag in L2, and the whole
// factorisation one launch.
//
// One column j (c = k0 + j), all in the panel CTA:
//
//   barrier ─► every warp reads the 16 warps' posts (|value|, row, the
//   row's W values) and picks the same pivot ─► swap = relabel two slots ─►
//   scale column j, update column j+1 of its rows, pick the warp's
//   candidate for column j+1 ─► the rest of the rank-1 update ─► the
//   candidate's lane posts its row ─► barrier
//
// (lu-05's column with a CTA barrier where lu-05 has a cluster barrier; the
// candidate keys, reductions and scaling are lu-05's, lu-05-cluster-panel.cuh.)
//
// The one write-after-read edge.  Panel k's L (block k, rows below the
// panel) is read by every worker's step-k update, and block k's owner
// swaps those same rows from step k+1 on.  Nothing else orders the two —
// a worker with more blocks than others lags steps behind the panel, and
// a swap under its reads pairs A's rows with the wrong rows of L — so the
// owner's first swap of block k waits for updated[k] to count every block
// that step k updates (lu06_worker_blocks); its later swaps follow it.
//
// Memory ordering.  Every thread that wrote what a flag announces runs
// __threadfence() (its writes reach L2 before anything it writes later),
// then a __syncthreads, then thread 0 writes the flag with st.release.gpu
// (a worker's done[b] and updated[k]: one fence.acq_rel.gpu, then both);
// the reader's thread 0 spins with ld.acquire.gpu, then a __syncthreads:
// the acquire invalidates the reader's L1, so the plain loads and cp.async
// copies that follow see the writer's data.  The same chain orders reads
// before writes: the values a worker's update read were used before its
// __syncthreads, so no swap after the acquire can reach them.  A wait
// that takes 20 s is a bug: it traps instead of hanging the GPU.
//
// Recording (--record) uses two more kernels with the same pieces: one CTA
// factors one column of a panel (loads the panel, runs the column, stores
// it back), and one CTA per block applies a step's TRSM and update (the
// swaps outside the panel by lu-04's staged kernel between them).
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <float.h>
#include <limits.h>

#include "lu-05-cluster-panel.cuh" // Lu05Cand and its reductions, lu05_eliminate, lu05_update_rest

#define LU06_THREADS 512
#define LU06_WARPS (LU06_THREADS / 32)
#define LU06_SPIN_LIMIT_NS 20000000000ull // a wait of 20 s is a bug: trap

template <typename T> struct Lu06Args
{
  T *a;                // row-major, leading dimension lda
  int m, n, lda;
  int nsteps, nblocks; // panels ⌈min(m,n)/W⌉, column blocks ⌈n/W⌉
  int s0, s1;          // the persistent kernel runs steps [s0, s1); the record kernels step s0
  int j0, j1;          // the record-column kernel: columns j0 … j1−1 of panel s0
  int workers;         // gridDim.x − 1 (the persistent kernel)
  int *ipiv;           // 0-based
  unsigned *panels;    // panels published (never reset within a factorisation)
  unsigned *done;      // per column block: the steps applied to it
  unsigned *updated;   // per step: the column blocks the workers have applied it to
  int *swaps;          // per step, lu06_swap_words (W) ints: count, then (to, from) pairs
};

// A step's swap list: the count and at most 2W (to, from) row pairs.
__host__ __device__ constexpr int
lu06_swap_words (int w)
{
  return 1 + 4 * w;
}

template <typename T, int W> struct Lu06Smem
{
  Lu05Cand key[2][LU06_WARPS];               // the warps' posts for the next column
  __align__ (16) T row[2][LU06_WARPS][W];    // … and their rows ([2]: the column's parity)
  __align__ (16) T zero[W];
  __align__ (16) T l11[W][W];                // the unit lower triangle of the step (below the diagonal)
  __align__ (16) T u12[W][W];                // A12, then L11⁻¹·A12
  T swapbuf[2 * W][W];
  int pair[2 * W][2];                        // the step's (to, from) row pairs
  int early;                                 // panel CTA: block k+1 was ready at the step's start
  int nswap;                                 // panel CTA: pairs written so far
};

// Shared memory of a launch: the struct, then the stage.  The panel CTA's
// stage holds 512·RPT rows of W (+1 against bank conflicts) and an output
// buffer of 512 rows; a worker's, two chunks of 512 rows (A's block, L's
// columns) and an output buffer.
template <typename T, int W>
constexpr size_t
lu06_struct_bytes ()
{
  return (sizeof (Lu06Smem<T, W>) + 15) & ~(size_t) 15;
}

template <typename T, int W, int RPT>
constexpr size_t
lu06_smem_bytes ()
{
  return lu06_struct_bytes<T, W> ()
         + (size_t) (RPT + 1 > 3 ? RPT + 1 : 3) * LU06_THREADS * (W + 1) * sizeof (T);
}

// ---- flags -------------------------------------------------------------------

__device__ __forceinline__ unsigned
lu06_load_acquire (const unsigned *p)
{
  unsigned v;
  asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void
lu06_store_release (unsigned *p, unsigned v)
{
  asm volatile ("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Thread 0, after its CTA's __syncthreads: *done = step and *count += 1,
// both released by one fence (a release fence, then strong relaxed
// writes): what the CTA wrote and read before is ordered before either.
__device__ __forceinline__ void
lu06_release_block (unsigned *done, unsigned step, unsigned *count)
{
  asm volatile ("fence.acq_rel.gpu;\n\t"
                "st.relaxed.gpu.global.u32 [%0], %1;\n\t"
                "red.relaxed.gpu.global.add.u32 [%2], 1;" ::"l"(done), "r"(step), "l"(count) : "memory");
}

__device__ __forceinline__ unsigned long long
lu06_now_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0 only: until *p ≥ v (then the caller's __syncthreads).
__device__ __forceinline__ void
lu06_wait_at_least (const unsigned *p, unsigned v, bool nap)
{
  if (lu06_load_acquire (p) >= v)
    return;
  const unsigned long long t0 = lu06_now_ns ();
  while (lu06_load_acquire (p) < v)
    {
      if (lu06_now_ns () - t0 > LU06_SPIN_LIMIT_NS)
        __trap ();
      if (nap)
        __nanosleep (64);
    }
}

// ---- the panel: slots in registers -------------------------------------------

// Rows [k0, m) of the columns [c0, c0 + w) into the slots (coalesced,
// through `stage`): slot q = r·512 + t stands for row k0 + q.
template <typename T, int W, int RPT>
__device__ void
lu06_load_slots (const Lu06Args<T> &p, T *stage, int k0, int c0, int w, T (&x)[RPT][W], int (&lab)[RPT])
{
  const int h = p.m - k0, tid = threadIdx.x;
  for (int e = tid; e < h * W; e += LU06_THREADS)
    {
      const int q = e / W, col = e % W;
      stage[q * (W + 1) + col] = col < w ? p.a[(size_t) (k0 + q) * p.lda + c0 + col] : T (0);
    }
  __syncthreads ();
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      const int q = r * LU06_THREADS + tid;
      lab[r] = q < h ? k0 + q : -1;
#pragma unroll
      for (int c = 0; c < W; c++)
        x[r][c] = q < h ? stage[q * (W + 1) + c] : T (0);
    }
  __syncthreads ();
}

// The slots' rows to the rows their labels name, columns [c0, c0 + w):
// 512 rows at a time through `out`, so the stores are coalesced.
template <typename T, int W, int RPT>
__device__ void
lu06_store_slots (const Lu06Args<T> &p, T *out, int k0, int c0, int w, const T (&x)[RPT][W],
                  const int (&lab)[RPT])
{
  for (int p0 = k0; p0 < p.m; p0 += LU06_THREADS)
    {
#pragma unroll
      for (int r = 0; r < RPT; r++)
        if (lab[r] >= p0 && lab[r] < p0 + LU06_THREADS)
#pragma unroll
          for (int c = 0; c < W; c++)
            out[(lab[r] - p0) * (W + 1) + c] = x[r][c];
      __syncthreads ();
      const int rows = min (LU06_THREADS, p.m - p0);
      for (int e = threadIdx.x; e < rows * W; e += LU06_THREADS)
        {
          const int q = e / W, col = e % W;
          if (col < w)
            p.a[(size_t) (p0 + q) * p.lda + c0 + col] = out[q * (W + 1) + col];
        }
      __syncthreads ();
    }
}

// The warp's best candidate: its key to key[par][warp], its row to row[par][warp].
template <typename T, int W, int RPT>
__device__ __forceinline__ void
lu06_post (const T (&x)[RPT][W], const int (&lab)[RPT], const Lu05Cand &mine, Lu06Smem<T, W> &sh, int par)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const Lu05Cand best = lu05_warp_best<T> (mine);
  if (lane == 0)
    sh.key[par][warp] = best;
  if (best.i != INT_MAX)
    lu05_post_row<T, W, RPT> (x, lab, best.i, sh.row[par][warp]);
}

// The posts for column j of the panel at k0 (before the loop's first barrier).
template <typename T, int W, int RPT>
__device__ __forceinline__ void
lu06_post_first (const T (&x)[RPT][W], const int (&lab)[RPT], Lu06Smem<T, W> &sh, int k0, int j)
{
  Lu05Cand mine = lu05_none ();
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      T v = T (0);
#pragma unroll
      for (int c = 0; c < W; c++)
        v = c == j ? x[r][c] : v;
      if (lab[r] >= k0 + j)
        lu05_better (mine, lu05_cand (v, lab[r]));
    }
  lu06_post<T, W, RPT> (x, lab, mine, sh, j & 1);
}

// Columns j0 … j1−1 of the panel at k0 (after lu06_post_first and a
// barrier), one barrier per column.  Pivoting is LAPACK's getf2, as lu-05's.
template <typename T, int W, int RPT>
__device__ void
lu06_columns (T (&x)[RPT][W], int (&lab)[RPT], Lu06Smem<T, W> &sh, int k0, int j0, int j1, int *ipiv)
{
  const int lane = threadIdx.x & 31;
  const T sfmin = sizeof (T) == 4 ? (T) FLT_MIN : (T) DBL_MIN;
#pragma unroll
  for (int j = 0; j < W; j++)
    {
      if (j < j0)
        continue;
      if (j >= j1)
        break;
      const int c = k0 + j, par = j & 1;
      // the pivot, in every warp at once
      const Lu05Cand posted = lane < LU06_WARPS ? sh.key[par][lane] : lu05_none ();
      const Lu05Cand best = lu05_warp_best<T> (posted);
      const unsigned from = __ballot_sync (0xffffffffu, lane < LU06_WARPS && posted.i == best.i
                                                          && best.i != INT_MAX);
      const int piv = (best.hi | best.lo) != 0u ? best.i : c; // a zero column: no swap (LAPACK)
      const T *prow = from ? sh.row[par][__ffs (from) - 1] : sh.zero;
      if (threadIdx.x == 0)
        ipiv[c] = piv;
      // the swap (labels only), the multipliers, column j+1 and its candidates
      const Lu05Cand mine = lu05_eliminate<T, W, RPT> (x, lab, c, j, piv, prow, sfmin);
      lu05_update_rest<T, W, RPT> (x, lab, c, j, prow);
      if (j + 1 < j1)
        lu06_post<T, W, RPT> (x, lab, mine, sh, par ^ 1);
      __syncthreads ();
    }
}

// ---- a step's triangular solve and update, for one column block ---------------

// U12 = L11⁻¹·U12 in shared memory: thread c < W solves column c.
template <typename T, int W>
__device__ __forceinline__ void
lu06_trsm (Lu06Smem<T, W> &sh)
{
  const int c = threadIdx.x;
  if (c >= W)
    return;
  T u[W];
#pragma unroll
  for (int t = 0; t < W; t++)
    u[t] = sh.u12[t][c];
#pragma unroll
  for (int t = 1; t < W; t++)
#pragma unroll
    for (int s = 0; s < t; s++)
      u[t] -= sh.l11[t][s] * u[s];
#pragma unroll
  for (int t = 0; t < W; t++)
    sh.u12[t][c] = u[t];
}

// y[0 … W) −= l[0 … W)·U12 (U12's rows read as 16-byte vectors: broadcasts).
template <typename T, int W>
__device__ __forceinline__ void
lu06_gemv_row (T (&y)[W], const T (&l)[W], const Lu06Smem<T, W> &sh)
{
  typedef Lu05Vec<T> Vec;
#pragma unroll
  for (int t = 0; t < W; t++)
    {
      const T lt = l[t];
#pragma unroll
      for (int c4 = 0; c4 < W; c4 += Vec::n)
        {
          const typename Vec::V u = *(const typename Vec::V *) &sh.u12[t][c4];
#pragma unroll
          for (int k = 0; k < Vec::n; k++)
            y[c4 + k] -= lt * Vec::at (u, k);
        }
    }
}

// The rows [p0, p0 + rows) of A's block columns [b0, b0 + wb) and of the
// panel's columns [k0, k0 + wk) into As and Ls (cp.async, one group); the
// columns past wb and wk are zeros.
template <typename T, int W>
__device__ void
lu06_issue_chunk (const Lu06Args<T> &p, T *as, T *ls, int p0, int rows, int b0, int wb, int k0, int wk)
{
  for (int e = threadIdx.x; e < rows * W; e += LU06_THREADS)
    {
      const int q = e / W, c = e % W;
      const T *row = p.a + (size_t) (p0 + q) * p.lda;
      T *da = as + q * (W + 1) + c, *dl = ls + q * (W + 1) + c;
      if (c < wb)
        __pipeline_memcpy_async (da, row + b0 + c, sizeof (T));
      else
        *da = T (0);
      if (c < wk)
        __pipeline_memcpy_async (dl, row + k0 + c, sizeof (T));
      else
        *dl = T (0);
    }
  __pipeline_commit ();
}

// A(p, b) −= L(p, panel)·U12 for the rows p ≥ k0 + wk, 512 rows a chunk,
// the next chunk's loads in flight during this one's arithmetic.  The
// first chunk was issued by the caller; U12 is in sh.u12.
template <typename T, int W>
__device__ void
lu06_update_rows (const Lu06Args<T> &p, const Lu06Smem<T, W> &sh, T *buf, int k0, int wk, int b0, int wb)
{
  T *as = buf, *ls = buf + LU06_THREADS * (W + 1), *out = buf + 2 * LU06_THREADS * (W + 1);
  const int tid = threadIdx.x;
  for (int p0 = k0 + wk; p0 < p.m; p0 += LU06_THREADS)
    {
      const int rows = min (LU06_THREADS, p.m - p0);
      __pipeline_wait_prior (0);
      __syncthreads ();
      T y[W], l[W];
#pragma unroll
      for (int c = 0; c < W; c++)
        {
          y[c] = tid < rows ? as[tid * (W + 1) + c] : T (0);
          l[c] = tid < rows ? ls[tid * (W + 1) + c] : T (0);
        }
      __syncthreads ();
      if (p0 + LU06_THREADS < p.m)
        lu06_issue_chunk<T, W> (p, as, ls, p0 + LU06_THREADS, min (LU06_THREADS, p.m - p0 - LU06_THREADS),
                                b0, wb, k0, wk);
      if (tid < rows)
        {
          lu06_gemv_row<T, W> (y, l, sh);
#pragma unroll
          for (int c = 0; c < W; c++)
            out[tid * (W + 1) + c] = y[c];
        }
      __syncthreads ();
      for (int e = tid; e < rows * W; e += LU06_THREADS)
        {
          const int q = e / W, c = e % W;
          if (c < wb)
            p.a[(size_t) (p0 + q) * p.lda + b0 + c] = out[q * (W + 1) + c];
        }
    }
}

// The step's row pairs (sh.pair, np of them) applied to the columns
// [b0, b0 + wb): all rows gathered, then all scattered.
template <typename T, int W>
__device__ void
lu06_apply_swaps (const Lu06Args<T> &p, Lu06Smem<T, W> &sh, int np, int b0, int wb)
{
  for (int e = threadIdx.x; e < np * W; e += LU06_THREADS)
    {
      const int i = e / W, c = e % W;
      if (c < wb)
        sh.swapbuf[i][c] = p.a[(size_t) sh.pair[i][1] * p.lda + b0 + c];
    }
  __syncthreads ();
  for (int e = threadIdx.x; e < np * W; e += LU06_THREADS)
    {
      const int i = e / W, c = e % W;
      if (c < wb)
        p.a[(size_t) sh.pair[i][0] * p.lda + b0 + c] = sh.swapbuf[i][c];
    }
  __syncthreads ();
}

// Step k applied to block b: its swaps (np pairs in sh.pair), U12 and the
// rank-W update of the rows below.  Ends with a barrier.
template <typename T, int W>
__device__ void
lu06_update_block (const Lu06Args<T> &p, Lu06Smem<T, W> &sh, T *buf, int k, int b, int np)
{
  const int tid = threadIdx.x, mn = min (p.m, p.n), k0 = k * W, b0 = b * W;
  const int wk = min (W, mn - k0), wb = min (W, p.n - b0);
  if (np > 0)
    lu06_apply_swaps<T, W> (p, sh, np, b0, wb);
  const int r0 = k0 + wk;
  if (r0 < p.m)
    lu06_issue_chunk<T, W> (p, buf, buf + LU06_THREADS * (W + 1), r0, min (LU06_THREADS, p.m - r0), b0, wb, k0, wk);
  for (int e = tid; e < W * W; e += LU06_THREADS)
    {
      const int t = e / W, c = e % W;
      const T *row = p.a + (size_t) (k0 + t) * p.lda;
      sh.u12[t][c] = t < wk && c < wb ? row[b0 + c] : T (0);
      sh.l11[t][c] = t < wk && c < t ? row[k0 + c] : T (0);
    }
  __syncthreads ();
  lu06_trsm<T, W> (sh);
  __syncthreads ();
  for (int e = tid; e < W * W; e += LU06_THREADS)
    {
      const int t = e / W, c = e % W;
      if (t < wk && c < wb)
        p.a[(size_t) (k0 + t) * p.lda + b0 + c] = sh.u12[t][c];
    }
  lu06_update_rows<T, W> (p, sh, buf, k0, wk, b0, wb);
  __threadfence (); // before the caller's flag (lu06_worker_role)
  __syncthreads ();
}

// ---- the two roles ------------------------------------------------------------

// Block k+1's rows [k0, m) (columns [k1, k1 + w)) into the stage, cp.async.
template <typename T, int W>
__device__ void
lu06_prefetch (const Lu06Args<T> &p, T *stage, int k0, int k1, int w)
{
  for (int e = threadIdx.x; e < (p.m - k0) * W; e += LU06_THREADS)
    {
      const int q = e / W, col = e % W;
      if (col < w)
        __pipeline_memcpy_async (stage + q * (W + 1) + col, p.a + (size_t) (k0 + q) * p.lda + k1 + col,
                                 sizeof (T));
    }
  __pipeline_commit ();
}

// Step k applied to block k+1 inside the panel CTA, the result left in the
// slots as panel k+1.  A slot's block-(k+1) row is where its row was at
// the step's start (lab0): the swaps of step k come free.
template <typename T, int W, int RPT>
__device__ void
lu06_lookahead (const Lu06Args<T> &p, Lu06Smem<T, W> &sh, T *stage, int k, int k0, T (&x)[RPT][W],
                int (&lab)[RPT], int (&lab0)[RPT])
{
  const int tid = threadIdx.x, k1 = k0 + W, w1 = min (W, p.n - k1);
  if (!sh.early)
    {
      if (tid == 0)
        lu06_wait_at_least (p.done + k + 1, (unsigned) k, false);
      __syncthreads ();
      lu06_prefetch<T, W> (p, stage, k0, k1, w1);
    }
  __pipeline_wait_prior (0);
  __syncthreads (); // every thread's copies have landed
#pragma unroll
  for (int r = 0; r < RPT; r++)
    if (lab[r] >= k0 && lab[r] < k1)
      {
        const int t = lab[r] - k0;
        const T *s = stage + (lab0[r] - k0) * (W + 1);
#pragma unroll
        for (int c = 0; c < W; c++)
          {
            sh.l11[t][c] = c < t ? x[r][c] : T (0);
            sh.u12[t][c] = c < w1 ? s[c] : T (0);
          }
      }
  __syncthreads ();
  lu06_trsm<T, W> (sh);
  __syncthreads ();
#pragma unroll
  for (int r = 0; r < RPT; r++)
    {
      if (lab[r] >= k1)
        {
          const T *s = stage + (lab0[r] - k0) * (W + 1);
          T y[W];
#pragma unroll
          for (int c = 0; c < W; c++)
            y[c] = c < w1 ? s[c] : T (0);
          lu06_gemv_row<T, W> (y, x[r], sh);
#pragma unroll
          for (int c = 0; c < W; c++)
            x[r][c] = y[c];
          lab0[r] = lab[r];
        }
      else
        {
          lab[r] = -1; // a U row now (or none): out of the panels
          lab0[r] = -1;
        }
    }
  for (int e = tid; e < W * W; e += LU06_THREADS)
    {
      const int t = e / W, c = e % W;
      if (c < w1)
        p.a[(size_t) (k0 + t) * p.lda + k1 + c] = sh.u12[t][c];
    }
}

template <typename T, int W, int RPT>
__device__ void
lu06_panel_role (const Lu06Args<T> &p, Lu06Smem<T, W> &sh, T *stage, T *out)
{
  T x[RPT][W];
  int lab[RPT], lab0[RPT];
  const int tid = threadIdx.x, mn = min (p.m, p.n);
  int k0 = p.s0 * W;
  lu06_load_slots<T, W, RPT> (p, stage, k0, k0, min (W, p.n - k0), x, lab);
#pragma unroll
  for (int r = 0; r < RPT; r++)
    lab0[r] = lab[r];
  for (int k = p.s0; k < p.s1; k++, k0 += W)
    {
      const int wk = min (W, mn - k0), wb = min (W, p.n - k0);
      const bool ahead = k + 1 < p.nsteps; // block k+1 is the next panel: ours
      if (tid == 0)
        {
          sh.nswap = 0;
          sh.early = ahead && lu06_load_acquire (p.done + k + 1) >= (unsigned) k;
        }
      lu06_post_first<T, W, RPT> (x, lab, sh, k0, 0);
      __syncthreads ();
      if (sh.early)
        lu06_prefetch<T, W> (p, stage, k0, k0 + W, min (W, p.n - k0 - W));
      lu06_columns<T, W, RPT> (x, lab, sh, k0, 0, wk, p.ipiv);

      // publish: the panel, and the rows it moved (for the other blocks)
      int *sw = p.swaps + (size_t) k * lu06_swap_words (W);
#pragma unroll
      for (int r = 0; r < RPT; r++)
        if (lab[r] >= 0 && lab[r] != lab0[r])
          {
            const int i = atomicAdd (&sh.nswap, 1);
            sw[1 + 2 * i] = lab[r];
            sw[2 + 2 * i] = lab0[r];
          }
      lu06_store_slots<T, W, RPT> (p, out, k0, k0, wb, x, lab);
      __threadfence ();
      __syncthreads ();
      if (tid == 0)
        {
          sw[0] = sh.nswap;
          lu06_store_release (p.panels, (unsigned) k + 1);
        }
      if (ahead)
        {
          lu06_lookahead<T, W, RPT> (p, sh, stage, k, k0, x, lab, lab0);
          if (k + 1 == p.s1) // the launch ends: panel k+1 goes to memory for the next one
            {
              __syncthreads ();
              lu06_store_slots<T, W, RPT> (p, out, k0 + W, k0 + W, min (W, p.n - k0 - W), x, lab);
            }
        }
    }
}

// The column blocks the workers apply step k to: those right of panel k
// but the next panel's (the panel CTA's look-ahead).  Each reads panel
// k's L; updated[k] reaches this count when the last of them is done.
template <typename T>
__device__ __forceinline__ unsigned
lu06_worker_blocks (const Lu06Args<T> &p, int k)
{
  return (unsigned) (p.nblocks - (k + 1 < p.nsteps ? k + 2 : k + 1));
}

template <typename T, int W>
__device__ void
lu06_worker_role (const Lu06Args<T> &p, Lu06Smem<T, W> &sh, T *buf)
{
  const int w = blockIdx.x - 1;
  if (w >= p.nblocks)
    return; // no block of its own
  for (int k = p.s0; k < p.s1; k++)
    {
      if (threadIdx.x == 0)
        lu06_wait_at_least (p.panels, (unsigned) k + 1, true);
      __syncthreads ();
      const int *sw = p.swaps + (size_t) k * lu06_swap_words (W);
      const int np = sw[0];
      for (int e = threadIdx.x; e < 2 * np; e += LU06_THREADS)
        (&sh.pair[0][0])[e] = sw[1 + e];
      __syncthreads ();
      // the blocks right of the next panel, the nearest first
      int b = w;
      if (b < k + 1)
        b += (k + 1 - b + p.workers - 1) / p.workers * p.workers;
      for (; b < p.nblocks; b += p.workers)
        {
          if (b == k + 1 && b < p.nsteps)
            continue; // the panel CTA's look-ahead
          lu06_update_block<T, W> (p, sh, buf, k, b, np); // its reads of panel k are done too
          if (threadIdx.x == 0)
            lu06_release_block (p.done + b, (unsigned) k + 1, p.updated + k);
        }
      // the finished blocks left of the panel: the swaps only.  Block k−1
      // was panel k−1, whose L the step-(k−1) updates of other workers may
      // still be reading: its first swap waits until they all are done
      // (even a step without swaps waits, so that the next one need not).
      for (b = w; b < k; b += p.workers)
        {
          if (b == k - 1)
            {
              if (threadIdx.x == 0)
                lu06_wait_at_least (p.updated + b, lu06_worker_blocks (p, b), true);
              __syncthreads ();
            }
          if (np > 0)
            lu06_apply_swaps<T, W> (p, sh, np, b * W, min (W, p.n - b * W));
        }
    }
}

// ---- the kernels ----------------------------------------------------------------

// A launch's shared memory: the struct (its zero row cleared; the callers'
// first barrier publishes it) and, in *dyn, the stage after it.
template <typename T, int W>
__device__ __forceinline__ Lu06Smem<T, W> &
lu06_shared (unsigned char *raw, T **dyn)
{
  Lu06Smem<T, W> &sh = *(Lu06Smem<T, W> *) raw;
  *dyn = (T *) (raw + lu06_struct_bytes<T, W> ());
  if (threadIdx.x < W)
    sh.zero[threadIdx.x] = T (0);
  return sh;
}

// The factorisation's steps [s0, s1): block 0 the panel, the rest workers.
template <typename T, int W, int RPT>
__global__ void __launch_bounds__ (LU06_THREADS, 1)
lu06_kernel (const Lu06Args<T> p)
{
  extern __shared__ __align__ (16) unsigned char lu06_raw[];
  T *dyn;
  Lu06Smem<T, W> &sh = lu06_shared<T, W> (lu06_raw, &dyn);
  __syncthreads ();
  if (blockIdx.x == 0)
    lu06_panel_role<T, W, RPT> (p, sh, dyn, dyn + (size_t) RPT * LU06_THREADS * (W + 1));
  else
    lu06_worker_role<T, W> (p, sh, dyn);
}

// Recording: columns j0 … j1−1 of panel s0, alone (one CTA).
template <typename T, int W, int RPT>
__global__ void __launch_bounds__ (LU06_THREADS, 1)
lu06_record_column_kernel (const Lu06Args<T> p)
{
  extern __shared__ __align__ (16) unsigned char lu06_raw[];
  T *dyn;
  Lu06Smem<T, W> &sh = lu06_shared<T, W> (lu06_raw, &dyn);
  const int k0 = p.s0 * W, wb = min (W, p.n - k0);
  T x[RPT][W];
  int lab[RPT];
  lu06_load_slots<T, W, RPT> (p, dyn, k0, k0, wb, x, lab);
  lu06_post_first<T, W, RPT> (x, lab, sh, k0, p.j0);
  __syncthreads ();
  lu06_columns<T, W, RPT> (x, lab, sh, k0, p.j0, p.j1, p.ipiv);
  lu06_store_slots<T, W, RPT> (p, dyn + (size_t) RPT * LU06_THREADS * (W + 1), k0, k0, wb, x, lab);
}

// Recording: step s0's TRSM and update of block s0 + 1 + blockIdx.x (its
// swaps already applied).
template <typename T, int W>
__global__ void __launch_bounds__ (LU06_THREADS, 1)
lu06_update_kernel (const Lu06Args<T> p)
{
  extern __shared__ __align__ (16) unsigned char lu06_raw[];
  T *dyn;
  Lu06Smem<T, W> &sh = lu06_shared<T, W> (lu06_raw, &dyn);
  lu06_update_block<T, W> (p, sh, dyn, p.s0, p.s0 + 1 + blockIdx.x, 0);
}
