/* tl-lu-lapack.c — the CPU reference: LAPACK's getrf through LAPACKE.
 *
 * LAPACKE takes row-major storage directly (it transposes internally);
 * its ipiv is 1-based and becomes ours by subtracting one.  LAPACK's info
 * (> 0: U(info,info) is exactly zero) is ours unchanged.
 */
#include "lu/tl-lu-private.h"
#include "core/tl-error.h"

#include <glib/gi18n-lib.h>
#include <lapacke.h>

gboolean
tl_lu_lapack (TlLuWork *w, GError **error)
{
  TlMatrix *A = w->a;
  gsize mn = MIN (A->rows, A->cols);
  if (mn == 0)
    return TRUE;
  g_autofree lapack_int *ipiv = g_new0 (lapack_int, mn);
  lapack_int info;
  if (A->dtype == TL_DTYPE_FLOAT32)
    info = LAPACKE_sgetrf (LAPACK_ROW_MAJOR, (lapack_int) A->rows, (lapack_int) A->cols,
                           A->data, (lapack_int) A->stride, ipiv);
  else
    info = LAPACKE_dgetrf (LAPACK_ROW_MAJOR, (lapack_int) A->rows, (lapack_int) A->cols,
                           A->data, (lapack_int) A->stride, ipiv);
  if (info < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("LAPACK getrf rejected argument %d"), (int) -info);
      return FALSE;
    }
  w->info = (gsize) info;
  for (gsize k = 0; k < mn; k++)
    w->ipiv[k] = (gint32) (ipiv[k] - 1);
  return TRUE;
}

double
tl_lu_rcond (const TlLuResult *result, double anorm_one)
{
  g_return_val_if_fail (result != NULL && result->lu != NULL, 0.0);
  const TlMatrix *lu = result->lu;
  g_return_val_if_fail (lu->rows == lu->cols, 0.0);
  if (result->info != 0 || lu->rows == 0 || !(anorm_one > 0))
    return 0.0;
  lapack_int n = (lapack_int) lu->rows, ld = (lapack_int) lu->stride, info;
  if (lu->dtype == TL_DTYPE_FLOAT32)
    {
      float rc = 0;
      info = LAPACKE_sgecon (LAPACK_ROW_MAJOR, '1', n, lu->data, ld, (float) anorm_one, &rc);
      return info == 0 ? rc : 0.0;
    }
  double rc = 0;
  info = LAPACKE_dgecon (LAPACK_ROW_MAJOR, '1', n, lu->data, ld, anorm_one, &rc);
  return info == 0 ? rc : 0.0;
}
