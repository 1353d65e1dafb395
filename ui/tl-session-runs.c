/* tl-session-runs.c — GEMM runs and the size sweep on the runner's worker. */
#include "tl-session-private.h"

#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "tl-run-text.h"

/* ---- running ------------------------------------------------------------- */

static gboolean
is_sweep_job (TlSession *self, guint job_id)
{
  return g_hash_table_contains (self->sweep_jobs, GUINT_TO_POINTER (job_id));
}

static void
progress_cb (TlRunner *runner, const TlRunProgress *p, TlSession *self)
{
  if (p->job_id != self->job_id && !is_sweep_job (self, p->job_id))
    return;
  /* the id comes from the worker (or a remote one's message): resolved here, once */
  g_autofree char *text = p->kernel_id
    ? g_strdup_printf ("%s: %s", tl_kernel_title (tl_kernel_find (p->kernel_id), p->kernel_id), p->stage)
    : g_strdup (p->stage);
  if (is_sweep_job (self, p->job_id))
    {
      g_autofree char *t2 = g_strdup_printf (_("size sweep (%u left) · %s"), self->n_sweep_pending, text);
      tl_session_set_progress (self, t2, CLAMP (p->fraction, 0, 1));
    }
  else
    tl_session_set_progress (self, text, CLAMP (p->fraction, 0, 1));
}

static void
kernel_finished_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, TlSession *self)
{
  if (job_id != self->job_id)
    return;
  /* said again (a remote host's, now with its C): it replaces the first */
  guint i = 0;
  while (i < self->live_runs->len
         && g_strcmp0 (((TlKernelRun *) self->live_runs->pdata[i])->kernel_id, run->kernel_id) != 0)
    i++;
  if (i < self->live_runs->len)
    {
      tl_kernel_run_free (self->live_runs->pdata[i]);
      self->live_runs->pdata[i] = tl_kernel_run_copy (run);
    }
  else
    g_ptr_array_add (self->live_runs, tl_kernel_run_copy (run));

  GString *s = g_string_new (_("last: "));
  tl_run_text_describe (run, tl_stats_gemm_flops (self->job_m, self->job_k, self->job_n), s);
  tl_session_set_status (self, s->str);
  g_string_free (s, TRUE);
  g_signal_emit (self, tl_session_signals[SIGNAL_RESULTS_CHANGED], 0);
}

/* The runner's progress and finished kernels reach the runs on show: its
 * signals are connected when it gets its first job from here (a host's
 * runner is let go with the host, disconnecting them). */
static guint
run_gemm (TlSession *self, int host, const TlJob *job, GAsyncReadyCallback callback)
{
  TlRunner *runner = tl_session_host_get_runner (self, host);
  if (g_signal_handler_find (runner, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA, 0, 0, NULL, progress_cb,
                             self) == 0)
    {
      g_signal_connect (runner, "progress", G_CALLBACK (progress_cb), self);
      g_signal_connect (runner, "kernel-finished", G_CALLBACK (kernel_finished_cb), self);
    }
  return tl_session_host_run_gemm (self, host, job, self->run_cancellable, callback, g_object_ref (self));
}

static void
set_running (TlSession *self, gboolean running)
{
  self->running = running;
  if (!running)
    tl_session_set_progress (self, _("idle"), 0);
  tl_session_state_changed (self);
}

/* How many of a cancelled record's kernels finished (the others are
 * marked TL_RUN_CANCELLED). */
static guint
count_finished (const TlRunRecord *record)
{
  guint finished = 0;
  for (guint i = 0; i < record->runs->len; i++)
    finished += ((const TlKernelRun *) record->runs->pdata[i])->status != TL_RUN_CANCELLED;
  return finished;
}

/* A cancelled run is shown as what it is: the kernels that finished, the
 * rest marked cancelled, and the status line and info bar saying so. */
static void
report_cancelled (TlSession *self, const TlRunRecord *record)
{
  guint finished = count_finished (record), total = record->runs->len;
  g_autofree char *status = g_strdup_printf (_("cancelled: %u of %u kernels finished"), finished, total);
  tl_session_set_status (self, status);
  g_autofree char *text = g_strdup_printf (
    ngettext ("The run was cancelled: %u of %u kernels finished and is shown; "
              "the others are marked cancelled.",
              "The run was cancelled: %u of %u kernels finished and are shown; "
              "the others are marked cancelled.",
              finished),
    finished, total);
  tl_session_report (self, GTK_MESSAGE_WARNING, text);
}

/* A connection lost during a run on another machine: the kernels that
 * came back are shown, and the record's note says what happened. */
static void
report_lost (TlSession *self, const TlRunRecord *record)
{
  guint n = count_finished (record);
  g_autofree char *status = g_strdup_printf (ngettext ("connection lost: %u kernel came back",
                                                       "connection lost: %u kernels came back", n),
                                             n);
  tl_session_set_status (self, status);
  tl_session_report (self, GTK_MESSAGE_ERROR, tl_remote_record_lost_connection (record));
}

/* Kernels that failed (a problem too large for the GPU's memory, a shape
 * a rung cannot take, a GPU fault) are said in the message bar too, not
 * only by their rows: the first one's reason, and how many there were. */
static gboolean
report_failures (TlSession *self, const TlRunRecord *record)
{
  const TlKernelRun *first = NULL;
  guint failed = 0;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (run->status != TL_RUN_ERROR)
        continue;
      first = first ? first : run;
      failed++;
    }
  if (failed == 0)
    return FALSE;
  g_autofree char *head = g_strdup_printf (
    ngettext ("%u of %u kernels failed.", "%u of %u kernels failed.", record->runs->len), failed,
    record->runs->len);
  /* most messages name their kernel already ("gemm-08 at 4096×… needs …") */
  const char *why = first->message ? first->message : "";
  g_autofree char *text = g_str_has_prefix (why, first->kernel_id)
    ? g_strdup_printf ("%s %s", head, why)
    : g_strdup_printf ("%s %s: %s", head, first->kernel_id, why);
  tl_session_report (self, failed == record->runs->len ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING, text);
  return TRUE;
}

static void
run_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);

  tl_session_host_job_ended (self, TL_RUNNER (object));
  if (record == NULL)
    {
      /* a cancelled job without a record: no kernel had finished */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          tl_session_set_status (self, _("cancelled before any kernel finished"));
          tl_session_report (self, GTK_MESSAGE_WARNING,
                             _("The run was cancelled before any kernel finished: there are no results."));
        }
      else
        tl_session_report_error (self, _("The run failed."), error);
    }
  else
    {
      tl_session_add_to_history (self, tl_run_record_ref (record));
      tl_session_show_record (self, record, FALSE);
      if (tl_remote_record_lost_connection (record))
        report_lost (self, record);
      else if (record->cancelled)
        report_cancelled (self, record);
      else if (report_failures (self, record))
        ;
      else if (record->note)
        tl_session_report (self, GTK_MESSAGE_INFO, record->note);
    }
  g_clear_object (&self->run_cancellable);
  set_running (self, self->n_sweep_pending > 0);
  g_object_unref (self);
}

static gboolean
check_can_run (TlSession *self, const TlRunSettings *settings)
{
  TlMatrix *a = self->src[0], *b = self->src[1];

  if (a == NULL || b == NULL)
    {
      tl_session_report (self, GTK_MESSAGE_WARNING, _("Load or generate both A and B before running."));
      return FALSE;
    }
  g_autofree char *mismatch = tl_session_mismatch_text (self);
  if (mismatch != NULL)
    {
      tl_session_report (self, GTK_MESSAGE_ERROR, mismatch);
      return FALSE;
    }
  if (settings->kernels == NULL || settings->kernels[0] == NULL)
    {
      tl_session_report (self, GTK_MESSAGE_WARNING, _("Tick at least one kernel in the sidebar."));
      return FALSE;
    }
  return TRUE;
}

gboolean
tl_session_run (TlSession *self, const TlRunSettings *settings)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);

  if (self->running || !check_can_run (self, settings))
    return FALSE;

  g_autoptr (TlJob) job = tl_job_new_gemm (self->src[0]->rows, self->src[0]->cols,
                                           self->src[1]->cols, settings->dtype);
  tl_source_clear (&job->a);
  tl_source_clear (&job->b);
  tl_source_copy_into (&self->src_source[0], &job->a);
  tl_source_copy_into (&self->src_source[1], &job->b);
  job->a_matrix = tl_matrix_ref (self->src[0]);
  job->b_matrix = tl_matrix_ref (self->src[1]);
  g_strfreev (job->kernels);
  job->kernels = g_strdupv ((GStrv) settings->kernels);
  job->repeats = settings->repeats;
  job->warmups = 1;
  job->keep_matrices = TRUE;
  job->instrument = TRUE; /* per-block (per-tile) timing for the Blocks view */
  /* CPU kernels take every core, as cpu-blocked's lesson says and as
   * tilelab-cli does; the window keeps drawing because the runner's
   * worker, and every thread it starts, runs at nice +5 (TL_RUNNER_BACKGROUND) */
  job->threads = 0;
  job->device = settings->device;
  job->counters = settings->counters;

  tl_session_hide_message (self);
  self->job_m = job->m;
  self->job_k = job->k;
  self->job_n = job->n;
  self->job_dtype = job->dtype;
  g_ptr_array_set_size (self->live_runs, 0);
  g_clear_pointer (&self->record, tl_run_record_unref);
  self->results_serial = self->inputs_serial;
  self->results_from_file = FALSE;
  g_signal_emit (self, tl_session_signals[SIGNAL_RESULTS_CHANGED], 0);

  self->run_cancellable = g_cancellable_new ();
  self->job_id = run_gemm (self, settings->host, job, run_done_cb);
  tl_session_set_progress (self, _("starting"), 0);
  set_running (self, TRUE);
  return TRUE;
}

static void
sweep_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);

  tl_session_host_job_ended (self, TL_RUNNER (object));
  self->n_sweep_pending--;
  /* a size cancelled part-way keeps its finished kernels (the others are
   * marked cancelled in its record); the sizes after it never ran */
  if (record)
    tl_session_add_to_history (self, record);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    tl_session_report_error (self, _("A size-sweep run failed."), error);
  if ((record && record->cancelled) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    self->sweep_cancelled = TRUE;
  if (self->n_sweep_pending == 0)
    {
      g_clear_object (&self->run_cancellable);
      set_running (self, FALSE);
      if (self->sweep_cancelled)
        {
          tl_session_set_status (self, _("size sweep cancelled"));
          tl_session_report (self, GTK_MESSAGE_WARNING,
                             _("The size sweep was cancelled: only the sizes and kernels that finished "
                               "are in the sweep; the rest are marked cancelled or missing."));
        }
    }
  g_object_unref (self);
}

/* The kernels of a sweep: those ticked, each followed by its vendor at
 * dtype (cuBLAS for a GPU rung, OpenBLAS for a CPU kernel) unless ticked. */
static GStrv
sweep_kernels (const char *const *ticked, TlDtype dtype)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; ticked[i]; i++)
    g_hash_table_add (seen, (gpointer) ticked[i]);
  for (guint i = 0; ticked[i]; i++)
    {
      g_strv_builder_add (b, ticked[i]);
      const TlKernelInfo *info = tl_kernel_find (ticked[i]);
      const TlKernelInfo *vendor = info ? tl_kernel_reference (info, dtype) : NULL;
      if (vendor && !g_hash_table_contains (seen, vendor->id))
        {
          g_hash_table_add (seen, (gpointer) vendor->id);
          g_strv_builder_add (b, vendor->id);
        }
    }
  return g_strv_builder_end (b);
}

gboolean
tl_session_run_sweep (TlSession *self, const TlRunSettings *settings)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);

  if (self->running)
    return FALSE;
  if (settings->kernels == NULL || settings->kernels[0] == NULL)
    {
      tl_session_report (self, GTK_MESSAGE_WARNING, _("Tick at least one kernel in the sidebar."));
      return FALSE;
    }
  g_auto (GStrv) kernels = sweep_kernels (settings->kernels, settings->dtype);

  tl_session_hide_message (self);
  self->run_cancellable = g_cancellable_new ();
  self->sweep_cancelled = FALSE;
  for (guint i = 0; i < self->sweep_sizes->len; i++)
    {
      const TlSweepSize *size = &g_array_index (self->sweep_sizes, TlSweepSize, i);
      g_autoptr (TlJob) job = tl_job_new_gemm (size->m, size->k, size->n, settings->dtype);
      for (int j = 0; j < 2; j++)
        {
          TlSource *s = j == 0 ? &job->a : &job->b;
          tl_source_clear (s);
          s->kind = TL_SOURCE_GENERATOR;
          s->generator = g_strdup ("random-uniform");
          s->seed = 1 + j;
        }
      g_strfreev (job->kernels);
      job->kernels = g_strdupv (kernels);
      job->repeats = settings->repeats;
      job->warmups = 1;
      job->device = settings->device;
      guint id = run_gemm (self, settings->host, job, sweep_done_cb);
      g_hash_table_add (self->sweep_jobs, GUINT_TO_POINTER (id));
      self->n_sweep_pending++;
    }
  set_running (self, TRUE);
  return TRUE;
}

gboolean
tl_session_set_sweep_sizes (TlSession *self, const char *text, GError **error)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  GArray *sizes = tl_sweep_sizes_parse (text, error);
  if (sizes == NULL)
    return FALSE;
  g_array_unref (self->sweep_sizes);
  self->sweep_sizes = sizes;
  return TRUE;
}

char *
tl_session_get_sweep_sizes (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return tl_sweep_sizes_format (self->sweep_sizes);
}

void
tl_session_cancel (TlSession *self)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (self->run_cancellable)
    {
      g_cancellable_cancel (self->run_cancellable);
      tl_session_set_progress (self, _("cancelling…"), 0); /* "idle" once it stopped */
    }
  /* Factor A stops between block steps; the player keeps what it had */
  if (self->lu_cancellable)
    g_cancellable_cancel (self->lu_cancellable);
  /* a file being read stops at its next window; A and B keep what they had */
  for (int i = 0; i < 2; i++)
    if (self->source_cancellable[i])
      g_cancellable_cancel (self->source_cancellable[i]);
  /* a picture being drawn is not written */
  for (guint i = 0; i < self->exports->len; i++)
    g_cancellable_cancel (self->exports->pdata[i]);
}

gboolean
tl_session_is_running (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->running;
}

gboolean
tl_session_is_loading (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->n_pending_sources > 0;
}

gboolean
tl_session_is_busy (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->running || self->n_pending_sources > 0 || (self->probe_started && !self->probe_done)
         || self->lu_cancellable != NULL;
}

GPtrArray *
tl_session_get_runs (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->record ? self->record->runs : self->live_runs;
}

guint
tl_session_get_n_live_results (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), 0);
  return self->live_runs->len;
}

TlRunRecord *
tl_session_get_record (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->record;
}

void
tl_session_get_size (TlSession *self, gsize *m, gsize *k, gsize *n)
{
  g_return_if_fail (TL_IS_SESSION (self));
  const TlJob *job = self->record ? self->record->job : NULL;
  *m = job ? job->m : self->job_m;
  *k = job ? job->k : self->job_k;
  *n = job ? job->n : self->job_n;
}

TlDtype
tl_session_get_dtype (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), TL_DTYPE_FLOAT32);
  return self->record && self->record->job ? self->record->job->dtype : self->job_dtype;
}

GPtrArray *
tl_session_get_history (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  return self->history;
}

