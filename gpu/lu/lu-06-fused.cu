// lu-06-fused.cu — the small end: the whole factorisation in one persistent
// launch, the panel in one SM's registers, the trailing blocks on the other
// SMs, flags in L2 between them.
//
// Rung 6.  Up to n ≈ 2048 an LU is latency-bound: every column needs the
// whole column's pivot before the next can start, so the time is
// n × (the cost of agreeing on a pivot) plus the block steps' launches.
// lu-05 agrees within a thread-block cluster (a hardware barrier with a
// GPU-wide memory fence, ≈ 2 µs a column) and launches six kernels or
// library calls per 32 columns and more per block step; cuSOLVER's getrf
// pays about as much per column.  Here (kernels in lu-06-fused-kernel.cuh):
//
// 1. The panel lives in the REGISTERS of one CTA of 512 threads: up to
//    RPT = 4 rows of W columns per thread (W·RPT ≤ 64 registers of data),
//    so one SM holds a panel of m ≤ 512·RPT rows.  A column costs one
//    __syncthreads and a few warp reductions (lu-05's column without the
//    cluster), and a row swap is a relabelling of two slots.
// 2. Nothing is launched per step.  The panel CTA publishes each panel
//    with one flag; the other SMs' CTAs (workers), each owning one or
//    more column blocks, wait for it and apply the step to their blocks:
//    the rows that moved, a W×W triangular solve, a rank-W update
//    streamed in chunks.
// 3. Look-ahead without a second stream: the panel CTA applies step k to
//    block k+1 itself, straight from its registers, and keeps the result
//    there as panel k+1.  The workers only have to keep block k+2 ready
//    (done[k+2] ≥ k+1) by the time the panel CTA gets there.
//
// What it costs: W is small (16 float32, 8 float64), so a step's
// update is a rank-W update — GEMMs with k = W stream the trailing matrix
// from L2 every step.  At these sizes the matrix fits in L2 (32 MB at
// n = 2048 float64), and the update stays off the critical path; above a
// few thousand rows the panel outgrows one SM and the traffic grows as
// n³/W: then lu-05 is the better rung.  This rung hands matrices of more
// than 512·RPT rows (the largest RPT compiled for the dtype) to lu-05.
//
// The plan (plan_for): the dtype, and the fewest slots per thread that
// hold m rows — float32 16 wide up to 2048 rows, float64 8 wide up to
// 1024 (the column blocks below).  A block size asked for (-b) picks
// another compiled width (float32 32, float64 16, up to 1024 rows) and
// TL_LU06_WIDTH overrides it (benchmark sweeps); the result reports the
// width used as its block size.  A launch has a worker per column block
// while the SMs suffice (n ≤ W × (SMs − 1): 2096 columns at W = 16 on 132
// SMs, 1048 at W = 8); past that, worker w takes the blocks w, w + G − 1,
// … and walks them nearest first, at most LU06_BLOCKS_PER_WORKER each:
// wider matrices stream their trailing blocks from L2 once per W columns
// on too few SMs, and lu-05's GEMMs win (TL_LU06_WORKERS caps the workers,
// for tests and sweeps).  Matrices the plans do not take go to lu-05
// (with lu-05's own block size unless one was asked for).
//
// Cancellation: a launch runs TL_LU06_SEGMENT columns' steps (default
// 1024, rounded to panels) and the cancel point sits between launches, so
// a cancel waits at most for the launches already queued (lu-05 queues its
// first eight block steps, 1024 columns, the same way).  Recording
// (--record) runs one launch per column (one CTA: load the panel, run the
// column, store it) with the hooks between, then lu-04's staged swaps for
// the other columns and one launch of the step's TRSM and update.  The
// rung does not split its time into phases: there is one kernel.
#include "tl-lu-gpu.cuh"
#include "lu-06-fused-kernel.cuh"

#define LU06_SEGMENT_COLUMNS 1024 // columns per launch when a cancel can come
#define LU06_BLOCKS_PER_WORKER 2   // the most column blocks a plan gives one worker

namespace
{
// Where the flags and swap lists live in the workspace: panels, done[]
// per column block, updated[] per step, then the swap lists.
struct Lu06Layout
{
  size_t flags_bytes, swaps_bytes;
};

Lu06Layout
layout (const TlLuCtx *ctx, int width)
{
  const int mn = ctx->m < ctx->n ? ctx->m : ctx->n;
  const size_t nsteps = (size_t) (mn + width - 1) / width, nblocks = (size_t) (ctx->n + width - 1) / width;
  Lu06Layout l;
  l.flags_bytes = ((1 + nblocks + nsteps) * sizeof (unsigned) + 255) & ~(size_t) 255;
  l.swaps_bytes = nsteps * lu06_swap_words (width) * sizeof (int);
  return l;
}

// Sets the kernels' shared-memory limits, once per device and instance.
template <typename T, int W, int RPT>
cudaError_t
prepare (int ordinal)
{
  static int prepared_for = -1;
  if (prepared_for == ordinal)
    return cudaSuccess;
  const int big = (int) lu06_smem_bytes<T, W, RPT> (), small = (int) lu06_smem_bytes<T, W, 1> ();
  cudaError_t e = cudaFuncSetAttribute (lu06_kernel<T, W, RPT>, cudaFuncAttributeMaxDynamicSharedMemorySize, big);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute (lu06_record_column_kernel<T, W, RPT>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, big);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute (lu06_update_kernel<T, W>, cudaFuncAttributeMaxDynamicSharedMemorySize, small);
  if (e == cudaSuccess)
    prepared_for = ordinal;
  return e;
}

// Recording: panel k column by column (the hooks between), the swaps of
// the other columns, the step's TRSM and update; then the step's hooks.
template <typename T, int W, int RPT>
TlGpuStatus
record (TlLuCtx *ctx, Lu06Args<T> p)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n;
  for (int k = 0; k < p.nsteps; k++)
    {
      TL_LU_TRY (tl_lu_cancel_point (ctx));
      const int k0 = k * W, wk = mn - k0 < W ? mn - k0 : W, wb = n - k0 < W ? n - k0 : W;
      p.s0 = k;
      p.s1 = k + 1;
      for (int j = 0; j < wk; j++)
        {
          const int c = k0 + j;
          TL_LU_TRY (tl_lu_rec_search (ctx, c, k));
          p.j0 = j;
          p.j1 = j + 1;
          lu06_record_column_kernel<T, W, RPT>
            <<<1, LU06_THREADS, lu06_smem_bytes<T, W, RPT> (), ctx->stream>>> (p);
          TL_GPU_TRY (cudaGetLastError (), "lu-06 column launch");
          TL_LU_TRY (tl_lu_rec_pivot (ctx, c));
          TL_LU_TRY (tl_lu_rec_panel_column (ctx, c, k0 + wb));
        }
      TL_LU_TRY (tl_lu_swap_rows (ctx, ctx->stream, k0, wk, 0, k0));
      TL_LU_TRY (tl_lu_swap_rows (ctx, ctx->stream, k0, wk, k0 + wb, n));
      if (k + 1 < p.nblocks)
        {
          lu06_update_kernel<T, W>
            <<<p.nblocks - k - 1, LU06_THREADS, lu06_smem_bytes<T, W, 1> (), ctx->stream>>> (p);
          TL_GPU_TRY (cudaGetLastError (), "lu-06 update launch");
        }
      TL_LU_TRY (tl_lu_rec_u_rows (ctx, k0, wk));
      TL_LU_TRY (tl_lu_rec_block (ctx, k, k0, wk));
      TL_LU_TRY (tl_lu_rec_snapshot (ctx, k0 + wk));
    }
  return TL_GPU_OK;
}

template <typename T, int W, int RPT>
TlGpuStatus
factor_with (TlLuCtx *ctx)
{
  const int m = ctx->m, n = ctx->n, mn = m < n ? m : n;
  const cudaError_t ready = prepare<T, W, RPT> (ctx->device->ordinal);
  TL_GPU_TRY (ready, "lu-06: kernel attributes");
  Lu06Args<T> p = {};
  p.a = (T *) ctx->a;
  p.m = m;
  p.n = n;
  p.lda = ctx->lda;
  p.nsteps = (mn + W - 1) / W;
  p.nblocks = (n + W - 1) / W;
  p.ipiv = ctx->ipiv;
  const Lu06Layout l = layout (ctx, W);
  p.panels = (unsigned *) ctx->workspace;
  p.done = p.panels + 1;
  p.updated = p.done + p.nblocks;
  p.swaps = (int *) ((char *) ctx->workspace + l.flags_bytes);
  // the flags count from zero in every factorisation
  TL_GPU_TRY (cudaMemsetAsync (p.panels, 0, l.flags_bytes, ctx->stream), "lu-06 flags");
  if (ctx->observer)
    return record<T, W, RPT> (ctx, p);

  const size_t smem = lu06_smem_bytes<T, W, RPT> ();
  const void *kernel = (const void *) lu06_kernel<T, W, RPT>;
  int per_sm = 0;
  TL_GPU_TRY (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kernel, LU06_THREADS, smem), "lu-06 occupancy");
  if (per_sm < 1)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "lu-06: its kernel does not fit one SM of this GPU");
  // a worker per column block while the SMs suffice, else several blocks each
  const int fit = per_sm * ctx->device->sm_count - 1;
  if (fit < 1)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "lu-06: no SM for a worker beside the panel's");
  p.workers = tl_lu_env_int ("TL_LU06_WORKERS", p.nblocks, 1, 1 << 30);
  p.workers = p.workers < p.nblocks ? p.workers : p.nblocks;
  p.workers = p.workers < fit ? p.workers : fit;
  const int grid = 1 + p.workers;
  const int columns = tl_lu_env_int ("TL_LU06_SEGMENT", LU06_SEGMENT_COLUMNS, 1, 1 << 30);
  const int steps = ctx->cancelled == nullptr ? p.nsteps : (columns + W - 1) / W;
  for (int s0 = 0; s0 < p.nsteps; s0 += steps)
    {
      TL_LU_TRY (tl_lu_cancel_point (ctx));
      p.s0 = s0;
      p.s1 = s0 + steps < p.nsteps ? s0 + steps : p.nsteps;
      void *args[] = { &p };
      TL_GPU_TRY (cudaLaunchCooperativeKernel (kernel, dim3 (grid), dim3 (LU06_THREADS), args, smem, ctx->stream),
                  "lu-06 launch");
    }
  return TL_GPU_OK;
}

// The compiled instances, each dtype's in order of preference.  The
// default plan is the first `usual` one whose slots hold m rows: float32
// 16 wide, float64 8 wide (its update needs half the registers per column,
// and the sweep in docs/perf/ found it the faster one from n = 512 up).
// The others run when asked for by width (-b, TL_LU06_WIDTH).
struct Lu06Plan
{
  TlGpuDtype dtype;
  int width, rpt;
  bool usual;
  TlGpuStatus (*factor) (TlLuCtx *ctx);
};

const Lu06Plan plans[] = {
  { TL_GPU_FLOAT32, 16, 1, true, factor_with<float, 16, 1> },
  { TL_GPU_FLOAT32, 16, 2, true, factor_with<float, 16, 2> },
  { TL_GPU_FLOAT32, 16, 4, true, factor_with<float, 16, 4> },
  { TL_GPU_FLOAT32, 32, 1, false, factor_with<float, 32, 1> },
  { TL_GPU_FLOAT32, 32, 2, false, factor_with<float, 32, 2> },
  { TL_GPU_FLOAT64, 8, 2, true, factor_with<double, 8, 2> },
  { TL_GPU_FLOAT64, 16, 1, false, factor_with<double, 16, 1> },
  { TL_GPU_FLOAT64, 16, 2, false, factor_with<double, 16, 2> },
};

// The first plan of ctx's dtype of width `width` (0: a usual one) whose
// slots hold the rows and whose column blocks the workers (an SM each
// besides the panel's) take at most LU06_BLOCKS_PER_WORKER at a time.
const Lu06Plan *
first_plan (const TlLuCtx *ctx, int width)
{
  for (const Lu06Plan &pl : plans)
    if (pl.dtype == ctx->dtype && (width != 0 ? pl.width == width : pl.usual) && ctx->m <= LU06_THREADS * pl.rpt
        && (ctx->n + pl.width - 1) / pl.width <= LU06_BLOCKS_PER_WORKER * (ctx->device->sm_count - 1))
      return &pl;
  return nullptr;
}

// The plan for ctx: the width asked for (TL_LU06_WIDTH, else -b) where a
// compiled instance of that width holds the rows, else the usual one.
// Null: lu-05 factors it (too many rows for one SM, too many columns for
// the other SMs, or no cooperative launches).
const Lu06Plan *
plan_for (const TlLuCtx *ctx)
{
  int coop = 0;
  if (ctx->device->cc < 70
      || cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch, ctx->device->ordinal) != cudaSuccess
      || !coop)
    return nullptr;
  const int want = tl_lu_env_int ("TL_LU06_WIDTH", ctx->block_asked ? ctx->block_size : 0, 0, 1 << 20);
  const Lu06Plan *pl = want != 0 ? first_plan (ctx, want) : nullptr;
  return pl != nullptr ? pl : first_plan (ctx, 0);
}
} // namespace

static TlGpuStatus
lu_06_factor (TlLuCtx *ctx)
{
  if (ctx->m == 0 || ctx->n == 0)
    return TL_GPU_OK;
  const Lu06Plan *pl = plan_for (ctx);
  if (pl == nullptr)
    {
      // lu-05 with its own default block, unless one was asked for
      if (!ctx->block_asked)
        ctx->block_size = tl_gpu_lu_kernel_find (lu_05_cluster_rung.id)->default_block;
      return lu_05_cluster_rung.factor (ctx);
    }
  ctx->block_size = pl->width; // what the result reports
  return pl->factor (ctx);
}

static size_t
lu_06_workspace (const TlLuCtx *ctx)
{
  const size_t lu05 = lu_05_cluster_rung.workspace_bytes (ctx);
  const Lu06Plan *pl = ctx->m > 0 && ctx->n > 0 ? plan_for (ctx) : nullptr;
  if (pl == nullptr)
    return lu05;
  const Lu06Layout l = layout (ctx, pl->width);
  const size_t ours = l.flags_bytes + l.swaps_bytes;
  return ours > lu05 ? ours : lu05;
}

const TlLuRung lu_06_fused_rung = { "lu-06-fused", lu_06_factor, lu_06_workspace };
