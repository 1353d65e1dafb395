// tl-lu-gpu.cuh — what the Gauss ladder's GPU rungs share (CUDA C++, internal).
//
// Storage: A is m×n ROW-MAJOR on the device with leading dimension lda (= n),
// exactly as on the host, so the packed L\U and the 0-based ipiv come back
// in TlLuResult's model without any reshuffling.  cuBLAS is column-major:
// it sees our memory as Aᵀ, so every cuBLAS call below is written for the
// transposed problem (see lu-02-blocked.cu).
//
// The shared kernels here are the four steps of one elimination column:
// pivot search, row swap, scale + rank-1 update, and a batch of row swaps.
#pragma once

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <stdlib.h>
#include "tl-gpu.h"
#include "../tl-gpu-internal.h"

struct TlLuCtx
{
  TlGpuDevice *device;
  cudaStream_t stream;      // the device's stream: everything of the timed path
  cublasHandle_t cublas;    // bound to `stream`
  TlGpuDtype dtype;
  int m, n, lda;
  void *a;                  // device, row-major m×n
  int *ipiv;                // device, min(m,n), 0-based
  int block_size;           // asked for, else the row's default; a rung may set what it used
  int block_asked;          // 1: the caller asked for block_size (0: it is the row's default)
  int pivoting;             // 1 partial, 0 none
  int profile;              // 1: time the phases (syncs per phase; not the timed path)
  double phase_ms[4];       // panel, swap, trsm, gemm (profile runs)
  cudaEvent_t phase_ev[8];  // profile runs: start/stop per phase, made by the harness
  void *workspace;          // rung scratch (workspace_bytes), or nullptr
  size_t workspace_bytes;
  // profile runs: phase_ms per block step (4 per step), when not null
  double *block_phase_ms;
  int n_block_phase;        // block steps room in block_phase_ms
  // recording runs only (never the timed path): the observer and a host
  // buffer of m×n elements for downloads
  const TlGpuLuObserver *observer;
  void *host;
  // polled between block steps (tl_lu_cancel_point)
  TlGpuCancelFn cancelled;
  void *cancel_data;
  // bounded run-ahead (made by the harness when `cancelled` is set): the
  // cancel point records one of these per step and first waits for the
  // one of TL_LU_LEAD_STEPS steps ago
  cudaEvent_t *lead_ev;
  long lead_steps;
};

// How many steps the host may queue ahead of the device.  Enough that the
// device never runs dry (a step of lu-01 is a few launches, microseconds
// to enqueue), few enough that a cancel stops the run after them.
#define TL_LU_LEAD_STEPS 8

// What a rung file defines: `extern const TlLuRung SYMBOL_rung`, SYMBOL as
// in its row of tl-lu-ladder.h (which holds everything else about it: its
// id, default block, pivoting, whether it records steps or times phases).
struct TlLuRung
{
  const char *id;           // the row's id (the harness checks they agree)
  // Enqueues one factorisation of ctx->a on ctx->stream (may use other
  // streams it owns, joined back into ctx->stream before returning).
  TlGpuStatus (*factor) (TlLuCtx *ctx);
  size_t (*workspace_bytes) (const TlLuCtx *ctx); // may be null
};

#define TL_LU_ROW(symbol, ...) extern const TlLuRung symbol##_rung;
#include "tl-lu-ladder.h"
#undef TL_LU_ROW

// ---- the shared column kernels -------------------------------------------

// Pivot search over column c, rows c..m−1, by ONE block of 1024 threads:
// each thread keeps its largest |a(i,c)| (first index on ties, as LAPACK's
// i?amax), then a shared-memory tree picks the block's winner.  The column
// is strided by lda in row-major storage — every load is its own 32-byte
// sector, which is why this step is latency-bound, not bandwidth-bound.
template <typename T>
__global__ void
lu_pivot_kernel (const T *__restrict__ a, int m, int lda, int c, int *__restrict__ ipiv)
{
  __shared__ double best_v[1024];
  __shared__ int best_i[1024];
  double bv = -1.0;
  int bi = c;
  for (int i = c + threadIdx.x; i < m; i += blockDim.x)
    {
      double v = fabs ((double) a[(size_t) i * lda + c]);
      if (v > bv)
        {
          bv = v;
          bi = i;
        }
    }
  best_v[threadIdx.x] = bv;
  best_i[threadIdx.x] = bi;
  __syncthreads ();
  for (int s = blockDim.x / 2; s > 0; s >>= 1)
    {
      if (threadIdx.x < s)
        {
          double ov = best_v[threadIdx.x + s];
          int oi = best_i[threadIdx.x + s];
          if (ov > best_v[threadIdx.x] || (ov == best_v[threadIdx.x] && oi < best_i[threadIdx.x]))
            {
              best_v[threadIdx.x] = ov;
              best_i[threadIdx.x] = oi;
            }
        }
      __syncthreads ();
    }
  if (threadIdx.x == 0)
    ipiv[c] = best_v[0] > 0.0 ? best_i[0] : c; // a zero column: no swap (LAPACK)
}

// Swap rows c and ipiv[c] in columns [c0, c1): row-major rows are
// contiguous, so a warp moves 32 neighbouring elements per transaction.
template <typename T>
__global__ void
lu_swap_kernel (T *__restrict__ a, int lda, int c, const int *__restrict__ ipiv, int c0, int c1)
{
  int p = ipiv[c];
  if (p == c)
    return;
  for (int j = c0 + blockIdx.x * blockDim.x + threadIdx.x; j < c1; j += gridDim.x * blockDim.x)
    {
      T t = a[(size_t) c * lda + j];
      a[(size_t) c * lda + j] = a[(size_t) p * lda + j];
      a[(size_t) p * lda + j] = t;
    }
}

// Scale and rank-1 update for column c, rows c+1..m−1, columns c+1..c1−1:
//   l(i) = a(i,c) / a(c,c);  a(i,j) −= l(i)·a(c,j)
// Blocks of 32×8 threads, 8 rows per block, one warp per row (launch with
// gridDim.x = 1): the warp walks its row 32 columns at a time, so a(i,·)
// and the pivot row (hot in L1/L2) are read coalesced.  2 flops per
// element read and written: bound by memory bandwidth.
template <typename T>
__global__ void
lu_update_kernel (T *__restrict__ a, int m, int lda, int c, int c1)
{
  const int i = c + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  const T piv = a[(size_t) c * lda + c];
  if (i >= m)
    return;
  T l = a[(size_t) i * lda + c];
  if (piv != T (0))
    l = l / piv;
  // the whole warp read the unmodified a(i,c); only then does lane 0
  // store the multiplier in its place (seed 004: where the zero would be)
  __syncwarp ();
  if (threadIdx.x == 0)
    a[(size_t) i * lda + c] = l;
  if (l == T (0))
    return;
  for (int j = c + 1 + threadIdx.x; j < c1; j += blockDim.x)
    a[(size_t) i * lda + j] -= l * a[(size_t) c * lda + j];
}

// Applies the swaps ipiv[k0..k1) (in order) to columns [c0, c1): one
// thread per column walks the swap list — the "index table" of the tuned
// rung.  Threads of a warp touch neighbouring columns: coalesced.
template <typename T>
__global__ void
lu_laswp_kernel (T *__restrict__ a, int lda, const int *__restrict__ ipiv, int k0, int k1, int c0,
                 int c1)
{
  const int j = c0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= c1)
    return;
  for (int k = k0; k < k1; k++)
    {
      int p = ipiv[k];
      if (p != k)
        {
          T t = a[(size_t) k * lda + j];
          a[(size_t) k * lda + j] = a[(size_t) p * lda + j];
          a[(size_t) p * lda + j] = t;
        }
    }
}

// ---- what the look-ahead rungs share ------------------------------------------

// Returns the status of `expr` from the enclosing function unless it is OK.
#define TL_LU_TRY(expr)                                                                            \
  do                                                                                               \
    {                                                                                              \
      TlGpuStatus tl_lu_st_ = (expr);                                                              \
      if (tl_lu_st_ != TL_GPU_OK)                                                                  \
        return tl_lu_st_;                                                                          \
    }                                                                                              \
  while (0)

// A cuBLAS status as ours.
static inline TlGpuStatus
tl_lu_blas (cublasStatus_t st, const char *what)
{
  return st == CUBLAS_STATUS_SUCCESS ? TL_GPU_OK : tl_gpu_from_cublas (st, what);
}

// The look-ahead's second stream (high priority: the next panel's blocks get
// SMs first as the GEMM's blocks finish) and its two events: the next
// panel's columns are ready, the panel is done.
struct TlLuSideStream
{
  cudaStream_t side = nullptr;
  cudaEvent_t cols_ready = nullptr, panel_done = nullptr;
  TlGpuStatus create ()
  {
    int lo = 0, hi = 0;
    cudaDeviceGetStreamPriorityRange (&lo, &hi);
    TL_GPU_TRY (cudaStreamCreateWithPriority (&side, cudaStreamNonBlocking, hi), "the look-ahead stream");
    TL_GPU_TRY (cudaEventCreateWithFlags (&cols_ready, cudaEventDisableTiming), "the look-ahead events");
    TL_GPU_TRY (cudaEventCreateWithFlags (&panel_done, cudaEventDisableTiming), "the look-ahead events");
    return TL_GPU_OK;
  }
  ~TlLuSideStream ()
  {
    if (tl_gpu_is_lost ())
      return;
    // destroying them is deferred by the runtime until their work is done
    if (cols_ready)
      cudaEventDestroy (cols_ready);
    if (panel_done)
      cudaEventDestroy (panel_done);
    if (side)
      cudaStreamDestroy (side);
  }
};

// ---- lu-04's factorisation, with another rung's panel -------------------------
//
// lu-05 factors its panels its own way and leaves the rest to lu-04's
// driver: block steps, look-ahead on the side stream, staged swaps, phase
// split, recording.  lu-04 offers each panel [k0, k0+kb) (rows k0..m−1) to
// the hook first; what the hook does not take, lu-04's kernel factors.
struct TlLuPanelHook
{
  bool (*fits) (const TlLuCtx *ctx, const void *state, int k0, int kb);
  // Factors the panel on `stream` (the look-ahead's side stream, or
  // ctx->stream), recording its steps when ctx->observer is set.
  TlGpuStatus (*factor) (TlLuCtx *ctx, void *state, cudaStream_t stream, int k0, int kb, int bstep);
  void *state;
};
TlGpuStatus tl_lu_persistent_factor (TlLuCtx *ctx, const TlLuPanelHook *hook);
size_t tl_lu_persistent_workspace (const TlLuCtx *ctx);
// The swaps ipiv[k0 … k0+kb) applied in order to the columns [c0, c1), on
// `stream` (lu-04's staged kernel: the touched rows of 32 columns at a time
// in shared memory).
TlGpuStatus tl_lu_swap_rows (TlLuCtx *ctx, cudaStream_t stream, int k0, int kb, int c0, int c1);

// A tuning override from the environment (benchmark sweeps), or the default.
static inline int
tl_lu_env_int (const char *name, int fallback, int lo, int hi)
{
  const char *v = getenv (name);
  if (v == nullptr || *v == '\0')
    return fallback;
  long x = strtol (v, nullptr, 10);
  return x < lo ? lo : x > hi ? hi : (int) x;
}

// ---- cuBLAS on row-major data ----------------------------------------------

// U12 = L11⁻¹·A12 for the rows k0..k0+kb of row-major A.  cuBLAS sees Aᵀ:
// A12ᵀ = A12ᵀ·L11⁻ᵀ, and L11's memory read column-major is L11ᵀ (upper, unit).
cublasStatus_t tl_lu_trsm (TlLuCtx *ctx, int k0, int kb);
// The same for the columns [c0, c1) of A12 only (look-ahead solves the next
// panel's columns first).
cublasStatus_t tl_lu_trsm_cols (TlLuCtx *ctx, int k0, int kb, int c0, int c1);
// A22 −= L21·U12 for the columns [c0, c1) of the trailing part (rows
// k0+kb..m−1).  Column-major: A22ᵀ −= U12ᵀ·L21ᵀ.
cublasStatus_t tl_lu_gemm (TlLuCtx *ctx, int k0, int kb, int c0, int c1);

// ---- the phase split (ctx->profile set: a separate run, not the headline) ----
//
// tl_lu_phase_begin / _end record events around one phase of a block step
// on ctx->stream; tl_lu_phase_step, after the step's four phases, waits once
// and adds each phase's time to ctx->phase_ms and to the block step's entry.
// The rungs run the four phases one after the other in this run (the
// look-ahead rungs without their second stream), so the phases never
// overlap and sum to at most the run; waiting only once per block step
// keeps the host's launches ahead of the GPU, as in the timed runs.  All
// three do nothing when ctx->profile is not set.
enum { TL_LU_GPU_PANEL, TL_LU_GPU_SWAP, TL_LU_GPU_TRSM, TL_LU_GPU_GEMM }; // as TlLuPhase
void tl_lu_phase_begin (TlLuCtx *ctx, int phase);
void tl_lu_phase_end (TlLuCtx *ctx, int phase);
TlGpuStatus tl_lu_phase_step (TlLuCtx *ctx, int block_step);

// Cancellation between block steps (and between columns of the column
// rungs): TL_GPU_CANCELLED once the caller's cancel callback says so.  Work
// already enqueued still runs; the harness frees the buffers after it.
TlGpuStatus tl_lu_cancel_point (TlLuCtx *ctx);

// ---- recording (ctx->observer set: a separate, untimed run) -----------------
//
// Each hook waits for the stream, downloads the few elements the step
// recorder needs (a column, the pivot, a few U rows, or the whole matrix
// when a snapshot is due) and hands them to the observer.  The rungs call
// them between their launches only when ctx->observer is set, so the timed
// path launches exactly what it launches without recording.

// Step k begins: column k, rows k..m−1, before the pivot search.
TlGpuStatus tl_lu_rec_search (TlLuCtx *ctx, int k, int block);
// After the pivot search and swap of step k: ipiv[k] and U(k,k).
TlGpuStatus tl_lu_rec_pivot (TlLuCtx *ctx, int k);
// After the scale + rank-1 update of step k that reached columns < c1.
TlGpuStatus tl_lu_rec_eliminated (TlLuCtx *ctx, int k, int c1);
// The same inside a panel that ends at c1; in the last panel (c1 = n) U
// row k is final at once, so it and (when due) a snapshot follow: the last
// block plays step by step, as in lu-cpu-blocked.
TlGpuStatus tl_lu_rec_panel_column (TlLuCtx *ctx, int k, int c1);
// U rows k0..k0+kb−1 are final.
TlGpuStatus tl_lu_rec_u_rows (TlLuCtx *ctx, int k0, int kb);
// Block step `index` is done (its phase times come from the profile run).
TlGpuStatus tl_lu_rec_block (TlLuCtx *ctx, int index, int k0, int kb);
// A snapshot after steps_done steps, when the observer wants one.
TlGpuStatus tl_lu_rec_snapshot (TlLuCtx *ctx, int steps_done);
