/* tl-session-records.c — run records and Gauss records opened from files. */
#include "tl-session-private.h"
#include "run/tl-user-run.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "record/tl-record-file.h"

/* ---- run records from files ------------------------------------------------ */

static void
record_file_free (TlRecordFile *r)
{
  tl_record_file_clear (r);
  g_free (r);
}

static void
record_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  g_autofree char *path = g_file_get_path (data);
  TlRecordFile *r = g_new0 (TlRecordFile, 1);

  /* one parse, whatever the kind: run records and Gauss records */
  if (path == NULL || !tl_record_file_load (r, path, TL_RECORD_LOAD_DEFAULT, &error))
    {
      if (error == NULL)
        g_set_error (&error, TL_ERROR, TL_ERROR_IO, _("Only local files can be opened"));
      g_free (r);
      g_task_return_error (task, error);
      return;
    }
  /* the matrices that travel beside a run record, when they are there:
   * without them the record still shows its timings */
  if (r->record)
    tl_run_record_load_matrices (r->record, NULL);
  /* the user kernels it ran (their files travel in it): known by id */
  if (r->record)
    tl_user_run_register_from_record (r->record);
  g_task_return_pointer (task, r, (GDestroyNotify) record_file_free);
}

/* user_data: the session's error count when the record was asked for */
static void
record_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = TL_SESSION (object);
  g_autoptr (GError) error = NULL;
  GFile *file = g_task_get_task_data (G_TASK (result));
  TlRecordFile *r = g_task_propagate_pointer (G_TASK (result), &error);

  self->n_pending_sources--;
  if (r == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *what = g_strdup_printf (_("Could not open the record “%s”; what was shown stays."),
                                                   g_file_peek_path (file));
          tl_session_report_error (self, what, error);
          tl_session_forget_file_if_gone (file);
        }
      tl_session_state_changed (self);
      return;
    }
  tl_session_hide_message_unless_error_since (self, GPOINTER_TO_UINT (user_data));
  tl_session_remember_file (file);
  gboolean is_lu = r->record && r->record->job && g_strcmp0 (r->record->job->kind, "lu") == 0;
  gboolean has_lu = r->lu != NULL || is_lu;
  gboolean has_gemm = r->record && r->record->runs->len > 0 && !is_lu;
  /* an LU run record stands beside the GEMM record on show, never in its place */
  if (is_lu)
    {
      g_clear_pointer (&self->lu_run, tl_run_record_unref);
      self->lu_run = g_steal_pointer (&r->record);
      g_autofree char *status = tl_session_describe_record (self->lu_run);
      tl_session_set_status (self, status);
    }
  if (r->lu)
    tl_session_set_lu_record (self, g_steal_pointer (&r->lu));
  else if (is_lu)
    g_signal_emit (self, tl_session_signals[SIGNAL_LU_RECORD_CHANGED], 0);
  if (has_gemm)
    {
      tl_session_add_to_history (self, tl_run_record_ref (r->record));
      tl_session_take_record_sources (self, r->record);
      tl_session_show_record (self, g_steal_pointer (&r->record), TRUE);
    }
  record_file_free (r);
  tl_session_state_changed (self);
  g_signal_emit (self, tl_session_signals[SIGNAL_RECORD_OPENED], 0, has_gemm, has_lu);
}

void
tl_session_open_record (TlSession *self, GFile *file)
{
  g_return_if_fail (TL_IS_SESSION (self));

  /* records open side by side (`tilelab run.json lu.json`): a second one
   * does not cancel the first; only closing the window cancels them */
  if (self->record_cancellable == NULL)
    self->record_cancellable = g_cancellable_new ();
  self->n_pending_sources++;
  g_autoptr (GTask) task = g_task_new (self, self->record_cancellable, record_done_cb,
                                        GUINT_TO_POINTER (self->errors_reported));
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, record_thread);
  tl_session_state_changed (self);
}

