/* tl-lu-gpu.c — the Gauss ladder's GPU rungs through the GPU door. */
#include "tl-lu-private.h"
#include "tl-error.h"
#include "tl-gfp.h"
#include "tl-gpu.h"

#include <glib/gi18n-lib.h>

static int
cancelled_cb (void *user_data)
{
  return g_cancellable_is_cancelled (user_data);
}

static void
set_gpu_error (GError **error, TlGpuStatus status, const char *kernel_id)
{
  TlErrorCode code;
  switch (status)
    {
    case TL_GPU_NO_DEVICE:
      code = TL_ERROR_NO_DEVICE;
      break;
    case TL_GPU_OUT_OF_MEMORY:
      code = TL_ERROR_OUT_OF_MEMORY;
      break;
    case TL_GPU_BAD_SHAPE:
      code = TL_ERROR_SHAPE;
      break;
    case TL_GPU_DEVICE_LOST:
      code = TL_ERROR_DEVICE_LOST;
      break;
    case TL_GPU_CANCELLED:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return;
    default:
      code = TL_ERROR_LAUNCH_FAILED;
      break;
    }
  g_set_error (error, TL_ERROR, code, _("%s: %s (%s)"), kernel_id, tl_gpu_status_name (status),
               tl_gpu_last_message ());
}

gboolean
tl_lu_gpu (TlLuWork *w, int ordinal, double *out_elapsed_s, GError **error)
{
  TlMatrix *A = w->a;
  if (!tl_matrix_is_contiguous (A))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("GPU rungs need a contiguous matrix"));
      return FALSE;
    }
  TlGpuDevice *device = NULL;
  TlGpuStatus status = tl_gpu_device_open (ordinal, &device);
  if (status != TL_GPU_OK)
    {
      set_gpu_error (error, status, w->kernel_id);
      return FALSE;
    }
  TlGpuLuArgs args = { 0 };
  args.dtype = (TlGpuDtype) A->dtype;
  args.m = (int) A->rows;
  args.n = (int) A->cols;
  args.a = A->data;
  args.ipiv = w->ipiv;
  args.block_size = (int) w->block_size;
  args.pivoting = w->pivoting == TL_PIVOTING_PARTIAL;
  args.warmups = 0;
  args.repeats = 1;
  args.cancelled = cancelled_cb;
  args.user_data = w->cancellable;
  TlGpuLuResult res = { 0 };
  status = tl_gpu_lu_run (device, w->kernel_id, &args, &res);
  tl_gpu_device_close (device);
  if (status != TL_GPU_OK)
    {
      tl_gpu_lu_result_clear (&res);
      set_gpu_error (error, status, w->kernel_id);
      return FALSE;
    }
  w->info = (gsize) res.info;
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    w->phase_ns[ph] = (gint64) (res.phase_ms[ph] * 1e6);
  *out_elapsed_s = res.n_times > 0 ? res.times_ms[res.n_times - 1] * 1e-3 : 0.0;
  tl_gpu_lu_result_clear (&res);
  return TRUE;
}

gboolean
tl_lu_solve_gpu (const TlLuResult *lu, TlMatrix *x, GError **error)
{
  TlGpuDevice *device = NULL;
  TlGpuStatus status = tl_gpu_device_open (lu->gpu_ordinal, &device);
  if (status != TL_GPU_OK)
    {
      set_gpu_error (error, status, lu->kernel_id);
      return FALSE;
    }
  TlGpuLuSolveArgs args = { 0 };
  args.dtype = (TlGpuDtype) x->dtype;
  args.n = (int) lu->lu->rows;
  args.nrhs = (int) x->cols;
  args.lu = lu->lu->data;
  args.ipiv = lu->ipiv;
  args.b = x->data;
  status = tl_gpu_lu_solve (device, &args, NULL);
  tl_gpu_device_close (device);
  if (status != TL_GPU_OK)
    {
      set_gpu_error (error, status, lu->kernel_id);
      return FALSE;
    }
  return TRUE;
}

TlGfpLu *
tl_gfp_lu_gpu (const TlGfpMatrix *a, int ordinal, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  if (a->rows > G_MAXINT32 || a->cols > G_MAXINT32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("Matrices above 2³¹ rows or columns are not supported"));
      return NULL;
    }
  TlGpuDevice *device = NULL;
  TlGpuStatus status = tl_gpu_device_open (ordinal, &device);
  if (status != TL_GPU_OK)
    {
      set_gpu_error (error, status, "exact LU (GPU)");
      return NULL;
    }
  g_autoptr (TlGfpLu) r = g_new0 (TlGfpLu, 1);
  gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  r->lu = tl_gfp_matrix_copy (a);
  r->n_ipiv = mn;
  r->ipiv = g_new0 (gint32, MAX (mn, 1));
  int info = 0;
  status = tl_gpu_gfp_lu (device, (int) m, (int) n, a->p, r->lu->data, r->ipiv, &info, NULL);
  tl_gpu_device_close (device);
  if (status != TL_GPU_OK)
    {
      set_gpu_error (error, status, "exact LU (GPU)");
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
