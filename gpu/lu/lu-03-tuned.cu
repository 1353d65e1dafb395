// lu-03-tuned.cu — fused panel, look-ahead on a second stream, swaps by table.
//
// Rung 3.  What rung 2's profile shows: the panel (3 tiny launches per
// column, most of the chip idle) and the row swaps (2 launches per
// exchange) cost as much as the GEMM at n = 4096 and never hide.  Three
// changes:
//
// 1. Fused panel: ONE launch per column, on many blocks.  Launch j does,
//    for the rows of its block:  (a) the elimination of column c−1 inside
//    the panel — multiplier and rank-1 update, exactly rung 1's update but
//    only b columns wide —, then (b) the block's candidate for the pivot
//    of column c, |a(i,c)| just updated by the same warp, so no other block
//    has to be waited for.  The last block to finish (atomic ticket after
//    __threadfence) picks the winner among all candidates, writes ipiv[c]
//    and swaps the two panel rows.  The kernel boundary is the only grid-
//    wide barrier: 1 launch per column instead of 3, all SMs helping.
// 2. Look-ahead: after step i's U12 is known, its GEMM is split: first the
//    b columns of the NEXT panel (a thin GEMM), then the bulk.  The next
//    panel is factored on a second, high-priority stream while the bulk
//    GEMM of step i runs, so from the second step on the panel hides
//    behind the matrix multiplication (the critical path becomes the GEMM).
// 3. Swaps by index table: one launch per side applies all b exchanges;
//    each thread owns a column and walks the table — coalesced along rows.
//
// Recording (--record) and the phase split run the same launches without
// the second stream: the recording splits each launch into its two halves
// (eliminate column c−1 | search column c) so the hooks can download the
// column before its pivot search, the pivot, and the multipliers.
#include "tl-lu-gpu.cuh"

#define LU03_THREADS 256
#define LU03_MAX_BLOCKS 4096
#define LU03_ELIMINATE 1 // the launch eliminates column c−1 inside the panel
#define LU03_SEARCH 2    // the launch searches column c for its pivot and swaps

struct Lu03Scratch
{
  double cand_v[LU03_MAX_BLOCKS];
  int cand_i[LU03_MAX_BLOCKS];
  unsigned int ticket;
};

// One column step of the fused panel: panel columns [k0, k0+kb), rows
// [k0, m) split into gridDim.x chunks of `rows` rows.  j = step within the
// panel: eliminate column k0+j−1 (if j > 0 and `what` says so), then search
// column k0+j (if j < kb and `what` says so).
template <typename T>
__global__ void __launch_bounds__ (LU03_THREADS)
lu03_panel_kernel (T *__restrict__ a, int m, int lda, int k0, int kb, int j, int rows,
                   int *__restrict__ ipiv, Lu03Scratch *__restrict__ s, int what)
{
  extern __shared__ unsigned char smem_raw[];
  T *prow = (T *) smem_raw;                 // pivot row segment, kb entries
  __shared__ double warp_v[LU03_THREADS / 32];
  __shared__ int warp_i[LU03_THREADS / 32];
  __shared__ bool last;

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = LU03_THREADS / 32;
  const int c = k0 + j, prev = c - 1, c1 = k0 + kb;
  const int i0 = k0 + blockIdx.x * rows, i1 = min (m, i0 + rows);

  const bool eliminate = j > 0 && (what & LU03_ELIMINATE), search = j < kb && (what & LU03_SEARCH);
  T piv = T (0);
  if (eliminate)
    {
      for (int t = threadIdx.x; t < kb; t += blockDim.x)
        prow[t] = a[(size_t) prev * lda + k0 + t];
      __syncthreads ();
      piv = prow[prev - k0];
    }

  double best_v = -1.0;
  int best_i = c;
  for (int i = i0 + warp; i < i1; i += nwarps)
    {
      T *row = a + (size_t) i * lda;
      if (eliminate && i > prev)
        {
          T l = row[prev];
          l = piv != T (0) ? l / piv : T (0);
          __syncwarp ();
          if (lane == 0)
            row[prev] = l;
          if (l != T (0))
            for (int col = prev + 1 + lane; col < c1; col += 32)
              row[col] -= l * prow[col - k0];
          __syncwarp ();
        }
      if (search && i >= c && lane == 0)
        {
          double v = fabs ((double) row[c]);
          if (v > best_v)
            {
              best_v = v;
              best_i = i;
            }
        }
    }
  if (!search)
    return;

  // make this thread's row updates visible device-wide before the block
  // takes its ticket (the last block reads rows other blocks updated)
  __threadfence ();
  // block winner (lane 0 of each warp holds its warp's candidate)
  if (lane == 0)
    {
      warp_v[warp] = best_v;
      warp_i[warp] = best_i;
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      double bv = warp_v[0];
      int bi = warp_i[0];
      for (int w = 1; w < nwarps; w++)
        if (warp_v[w] > bv || (warp_v[w] == bv && warp_i[w] < bi))
          {
            bv = warp_v[w];
            bi = warp_i[w];
          }
      s->cand_v[blockIdx.x] = bv;
      s->cand_i[blockIdx.x] = bi;
      // publish the candidate and this block's row updates, then take a ticket
      __threadfence ();
      unsigned int ticket = atomicAdd (&s->ticket, 1u);
      last = ticket == gridDim.x - 1;
    }
  __syncthreads ();
  if (!last)
    return;

  // The last block: every other block's candidate and row updates are in
  // L2 now.  All its threads reduce the candidates together (L2 loads,
  // __ldcg, issued in parallel — a serial loop over a thousand candidates
  // would cost a thousand L2 round trips), then a warp shuffle and the
  // per-warp slots finish the choice.
  __threadfence ();
  __shared__ int pivot_row;
  double bv = -1.0;
  int bi = c;
  for (int b = threadIdx.x; b < (int) gridDim.x; b += blockDim.x)
    {
      double v = __ldcg (&s->cand_v[b]);
      int ii = __ldcg (&s->cand_i[b]);
      if (v > bv || (v == bv && ii < bi))
        {
          bv = v;
          bi = ii;
        }
    }
  for (int off = 16; off > 0; off >>= 1)
    {
      double ov = __shfl_down_sync (0xffffffffu, bv, off);
      int oi = __shfl_down_sync (0xffffffffu, bi, off);
      if (ov > bv || (ov == bv && oi < bi))
        {
          bv = ov;
          bi = oi;
        }
    }
  __syncthreads (); // warp_v/warp_i are reused
  if (lane == 0)
    {
      warp_v[warp] = bv;
      warp_i[warp] = bi;
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      for (int w = 1; w < nwarps; w++)
        if (warp_v[w] > bv || (warp_v[w] == bv && warp_i[w] < bi))
          {
            bv = warp_v[w];
            bi = warp_i[w];
          }
      pivot_row = bv > 0.0 ? bi : c;
      ipiv[c] = pivot_row;
      s->ticket = 0; // ready for the next launch
    }
  __syncthreads ();
  const int p = pivot_row;
  if (p != c)
    for (int t = threadIdx.x; t < kb; t += blockDim.x)
      {
        T *x = a + (size_t) c * lda + k0 + t, *y = a + (size_t) p * lda + k0 + t;
        T vx = __ldcg (x), vy = __ldcg (y);
        *x = vy;
        *y = vx;
      }
}

template <typename T>
static void
launch_column (TlLuCtx *ctx, cudaStream_t stream, Lu03Scratch *s, int k0, int kb, int j, int what)
{
  const int m = ctx->m, lda = ctx->lda;
  const int span = m - k0;
  // One row per warp where the grid allows: a warp's rows form a chain of
  // dependent global loads (the multiplier, then the update), so rows per
  // warp, not flops, set the time of a launch.  8 warps per block.
  int per_warp = 1;
  int blocks = (span + 8 * per_warp - 1) / (8 * per_warp);
  while (blocks > LU03_MAX_BLOCKS)
    {
      per_warp *= 2;
      blocks = (span + 8 * per_warp - 1) / (8 * per_warp);
    }
  const int rows = 8 * per_warp;
  size_t smem = sizeof (T) * kb;
  lu03_panel_kernel<T><<<blocks, LU03_THREADS, smem, stream>>> ((T *) ctx->a, m, lda, k0, kb, j, rows,
                                                                ctx->ipiv, s, what);
}

// The panel at k0: kb + 1 launches, or (recording) each launch in its two
// halves with the hooks between them.
template <typename T>
static TlGpuStatus
panel (TlLuCtx *ctx, cudaStream_t stream, Lu03Scratch *s, int k0, int kb, int bstep)
{
  if (ctx->observer == nullptr)
    {
      for (int j = 0; j <= kb; j++)
        launch_column<T> (ctx, stream, s, k0, kb, j, LU03_ELIMINATE | LU03_SEARCH);
      return TL_GPU_OK;
    }
  const int r1 = k0 + kb;
  TlGpuStatus st = TL_GPU_OK;
  for (int j = 0; j < kb && st == TL_GPU_OK; j++)
    {
      const int c = k0 + j;
      st = tl_lu_rec_search (ctx, c, bstep);
      if (st != TL_GPU_OK)
        break;
      launch_column<T> (ctx, stream, s, k0, kb, j, LU03_SEARCH);
      st = tl_lu_rec_pivot (ctx, c);
      if (st != TL_GPU_OK)
        break;
      launch_column<T> (ctx, stream, s, k0, kb, j + 1, LU03_ELIMINATE);
      st = tl_lu_rec_panel_column (ctx, c, r1);
    }
  return st;
}

template <typename T>
static void
laswp (TlLuCtx *ctx, int k0, int k1, int c0, int c1)
{
  if (c1 <= c0)
    return;
  lu_laswp_kernel<T><<<(c1 - c0 + 127) / 128, 128, 0, ctx->stream>>> ((T *) ctx->a, ctx->lda,
                                                                      ctx->ipiv, k0, k1, c0, c1);
}

template <typename T>
static TlGpuStatus
factor (TlLuCtx *ctx)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n;
  const int nb = ctx->block_size > 0 ? ctx->block_size : 128;
  Lu03Scratch *s = (Lu03Scratch *) ctx->workspace;
  // the phase split and the recording run everything on ctx->stream
  const bool lookahead = !ctx->profile && ctx->observer == nullptr;
  TlLuSideStream ss;
  if (lookahead)
    TL_LU_TRY (ss.create ());
  TL_GPU_TRY (cudaMemsetAsync (&s->ticket, 0, sizeof (unsigned int), ctx->stream), "lu-03 ticket");

  bool factored = false; // the panel at k0 was factored ahead (look-ahead)
  for (int k0 = 0, bstep = 0; k0 < mn; k0 += nb, bstep++)
    {
      TL_LU_TRY (tl_lu_cancel_point (ctx));
      const int kb = mn - k0 < nb ? mn - k0 : nb, r1 = k0 + kb;
      const int kb2 = r1 < mn ? (mn - r1 < nb ? mn - r1 : nb) : 0;
      if (!factored)
        {
          tl_lu_phase_begin (ctx, TL_LU_GPU_PANEL);
          TL_LU_TRY (panel<T> (ctx, ctx->stream, s, k0, kb, bstep));
          tl_lu_phase_end (ctx, TL_LU_GPU_PANEL);
        }
      factored = false;
      tl_lu_phase_begin (ctx, TL_LU_GPU_SWAP);
      laswp<T> (ctx, k0, r1, 0, k0);
      laswp<T> (ctx, k0, r1, r1, n);
      tl_lu_phase_end (ctx, TL_LU_GPU_SWAP);
      tl_lu_phase_begin (ctx, TL_LU_GPU_TRSM);
      if (r1 < n)
        TL_LU_TRY (tl_lu_blas (tl_lu_trsm (ctx, k0, kb), "lu-03 trsm/gemm"));
      tl_lu_phase_end (ctx, TL_LU_GPU_TRSM);
      tl_lu_phase_begin (ctx, TL_LU_GPU_GEMM);
      if (r1 < m && r1 < n && kb2 > 0)
        {
          // the next panel's columns first, then (look-ahead) hand them to
          // the side stream and run the bulk beside the next panel
          TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, k0, kb, r1, r1 + kb2), "lu-03 trsm/gemm"));
          if (lookahead)
            {
              cudaEventRecord (ss.cols_ready, ctx->stream);
              cudaStreamWaitEvent (ss.side, ss.cols_ready, 0);
              TL_LU_TRY (panel<T> (ctx, ss.side, s, r1, kb2, bstep + 1));
              cudaEventRecord (ss.panel_done, ss.side);
              factored = true;
            }
          if (r1 + kb2 < n)
            TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, k0, kb, r1 + kb2, n), "lu-03 trsm/gemm"));
          if (lookahead)
            cudaStreamWaitEvent (ctx->stream, ss.panel_done, 0);
        }
      else if (r1 < m && r1 < n)
        TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, k0, kb, r1, n), "lu-03 trsm/gemm"));
      tl_lu_phase_end (ctx, TL_LU_GPU_GEMM);
      TL_LU_TRY (tl_lu_phase_step (ctx, bstep));
      // U rows k0..r1−1 are final after the TRSM; then the block step and
      // (when due) the whole matrix
      if (ctx->observer)
        {
          TL_LU_TRY (tl_lu_rec_u_rows (ctx, k0, kb));
          TL_LU_TRY (tl_lu_rec_block (ctx, bstep, k0, kb));
          TL_LU_TRY (tl_lu_rec_snapshot (ctx, r1));
        }
    }
  return tl_gpu_from_cuda (cudaGetLastError (), "lu-03-tuned launch");
}

static TlGpuStatus
lu_03_factor (TlLuCtx *ctx)
{
  return ctx->dtype == TL_GPU_FLOAT32 ? factor<float> (ctx) : factor<double> (ctx);
}

static size_t
lu_03_workspace (const TlLuCtx *)
{
  return sizeof (Lu03Scratch);
}

const TlLuRung lu_03_tuned_rung = { "lu-03-tuned", lu_03_factor, lu_03_workspace };
