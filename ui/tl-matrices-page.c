/* tl-matrices-page.c — the heatmaps of A, B, C, the reference and the error. */
#include "tl-matrices-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "view/tl-compare-bars.h"
#include "tl-heatmap-view.h"
#include "tl-run-text.h"
#include "tl-ui-util.h"

struct _TlMatricesPage
{
  GtkBox parent_instance;

  TlSession *session;
  GCancellable *diff_cancellable;
  gboolean updating_c_combo;

  GtkWidget *matrices_toolbar;
  GtkWidget *c_combo;
  GtkWidget *colormap_combo;
  GtkWidget *scale_combo;
  GtkWidget *pool_combo;
  GtkWidget *shared_check;
  GtkWidget *stretch_check;
  GtkWidget *tiles_check;
  GtkWidget *hm_a, *hm_b, *hm_c, *hm_ref, *hm_err;
  GtkWidget *summary_label;
  gboolean before_run;   /* the summary's row as high as its text */
  int summary_width;     /* the width its height was fitted at */
  guint summary_fit_id;  /* an idle that fits it again at a new width */
};

static void tl_matrices_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlMatricesPage, tl_matrices_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_matrices_page_page_init))


#define HM(w) TL_HEATMAP_VIEW (w)

/* ---- hover: C[i, j] is row i of A times column j of B ------------------- */

static void
highlight_all (TlMatricesPage *self, gssize row, gssize col)
{
  GtkWidget *views[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref, self->hm_err };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    tl_heatmap_view_set_highlight (HM (views[i]), row, col);
}

static void
hover_cb (TlHeatmapView *view, gint64 row, gint64 col, double value, TlMatricesPage *self)
{
  GtkWidget *w = GTK_WIDGET (view);
  const char *name = w == self->hm_a ? "A" : w == self->hm_b ? "B" : w == self->hm_c ? "C"
                     : w == self->hm_ref ? "ref" : "|C − ref|";
  if (row < 0)
    {
      highlight_all (self, -1, -1);
      return;
    }
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *text = g_strdup_printf ("%s[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] = %s",
                                           name, row, col,
                                           isnan (value) ? "NaN" : g_ascii_formatd (num, sizeof num, "%.7g", value));
  tl_page_emit_hover_text (TL_PAGE (self), text);

  if (w == self->hm_c || w == self->hm_ref || w == self->hm_err)
    {
      tl_heatmap_view_set_highlight (HM (self->hm_a), row, -1);
      tl_heatmap_view_set_highlight (HM (self->hm_b), -1, col);
      tl_heatmap_view_set_highlight (HM (self->hm_c), row, col);
      tl_heatmap_view_set_highlight (HM (self->hm_ref), row, col);
      tl_heatmap_view_set_highlight (HM (self->hm_err), row, col);
    }
  else if (w == self->hm_a)
    {
      /* A[i, p] feeds row i of C */
      tl_heatmap_view_set_highlight (HM (self->hm_a), row, -1);
      tl_heatmap_view_set_highlight (HM (self->hm_c), row, -1);
      tl_heatmap_view_set_highlight (HM (self->hm_b), col, -1);
    }
  else if (w == self->hm_b)
    {
      tl_heatmap_view_set_highlight (HM (self->hm_b), -1, col);
      tl_heatmap_view_set_highlight (HM (self->hm_c), -1, col);
      tl_heatmap_view_set_highlight (HM (self->hm_a), -1, row);
    }
}

/* ---- colour ---------------------------------------------------------------- */

static void
apply_shared_range (TlMatricesPage *self)
{
  GtkWidget *v[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref };
  gboolean shared = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->shared_check));
  double lo = INFINITY, hi = -INFINITY;

  if (shared)
    for (guint i = 0; i < G_N_ELEMENTS (v); i++)
      {
        double a, b;
        if (tl_heatmap_view_get_range (HM (v[i]), &a, &b))
          {
            lo = MIN (lo, a);
            hi = MAX (hi, b);
          }
      }
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    tl_heatmap_view_set_shared_range (HM (v[i]), shared && lo <= hi ? lo : 1, shared && lo <= hi ? hi : 0);
}

static void
view_busy_cb (GObject *view, GParamSpec *pspec, TlMatricesPage *self)
{
  if (!tl_heatmap_view_is_busy (TL_HEATMAP_VIEW (view)))
    apply_shared_range (self);
}

static void
colour_changed_cb (GtkWidget *widget, TlMatricesPage *self)
{
  GtkWidget *v[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref };
  TlColormap map = TL_COLORMAP_VIRIDIS;
  TlScale scale = TL_SCALE_LINEAR;
  const char *map_id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->colormap_combo));
  gint colormap = map_id && tl_colormap_from_name (map_id, &map) ? (gint) map : -1;
  const char *scale_id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->scale_combo));
  if (scale_id)
    tl_scale_from_name (scale_id, &scale);
  TlPoolMode mode = g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->pool_combo)), "max") == 0
                      ? TL_POOL_MAX_ABS : TL_POOL_MEAN;

  if (self->hm_err == NULL)
    return; /* still building the template */
  gboolean stretch = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->stretch_check));
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      tl_heatmap_view_set_colormap (HM (v[i]), colormap, scale);
      tl_heatmap_view_set_pool_mode (HM (v[i]), mode);
    }
  GtkWidget *all[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref, self->hm_err };
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    tl_heatmap_view_set_stretch (HM (all[i]), stretch);
  /* the error map always keeps each block's largest error: a mean would
   * hide the one wrong element a lecturer is looking for */
  tl_heatmap_view_set_pool_mode (HM (self->hm_err), TL_POOL_MAX_ABS);
  apply_shared_range (self);
}

/* ---- |C − reference| off the main loop ------------------------------------ */

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
  TlMatricesPage *self = TL_MATRICES_PAGE (object);
  DiffTask *t = g_task_get_task_data (G_TASK (result));
  g_autoptr (TlMatrix) d = g_task_propagate_pointer (G_TASK (result), NULL);

  if (d == NULL)
    return;
  g_autofree char *mx = tl_run_text_number (t->max);
  g_autofree char *mean = tl_run_text_number (t->mean);
  g_autofree char *caption = g_strdup_printf (_("· max %s · mean %s"), mx, mean);
  tl_heatmap_view_set_matrix (HM (self->hm_err), d, _("|C − reference|"), caption);
}

static void
start_diff (TlMatricesPage *self, const TlKernelRun *r, TlMatrix *ref)
{
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
    tl_heatmap_view_set_matrix (HM (self->hm_err), NULL, NULL, NULL);
}

/* ---- C, the reference and the summary ------------------------------------- */

/* the runs whose C belongs beside the A and B shown (none when stale) */
static GPtrArray *
current_runs (TlMatricesPage *self)
{
  if (self->session == NULL || tl_session_results_are_stale (self->session))
    return NULL;
  return tl_session_get_runs (self->session);
}

static gboolean
runs_have_c (GPtrArray *runs)
{
  for (guint i = 0; runs && i < runs->len; i++)
    if (((const TlKernelRun *) runs->pdata[i])->c)
      return TRUE;
  return FALSE;
}

/* Whether no run finished with a result (each failed, was cancelled or
 * skipped): the page then says so, not that a record left C out. */
static gboolean
runs_all_unfinished (GPtrArray *runs)
{
  for (guint i = 0; runs && i < runs->len; i++)
    if (((const TlKernelRun *) runs->pdata[i])->status == TL_RUN_OK)
      return FALSE;
  return runs && runs->len > 0;
}

/* what the C panel says while it has nothing to show, and why */
static char *
c_placeholder (TlMatricesPage *self)
{
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  TlMatrix *a = self->session ? tl_session_get_source (self->session, 0) : NULL;
  TlMatrix *b = self->session ? tl_session_get_source (self->session, 1) : NULL;
  if (a && b && a->cols != b->rows)
    /* TRANSLATORS: A's columns, B's rows */
    return g_strdup_printf (_("C: none — A has %zu columns, B %zu rows"), a->cols, b->rows);
  if (self->session && tl_session_results_are_stale (self->session))
    return g_strdup (_("C: press Run for these A, B"));
  if (record && runs_all_unfinished (record->runs))
    return g_strdup (_("C: no kernel finished"));
  if (record && !runs_have_c (record->runs))
    return g_strdup (_("C: not in this run record"));
  return g_strdup (_("C = A·B: press Run"));
}

static const TlKernelRun *
selected_c_run (TlMatricesPage *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo));
  GPtrArray *runs = current_runs (self);
  for (guint i = 0; id && runs && i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      if (g_strcmp0 (r->kernel_id, id) == 0)
        return r;
    }
  return NULL;
}

static void
update_summary (TlMatricesPage *self, const TlKernelRun *r)
{
  GString *s = g_string_new (NULL);
  GPtrArray *runs = current_runs (self);
  g_autofree char *mismatch = NULL;

  if (r)
    {
      gsize m, k, n;
      tl_session_get_size (self->session, &m, &k, &n);
      g_autofree char *label = tl_kernel_display_name (r->info, r->kernel_id);
      const TlKernelInfo *info = r->info;
      g_string_append_printf (s, "<b>%s</b>\n", label);
      if (info && info->lesson && *info->lesson)
        {
          g_autofree char *e = g_markup_escape_text (_(info->lesson), -1);
          g_string_append_printf (s, "<i>%s</i>\n\n", e);
        }
      g_autoptr (GString) line = g_string_new (NULL);
      tl_run_text_describe (r, tl_stats_gemm_flops (m, k, n), line);
      g_autofree char *e = g_markup_escape_text (line->str, -1);
      g_string_append_printf (s, "%s\n", e);
      if (r->verified)
        {
          g_autofree char *a = tl_run_text_number (r->max_abs);
          g_autofree char *b = tl_run_text_number (r->rel_norm);
          g_autofree char *t = tl_run_text_number (r->tolerance);
          g_string_append_printf (s, _("\nmax |C − ref| %s\n‖C − ref‖/‖ref‖ %s (tolerance %s)\n"), a, b, t);
        }
      if (!isnan (r->speedup_vs_naive) && r->speedup_vs_naive > 0)
        g_string_append_printf (s, _("%.1f× faster than CPU naive\n"), r->speedup_vs_naive);
    }
  else if (self->session && (mismatch = tl_session_mismatch_text (self->session)) != NULL)
    {
      /* A and B do not multiply: Run would only refuse, so say what to open */
      g_autofree char *e = g_markup_escape_text (mismatch, -1);
      g_string_append (s, e);
    }
  else if (self->session && tl_session_results_are_stale (self->session))
    {
      g_autofree char *e = g_markup_escape_text (tl_session_stale_text (self->session), -1);
      g_string_append (s, e);
    }
  else if (runs == NULL || runs->len == 0)
    g_string_append (s, _("Press <b>Run</b> (Ctrl+R): C, the float64 reference and the error |C − reference| appear here as each kernel finishes.\n\n"
                          "Hover over C to highlight the row of A and the column of B that made that element."));
  else if (runs_all_unfinished (runs))
    g_string_append (s, _("No kernel of this run finished with a result: the message bar and Compare "
                          "say why for each one."));
  else if (!runs_have_c (runs))
    g_string_append (s, _("The runs on show kept no result matrices (tilelab-cli gemm --save-matrices keeps them): "
                          "their timings are in Compare, Blocks and Device."));
  gtk_label_set_markup (GTK_LABEL (self->summary_label), s->str);
  g_string_free (s, TRUE);
}

/* Before a run the summary's scrolled window is as high as its text at
 * the width it has (its natural height is that of one long line); after
 * one it shares the row's height. */
static void
fit_summary_height (TlMatricesPage *self)
{
  GtkWidget *summary = gtk_widget_get_ancestor (self->summary_label, GTK_TYPE_SCROLLED_WINDOW);
  if (summary == NULL)
    return;
  int width = gtk_widget_get_allocated_width (summary), text_h = -1;
  if (self->before_run && width > 1)
    {
      gtk_widget_get_preferred_height_for_width (self->summary_label, width - 24, NULL, &text_h);
      text_h += 12;
    }
  self->summary_width = width;
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (summary), text_h);
}

static gboolean
summary_fit_cb (gpointer data)
{
  TlMatricesPage *self = data;
  self->summary_fit_id = 0;
  fit_summary_height (self);
  return G_SOURCE_REMOVE;
}

/* A new width (the window resized): the text's height again, after this
 * allocation (fitted once, at the width it had then, it was 100 px of
 * the 194 its text needs at 1024×768) */
static void
summary_allocate_cb (GtkWidget *summary, GdkRectangle *allocation, TlMatricesPage *self)
{
  if (self->before_run && allocation->width != self->summary_width && self->summary_fit_id == 0)
    self->summary_fit_id = g_idle_add (summary_fit_cb, self);
}

/* Before a run the reference and error panels hold a line of text each:
 * their row takes only its natural height (the summary's, or the panels'
 * 100 px) and A, B and C get the rest, instead of half the page each. */
static void
give_inputs_the_room (TlMatricesPage *self, gboolean before_run)
{
  GtkWidget *summary = gtk_widget_get_ancestor (self->summary_label, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *grid = gtk_widget_get_parent (self->hm_ref);
  self->before_run = before_run;
  gtk_grid_set_row_homogeneous (GTK_GRID (grid), !before_run);
  gtk_widget_set_vexpand (self->hm_ref, !before_run);
  gtk_widget_set_vexpand (self->hm_err, !before_run);
  if (summary)
    gtk_widget_set_vexpand (summary, !before_run);
  fit_summary_height (self);
}

static void
refresh_c_panels (TlMatricesPage *self)
{
  const TlKernelRun *r = selected_c_run (self);
  TlRunRecord *record = self->session ? tl_session_get_record (self->session) : NULL;
  TlMatrix *ref = record && current_runs (self) ? record->reference : NULL;

  g_autofree char *placeholder = c_placeholder (self);
  tl_heatmap_view_set_empty_text (HM (self->hm_c), placeholder);
  if (r && r->c)
    {
      g_autofree char *label = tl_kernel_display_name (r->info, r->kernel_id);
      g_autofree char *title = g_strdup_printf (_("C — %s"), label);
      tl_heatmap_view_set_matrix (HM (self->hm_c), r->c, title, tl_dtype_name (r->c->dtype));
      const TlKernelInfo *info = r->info;
      gboolean show = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->tiles_check));
      int tm = r->block_tile_m ? (int) r->block_tile_m : info ? info->tile_m : 0;
      int tn = r->block_tile_n ? (int) r->block_tile_n : info ? info->tile_n : 0;
      tl_heatmap_view_set_tiles (HM (self->hm_c), tm, tn, show);
      tl_heatmap_view_set_tiles (HM (self->hm_err), tm, tn, show);
    }
  else
    tl_heatmap_view_set_matrix (HM (self->hm_c), NULL, NULL, NULL);

  if (ref)
    tl_heatmap_view_set_matrix (HM (self->hm_ref), ref, _("reference (float64)"), "float64");
  else
    tl_heatmap_view_set_matrix (HM (self->hm_ref), NULL, NULL, NULL);
  /* the summary's text first: its height is fitted to it */
  update_summary (self, r);
  give_inputs_the_room (self, !(r && r->c) && !ref);
  start_diff (self, r, ref);
}

/* the kernels with a C to show, keeping the choice (else the newest) */
static void
update_c_view (TlMatricesPage *self)
{
  GPtrArray *runs = current_runs (self);
  g_autofree char *active = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo)));
  const char *newest = NULL;
  gboolean found = FALSE;

  self->updating_c_combo = TRUE;
  gtk_combo_box_text_remove_all (GTK_COMBO_BOX_TEXT (self->c_combo));
  for (guint i = 0; runs && i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      if (r->c == NULL)
        continue;
      g_autofree char *label = tl_kernel_display_name (r->info, r->kernel_id);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->c_combo), r->kernel_id, label);
      found |= g_strcmp0 (active, r->kernel_id) == 0;
      newest = r->kernel_id;
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->c_combo), found ? active : newest);
  self->updating_c_combo = FALSE;
  refresh_c_panels (self);
}

static void
tiles_toggled_cb (GtkToggleButton *button, TlMatricesPage *self)
{
  if (self->session)
    refresh_c_panels (self);
}

static void
c_combo_changed_cb (GtkComboBox *combo, TlMatricesPage *self)
{
  if (!self->updating_c_combo && self->session)
    refresh_c_panels (self);
}

static void
fit_clicked_cb (GtkButton *button, TlMatricesPage *self)
{
  tl_matrices_page_fit (self);
}

/* ---- the session ----------------------------------------------------------- */

static void
source_changed_cb (TlSession *session, guint i, TlMatricesPage *self)
{
  TlMatrix *m = tl_session_get_source (session, i);
  tl_heatmap_view_set_matrix (HM (i == 0 ? self->hm_a : self->hm_b), m, i == 0 ? "A" : "B",
                              m ? tl_dtype_name (m->dtype) : NULL);
  /* C's placeholder says at once when A and B cannot be multiplied */
  update_c_view (self);
}

/* An empty A or B says what is being read into it, as its card does. */
static void
source_loading_cb (TlSession *session, guint i, TlMatricesPage *self)
{
  double fraction = 0;
  g_autofree char *loading = tl_session_get_source_loading (session, i, &fraction);
  g_autofree char *text = NULL;
  if (loading)
    /* TRANSLATORS: on an empty heatmap while a file is read into it: "A: loading big.csv… 45 %" */
    text = g_strdup_printf (_("%s: loading %s… %.0f %%"), i == 0 ? "A" : "B", loading, 100.0 * fraction);
  else
    text = g_strdup (i == 0 ? _("A: open or generate") : _("B: open or generate"));
  tl_heatmap_view_set_empty_text (HM (i == 0 ? self->hm_a : self->hm_b), text);
}

static void
results_changed_cb (TlSession *session, TlMatricesPage *self)
{
  update_c_view (self);
}

static void
matrices_set_session (TlPage *page, TlSession *session)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  tl_page_connect_session (&self->session, session, self,
                           "source-changed", source_changed_cb,
                           "source-loading", source_loading_cb,
                           "results-changed", results_changed_cb, NULL);
  if (session)
    {
      source_changed_cb (session, 0, self);
      source_changed_cb (session, 1, self);
    }
  update_c_view (self);
}

static void
matrices_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  GtkWidget *views[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref, self->hm_err };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    tl_heatmap_view_set_presentation (HM (views[i]), on ? 1.6 : 1.0, high_contrast);
}

/* clickers: the previous or next kernel's C */
static gboolean
matrices_step (TlPage *page, int direction)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  GtkComboBox *combo = GTK_COMBO_BOX (self->c_combo);
  int n = gtk_tree_model_iter_n_children (gtk_combo_box_get_model (combo), NULL);
  int i = gtk_combo_box_get_active (combo) + direction;
  if (i >= 0 && i < n)
    gtk_combo_box_set_active (combo, i);
  return TRUE;
}

static gboolean
matrices_has_content (TlPage *page)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  return self->session && (tl_session_get_source (self->session, 0) || tl_session_get_source (self->session, 1)
                           || runs_have_c (current_runs (self)));
}

static gboolean
matrices_export_options (TlPage *page, TlRenderOptions *o)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  o->view = TL_RENDER_HEATMAP;
  o->matrix = "C";
  o->kernels = tl_matrices_page_get_shown_kernel (self);
  o->stretch = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->stretch_check));
  /* no kernel's C (a record saved without its matrices): no picture */
  return runs_have_c (current_runs (self));
}

/* win.fit: every heatmap shows its whole matrix again */
static void
fit_action (GSimpleAction *action, GVariant *parameter, gpointer self)
{
  tl_matrices_page_fit (self);
}

static void
matrices_add_actions (TlPage *page, GActionMap *map)
{
  static const GActionEntry entries[] = { { "fit", fit_action } };
  g_action_map_add_action_entries (map, entries, G_N_ELEMENTS (entries), page);
}

/* colours, pooling and the tile grid are remembered */
static void
matrices_bind_settings (TlPage *page, GSettings *settings)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  g_settings_bind (settings, "colormap", self->colormap_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
  /* the scale is not remembered: a log scale chosen for one matrix would
   * greet the next, signed one (see the colour bar's masked cells) */
  g_settings_bind (settings, "pool-mode", self->pool_combo, "active-id", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "shared-scale", self->shared_check, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "tile-grid", self->tiles_check, "active", G_SETTINGS_BIND_DEFAULT);
}

/* a block's tile of C read rows of A and columns of B: they are marked
 * (and the tile in C when kernel_id's C is shown); rows == 0 clears */
static void
matrices_show_tile (TlPage *page, const char *kernel_id, guint64 row0, guint64 rows, guint64 col0,
                    guint64 cols)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (page);
  if (kernel_id == NULL || rows == 0 || cols == 0)
    {
      tl_heatmap_view_set_highlight (HM (self->hm_a), -1, -1);
      tl_heatmap_view_set_highlight (HM (self->hm_b), -1, -1);
      tl_heatmap_view_set_highlight (HM (self->hm_c), -1, -1);
      return;
    }
  tl_heatmap_view_set_highlight_span (HM (self->hm_a), (gssize) row0, rows, -1, 1);
  tl_heatmap_view_set_highlight_span (HM (self->hm_b), -1, 1, (gssize) col0, cols);
  if (g_strcmp0 (tl_matrices_page_get_shown_kernel (self), kernel_id) == 0)
    tl_heatmap_view_set_highlight_span (HM (self->hm_c), (gssize) row0, rows, (gssize) col0, cols);
}

static const char *
matrices_hint (TlPage *page)
{
  return _("Point at a heatmap to read it");
}

/* C is of the record on show; a live run's inputs leave it unsaid */
static guint
matrices_shown_records (TlPage *page, TlRunRecord **shown)
{
  TlSession *session = TL_MATRICES_PAGE (page)->session;
  *shown = session ? tl_session_get_record (session) : NULL;
  return *shown ? 1 : TL_PAGE_RECORDS_UNSAID;
}

static void
tl_matrices_page_page_init (TlPageInterface *iface)
{
  iface->hint = matrices_hint;
  iface->shown_records = matrices_shown_records;
  iface->set_session = matrices_set_session;
  iface->set_presentation = matrices_set_presentation;
  iface->step = matrices_step;
  iface->export_options = matrices_export_options;
  iface->has_content = matrices_has_content;
  iface->add_actions = matrices_add_actions;
  iface->bind_settings = matrices_bind_settings;
  iface->show_tile = matrices_show_tile;
}

/* ---- the page ------------------------------------------------------------ */

void
tl_matrices_page_show_c (TlMatricesPage *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_MATRICES_PAGE (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->c_combo), kernel_id);
}

const char *
tl_matrices_page_get_shown_kernel (TlMatricesPage *self)
{
  g_return_val_if_fail (TL_IS_MATRICES_PAGE (self), NULL);
  return gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->c_combo));
}

void
tl_matrices_page_set_tile_grid (TlMatricesPage *self, gboolean show)
{
  g_return_if_fail (TL_IS_MATRICES_PAGE (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->tiles_check), show);
}

void
tl_matrices_page_fit (TlMatricesPage *self)
{
  g_return_if_fail (TL_IS_MATRICES_PAGE (self));
  GtkWidget *views[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref, self->hm_err };
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    tl_heatmap_view_fit (HM (views[i]));
}

void
tl_matrices_page_hover_c (TlMatricesPage *self, gssize row, gssize col)
{
  g_return_if_fail (TL_IS_MATRICES_PAGE (self));
  TlMatrix *c = tl_heatmap_view_get_matrix (HM (self->hm_c));
  double v = c && row >= 0 && col >= 0 && (gsize) row < c->rows && (gsize) col < c->cols
               ? tl_matrix_get (c, row, col) : NAN;
  hover_cb (HM (self->hm_c), row, row < 0 ? -1 : col, v, self);
}

GtkWidget *
tl_matrices_page_get_heatmap (TlMatricesPage *self, const char *name)
{
  g_return_val_if_fail (TL_IS_MATRICES_PAGE (self), NULL);
  if (g_strcmp0 (name, "A") == 0)
    return self->hm_a;
  if (g_strcmp0 (name, "B") == 0)
    return self->hm_b;
  if (g_strcmp0 (name, "C") == 0)
    return self->hm_c;
  if (g_strcmp0 (name, "ref") == 0)
    return self->hm_ref;
  return self->hm_err;
}

static void
tl_matrices_page_dispose (GObject *object)
{
  TlMatricesPage *self = TL_MATRICES_PAGE (object);
  if (self->diff_cancellable)
    g_cancellable_cancel (self->diff_cancellable);
  g_clear_object (&self->diff_cancellable);
  tl_page_disconnect_session (&self->session, self);
  g_clear_handle_id (&self->summary_fit_id, g_source_remove);
  G_OBJECT_CLASS (tl_matrices_page_parent_class)->dispose (object);
}

static void
tl_matrices_page_class_init (TlMatricesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_matrices_page_dispose;
  g_type_ensure (TL_TYPE_HEATMAP_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-matrices-page.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, TlMatricesPage, name)
  CHILD (matrices_toolbar);
  CHILD (c_combo);
  CHILD (colormap_combo);
  CHILD (scale_combo);
  CHILD (pool_combo);
  CHILD (shared_check);
  CHILD (stretch_check);
  CHILD (tiles_check);
  CHILD (hm_a);
  CHILD (hm_b);
  CHILD (hm_c);
  CHILD (hm_ref);
  CHILD (hm_err);
  CHILD (summary_label);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, hover_cb);
  gtk_widget_class_bind_template_callback (widget_class, view_busy_cb);
  gtk_widget_class_bind_template_callback (widget_class, colour_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, tiles_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, c_combo_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, fit_clicked_cb);
}

static void
tl_matrices_page_init (TlMatricesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  tl_heatmap_view_set_empty_text (HM (self->hm_a), _("A: open or generate"));
  tl_heatmap_view_set_empty_text (HM (self->hm_b), _("B: open or generate"));
  tl_heatmap_view_set_empty_text (HM (self->hm_c), _("C = A·B: press Run"));
  tl_heatmap_view_set_empty_text (HM (self->hm_ref), _("reference: after a run"));
  tl_heatmap_view_set_empty_text (HM (self->hm_err), _("|C − ref|: after a run"));
  GtkWidget *values[] = { self->hm_a, self->hm_b, self->hm_c, self->hm_ref };
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    tl_heatmap_view_set_units (HM (values[i]), _("value"));
  tl_heatmap_view_set_units (HM (self->hm_err), _("absolute error"));
  tl_heatmap_view_set_colormap (HM (self->hm_err), TL_COLORMAP_VIRIDIS, TL_SCALE_LOG);

  tl_combo_box_allow_shrinking (GTK_COMBO_BOX (self->c_combo), 12);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->colormap_combo), "auto");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->scale_combo), "linear");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->pool_combo), "mean");
  colour_changed_cb (NULL, self);
  update_summary (self, NULL);
  GtkWidget *summary = gtk_widget_get_ancestor (self->summary_label, GTK_TYPE_SCROLLED_WINDOW);
  if (summary)
    g_signal_connect (summary, "size-allocate", G_CALLBACK (summary_allocate_cb), self);
}
