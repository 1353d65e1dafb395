/* tl-session-sources.c — A and B: loaded and generated off the main loop. */
#include "tl-session-private.h"
#include "tl-recent-menu.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"

/* ---- sources --------------------------------------------------------------- */

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


/* opened files go to the desktop's recent files (and the Open menu) */
void
tl_session_remember_file (GFile *file)
{
  tl_recent_add (file);
}

void
tl_session_forget_file_if_gone (GFile *file)
{
  if (g_file_is_native (file) && !g_file_query_exists (file, NULL))
    {
      g_autofree char *uri = g_file_get_uri (file);
      GtkRecentManager *recent = gtk_recent_manager_get_default ();
      if (gtk_recent_manager_has_item (recent, uri))
        gtk_recent_manager_remove_item (recent, uri, NULL);
    }
}

void
tl_session_set_source (TlSession *self, guint i, TlMatrix *m, const TlMatrixStats *stats,
            const TlSource *source, const char *label)
{
  self->src_stats[i] = *stats;
  g_clear_pointer (&self->src[i], tl_matrix_unref);
  self->src[i] = tl_matrix_ref (m);
  tl_source_clear (&self->src_source[i]);
  tl_source_copy_into (source, &self->src_source[i]);
  g_free (self->src_label[i]);
  self->src_label[i] = g_strdup (label);
  g_clear_pointer (&self->src_failure[i], g_free);
  self->inputs_serial++;
  g_signal_emit (self, tl_session_signals[SIGNAL_SOURCE_CHANGED], 0, i);
}

void
tl_session_take_record_sources (TlSession *self, const TlRunRecord *record)
{
  for (guint i = 0; i < 2 && record->job; i++)
    {
      TlMatrix *m = i == 0 ? record->a : record->b;
      TlMatrixStats st = { 0 };
      if (record->has_input_stats)
        st = i == 0 ? record->a_stats : record->b_stats;
      if (m)
        tl_session_set_source (self, i, m, &st, i == 0 ? &record->job->a : &record->job->b,
                               _("from the run record"));
    }
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
  guint errors_reported;  /* the session's count when this task started */
  TlLoadProgress progress; /* the file's, written by the worker */
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
          /* streamed, polling the cancellable at every window: a new
           * file for this slot, or Escape, stops a long load */
          t->out[i] = path ? tl_matrix_load_watched (path, TL_FORMAT_AUTO, cancellable,
                                                     &t->progress, NULL, &error)
                           : NULL;
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
  /* the card of A or B says it too, beside what it still shows */
  g_autofree char *name_shown = t->file ? g_file_get_basename (t->file) : g_strdup (t->spec);
  /* (the card names the file once: not again as the reader's "PATH: " prefix) */
  g_autofree char *prefix = g_strdup_printf ("%s: ", path);
  const char *reason = g_str_has_prefix (why, prefix) ? why + strlen (prefix) : why;
  for (guint k = 0; k < 2; k++)
    if (t->targets & (1u << k))
      {
        g_free (self->src_failure[k]);
        self->src_failure[k] = t->file
          /* TRANSLATORS: on A's or B's card: "could not open “bad.npy”: Line 5, column 1: …" */
          ? g_strdup_printf (_("could not open “%s”: %s"), name_shown, reason)
          : g_strdup_printf (_("could not generate “%s”: %s"), name_shown, reason);
      }
  /* A and B opened together, both failing: the message says both */
  g_autofree char *earlier = self->errors_reported != t->errors_reported
                             ? g_steal_pointer (&self->failures_shown) : NULL;
  g_autofree char *all = earlier ? g_strdup_printf ("%s\n%s", earlier, text) : g_strdup (text);
  tl_session_report (self, GTK_MESSAGE_ERROR, all);
  self->failures_shown = g_steal_pointer (&all);
  if (t->file)
    tl_session_forget_file_if_gone (t->file);
}

/* ---- how far the files being read are, in the progress bar ---------------- */

static void
show_load_progress (TlSession *self)
{
  if (self->running || self->loads->len == 0)
    return; /* a run's progress has the bar */
  guint64 done = 0, size = 0;
  for (guint k = 0; k < self->loads->len; k++)
    {
      SourceTask *t = g_ptr_array_index (self->loads, k);
      done += (gsize) g_atomic_pointer_get (&t->progress.done);
      size += (gsize) g_atomic_pointer_get (&t->progress.size);
    }
  double fraction = size > 0 ? CLAMP ((double) done / (double) size, 0, 1) : 0;
  g_autofree char *text = NULL;
  if (self->loads->len == 1)
    {
      SourceTask *t = g_ptr_array_index (self->loads, 0);
      g_autofree char *name = g_file_get_basename (t->file);
      /* TRANSLATORS: "Loading big.npy as A… 45 %" */
      text = g_strdup_printf (_("Loading %s as %s… %.0f %%"), name,
                              t->targets & TL_TARGET_A ? "A" : "B", 100 * fraction);
    }
  else
    text = g_strdup_printf (_("Loading %u files… %.0f %%"), self->loads->len, 100 * fraction);
  tl_session_set_progress (self, text, fraction);
}

/* the cards of A and B follow their loads */
static void
emit_loading (TlSession *self, guint targets)
{
  for (guint i = 0; i < 2; i++)
    if (targets & (1u << i))
      g_signal_emit (self, tl_session_signals[SIGNAL_SOURCE_LOADING], 0, i);
}

static gboolean
load_tick_cb (gpointer self)
{
  show_load_progress (self);
  guint targets = 0;
  for (guint k = 0; k < TL_SESSION (self)->loads->len; k++)
    targets |= ((SourceTask *) g_ptr_array_index (TL_SESSION (self)->loads, k))->targets;
  emit_loading (self, targets);
  return G_SOURCE_CONTINUE;
}

char *
tl_session_get_source_loading (TlSession *self, guint index, double *fraction)
{
  g_return_val_if_fail (TL_IS_SESSION (self) && index < 2, NULL);
  /* the newest load of this slot: an older one, replaced, is ending */
  for (guint k = self->loads->len; k-- > 0;)
    {
      SourceTask *t = g_ptr_array_index (self->loads, k);
      if (!(t->targets & (1u << index)))
        continue;
      gsize done = (gsize) g_atomic_pointer_get (&t->progress.done);
      gsize size = (gsize) g_atomic_pointer_get (&t->progress.size);
      if (fraction)
        *fraction = size > 0 ? CLAMP ((double) done / (double) size, 0, 1) : 0;
      return g_file_get_basename (t->file);
    }
  return NULL;
}

const char *
tl_session_get_source_failure (TlSession *self, guint index)
{
  g_return_val_if_fail (TL_IS_SESSION (self) && index < 2, NULL);
  return self->src_failure[index];
}

static void
load_started (TlSession *self, SourceTask *t)
{
  g_ptr_array_add (self->loads, t);
  if (self->load_ticker == 0)
    self->load_ticker = g_timeout_add (100, load_tick_cb, self);
  show_load_progress (self);
  for (guint i = 0; i < 2; i++)
    if (t->targets & (1u << i))
      g_clear_pointer (&self->src_failure[i], g_free); /* asked again */
  emit_loading (self, t->targets);
}

static void
load_ended (TlSession *self, SourceTask *t)
{
  if (!g_ptr_array_remove (self->loads, t) || self->loads->len > 0)
    return;
  g_clear_handle_id (&self->load_ticker, g_source_remove);
  if (!self->running && !tl_session_is_exporting (self))
    tl_session_set_progress (self, _("idle"), 0);
}

static void
source_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlSession *self = TL_SESSION (object);
  SourceTask *t = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->n_pending_sources--;
  load_ended (self, t);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* the previous sources stay as they were */
      /* a load another one replaced says nothing; one stopped by Escape does */
      guint i = t->targets & TL_TARGET_A ? 0 : 1;
      gboolean current = self->source_cancellable[i] == g_task_get_cancellable (G_TASK (result));
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        report_source_failure (self, t, error);
      else if (current && t->file)
        tl_session_set_status (self, self->src[i] ? _("Loading stopped; the previous matrix stays.")
                                                  : _("Loading stopped."));
      for (guint k = 0; k < 2; k++)
        if ((t->targets & (1u << k)) && self->source_cancellable[k] == g_task_get_cancellable (G_TASK (result)))
          g_clear_object (&self->source_cancellable[k]);
      emit_loading (self, t->targets);
      tl_session_state_changed (self);
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
          tl_session_remember_file (t->file);
        }
      else
        {
          src.kind = TL_SOURCE_GENERATOR;
          src.generator = g_strdup (t->spec);
          src.seed = t->seed + i;
          label = g_strdup_printf (_("%s, seed %" PRIu64), t->spec, t->seed + i);
        }
      tl_session_set_source (self, i, t->out[i], &t->stats[i], &src, label);
      tl_source_clear (&src);
      if (self->source_cancellable[i] == g_task_get_cancellable (G_TASK (result)))
        g_clear_object (&self->source_cancellable[i]);
    }
  /* an error shown meanwhile (the other matrix's) stays */
  gboolean failed_meanwhile = self->errors_reported != t->errors_reported;
  tl_session_hide_message_unless_error_since (self, t->errors_reported);
  /* said as the second matrix arrives, not only after Run */
  g_autofree char *mismatch = tl_session_mismatch_text (self);
  if (mismatch != NULL && !failed_meanwhile)
    tl_session_report (self, GTK_MESSAGE_WARNING, mismatch);
  if (tl_session_results_are_stale (self))
    {
      /* every view marks or clears what the old inputs gave */
      g_signal_emit (self, tl_session_signals[SIGNAL_RESULTS_CHANGED], 0);
      tl_session_set_status (self, _("A or B changed: the results are from the previous inputs (press Run)."));
    }
  emit_loading (self, t->targets);
  tl_session_state_changed (self);
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
  t->errors_reported = self->errors_reported;
  g_autoptr (GTask) task = g_task_new (self, cancellable, source_done_cb, NULL);
  g_task_set_task_data (task, t, (GDestroyNotify) source_task_free);
  g_task_run_in_thread (task, source_thread);
  tl_session_state_changed (self);
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
  load_started (self, t);
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

char *
tl_session_mismatch_text (TlSession *self)
{
  g_return_val_if_fail (TL_IS_SESSION (self), NULL);
  TlMatrix *a = self->src[0], *b = self->src[1];
  if (a == NULL || b == NULL || a->cols == b->rows)
    return NULL;
  return g_strdup_printf (_("Size mismatch: A is %zu×%zu but B is %zu×%zu. For C = A·B, A's columns (%zu) "
                            "must equal B's rows (%zu).\nOpen or generate a B with %zu rows."),
                          a->rows, a->cols, b->rows, b->cols, a->cols, b->rows, a->cols);
}
