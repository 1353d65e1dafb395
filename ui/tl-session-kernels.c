/* tl-session-kernels.c — opening a user's kernel file (off the main loop). */
#include "tl-session-private.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "gemm/tl-user-kernel.h"

static void
open_kernel_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  g_autofree char *path = g_file_get_path (data);
  if (path == NULL)
    {
      g_task_return_new_error (task, TL_ERROR, TL_ERROR_IO, _("Only local files can be opened"));
      return;
    }
  /* read, checked and registered: a row of the registry from here on */
  const TlKernelInfo *info = tl_user_kernel_open (path, &error);
  if (info == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, (gpointer) info, NULL);
}

void
tl_session_open_kernel (TlSession *self, GFile *file, GAsyncReadyCallback callback,
                        gpointer user_data)
{
  g_return_if_fail (TL_IS_SESSION (self) && G_IS_FILE (file));
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, user_data);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, open_kernel_thread);
}

const TlKernelInfo *
tl_session_open_kernel_finish (TlSession *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
