/* tl-rank.c — rank and null space from the GPU's SVD, shown as Gauss–Jordan
 * shows them (tl-rank.h). */
#include "lu/tl-rank.h"
#include "core/tl-error.h"
#include "lu/tl-lu-private.h"

#include <glib/gi18n-lib.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <string.h>

void
tl_rank_result_free (TlRankResult *result)
{
  if (result == NULL)
    return;
  g_free (result->sigma);
  g_free (result->pivot_cols);
  g_clear_pointer (&result->null_basis, tl_matrix_unref);
  g_free (result);
}

/* The free columns of Gauss–Jordan elimination, from an orthonormal basis
 * of the null space (q rows of n, row t = vector t, overwritten).
 *
 * Column j is free (no pivot) exactly when some null vector has x_j ≠ 0
 * and x_k = 0 for every k > j: then column j is a combination of the
 * columns before it.  So eliminate from the right: at column j take the
 * remaining vector with the largest |x_j| (partial pivoting); if it is
 * above the noise, j is free and that vector is used up, its column-j
 * entry eliminated from the others.  q free columns are found in
 * O(q²·n).  tau: the noise level of the basis' entries (they are ≤ 1). */
static void
free_columns (double *v, gsize q, gsize n, double tau, gboolean *is_free)
{
  g_autofree gboolean *used = g_new0 (gboolean, MAX (q, 1));
  gsize found = 0;
  for (gsize j = n; j-- > 0 && found < q;)
    {
      gsize best = q;
      double bv = tau;
      for (gsize t = 0; t < q; t++)
        if (!used[t] && fabs (v[t * n + j]) > bv)
          {
            bv = fabs (v[t * n + j]);
            best = t;
          }
      if (best == q)
        continue; /* a pivot column */
      is_free[j] = TRUE;
      used[best] = TRUE;
      found++;
      const double *p = v + best * n;
      for (gsize t = 0; t < q; t++)
        {
          if (used[t])
            continue;
          double f = v[t * n + j] / p[j];
          if (f == 0.0)
            continue;
          for (gsize k = 0; k <= j; k++)
            v[t * n + k] -= f * p[k];
        }
    }
  /* in exact arithmetic found == q; a basis too noisy to tell takes the
   * rightmost columns not yet free, so the count stays the nullity */
  for (gsize j = n; j-- > 0 && found < q;)
    if (!is_free[j])
      {
        is_free[j] = TRUE;
        found++;
      }
}

/* basis = N·N[F,:]⁻¹ (n×q, free rows the identity) from the orthonormal
 * rows v (q×n); pivots receive the r = n − q pivot columns in order. */
static TlMatrix *
rref_basis (const double *v, gsize q, gsize n, const gboolean *is_free, gsize *pivots,
            GError **error)
{
  const gsize r = n - q;
  g_autofree gsize *free_cols = g_new (gsize, MAX (q, 1));
  for (gsize j = 0, fi = 0, pi = 0; j < n; j++)
    if (is_free[j])
      free_cols[fi++] = j;
    else
      pivots[pi++] = j;
  g_autoptr (TlMatrix) basis = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, q, error);
  if (basis == NULL)
    return NULL;
  for (gsize k = 0; k < q; k++)
    tl_matrix_set (basis, free_cols[k], k, 1.0);
  if (r == 0)
    return g_steal_pointer (&basis);
  /* Xᵀ = N[F,:]⁻ᵀ·N[P,:]ᵀ: the q×q system S·Y = R with S(t,k) = v_t[F_k]
   * and R(t,i) = v_t[P_i]; then basis(P_i, k) = Y(k, i) */
  g_autofree double *s = g_new (double, q * q);
  g_autofree double *y = g_new (double, q * r);
  g_autofree lapack_int *ipiv = g_new (lapack_int, q);
  for (gsize t = 0; t < q; t++)
    {
      for (gsize k = 0; k < q; k++)
        s[t * q + k] = v[t * n + free_cols[k]];
      for (gsize i = 0; i < r; i++)
        y[t * r + i] = v[t * n + pivots[i]];
    }
  lapack_int info = LAPACKE_dgesv (LAPACK_ROW_MAJOR, (lapack_int) q, (lapack_int) r, s,
                                   (lapack_int) q, ipiv, y, (lapack_int) r);
  if (info != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SINGULAR,
                   _("The null-space basis could not be put in echelon form (the free columns’ block is singular, LAPACK info %d)"),
                   (int) info);
      return NULL;
    }
  for (gsize i = 0; i < r; i++)
    for (gsize k = 0; k < q; k++)
      tl_matrix_set (basis, pivots[i], k, y[k * r + i]);
  return g_steal_pointer (&basis);
}

gboolean
tl_rank_present (TlRankResult *r, gsize rank, gsize n, gboolean with_basis,
                 const double *null_rows, double eps, GError **error)
{
  g_return_val_if_fail (r != NULL && rank <= n, FALSE);
  g_return_val_if_fail (!with_basis || rank == n || null_rows != NULL, FALSE);
  r->rank = rank;
  if (!with_basis)
    return TRUE;
  gint64 t0 = tl_lu_now_ns ();
  const gsize q = n - rank;
  g_autofree gboolean *is_free = g_new0 (gboolean, MAX (n, 1));
  g_autofree double *work = q ? g_memdup2 (null_rows, sizeof (double) * q * n) : NULL;
  /* the basis' entries are ≤ 1 and carry the SVD's rounding, about √n·ε
   * each; a hundred times that separates noise from a genuine entry
   * (≈ 1/√n for a generic null space) */
  if (q)
    free_columns (work, q, n, 100.0 * sqrt ((double) n) * eps, is_free);
  g_free (r->pivot_cols);
  r->pivot_cols = g_new0 (gsize, MAX (rank, 1));
  g_clear_pointer (&r->null_basis, tl_matrix_unref);
  r->null_basis = rref_basis (null_rows, q, n, is_free, r->pivot_cols, error);
  r->present_s = (double) (tl_lu_now_ns () - t0) * 1e-9;
  return r->null_basis != NULL;
}

TlRankResult *
tl_rank_gpu (const TlMatrix *a, TlGpuSession *session, int ordinal, gboolean with_basis,
             GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  if (a->dtype != TL_DTYPE_FLOAT32 && a->dtype != TL_DTYPE_FLOAT64)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("The GPU rank takes float32 or float64 matrices"));
      return NULL;
    }
  if (a->rows == 0 || a->cols == 0 || a->rows > G_MAXINT32 || a->cols > G_MAXINT32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("The GPU rank needs a matrix of 1 to 2³¹ − 1 rows and columns; this one is %zu×%zu"),
                   a->rows, a->cols);
      return NULL;
    }
  if (!tl_lu_check_finite (a, error))
    return NULL;
  g_autoptr (TlMatrix) c = tl_matrix_is_contiguous (a) ? tl_matrix_ref ((TlMatrix *) a)
                                                        : tl_matrix_copy (a, error);
  if (c == NULL)
    return NULL;
  g_autoptr (TlGpuSession) own = NULL;
  TlGpuDevice *device = tl_lu_gpu_device (session, ordinal, &own, error);
  if (device == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  const gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  const double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  g_autoptr (TlRankResult) r = g_new0 (TlRankResult, 1);
  r->sigma = g_new0 (double, mn);
  r->n_sigma = mn;
  r->gpu_ordinal = ordinal;
  TlGpuRankArgs args = { (TlGpuDtype) a->dtype, (int) m, (int) n, c->data,
                         (double) MAX (m, n) * eps, with_basis, r->sigma };
  TlGpuRankResult res;
  TlGpuStatus st = tl_gpu_rank (device, &args, &res);
  if (st != TL_GPU_OK)
    {
      tl_gpu_error_set (error, st, _("rank (GPU)"));
      return NULL;
    }
  r->cut = args.rel_cut * r->sigma[0];
  r->svd_ms = res.svd_ms;
  r->sweeps = res.sweeps;
  if (g_cancellable_set_error_if_cancelled (cancellable, error)
      || !tl_rank_present (r, (gsize) res.rank, n, with_basis, res.null_space, eps, error))
    {
      tl_gpu_rank_result_clear (&res);
      return NULL;
    }
  tl_gpu_rank_result_clear (&res);
  return g_steal_pointer (&r);
}

TlMatrix *
tl_rank_rref (const TlRankResult *result, gsize rows, gsize cols, GError **error)
{
  g_return_val_if_fail (result != NULL && result->null_basis != NULL, NULL);
  g_autoptr (TlMatrix) rref = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, rows, cols, error);
  if (rref == NULL)
    return NULL;
  g_autofree gboolean *is_pivot = g_new0 (gboolean, MAX (cols, 1));
  for (gsize i = 0; i < result->rank; i++)
    is_pivot[result->pivot_cols[i]] = TRUE;
  const TlMatrix *nb = result->null_basis;
  for (gsize i = 0; i < result->rank && i < rows; i++)
    {
      tl_matrix_set (rref, i, result->pivot_cols[i], 1.0);
      /* the k-th free column f: R(i, f) = −N(p_i, k) */
      for (gsize f = 0, k = 0; f < cols; f++)
        if (!is_pivot[f])
          tl_matrix_set (rref, i, f, -tl_matrix_get (nb, result->pivot_cols[i], k++));
    }
  return g_steal_pointer (&rref);
}
