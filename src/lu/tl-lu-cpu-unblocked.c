/* tl-lu-cpu-unblocked.c — Gauss elimination one column at a time.
 *
 * Step k of n (A is m×n, row-major):
 *   1. search column k below the diagonal for the largest |a(i,k)|
 *      (partial pivoting; none: take a(k,k) as it is),
 *   2. swap that row with row k,
 *   3. scale the column below the pivot: l(i,k) = a(i,k) / a(k,k) — the
 *      multipliers, stored where the zeros would appear (seed 004 §3),
 *   4. rank-1 update of the trailing matrix: a(i,j) −= l(i,k) · a(k,j).
 * Step 4 reads and writes the whole trailing matrix for 2 flops per
 * element, so this kernel is bound by memory bandwidth — the reason the
 * blocked kernel exists.  The same loop is the blocked kernel's panel.
 *
 * A zero column (nothing nonzero at or below the diagonal) is skipped as
 * LAPACK's getf2 does: info records the first one, elimination continues.
 *
 * The file includes itself twice to instantiate float and double.
 */
#ifndef TL_LU_T

#include "lu/tl-lu-private.h"
#include "core/tl-error.h"

#include <math.h>

#define TL_LU_CAT2(a, b) a##_##b
#define TL_LU_CAT(a, b) TL_LU_CAT2 (a, b)
#define TL_LU_FN(name) TL_LU_CAT (name, TL_LU_S)

#define TL_LU_T float
#define TL_LU_S f32
#include "lu/tl-lu-cpu-unblocked.c"
#undef TL_LU_T
#undef TL_LU_S

#define TL_LU_T double
#define TL_LU_S f64
#include "lu/tl-lu-cpu-unblocked.c"
#undef TL_LU_T
#undef TL_LU_S

gboolean
tl_lu_panel (TlLuWork *w, gsize r0, gsize c0, gsize ncols, gsize swap_c0, gsize swap_c1,
             gsize upd_c1, guint block, GError **error)
{
  if (w->a->dtype == TL_DTYPE_FLOAT32)
    return panel_f32 (w, r0, c0, ncols, swap_c0, swap_c1, upd_c1, block, error);
  return panel_f64 (w, r0, c0, ncols, swap_c0, swap_c1, upd_c1, block, error);
}

gboolean
tl_lu_cpu_unblocked (TlLuWork *w, GError **error)
{
  gsize mn = MIN (w->a->rows, w->a->cols);
  return tl_lu_panel (w, 0, 0, mn, 0, w->a->cols, w->a->cols, 0, error);
}

#else /* the templated body: TL_LU_T is the element type */

/* 1. The pivot row of column k: the largest |a(i,k)| at or below the
 * diagonal (the first of equals), or k itself without pivoting. */
static gsize
TL_LU_FN (pivot_row) (const TL_LU_T *a, gsize lda, gsize m, gsize k, TlPivoting pivoting)
{
  gsize p = k;
  if (pivoting != TL_PIVOTING_PARTIAL)
    return p;
  TL_LU_T best = fabs (a[k * lda + k]);
  for (gsize i = k + 1; i < m; i++)
    {
      TL_LU_T v = fabs (a[i * lda + k]);
      if (v > best)
        {
          best = v;
          p = i;
        }
    }
  return p;
}

/* 2. and 3.: rows k and p swapped within columns [c0, c1), then the
 * multipliers below the pivot. */
static void
TL_LU_FN (swap_and_scale) (TL_LU_T *a, gsize lda, gsize m, gsize k, gsize p, gsize c0, gsize c1)
{
  const TL_LU_T pivot = a[p * lda + k];
  if (p != k)
    for (gsize j = c0; j < c1; j++)
      {
        TL_LU_T t = a[k * lda + j];
        a[k * lda + j] = a[p * lda + j];
        a[p * lda + j] = t;
      }
  for (gsize i = k + 1; i < m; i++)
    a[i * lda + k] /= pivot;
}

/* 4. The rank-1 update of the trailing part up to column c1:
 * a(i,j) −= l(i,k) · a(k,j), skipping zero multipliers. */
static void
TL_LU_FN (rank1_update) (TL_LU_T *a, gsize lda, gsize m, gsize k, gsize c1)
{
  for (gsize i = k + 1; i < m; i++)
    {
      const TL_LU_T l = a[i * lda + k];
      if (l == 0)
        continue;
      TL_LU_T *restrict row = a + i * lda;
      const TL_LU_T *restrict urow = a + k * lda;
      for (gsize j = k + 1; j < c1; j++)
        row[j] -= l * urow[j];
    }
}

/* Anything nonzero below the diagonal in column k: without a row swap
 * such a column cannot be eliminated. */
static gboolean
TL_LU_FN (nonzero_below) (const TL_LU_T *a, gsize lda, gsize m, gsize k)
{
  for (gsize i = k + 1; i < m; i++)
    if (a[i * lda + k] != 0)
      return TRUE;
  return FALSE;
}

static gboolean
TL_LU_FN (panel) (TlLuWork *w, gsize r0, gsize c0, gsize ncols, gsize swap_c0, gsize swap_c1,
                  gsize upd_c1, guint block, GError **error)
{
  TlMatrix *A = w->a;
  const gsize m = A->rows, lda = A->stride;
  TL_LU_T *a = A->data;
  /* The unblocked kernel updates all columns, so its U rows are final at
   * once; inside a blocked panel they are final after the TRSM. */
  const gboolean u_final = upd_c1 == A->cols;

  g_assert (r0 == c0);
  for (gsize k = c0; k < c0 + ncols; k++)
    {
      if ((k & 15) == 0 && g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
      if (w->rec)
        tl_lu_recorder_step_search (w->rec, k, block, tl_lu_recorder_get_matrix, A);

      gsize p = TL_LU_FN (pivot_row) (a, lda, m, k, w->pivoting);
      w->ipiv[k] = (gint32) p;
      TL_LU_T pivot = a[p * lda + k];
      if (pivot != 0)
        TL_LU_FN (swap_and_scale) (a, lda, m, k, p, swap_c0, swap_c1);
      else
        {
          if (w->info == 0)
            w->info = k + 1;
          if (w->pivoting == TL_PIVOTING_NONE && TL_LU_FN (nonzero_below) (a, lda, m, k))
            {
              /* the lesson of --pivoting none: stop here */
              w->breakdown = TRUE;
              if (w->rec)
                tl_lu_recorder_step_pivot (w->rec, k, k, 0.0, TRUE);
              return TRUE;
            }
        }
      if (w->rec)
        tl_lu_recorder_step_pivot (w->rec, k, p, a[k * lda + k], pivot == 0);

      /* (all zero multipliers when the column was zero: nothing to do) */
      if (pivot != 0)
        TL_LU_FN (rank1_update) (a, lda, m, k, upd_c1);

      if (w->rec)
        {
          tl_lu_recorder_step_eliminated (w->rec, k, tl_lu_recorder_get_matrix, A,
                                          k + 1, m - MIN (m, k + 1), k + 1,
                                          upd_c1 - MIN (upd_c1, k + 1));
          if (u_final)
            {
              tl_lu_recorder_step_u_row (w->rec, k, tl_lu_recorder_get_matrix, A);
              tl_lu_recorder_snapshot_matrix (w->rec, k + 1, A, NULL);
            }
        }
    }
  return TRUE;
}

#endif
