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

      /* 1. pivot search */
      gsize p = k;
      if (w->pivoting == TL_PIVOTING_PARTIAL)
        {
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
        }
      w->ipiv[k] = (gint32) p;
      TL_LU_T pivot = a[p * lda + k];

      if (pivot != 0)
        {
          /* 2. swap rows k and p (within the columns this call owns) */
          if (p != k)
            for (gsize j = swap_c0; j < swap_c1; j++)
              {
                TL_LU_T t = a[k * lda + j];
                a[k * lda + j] = a[p * lda + j];
                a[p * lda + j] = t;
              }
          /* 3. the multipliers */
          for (gsize i = k + 1; i < m; i++)
            a[i * lda + k] /= pivot;
        }
      else
        {
          if (w->info == 0)
            w->info = k + 1;
          if (w->pivoting == TL_PIVOTING_NONE)
            for (gsize i = k + 1; i < m; i++)
              if (a[i * lda + k] != 0)
                {
                  /* Without a row swap this column cannot be eliminated:
                   * the lesson of --pivoting none.  Stop here. */
                  w->breakdown = TRUE;
                  if (w->rec)
                    tl_lu_recorder_step_pivot (w->rec, k, k, 0.0, TRUE);
                  return TRUE;
                }
        }
      if (w->rec)
        tl_lu_recorder_step_pivot (w->rec, k, p, a[k * lda + k], pivot == 0);

      /* 4. rank-1 update of the trailing part (all zero multipliers when
       * the column was zero: nothing to do) */
      if (pivot != 0)
        for (gsize i = k + 1; i < m; i++)
          {
            const TL_LU_T l = a[i * lda + k];
            if (l == 0)
              continue;
            TL_LU_T *restrict row = a + i * lda;
            const TL_LU_T *restrict urow = a + k * lda;
            for (gsize j = k + 1; j < upd_c1; j++)
              row[j] -= l * urow[j];
          }

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
