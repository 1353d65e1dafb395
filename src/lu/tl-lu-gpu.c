/* tl-lu-gpu.c — the Gauss ladder's GPU rungs through the GPU door. */
#include "lu/tl-lu-gpu.h"
#include "lu/tl-lu-private.h"
#include "core/tl-error.h"
#include "device/tl-gpu-session.h"

#include <glib/gi18n-lib.h>

static int
cancelled_cb (void *user_data)
{
  return g_cancellable_is_cancelled (user_data);
}

TlGpuDevice *
tl_lu_gpu_device (TlGpuSession *given, int ordinal, TlGpuSession **own, GError **error)
{
  TlGpuSession *session = given ? given : tl_gpu_session_get_thread_default ();
  if (session == NULL)
    session = *own = tl_gpu_session_new ();
  return tl_gpu_session_get_device (session, ordinal, error);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* ---- recording: the GPU door's observer feeds the TlLuRecorder -------- */

typedef struct
{
  TlLuRecorder *rec;
  TlDtype dtype;
  const TlGpuLuWindow *win; /* the window of the current callback */
} GpuRec;

/* A TlLuGetFn over a downloaded window (global indices). */
static double
window_get (gconstpointer data, gsize i, gsize j)
{
  const GpuRec *g = data;
  const TlGpuLuWindow *w = g->win;
  g_assert (i >= (gsize) w->row0 && i < (gsize) (w->row0 + w->rows));
  g_assert (j >= (gsize) w->col0 && j < (gsize) (w->col0 + w->cols));
  gsize at = (i - (gsize) w->row0) * (gsize) w->ld + (j - (gsize) w->col0);
  return g->dtype == TL_DTYPE_FLOAT32 ? ((const float *) w->data)[at] : ((const double *) w->data)[at];
}

static void
rec_step_search (void *user_data, int k, int block, const TlGpuLuWindow *col)
{
  GpuRec *g = user_data;
  g->win = col;
  tl_lu_recorder_step_search (g->rec, (guint) k, (guint) block, window_get, g);
}

static void
rec_step_pivot (void *user_data, int k, int pivot_row, double pivot_value)
{
  GpuRec *g = user_data;
  tl_lu_recorder_step_pivot (g->rec, (guint) k, pivot_row, pivot_value, pivot_value == 0.0);
}

static void
rec_step_eliminated (void *user_data, int k, const TlGpuLuWindow *mult, int upd_row0, int upd_rows,
                     int upd_col0, int upd_cols)
{
  GpuRec *g = user_data;
  g->win = mult;
  tl_lu_recorder_step_eliminated (g->rec, (guint) k, window_get, g, (guint) upd_row0,
                                  (guint) upd_rows, (guint) upd_col0, (guint) upd_cols);
}

static void
rec_u_rows (void *user_data, int k0, int kb, const TlGpuLuWindow *rows)
{
  GpuRec *g = user_data;
  g->win = rows;
  for (int k = k0; k < k0 + kb; k++)
    tl_lu_recorder_step_u_row (g->rec, (guint) k, window_get, g);
}

static void
rec_block (void *user_data, int index, int k0, int kb, const double phase_ms[4], int upd_row0,
           int upd_rows, int upd_col0, int upd_cols)
{
  GpuRec *g = user_data;
  gint64 ns[TL_LU_N_PHASES];
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    ns[ph] = (gint64) (phase_ms[ph] * 1e6);
  tl_lu_recorder_block (g->rec, (guint) index, (guint) k0, (guint) kb, ns, (guint) upd_row0,
                        (guint) upd_rows, (guint) upd_col0, (guint) upd_cols);
}

static int
rec_snapshot_due (void *user_data, int steps_done)
{
  GpuRec *g = user_data;
  /* the final L\U is snapshot by tl_lu_factor from the result itself */
  if ((guint) steps_done >= MIN (g->rec->rows, g->rec->cols))
    return 0;
  return tl_lu_recorder_snapshot_due (g->rec, (guint) steps_done);
}

static void
rec_snapshot (void *user_data, int steps_done, const TlGpuLuWindow *whole)
{
  GpuRec *g = user_data;
  g->win = whole;
  tl_lu_recorder_snapshot (g->rec, (guint) steps_done, window_get, g);
}

/* Above TL_LU_RECORD_WHOLE_MAX the device pools (tl-gpu.h): 512 KB come
 * back per snapshot instead of the whole matrix. */
static void
rec_snapshot_pooled (void *user_data, int steps_done, int pool_r, int pool_c, int rows, int cols,
                     const double *cells)
{
  GpuRec *g = user_data;
  gboolean kept = tl_lu_recorder_snapshot_cells (g->rec, (guint) steps_done, (guint) pool_r,
                                                 (guint) pool_c, (guint) rows, (guint) cols, cells);
  g_assert (kept); /* the pooling was the recorder's own */
  g_debug ("lu: pooled snapshot after %d steps at %.3f ms (monotonic)", steps_done,
           g_get_monotonic_time () / 1000.0);
}

gboolean
tl_lu_gpu (TlLuWork *w, GError **error)
{
  TlMatrix *A = w->a;
  if (!tl_matrix_is_contiguous (A))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("GPU rungs need a contiguous matrix"));
      return FALSE;
    }
  /* The log says where a run spends the seconds before its first block
   * step (opening CUDA and the library handles, the upload), so a cancel's
   * latency can be placed (G_MESSAGES_DEBUG=Tilelab). */
  g_debug ("lu %s: opening GPU %d at %.3f ms (monotonic)", w->kernel_id, w->gpu_ordinal,
           g_get_monotonic_time () / 1000.0);
  g_autoptr (TlGpuSession) own = NULL;
  TlGpuDevice *device = tl_lu_gpu_device (w->gpu, w->gpu_ordinal, &own, error);
  if (device == NULL)
    return FALSE;
  g_debug ("lu %s: GPU %d open at %.3f ms (monotonic)", w->kernel_id, w->gpu_ordinal,
           g_get_monotonic_time () / 1000.0);
  /* opening the device can take seconds the first time: a cancel that came
   * meanwhile stops here, before anything is allocated */
  if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
    return FALSE;
  TlGpuLuArgs args = { 0 };
  args.dtype = (TlGpuDtype) A->dtype;
  args.m = (int) A->rows;
  args.n = (int) A->cols;
  args.a = A->data;
  args.ipiv = w->ipiv;
  args.block_size = (int) w->block_size;
  args.pivoting = w->pivoting == TL_PIVOTING_PARTIAL;
  args.warmups = (int) w->warmups;
  args.repeats = (int) MAX (w->repeats, 1);
  args.cancelled = cancelled_cb;
  args.user_data = w->cancellable;
  GpuRec gpu_rec = { w->rec, A->dtype, NULL };
  TlGpuLuObserver observer = {
    &gpu_rec, rec_step_search, rec_step_pivot, rec_step_eliminated, rec_u_rows,
    rec_block, rec_snapshot_due, rec_snapshot,
  };
  if (w->rec)
    {
      guint pool_r = 1, pool_c = 1;
      tl_lu_recorder_snapshot_pool (w->rec, &pool_r, &pool_c);
      observer.pool_r = (int) pool_r;
      observer.pool_c = (int) pool_c;
      observer.snapshot_pooled = rec_snapshot_pooled;
      args.observer = &observer;
    }
  TlGpuLuResult res = { 0 };
  TlGpuStatus status = tl_gpu_lu_run (device, w->kernel_id, &args, &res);
  g_debug ("lu %s: GPU run returned at %.3f ms (monotonic): upload %.1f ms, %d timed, "
           "recording %.1f ms", w->kernel_id, g_get_monotonic_time () / 1000.0, res.upload_ms,
           res.n_times, res.record_ms);
  if (status != TL_GPU_OK)
    {
      tl_gpu_lu_result_clear (&res);
      return tl_gpu_error_set (error, status, w->kernel_id);
    }
  w->info = (gsize) res.info;
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    w->phase_ns[ph] = (gint64) (res.phase_ms[ph] * 1e6);
  w->phase_run_ns = (gint64) (res.phase_run_ms * 1e6);
  w->record_s = res.record_ms * 1e-3;
  if (res.block_size > 0)
    w->block_size = (gsize) res.block_size; /* the width the rung chose (lu-06) */
  /* the median of the timed factorisations (device time) */
  qsort (res.times_ms, (size_t) res.n_times, sizeof (double), compare_double);
  w->device_s = res.n_times > 0 ? res.times_ms[res.n_times / 2] * 1e-3 : 0.0;
  tl_gpu_lu_result_clear (&res);
  return TRUE;
}

gboolean
tl_lu_solve_gpu (const TlLuResult *lu, TlMatrix *x, GError **error)
{
  g_autoptr (TlGpuSession) own = NULL;
  TlGpuDevice *device = tl_lu_gpu_device (NULL, lu->gpu_ordinal, &own, error);
  if (device == NULL)
    return FALSE;
  TlGpuLuSolveArgs args = { 0 };
  args.dtype = (TlGpuDtype) x->dtype;
  args.n = (int) lu->lu->rows;
  args.nrhs = (int) x->cols;
  args.lu = lu->lu->data;
  args.ipiv = lu->ipiv;
  args.b = x->data;
  TlGpuStatus status = tl_gpu_lu_solve (device, &args, NULL);
  if (status != TL_GPU_OK)
    return tl_gpu_error_set (error, status, lu->kernel_id);
  return TRUE;
}

gboolean
tl_lu_solve_gpu_bench (const TlLuResult *lu, TlMatrix *x, const char *solver, guint warmups,
                       guint repeats, double *times_ms, GError **error)
{
  g_return_val_if_fail (lu != NULL && x != NULL && solver != NULL && times_ms != NULL, FALSE);
  if (!tl_matrix_is_contiguous (x) || x->dtype != lu->lu->dtype || x->rows != lu->lu->rows)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("The right-hand sides must be a contiguous %zu-row matrix of the factors' dtype"),
                   lu->lu->rows);
      return FALSE;
    }
  g_autoptr (TlGpuSession) own = NULL;
  TlGpuDevice *device = tl_lu_gpu_device (NULL, lu->gpu_ordinal, &own, error);
  if (device == NULL)
    return FALSE;
  TlGpuLuSolveArgs args = { 0 };
  args.dtype = (TlGpuDtype) x->dtype;
  args.n = (int) lu->lu->rows;
  args.nrhs = (int) x->cols;
  args.lu = lu->lu->data;
  args.ipiv = lu->ipiv;
  args.b = x->data;
  TlGpuStatus status = tl_gpu_lu_solve_bench (device, solver, &args, (int) warmups,
                                              (int) MAX (repeats, 1), times_ms);
  if (status != TL_GPU_OK)
    return tl_gpu_error_set (error, status, solver);
  return TRUE;
}
