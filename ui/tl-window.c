/* tl-window.c — the main window: sources, kernel list, runs, and the views. */
#include "tl-window.h"
#include "paint/tl-compare-bars.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "paint/tl-block-stats.h"
#include "tl-chart-view.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "tl-generate-dialog.h"
#include "tl-gpu.h"
#include "tl-heatmap-view.h"
#include "io/tl-io.h"
#include "gemm/tl-kernels.h"
#include "tl-lecture-pages.h"
#include "tl-render-area.h"
#include "paint/tl-render.h"
#include "run/tl-runner.h"
#include "core/tl-stats.h"

struct _TlWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget *header_bar;
  GtkWidget *backend_combo;
  GtkWidget *run_button;
  GtkWidget *cancel_button;
  GtkWidget *gpu_bar;
  GtkWidget *gpu_label;
  GtkWidget *info_bar;
  GtkWidget *info_label;
  GtkWidget *paned;
  GtkWidget *sidebar;
  GtkWidget *source_a_box;
  GtkWidget *source_b_box;
  GtkWidget *facts_a;
  GtkWidget *facts_b;
  GtkWidget *kernel_list;
  GtkWidget *dtype_combo;
  GtkWidget *repeats_spin;
  GtkWidget *view_stack;
  GtkWidget *c_combo;
  GtkWidget *colormap_combo;
  GtkWidget *scale_combo;
  GtkWidget *pool_combo;
  GtkWidget *shared_check;
  GtkWidget *tiles_check;
  GtkWidget *matrix_grid;
  GtkWidget *metric_combo;
  GtkWidget *bars_box;
  GtkWidget *sweep_box;
  GtkWidget *details_label;
  GtkWidget *device_label;
  GtkWidget *rung_combo;
  GtkWidget *rung_label;
  GtkWidget *hover_label;
  GtkWidget *progress_bar;
  GtkWidget *last_label;

  /* views built in code */
  TlHeatmapView *thumb[2];
  TlHeatmapView *hm_a, *hm_b, *hm_c, *hm_ref, *hm_err;
  GtkWidget *summary_label;
  TlChartView *bars;
  TlChartView *sweep;
  TlBlocksPage *blocks_page;
  TlGaussPage *gauss_page;
  TlSourcePage *source_page;

  /* sources: immutable once set */
  TlMatrix *src[2];
  TlSource src_source[2];
  char *src_label[2];
  TlMatrixStats src_stats[2];   /* computed off the main loop */
  GCancellable *source_cancellable[2];
  guint n_pending_sources;

  /* runs */
  TlRunner *runner;
  GCancellable *run_cancellable;
  guint job_id;
  gboolean running;
  gsize job_m, job_k, job_n;
  GPtrArray *live_runs;       /* TlKernelRun* of the job in flight (copies) */
  GHashTable *sweep_jobs;     /* job ids whose records only feed the sweep */
  guint n_sweep_pending;
  TlRunRecord *record;        /* shown in the views */
  GPtrArray *history;         /* TlRunRecord*, for the size sweep */
  GCancellable *diff_cancellable;
  GCancellable *record_cancellable;

  /* devices */
  GArray *gpus;               /* TlGpuFacts */
  gboolean gpu_probe_done;

  GSettings *settings;
  gboolean presentation;
  gboolean high_contrast;
  guint inhibit_cookie;       /* screen blanking held off while presenting */
  gint selected_bar;
  gboolean updating_c_combo;
};

G_DEFINE_FINAL_TYPE (TlWindow, tl_window, GTK_TYPE_APPLICATION_WINDOW)

static void update_compare (TlWindow *self);
static void update_c_view (TlWindow *self);
static void update_rung_facts (TlWindow *self);
static void update_sweep (TlWindow *self);
static void update_actions (TlWindow *self);

/* ---- the info bar: one place for every problem ------------------------- */

static void
show_message (TlWindow *self, GtkMessageType type, const char *text)
{
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), type);
  gtk_label_set_text (GTK_LABEL (self->info_label), text);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), TRUE);
}

static void
show_error (TlWindow *self, const char *what, const GError *error)
{
  g_autofree char *text = g_strdup_printf ("%s\n%s", what, error->message);
  show_message (self, GTK_MESSAGE_ERROR, text);
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

static void
hide_message (TlWindow *self)
{
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), FALSE);
}

static void
info_bar_response_cb (GtkInfoBar *bar, int response, TlWindow *self)
{
  hide_message (self);
}

/* ---- formatting -------------------------------------------------------- */

static char *
fmt (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (v))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.4g", v));
}

static const char *
kernel_title (const char *id)
{
  const TlKernelInfo *info = tl_kernel_find (id);
  return info ? _(info->title) : id;
}


/* ---- sources ----------------------------------------------------------- */

static void
update_source_facts (TlWindow *self, guint i)
{
  GtkLabel *label = GTK_LABEL (i == 0 ? self->facts_a : self->facts_b);
  const char *name = i == 0 ? "A" : "B";
  TlMatrix *m = self->src[i];

  if (m == NULL)
    {
      g_autofree char *t = g_strdup_printf (_("<b>%s</b>  empty\nOpen or generate a matrix."), name);
      gtk_label_set_markup (label, t);
      return;
    }

  const TlMatrixStats st = self->src_stats[i];
  g_autofree char *mn = fmt (st.n_finite ? st.min : NAN);
  g_autofree char *mx = fmt (st.n_finite ? st.max : NAN);
  g_autofree char *esc = g_markup_escape_text (self->src_label[i] ? self->src_label[i] : "", -1);
  g_autofree char *t = g_strdup_printf (_("<b>%s</b>  %zu×%zu  %s\nmin %s   max %s\nNaN %zu   Inf %zu\n<small>%s</small>"),
                                        name, m->rows, m->cols, tl_dtype_name (m->dtype), mn, mx,
                                        st.n_nan, st.n_inf, esc);
  gtk_label_set_markup (label, t);
}

static void
set_source (TlWindow *self, guint i, TlMatrix *m, const TlMatrixStats *stats,
            const TlSource *source, const char *label)
{
  self->src_stats[i] = *stats;
  g_clear_pointer (&self->src[i], tl_matrix_unref);
  self->src[i] = tl_matrix_ref (m);
  tl_source_clear (&self->src_source[i]);
  tl_source_copy_into (source, &self->src_source[i]);
  g_free (self->src_label[i]);
  self->src_label[i] = g_strdup (label);

  g_autofree char *caption = g_strdup (tl_dtype_name (m->dtype));
  tl_heatmap_view_set_matrix (self->thumb[i], m, NULL, NULL);
  tl_heatmap_view_set_matrix (i == 0 ? self->hm_a : self->hm_b, m, i == 0 ? "A" : "B", caption);
  if (i == 0 && self->gauss_page)
    tl_gauss_page_set_matrix (self->gauss_page, m);
  update_source_facts (self, i);
  update_actions (self);
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
source_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlWindow *self = TL_WINDOW (object);
  SourceTask *t = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->n_pending_sources--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* the previous sources stay as they were */
      g_autofree char *what = t->file
        ? g_strdup_printf (_("Could not open “%s” as %s; %s kept its previous matrix."),
                           g_file_peek_path (t->file) ? g_file_peek_path (t->file) : "?",
                           t->targets & TL_TARGET_A ? "A" : "B",
                           t->targets & TL_TARGET_A ? "A" : "B")
        : g_strdup_printf (_("Could not generate “%s” (%zu×%zu)."), t->spec, t->rows, t->cols);
      g_autofree char *why = t->file ? friendly_file_error (error) : g_strdup (error->message);
      g_autofree char *text = g_strdup_printf ("%s\n%s", what, why);
      show_message (self, GTK_MESSAGE_ERROR, text);
      update_actions (self);
      return;
    }

  for (int i = 0; i < 2; i++)
    {
      if (!(t->targets & (1u << i)))
        continue;
      TlSource src = {0};
      g_autofree char *label = NULL;
      if (t->file)
        {
          src.kind = TL_SOURCE_FILE;
          src.path = g_file_get_path (t->file);
          label = g_file_get_basename (t->file);
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
  hide_message (self);
  update_actions (self);
}

static void
start_source_task (TlWindow *self, SourceTask *t)
{
  GCancellable *cancellable = g_cancellable_new ();

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
  g_object_unref (cancellable);
  update_actions (self);
}

void
tl_window_load_source (TlWindow *self, guint target, GFile *file)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  g_return_if_fail (target == TL_TARGET_A || target == TL_TARGET_B);

  SourceTask *t = g_new0 (SourceTask, 1);
  t->targets = target;
  t->file = g_object_ref (file);
  start_source_task (self, t);
}

void
tl_window_generate (TlWindow *self, guint targets, const char *spec, gsize rows, gsize cols,
                    TlDtype dtype, guint64 seed)
{
  g_return_if_fail (TL_IS_WINDOW (self));
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
tl_window_generate_from_option (TlWindow *self, const char *spec_n, GError **error)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);

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
  TlDtype dtype = TL_DTYPE_FLOAT32;
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &dtype);
  tl_window_generate (self, TL_TARGET_A | TL_TARGET_B, spec, n, n, dtype, 1);
  return TRUE;
}

/* ---- run records from files -------------------------------------------- */

static void show_record (TlWindow *self, TlRunRecord *record, gboolean with_sources);

typedef struct
{
  TlRunRecord *record;  /* a GEMM run record, with its matrices when beside it */
  TlLuRecorder *lu;     /* a Gauss record (alone, or in the run record's extensions) */
} RecordFile;

static void
record_file_free (RecordFile *r)
{
  g_clear_pointer (&r->record, tl_run_record_free);
  g_clear_pointer (&r->lu, tl_lu_recorder_free);
  g_free (r);
}

static void
record_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  g_autofree char *path = g_file_get_path (data);
  TlRenderInput input = {0};

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
  TlWindow *self = TL_WINDOW (object);
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
          show_error (self, what, error);
        }
      update_actions (self);
      return;
    }
  hide_message (self);
  if (r->lu)
    {
      tl_gauss_page_take_record (self->gauss_page, g_steal_pointer (&r->lu));
      /* a Gauss record, alone or as an LU run record, opens on its player */
      if (r->record == NULL || r->record->job == NULL
          || g_strcmp0 (r->record->job->kind, "lu") == 0)
        tl_window_show_view (self, "gauss");
    }
  if (r->record && r->record->runs->len > 0)
    {
      g_ptr_array_add (self->history, tl_run_record_copy (r->record));
      show_record (self, g_steal_pointer (&r->record), TRUE);
      update_sweep (self);
    }
  record_file_free (r);
  update_actions (self);
}

void
tl_window_open_record (TlWindow *self, GFile *file)
{
  g_return_if_fail (TL_IS_WINDOW (self));

  if (self->record_cancellable)
    g_cancellable_cancel (self->record_cancellable);
  g_clear_object (&self->record_cancellable);
  self->record_cancellable = g_cancellable_new ();
  self->n_pending_sources++;
  g_autoptr (GTask) task = g_task_new (self, self->record_cancellable, record_done_cb, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, record_thread);
}

void
tl_window_open_files (TlWindow *self, GFile **files, int n_files)
{
  g_return_if_fail (TL_IS_WINDOW (self));

  guint next = 0;
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *base = g_file_get_basename (files[i]);
      if (base && g_str_has_suffix (base, ".json"))
        {
          tl_window_open_record (self, files[i]);
          continue;
        }
      guint target;
      if (n_files == 1)
        target = self->src[0] == NULL || self->src[1] != NULL ? TL_TARGET_A : TL_TARGET_B;
      else
        target = next++ == 0 ? TL_TARGET_A : TL_TARGET_B;
      tl_window_load_source (self, target, files[i]);
    }
}

/* ---- the kernel list ---------------------------------------------------- */

static gboolean
backend_is_cpu (TlWindow *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->backend_combo));
  return id == NULL || g_strcmp0 (id, "cpu") == 0;
}

static int
backend_device (TlWindow *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->backend_combo));
  if (id && g_str_has_prefix (id, "gpu"))
    return atoi (id + 3);
  return 0;
}

static void
update_kernel_sensitivity (TlWindow *self)
{
  gboolean cpu_only = backend_is_cpu (self);
  TlDtype dtype = TL_DTYPE_FLOAT32;
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &dtype);

  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      GtkWidget *check = g_object_get_data (l->data, "check");
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      gboolean ok = tl_kernel_supports (info, dtype) && !(cpu_only && info->backend == TL_BACKEND_GPU);
      gtk_widget_set_sensitive (check, ok);
    }
}

static void
kernel_toggled_cb (GtkToggleButton *button, TlWindow *self)
{
  update_actions (self);
}

static void
build_kernel_list (TlWindow *self)
{
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *info = tl_kernel_get (i);
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char *label = tl_kernel_display_name (info->id);
      g_autofree char *title_markup = g_markup_printf_escaped ("<b>%s</b>  <small>%s</small>", label,
                                                               info->backend == TL_BACKEND_CPU ? "CPU" : "GPU");
      g_autofree char *lesson = info->seed && *info->seed
        ? g_markup_printf_escaped (_("%s <i>(seed %s)</i>"), info->lesson && *info->lesson ? _(info->lesson) : "", info->seed)
        : g_markup_printf_escaped ("%s", info->lesson && *info->lesson ? _(info->lesson) : "");
      GtkWidget *t = gtk_label_new (NULL);
      GtkWidget *l = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (t), title_markup);
      gtk_label_set_xalign (GTK_LABEL (t), 0);
      gtk_label_set_markup (GTK_LABEL (l), lesson);
      gtk_label_set_xalign (GTK_LABEL (l), 0);
      gtk_label_set_line_wrap (GTK_LABEL (l), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (l), 40);
      gtk_style_context_add_class (gtk_widget_get_style_context (l), "lesson");
      gtk_box_pack_start (GTK_BOX (box), t, FALSE, FALSE, 0);
      gtk_box_pack_start (GTK_BOX (box), l, FALSE, FALSE, 0);
      gtk_container_add (GTK_CONTAINER (check), box);
      gtk_widget_set_tooltip_text (check, info->id);
      gtk_container_add (GTK_CONTAINER (row), check);
      g_object_set_data (G_OBJECT (row), "check", check);
      g_object_set_data (G_OBJECT (row), "info", (gpointer) info);
      g_object_set_data_full (G_OBJECT (check), "kernel-id", g_strdup (info->id), g_free);
      g_signal_connect (check, "toggled", G_CALLBACK (kernel_toggled_cb), self);
      gtk_widget_show_all (row);
      gtk_container_add (GTK_CONTAINER (self->kernel_list), row);
    }
}

void
tl_window_set_kernel_active (TlWindow *self, const char *kernel_id, gboolean active)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      if (g_strcmp0 (info->id, kernel_id) == 0)
        gtk_toggle_button_set_active (g_object_get_data (l->data, "check"), active);
    }
}

char **
tl_window_get_active_kernels (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    {
      GtkWidget *check = g_object_get_data (l->data, "check");
      const TlKernelInfo *info = g_object_get_data (l->data, "info");
      if (gtk_widget_get_sensitive (check) && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (check)))
        g_strv_builder_add (b, info->id);
    }
  return g_strv_builder_end (b);
}

static void
tick_defaults (TlWindow *self, gboolean have_gpu)
{
  const TlKernelInfo *lowest = NULL, *highest = NULL;

  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->kernel_list));
  for (GList *l = rows; l; l = l->next)
    gtk_toggle_button_set_active (g_object_get_data (l->data, "check"), FALSE);

  if (!have_gpu)
    {
      tl_window_set_kernel_active (self, "cpu-naive", TRUE);
      tl_window_set_kernel_active (self, "cpu-blocked", TRUE);
      tl_window_set_kernel_active (self, "cpu-openblas", TRUE);
      return;
    }
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *info = tl_kernel_get (i);
      if (info->backend != TL_BACKEND_GPU || info->reference
          || !tl_kernel_supports (info, TL_DTYPE_FLOAT32) || info->min_cc > 80)
        continue;
      if (lowest == NULL || info->number < lowest->number)
        lowest = info;
      if (highest == NULL || info->number > highest->number)
        highest = info;
    }
  tl_window_set_kernel_active (self, "cpu-naive", TRUE);
  if (lowest)
    tl_window_set_kernel_active (self, lowest->id, TRUE);
  if (highest)
    tl_window_set_kernel_active (self, highest->id, TRUE);
  tl_window_set_kernel_active (self, "cublas-fp32", TRUE);
}

/* ---- GPU probe (on a thread: CUDA is never initialised on the main loop) */

static void
gpu_probe_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GArray *gpus = g_array_new (FALSE, TRUE, sizeof (TlGpuFacts));
  int count = 0;

  if (tl_gpu_built_with_cuda () && tl_gpu_device_count (&count) == TL_GPU_OK)
    for (int i = 0; i < count; i++)
      {
        TlGpuFacts f;
        if (tl_gpu_device_facts (i, &f) == TL_GPU_OK)
          g_array_append_val (gpus, f);
      }
  g_task_return_pointer (task, gpus, (GDestroyNotify) g_array_unref);
}

static void
update_device_label (TlWindow *self)
{
  GString *s = g_string_new (NULL);
  const TlGpuFacts *shown = NULL;

  if (self->record && self->record->has_device)
    shown = &self->record->device;
  else if (self->gpus && self->gpus->len > 0)
    shown = &g_array_index (self->gpus, TlGpuFacts, MIN ((guint) backend_device (self), self->gpus->len - 1));

  if (shown)
    {
      if (self->record && shown == &self->record->device)
        g_string_append_printf (s, _("From the run record (%s)\n\n"),
                                self->record->machine.host_name ? self->record->machine.host_name : "?");
      g_string_append_printf (s,
        _("%s\ncompute capability   %d.%d\nSMs                  %d\nSM clock             %.0f MHz\n"
          "memory               %.1f GiB, %d-bit bus at %.0f MHz\nL2 cache             %.1f MiB\n"
          "shared memory        %d KiB per block (%d KiB opt-in), %d KiB per SM\n"
          "registers            %d per SM, %d per block\n"
          "threads              %d per block, %d per SM; %d blocks per SM; warp %d"),
        shown->name, shown->cc_major, shown->cc_minor, shown->sm_count, shown->clock_khz / 1000.0,
        shown->total_mem_bytes / 1073741824.0, shown->mem_bus_width_bits, shown->mem_clock_khz / 1000.0,
        shown->l2_bytes / 1048576.0, shown->smem_per_block_bytes / 1024,
        shown->smem_per_block_optin_bytes / 1024, shown->smem_per_sm_bytes / 1024,
        shown->regs_per_sm, shown->regs_per_block, shown->max_threads_per_block,
        shown->max_threads_per_sm, shown->max_blocks_per_sm, shown->warp_size);
    }
  else
    {
      TlMachineFacts m = {0};
      tl_machine_facts_read (&m);
      g_string_append_printf (s, _("No CUDA GPU in this session%s.\n\nCPU   %s\ncores %u\nhost  %s\nOS    %s\n\n"
                                   "Open a run record made with tilelab-cli on a GPU server\n"
                                   "(Open ▾ → Open Run Record…, Ctrl+J) to see its GPU here."),
                              tl_gpu_built_with_cuda () ? "" : _(" (built without CUDA)"),
                              m.cpu_model ? m.cpu_model : "?", m.cores,
                              m.host_name ? m.host_name : "?", m.os ? m.os : "?");
      tl_machine_facts_clear (&m);
    }
  gtk_label_set_text (GTK_LABEL (self->device_label), s->str);
  g_string_free (s, TRUE);
}

static void
gpu_probe_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlWindow *self = TL_WINDOW (object);
  GArray *gpus = g_task_propagate_pointer (G_TASK (result), NULL);

  self->gpu_probe_done = TRUE;
  g_clear_pointer (&self->gpus, g_array_unref);
  self->gpus = gpus;

  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->backend_combo));
  for (guint i = 0; gpus && i < gpus->len; i++)
    {
      TlGpuFacts *f = &g_array_index (gpus, TlGpuFacts, i);
      g_autofree char *id = g_strdup_printf ("gpu%d", f->ordinal);
      g_autofree char *text = g_strdup_printf (_("GPU %d: %s"), f->ordinal, f->name);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->backend_combo), id, text);
    }
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->backend_combo), "cpu", _("CPU"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->backend_combo), 0);

  gboolean have_gpu = gpus && gpus->len > 0;
  if (!have_gpu)
    {
      gtk_label_set_text (GTK_LABEL (self->gpu_label),
                          tl_gpu_built_with_cuda ()
                            ? _("No CUDA GPU found — running on the CPU")
                            : _("No CUDA GPU found — running on the CPU (this build has no CUDA)"));
      gtk_info_bar_set_revealed (GTK_INFO_BAR (self->gpu_bar), TRUE);
    }
  tick_defaults (self, have_gpu);
  update_kernel_sensitivity (self);
  update_device_label (self);
  update_actions (self);
}

/* ---- running ----------------------------------------------------------- */

static void
progress_cb (TlRunner *runner, const TlRunProgress *p, TlWindow *self)
{
  if (p->job_id != self->job_id && !g_hash_table_contains (self->sweep_jobs, GUINT_TO_POINTER (p->job_id)))
    return;
  g_autofree char *text = p->kernel_id
    ? g_strdup_printf ("%s: %s", kernel_title (p->kernel_id), p->stage)
    : g_strdup (p->stage);
  if (g_hash_table_contains (self->sweep_jobs, GUINT_TO_POINTER (p->job_id)))
    {
      g_autofree char *t2 = g_strdup_printf (_("size sweep (%u left) · %s"), self->n_sweep_pending, text);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), t2);
    }
  else
    gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), CLAMP (p->fraction, 0, 1));
}

static void
describe_run_short (const TlKernelRun *run, double flops, GString *s)
{
  g_autofree char *label = tl_kernel_display_name (run->kernel_id);
  if (run->status != TL_RUN_OK)
    {
      g_string_append_printf (s, _("%s: %s"), label, run->message ? run->message : tl_run_status_name (run->status));
      return;
    }
  char num[64];
  g_ascii_formatd (num, sizeof num, "%.3f", run->time.median);
  g_string_append_printf (s, _("%s: %s ms"), label, num);
  double g = tl_stats_gflops (flops, run->time.median);
  if (!isnan (g))
    {
      g_ascii_formatd (num, sizeof num, "%.1f", g);
      g_string_append_printf (s, _(", %s GFLOP/s"), num);
    }
  if (!isnan (run->percent_of_reference) && run->percent_of_reference > 0)
    g_string_append_printf (s, _(", %.0f%% of %s"), run->percent_of_reference,
                            run->reference_id ? kernel_title (run->reference_id) : "reference");
  if (run->verified)
    g_string_append (s, run->passed ? _(", verified") : _(", WRONG RESULT"));
}

static void
kernel_finished_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, TlWindow *self)
{
  if (job_id != self->job_id)
    return;
  g_ptr_array_add (self->live_runs, tl_kernel_run_copy (run));

  GString *s = g_string_new (_("last: "));
  describe_run_short (run, tl_stats_gemm_flops (self->job_m, self->job_k, self->job_n), s);
  gtk_label_set_text (GTK_LABEL (self->last_label), s->str);
  g_string_free (s, TRUE);

  update_compare (self);
  update_c_view (self);
  update_rung_facts (self);
}

static void
set_running (TlWindow *self, gboolean running)
{
  self->running = running;
  if (!running)
    {
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("idle"));
    }
  update_actions (self);
}

static void
run_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);
  if (record == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, GTK_MESSAGE_WARNING,
                      _("The run was cancelled. The kernels that finished before are still shown."));
      else
        show_error (self, _("The run failed."), error);
    }
  else
    {
      g_ptr_array_add (self->history, tl_run_record_copy (record));
      show_record (self, record, FALSE);
      update_sweep (self);
      if (record->note)
        show_message (self, GTK_MESSAGE_INFO, record->note);
    }
  g_clear_object (&self->run_cancellable);
  set_running (self, self->n_sweep_pending > 0);
  g_object_unref (self);
}

gboolean
tl_window_run (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);

  if (self->running)
    return FALSE;
  if (self->src[0] == NULL || self->src[1] == NULL)
    {
      show_message (self, GTK_MESSAGE_WARNING, _("Load or generate both A and B before running."));
      return FALSE;
    }
  if (self->src[0]->cols != self->src[1]->rows)
    {
      g_autofree char *t = g_strdup_printf (
        _("Size mismatch: A is %zu×%zu but B is %zu×%zu. For C = A·B, A's columns (%zu) must equal B's rows (%zu).\n"
          "Open or generate a B with %zu rows."),
        self->src[0]->rows, self->src[0]->cols, self->src[1]->rows, self->src[1]->cols,
        self->src[0]->cols, self->src[1]->rows, self->src[0]->cols);
      show_message (self, GTK_MESSAGE_ERROR, t);
      return FALSE;
    }
  g_auto (GStrv) kernels = tl_window_get_active_kernels (self);
  if (kernels == NULL || kernels[0] == NULL)
    {
      show_message (self, GTK_MESSAGE_WARNING, _("Tick at least one kernel in the sidebar."));
      return FALSE;
    }

  TlDtype dtype = TL_DTYPE_FLOAT32;
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &dtype);
  g_autoptr (TlJob) job = tl_job_new_gemm (self->src[0]->rows, self->src[0]->cols,
                                           self->src[1]->cols, dtype);
  tl_source_clear (&job->a);
  tl_source_clear (&job->b);
  tl_source_copy_into (&self->src_source[0], &job->a);
  tl_source_copy_into (&self->src_source[1], &job->b);
  job->a_matrix = tl_matrix_ref (self->src[0]);
  job->b_matrix = tl_matrix_ref (self->src[1]);
  g_strfreev (job->kernels);
  job->kernels = g_strdupv (kernels);
  job->repeats = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->repeats_spin));
  job->warmups = 1;
  job->keep_matrices = TRUE;
  job->instrument = TRUE; /* per-block (per-tile) timing for the Blocks view */
  /* CPU kernels leave one core to the window, so it keeps drawing while a
   * run uses every other core (the run's thread count is in its facts;
   * tilelab-cli uses them all) */
  job->threads = MAX (1, g_get_num_processors () - 1);
  job->device = backend_device (self);

  hide_message (self);
  self->job_m = job->m;
  self->job_k = job->k;
  self->job_n = job->n;
  g_ptr_array_set_size (self->live_runs, 0);
  tl_blocks_page_set_record (self->blocks_page, NULL);
  tl_source_page_set_record (self->source_page, NULL);
  g_clear_pointer (&self->record, tl_run_record_free);
  tl_heatmap_view_set_matrix (self->hm_c, NULL, NULL, NULL);
  tl_heatmap_view_set_matrix (self->hm_err, NULL, NULL, NULL);
  tl_heatmap_view_set_matrix (self->hm_ref, NULL, NULL, NULL);
  update_compare (self);
  update_c_view (self);

  self->run_cancellable = g_cancellable_new ();
  self->job_id = tl_runner_run_gemm_async (self->runner, job, self->run_cancellable, run_done_cb,
                                           g_object_ref (self));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("starting"));
  set_running (self, TRUE);
  return TRUE;
}

static void
sweep_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_runner_run_gemm_finish (TL_RUNNER (object), result, &error);

  self->n_sweep_pending--;
  if (record)
    {
      g_ptr_array_add (self->history, record);
      update_sweep (self);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, _("A size-sweep run failed."), error);
  if (self->n_sweep_pending == 0)
    {
      g_clear_object (&self->run_cancellable);
      set_running (self, FALSE);
    }
  g_object_unref (self);
}

static void
start_sweep (TlWindow *self)
{
  if (self->running)
    return;
  g_auto (GStrv) kernels = tl_window_get_active_kernels (self);
  if (kernels == NULL || kernels[0] == NULL)
    {
      show_message (self, GTK_MESSAGE_WARNING, _("Tick at least one kernel in the sidebar."));
      return;
    }
  TlDtype dtype = TL_DTYPE_FLOAT32;
  tl_dtype_from_name (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)), &dtype);
  gsize top = self->src[0] ? MAX (self->src[0]->rows, 256) : 1024;

  hide_message (self);
  self->run_cancellable = g_cancellable_new ();
  for (gsize n = 128; n <= top; n *= 2)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (n, n, n, dtype);
      for (int i = 0; i < 2; i++)
        {
          TlSource *s = i == 0 ? &job->a : &job->b;
          tl_source_clear (s);
          s->kind = TL_SOURCE_GENERATOR;
          s->generator = g_strdup ("random-uniform");
          s->seed = 1 + i;
        }
      g_strfreev (job->kernels);
      job->kernels = g_strdupv (kernels);
      job->repeats = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->repeats_spin));
      job->warmups = 1;
      job->device = backend_device (self);
      guint id = tl_runner_run_gemm_async (self->runner, job, self->run_cancellable, sweep_done_cb,
                                           g_object_ref (self));
      g_hash_table_add (self->sweep_jobs, GUINT_TO_POINTER (id));
      self->n_sweep_pending++;
    }
  set_running (self, TRUE);
}

void
tl_window_cancel (TlWindow *self)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  if (self->run_cancellable)
    g_cancellable_cancel (self->run_cancellable);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("cancelling…"));
}

/* ---- showing results ---------------------------------------------------- */

static GPtrArray *
current_runs (TlWindow *self)
{
  if (self->record)
    return self->record->runs;
  return self->live_runs;
}

static void
current_size (TlWindow *self, gsize *m, gsize *k, gsize *n)
{
  if (self->record && self->record->job)
    {
      *m = self->record->job->m;
      *k = self->record->job->k;
      *n = self->record->job->n;
    }
  else
    {
      *m = self->job_m;
      *k = self->job_k;
      *n = self->job_n;
    }
}

static void
update_compare (TlWindow *self)
{
  GPtrArray *runs = current_runs (self);
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  TlCompareModel model;
  gsize m, k, n;

  current_size (self, &m, &k, &n);
  tl_compare_model_init (&model);
  g_autoptr (GArray) bars = tl_compare_bars_from_runs (runs, tl_stats_gemm_flops (m, k, n), TRUE,
                                                       strings, &model.baseline_index);
  model.bars = (const TlCompareBar *) bars->data;
  model.n_bars = bars->len;
  model.baseline_name = _("naive");
  g_autofree char *title = g_strdup_printf (_("C = A·B, %zu×%zu·%zu×%zu (%s)"), m, k, k, n,
                                            self->record && self->record->job
                                              ? tl_dtype_name (self->record->job->dtype)
                                              : gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->dtype_combo)));
  model.title = runs->len ? title : NULL;
  tl_chart_view_set_bars (self->bars, &model);
  update_actions (self);
}

typedef struct
{
  char *label;
  gboolean reference;
  GArray *points; /* pairs n, gflops */
} SweepLine;

static void
sweep_line_free (SweepLine *l)
{
  g_free (l->label);
  g_array_unref (l->points);
  g_free (l);
}

static int
cmp_points (gconstpointer a, gconstpointer b)
{
  double x = ((const double *) a)[0], y = ((const double *) b)[0];
  return (x > y) - (x < y);
}

static void
update_sweep (TlWindow *self)
{
  g_autoptr (GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) sweep_line_free);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();

  for (guint h = 0; h < self->history->len; h++)
    {
      const TlRunRecord *rec = self->history->pdata[h];
      if (rec->job == NULL)
        continue;
      double size = cbrt ((double) rec->job->m * rec->job->k * rec->job->n);
      double flops = tl_stats_gemm_flops (rec->job->m, rec->job->k, rec->job->n);
      for (guint i = 0; i < rec->runs->len; i++)
        {
          const TlKernelRun *r = rec->runs->pdata[i];
          if (r->status != TL_RUN_OK || r->time.count == 0)
            continue;
          SweepLine *l = g_hash_table_lookup (lines, r->kernel_id);
          if (l == NULL)
            {
              const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
              l = g_new0 (SweepLine, 1);
              l->label = tl_kernel_display_name (r->kernel_id);
              l->reference = info && info->reference;
              l->points = g_array_new (FALSE, FALSE, sizeof (double) * 2);
              g_hash_table_insert (lines, g_strdup (r->kernel_id), l);
              g_ptr_array_add (order, l);
            }
          double p[2] = { size, tl_stats_gflops (flops, r->time.median) };
          /* the latest measurement of a size wins */
          gboolean replaced = FALSE;
          for (guint j = 0; j < l->points->len; j++)
            {
              double *q = &g_array_index (l->points, double, 2 * j);
              if (fabs (q[0] - size) < 0.5)
                {
                  q[1] = p[1];
                  replaced = TRUE;
                }
            }
          if (!replaced)
            g_array_append_val (l->points, p);
        }
    }

  g_autoptr (GArray) series = g_array_new (FALSE, TRUE, sizeof (TlSweepSeries));
  g_autoptr (GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < order->len; i++)
    {
      SweepLine *l = order->pdata[i];
      g_array_sort (l->points, cmp_points);
      double *ns = g_new (double, l->points->len), *gs = g_new (double, l->points->len);
      for (guint j = 0; j < l->points->len; j++)
        {
          ns[j] = g_array_index (l->points, double, 2 * j);
          gs[j] = g_array_index (l->points, double, 2 * j + 1);
        }
      g_ptr_array_add (keep, ns);
      g_ptr_array_add (keep, gs);
      TlSweepSeries s = { .label = l->label, .n = ns, .gflops = gs, .count = l->points->len,
                          .reference = l->reference };
      g_array_append_val (series, s);
    }
  TlSweepModel model = { .series = (const TlSweepSeries *) series->data, .n_series = series->len,
                         .title = _("Size sweep: GFLOP/s against n (every run of this session)") };
  tl_chart_view_set_sweep (self->sweep, &model);
}

/* |C − reference| off the main loop */
typedef struct
{
  TlMatrix *c, *ref;
  double max, mean;
} DiffTask;

static void
diff_task_free (DiffTask *t)
{
  tl_matrix_unref (t->c);
  tl_matrix_unref (t->ref);
  g_free (t);
}

static void
diff_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  DiffTask *t = data;
  GError *error = NULL;
  TlMatrix *d = tl_matrix_new (TL_DTYPE_FLOAT64, t->c->rows, t->c->cols, &error);
  double sum = 0, mx = 0;

  if (d == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  for (gsize i = 0; i < t->c->rows; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          tl_matrix_unref (d);
          g_task_return_error (task, error);
          return;
        }
      double *row = tl_matrix_row (d, i);
      for (gsize j = 0; j < t->c->cols; j++)
        {
          double v = fabs (tl_matrix_get (t->c, i, j) - tl_matrix_get (t->ref, i, j));
          row[j] = v;
          sum += v;
          mx = isnan (v) || v > mx ? v : mx;
        }
    }
  t->max = mx;
  t->mean = sum / MAX (tl_matrix_n_elements (d), 1);
  g_task_return_pointer (task, d, (GDestroyNotify) tl_matrix_unref);
}

static void
diff_done_cb (GObject *object, GAsyncResult *result, gpointer user_data)
{
  TlWindow *self = TL_WINDOW (object);
  DiffTask *t = g_task_get_task_data (G_TASK (result));
  g_autoptr (TlMatrix) d = g_task_propagate_pointer (G_TASK (result), NULL);

  if (d == NULL)
    return;
  g_autofree char *mx = fmt (t->max);
  g_autofree char *mean = fmt (t->mean);
  g_autofree char *caption = g_strdup_printf (_("· max %s · mean %s"), mx, mean);
  tl_heatmap_view_set_matrix (self->hm_err, d, _("|C − reference|"), caption);
}

static const TlKernelRun *
selected_c_run (TlWindow *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo));
  GPtrArray *runs = current_runs (self);
  for (guint i = 0; id && i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      if (g_strcmp0 (r->kernel_id, id) == 0)
        return r;
    }
  return NULL;
}

static TlMatrix *
current_reference (TlWindow *self)
{
  return self->record ? self->record->reference : NULL;
}

static void
refresh_c_panels (TlWindow *self)
{
  const TlKernelRun *r = selected_c_run (self);
  TlMatrix *ref = current_reference (self);

  if (r && r->c)
    {
      g_autofree char *label = tl_kernel_display_name (r->kernel_id);
      g_autofree char *title = g_strdup_printf (_("C — %s"), label);
      tl_heatmap_view_set_matrix (self->hm_c, r->c, title, tl_dtype_name (r->c->dtype));
      const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
      gboolean show = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->tiles_check));
      int tm = r->block_tile_m ? (int) r->block_tile_m : info ? info->tile_m : 0;
      int tn = r->block_tile_n ? (int) r->block_tile_n : info ? info->tile_n : 0;
      tl_heatmap_view_set_tiles (self->hm_c, tm, tn, show);
      tl_heatmap_view_set_tiles (self->hm_err, tm, tn, show);
    }
  else
    tl_heatmap_view_set_matrix (self->hm_c, NULL, NULL, NULL);

  if (ref)
    tl_heatmap_view_set_matrix (self->hm_ref, ref, _("reference (float64)"), "float64");

  if (self->diff_cancellable)
    g_cancellable_cancel (self->diff_cancellable);
  g_clear_object (&self->diff_cancellable);
  if (r && r->c && ref && r->c->rows == ref->rows && r->c->cols == ref->cols)
    {
      DiffTask *t = g_new0 (DiffTask, 1);
      t->c = tl_matrix_ref (r->c);
      t->ref = tl_matrix_ref (ref);
      self->diff_cancellable = g_cancellable_new ();
      g_autoptr (GTask) task = g_task_new (self, self->diff_cancellable, diff_done_cb, NULL);
      g_task_set_task_data (task, t, (GDestroyNotify) diff_task_free);
      g_task_run_in_thread (task, diff_thread);
    }
  else
    tl_heatmap_view_set_matrix (self->hm_err, NULL, NULL, NULL);

  /* the summary beside the heatmaps */
  GString *s = g_string_new (NULL);
  gsize m, k, n;
  current_size (self, &m, &k, &n);
  if (r)
    {
      g_autofree char *label = tl_kernel_display_name (r->kernel_id);
      const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
      g_string_append_printf (s, "<b>%s</b>\n", label);
      if (info && info->lesson && *info->lesson)
        {
          g_autofree char *e = g_markup_escape_text (_(info->lesson), -1);
          g_string_append_printf (s, "<i>%s</i>\n\n", e);
        }
      g_autoptr (GString) line = g_string_new (NULL);
      describe_run_short (r, tl_stats_gemm_flops (m, k, n), line);
      g_autofree char *e = g_markup_escape_text (line->str, -1);
      g_string_append_printf (s, "%s\n", e);
      if (r->verified)
        {
          g_autofree char *a = fmt (r->max_abs), *b = fmt (r->rel_norm), *t = fmt (r->tolerance);
          g_string_append_printf (s, _("\nmax |C − ref| %s\n‖C − ref‖/‖ref‖ %s (tolerance %s)\n"), a, b, t);
        }
      if (!isnan (r->speedup_vs_naive) && r->speedup_vs_naive > 0)
        g_string_append_printf (s, _("%.1f× faster than CPU naive\n"), r->speedup_vs_naive);
    }
  else if (current_runs (self)->len == 0)
    g_string_append (s, _("Press <b>Run</b> (Ctrl+R): C, the float64 reference and the error |C − reference| appear here as each kernel finishes.\n\n"
                          "Hover over C to highlight the row of A and the column of B that made that element."));
  gtk_label_set_markup (GTK_LABEL (self->summary_label), s->str);
  g_string_free (s, TRUE);
}

static void
update_c_view (TlWindow *self)
{
  GPtrArray *runs = current_runs (self);
  g_autofree char *active = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo)));
  gboolean found = FALSE;

  self->updating_c_combo = TRUE;
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->c_combo));
  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      if (r->c == NULL)
        continue;
      g_autofree char *label = tl_kernel_display_name (r->kernel_id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->c_combo), r->kernel_id, label);
      found |= g_strcmp0 (active, r->kernel_id) == 0;
    }
  if (found)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->c_combo), active);
  else
    {
      /* the newest result */
      for (guint i = runs->len; i > 0; i--)
        if (((const TlKernelRun *) runs->pdata[i - 1])->c)
          {
            gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->c_combo),
                                         ((const TlKernelRun *) runs->pdata[i - 1])->kernel_id);
            break;
          }
    }
  self->updating_c_combo = FALSE;
  refresh_c_panels (self);
}

static void
update_rung_facts (TlWindow *self)
{
  GPtrArray *runs = current_runs (self);
  g_autofree char *active = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo)));

  g_signal_handlers_block_matched (self->rung_combo, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->rung_combo));
  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      g_autofree char *label = tl_kernel_display_name (r->kernel_id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->rung_combo), r->kernel_id, label);
    }
  if (!active || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rung_combo), active))
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->rung_combo), 0);
  g_signal_handlers_unblock_matched (self->rung_combo, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);

  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rung_combo));
  const TlKernelRun *r = NULL;
  for (guint i = 0; id && i < runs->len; i++)
    if (g_strcmp0 (((const TlKernelRun *) runs->pdata[i])->kernel_id, id) == 0)
      r = runs->pdata[i];

  GString *s = g_string_new (NULL);
  if (r == NULL)
    g_string_append (s, _("Run kernels (or open a run record) to see their launch facts."));
  else if (r->backend == TL_BACKEND_CPU)
    g_string_append_printf (s, _("%s runs on the CPU with %u threads: no registers, shared memory or waves to show.\n"
                                 "Its C tiles (when it records them) appear in the tile grid."),
                            kernel_title (r->kernel_id), r->threads);
  else if (!r->launch.valid)
    g_string_append_printf (s, _("%s: no launch facts in this run (%s)."), kernel_title (r->kernel_id),
                            r->message ? r->message : tl_run_status_name (r->status));
  else
    {
      const TlLaunchFacts *f = &r->launch;
      g_autofree char *occ = isnan (f->occupancy) ? g_strdup ("—") : g_strdup_printf ("%.0f%%", 100 * f->occupancy);
      g_string_append_printf (s,
        _("registers per thread   %d\nshared memory          %d B static + %d B dynamic per block\n"
          "spills (local memory)  %d B per thread%s\nblock                  %d×%d×%d threads\n"
          "grid                   %d×%d×%d blocks, %d launch(es)\nblocks per SM          %d (occupancy %s)\n"
          "waves                  %.2f%s"),
        f->regs_per_thread, f->static_smem_bytes, f->dynamic_smem_bytes, f->local_bytes_per_thread,
        f->local_bytes_per_thread > 0 ? _("  ← spilling: registers ran out") : "",
        f->block_x, f->block_y, f->block_z, f->grid_x, f->grid_y, f->grid_z, f->launches,
        f->active_blocks_per_sm, occ, f->waves,
        f->waves > 1 && f->waves - floor (f->waves) > 0 && f->waves - floor (f->waves) < 0.5
          ? _("  ← the last wave is mostly idle (tail effect)") : "");
    }
  gtk_label_set_text (GTK_LABEL (self->rung_label), s->str);
  g_string_free (s, TRUE);
}

static void
rung_changed_cb (GtkComboBox *combo, TlWindow *self)
{
  update_rung_facts (self);
}

static void
show_record (TlWindow *self, TlRunRecord *record, gboolean with_sources)
{
  g_clear_pointer (&self->record, tl_run_record_free);
  self->record = record;

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
  if (with_sources && record->job)
    {
      GString *s = g_string_new (NULL);
      g_string_append_printf (s, _("Run record from %s (%s)"),
                              record->machine.host_name ? record->machine.host_name : "?",
                              record->created ? record->created : "?");
      if (record->has_device)
        g_string_append_printf (s, " · %s", record->device.name);
      gtk_label_set_text (GTK_LABEL (self->last_label), s->str);
      g_string_free (s, TRUE);
    }
  update_compare (self);
  update_c_view (self);
  update_rung_facts (self);
  update_device_label (self);
  tl_blocks_page_set_record (self->blocks_page, self->record);
  tl_source_page_set_record (self->source_page, self->record);
}

/* ---- hover and colour ---------------------------------------------------- */

static void
hover_cb (TlHeatmapView *view, gint64 row, gint64 col, double value, TlWindow *self)
{
  const char *name = view == self->hm_a ? "A" : view == self->hm_b ? "B" : view == self->hm_c ? "C"
                     : view == self->hm_ref ? "ref" : "|C − ref|";
  if (row < 0)
    {
      tl_heatmap_view_set_highlight (self->hm_a, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_b, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_c, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_ref, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_err, -1, -1);
      return;
    }
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *text = g_strdup_printf ("%s[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] = %s",
                                           name, row, col, isnan (value) ? "NaN" : g_ascii_formatd (num, sizeof num, "%.7g", value));
  gtk_label_set_text (GTK_LABEL (self->hover_label), text);

  if (view == self->hm_c || view == self->hm_ref || view == self->hm_err)
    {
      /* C[i, j] is row i of A times column j of B */
      tl_heatmap_view_set_highlight (self->hm_a, row, -1);
      tl_heatmap_view_set_highlight (self->hm_b, -1, col);
      tl_heatmap_view_set_highlight (self->hm_c, row, col);
      tl_heatmap_view_set_highlight (self->hm_ref, row, col);
      tl_heatmap_view_set_highlight (self->hm_err, row, col);
    }
  else if (view == self->hm_a)
    {
      /* A[i, p] feeds row i of C */
      tl_heatmap_view_set_highlight (self->hm_a, row, -1);
      tl_heatmap_view_set_highlight (self->hm_c, row, -1);
      tl_heatmap_view_set_highlight (self->hm_b, col, -1);
    }
  else if (view == self->hm_b)
    {
      tl_heatmap_view_set_highlight (self->hm_b, -1, col);
      tl_heatmap_view_set_highlight (self->hm_c, -1, col);
      tl_heatmap_view_set_highlight (self->hm_a, -1, row);
    }
}

static TlHeatmapView **
value_views (TlWindow *self, guint *n)
{
  static TlHeatmapView *v[4];
  v[0] = self->hm_a;
  v[1] = self->hm_b;
  v[2] = self->hm_c;
  v[3] = self->hm_ref;
  *n = 4;
  return v;
}

static void
apply_shared_range (TlWindow *self)
{
  guint n;
  TlHeatmapView **v = value_views (self, &n);
  gboolean shared = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->shared_check));
  double lo = INFINITY, hi = -INFINITY;

  if (shared)
    for (guint i = 0; i < n; i++)
      {
        double a, b;
        if (tl_heatmap_view_get_range (v[i], &a, &b))
          {
            lo = MIN (lo, a);
            hi = MAX (hi, b);
          }
      }
  for (guint i = 0; i < n; i++)
    tl_heatmap_view_set_shared_range (v[i], shared && lo <= hi ? lo : 1, shared && lo <= hi ? hi : 0);
}

static void
view_busy_cb (GObject *view, GParamSpec *pspec, TlWindow *self)
{
  if (!tl_heatmap_view_is_busy (TL_HEATMAP_VIEW (view)))
    apply_shared_range (self);
}

static void
colour_changed_cb (GtkWidget *widget, TlWindow *self)
{
  guint n;
  TlHeatmapView **v = value_views (self, &n);
  TlColormap map = TL_COLORMAP_VIRIDIS;
  TlScale scale = TL_SCALE_LINEAR;
  const char *map_id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->colormap_combo));
  gint colormap = map_id && tl_colormap_from_name (map_id, &map) ? (gint) map : -1;
  const char *scale_id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->scale_combo));
  if (scale_id)
    tl_scale_from_name (scale_id, &scale);
  TlPoolMode mode = g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->pool_combo)), "max") == 0
                      ? TL_POOL_MAX_ABS : TL_POOL_MEAN;

  for (guint i = 0; i < n; i++)
    {
      tl_heatmap_view_set_colormap (v[i], colormap, scale);
      tl_heatmap_view_set_pool_mode (v[i], mode);
    }
  tl_heatmap_view_set_pool_mode (self->hm_err, mode);
  apply_shared_range (self);
}

static void
tiles_toggled_cb (GtkToggleButton *button, TlWindow *self)
{
  refresh_c_panels (self);
}

static void
c_combo_changed_cb (GtkComboBox *combo, TlWindow *self)
{
  if (!self->updating_c_combo)
    refresh_c_panels (self);
}

/* ---- compare view: details, CSV ------------------------------------------ */

static void
bar_activated_cb (TlChartView *view, gint index, TlWindow *self)
{
  self->selected_bar = index;
  GPtrArray *runs = current_runs (self);
  if (index < 0 || (guint) index >= runs->len)
    return;
  const TlKernelRun *r = runs->pdata[index];
  const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
  gsize m, k, n;
  current_size (self, &m, &k, &n);
  GString *s = g_string_new (NULL);
  g_autofree char *label = tl_kernel_display_name (r->kernel_id);
  g_autofree char *med = fmt (r->time.median), *mn = fmt (r->time.min), *mx = fmt (r->time.max);
  g_autofree char *gf = fmt (tl_stats_gflops (tl_stats_gemm_flops (m, k, n), r->time.median));
  g_autofree char *pct = fmt (r->percent_of_reference), *sp = fmt (r->speedup_vs_naive);
  g_autofree char *err = fmt (r->rel_norm), *tol = fmt (r->tolerance);

  g_string_append_printf (s, "%s\n%s\n\n", label, info && info->lesson && *info->lesson ? _(info->lesson) : "");
  g_string_append_printf (s, _("id          %s\nbackend     %s\nprecision   %s\nstatus      %s\n"),
                          r->kernel_id, tl_backend_name (r->backend), r->precision ? r->precision : "—",
                          tl_run_status_name (r->status));
  if (r->message)
    g_string_append_printf (s, _("message     %s\n"), r->message);
  g_string_append_printf (s, _("size        %zu×%zu·%zu×%zu\nmedian      %s ms  (min %s, max %s, %u runs)\n"
                               "throughput  %s GFLOP/s\n%% of ref    %s (%s)\nvs naive    %s×\n"
                               "error       %s (tolerance %s) %s\n"),
                          m, k, k, n, med, mn, mx, r->time.count, gf, pct,
                          r->reference_id ? r->reference_id : "—", sp, err, tol,
                          r->verified ? (r->passed ? _("passed") : _("FAILED")) : _("not verified"));
  if (r->backend == TL_BACKEND_CPU)
    g_string_append_printf (s, _("threads     %u\n"), r->threads);
  if (info && info->seed && *info->seed)
    g_string_append_printf (s, _("seed        %s\n"), info->seed);
  if (info && info->source_path)
    g_string_append_printf (s, _("source      %s\n"), info->source_path);
  gtk_label_set_text (GTK_LABEL (self->details_label), s->str);
  g_string_free (s, TRUE);

  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rung_combo), r->kernel_id);
}

static void
csv_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_c (s, ',');
  if (!isnan (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static char *
compare_csv (TlWindow *self)
{
  GPtrArray *runs = current_runs (self);
  gsize m, k, n;
  current_size (self, &m, &k, &n);
  double flops = tl_stats_gemm_flops (m, k, n);
  GString *s = g_string_new ("kernel,backend,precision,status,m,k,n,median_ms,min_ms,max_ms,gflops,"
                             "percent_of_reference,speedup_vs_cpu_naive,rel_error,passed\n");
  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      g_string_append_printf (s, "%s,%s,%s,%s,%zu,%zu,%zu", r->kernel_id, tl_backend_name (r->backend),
                              r->precision ? r->precision : "", tl_run_status_name (r->status), m, k, n);
      gboolean ok = r->status == TL_RUN_OK && r->time.count > 0;
      csv_number (s, ok ? r->time.median : NAN);
      csv_number (s, ok ? r->time.min : NAN);
      csv_number (s, ok ? r->time.max : NAN);
      csv_number (s, ok ? tl_stats_gflops (flops, r->time.median) : NAN);
      csv_number (s, r->percent_of_reference);
      csv_number (s, r->speedup_vs_naive);
      csv_number (s, r->verified ? r->rel_norm : NAN);
      g_string_append_printf (s, ",%s\n", r->verified ? (r->passed ? "yes" : "no") : "");
    }
  return g_string_free (s, FALSE);
}

static void
metric_changed_cb (GtkComboBox *combo, TlWindow *self)
{
  tl_chart_view_set_metric (self->bars, g_strcmp0 (gtk_combo_box_get_active_id (combo), "gflops") == 0
                                          ? TL_COMPARE_GFLOPS : TL_COMPARE_TIME);
}

/* ---- actions ------------------------------------------------------------- */

static void
update_actions (TlWindow *self)
{
  GActionMap *map = G_ACTION_MAP (self);
  gboolean busy = self->n_pending_sources > 0;
  g_auto (GStrv) kernels = self->kernel_list ? tl_window_get_active_kernels (self) : NULL;

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "run")),
                               !self->running && !busy);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "sweep")),
                               !self->running && kernels && kernels[0]);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "cancel")),
                               self->running);
}

static void
file_filters (GtkFileChooser *chooser, gboolean records)
{
  GtkFileFilter *f = gtk_file_filter_new ();
  if (records)
    {
      gtk_file_filter_set_name (f, _("Tilelab run records (*.json)"));
      gtk_file_filter_add_pattern (f, "*.json");
      gtk_file_chooser_add_filter (chooser, f);
      return;
    }
  gtk_file_filter_set_name (f, _("All matrices"));
  const char *all[] = { "*.mtx", "*.npy", "*.csv", "*.tsv", "*.txt", "*.mat" };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    gtk_file_filter_add_pattern (f, all[i]);
  gtk_file_chooser_add_filter (chooser, f);

  struct { const char *name; const char *p1, *p2; } kinds[] = {
    { N_("Matrix Market (*.mtx)"), "*.mtx", NULL },
    { N_("NumPy (*.npy)"), "*.npy", NULL },
    { N_("CSV / TSV (*.csv, *.tsv)"), "*.csv", "*.tsv" },
    { N_("Text (*.txt)"), "*.txt", "*.mat" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      f = gtk_file_filter_new ();
      gtk_file_filter_set_name (f, _(kinds[i].name));
      gtk_file_filter_add_pattern (f, kinds[i].p1);
      if (kinds[i].p2)
        gtk_file_filter_add_pattern (f, kinds[i].p2);
      gtk_file_chooser_add_filter (chooser, f);
    }
}

static void
chooser_response_cb (GtkNativeDialog *dialog, int response, TlWindow *self)
{
  guint target = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "target"));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (target == 0)
        tl_window_open_record (self, file);
      else
        tl_window_load_source (self, target, file);
    }
  g_object_unref (dialog);
}

static void
open_chooser (TlWindow *self, guint target)
{
  const char *title = target == TL_TARGET_A ? _("Open Matrix A") : target == TL_TARGET_B
                        ? _("Open Matrix B") : _("Open Run Record");
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));
  file_filters (GTK_FILE_CHOOSER (dialog), target == 0);
  g_object_set_data (G_OBJECT (dialog), "target", GUINT_TO_POINTER (target));
  g_signal_connect (dialog, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_a_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  open_chooser (self, TL_TARGET_A);
}

static void
open_b_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  open_chooser (self, TL_TARGET_B);
}

static void
open_run_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  open_chooser (self, 0);
}

static void
generate_response_cb (GtkDialog *dialog, int response, TlWindow *self)
{
  if (response == GTK_RESPONSE_OK)
    {
      TlGenerateRequest req;
      tl_generate_dialog_get_request (TL_GENERATE_DIALOG (dialog), &req);
      tl_window_generate (self, req.targets, req.spec, req.rows, req.cols, req.dtype, req.seed);
      g_free (req.spec);
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
generate_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  guint targets = p ? (guint) g_variant_get_int32 (p) : TL_TARGET_A | TL_TARGET_B;
  GtkWidget *dialog = tl_generate_dialog_new (GTK_WINDOW (self), targets,
                                              self->src[0] ? self->src[0]->rows : 512);
  g_signal_connect (dialog, "response", G_CALLBACK (generate_response_cb), self);
  gtk_widget_show (dialog);
}

static void
run_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_run (self);
}

static void
cancel_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_cancel (self);
}

static void
sweep_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  start_sweep (self);
}

static void
fit_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  tl_heatmap_view_fit (self->hm_a);
  tl_heatmap_view_fit (self->hm_b);
  tl_heatmap_view_fit (self->hm_c);
  tl_heatmap_view_fit (self->hm_ref);
  tl_heatmap_view_fit (self->hm_err);
}

static void
copy_csv_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  g_autofree char *csv = compare_csv (self);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), csv, -1);
  gtk_label_set_text (GTK_LABEL (self->last_label), _("The comparison table is on the clipboard (CSV)."));
}

static void
export_response_cb (GtkNativeDialog *dialog, int response, TlWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      TlRenderOptions o;
      const char *page = gtk_stack_get_visible_child_name (GTK_STACK (self->view_stack));
      TlRenderInput input = { .record = self->record, .lu = tl_gauss_page_get_record (self->gauss_page) };

      if (g_strcmp0 (page, "gauss") == 0)
        tl_render_area_get_options (TL_RENDER_AREA (tl_gauss_page_get_area (self->gauss_page)), &o);
      else if (g_strcmp0 (page, "blocks") == 0)
        tl_render_area_get_options (TL_RENDER_AREA (tl_blocks_page_get_area (self->blocks_page, TRUE)), &o);
      else
        {
          tl_render_options_init (&o);
          if (g_strcmp0 (page, "compare") == 0)
            o.view = TL_RENDER_COMPARE;
          else
            {
              o.view = TL_RENDER_HEATMAP;
              o.matrix = "C";
              o.kernels = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo));
            }
        }
      /* slides: 1600×900 units at twice the pixels for PNG */
      o.width = o.height = 0;
      o.scale = 2;
      o.presentation = self->presentation;
      if (!tl_render_to_file (&input, &o, path, &error))
        show_error (self, _("Could not export the view."), error);
      else
        {
          g_autofree char *t = g_strdup_printf (_("Exported to %s"), path);
          gtk_label_set_text (GTK_LABEL (self->last_label), t);
        }
    }
  g_object_unref (dialog);
}

static void
export_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Export View"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "tilelab-view.png");
  const char *kinds[][2] = { { N_("PNG image"), "*.png" }, { N_("SVG drawing"), "*.svg" }, { N_("PDF document"), "*.pdf" } };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      GtkFileFilter *f = gtk_file_filter_new ();
      gtk_file_filter_set_name (f, _(kinds[i][0]));
      gtk_file_filter_add_pattern (f, kinds[i][1]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), f);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
presentation_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_set_presentation (self, !TL_WINDOW (self)->presentation);
}

static void
high_contrast_action (GSimpleAction *a, GVariant *p, gpointer user_data)
{
  TlWindow *self = user_data;
  self->high_contrast = !self->high_contrast;
  g_simple_action_set_state (a, g_variant_new_boolean (self->high_contrast));
  tl_window_set_presentation (self, self->presentation);
}

static void
view_action (GSimpleAction *a, GVariant *p, gpointer self)
{
  tl_window_show_view (self, g_variant_get_string (p, NULL));
}

static const GActionEntry win_entries[] = {
  { "open-a", open_a_action },
  { "open-b", open_b_action },
  { "open-run", open_run_action },
  { "generate", generate_action, "i" },
  { "run", run_action },
  { "cancel", cancel_action },
  { "sweep", sweep_action },
  { "fit", fit_action },
  { "copy-csv", copy_csv_action },
  { "presentation", presentation_action },
  { "export", export_action },
  { "high-contrast", high_contrast_action, NULL, "false" },
  { "view", view_action, "s" },
};

/* ---- drag and drop ------------------------------------------------------- */

static void
drag_data_received_cb (GtkWidget *widget, GdkDragContext *context, int x, int y,
                       GtkSelectionData *data, guint info, guint time, TlWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; uris && uris[i]; i++)
    g_ptr_array_add (files, g_file_new_for_uri (uris[i]));
  if (files->len)
    tl_window_open_files (self, (GFile **) files->pdata, (int) files->len);
  gtk_drag_finish (context, files->len > 0, FALSE, time);
}

/* ---- construction -------------------------------------------------------- */

static TlHeatmapView *
add_heatmap (TlWindow *self, int col, int row, const char *empty, const char *units)
{
  TlHeatmapView *v = TL_HEATMAP_VIEW (tl_heatmap_view_new ());
  tl_heatmap_view_set_empty_text (v, empty);
  tl_heatmap_view_set_units (v, units);
  gtk_widget_set_hexpand (GTK_WIDGET (v), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (v), TRUE);
  g_signal_connect (v, "hover", G_CALLBACK (hover_cb), self);
  g_signal_connect (v, "notify::busy", G_CALLBACK (view_busy_cb), self);
  gtk_grid_attach (GTK_GRID (self->matrix_grid), GTK_WIDGET (v), col, row, 1, 1);
  gtk_widget_show (GTK_WIDGET (v));
  return v;
}

static void
source_buttons (TlWindow *self, GtkWidget *box, guint target)
{
  GtkWidget *col = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  TlHeatmapView *thumb = TL_HEATMAP_VIEW (tl_heatmap_view_new ());
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *open = gtk_button_new_from_icon_name ("document-open-symbolic", GTK_ICON_SIZE_BUTTON);
  GtkWidget *gen = gtk_button_new_from_icon_name ("view-grid-symbolic", GTK_ICON_SIZE_BUTTON);

  tl_heatmap_view_set_thumbnail (thumb, TRUE);
  tl_heatmap_view_set_empty_text (thumb, target == TL_TARGET_A ? "A" : "B");
  gtk_widget_set_size_request (GTK_WIDGET (thumb), 110, 110);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), target == TL_TARGET_A ? "win.open-a" : "win.open-b");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (gen), "win.generate");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (gen), "i", (gint32) target);
  gtk_widget_set_tooltip_text (open, target == TL_TARGET_A ? _("Open a file as A") : _("Open a file as B"));
  gtk_widget_set_tooltip_text (gen, target == TL_TARGET_A ? _("Generate A") : _("Generate B"));
  gtk_style_context_add_class (gtk_widget_get_style_context (buttons), "linked");
  gtk_box_pack_start (GTK_BOX (buttons), open, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (buttons), gen, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (col), GTK_WIDGET (thumb), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (col), buttons, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), col, FALSE, FALSE, 0);
  gtk_widget_show_all (col);
  self->thumb[target == TL_TARGET_A ? 0 : 1] = thumb;
}

static void
tl_window_dispose (GObject *object)
{
  TlWindow *self = TL_WINDOW (object);

  for (int i = 0; i < 2; i++)
    {
      if (self->source_cancellable[i])
        g_cancellable_cancel (self->source_cancellable[i]);
      g_clear_object (&self->source_cancellable[i]);
    }
  if (self->run_cancellable)
    g_cancellable_cancel (self->run_cancellable);
  g_clear_object (&self->run_cancellable);
  if (self->diff_cancellable)
    g_cancellable_cancel (self->diff_cancellable);
  g_clear_object (&self->diff_cancellable);
  if (self->record_cancellable)
    g_cancellable_cancel (self->record_cancellable);
  g_clear_object (&self->record_cancellable);
  if (self->runner)
    g_signal_handlers_disconnect_by_data (self->runner, self);
  g_clear_object (&self->runner);
  g_clear_object (&self->settings);
  if (self->inhibit_cookie && gtk_window_get_application (GTK_WINDOW (self)))
    gtk_application_uninhibit (gtk_window_get_application (GTK_WINDOW (self)), self->inhibit_cookie);
  self->inhibit_cookie = 0;
  G_OBJECT_CLASS (tl_window_parent_class)->dispose (object);
}

static void
tl_window_finalize (GObject *object)
{
  TlWindow *self = TL_WINDOW (object);

  for (int i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->src[i], tl_matrix_unref);
      tl_source_clear (&self->src_source[i]);
      g_free (self->src_label[i]);
    }
  g_ptr_array_unref (self->live_runs);
  g_ptr_array_unref (self->history);
  g_hash_table_unref (self->sweep_jobs);
  g_clear_pointer (&self->record, tl_run_record_free);
  g_clear_pointer (&self->gpus, g_array_unref);
  G_OBJECT_CLASS (tl_window_parent_class)->finalize (object);
}

static void
tl_window_class_init (TlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tl_window_dispose;
  object_class->finalize = tl_window_finalize;

  g_type_ensure (TL_TYPE_HEATMAP_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, TlWindow, name)
  CHILD (header_bar);
  CHILD (backend_combo);
  CHILD (run_button);
  CHILD (cancel_button);
  CHILD (gpu_bar);
  CHILD (gpu_label);
  CHILD (info_bar);
  CHILD (info_label);
  CHILD (paned);
  CHILD (sidebar);
  CHILD (source_a_box);
  CHILD (source_b_box);
  CHILD (facts_a);
  CHILD (facts_b);
  CHILD (kernel_list);
  CHILD (dtype_combo);
  CHILD (repeats_spin);
  CHILD (view_stack);
  CHILD (c_combo);
  CHILD (colormap_combo);
  CHILD (scale_combo);
  CHILD (pool_combo);
  CHILD (shared_check);
  CHILD (tiles_check);
  CHILD (matrix_grid);
  CHILD (metric_combo);
  CHILD (bars_box);
  CHILD (sweep_box);
  CHILD (details_label);
  CHILD (device_label);
  CHILD (rung_combo);
  CHILD (rung_label);
  CHILD (hover_label);
  CHILD (progress_bar);
  CHILD (last_label);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
}

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

/* A block's tile of C read rows of A and columns of B: say so, and mark them */
static void
tile_hovered_cb (TlBlocksPage *page, gint tx, gint ty, gpointer block_ptr, TlWindow *self)
{
  const TlBlockRecord *b = block_ptr;
  const TlRunRecord *rec = self->record;
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo));
  const TlKernelRun *run = NULL;

  if (tx < 0 || b == NULL || rec == NULL || rec->job == NULL)
    {
      tl_heatmap_view_set_highlight (self->hm_a, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_b, -1, -1);
      tl_heatmap_view_set_highlight (self->hm_c, -1, -1);
      return;
    }
  for (guint i = 0; i < rec->runs->len; i++)
    {
      const TlKernelRun *r = rec->runs->pdata[i];
      if (b >= r->blocks && b < r->blocks + r->n_blocks)
        run = r;
    }
  if (run == NULL || run->block_tile_m == 0 || run->block_tile_n == 0)
    return;
  gsize row0, rows, col0, cols;
  tl_block_tile_extent ((guint) tx, (guint) ty, run->block_tile_m, run->block_tile_n,
                        rec->job->m, rec->job->n, &row0, &rows, &col0, &cols);
  g_autofree char *text = g_strdup_printf (_("block (%d, %d) on %s %u: C rows %zu–%zu, cols %zu–%zu "
                                             "(rows of A, columns of B) · %.1f µs"),
                                           tx, ty, g_strcmp0 (run->block_unit, "sm") == 0 ? "SM" : _("thread"),
                                           b->unit, row0, row0 + rows - 1, col0, col0 + cols - 1,
                                           (b->end_ns - b->start_ns) / 1000.0);
  gtk_label_set_text (GTK_LABEL (self->hover_label), text);
  tl_heatmap_view_set_highlight_span (self->hm_a, (gssize) row0, rows, -1, 1);
  tl_heatmap_view_set_highlight_span (self->hm_b, -1, 1, (gssize) col0, cols);
  if (g_strcmp0 (id, run->kernel_id) == 0)
    tl_heatmap_view_set_highlight_span (self->hm_c, (gssize) row0, rows, (gssize) col0, cols);
}

/* the Gauss player's keys while its page is shown (clicker-friendly) */
static gboolean
key_press_cb (GtkWidget *widget, GdkEventKey *event, TlWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (GTK_STACK (self->view_stack));
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  if (focus && GTK_IS_EDITABLE (focus))
    return FALSE;
  if (self->presentation && event->keyval == GDK_KEY_Escape)
    {
      tl_window_set_presentation (self, FALSE);
      return TRUE;
    }
  if (g_strcmp0 (page, "gauss") == 0)
    return tl_gauss_page_key (self->gauss_page, event->keyval, event->state);

  /* presentation clickers send Page Up / Page Down: step through kernels */
  int dir = event->keyval == GDK_KEY_Page_Down || (self->presentation && event->keyval == GDK_KEY_Right) ? 1
            : event->keyval == GDK_KEY_Page_Up || (self->presentation && event->keyval == GDK_KEY_Left) ? -1 : 0;
  if (dir == 0)
    return FALSE;
  if (g_strcmp0 (page, "blocks") == 0)
    return tl_blocks_page_step_kernel (self->blocks_page, dir);
  if (g_strcmp0 (page, "compare") == 0)
    {
      gint n = (gint) tl_chart_view_get_n_bars (self->bars);
      gint i = CLAMP (self->selected_bar + dir, 0, n - 1);
      if (n > 0)
        tl_window_select_bar (self, i);
      return n > 0;
    }
  if (g_strcmp0 (page, "matrices") == 0)
    {
      GtkComboBox *combo = GTK_COMBO_BOX (self->c_combo);
      int n = gtk_tree_model_iter_n_children (gtk_combo_box_get_model (combo), NULL);
      int i = gtk_combo_box_get_active (combo) + dir;
      if (i >= 0 && i < n)
        gtk_combo_box_set_active (combo, i);
      return TRUE;
    }
  return FALSE;
}

static GSettings *
maybe_settings (void)
{
  GSettingsSchemaSource *src = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = src ? g_settings_schema_source_lookup (src, "org.tilelab.Tilelab", TRUE) : NULL;
  return schema ? g_settings_new ("org.tilelab.Tilelab") : NULL;
}

static void
backend_changed_cb (GtkComboBox *combo, TlWindow *self)
{
  update_kernel_sensitivity (self);
  update_device_label (self);
  update_actions (self);
}

static void
dtype_changed_cb (GtkComboBox *combo, TlWindow *self)
{
  update_kernel_sensitivity (self);
  update_actions (self);
}

static void
tl_window_init (TlWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->live_runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  self->history = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_free);
  self->sweep_jobs = g_hash_table_new (NULL, NULL);
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);

  source_buttons (self, self->source_a_box, TL_TARGET_A);
  source_buttons (self, self->source_b_box, TL_TARGET_B);
  update_source_facts (self, 0);
  update_source_facts (self, 1);

  self->hm_a = add_heatmap (self, 0, 0, _("A — open or generate a matrix"), _("value"));
  self->hm_b = add_heatmap (self, 1, 0, _("B — open or generate a matrix"), _("value"));
  self->hm_c = add_heatmap (self, 2, 0, _("C = A·B — press Run"), _("value"));
  self->hm_ref = add_heatmap (self, 0, 1, _("the float64 reference appears after a run"), _("value"));
  self->hm_err = add_heatmap (self, 1, 1, _("|C − reference| appears after a run"), _("absolute error"));
  tl_heatmap_view_set_colormap (self->hm_err, TL_COLORMAP_VIRIDIS, TL_SCALE_LOG);
  self->summary_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->summary_label), 0);
  gtk_label_set_yalign (GTK_LABEL (self->summary_label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->summary_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->summary_label), TRUE);
  gtk_widget_set_margin_start (self->summary_label, 12);
  gtk_widget_set_margin_top (self->summary_label, 12);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->summary_label), "summary");
  gtk_grid_attach (GTK_GRID (self->matrix_grid), self->summary_label, 2, 1, 1, 1);
  gtk_widget_show (self->summary_label);

  self->bars = TL_CHART_VIEW (tl_chart_view_new (TL_CHART_BARS));
  gtk_widget_set_hexpand (GTK_WIDGET (self->bars), TRUE);
  gtk_box_pack_start (GTK_BOX (self->bars_box), GTK_WIDGET (self->bars), TRUE, TRUE, 0);
  g_signal_connect (self->bars, "bar-activated", G_CALLBACK (bar_activated_cb), self);
  self->sweep = TL_CHART_VIEW (tl_chart_view_new (TL_CHART_SWEEP));
  gtk_box_pack_start (GTK_BOX (self->sweep_box), GTK_WIDGET (self->sweep), TRUE, TRUE, 0);
  gtk_widget_show (GTK_WIDGET (self->bars));
  gtk_widget_show (GTK_WIDGET (self->sweep));

  build_kernel_list (self);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->dtype_combo), "float32");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->colormap_combo), "auto");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->scale_combo), "linear");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->pool_combo), "mean");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->metric_combo), "time");
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->backend_combo), "cpu", _("CPU"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->backend_combo), "cpu");

  self->settings = maybe_settings ();
  if (self->settings)
    {
      g_settings_bind (self->settings, "colormap", self->colormap_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "scale", self->scale_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "pool-mode", self->pool_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "shared-scale", self->shared_check, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "tile-grid", self->tiles_check, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "repeats", self->repeats_spin, "value", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "dtype", self->dtype_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
    }

  g_signal_connect (self->colormap_combo, "changed", G_CALLBACK (colour_changed_cb), self);
  g_signal_connect (self->scale_combo, "changed", G_CALLBACK (colour_changed_cb), self);
  g_signal_connect (self->pool_combo, "changed", G_CALLBACK (colour_changed_cb), self);
  g_signal_connect (self->shared_check, "toggled", G_CALLBACK (colour_changed_cb), self);
  g_signal_connect (self->tiles_check, "toggled", G_CALLBACK (tiles_toggled_cb), self);
  g_signal_connect (self->c_combo, "changed", G_CALLBACK (c_combo_changed_cb), self);
  g_signal_connect (self->metric_combo, "changed", G_CALLBACK (metric_changed_cb), self);
  g_signal_connect (self->rung_combo, "changed", G_CALLBACK (rung_changed_cb), self);
  g_signal_connect (self->backend_combo, "changed", G_CALLBACK (backend_changed_cb), self);
  g_signal_connect (self->dtype_combo, "changed", G_CALLBACK (dtype_changed_cb), self);
  colour_changed_cb (NULL, self);

  /* one worker owns the GPU; it opens it lazily, never here */
  self->runner = new_background_runner ();

  self->blocks_page = TL_BLOCKS_PAGE (tl_blocks_page_new ());
  self->gauss_page = TL_GAUSS_PAGE (tl_gauss_page_new (self->runner));
  self->source_page = TL_SOURCE_PAGE (tl_source_page_new ());
  GtkWidget *device_page = gtk_stack_get_child_by_name (GTK_STACK (self->view_stack), "device");
  g_object_ref (device_page);
  gtk_container_remove (GTK_CONTAINER (self->view_stack), device_page);
  gtk_stack_add_titled (GTK_STACK (self->view_stack), GTK_WIDGET (self->blocks_page), "blocks", _("Blocks"));
  gtk_stack_add_titled (GTK_STACK (self->view_stack), GTK_WIDGET (self->gauss_page), "gauss", _("Gauss"));
  gtk_stack_add_titled (GTK_STACK (self->view_stack), GTK_WIDGET (self->source_page), "source", _("Source"));
  gtk_stack_add_titled (GTK_STACK (self->view_stack), device_page, "device", _("Device"));
  g_object_unref (device_page);
  tl_gauss_page_set_matrix (self->gauss_page, NULL);
  g_signal_connect (self, "key-press-event", G_CALLBACK (key_press_cb), self);
  g_signal_connect (self->blocks_page, "tile-hovered", G_CALLBACK (tile_hovered_cb), self);
  g_signal_connect (self->runner, "progress", G_CALLBACK (progress_cb), self);
  g_signal_connect (self->runner, "kernel-finished", G_CALLBACK (kernel_finished_cb), self);

  static const GtkTargetEntry targets[] = { { (char *) "text/uri-list", 0, 0 } };
  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, targets, 1, GDK_ACTION_COPY);
  g_signal_connect (self, "drag-data-received", G_CALLBACK (drag_data_received_cb), self);

  tick_defaults (self, FALSE);
  update_kernel_sensitivity (self);
  update_device_label (self);
  refresh_c_panels (self);
  update_compare (self);
  update_sweep (self);
  update_actions (self);

  g_autoptr (GTask) probe = g_task_new (self, NULL, gpu_probe_done_cb, NULL);
  g_task_run_in_thread (probe, gpu_probe_thread);
}

TlWindow *
tl_window_new (GtkApplication *app)
{
  return g_object_new (TL_TYPE_WINDOW, "application", app, NULL);
}

/* ---- state --------------------------------------------------------------- */

TlMatrix *
tl_window_get_source (TlWindow *self, guint target)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return self->src[target == TL_TARGET_B ? 1 : 0];
}

const char *
tl_window_get_info_message (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  if (!gtk_info_bar_get_revealed (GTK_INFO_BAR (self->info_bar)))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->info_label));
}

gboolean
tl_window_is_running (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  return self->running;
}

gboolean
tl_window_is_busy (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), FALSE);
  return self->running || self->n_pending_sources > 0 || !self->gpu_probe_done
         || tl_gauss_page_is_busy (self->gauss_page);
}

guint
tl_window_get_n_live_results (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), 0);
  return self->live_runs->len;
}

const TlRunRecord *
tl_window_get_record (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return self->record;
}

guint
tl_window_get_n_bars (TlWindow *self)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), 0);
  return tl_chart_view_get_n_bars (self->bars);
}

void
tl_window_show_view (TlWindow *self, const char *name)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (GTK_STACK (self->view_stack), name);
}

void
tl_window_set_presentation (TlWindow *self, gboolean on)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  double scale = on ? 1.6 : 1.0;

  gboolean hc = self->high_contrast;

  self->presentation = on;
  /* the view fills the screen: no header bar, sidebar, banners or toolbars
   * (F5, F11 or Escape leave; the keys keep working) */
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (self));
  if (titlebar)
    gtk_widget_set_visible (titlebar, !on);
  gtk_widget_set_visible (self->sidebar, !on);
  gtk_widget_set_visible (self->gpu_bar, !on);
  TlHeatmapView *views[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref, self->hm_err };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    tl_heatmap_view_set_presentation (views[i], scale, hc);
  tl_chart_view_set_presentation (self->bars, scale, hc);
  tl_chart_view_set_presentation (self->sweep, scale, hc);
  tl_blocks_page_set_presentation (self->blocks_page, on, hc);
  tl_gauss_page_set_presentation (self->gauss_page, on, hc);
  if (on)
    gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self)), "presentation");
  else
    gtk_style_context_remove_class (gtk_widget_get_style_context (GTK_WIDGET (self)), "presentation");

  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  if (on && self->inhibit_cookie == 0 && app)
    self->inhibit_cookie = gtk_application_inhibit (app, GTK_WINDOW (self), GTK_APPLICATION_INHIBIT_IDLE,
                                                    _("Presenting"));
  else if (!on && self->inhibit_cookie && app)
    {
      gtk_application_uninhibit (app, self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }
  if (on)
    gtk_window_fullscreen (GTK_WINDOW (self));
  else
    gtk_window_unfullscreen (GTK_WINDOW (self));
}

void
tl_window_hover_c (TlWindow *self, gssize row, gssize col)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  TlMatrix *c = tl_heatmap_view_get_matrix (self->hm_c);
  double v = c && row >= 0 && col >= 0 && (gsize) row < c->rows && (gsize) col < c->cols
               ? tl_matrix_get (c, row, col) : NAN;
  hover_cb (self->hm_c, row, row < 0 ? -1 : col, v, self);
}

void
tl_window_select_bar (TlWindow *self, gint index)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  tl_chart_view_set_selected (self->bars, index);
  bar_activated_cb (self->bars, index, self);
}

void
tl_window_show_c (TlWindow *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->c_combo), kernel_id);
}

void
tl_window_set_tile_grid (TlWindow *self, gboolean show)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->tiles_check), show);
}

void
tl_window_run_sweep (TlWindow *self)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  start_sweep (self);
}

GtkWidget *
tl_window_get_heatmap (TlWindow *self, const char *name)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  if (g_strcmp0 (name, "A") == 0)
    return GTK_WIDGET (self->hm_a);
  if (g_strcmp0 (name, "B") == 0)
    return GTK_WIDGET (self->hm_b);
  if (g_strcmp0 (name, "C") == 0)
    return GTK_WIDGET (self->hm_c);
  if (g_strcmp0 (name, "ref") == 0)
    return GTK_WIDGET (self->hm_ref);
  return GTK_WIDGET (self->hm_err);
}

GtkWidget *
tl_window_get_page (TlWindow *self, const char *name)
{
  g_return_val_if_fail (TL_IS_WINDOW (self), NULL);
  return gtk_stack_get_child_by_name (GTK_STACK (self->view_stack), name);
}

void
tl_window_report (TlWindow *self, GtkMessageType type, const char *text)
{
  g_return_if_fail (TL_IS_WINDOW (self));
  show_message (self, type, text);
}
