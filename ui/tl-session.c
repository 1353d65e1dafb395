/* tl-session.c — the session: its state, messages, the Gauss record and the devices. */
#include "tl-session-private.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "run/tl-gauss-run.h"

G_DEFINE_FINAL_TYPE (TlSession, tl_session, G_TYPE_OBJECT)

guint tl_session_signals[N_SIGNALS];

void
tl_session_state_changed (TlSession *self)
{
  g_signal_emit (self, tl_session_signals[SIGNAL_STATE_CHANGED], 0);
}

/* ---- messages ------------------------------------------------------------ */

void
tl_session_report (TlSession *self, GtkMessageType type, const char *text)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (type == GTK_MESSAGE_ERROR && text != NULL)
    self->errors_reported++;
  g_clear_pointer (&self->failures_shown, g_free);
  g_signal_emit (self, tl_session_signals[SIGNAL_MESSAGE], 0, type, text);
}

void
tl_session_report_error (TlSession *self, const char *what, const GError *error)
{
  g_autofree char *text = g_strdup_printf ("%s\n%s", what, error->message);
  tl_session_report (self, GTK_MESSAGE_ERROR, text);
}

void
tl_session_hide_message (TlSession *self)
{
  tl_session_report (self, GTK_MESSAGE_OTHER, NULL);
}

void
tl_session_hide_message_unless_error_since (TlSession *self, guint errors_reported)
{
  if (self->errors_reported == errors_reported)
    tl_session_hide_message (self);
}

void
tl_session_set_status (TlSession *self, const char *text)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_signal_emit (self, tl_session_signals[SIGNAL_STATUS], 0, text);
}

void
tl_session_set_progress (TlSession *self, const char *text, double fraction)
{
  g_signal_emit (self, tl_session_signals[SIGNAL_PROGRESS], 0, text, fraction);
}

/* ---- exports ---------------------------------------------------------------- */

void
tl_session_add_export (TlSession *self, GCancellable *cancellable, const char *what)
{
  g_return_if_fail (TL_IS_SESSION (self) && G_IS_CANCELLABLE (cancellable));
  g_ptr_array_add (self->exports, g_object_ref (cancellable));
  if (!self->running)
    tl_session_set_progress (self, what, 0);
  g_signal_emit (self, tl_session_signals[SIGNAL_STATE_CHANGED], 0);
}

void
tl_session_remove_export (TlSession *self, GCancellable *cancellable)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (!g_ptr_array_remove (self->exports, cancellable))
    return;
  if (!self->running && self->exports->len == 0)
    tl_session_set_progress (self, _("idle"), 0);
  g_signal_emit (self, tl_session_signals[SIGNAL_STATE_CHANGED], 0);
}

gboolean
tl_session_is_exporting (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->exports->len > 0;
}

/* ---- showing a record ------------------------------------------------------ */

char *
tl_session_record_time (const char *created)
{
  if (created == NULL)
    return g_strdup ("?");
  g_autoptr (GDateTime) t = g_date_time_new_from_iso8601 (created, NULL);
  if (t == NULL)
    return g_strdup (created);
  g_autoptr (GDateTime) utc = g_date_time_to_utc (t);
  return g_date_time_format (utc, "%Y-%m-%d %H:%M UTC");
}

gboolean
tl_session_record_from_file (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->record != NULL && self->results_from_file;
}

/* "Run record from vm (2026-11-24 07:07 UTC) · NVIDIA H200", or "LU
 * record from …" */
char *
tl_session_describe_record (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_autofree char *when = tl_session_record_time (record->created);
  const char *host = record->machine.host_name ? record->machine.host_name : "?";
  if (record->job && g_strcmp0 (record->job->kind, "lu") == 0)
    return g_strdup_printf (_("LU record from %s (%s)%s%s"), host, when, record->has_device ? " · " : "",
                            record->has_device ? record->device.name : "");
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, _("Run record from %s (%s)"), host, when);
  if (record->has_device)
    g_string_append_printf (s, " · %s", record->device.name);
  return g_string_free (s, FALSE);
}

void
tl_session_show_record (TlSession *self, TlRunRecord *record, gboolean with_sources)
{
  g_clear_pointer (&self->record, tl_run_record_unref);
  self->record = record;
  self->results_from_file = with_sources;

  /* a record that carries its inputs brought them along; one without them
   * belongs to the A and B shown only when there are none */
  if (!with_sources || (record->a && record->b) || (self->src[0] == NULL && self->src[1] == NULL))
    self->results_serial = self->inputs_serial;
  else
    self->results_serial = self->inputs_serial - 1;
  if (with_sources && record->job)
    {
      g_autofree char *status = tl_session_describe_record (record);
      tl_session_set_status (self, status);
    }
  g_signal_emit (self, tl_session_signals[SIGNAL_RESULTS_CHANGED], 0);
}

void
tl_session_add_to_history (TlSession *self, TlRunRecord *record)
{
  g_ptr_array_add (self->history, record);
  g_signal_emit (self, tl_session_signals[SIGNAL_HISTORY_CHANGED], 0);
}

static void
lu_box_clear (TlLuRecorder **box)
{
  g_clear_pointer (box, tl_lu_recorder_free);
}

void
tl_lu_record_release (TlLuRecorder **lu)
{
  if (lu)
    g_atomic_rc_box_release_full (lu, (GDestroyNotify) lu_box_clear);
}

void
tl_session_set_lu_record (TlSession *self, TlLuRecorder *lu)
{
  g_clear_pointer (&self->lu, tl_lu_record_release);
  if (lu)
    {
      self->lu = g_atomic_rc_box_new (TlLuRecorder *);
      *self->lu = lu;
    }
  g_signal_emit (self, tl_session_signals[SIGNAL_LU_RECORD_CHANGED], 0);
}

gboolean
tl_session_is_factoring (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->lu_cancellable != NULL;
}

TlRunRecord *
tl_session_get_lu_run (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->lu_run;
}

gboolean
tl_session_results_are_stale (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return (self->record || self->live_runs->len) && self->results_serial != self->inputs_serial;
}

const char *
tl_session_stale_text (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  if (!tl_session_results_are_stale (self))
    return NULL;
  if (self->results_from_file && self->record && (self->record->a == NULL || self->record->b == NULL))
    return _("These results are the run record's; it carries no matrices, so the A and B shown are not its inputs.");
  return _("These results are from the previous A and B. Press Run (Ctrl+R) for results of the matrices shown.");
}

TlLuRecorder *
tl_session_get_lu_record (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->lu ? *self->lu : NULL;
}

TlLuRecorder **
tl_session_hold_lu_record (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->lu ? g_atomic_rc_box_acquire (self->lu) : NULL;
}

/* ---- devices ------------------------------------------------------------- */

static void
probe_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  GArray *gpus = tl_runner_probe_devices_finish (TL_RUNNER (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* the session is going away */
      g_object_unref (self);
      return;
    }
  if (gpus)
    {
      g_clear_pointer (&self->gpus, g_array_unref);
      self->gpus = gpus;
    }
  /* no GPU is no error: the CPU serves every view; the reason is shown */
  g_free (self->no_gpu_reason);
  self->no_gpu_reason = error ? g_strdup (error->message) : NULL;
  self->probe_done = TRUE;
  g_signal_emit (self, tl_session_signals[SIGNAL_DEVICES_CHANGED], 0);
  tl_session_state_changed (self);
  g_object_unref (self);
}

void
tl_session_probe_devices (TlSession *self)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (self->probe_started)
    return;
  self->probe_started = TRUE;
  self->probe_cancellable = g_cancellable_new ();
  tl_runner_probe_devices_async (self->runner, self->probe_cancellable, probe_done_cb, g_object_ref (self));
  tl_session_state_changed (self);
}

const char *
tl_session_get_no_gpu_reason (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->no_gpu_reason;
}

void
tl_session_set_device (TlSession *self, int ordinal)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (self->device == MAX (ordinal, 0))
    return;
  self->device = MAX (ordinal, 0);
  g_signal_emit (self, tl_session_signals[SIGNAL_DEVICE_CHANGED], 0);
}

int
tl_session_get_device (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), 0);
  return self->device;
}

GArray *
tl_session_get_gpus (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->gpus;
}

gboolean
tl_session_devices_known (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->probe_done;
}

TlRunner *
tl_session_get_runner (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->runner;
}

/* ---- construction -------------------------------------------------------- */

static void
cancel_and_clear (GCancellable **cancellable)
{
  if (*cancellable)
    g_cancellable_cancel (*cancellable);
  g_clear_object (cancellable);
}

static void
tl_session_dispose (GObject *object)
{
  TlSession *self = TL_SESSION (object);

  for (int i = 0; i < 2; i++)
    cancel_and_clear (&self->source_cancellable[i]);
  cancel_and_clear (&self->record_cancellable);
  cancel_and_clear (&self->run_cancellable);
  cancel_and_clear (&self->lu_cancellable);
  cancel_and_clear (&self->probe_cancellable);
  g_clear_handle_id (&self->load_ticker, g_source_remove);
  /* the hosts (tl-session-hosts.c fills the list and frees what it holds) */
  if (self->host_settings)
    g_signal_handlers_disconnect_by_data (self->host_settings, self);
  g_clear_object (&self->host_settings);
  g_clear_pointer (&self->hosts, g_ptr_array_unref);
  if (self->runner)
    g_signal_handlers_disconnect_by_data (self->runner, self);
  g_clear_object (&self->runner);
  G_OBJECT_CLASS (tl_session_parent_class)->dispose (object);
}

static void
tl_session_finalize (GObject *object)
{
  TlSession *self = TL_SESSION (object);

  for (int i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->src[i], tl_matrix_unref);
      tl_source_clear (&self->src_source[i]);
      g_free (self->src_label[i]);
      g_free (self->src_failure[i]);
    }
  g_ptr_array_unref (self->live_runs);
  g_ptr_array_unref (self->history);
  g_ptr_array_unref (self->exports);
  g_ptr_array_unref (self->loads);
  g_hash_table_unref (self->sweep_jobs);
  g_array_unref (self->sweep_sizes);
  g_clear_pointer (&self->record, tl_run_record_unref);
  g_clear_pointer (&self->lu, tl_lu_record_release);
  g_clear_pointer (&self->lu_run, tl_run_record_unref);
  g_clear_pointer (&self->gpus, g_array_unref);
  g_free (self->no_gpu_reason);
  g_free (self->failures_shown);
  G_OBJECT_CLASS (tl_session_parent_class)->finalize (object);
}

static void
tl_session_class_init (TlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GType type = G_TYPE_FROM_CLASS (klass);

  object_class->dispose = tl_session_dispose;
  object_class->finalize = tl_session_finalize;

#define SIGNAL0(id, name) \
  tl_session_signals[id] = g_signal_new (name, type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0)
  SIGNAL0 (SIGNAL_RESULTS_CHANGED, "results-changed");
  SIGNAL0 (SIGNAL_HISTORY_CHANGED, "history-changed");
  SIGNAL0 (SIGNAL_LU_RECORD_CHANGED, "lu-record-changed");
  SIGNAL0 (SIGNAL_DEVICES_CHANGED, "devices-changed");
  SIGNAL0 (SIGNAL_DEVICE_CHANGED, "device-changed");
  SIGNAL0 (SIGNAL_STATE_CHANGED, "state-changed");
  SIGNAL0 (SIGNAL_HOSTS_CHANGED, "hosts-changed");
#undef SIGNAL0
  tl_session_signals[SIGNAL_SOURCE_CHANGED] = g_signal_new ("source-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                 NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  tl_session_signals[SIGNAL_SOURCE_LOADING] = g_signal_new ("source-loading", type, G_SIGNAL_RUN_LAST, 0, NULL,
                                                 NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  tl_session_signals[SIGNAL_MESSAGE] = g_signal_new ("message", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
  tl_session_signals[SIGNAL_PROGRESS] = g_signal_new ("progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_DOUBLE);
  tl_session_signals[SIGNAL_STATUS] = g_signal_new ("status", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
  tl_session_signals[SIGNAL_RECORD_OPENED] = g_signal_new ("record-opened", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN);
}

static void
tl_session_init (TlSession *self)
{
  self->live_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  self->history = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_unref);
  self->exports = g_ptr_array_new_with_free_func (g_object_unref);
  self->loads = g_ptr_array_new ();
  self->sweep_jobs = g_hash_table_new (NULL, NULL);
  self->sweep_sizes = tl_sweep_sizes_parse (TL_SWEEP_SIZES_DEFAULT, NULL);
  self->gpus = g_array_new (FALSE, TRUE, sizeof (TlGpuFacts));
  self->job_dtype = TL_DTYPE_FLOAT32;
  self->inputs_serial = 1;

  /* one worker owns the GPU and opens it lazily, never here; it runs at a
   * lower priority than the main loop, so a CPU run on every core still
   * leaves the window answering */
  self->runner = tl_runner_new_full (TL_RUNNER_BACKGROUND);
  self->hosts = g_ptr_array_new ();
  self->run_host = -1;
}

TlSession *
tl_session_new (void)
{
  return g_object_new (TL_TYPE_SESSION, NULL);
}
