/* tl-session-gauss.c — Factor A: the Gauss record made on this computer or a host. */
#include "tl-session-private.h"

#include <glib/gi18n-lib.h>

#include "run/tl-gauss-run.h"

static void
lu_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (TL_RUNNER (object), result, &error);
  /* the worker has let go of the recorder it filled */
  TlLuRecorder *lu = g_steal_pointer (&self->lu_recording);

  g_clear_object (&self->lu_cancellable);
  if (done)
    {
      /* the player's record is now A's, not the LU run record's */
      g_clear_pointer (&self->lu_run, tl_run_record_unref);
      tl_session_set_lu_record (self, lu);
    }
  else
    {
      tl_lu_recorder_free (lu);
      /* a half factorisation is no result: the player keeps what it showed */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tl_session_set_status (self, _("Factor A cancelled: the player shows what it showed before."));
      else
        tl_session_report_error (self, _("Could not factor A."), error);
    }
  tl_session_state_changed (self);
  g_object_unref (self);
}

gboolean
tl_session_factor (TlSession *self, const char *kernel_id, gsize block_size)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  if (self->src[0] == NULL || self->lu_cancellable || kernel_id == NULL)
    return FALSE;

  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = self->src[0] };
  job.options.kernel_id = kernel_id;
  job.options.block_size = block_size;
  job.options.pivoting = TL_PIVOTING_PARTIAL;
  job.options.gpu_ordinal = self->device;
  job.recorder = self->lu_recording = tl_lu_recorder_new (0);
  self->lu_cancellable = g_cancellable_new ();
  tl_session_host_run_gauss (self, self->run_host, &job, self->lu_cancellable, lu_done_cb,
                             g_object_ref (self));
  tl_session_state_changed (self);
  return TRUE;
}
