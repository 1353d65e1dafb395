// lu-05-cluster.cu — the panel inside ONE thread-block cluster: rows in
// registers, a hardware barrier and distributed shared memory per column.
//
// Rung 5.  What lu-04's phase split shows (docs/perf/, the LU tables): its
// panel is the critical path — several µs per column, n columns, most of
// cuSOLVER's whole time at n = 16384 — and the per-column time hardly
// depends on the rows: it is the grid-wide handshake
// through mailbox words in L2 (two L2 round trips, P blocks polling the same
// lines), not the arithmetic.  Hopper has a cheaper way for up to 16 SMs to
// agree: a thread-block CLUSTER, whose CTAs read each other's shared memory
// (DSMEM, ≈ 200 cycles a round trip, no L2) and meet at a hardware barrier
// (barrier.cluster, split into arrive and wait).  So:
//
// 1. The panel is cut into narrow SUB-PANELS of W columns (32 float32,
//    16 float64; 32 for float64 too while one row per thread suffices),
//    and each sub-panel is factored by one cluster launch
//    (lu-05-cluster-panel.cuh): its h rows live in the REGISTERS of up to
//    16 CTAs × 512 threads (2 rows of W per thread at most: h ≤ 16384), a
//    swap only relabels two rows, and a column costs one DSMEM round trip
//    plus one cluster barrier, the rank-1 update running under the barrier.
//    An estimate of ≈ 1100 cycles per column meets two costs in practice
//    (docs/perf/ has the microbenchmark): the barrier's memory fence is a
//    MEMBAR.ALL.GPU plus an L1 invalidation, far dearer than the bare
//    barrier, and the column's own path (two CTA barriers, the reductions,
//    16 warps issuing the same code).  Still well below lu-04's handshake
//    per column, and at n ≥ 4096 that carries the rung past cuSOLVER.
// 2. Between the sub-panels, right-looking inside the panel: the sub-panel's
//    swaps left and right of it (lu-04's staged kernel), U12 by cuBLAS TRSM
//    and the rest of the panel's columns by a thin cuBLAS GEMM (h × ≤ 96 ×
//    W) — the arithmetic of a wide panel goes to GEMM, only W columns at a
//    time need the per-column agreement.
// 3. Everything around the panel is lu-04's (tl_lu_persistent_factor with
//    this panel as its hook): block steps of nb = 128, swaps by the staged
//    kernel, the next panel factored on a high-priority side stream while
//    the bulk TRSM and GEMM of the step run.  On the side stream the
//    sub-panels' cuBLAS calls get their own workspace (from this rung's
//    workspace), so they never share cuBLAS's default one with the bulk
//    GEMM running beside them.
//
// What does not fit one cluster (h > 16 · 512 · 2 = 16384 rows, or a GPU
// without clusters) is factored by lu-04's persistent kernel instead: at
// n = 16385 the first panel.  Recording (--record) launches the cluster
// kernel one column at a time (j0 = j, j1 = j + 1) with the hooks between;
// a column's update region is its sub-panel.  The phase split counts the
// sub-panels' TRSM, GEMM and swaps as panel time.
//
// Tuning overrides (benchmark sweeps, docs/perf/lu-*): TL_LU05_CLUSTER =
// the largest cluster (1, 2, 4, 8, 16; default the largest this GPU can
// schedule), TL_LU05_WIDTH = 16 or 32 (the widest sub-panel), TL_LU05_SYNC
// = 0 or 1 (the release or the lean cluster barrier; lean by default, the
// faster of the two over whole factorisations).
#include "tl-lu-gpu.cuh"
#include "lu-05-cluster-panel.cuh"

#define LU05_BLAS_WORKSPACE (4u << 20) // cuBLAS's workspace for the side stream's calls
#define LU05_LEAN_DEFAULT 1             // the cluster barrier: 0 release, 1 lean (TL_LU05_SYNC)

namespace
{
struct Lu05State
{
  int max_cluster; // CTAs per cluster at most (a power of two), 0: no clusters
  int width;       // the widest sub-panel, 16 or 32
  int lean;        // the lean cluster barrier (lu-05-cluster-panel.cuh)
  void *blas_ws;   // cuBLAS workspace of the panel's calls on the side stream
};

// The panel's cuBLAS calls go to the panel's stream; on the side stream
// with their own workspace (cublasSetStream gives the default one back).
struct BlasOnStream
{
  TlLuCtx *ctx = nullptr;
  ~BlasOnStream ()
  {
    if (ctx != nullptr && !tl_gpu_is_lost ())
      cublasSetStream (ctx->cublas, ctx->stream);
  }
  TlGpuStatus enter (TlLuCtx *c, cudaStream_t stream, void *ws)
  {
    if (stream == c->stream)
      return TL_GPU_OK;
    ctx = c;
    TL_LU_TRY (tl_lu_blas (cublasSetStream (c->cublas, stream), "lu-05: cuBLAS on the look-ahead stream"));
    return tl_lu_blas (cublasSetWorkspace (c->cublas, ws, LU05_BLAS_WORKSPACE), "lu-05: cuBLAS workspace");
  }
};
} // namespace

// ---- which kernel ----------------------------------------------------------------

// The instances: float32 W = 32 and 16, float64 W = 16, and float64 W = 32
// with one row per thread (two would need 128 registers of data).
template <typename T, int W>
static cudaError_t
launch_rpt (const Lu05Args<T> &p, int rpt, int cluster, cudaStream_t stream)
{
  return rpt == 1 ? lu05_launch<T, W, 1> (p, cluster, stream) : lu05_launch<T, W, 2> (p, cluster, stream);
}

static cudaError_t
launch_kernel (const Lu05Args<float> &p, int width, int rpt, int cluster, cudaStream_t stream)
{
  return width == 32 ? launch_rpt<float, 32> (p, rpt, cluster, stream)
                     : launch_rpt<float, 16> (p, rpt, cluster, stream);
}

static cudaError_t
launch_kernel (const Lu05Args<double> &p, int width, int rpt, int cluster, cudaStream_t stream)
{
  return width == 32 ? lu05_launch<double, 32, 1> (p, cluster, stream)
                     : launch_rpt<double, 16> (p, rpt, cluster, stream);
}

static cudaError_t
prepare_kernels (void)
{
  cudaError_t e = lu05_prepare<float, 32, 1> ();
  if (e == cudaSuccess)
    e = lu05_prepare<float, 32, 2> ();
  if (e == cudaSuccess)
    e = lu05_prepare<float, 16, 1> ();
  if (e == cudaSuccess)
    e = lu05_prepare<float, 16, 2> ();
  if (e == cudaSuccess)
    e = lu05_prepare<double, 32, 1> ();
  if (e == cudaSuccess)
    e = lu05_prepare<double, 16, 1> ();
  if (e == cudaSuccess)
    e = lu05_prepare<double, 16, 2> ();
  return e;
}

// The sub-panel width at c0: the widest the registers hold for its rows.
template <typename T>
static int
sub_width (const TlLuCtx *ctx, const Lu05State *s, int c0)
{
  if (sizeof (T) == 4 || s->width == 16)
    return s->width;
  return ctx->m - c0 <= s->max_cluster * LU05_THREADS ? 32 : 16;
}

// ---- the panel ---------------------------------------------------------------------

template <typename T>
static TlGpuStatus
launch_sub (TlLuCtx *ctx, const Lu05State *s, cudaStream_t stream, int c0, int width, int w, int j0, int j1)
{
  Lu05Args<T> p;
  p.a = (T *) ctx->a;
  p.m = ctx->m;
  p.lda = ctx->lda;
  p.c0 = c0;
  p.w = w;
  p.j0 = j0;
  p.j1 = j1;
  p.ipiv = ctx->ipiv;
  p.lean = s->lean;
  int rpt = 1;
  const int cluster = lu05_cluster_for (ctx->m - c0, s->max_cluster, &rpt);
  if (cluster == 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "lu-05: %d rows do not fit one cluster", ctx->m - c0);
  TL_GPU_TRY (launch_kernel (p, width, rpt, cluster, stream), "lu-05 cluster panel launch");
  return TL_GPU_OK;
}

// One sub-panel [c0, c0+w): one launch, or (recording) one per column with
// the hooks between them.
template <typename T>
static TlGpuStatus
sub_panel (TlLuCtx *ctx, const Lu05State *s, cudaStream_t stream, int c0, int width, int w, int bstep)
{
  if (ctx->observer == nullptr)
    return launch_sub<T> (ctx, s, stream, c0, width, w, 0, w);
  for (int j = 0; j < w; j++)
    {
      const int c = c0 + j;
      TL_LU_TRY (tl_lu_rec_search (ctx, c, bstep));
      TL_LU_TRY (launch_sub<T> (ctx, s, stream, c0, width, w, j, j + 1));
      TL_LU_TRY (tl_lu_rec_pivot (ctx, c));
      TL_LU_TRY (tl_lu_rec_panel_column (ctx, c, c0 + w));
    }
  return TL_GPU_OK;
}

static bool
fits (const TlLuCtx *ctx, const void *state, int k0, int)
{
  const Lu05State *s = (const Lu05State *) state;
  int rpt;
  return s->max_cluster > 0 && lu05_cluster_for (ctx->m - k0, s->max_cluster, &rpt) > 0;
}

// The panel [k0, k1): sub-panel by sub-panel, right-looking.
template <typename T>
static TlGpuStatus
factor_panel (TlLuCtx *ctx, void *state, cudaStream_t stream, int k0, int kb, int bstep)
{
  const Lu05State *s = (const Lu05State *) state;
  BlasOnStream blas;
  TL_LU_TRY (blas.enter (ctx, stream, s->blas_ws));
  const int k1 = k0 + kb;
  for (int c0 = k0; c0 < k1;)
    {
      const int width = sub_width<T> (ctx, s, c0), w = k1 - c0 < width ? k1 - c0 : width, c1 = c0 + w;
      TL_LU_TRY (sub_panel<T> (ctx, s, stream, c0, width, w, bstep));
      TL_LU_TRY (tl_lu_swap_rows (ctx, stream, c0, w, k0, c0));
      TL_LU_TRY (tl_lu_swap_rows (ctx, stream, c0, w, c1, k1));
      TL_LU_TRY (tl_lu_blas (tl_lu_trsm_cols (ctx, c0, w, c1, k1), "lu-05 trsm"));
      TL_LU_TRY (tl_lu_blas (tl_lu_gemm (ctx, c0, w, c1, k1), "lu-05 gemm"));
      c0 = c1;
    }
  return TL_GPU_OK;
}

// ---- the rung ----------------------------------------------------------------------

// The largest cluster this GPU schedules for the kernels (asked once per
// device and process: the answer does not change, and the query is host
// time inside the timed region).
static TlGpuStatus
max_cluster (const TlLuCtx *ctx, int *out)
{
  static int known_for = -1, known = 0;
  if (known_for == ctx->device->ordinal)
    {
      *out = known;
      return TL_GPU_OK;
    }
  known = 0;
  if (ctx->device->cc >= 90)
    {
      TL_GPU_TRY (prepare_kernels (), "lu-05: kernel attributes");
      for (int c = LU05_MAX_CLUSTER; c >= 1 && known == 0; c /= 2)
        if (lu05_max_active<float, 32, 2> (c) > 0 && lu05_max_active<double, 16, 2> (c) > 0)
          known = c;
    }
  known_for = ctx->device->ordinal;
  *out = known;
  return TL_GPU_OK;
}

static TlGpuStatus
lu_05_factor (TlLuCtx *ctx)
{
  Lu05State s;
  TL_LU_TRY (max_cluster (ctx, &s.max_cluster));
  const int cap = tl_lu_env_int ("TL_LU05_CLUSTER", LU05_MAX_CLUSTER, 0, LU05_MAX_CLUSTER);
  while (s.max_cluster > cap)
    s.max_cluster /= 2;
  s.width = tl_lu_env_int ("TL_LU05_WIDTH", 32, 16, 32) < 32 ? 16 : 32;
  s.lean = tl_lu_env_int ("TL_LU05_SYNC", LU05_LEAN_DEFAULT, 0, 1);
  const size_t off = (tl_lu_persistent_workspace (ctx) + 255) & ~(size_t) 255;
  s.blas_ws = (char *) ctx->workspace + off;
  TlLuPanelHook hook;
  hook.fits = fits;
  hook.factor = ctx->dtype == TL_GPU_FLOAT32 ? factor_panel<float> : factor_panel<double>;
  hook.state = &s;
  return tl_lu_persistent_factor (ctx, &hook);
}

static size_t
lu_05_workspace (const TlLuCtx *ctx)
{
  return ((tl_lu_persistent_workspace (ctx) + 255) & ~(size_t) 255) + LU05_BLAS_WORKSPACE;
}

const TlLuRung lu_05_cluster_rung = { "lu-05-cluster", lu_05_factor, lu_05_workspace };
