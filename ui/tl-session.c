/* tl-session.c — sources, runs, records and devices of one window. */
#include "tl-session.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "paint/tl-render.h"
#include "run/tl-app-jobs.h"
#include "tl-run-text.h"

struct _TlSession
{
  GObject parent_instance;

  /* sources: immutable once set */
  TlMatrix *src[2];
  TlSource src_source[2];
  char *src_label[2];
  TlMatrixStats src_stats[2];   /* computed off the main loop */
  guint inputs_serial;          /* bumped whenever A or B is replaced */
  GCancellable *source_cancellable[2];
  GCancellable *record_cancellable;
  guint n_pending_sources;

  /* runs */
  TlRunner *runner;
  GCancellable *run_cancellable;
  guint job_id;
  gboolean running;
  gsize job_m, job_k, job_n;
  TlDtype job_dtype;
  GPtrArray *live_runs;       /* TlKernelRun* of the job in flight (copies) */
  GHashTable *sweep_jobs;     /* job ids whose records only feed the sweep */
  guint n_sweep_pending;
  TlRunRecord *record;        /* on show (pages that keep it take a reference) */
  guint results_serial;       /* the inputs_serial the runs on show were made from */
  gboolean results_from_file; /* the runs on show came from a record file */
  GPtrArray *history;         /* TlRunRecord*, for the size sweep */

  /* Gauss */
  TlRunRecord *lu_run;        /* an LU run record (its timing, device, result) */
  TlLuRecorder *lu;
  GCancellable *lu_cancellable;

  /* devices */
  GArray *gpus;               /* TlGpuFacts */
  gboolean probe_started, probe_done;
  GCancellable *probe_cancellable;
};

G_DEFINE_FINAL_TYPE (TlSession, tl_session, G_TYPE_OBJECT)

enum
{
  SIGNAL_SOURCE_CHANGED,
  SIGNAL_RESULTS_CHANGED,
  SIGNAL_HISTORY_CHANGED,
  SIGNAL_LU_RECORD_CHANGED,
  SIGNAL_DEVICES_CHANGED,
  SIGNAL_STATE_CHANGED,
  SIGNAL_MESSAGE,
  SIGNAL_PROGRESS,
  SIGNAL_STATUS,
  SIGNAL_RECORD_OPENED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
state_changed (TlSession *self)
{
  g_signal_emit (self, signals[SIGNAL_STATE_CHANGED], 0);
}

/* ---- messages ------------------------------------------------------------ */

void
tl_session_report (TlSession *self, GtkMessageType type, const char *text)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, type, text);
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
tl_session_set_status (TlSession *self, const char *text)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_signal_emit (self, signals[SIGNAL_STATUS], 0, text);
}

static void
set_progress (TlSession *self, const char *text, double fraction)
{
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, text, fraction);
}

/* "FILE:5:1: expected a number" → "Line 5, column 1: expected a number" */
static char *
friendly_file_error (const GError *error)
{
  g_autoptr (GRegex) re = g_regex_new ("^.*:([0-9]+):([0-9]+): (.*)$", G_REGEX_DOTALL, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  if (re && g_regex_match (re, error->message, 0, &match))
    {
      g_autofree char *line = g_match_info_fetch (match, 1);
      g_autofree char *col = g_match_info_fetch (match, 2);
      g_autofree char *rest = g_match_info_fetch (match, 3);
      return g_strdup_printf (_("Line %s, column %s: %s"), line, col, rest);
    }
  return g_strdup (error->message);
}

/* ---- sources --------------------------------------------------------------- */

/* opened files go to the desktop's recent files (and the Open menu) */
static void
remember_file (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static void
set_source (TlSession *self, guint i, TlMatrix *m, const TlMatrixStats *stats,
            const TlSource *source, const char *label)
{
  self->src_stats[i] = *stats;
  g_clear_pointer (&self->src[i], tl_matrix_unref);
  self->src[i] = tl_matrix_ref (m);
  tl_source_clear (&self->src_source[i]);
  tl_source_copy_into (source, &self->src_source[i]);
  g_free (self->src_label[i]);
  self->src_label[i] = g_strdup (label);
  self->inputs_serial++;
  g_signal_emit (self, signals[SIGNAL_SOURCE_CHANGED], 0, i);
}

typedef struct
{
  guint targets;
  char *spec;
  gsize rows, cols;
  TlDtype dtype;
  guint64 seed;
  GFile *file;
  TlMatrix *out[2];
  TlMatrixStats stats[2];
} SourceTask;

static void
source_task_free (SourceTask *t)
{
  g_free (t->spec);
  g_clear_object (&t->file);
  for (int i = 0; i < 2; i++)
    g_clear_pointer (&t->out[i], tl_matrix_unref);
  g_free (t);
}

static void
source_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  SourceTask *t = data;
  GError *error = NULL;

  for (int i = 0; i < 2; i++)
    {
      if (!(t->targets & (1u << i)))
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      if (t->file)
        {
          g_autofree char *path = g_file_get_path (t->file);
          t->out[i] = path ? tl_matrix_load (path, TL_FORMAT_AUTO, &error) : NULL;
          if (path == NULL && error == NULL)
            g_set_error (&error, TL_ERROR, TL_ERROR_IO, _("Only local files can be opened"));
        }
      else
        t->out[i] = tl_generate (t->spec, t->dtype, t->rows, t->cols, t->seed + i, &error);
      if (t->out[i] == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      tl_matrix_stats (t->out[i], &t->stats[i]);
    }
  g_task_return_boolean (task, TRUE);
}

static void
report_source_failure (TlSession *self, SourceTask *t, const GError *error)
{
  guint i = t->targets & TL_TARGET_A ? 0 : 1;
  const char *name = i == 0 ? "A" : "B";
  const char *path = t->file && g_file_peek_path (t->file) ? g_file_peek_path (t->file) : "?";
  g_autofree char *what = !t->file
    ? g_strdup_printf (_("Could not generate “%s” (%zu×%zu)."), t->spec, t->rows, t->cols)
    : self->src[i]
    ? g_strdup_printf (_("Could not open “%s” as %s; %s kept its previous matrix."), path, name, name)
    : g_strdup_printf (_("Could not open “%s” as %s; %s is still empty."), path, name, name);
  g_autofree char *why = t->file ? friendly_file_error (error) : g_strdup (error->message);
  g_autofree char *text = g_strdup_printf ("%s\n%s", what, why);
  tl_session_report (self, GTK_MESSAGE_ERROR, text);
}

static void
source_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = TL_SESSION (object);
  SourceTask *t = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->n_pending_sources--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* the previous sources stay as they were */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        report_source_failure (self, t, error);
      state_changed (self);
      return;
    }

  for (int i = 0; i < 2; i++)
    {
      if (!(t->targets & (1u << i)))
        continue;
      TlSource src = { 0 };
      g_autofree char *label = NULL;
      if (t->file)
        {
          src.kind = TL_SOURCE_FILE;
          src.path = g_file_get_path (t->file);
          label = g_file_get_basename (t->file);
          remember_file (t->file);
        }
      else
        {
          src.kind = TL_SOURCE_GENERATOR;
          src.generator = g_strdup (t->spec);
          src.seed = t->seed + i;
          label = g_strdup_printf (_("%s, seed %" G_GUINT64_FORMAT), t->spec, t->seed + i);
        }
      set_source (self, i, t->out[i], &t->stats[i], &src, label);
      tl_source_clear (&src);
      g_clear_object (&self->source_cancellable[i]);
    }
  tl_session_hide_message (self);
  if (tl_session_results_are_stale (self))
    {
      /* every view marks or clears what the old inputs gave */
      g_signal_emit (self, signals[SIGNAL_RESULTS_CHANGED], 0);
      tl_session_set_status (self, _("A or B changed: the results are from the previous inputs (press Run)."));
    }
  state_changed (self);
}

static void
start_source_task (TlSession *self, SourceTask *t)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  for (int i = 0; i < 2; i++)
    if (t->targets & (1u << i))
      {
        if (self->source_cancellable[i])
          g_cancellable_cancel (self->source_cancellable[i]);
        g_set_object (&self->source_cancellable[i], cancellable);
      }
  self->n_pending_sources++;
  g_autoptr (GTask) task = g_task_new (self, cancellable, source_done_cb, NULL);
  g_task_set_task_data (task, t, (GDestroyNotify) source_task_free);
  g_task_run_in_thread (task, source_thread);
  state_changed (self);
}

void
tl_session_load_source (TlSession *self, guint target, GFile *file)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_return_if_fail (target == TL_TARGET_A || target == TL_TARGET_B);

  SourceTask *t = g_new0 (SourceTask, 1);
  t->targets = target;
  t->file = g_object_ref (file);
  start_source_task (self, t);
}

void
tl_session_generate (TlSession *self, guint targets, const char *spec, gsize rows, gsize cols,
                     TlDtype dtype, guint64 seed)
{
  g_return_if_fail (TL_IS_SESSION (self));
  g_return_if_fail (spec != NULL);

  SourceTask *t = g_new0 (SourceTask, 1);
  t->targets = targets & (TL_TARGET_A | TL_TARGET_B);
  t->spec = g_strdup (spec);
  t->rows = rows;
  t->cols = cols;
  t->dtype = dtype;
  t->seed = seed;
  start_source_task (self, t);
}

gboolean
tl_session_generate_from_option (TlSession *self, const char *spec_n, TlDtype dtype, GError **error)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);

  const char *colon = strrchr (spec_n, ':');
  guint64 n = 0;
  if (colon == NULL || !g_ascii_string_to_unsigned (colon + 1, 10, 1, G_MAXINT32, &n, NULL))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("--generate wants SPEC:N, e.g. random-uniform:512 (got “%s”)"), spec_n);
      return FALSE;
    }
  g_autofree char *spec = g_strndup (spec_n, colon - spec_n);
  g_autofree char *name = g_strdup (spec);
  char *c = strchr (name, ':');
  if (c)
    *c = '\0';
  if (tl_generator_find (name) == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("Unknown generator “%s”"), name);
      return FALSE;
    }
  tl_session_generate (self, TL_TARGET_A | TL_TARGET_B, spec, n, n, dtype, 1);
  return TRUE;
}

TlMatrix *
tl_session_get_source (TlSession *self, guint index)
{
  g_return_val_if_fail (TL_IS_SESSION (self) && index < 2, NULL);
  return self->src[index];
}

const TlMatrixStats *
tl_session_get_source_stats (TlSession *self, guint index)
{
  g_return_val_if_fail (TL_IS_SESSION (self) && index < 2, NULL);
  return &self->src_stats[index];
}

const char *
tl_session_get_source_label (TlSession *self, guint index)
{
  g_return_val_if_fail (TL_IS_SESSION (self) && index < 2, NULL);
  return self->src_label[index];
}

/* ---- showing a record ------------------------------------------------------ */

static void
show_record (TlSession *self, TlRunRecord *record, gboolean with_sources)
{
  g_clear_pointer (&self->record, tl_run_record_unref);
  self->record = record;
  self->results_from_file = with_sources;

  if (with_sources)
    for (int i = 0; i < 2; i++)
      {
        TlMatrix *m = i == 0 ? record->a : record->b;
        TlMatrixStats st = { 0 };
        if (record->has_input_stats)
          st = i == 0 ? record->a_stats : record->b_stats;
        if (m && record->job)
          set_source (self, i, m, &st, i == 0 ? &record->job->a : &record->job->b,
                      _("from the run record"));
      }
  /* a record that carries its inputs brought them along; one without them
   * belongs to the A and B shown only when there are none */
  if (!with_sources || (record->a && record->b) || (self->src[0] == NULL && self->src[1] == NULL))
    self->results_serial = self->inputs_serial;
  else
    self->results_serial = self->inputs_serial - 1;
  if (with_sources && record->job)
    {
      GString *s = g_string_new (NULL);
      g_string_append_printf (s, _("Run record from %s (%s)"),
                              record->machine.host_name ? record->machine.host_name : "?",
                              record->created ? record->created : "?");
      if (record->has_device)
        g_string_append_printf (s, " · %s", record->device.name);
      tl_session_set_status (self, s->str);
      g_string_free (s, TRUE);
    }
  g_signal_emit (self, signals[SIGNAL_RESULTS_CHANGED], 0);
}

static void
add_to_history (TlSession *self, TlRunRecord *record)
{
  g_ptr_array_add (self->history, record);
  g_signal_emit (self, signals[SIGNAL_HISTORY_CHANGED], 0);
}

static void
set_lu_record (TlSession *self, TlLuRecorder *lu)
{
  g_clear_pointer (&self->lu, tl_lu_recorder_free);
  self->lu = lu;
  g_signal_emit (self, signals[SIGNAL_LU_RECORD_CHANGED], 0);
}

/* ---- run records from files ------------------------------------------------ */

typedef struct
{
  TlRunRecord *record;  /* a GEMM run record, with its matrices when beside it */
  TlLuRecorder *lu;     /* a Gauss record (alone, or in the run record's extensions) */
} RecordFile;

static void
record_file_free (RecordFile *r)
{
  g_clear_pointer (&r->record, tl_run_record_unref);
  g_clear_pointer (&r->lu, tl_lu_recorder_free);
  g_free (r);
}

static void
record_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  g_autofree char *path = g_file_get_path (data);
  TlRenderInput input = { 0 };

  /* tl-render knows both kinds: run records and Gauss records */
  if (path == NULL || !tl_render_input_load (&input, path, &error))
    {
      if (error == NULL)
        g_set_error (&error, TL_ERROR, TL_ERROR_IO, _("Only local files can be opened"));
      g_task_return_error (task, error);
      return;
    }
  RecordFile *r = g_new0 (RecordFile, 1);
  r->lu = g_steal_pointer (&input.lu);
  if (input.record)
    {
      /* again, with the matrices that travel beside it */
      r->record = tl_run_record_load (path, TL_RECORD_LOAD_MATRICES, NULL);
      if (r->record == NULL)
        r->record = g_steal_pointer (&input.record);
    }
  tl_render_input_clear (&input);
  g_task_return_pointer (task, r, (GDestroyNotify) record_file_free);
}

static void
record_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = TL_SESSION (object);
  g_autoptr (GError) error = NULL;
  GFile *file = g_task_get_task_data (G_TASK (result));
  RecordFile *r = g_task_propagate_pointer (G_TASK (result), &error);

  self->n_pending_sources--;
  if (r == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *what = g_strdup_printf (_("Could not open the record “%s”; what was shown stays."),
                                                   g_file_peek_path (file));
          tl_session_report_error (self, what, error);
        }
      state_changed (self);
      return;
    }
  tl_session_hide_message (self);
  remember_file (file);
  gboolean is_lu = r->record && r->record->job && g_strcmp0 (r->record->job->kind, "lu") == 0;
  gboolean has_lu = r->lu != NULL || is_lu;
  gboolean has_gemm = r->record && r->record->runs->len > 0 && !is_lu;
  /* an LU run record stands beside the GEMM record on show, never in its place */
  if (is_lu)
    {
      g_clear_pointer (&self->lu_run, tl_run_record_unref);
      self->lu_run = g_steal_pointer (&r->record);
      g_autofree char *status = g_strdup_printf (_("LU record from %s (%s)%s%s"),
                                                 self->lu_run->machine.host_name ? self->lu_run->machine.host_name : "?",
                                                 self->lu_run->created ? self->lu_run->created : "?",
                                                 self->lu_run->has_device ? " · " : "",
                                                 self->lu_run->has_device ? self->lu_run->device.name : "");
      tl_session_set_status (self, status);
    }
  if (r->lu)
    set_lu_record (self, g_steal_pointer (&r->lu));
  else if (is_lu)
    g_signal_emit (self, signals[SIGNAL_LU_RECORD_CHANGED], 0);
  if (has_gemm)
    {
      add_to_history (self, tl_run_record_ref (r->record));
      show_record (self, g_steal_pointer (&r->record), TRUE);
    }
  record_file_free (r);
  state_changed (self);
  g_signal_emit (self, signals[SIGNAL_RECORD_OPENED], 0, has_gemm, has_lu);
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
  g_autoptr (GTask) task = g_task_new (self, self->record_cancellable, record_done_cb, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, record_thread);
  state_changed (self);
}

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
  g_autofree char *text = p->kernel_id
    ? g_strdup_printf ("%s: %s", tl_run_text_kernel_title (p->kernel_id), p->stage)
    : g_strdup (p->stage);
  if (is_sweep_job (self, p->job_id))
    {
      g_autofree char *t2 = g_strdup_printf (_("size sweep (%u left) · %s"), self->n_sweep_pending, text);
      set_progress (self, t2, CLAMP (p->fraction, 0, 1));
    }
  else
    set_progress (self, text, CLAMP (p->fraction, 0, 1));
}

static void
kernel_finished_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, TlSession *self)
{
  if (job_id != self->job_id)
    return;
  g_ptr_array_add (self->live_runs, tl_kernel_run_copy (run));

  GString *s = g_string_new (_("last: "));
  tl_run_text_describe (run, tl_stats_gemm_flops (self->job_m, self->job_k, self->job_n), s);
  tl_session_set_status (self, s->str);
  g_string_free (s, TRUE);
  g_signal_emit (self, signals[SIGNAL_RESULTS_CHANGED], 0);
}

static void
set_running (TlSession *self, gboolean running)
{
  self->running = running;
  if (!running)
    set_progress (self, _("idle"), 0);
  state_changed (self);
}

static void
run_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);

  if (record == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tl_session_report (self, GTK_MESSAGE_WARNING,
                           _("The run was cancelled. The kernels that finished before are still shown."));
      else
        tl_session_report_error (self, _("The run failed."), error);
    }
  else
    {
      add_to_history (self, tl_run_record_ref (record));
      show_record (self, record, FALSE);
      if (record->note)
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
  if (a->cols != b->rows)
    {
      g_autofree char *t = g_strdup_printf (
        _("Size mismatch: A is %zu×%zu but B is %zu×%zu. For C = A·B, A's columns (%zu) must equal B's rows (%zu).\n"
          "Open or generate a B with %zu rows."),
        a->rows, a->cols, b->rows, b->cols, a->cols, b->rows, a->cols);
      tl_session_report (self, GTK_MESSAGE_ERROR, t);
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
  /* CPU kernels leave one core to the window, so it keeps drawing while a
   * run uses every other core (the run's thread count is in its facts;
   * tilelab-cli uses them all) */
  job->threads = MAX (1, g_get_num_processors () - 1);
  job->device = settings->device;

  tl_session_hide_message (self);
  self->job_m = job->m;
  self->job_k = job->k;
  self->job_n = job->n;
  self->job_dtype = job->dtype;
  g_ptr_array_set_size (self->live_runs, 0);
  g_clear_pointer (&self->record, tl_run_record_unref);
  self->results_serial = self->inputs_serial;
  self->results_from_file = FALSE;
  g_signal_emit (self, signals[SIGNAL_RESULTS_CHANGED], 0);

  self->run_cancellable = g_cancellable_new ();
  self->job_id = tl_runner_run_gemm_async (self->runner, job, self->run_cancellable, run_done_cb,
                                           g_object_ref (self));
  set_progress (self, _("starting"), 0);
  set_running (self, TRUE);
  return TRUE;
}

static void
sweep_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);

  self->n_sweep_pending--;
  if (record)
    add_to_history (self, record);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    tl_session_report_error (self, _("A size-sweep run failed."), error);
  if (self->n_sweep_pending == 0)
    {
      g_clear_object (&self->run_cancellable);
      set_running (self, FALSE);
    }
  g_object_unref (self);
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
  gsize top = self->src[0] ? MAX (self->src[0]->rows, 256) : 1024;

  tl_session_hide_message (self);
  self->run_cancellable = g_cancellable_new ();
  for (gsize n = 128; n <= top; n *= 2)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (n, n, n, settings->dtype);
      for (int i = 0; i < 2; i++)
        {
          TlSource *s = i == 0 ? &job->a : &job->b;
          tl_source_clear (s);
          s->kind = TL_SOURCE_GENERATOR;
          s->generator = g_strdup ("random-uniform");
          s->seed = 1 + i;
        }
      g_strfreev (job->kernels);
      job->kernels = g_strdupv ((GStrv) settings->kernels);
      job->repeats = settings->repeats;
      job->warmups = 1;
      job->device = settings->device;
      guint id = tl_runner_run_gemm_async (self->runner, job, self->run_cancellable, sweep_done_cb,
                                           g_object_ref (self));
      g_hash_table_add (self->sweep_jobs, GUINT_TO_POINTER (id));
      self->n_sweep_pending++;
    }
  set_running (self, TRUE);
  return TRUE;
}

void
tl_session_cancel (TlSession *self)
{
  g_return_if_fail (TL_IS_SESSION (self));
  if (self->run_cancellable)
    g_cancellable_cancel (self->run_cancellable);
  set_progress (self, _("cancelling…"), 0);
}

gboolean
tl_session_is_running (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  return self->running;
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

/* ---- Gauss --------------------------------------------------------------- */

static void
lu_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  g_autoptr (GError) error = NULL;
  TlLuRecorder *lu = tl_app_jobs_record_lu_finish (TL_RUNNER (object), result, &error);

  g_clear_object (&self->lu_cancellable);
  if (lu)
    {
      /* the player's record is now A's, not the LU run record's */
      g_clear_pointer (&self->lu_run, tl_run_record_unref);
      set_lu_record (self, lu);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    tl_session_report_error (self, _("Could not factor A."), error);
  state_changed (self);
  g_object_unref (self);
}

gboolean
tl_session_factor (TlSession *self, const char *kernel_id, gsize block_size)
{
  g_return_val_if_fail (TL_IS_SESSION (self), FALSE);
  if (self->src[0] == NULL || self->lu_cancellable || kernel_id == NULL)
    return FALSE;
  self->lu_cancellable = g_cancellable_new ();
  tl_app_jobs_record_lu_async (self->runner, kernel_id, self->src[0], block_size, self->lu_cancellable,
                               lu_done_cb, g_object_ref (self));
  state_changed (self);
  return TRUE;
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
  return self->lu;
}

/* ---- devices ------------------------------------------------------------- */

static void
probe_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = user_data;
  GArray *gpus = tl_app_jobs_probe_devices_finish (TL_RUNNER (object), result, NULL);

  if (gpus)
    {
      g_clear_pointer (&self->gpus, g_array_unref);
      self->gpus = gpus;
    }
  self->probe_done = TRUE;
  g_signal_emit (self, signals[SIGNAL_DEVICES_CHANGED], 0);
  state_changed (self);
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
  tl_app_jobs_probe_devices_async (self->runner, self->probe_cancellable, probe_done_cb, g_object_ref (self));
  state_changed (self);
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

/* The runner's worker (and the CPU kernels' threads it starts, which
 * inherit its nice value) runs at a lower priority than the main loop, so a
 * CPU run on every core still leaves the window answering.  Threads inherit
 * the nice value of the thread that creates them, and an unprivileged
 * process can raise but not lower it: so a short-lived thread raises its
 * own and creates the runner. */
static gpointer
runner_thread (gpointer data)
{
#ifdef __linux__
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 5);
#endif
  return tl_runner_new (0);
}

static TlRunner *
new_background_runner (void)
{
  GThread *t = g_thread_new ("tl-runner-start", runner_thread, NULL);
  return g_thread_join (t);
}

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
    }
  g_ptr_array_unref (self->live_runs);
  g_ptr_array_unref (self->history);
  g_hash_table_unref (self->sweep_jobs);
  g_clear_pointer (&self->record, tl_run_record_unref);
  g_clear_pointer (&self->lu, tl_lu_recorder_free);
  g_clear_pointer (&self->lu_run, tl_run_record_unref);
  g_clear_pointer (&self->gpus, g_array_unref);
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
  signals[id] = g_signal_new (name, type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0)
  SIGNAL0 (SIGNAL_RESULTS_CHANGED, "results-changed");
  SIGNAL0 (SIGNAL_HISTORY_CHANGED, "history-changed");
  SIGNAL0 (SIGNAL_LU_RECORD_CHANGED, "lu-record-changed");
  SIGNAL0 (SIGNAL_DEVICES_CHANGED, "devices-changed");
  SIGNAL0 (SIGNAL_STATE_CHANGED, "state-changed");
#undef SIGNAL0
  signals[SIGNAL_SOURCE_CHANGED] = g_signal_new ("source-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                 NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_MESSAGE] = g_signal_new ("message", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_DOUBLE);
  signals[SIGNAL_STATUS] = g_signal_new ("status", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_RECORD_OPENED] = g_signal_new ("record-opened", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                                NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN);
}

static void
tl_session_init (TlSession *self)
{
  self->live_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  self->history = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_unref);
  self->sweep_jobs = g_hash_table_new (NULL, NULL);
  self->gpus = g_array_new (FALSE, TRUE, sizeof (TlGpuFacts));
  self->job_dtype = TL_DTYPE_FLOAT32;
  self->inputs_serial = 1;

  /* one worker owns the GPU; it opens it lazily, never here */
  self->runner = new_background_runner ();
  g_signal_connect (self->runner, "progress", G_CALLBACK (progress_cb), self);
  g_signal_connect (self->runner, "kernel-finished", G_CALLBACK (kernel_finished_cb), self);
}

TlSession *
tl_session_new (void)
{
  return g_object_new (TL_TYPE_SESSION, NULL);
}
