// tl-gpu-lu.cu — the harness of the Gauss ladder's GPU rungs.
//
// tl_gpu_lu_run: checks, allocates (naming bytes needed and free when the
// GPU is short), uploads A once, and then for every warm-up and timed run
// restores the working copy from the pristine one (device to device, not
// timed), poisons ipiv (an entry a rung forgets to write reads −1) and times
// one factorisation with CUDA events on the device's stream.  After the
// timed runs, rungs that can split their time run once more with phase
// timing (the phases one after the other, a wait per block step: never the
// headline number), and when a recording is asked for, once more with the observer
// (stopping after every column to download: untimed).  Downloads the packed
// L\U and ipiv of the last run; info is read off U's diagonal as LAPACK
// defines it.
#include "tl-lu-gpu.cuh"

#include <stdlib.h>
#include <string.h>
#include <time.h>

// The dispatch: row i of tl-lu-ladder.h runs rungs[i].
static const TlLuRung *const rungs[] = {
#define TL_LU_ROW(symbol, ...) &symbol##_rung,
#include "tl-lu-ladder.h"
#undef TL_LU_ROW
};

// Between two steps.  Launches are asynchronous: left alone, the host
// would queue a whole factorisation in milliseconds and meet every cancel
// point long before the device gets there, so a cancel would wait for the
// whole factorisation.  Each point therefore marks its step with an event
// and first waits for the mark of TL_LU_LEAD_STEPS steps ago: the host
// stays at most that many steps ahead, the device's queue never empties
// (the timed path keeps its speed), and a cancel takes effect after the
// steps already queued.
TlGpuStatus
tl_lu_cancel_point (TlLuCtx *ctx)
{
  if (ctx->cancelled == nullptr)
    return TL_GPU_OK;
  if (ctx->lead_ev != nullptr)
    {
      cudaEvent_t mark = ctx->lead_ev[ctx->lead_steps % TL_LU_LEAD_STEPS];
      if (ctx->lead_steps >= TL_LU_LEAD_STEPS)
        TL_GPU_TRY (cudaEventSynchronize (mark), "waiting for an earlier step");
      TL_GPU_TRY (cudaEventRecord (mark, ctx->stream), "marking a step");
      ctx->lead_steps++;
    }
  if (ctx->cancelled (ctx->cancel_data))
    return tl_gpu_fail (TL_GPU_CANCELLED, "cancelled");
  return TL_GPU_OK;
}

cublasStatus_t
tl_lu_trsm_cols (TlLuCtx *ctx, int k0, int kb, int c0, int c1)
{
  const int n2 = c1 - c0, lda = ctx->lda;
  if (n2 <= 0 || kb <= 0)
    return CUBLAS_STATUS_SUCCESS;
  if (ctx->dtype == TL_GPU_FLOAT32)
    {
      const float one = 1.0f;
      float *a = (float *) ctx->a;
      return cublasStrsm (ctx->cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                          CUBLAS_DIAG_UNIT, n2, kb, &one, a + (size_t) k0 * lda + k0, lda,
                          a + (size_t) k0 * lda + c0, lda);
    }
  const double one = 1.0;
  double *a = (double *) ctx->a;
  return cublasDtrsm (ctx->cublas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                      CUBLAS_DIAG_UNIT, n2, kb, &one, a + (size_t) k0 * lda + k0, lda,
                      a + (size_t) k0 * lda + c0, lda);
}

cublasStatus_t
tl_lu_trsm (TlLuCtx *ctx, int k0, int kb)
{
  return tl_lu_trsm_cols (ctx, k0, kb, k0 + kb, ctx->n);
}

cublasStatus_t
tl_lu_gemm (TlLuCtx *ctx, int k0, int kb, int c0, int c1)
{
  const int r1 = k0 + kb, m2 = ctx->m - r1, n2 = c1 - c0, lda = ctx->lda;
  if (m2 <= 0 || n2 <= 0 || kb <= 0)
    return CUBLAS_STATUS_SUCCESS;
  // C = A22ᵀ (n2×m2 at A[r1][c0]), A = U12ᵀ (n2×kb at A[k0][c0]), B = L21ᵀ (kb×m2 at A[r1][k0])
  if (ctx->dtype == TL_GPU_FLOAT32)
    {
      const float minus = -1.0f, one = 1.0f;
      float *a = (float *) ctx->a;
      return cublasSgemm (ctx->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n2, m2, kb, &minus,
                          a + (size_t) k0 * lda + c0, lda, a + (size_t) r1 * lda + k0, lda, &one,
                          a + (size_t) r1 * lda + c0, lda);
    }
  const double minus = -1.0, one = 1.0;
  double *a = (double *) ctx->a;
  return cublasDgemm (ctx->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n2, m2, kb, &minus,
                      a + (size_t) k0 * lda + c0, lda, a + (size_t) r1 * lda + k0, lda, &one,
                      a + (size_t) r1 * lda + c0, lda);
}

// ---- the phase split -----------------------------------------------------------

void
tl_lu_phase_begin (TlLuCtx *ctx, int phase)
{
  if (ctx->profile)
    cudaEventRecord (ctx->phase_ev[2 * phase], ctx->stream);
}

void
tl_lu_phase_end (TlLuCtx *ctx, int phase)
{
  if (ctx->profile)
    cudaEventRecord (ctx->phase_ev[2 * phase + 1], ctx->stream);
}

TlGpuStatus
tl_lu_phase_step (TlLuCtx *ctx, int block_step)
{
  if (!ctx->profile)
    return TL_GPU_OK;
  TL_GPU_TRY (cudaEventSynchronize (ctx->phase_ev[2 * TL_LU_GPU_GEMM + 1]), "timing a block step");
  for (int ph = 0; ph < 4; ph++)
    {
      float ms = 0;
      TL_GPU_TRY (cudaEventElapsedTime (&ms, ctx->phase_ev[2 * ph], ctx->phase_ev[2 * ph + 1]), "timing a phase");
      ctx->phase_ms[ph] += ms;
      if (ctx->block_phase_ms && block_step < ctx->n_block_phase)
        ctx->block_phase_ms[4 * (size_t) block_step + ph] += ms;
    }
  return TL_GPU_OK;
}

// ---- recording hooks ---------------------------------------------------------

static size_t
elem_size (const TlLuCtx *ctx)
{
  return ctx->dtype == TL_GPU_FLOAT32 ? 4 : 8;
}

// Downloads rows [row0, row0+rows) × columns [col0, col0+cols) into
// ctx->host (packed, ld = cols) and describes it as a window.
static TlGpuStatus
download_window (TlLuCtx *ctx, int row0, int rows, int col0, int cols, TlGpuLuWindow *w)
{
  const size_t es = elem_size (ctx);
  w->data = ctx->host;
  w->row0 = row0;
  w->col0 = col0;
  w->rows = rows > 0 ? rows : 0;
  w->cols = cols > 0 ? cols : 0;
  w->ld = cols > 0 ? cols : 1;
  if (rows <= 0 || cols <= 0)
    return TL_GPU_OK;
  const char *src = (const char *) ctx->a + ((size_t) row0 * ctx->lda + col0) * es;
  TL_GPU_TRY (cudaMemcpy2DAsync (ctx->host, cols * es, src, ctx->lda * es, cols * es, rows,
                                 cudaMemcpyDeviceToHost, ctx->stream),
              "downloading a recorded step");
  TL_GPU_TRY (cudaStreamSynchronize (ctx->stream), "downloading a recorded step");
  return TL_GPU_OK;
}

// A recording run downloads after every column; it checks the cancel
// before each download, without tl_lu_cancel_point's event throttle (the
// recording run synchronises anyway), so a cancel waits at most one
// column's work, never a whole block step of downloads.
static TlGpuStatus
rec_cancelled (TlLuCtx *ctx)
{
  if (ctx->cancelled != nullptr && ctx->cancelled (ctx->cancel_data))
    return tl_gpu_fail (TL_GPU_CANCELLED, "cancelled");
  return TL_GPU_OK;
}

TlGpuStatus
tl_lu_rec_search (TlLuCtx *ctx, int k, int block)
{
  TlGpuStatus cs = rec_cancelled (ctx);
  if (cs != TL_GPU_OK)
    return cs;
  TlGpuLuWindow w;
  TlGpuStatus st = download_window (ctx, k, ctx->m - k, k, 1, &w);
  if (st == TL_GPU_OK && ctx->observer->step_search)
    ctx->observer->step_search (ctx->observer->user_data, k, block, &w);
  return st;
}

TlGpuStatus
tl_lu_rec_pivot (TlLuCtx *ctx, int k)
{
  int p = k;
  TL_GPU_TRY (cudaMemcpyAsync (&p, ctx->ipiv + k, sizeof p, cudaMemcpyDeviceToHost, ctx->stream),
              "downloading a pivot");
  TlGpuLuWindow w;
  TlGpuStatus st = download_window (ctx, k, 1, k, 1, &w);
  if (st != TL_GPU_OK)
    return st;
  double v = ctx->dtype == TL_GPU_FLOAT32 ? ((const float *) ctx->host)[0] : ((const double *) ctx->host)[0];
  if (ctx->observer->step_pivot)
    ctx->observer->step_pivot (ctx->observer->user_data, k, p, v);
  return TL_GPU_OK;
}

TlGpuStatus
tl_lu_rec_eliminated (TlLuCtx *ctx, int k, int c1)
{
  TlGpuLuWindow w;
  const int below = ctx->m - k - 1;
  TlGpuStatus st = download_window (ctx, k + 1, below, k, 1, &w);
  if (st == TL_GPU_OK && ctx->observer->step_eliminated)
    ctx->observer->step_eliminated (ctx->observer->user_data, k, &w, k + 1, below > 0 ? below : 0,
                                    k + 1, c1 - k - 1 > 0 ? c1 - k - 1 : 0);
  return st;
}

TlGpuStatus
tl_lu_rec_panel_column (TlLuCtx *ctx, int k, int c1)
{
  TlGpuStatus st = tl_lu_rec_eliminated (ctx, k, c1);
  if (st == TL_GPU_OK && c1 == ctx->n)
    st = tl_lu_rec_u_rows (ctx, k, 1);
  if (st == TL_GPU_OK && c1 == ctx->n)
    st = tl_lu_rec_snapshot (ctx, k + 1);
  return st;
}

TlGpuStatus
tl_lu_rec_u_rows (TlLuCtx *ctx, int k0, int kb)
{
  TlGpuLuWindow w;
  TlGpuStatus st = download_window (ctx, k0, kb, k0, ctx->n - k0, &w);
  if (st == TL_GPU_OK && ctx->observer->u_rows)
    ctx->observer->u_rows (ctx->observer->user_data, k0, kb, &w);
  return st;
}

TlGpuStatus
tl_lu_rec_block (TlLuCtx *ctx, int index, int k0, int kb)
{
  double phase[4] = { 0, 0, 0, 0 };
  if (ctx->block_phase_ms && index < ctx->n_block_phase)
    memcpy (phase, ctx->block_phase_ms + 4 * (size_t) index, sizeof phase);
  const int r1 = k0 + kb;
  const int rows = ctx->m > r1 ? ctx->m - r1 : 0, cols = ctx->n > r1 ? ctx->n - r1 : 0;
  if (ctx->observer->block)
    ctx->observer->block (ctx->observer->user_data, index, k0, kb, phase, r1, rows, r1, cols);
  return TL_GPU_OK;
}

// Max-|a| pooling of the working matrix, one block per output cell.
//
// The host recorder keeps, per cell, the first element of largest |a| in
// row-major order, or the last NaN.  Each thread strides over the cell's
// window keeping its best (value, index) by that rule; a shared-memory
// tree then merges the threads' winners with the same rule, so the cell is
// bit-identical to the host's.  Reading the window row by row keeps the
// loads of a warp on one row: coalesced for pool_c ≥ 32.
namespace
{
struct PoolBest
{
  double v;
  long long at; // row-major index in the window; −1: none yet
};

// Does candidate b beat the current best a?  NaN beats numbers (a later
// NaN beats an earlier one); else a strictly larger |v|, and on equal
// |v| the earlier index.  Zeros never win: an all-zero window stays +0.
__device__ __forceinline__ bool
pool_beats (const PoolBest &b, const PoolBest &a)
{
  if (b.at < 0)
    return false;
  if (a.at < 0)
    return true;
  const bool bn = isnan (b.v), an = isnan (a.v);
  if (bn || an)
    return bn && (!an || b.at > a.at);
  const double fb = fabs (b.v), fa = fabs (a.v);
  return fb > fa || (fb == fa && b.at < a.at);
}

template <typename T>
__global__ void
lu_pool_kernel (const T *__restrict__ a, int m, int n, int lda, int pool_r, int pool_c,
                int out_cols, double *__restrict__ cells)
{
  __shared__ PoolBest best[256];
  const int ci = blockIdx.x / out_cols, cj = blockIdx.x % out_cols;
  const int r0 = ci * pool_r, c0 = cj * pool_c;
  const int rows = min (pool_r, m - r0), cols = min (pool_c, n - c0);
  PoolBest mine = { 0.0, -1 };
  const long long count = (long long) rows * cols;
  for (long long t = threadIdx.x; t < count; t += blockDim.x)
    {
      const int i = (int) (t / cols), j = (int) (t % cols);
      const double x = (double) a[(size_t) (r0 + i) * lda + c0 + j];
      PoolBest cand = { x, t };
      // zeros are no candidates: the host's cell starts at +0 and only a
      // strictly larger |x| (or a NaN) replaces it
      if ((isnan (x) || x != 0.0) && pool_beats (cand, mine))
        mine = cand;
    }
  best[threadIdx.x] = mine;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s /= 2)
    {
      if (threadIdx.x < s && pool_beats (best[threadIdx.x + s], best[threadIdx.x]))
        best[threadIdx.x] = best[threadIdx.x + s];
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    cells[blockIdx.x] = best[0].at < 0 ? 0.0 : best[0].v;
}
} // namespace

// The pooled snapshot: pooled on the device, only the cells come back.
static TlGpuStatus
rec_snapshot_pooled (TlLuCtx *ctx, int steps_done)
{
  const TlGpuLuObserver *o = ctx->observer;
  const int pr = o->pool_r > 0 ? o->pool_r : 1, pc = o->pool_c > 0 ? o->pool_c : 1;
  const int rows = (ctx->m + pr - 1) / pr, cols = (ctx->n + pc - 1) / pc;
  const size_t ncell = (size_t) rows * cols;
  if (ncell == 0)
    return TL_GPU_OK;
  double *d_cells = nullptr;
  TL_GPU_TRY (cudaMallocAsync ((void **) &d_cells, ncell * sizeof (double), ctx->stream),
              "allocating a pooled snapshot");
  if (ctx->dtype == TL_GPU_FLOAT32)
    lu_pool_kernel<float><<<(unsigned) ncell, 256, 0, ctx->stream>>> (
      (const float *) ctx->a, ctx->m, ctx->n, ctx->lda, pr, pc, cols, d_cells);
  else
    lu_pool_kernel<double><<<(unsigned) ncell, 256, 0, ctx->stream>>> (
      (const double *) ctx->a, ctx->m, ctx->n, ctx->lda, pr, pc, cols, d_cells);
  cudaError_t err = cudaGetLastError ();
  double *cells = (double *) malloc (ncell * sizeof (double)); // ≤ 256×256 cells
  if (cells == nullptr && err == cudaSuccess)
    err = cudaErrorMemoryAllocation;
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (cells, d_cells, ncell * sizeof (double), cudaMemcpyDeviceToHost,
                           ctx->stream);
  cudaError_t ferr = cudaFreeAsync (d_cells, ctx->stream);
  if (err == cudaSuccess)
    err = ferr;
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (ctx->stream);
  if (err != cudaSuccess)
    {
      free (cells);
      return tl_gpu_from_cuda (err, "pooling a recorded snapshot");
    }
  o->snapshot_pooled (o->user_data, steps_done, pr, pc, rows, cols, cells);
  free (cells);
  return TL_GPU_OK;
}

TlGpuStatus
tl_lu_rec_snapshot (TlLuCtx *ctx, int steps_done)
{
  const TlGpuLuObserver *o = ctx->observer;
  if (o->snapshot == nullptr || o->snapshot_due == nullptr || !o->snapshot_due (o->user_data, steps_done))
    return TL_GPU_OK;
  TlGpuStatus cs = rec_cancelled (ctx);
  if (cs != TL_GPU_OK)
    return cs;
  if (o->snapshot_pooled != nullptr && (o->pool_r > 1 || o->pool_c > 1))
    return rec_snapshot_pooled (ctx, steps_done);
  TlGpuLuWindow w;
  TlGpuStatus st = download_window (ctx, 0, ctx->m, 0, ctx->n, &w);
  if (st == TL_GPU_OK)
    o->snapshot (o->user_data, steps_done, &w);
  return st;
}

namespace
{
struct Buffers : TlGpuEventPair
{
  void *orig = nullptr, *a = nullptr, *ws = nullptr;
  int *ipiv = nullptr;
  void *host = nullptr;
  double *block_phase = nullptr;
  cudaEvent_t phase_ev[8] = {};
  cudaEvent_t lead_ev[TL_LU_LEAD_STEPS] = {};
  ~Buffers ()
  {
    free (host);
    free (block_phase);
    if (!tl_gpu_is_lost ())
      {
        for (cudaEvent_t e : phase_ev)
          if (e)
            cudaEventDestroy (e);
        for (cudaEvent_t e : lead_ev)
          if (e)
            cudaEventDestroy (e);
      }
    cudaFree (orig);
    cudaFree (a);
    cudaFree (ws);
    cudaFree (ipiv);
  }
};
} // namespace

static TlGpuStatus
timed_factor (const TlLuRung *rung, TlLuCtx *ctx, Buffers *b, size_t bytes, float *out_ms)
{
  const int mn = ctx->m < ctx->n ? ctx->m : ctx->n;
  TL_GPU_TRY (cudaMemcpyAsync (b->a, b->orig, bytes, cudaMemcpyDeviceToDevice, ctx->stream),
              "restoring A");
  TL_GPU_TRY (cudaMemsetAsync (b->ipiv, 0xff, sizeof (int) * (mn + 1), ctx->stream), "poisoning ipiv");
  TL_GPU_TRY (cudaEventRecord (b->start, ctx->stream), "recording an event");
  TlGpuStatus st = rung->factor (ctx);
  if (st != TL_GPU_OK)
    return st;
  TL_GPU_TRY (cudaEventRecord (b->stop, ctx->stream), "recording an event");
  TL_GPU_TRY (cudaEventSynchronize (b->stop), "running the factorisation");
  TL_GPU_TRY (cudaEventElapsedTime (out_ms, b->start, b->stop), "reading an event");
  return TL_GPU_OK;
}

// The rung of kernel_id and its row; the arguments checked against the row.
static TlGpuStatus
find_and_check (const char *kernel_id, const TlGpuLuArgs *args, const TlGpuLuKernelInfo **out_info,
                const TlLuRung **out_rung)
{
  const TlGpuLuKernelInfo *info = nullptr;
  const TlLuRung *rung = nullptr;
  for (int i = 0; i < tl_gpu_lu_kernel_count (); i++)
    if (strcmp (tl_gpu_lu_kernel_info (i)->id, kernel_id) == 0)
      {
        info = tl_gpu_lu_kernel_info (i);
        rung = rungs[i];
      }
  if (info == nullptr || strcmp (rung->id, info->id) != 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s is not a GPU LU rung", kernel_id);
  if (args->dtype != TL_GPU_FLOAT32 && args->dtype != TL_GPU_FLOAT64)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s factors float32 and float64 only", kernel_id);
  if (args->m < 0 || args->n < 0 || args->a == nullptr || args->ipiv == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s: bad shape or NULL matrix", kernel_id);
  if (!args->pivoting && !info->no_pivoting)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s always pivots", kernel_id);
  if (args->observer && !info->records_steps)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                        "%s does not record its steps (a library call: there is no step to stop at); "
                        "record with one of the ladder's own rungs", kernel_id);
  *out_info = info;
  *out_rung = rung;
  return TL_GPU_OK;
}

// Allocates (asking first, so "out of memory" can say how much) and
// uploads A into b->orig, timed.
static TlGpuStatus
allocate_and_upload (TlLuCtx *ctx, const TlGpuLuArgs *args, const char *kernel_id, size_t bytes,
                     Buffers *b, TlGpuLuResult *out)
{
  const int mn = args->m < args->n ? args->m : args->n;
  const size_t need = 2 * bytes + ctx->workspace_bytes + sizeof (int) * (mn + 1);
  TlGpuStatus st = tl_gpu_check_free (need, kernel_id);
  if (st != TL_GPU_OK)
    return st;
  TL_GPU_TRY (cudaMalloc (&b->orig, bytes > 0 ? bytes : 1), "allocating A");
  TL_GPU_TRY (cudaMalloc (&b->a, bytes > 0 ? bytes : 1), "allocating A");
  TL_GPU_TRY (cudaMalloc (&b->ipiv, sizeof (int) * (mn + 1)), "allocating ipiv");
  if (ctx->workspace_bytes)
    TL_GPU_TRY (cudaMalloc (&b->ws, ctx->workspace_bytes), "allocating the workspace");
  TL_GPU_TRY (b->create (), "creating events");
  ctx->a = b->a;
  ctx->ipiv = b->ipiv;
  ctx->workspace = b->ws;

  TL_GPU_TRY (cudaEventRecord (b->start, ctx->stream), "recording an event");
  TL_GPU_TRY (cudaMemcpyAsync (b->orig, args->a, bytes, cudaMemcpyHostToDevice, ctx->stream),
              "uploading A");
  TL_GPU_TRY (cudaEventRecord (b->stop, ctx->stream), "recording an event");
  TL_GPU_TRY (b->elapsed (&out->upload_ms), "uploading A");
  return TL_GPU_OK;
}

// One more run that splits its time into phases (never the headline: it
// synchronises per block step), per block step as well when a recording
// wants them.
static TlGpuStatus
phase_run (const TlLuRung *rung, TlLuCtx *ctx, const TlGpuLuArgs *args, Buffers *b, size_t bytes,
           TlGpuLuResult *out)
{
  const int mn = args->m < args->n ? args->m : args->n;
  for (int e = 0; e < 8; e++)
    {
      TL_GPU_TRY (cudaEventCreate (&b->phase_ev[e]), "creating events");
      ctx->phase_ev[e] = b->phase_ev[e];
    }
  ctx->profile = 1;
  if (args->observer && mn > 0)
    {
      ctx->n_block_phase = mn; // a block step has at least one column
      b->block_phase = (double *) calloc ((size_t) ctx->n_block_phase * 4, sizeof (double));
      ctx->block_phase_ms = b->block_phase;
    }
  float ms = 0;
  TlGpuStatus st = timed_factor (rung, ctx, b, bytes, &ms);
  ctx->profile = 0;
  if (st != TL_GPU_OK)
    return st;
  memcpy (out->phase_ms, ctx->phase_ms, sizeof out->phase_ms);
  out->phase_run_ms = ms;
  return TL_GPU_OK;
}

// The recording run: stops after every column to download (untimed; its
// wall time is reported apart).
static TlGpuStatus
recording_run (const TlLuRung *rung, TlLuCtx *ctx, const TlGpuLuArgs *args, Buffers *b,
               size_t bytes, const char *kernel_id, TlGpuLuResult *out)
{
  b->host = malloc (bytes > 0 ? bytes : 1);
  if (b->host == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s: no host memory for the recording", kernel_id);
  ctx->host = b->host;
  ctx->observer = args->observer;
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  float ms = 0;
  TlGpuStatus st = timed_factor (rung, ctx, b, bytes, &ms);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  ctx->observer = nullptr;
  if (st != TL_GPU_OK)
    return st;
  out->record_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
  return TL_GPU_OK;
}

// Downloads L\U and ipiv of the last run; info from U's diagonal (LAPACK).
static TlGpuStatus
download (TlLuCtx *ctx, const TlGpuLuArgs *args, Buffers *b, size_t bytes, TlGpuLuResult *out)
{
  const int mn = args->m < args->n ? args->m : args->n;
  TL_GPU_TRY (cudaEventRecord (b->start, ctx->stream), "recording an event");
  TL_GPU_TRY (cudaMemcpyAsync (args->a, b->a, bytes, cudaMemcpyDeviceToHost, ctx->stream),
              "downloading L\\U");
  TL_GPU_TRY (cudaMemcpyAsync (args->ipiv, b->ipiv, sizeof (int) * mn, cudaMemcpyDeviceToHost,
                               ctx->stream),
              "downloading ipiv");
  TL_GPU_TRY (cudaEventRecord (b->stop, ctx->stream), "recording an event");
  TL_GPU_TRY (b->elapsed (&out->download_ms), "downloading L\\U");
  out->block_size = ctx->block_size;
  out->info = 0;
  for (int k = 0; k < mn && out->info == 0; k++)
    {
      size_t at = (size_t) k * ctx->lda + k;
      double u = args->dtype == TL_GPU_FLOAT32 ? ((const float *) args->a)[at]
                                               : ((const double *) args->a)[at];
      if (u == 0.0)
        out->info = k + 1;
    }
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_lu_run (TlGpuDevice *device, const char *kernel_id, const TlGpuLuArgs *args,
               TlGpuLuResult *out)
{
  if (out == nullptr || args == nullptr || kernel_id == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_lu_run: NULL argument");
  memset (out, 0, sizeof *out);
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  const TlGpuLuKernelInfo *info = nullptr;
  const TlLuRung *rung = nullptr;
  st = find_and_check (kernel_id, args, &info, &rung);
  if (st != TL_GPU_OK)
    return st;

  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  TlLuCtx ctx = {};
  ctx.device = device;
  ctx.stream = device->stream;
  st = tl_gpu_device_cublas (device, &ctx.cublas);
  if (st != TL_GPU_OK)
    return st;
  // The handle is the device's: a GEMM rung may have left it in TF32 mode,
  // whose 10-bit products would fail every LU check.  Plain float32/64.
  if (cublasSetMathMode (ctx.cublas, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "%s: cannot set cuBLAS's math mode", kernel_id);
  ctx.dtype = args->dtype;
  ctx.m = args->m;
  ctx.n = args->n;
  ctx.lda = args->n > 0 ? args->n : 1;
  ctx.block_size = args->block_size > 0 ? args->block_size : info->default_block;
  ctx.block_asked = args->block_size > 0;
  ctx.pivoting = args->pivoting;
  ctx.cancelled = args->cancelled;
  ctx.cancel_data = args->user_data;
  const size_t es = args->dtype == TL_GPU_FLOAT32 ? 4 : 8;
  const size_t bytes = es * (size_t) args->m * args->n;
  ctx.workspace_bytes = rung->workspace_bytes ? rung->workspace_bytes (&ctx) : 0;

  Buffers b;
  st = allocate_and_upload (&ctx, args, kernel_id, bytes, &b, out);
  if (st != TL_GPU_OK)
    return st;
  if (ctx.cancelled != nullptr)
    {
      for (cudaEvent_t &e : b.lead_ev)
        TL_GPU_TRY (cudaEventCreateWithFlags (&e, cudaEventDisableTiming), "creating CUDA events");
      ctx.lead_ev = b.lead_ev;
    }

  // warm-ups, then the timed factorisations, each from a fresh copy of A
  const int warmups = args->warmups > 0 ? args->warmups : 0;
  const int repeats = args->repeats > 0 ? args->repeats : 1;
  out->times_ms = (double *) calloc ((size_t) repeats, sizeof (double));
  if (out->times_ms == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s: no host memory for the times", kernel_id);
  for (int r = 0; r < warmups + repeats; r++)
    {
      st = tl_lu_cancel_point (&ctx);
      float ms = 0;
      if (st == TL_GPU_OK)
        st = timed_factor (rung, &ctx, &b, bytes, &ms);
      if (st != TL_GPU_OK)
        return st;
      if (r >= warmups)
        out->times_ms[out->n_times++] = ms;
    }
  if (info->phases && (st = phase_run (rung, &ctx, args, &b, bytes, out)) != TL_GPU_OK)
    return st;
  if (args->observer
      && (st = recording_run (rung, &ctx, args, &b, bytes, kernel_id, out)) != TL_GPU_OK)
    return st;
  return download (&ctx, args, &b, bytes, out);
}

extern "C" void
tl_gpu_lu_result_clear (TlGpuLuResult *result)
{
  if (result == nullptr)
    return;
  free (result->times_ms);
  memset (result, 0, sizeof *result);
}
