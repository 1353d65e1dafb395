/* tl-lu.c — the Gauss ladder's registry and the one entry point. */
#include "lu/tl-lu.h"
#include "core/tl-error.h"
#include "lu/tl-lu-private.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define F32 TL_DTYPE_BIT (TL_DTYPE_FLOAT32)
#define F64 TL_DTYPE_BIT (TL_DTYPE_FLOAT64)

/* The ladder.  Rows are never renumbered; the GPU rungs live in gpu/lu/. */
static const TlLuKernelInfo lu_kernels[] = {
  { "lu-cpu-unblocked", 0, N_("CPU unblocked, one column at a time"),
    N_("Pivot search, swap, scale the multipliers, rank-1 update of the rest: n steps of O(n²) memory traffic each"),
    "004", F32 | F64, TL_BACKEND_CPU, FALSE, FALSE, TRUE, TRUE, "src/lu/tl-lu-cpu-unblocked.c" },
  { "lu-cpu-blocked", 0, N_("CPU blocked, right-looking"),
    N_("Factor a panel of b columns, swap, solve for U12, then one GEMM updates the trailing matrix (seed 004 §3.1)"),
    "004", F32 | F64, TL_BACKEND_CPU, FALSE, TRUE, TRUE, TRUE, "src/lu/tl-lu-cpu-blocked.c" },
  { "lu-lapack", 0, N_("LAPACK getrf (OpenBLAS)"),
    N_("The reference: recursive panel, tuned BLAS-3 update, threads"),
    "", F32 | F64, TL_BACKEND_CPU, TRUE, FALSE, FALSE, FALSE, "src/lu/tl-lu-lapack.c" },
  { "lu-01-percolumn", 1, N_("GPU one launch per column"),
    N_("Each column is a pivot search, a swap, a scale and a rank-1 update: 4n launches bound by memory bandwidth"),
    "004", F32 | F64, TL_BACKEND_GPU, FALSE, FALSE, TRUE, TRUE, "gpu/lu/lu-01-percolumn.cu" },
  { "lu-02-blocked", 2, N_("GPU blocked, cuBLAS trailing update"),
    N_("The panel on the GPU, then TRSM and GEMM from cuBLAS: the update becomes a matrix multiplication"),
    "004", F32 | F64, TL_BACKEND_GPU, FALSE, TRUE, FALSE, TRUE, "gpu/lu/lu-02-blocked.cu" },
  { "lu-03-tuned", 3, N_("GPU blocked, fused panel and look-ahead"),
    N_("One kernel factors the panel; the next panel is factored on a second stream while the big GEMM runs"),
    "004", F32 | F64, TL_BACKEND_GPU, FALSE, TRUE, FALSE, TRUE, "gpu/lu/lu-03-tuned.cu" },
  { "lu-04-persistent", 4, N_("GPU blocked, persistent panel"),
    N_("One launch factors the whole panel from shared memory, its blocks handshaking once per column; look-ahead hides it behind the GEMM"),
    "004", F32 | F64, TL_BACKEND_GPU, FALSE, TRUE, FALSE, TRUE, "gpu/lu/lu-04-persistent.cu" },
  { "lu-cusolver", 0, N_("cuSOLVER getrf"),
    N_("The GPU reference"),
    "", F32 | F64, TL_BACKEND_GPU, TRUE, FALSE, FALSE, FALSE, "gpu/lu/lu-cusolver.cu" },
};

guint
tl_lu_kernel_count (void)
{
  return G_N_ELEMENTS (lu_kernels);
}

const TlLuKernelInfo *
tl_lu_kernel_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (lu_kernels), NULL);
  return &lu_kernels[index];
}

const TlLuKernelInfo *
tl_lu_kernel_find (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (lu_kernels); i++)
    if (strcmp (lu_kernels[i].id, id) == 0)
      return &lu_kernels[i];
  return NULL;
}

const char *
tl_pivoting_name (TlPivoting pivoting)
{
  return pivoting == TL_PIVOTING_NONE ? "none" : "partial";
}

gboolean
tl_pivoting_from_name (const char *name, TlPivoting *out)
{
  if (g_strcmp0 (name, "none") == 0)
    *out = TL_PIVOTING_NONE;
  else if (g_strcmp0 (name, "partial") == 0)
    *out = TL_PIVOTING_PARTIAL;
  else
    return FALSE;
  return TRUE;
}

const char *
tl_lu_phase_name (TlLuPhase phase)
{
  static const char *const names[] = { "panel", "swap", "trsm", "gemm" };
  g_return_val_if_fail (phase < TL_LU_N_PHASES, "");
  return names[phase];
}

void
tl_lu_result_free (TlLuResult *result)
{
  if (result == NULL)
    return;
  g_free (result->kernel_id);
  g_clear_pointer (&result->lu, tl_matrix_unref);
  g_free (result->ipiv);
  g_free (result);
}

void
tl_lu_result_finish (TlLuResult *r)
{
  const TlMatrix *lu = r->lu;
  gsize m = lu->rows, n = lu->cols, mn = MIN (m, n);
  double eps = lu->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  double max_u = 0.0, max_diag = 0.0;

  r->n_swaps = 0;
  for (gsize k = 0; k < r->n_ipiv; k++)
    if ((gsize) r->ipiv[k] != k)
      r->n_swaps++;

  for (gsize i = 0; i < mn; i++)
    for (gsize j = i; j < n; j++)
      {
        double v = fabs (tl_matrix_get (lu, i, j));
        max_u = fmax (max_u, v);
        if (j == i)
          max_diag = fmax (max_diag, v);
      }
  r->growth = r->max_abs_a > 0.0 ? max_u / r->max_abs_a : 1.0;
  r->rank_tol = (double) MAX (m, n) * eps * max_diag;
  r->rank = 0;
  for (gsize k = 0; k < mn; k++)
    if (fabs (tl_matrix_get (lu, k, k)) > r->rank_tol)
      r->rank++;

  r->det_sign = 0;
  r->log_abs_det = NAN;
  r->det = NAN;
  r->det_finite = FALSE;
  if (m != n)
    return;
  if (r->breakdown)
    return; /* the factorisation stopped: the determinant is unknown */
  if (r->info > 0)
    {
      r->log_abs_det = -INFINITY;
      r->det = 0.0;
      r->det_finite = TRUE;
      return;
    }
  int sign = (r->n_swaps % 2) ? -1 : 1;
  double log_abs = 0.0;
  for (gsize k = 0; k < n; k++)
    {
      double u = tl_matrix_get (lu, k, k);
      if (u < 0)
        sign = -sign;
      log_abs += log (fabs (u));
    }
  r->det_sign = sign;
  r->log_abs_det = log_abs;
  double v = exp (log_abs);
  if (n == 0)
    v = 1.0;
  if (isfinite (v) && v > 0.0)
    {
      /* For moderate n the direct product is exact to the last bits; the
       * exp(log) route loses a few.  Use the product when it stays finite. */
      double prod = (r->n_swaps % 2) ? -1.0 : 1.0;
      for (gsize k = 0; k < n; k++)
        prod *= tl_matrix_get (lu, k, k);
      r->det = (isfinite (prod) && prod != 0.0) ? prod : sign * v;
      r->det_finite = TRUE;
    }
}

gboolean
tl_lu_check_finite (const TlMatrix *a, GError **error)
{
  gsize i, j;
  if (tl_matrix_find_nonfinite (a, &i, &j))
    {
      double v = tl_matrix_get (a, i, j);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("The matrix holds %s at row %zu, column %zu; elimination needs finite numbers"),
                   isnan (v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf"), i + 1, j + 1);
      return FALSE;
    }
  return TRUE;
}

static void
swap_rows (TlMatrix *a, gsize r1, gsize r2)
{
  gsize es = tl_dtype_size (a->dtype);
  char *p = tl_matrix_row (a, r1), *q = tl_matrix_row (a, r2);
  for (gsize b = 0; b < a->cols * es; b++)
    {
      char t = p[b];
      p[b] = q[b];
      q[b] = t;
    }
}

void
tl_lu_apply_pivots (TlMatrix *a, const gint32 *ipiv, gsize n_ipiv, gboolean inverse)
{
  g_return_if_fail (a != NULL);
  if (!inverse)
    {
      for (gsize k = 0; k < n_ipiv; k++)
        if ((gsize) ipiv[k] != k)
          swap_rows (a, k, ipiv[k]);
    }
  else
    {
      for (gsize k = n_ipiv; k-- > 0;)
        if ((gsize) ipiv[k] != k)
          swap_rows (a, k, ipiv[k]);
    }
}

TlMatrix *
tl_lu_reconstruct (const TlLuResult *result, GError **error)
{
  g_return_val_if_fail (result != NULL && result->lu != NULL, NULL);
  const TlMatrix *lu = result->lu;
  gsize m = lu->rows, n = lu->cols, mn = MIN (m, n);
  TlMatrix *out = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, m, n, error);
  if (out == NULL)
    return NULL;
  /* (L·U)(i,j) = Σ_{k ≤ min(i,j,mn-1)} L(i,k) U(k,j), L(i,i) = 1 */
  g_autofree double *l = g_new (double, MAX (mn, 1));
  for (gsize i = 0; i < m; i++)
    {
      double *row = tl_matrix_row (out, i);
      gsize kmax = MIN (i + 1, mn);
      for (gsize k = 0; k < kmax; k++)
        l[k] = k == i ? 1.0 : tl_matrix_get (lu, i, k);
      for (gsize k = 0; k < kmax; k++)
        for (gsize j = k; j < n; j++)
          row[j] += l[k] * tl_matrix_get (lu, k, j);
    }
  return out;
}

gboolean
tl_lu_factor_full (const TlLuOptions *options,
                   const TlMatrix    *a,
                   TlLuRecorder      *recorder,
                   GCancellable      *cancellable,
                   TlLuResult       **out_result,
                   GError           **error)
{
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (out_result != NULL, FALSE);

  const char *id = options->kernel_id ? options->kernel_id : TL_LU_DEFAULT_KERNEL;
  if (strcmp (id, "gpu") == 0)
    id = TL_LU_FASTEST_GPU_KERNEL;
  const TlLuKernelInfo *info = tl_lu_kernel_find (id);
  if (info == NULL)
    {
      GString *known = g_string_new (NULL);
      for (guint i = 0; i < G_N_ELEMENTS (lu_kernels); i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", lu_kernels[i].id);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("Unknown LU kernel “%s” (known: %s)"),
                   id, known->str);
      g_string_free (known, TRUE);
      return FALSE;
    }
  if (!(info->dtypes & TL_DTYPE_BIT (a->dtype)))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s factors float32 and float64 matrices, not %s (use --mod P for exact integer elimination)"),
                   id, tl_dtype_name (a->dtype));
      return FALSE;
    }
  if (options->pivoting == TL_PIVOTING_NONE && !info->no_pivoting)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("%s always pivots; use lu-cpu-unblocked, lu-cpu-blocked or lu-01-percolumn for --pivoting none"),
                   id);
      return FALSE;
    }
  if (recorder != NULL && !info->records_steps)
    {
      g_autoptr (GString) who = g_string_new (NULL);
      for (guint i = 0; i < G_N_ELEMENTS (lu_kernels); i++)
        if (lu_kernels[i].records_steps)
          g_string_append_printf (who, "%s%s", who->len ? ", " : "", lu_kernels[i].id);
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s cannot record its steps (a library call has no steps to stop at); record with %s"),
                   id, who->str);
      return FALSE;
    }
  if (!tl_lu_check_finite (a, error))
    return FALSE;
  const char *gemm = options->gemm ? options->gemm : "openblas";
  if (strcmp (gemm, "openblas") != 0 && strcmp (gemm, "cpu-blocked") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("Unknown GEMM “%s” for the trailing update (openblas or cpu-blocked)"), gemm);
      return FALSE;
    }

  g_autoptr (TlMatrix) work = tl_matrix_copy (a, error);
  if (work == NULL)
    return FALSE;

  g_autoptr (TlLuResult) r = g_new0 (TlLuResult, 1);
  r->kernel_id = g_strdup (id);
  r->pivoting = options->pivoting;
  /* GPU rungs default to b = 128 (their GEMM wants it); the CPU to 64 */
  gsize default_block = info->backend == TL_BACKEND_GPU ? 128 : TL_LU_DEFAULT_BLOCK;
  r->block_size = info->blocked ? (options->block_size ? options->block_size : default_block) : 0;
  r->n_ipiv = MIN (a->rows, a->cols);
  r->ipiv = g_new0 (gint32, MAX (r->n_ipiv, 1));
  r->max_abs_a = tl_matrix_norm (a, TL_NORM_MAX);
  if (a->rows > G_MAXINT32 || a->cols > G_MAXINT32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("Matrices above 2³¹ rows or columns are not supported"));
      return FALSE;
    }

  TlLuWork w = { 0 };
  w.a = work;
  w.ipiv = r->ipiv;
  w.pivoting = options->pivoting;
  w.block_size = r->block_size;
  w.gemm = gemm;
  w.kernel_id = id;
  w.rec = recorder;
  w.cancellable = cancellable;
  for (gsize k = 0; k < r->n_ipiv; k++)
    w.ipiv[k] = (gint32) k;

  if (recorder)
    {
      tl_lu_recorder_begin (recorder, id, tl_dtype_name (a->dtype), 0, a->rows, a->cols,
                            r->block_size, options->pivoting, r->max_abs_a);
      tl_lu_recorder_snapshot (recorder, 0, tl_lu_recorder_get_matrix, work);
    }

  gint64 t0 = tl_lu_now_ns ();
  gboolean ok;
  double gpu_elapsed = -1.0;
  if (strcmp (id, "lu-cpu-unblocked") == 0)
    ok = tl_lu_cpu_unblocked (&w, error);
  else if (strcmp (id, "lu-cpu-blocked") == 0)
    ok = tl_lu_cpu_blocked (&w, error);
  else if (strcmp (id, "lu-lapack") == 0)
    ok = tl_lu_lapack (&w, error);
  else
    ok = tl_lu_gpu (&w, options->gpu_ordinal, &gpu_elapsed, error);
  gint64 t1 = tl_lu_now_ns ();
  if (!ok)
    return FALSE;

  r->elapsed_s = gpu_elapsed >= 0.0 ? gpu_elapsed : (double) (t1 - t0) * 1e-9;
  r->gpu_ordinal = options->gpu_ordinal;
  r->info = w.info;
  r->breakdown = w.breakdown;
  memcpy (r->phase_ns, w.phase_ns, sizeof r->phase_ns);
  r->phase_run_ns = w.phase_run_ns > 0 ? w.phase_run_ns : (gint64) (r->elapsed_s * 1e9);
  r->record_s = w.record_s;
  r->lu = g_steal_pointer (&work);
  tl_lu_result_finish (r);

  if (recorder)
    {
      tl_lu_recorder_snapshot (recorder, r->n_ipiv, tl_lu_recorder_get_matrix, r->lu);
      tl_lu_recorder_finish (recorder, r->ipiv, r->n_ipiv, r->info, r->breakdown, r->rank,
                             r->det_sign, r->log_abs_det, r->growth);
    }
  *out_result = g_steal_pointer (&r);
  return TRUE;
}

gboolean
tl_lu_factor (const char     *kernel_id,
              const TlMatrix *a,
              gsize           block_size,
              TlPivoting      pivoting,
              TlLuRecorder   *recorder,
              GCancellable   *cancellable,
              TlLuResult    **out_result,
              GError        **error)
{
  TlLuOptions options = { 0 };
  options.kernel_id = kernel_id;
  options.block_size = block_size;
  options.pivoting = pivoting;
  return tl_lu_factor_full (&options, a, recorder, cancellable, out_result, error);
}
