/* tl-user-worker.c — the installed way to the user kernels' worker. */
#include "run/tl-user-worker.h"
#include "core/tl-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static TlUserWorkerRunFunc installed_run;
static void (*installed_stop) (void);

void
tl_user_worker_install (TlUserWorkerRunFunc run, void (*stop) (void))
{
  installed_run = run;
  installed_stop = stop;
}

gboolean
tl_user_worker_run (TlUserKernel *kernel, TlUserBuild *build, int device,
                    const TlGpuGemmArgs *args, double watchdog_s, TlGpuGemmResult *out,
                    GError **error)
{
  g_return_val_if_fail (kernel != NULL && build != NULL && build->compiled && args != NULL
                          && out != NULL,
                        FALSE);
  memset (out, 0, sizeof *out);
  if (installed_run == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s would run in a worker process of its own, and this program has none "
                     "(TILELAB_USER_KERNELS=in-process runs it here instead)"),
                   tl_user_kernel_file_name (kernel));
      return FALSE;
    }
  return installed_run (kernel, build, device, args,
                        watchdog_s > 0 ? watchdog_s : TL_USER_WATCHDOG_DEFAULT_S, out, error);
}

void
tl_user_worker_result_clear (TlGpuGemmResult *result)
{
  g_free (result->times_ms);
  g_free (result->blocks);
  memset (result, 0, sizeof *result);
}

void
tl_user_worker_stop (void)
{
  if (installed_stop != NULL)
    installed_stop ();
}
