/* tl-gemm-check.c — the reference product and the one rule that judges a
 * GEMM against it (the derivation is in tl-gemm-check.h). */
#include "gemm/tl-gemm-check.h"

#include <cblas.h>
#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* ---- the reference ------------------------------------------------------ */

/* int32: C = A·B modulo 2³², as the int32 kernels compute it (unsigned
 * arithmetic wraps by definition), stored in float64 (exact: |v| < 2³¹). */
typedef struct
{
  const TlMatrix *a, *b;
  TlMatrix *c;
  gsize row0, row1;
  GCancellable *cancellable; /* polled once a row */
} IntRows;

static gpointer
int_reference_rows (gpointer data)
{
  IntRows *t = data;
  gsize k = t->a->cols, n = t->b->cols;
  g_autofree guint32 *acc = g_new (guint32, MAX (n, 1));
  for (gsize i = t->row0; i < t->row1 && !g_cancellable_is_cancelled (t->cancellable); i++)
    {
      memset (acc, 0, n * sizeof (guint32));
      const gint32 *arow = tl_matrix_row (t->a, i);
      for (gsize p = 0; p < k; p++)
        {
          guint32 aip = (guint32) arow[p];
          const gint32 *brow = tl_matrix_row (t->b, p);
          for (gsize j = 0; j < n; j++)
            acc[j] += aip * (guint32) brow[j];
        }
      double *crow = tl_matrix_row (t->c, i);
      for (gsize j = 0; j < n; j++)
        crow[j] = (double) (gint32) acc[j];
    }
  return NULL;
}

static gboolean
int_reference (const TlMatrix *a, const TlMatrix *b, TlMatrix *c, GCancellable *cancellable,
               GError **error)
{
  gsize m = a->rows;
  guint n_threads = MAX (1, MIN ((gsize) g_get_num_processors (), m));
  g_autofree IntRows *tasks = g_new0 (IntRows, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);
  for (guint t = 0; t < n_threads; t++)
    {
      tasks[t] = (IntRows) { a, b, c, m * t / n_threads, m * (t + 1) / n_threads, cancellable };
      threads[t] = t == 0 ? NULL : g_thread_new ("tl-int-ref", int_reference_rows, &tasks[t]);
    }
  int_reference_rows (&tasks[0]);
  for (guint t = 1; t < n_threads; t++)
    g_thread_join (threads[t]);
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* x as a contiguous float64 matrix, element-wise absolute when `absolute`. */
static TlMatrix *
as_float64 (const TlMatrix *x, gboolean absolute, GError **error)
{
  TlMatrix *y = tl_matrix_convert (x, TL_DTYPE_FLOAT64, error);
  if (y == NULL || !absolute)
    return y;
  for (gsize i = 0; i < y->rows; i++)
    {
      double *row = tl_matrix_row (y, i);
      for (gsize j = 0; j < y->cols; j++)
        row[j] = fabs (row[j]);
    }
  return y;
}

/* Rows of C per dgemm call by default: about TL_GEMM_REFERENCE_PANEL_FLOPS
 * each, so a cancel between panels is honoured within one panel — tens of
 * ms on a server, rather than the whole product (8192³ twice: 14 s). */
gsize
tl_gemm_reference_panel_rows (gsize m, gsize k, gsize n)
{
  double per_row = 2.0 * (double) MAX (k, 1) * (double) MAX (n, 1);
  double rows = TL_GEMM_REFERENCE_PANEL_FLOPS / per_row;
  return (gsize) MIN (MAX (rows, 64.0), (double) MAX (m, 1));
}

static gboolean
float_product (const TlMatrix *a, const TlMatrix *b, gboolean absolute, TlMatrix *c,
               gsize panel, GCancellable *cancellable, GError **error)
{
  if (c->rows == 0 || c->cols == 0 || a->cols == 0)
    return TRUE; /* c stays zero: an empty sum */
  g_autoptr (TlMatrix) a64 = as_float64 (a, absolute, error);
  if (a64 == NULL)
    return FALSE;
  g_autoptr (TlMatrix) b64 = as_float64 (b, absolute, error);
  if (b64 == NULL)
    return FALSE;
  for (gsize r0 = 0; r0 < c->rows; r0 += panel)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      gsize rows = MIN (panel, c->rows - r0);
      cblas_dgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, (int) rows, (int) c->cols,
                   (int) a->cols, 1.0, tl_matrix_row (a64, r0), (int) a64->stride, b64->data,
                   (int) b64->stride, 0.0, tl_matrix_row (c, r0), (int) c->stride);
    }
  return TRUE;
}

TlGemmReference *
tl_gemm_reference_new (const TlMatrix *a, const TlMatrix *b, GError **error)
{
  return tl_gemm_reference_new_cancellable (a, b, 0, NULL, error);
}

TlGemmReference *
tl_gemm_reference_new_cancellable (const TlMatrix *a, const TlMatrix *b, gsize panel_rows,
                                   GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (a != NULL && b != NULL && a->cols == b->rows, NULL);
  g_return_val_if_fail (a->dtype == b->dtype, NULL);
  g_autoptr (TlGemmReference) ref = g_new0 (TlGemmReference, 1);
  ref->k = a->cols;
  ref->c = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, a->rows, b->cols, error);
  if (ref->c == NULL)
    return NULL;
  if (a->dtype == TL_DTYPE_INT32)
    {
      if (!int_reference (a, b, ref->c, cancellable, error))
        return NULL;
    }
  else
    {
      ref->abs_c = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, a->rows, b->cols, error);
      gsize panel = panel_rows ? panel_rows : tl_gemm_reference_panel_rows (a->rows, a->cols, b->cols);
      if (ref->abs_c == NULL || !float_product (a, b, FALSE, ref->c, panel, cancellable, error)
          || !float_product (a, b, TRUE, ref->abs_c, panel, cancellable, error))
        return NULL;
    }
  ref->norm_a = tl_matrix_norm (a, TL_NORM_FROBENIUS);
  ref->norm_b = tl_matrix_norm (b, TL_NORM_FROBENIUS);
  ref->norm_c = tl_matrix_norm (ref->c, TL_NORM_FROBENIUS);
  return g_steal_pointer (&ref);
}

void
tl_gemm_reference_free (TlGemmReference *ref)
{
  if (ref == NULL)
    return;
  g_clear_pointer (&ref->c, tl_matrix_unref);
  g_clear_pointer (&ref->abs_c, tl_matrix_unref);
  g_free (ref);
}

/* ---- the rule ----------------------------------------------------------- */

typedef struct
{
  const char *name;
  double eps_in, eps_acc; /* eps_acc 0: exact */
} Precision;

static const Precision precisions[] = {
  { "exact", 0.0, 0.0 },
  { "fp64", 0.0, DBL_EPSILON },
  { "fp32", 0.0, FLT_EPSILON },
  { "tf32", 0x1p-10, FLT_EPSILON },
  { "bf16", 0x1p-7, FLT_EPSILON },
};

static const Precision *
precision_find (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (precisions); i++)
    if (g_strcmp0 (precisions[i].name, name) == 0)
      return &precisions[i];
  return &precisions[2]; /* fp32 */
}

/* γ_k(ε) = kε / (1 − kε); +Inf when kε ≥ 1 (the bound says nothing). */
static double
gamma_k (gsize k, double eps)
{
  double ke = (double) k * eps;
  return ke < 1.0 ? ke / (1.0 - ke) : INFINITY;
}

double
tl_gemm_check_tolerance (const char *precision, gsize k)
{
  const Precision *p = precision_find (precision);
  if (p->eps_acc == 0.0)
    return 0.0;
  return 2.0 * p->eps_in + p->eps_in * p->eps_in + gamma_k (k, p->eps_acc)
         + gamma_k (k, DBL_EPSILON);
}

static void
keep_mismatch (TlGemmCheck *out, gsize i, gsize j, double got, double expected, double bound)
{
  if (out->n_mismatches < TL_GEMM_CHECK_KEEP)
    out->mismatches[out->n_mismatches++] = (TlGemmMismatch) { i, j, got, expected, bound };
}

gboolean
tl_gemm_check (const TlGemmReference *ref, const TlMatrix *c, const char *precision,
               TlGemmCheck *out)
{
  g_return_val_if_fail (ref != NULL && c != NULL && out != NULL, FALSE);
  g_return_val_if_fail (c->rows == ref->c->rows && c->cols == ref->c->cols, FALSE);
  memset (out, 0, sizeof *out);
  const gboolean exact = ref->abs_c == NULL || g_strcmp0 (precision, "exact") == 0;
  out->tolerance = exact ? 0.0 : tl_gemm_check_tolerance (precision, ref->k);
  double sum_sq = 0.0;
  for (gsize i = 0; i < c->rows; i++)
    for (gsize j = 0; j < c->cols; j++)
      {
        const double got = tl_matrix_get (c, i, j), want = tl_matrix_get (ref->c, i, j);
        const double err = fabs (got - want);
        const double scale = exact ? 0.0 : tl_matrix_get (ref->abs_c, i, j);
        const double bound = out->tolerance * scale;
        if (isfinite (err))
          {
            sum_sq += err * err;
            out->max_abs = fmax (out->max_abs, err);
            out->max_rel = fmax (out->max_rel, err / fmax (fabs (want), DBL_MIN));
          }
        else
          sum_sq = out->max_abs = out->max_rel = INFINITY;
        /* NaN fails: the comparison is false */
        if (!(err <= bound))
          {
            out->n_wrong++;
            keep_mismatch (out, i, j, got, want, bound);
          }
        double ratio = scale > 0.0 ? err / scale : (err == 0.0 ? 0.0 : INFINITY);
        out->worst = isnan (ratio) ? INFINITY : fmax (out->worst, ratio);
      }
  const double err_norm = sqrt (sum_sq);
  out->rel_norm = ref->norm_c > 0.0 ? err_norm / ref->norm_c : (err_norm == 0.0 ? 0.0 : INFINITY);
  const double scale = ref->norm_a * ref->norm_b;
  out->normwise = scale > 0.0 ? err_norm / scale : (err_norm == 0.0 ? 0.0 : INFINITY);
  out->passed = out->n_wrong == 0;
  return out->passed;
}

char *
tl_gemm_check_describe (const TlGemmCheck *check)
{
  if (check->passed)
    return NULL;
  const TlGemmMismatch *first = &check->mismatches[0];
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%zu element over its bound; first at (%zu, %zu): got %.9g, "
                                       "want %.9g (within %.3g)",
                                       "%zu elements over their bounds; first at (%zu, %zu): got "
                                       "%.9g, want %.9g (within %.3g)",
                                       check->n_wrong),
                          check->n_wrong, first->row, first->col, first->got, first->expected,
                          first->bound);
}
