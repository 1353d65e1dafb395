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

/* A kernel of the ladder and the function that runs it. */
typedef gboolean (*FactorFn) (TlLuWork *w, GError **error);

typedef struct
{
  TlLuKernelInfo info;
  FactorFn factor;
} LuRow;

/* The CPU kernels.  Rows are never renumbered; the GPU rungs follow from
 * the door's list (gpu/lu/tl-lu-ladder.h). */
static const LuRow cpu_rows[] = {
  { { .id = "lu-cpu-unblocked", .title = N_("CPU unblocked, one column at a time"),
      .lesson = N_("Pivot search, swap, scale the multipliers, rank-1 update of the rest: n steps of O(n²) memory traffic each"),
      .seed = "004", .dtypes = F32 | F64, .backend = TL_BACKEND_CPU,
      .no_pivoting = TRUE, .records_steps = TRUE,
      .source_path = "src/lu/tl-lu-cpu-unblocked.c" },
    tl_lu_cpu_unblocked },
  { { .id = "lu-cpu-blocked", .title = N_("CPU blocked, right-looking"),
      .lesson = N_("Factor a panel of b columns, swap, solve for U12, then one GEMM updates the trailing matrix (seed 004 §3.1)"),
      .seed = "004", .dtypes = F32 | F64, .backend = TL_BACKEND_CPU,
      .blocked = TRUE, .default_block = TL_LU_DEFAULT_BLOCK, .no_pivoting = TRUE,
      .records_steps = TRUE, .phases = TRUE,
      .source_path = "src/lu/tl-lu-cpu-blocked.c" },
    tl_lu_cpu_blocked },
  { { .id = "lu-lapack", .title = N_("LAPACK getrf (OpenBLAS)"),
      .lesson = N_("The reference: recursive panel, tuned BLAS-3 update, threads"),
      .seed = "", .dtypes = F32 | F64, .backend = TL_BACKEND_CPU, .reference = TRUE,
      .source_path = "src/lu/tl-lu-lapack.c" },
    tl_lu_lapack },
};

static LuRow *rows;
static guint n_rows;

static gpointer
build_rows (gpointer data)
{
  guint n_cpu = G_N_ELEMENTS (cpu_rows);
  guint n_gpu = (guint) MAX (tl_gpu_lu_kernel_count (), 0);
  LuRow *table = g_new0 (LuRow, n_cpu + n_gpu);
  memcpy (table, cpu_rows, sizeof cpu_rows);
  for (guint i = 0; i < n_gpu; i++)
    {
      const TlGpuLuKernelInfo *g = tl_gpu_lu_kernel_info ((int) i);
      table[n_cpu + i] = (LuRow) {
        { .id = g->id, .number = g->number, .title = g->title, .lesson = g->lesson,
          .seed = g->seed ? g->seed : "", .dtypes = g->dtypes, .backend = TL_BACKEND_GPU,
          .reference = g->reference != 0, .blocked = g->default_block > 0,
          .default_block = (gsize) MAX (g->default_block, 0), .no_pivoting = g->no_pivoting != 0,
          .records_steps = g->records_steps != 0, .phases = g->phases != 0,
          .source_path = g->source_path, .fastest_from = (gsize) MAX (g->fastest_from, 0) },
        tl_lu_gpu,
      };
    }
  n_rows = n_cpu + n_gpu;
  rows = table;
  return table;
}

static void
ensure_rows (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, build_rows, NULL);
}

guint
tl_lu_kernel_count (void)
{
  ensure_rows ();
  return n_rows;
}

const TlLuKernelInfo *
tl_lu_kernel_get (guint index)
{
  ensure_rows ();
  g_return_val_if_fail (index < n_rows, NULL);
  return &rows[index].info;
}

static const LuRow *
find_row (const char *id)
{
  ensure_rows ();
  for (guint i = 0; id != NULL && i < n_rows; i++)
    if (strcmp (rows[i].info.id, id) == 0)
      return &rows[i];
  return NULL;
}

const char *
tl_lu_fastest_gpu_kernel (gsize m, gsize n)
{
  ensure_rows ();
  const gsize size = MAX (MAX (m, n), 1);
  const TlLuKernelInfo *best = NULL;
  for (guint i = 0; i < n_rows; i++)
    {
      const TlLuKernelInfo *k = &rows[i].info;
      if (k->backend == TL_BACKEND_GPU && k->fastest_from > 0 && k->fastest_from <= size
          && (best == NULL || k->fastest_from > best->fastest_from))
        best = k;
    }
  return best ? best->id : NULL;
}

const TlLuKernelInfo *
tl_lu_kernel_find (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  const LuRow *row = find_row (id);
  return row ? &row->info : NULL;
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

/* v, not finite, at (i, j): what elimination says of it (1-based, as a
 * user counts). */
static void
set_nonfinite_error (GError **error, double v, gsize i, gsize j)
{
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
               _("The matrix holds %s at row %zu, column %zu; elimination needs finite numbers"),
               isnan (v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf"), i + 1, j + 1);
}

gboolean
tl_lu_check_finite (const TlMatrix *a, GError **error)
{
  gsize i, j;
  if (tl_matrix_find_nonfinite (a, &i, &j))
    {
      set_nonfinite_error (error, tl_matrix_get (a, i, j), i, j);
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

/* The kernel's row, when it can take this request; else NULL with the
 * error a user can act on. */
static const LuRow *
check_request (const char *id, const TlLuOptions *options, const TlMatrix *a, gboolean recording,
               GError **error)
{
  const LuRow *row = find_row (id);
  if (row == NULL)
    {
      GString *known = g_string_new (NULL);
      for (guint i = 0; i < n_rows; i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", rows[i].info.id);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("Unknown LU kernel “%s” (known: %s)"),
                   id, known->str);
      g_string_free (known, TRUE);
      return NULL;
    }
  const TlLuKernelInfo *info = &row->info;
  if (!(info->dtypes & TL_DTYPE_BIT (a->dtype)))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s factors float32 and float64 matrices, not %s (use --mod P for exact integer elimination)"),
                   id, tl_dtype_name (a->dtype));
      return NULL;
    }
  if (options->pivoting == TL_PIVOTING_NONE && !info->no_pivoting)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("%s always pivots; use lu-cpu-unblocked, lu-cpu-blocked or lu-01-percolumn for --pivoting none"),
                   id);
      return NULL;
    }
  if (recording && !info->records_steps)
    {
      g_autoptr (GString) who = g_string_new (NULL);
      for (guint i = 0; i < n_rows; i++)
        if (rows[i].info.records_steps)
          g_string_append_printf (who, "%s%s", who->len ? ", " : "", rows[i].info.id);
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s cannot record its steps (a library call has no steps to stop at); record with %s"),
                   id, who->str);
      return NULL;
    }
  const char *gemm = options->gemm ? options->gemm : "openblas";
  if (strcmp (gemm, "openblas") != 0 && strcmp (gemm, "cpu-blocked") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("Unknown GEMM “%s” for the trailing update (openblas or cpu-blocked)"), gemm);
      return NULL;
    }
  if (a->rows > G_MAXINT32 || a->cols > G_MAXINT32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("Matrices above 2³¹ rows or columns are not supported"));
      return NULL;
    }
  return row;
}

/* The working copy of A, its max |a| and the check that every element is
 * finite, in one pass over row panels that looks for a cancel between
 * them: three separate passes over a large A take seconds, and Ctrl+C
 * would wait for whichever was running. */
#define COPY_PANEL_BYTES (8u << 20)

static TlMatrix *
copy_checked (const TlMatrix *a, GCancellable *cancellable, double *out_max_abs, GError **error)
{
  g_autoptr (TlMatrix) work = tl_matrix_new (a->dtype, a->rows, a->cols, error);
  if (work == NULL)
    return NULL;
  gsize row_bytes = MAX (a->cols * tl_dtype_size (a->dtype), 1);
  gsize panel = MAX (COPY_PANEL_BYTES / row_bytes, 1);
  double max_abs = 0.0;

  for (gsize i = 0; i < a->rows; i++)
    {
      if (i % panel == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      memcpy (tl_matrix_row (work, i), tl_matrix_row (a, i), a->cols * tl_dtype_size (a->dtype));
      for (gsize j = 0; j < a->cols; j++)
        {
          double v = tl_matrix_get (a, i, j);
          if (!isfinite (v))
            {
              set_nonfinite_error (error, v, i, j);
              return NULL;
            }
          max_abs = MAX (max_abs, fabs (v));
        }
    }
  *out_max_abs = max_abs;
  return g_steal_pointer (&work);
}

/* The rung options name; "gpu": the fastest GPU rung for a's shape
 * (NULL with the error set when none of this build factors it). */
static const char *
resolve_kernel_id (const TlLuOptions *options, const TlMatrix *a, GError **error)
{
  const char *id = options->kernel_id ? options->kernel_id : TL_LU_DEFAULT_KERNEL;
  if (strcmp (id, "gpu") == 0)
    id = tl_lu_fastest_gpu_kernel (a->rows, a->cols);
  if (id == NULL)
    g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                 _("No GPU LU rung of this build factors a %zu×%zu matrix"), a->rows, a->cols);
  return id;
}

/* The result before the factorisation: the rung, its block size, ipiv. */
static TlLuResult *
result_new (const char *id, const TlLuOptions *options, const TlLuKernelInfo *info,
            const TlMatrix *a, double max_abs_a)
{
  TlLuResult *r = g_new0 (TlLuResult, 1);
  r->kernel_id = g_strdup (id);
  r->pivoting = options->pivoting;
  r->block_size = info->blocked ? (options->block_size ? options->block_size : info->default_block)
                                : 0;
  r->n_ipiv = MIN (a->rows, a->cols);
  r->ipiv = g_new0 (gint32, MAX (r->n_ipiv, 1));
  r->max_abs_a = max_abs_a;
  return r;
}

/* What the rung's function gets: the copy of A to factor in place, r's
 * ipiv (the identity), the options and where to record. */
static void
work_init (TlLuWork *w, const TlLuOptions *options, const TlLuKernelInfo *info, TlLuResult *r,
           TlMatrix *work, const char *gemm, TlLuRecorder *recorder, GCancellable *cancellable)
{
  *w = (TlLuWork) { 0 };
  w->device_s = -1.0;
  w->a = work;
  w->ipiv = r->ipiv;
  w->pivoting = options->pivoting;
  /* a GPU rung applies its own default (and may choose its width) */
  w->block_size = info->backend == TL_BACKEND_GPU ? options->block_size : r->block_size;
  w->gemm = gemm;
  w->kernel_id = r->kernel_id;
  w->rec = recorder;
  w->gpu = options->gpu;
  w->gpu_ordinal = options->gpu_ordinal;
  w->warmups = options->warmups;
  w->repeats = MAX (options->repeats, 1);
  w->cancellable = cancellable;
  for (gsize k = 0; k < r->n_ipiv; k++)
    w->ipiv[k] = (gint32) k;
}

/* What the rung reported, into r (host_ns: the call's wall time). */
static void
result_take_work (TlLuResult *r, const TlLuWork *w, const TlLuKernelInfo *info,
                  const TlLuOptions *options, gint64 host_ns)
{
  /* GPU rungs time themselves on the device (w->device_s) */
  r->elapsed_s = w->device_s >= 0.0 ? w->device_s : (double) host_ns * 1e-9;
  if (info->blocked && w->block_size > 0)
    r->block_size = w->block_size;
  r->gpu_ordinal = options->gpu_ordinal;
  r->info = w->info;
  r->breakdown = w->breakdown;
  memcpy (r->phase_ns, w->phase_ns, sizeof r->phase_ns);
  r->phase_run_ns = w->phase_run_ns > 0 ? w->phase_run_ns : (gint64) (r->elapsed_s * 1e9);
  r->record_s = w->record_s;
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

  const char *id = resolve_kernel_id (options, a, error);
  if (id == NULL)
    return FALSE;
  /* Before the first step there is host work at large n (the copy, the
   * finiteness check, max|A|): copy_checked sees a cancel within it. */
  const LuRow *row = check_request (id, options, a, recorder != NULL, error);
  if (row == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  const TlLuKernelInfo *info = &row->info;
  const char *gemm = options->gemm ? options->gemm : "openblas";

  double max_abs_a = 0.0;
  g_autoptr (TlMatrix) work = copy_checked (a, cancellable, &max_abs_a, error);
  if (work == NULL)
    return FALSE;

  g_autoptr (TlLuResult) r = result_new (id, options, info, a, max_abs_a);
  g_debug ("lu %s: input checked and copied at %.3f ms (monotonic)", id,
           g_get_monotonic_time () / 1000.0);

  TlLuWork w;
  work_init (&w, options, info, r, work, gemm, recorder, cancellable);

  if (recorder)
    {
      tl_lu_recorder_begin (recorder, id, tl_dtype_name (a->dtype), 0, a->rows, a->cols,
                            r->block_size, options->pivoting, r->max_abs_a);
      if (!tl_lu_recorder_snapshot_matrix (recorder, 0, work, cancellable))
        {
          g_cancellable_set_error_if_cancelled (cancellable, error);
          return FALSE;
        }
    }

  gint64 t0 = tl_lu_now_ns ();
  if (!row->factor (&w, error))
    return FALSE;
  gint64 t1 = tl_lu_now_ns ();

  result_take_work (r, &w, info, options, t1 - t0);
  r->lu = g_steal_pointer (&work);
  tl_lu_result_finish (r);

  if (recorder)
    {
      recorder->block_size = (guint) r->block_size;
      tl_lu_recorder_snapshot_matrix (recorder, r->n_ipiv, r->lu, NULL);
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
