/* tl-app-jobs.c — the desktop app's LU recording and device probe, as runner jobs. */
#include "run/tl-app-jobs.h"

#include <glib/gi18n-lib.h>

#include "lu/tl-lu.h"
#include "tl-gpu.h"

typedef struct
{
  char *kernel_id;
  TlMatrix *a;
  gsize block_size;
} LuArgs;

static void
lu_args_free (LuArgs *args)
{
  g_free (args->kernel_id);
  tl_matrix_unref (args->a);
  g_free (args);
}

static gpointer
record_lu_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  LuArgs *args = data;
  g_autoptr (TlLuRecorder) recorder = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) result = NULL;

  tl_runner_job_progress (job, args->kernel_id, _("factoring with the recorder on"), 0.1);
  if (!tl_lu_factor (args->kernel_id, args->a, args->block_size, TL_PIVOTING_PARTIAL, recorder,
                     cancellable, &result, error))
    return NULL;
  return g_steal_pointer (&recorder);
}

void
tl_app_jobs_record_lu_async (TlRunner *runner, const char *kernel_id, TlMatrix *a, gsize block_size,
                             GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (TL_IS_RUNNER (runner));
  g_return_if_fail (kernel_id != NULL && a != NULL);

  LuArgs *args = g_new0 (LuArgs, 1);
  args->kernel_id = g_strdup (kernel_id);
  args->a = tl_matrix_ref (a);
  args->block_size = block_size;
  tl_runner_run_func_async (runner, record_lu_job, args, (GDestroyNotify) lu_args_free,
                            (GDestroyNotify) tl_lu_recorder_free, cancellable, callback, user_data);
}

TlLuRecorder *
tl_app_jobs_record_lu_finish (TlRunner *runner, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (runner, result, error);
}

/* The runner's probe (tl_runner_probe_devices_async), with "no GPU" as an
 * empty list rather than an error: the window then shows the CPU backend. */
void
tl_app_jobs_probe_devices_async (TlRunner *runner, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (TL_IS_RUNNER (runner));
  tl_runner_probe_devices_async (runner, cancellable, callback, user_data);
}

GArray *
tl_app_jobs_probe_devices_finish (TlRunner *runner, GAsyncResult *result, GError **error)
{
  g_autoptr (GError) local = NULL;
  GArray *devices = tl_runner_probe_devices_finish (runner, result, &local);
  if (devices != NULL)
    return devices;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return g_array_new (FALSE, TRUE, sizeof (TlGpuFacts));
}

gboolean
tl_app_jobs_built_with_cuda (void)
{
  return tl_gpu_built_with_cuda () != 0;
}
