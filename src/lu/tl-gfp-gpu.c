/* tl-gfp-gpu.c — exact LU in GF(p) on a GPU, through the thread's GPU session. */
#include "lu/tl-gfp-gpu.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "lu/tl-lu-private.h"

TlGfpLu *
tl_gfp_lu_gpu (const TlGfpMatrix *a, int ordinal, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  if (a->rows > G_MAXINT32 || a->cols > G_MAXINT32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("Matrices above 2³¹ rows or columns are not supported"));
      return NULL;
    }
  g_autoptr (TlGpuSession) own = NULL;
  TlGpuDevice *device = tl_lu_gpu_device (NULL, ordinal, &own, error);
  if (device == NULL)
    return NULL;
  g_autoptr (TlGfpLu) r = g_new0 (TlGfpLu, 1);
  gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  r->lu = tl_gfp_matrix_copy (a);
  r->n_ipiv = mn;
  r->ipiv = g_new0 (gint32, MAX (mn, 1));
  int info = 0;
  TlGpuStatus status = tl_gpu_gfp_lu (device, (int) m, (int) n, a->p, r->lu->data, r->ipiv,
                                      &info, NULL);
  if (status != TL_GPU_OK)
    {
      tl_gpu_error_set (error, status, _("exact LU (GPU)"));
      return NULL;
    }
  r->info = (gsize) info;
  for (gsize k = 0; k < mn; k++)
    if ((gsize) r->ipiv[k] != k)
      r->n_swaps++;
  if (m == n)
    {
      guint32 d = 1 % a->p;
      for (gsize k = 0; k < n; k++)
        d = tl_gfp_mul (d, tl_gfp_get (r->lu, k, k), a->p);
      if (r->n_swaps % 2 && d != 0)
        d = a->p - d;
      r->det = d;
    }
  return g_steal_pointer (&r);
}
