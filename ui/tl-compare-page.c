/* tl-compare-page.c — bars per kernel, a run's details, the size sweep. */
#include "tl-compare-page.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "view/tl-compare-bars.h"
#include "view/tl-format.h"
#include "view/tl-compare-counters.h"
#include "record/tl-counters.h"
#include "tl-chart-view.h"
#include "tl-run-text.h"
#include "tl-ui-util.h"

struct _TlComparePage
{
  GtkBox parent_instance;

  TlSession *session;
  gint selected_bar;
  GtkWidget *bars, *sweep;   /* TlChartView */

  GtkWidget *metric_combo;
  GtkWidget *color_combo;   /* "kernel" or a counter view's key */
  GtkWidget *sweep_group;   /* the sweep's button, sizes and percent */
  GtkWidget *csv_button;
  GtkWidget *color_legend;
  GtkWidget *stale_label, *lu_label, *placeholder;
  GtkWidget *compare_paned, *charts_scroller, *charts_column;
  GtkWidget *bars_box;
  GtkWidget *sweep_box;
  GtkWidget *details_box, *details_label;
  GtkWidget *slide_hint;    /* presenting one chart: the key to the other */
  gboolean presentation;
  gboolean sweep_has_sizes; /* the sweep chart has something to show */
  gboolean showing_sweep;   /* one chart at a time: the sweep on the screen instead of the bars */
  gboolean window_too_short; /* for both charts (and the details under them) */
  gboolean has_lu;          /* an LU record's facts to show */
  guint fit_id;             /* placing the details and fitting the charts to the page */
  int fitted_w, fitted_h;   /* the charts' page as last fitted */
  GtkWidget *chart_switch, *bars_shown, *sweep_shown;
  GtkWidget *sweep_sizes, *sweep_percent;
};

static void tl_compare_page_page_init (TlPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TlComparePage, tl_compare_page, GTK_TYPE_BOX,
                               G_IMPLEMENT_INTERFACE (TL_TYPE_PAGE, tl_compare_page_page_init))

static GPtrArray *
current_runs (TlComparePage *self)
{
  return self->session ? tl_session_get_runs (self->session) : NULL;
}

/* GEMM runs to chart, now or from a record */
static gboolean
has_gemm_runs (TlComparePage *self)
{
  GPtrArray *runs = current_runs (self);
  GPtrArray *history = self->session ? tl_session_get_history (self->session) : NULL;
  return (runs && runs->len) || (history && history->len);
}

/* An LU record's facts only when no GEMM bars are drawn: above a GEMM
 * chart they described another record than the chart's (the last one
 * opened), a lecturer's audience read them as the chart's caption. */
static void
show_lu_facts (TlComparePage *self)
{
  gtk_widget_set_visible (self->lu_label, self->has_lu && !has_gemm_runs (self));
}

/* One chart at a time: presenting (a clicker's Page Down goes from the
 * last bar to the sweep: two dozen bars and as many sweep lines in half a
 * projector each were unreadable), and in a window too short for both
 * (1024×768: the bars and the sweep's legend asked 95 px more than the
 * page had), where the switch in the toolbar chooses. */
static gboolean
one_at_a_time (TlComparePage *self)
{
  return self->sweep_has_sizes && (self->presentation || self->window_too_short);
}

/* In a window the bars and, once there are two sizes, the sweep under
 * them, with a run's details beside the bars once one is picked (under
 * both charts on a narrow page); or one chart at a time. */
static void
update_layout (TlComparePage *self)
{
  gboolean single = one_at_a_time (self);
  gboolean sweep_alone = single && self->showing_sweep;
  gtk_widget_set_visible (self->bars_box, !sweep_alone);
  gtk_widget_set_visible (self->sweep_box, self->sweep_has_sizes && (!single || self->showing_sweep));
  gtk_widget_set_visible (self->details_box, !self->presentation && !sweep_alone && self->selected_bar >= 0);
  gtk_widget_set_visible (self->chart_switch, single && !self->presentation);
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->sweep_shown)) != sweep_alone)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (sweep_alone ? self->sweep_shown : self->bars_shown), TRUE);
  /* presenting the sweep, what the bars show (nothing to do with it)
   * leaves it the room */
  gboolean sweep_slide = sweep_alone && self->presentation;
  show_lu_facts (self);
  gtk_widget_set_visible (gtk_widget_get_parent (gtk_widget_get_parent (self->metric_combo)), !sweep_slide);
  /* a lecturer forgets the sweep past the last bar, and the way back */
  gtk_widget_set_visible (self->slide_hint, single && self->presentation);
  gtk_label_set_text (GTK_LABEL (self->slide_hint),
                      sweep_alone ? _("Page Up: the bars") : _("Page Down past the last bar: the size sweep"));
  tl_page_emit_records_changed (TL_PAGE (self));
}

static void
chart_switch_toggled_cb (GtkToggleButton *sweep_shown, TlComparePage *self)
{
  self->showing_sweep = gtk_toggle_button_get_active (sweep_shown);
  update_layout (self);
}

/* A picked run's details beside the bars leave them too little width on
 * a 1024- or 1280-pixel screen (names cut, "× faster" dropped, every fact
 * wrapped twice): narrower than this, the details go under both charts,
 * never between the bars and the sweep (at 1024×768 they pushed the
 * sweep's legend off the page). */
#define DETAILS_BESIDE_MIN_WIDTH 1000

/* under the charts, the details keep a dozen lines; under the bars alone,
 * what the page leaves, never fewer than four (their box scrolls) */
#define DETAILS_BELOW_MAX_LINES 12
#define DETAILS_BELOW_MIN_LINES 4
/* the paned's handle and the column's spacing */
#define CHARTS_GAPS 12

/* a line of the details in their font, in pixels */
static int
details_line_height (TlComparePage *self)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (self->details_label, "Ag");
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  g_object_unref (layout);
  return MAX (h, 1);
}

static void
move_details (TlComparePage *self, GtkWidget *box)
{
  if (gtk_widget_get_parent (self->details_box) == box)
    return;
  g_object_ref (self->details_box);
  gtk_container_remove (GTK_CONTAINER (gtk_widget_get_parent (self->details_box)), self->details_box);
  gtk_box_pack_end (GTK_BOX (box), self->details_box, FALSE, TRUE, 0);
  g_object_unref (self->details_box);
}

/* the least height a chart asks at the column's width */
static int
chart_height (GtkWidget *chart, int width)
{
  int h;
  gtk_widget_get_preferred_height_for_width (chart, width, &h, NULL);
  return h;
}

/* Where the details go (beside the bars on a wide page, else under the
 * charts), and whether both charts and the details under them fit the
 * page's height: else one chart at a time, the details under the bars
 * taking the height the bars leave. */
static gboolean
fit_charts_cb (gpointer data)
{
  TlComparePage *self = data;
  self->fit_id = 0;
  int width = gtk_widget_get_allocated_width (self->charts_column);
  int page_h = gtk_widget_get_allocated_height (self->charts_scroller);
  gboolean beside = width >= DETAILS_BESIDE_MIN_WIDTH;
  move_details (self, beside ? self->bars_box : self->charts_column);
  int line_h = details_line_height (self), bars_h = chart_height (self->bars, width);
  gboolean details_under = !beside && self->selected_bar >= 0;
  int details_h = details_under ? DETAILS_BELOW_MAX_LINES * line_h + CHARTS_GAPS : 0;
  int sweep_h = self->sweep_has_sizes ? chart_height (self->sweep, width) + CHARTS_GAPS : 0;
  self->window_too_short = bars_h + sweep_h + details_h > page_h;
  int lines = DETAILS_BELOW_MAX_LINES;
  if (one_at_a_time (self))
    lines = CLAMP ((page_h - bars_h - 2 * CHARTS_GAPS) / line_h, DETAILS_BELOW_MIN_LINES, DETAILS_BELOW_MAX_LINES);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->details_box),
                                              beside ? -1 : lines * line_h);
  update_layout (self);
  return G_SOURCE_REMOVE;
}

static void
fit_charts_soon (TlComparePage *self)
{
  if (self->fit_id == 0)
    self->fit_id = g_idle_add (fit_charts_cb, self);
}

static void
scroller_allocate_cb (GtkWidget *scroller, GdkRectangle *alloc, TlComparePage *self)
{
  if (alloc->width != self->fitted_w || alloc->height != self->fitted_h)
    {
      self->fitted_w = alloc->width;
      self->fitted_h = alloc->height;
      fit_charts_soon (self);
    }
}

/* the charts, or why there are none yet */
static void
update_visibility (TlComparePage *self)
{
  gboolean any = has_gemm_runs (self);
  gtk_widget_set_visible (self->charts_scroller, any);
  gtk_widget_set_visible (self->placeholder, !any);
  show_lu_facts (self);
}

static void
update_lu (TlComparePage *self)
{
  g_autofree char *text = tl_run_text_lu (self->session ? tl_session_get_lu_run (self->session) : NULL);
  gtk_label_set_text (GTK_LABEL (self->lu_label), text ? text : "");
  self->has_lu = text != NULL;
  update_layout (self);
}

static void
update_bars (TlComparePage *self)
{
  GPtrArray *runs = current_runs (self);
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) empty = g_ptr_array_new ();
  TlRunRecord *record = tl_session_get_record (self->session);
  TlCompareModel model;
  gsize m, k, n;

  /* the live runs of a job in flight have no record yet: their problem */
  tl_session_get_size (self->session, &m, &k, &n);
  g_autoptr (TlJob) live = record ? NULL : tl_job_new_gemm (m, k, n, tl_session_get_dtype (self->session));
  tl_compare_model_init (&model);
  g_autoptr (GArray) bars = tl_compare_model_fill (&model, record ? record->job : live, runs ? runs : empty,
                                                   TRUE, strings);
  if (runs == NULL || runs->len == 0)
    model.title = NULL;
  /* coloured by a counter of their runs, when asked and the record has it */
  const char *color = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->color_combo));
  g_autofree char *legend = tl_compare_bars_color_by_choice ((TlCompareBar *) bars->data, bars->len,
                                                             record, color, NULL);
  gtk_label_set_text (GTK_LABEL (self->color_legend), legend ? legend : "");
  gtk_widget_set_visible (self->color_legend, legend != NULL);
  tl_chart_view_set_bars (TL_CHART_VIEW (self->bars), &model);
  fit_charts_soon (self);

  /* results of inputs no longer shown are marked, not hidden: the timings still hold */
  const char *stale = tl_session_stale_text (self->session);
  gtk_label_set_text (GTK_LABEL (self->stale_label), stale ? stale : "");
  gtk_widget_set_visible (self->stale_label, stale != NULL);
  update_visibility (self);
}

/* ---- the size sweep: one line per kernel and machine over every record */

static void
update_sweep (TlComparePage *self)
{
  g_autoptr (GPtrArray) none = g_ptr_array_new ();
  GPtrArray *history = self->session ? tl_session_get_history (self->session) : none;
  gboolean percent = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->sweep_percent));
  g_autoptr (TlSweepData) data = tl_sweep_data_new_session (history, percent);
  tl_chart_view_set_sweep (TL_CHART_VIEW (self->sweep), &data->model);
  /* one size is one column of points, and the bars above need the room
   * more (two dozen kernels on a projector); Size Sweep makes more sizes */
  self->sweep_has_sizes = tl_sweep_model_has_sizes (&data->model);
  if (!self->sweep_has_sizes)
    self->showing_sweep = FALSE;
  update_layout (self);
  fit_charts_soon (self);
  update_visibility (self);
}

/* The sweep's own controls — its button, Enter in its sizes, its "% of
 * the vendor" — show the sweep where one chart shows at a time: the bars
 * stayed on screen and the sweep asked for changed out of sight. */
static void
show_the_sweep (TlComparePage *self)
{
  self->showing_sweep = TRUE;
  update_layout (self);
}

static void
sweep_button_clicked_cb (GtkButton *button, TlComparePage *self)
{
  show_the_sweep (self);
}

static void
sweep_percent_toggled_cb (GtkToggleButton *button, TlComparePage *self)
{
  show_the_sweep (self);
  update_sweep (self);
}

/* The size list as typed: the session's when it reads, else marked wrong
 * with the reason in its tooltip (the sweep keeps the last good list). */
static void
sweep_sizes_changed_cb (GtkEntry *entry, TlComparePage *self)
{
  g_autoptr (GError) error = NULL;
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (entry));
  if (self->session == NULL || tl_session_set_sweep_sizes (self->session, gtk_entry_get_text (entry), &error))
    {
      gtk_style_context_remove_class (context, GTK_STYLE_CLASS_ERROR);
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   _("The sizes the size sweep runs: n, or m×k×n, separated by commas"));
    }
  else
    {
      gtk_style_context_add_class (context, GTK_STYLE_CLASS_ERROR);
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
    }
}

/* Enter in the list runs the sweep */
static void
sweep_sizes_activate_cb (GtkEntry *entry, TlComparePage *self)
{
  GActionGroup *win = gtk_widget_get_action_group (GTK_WIDGET (self), "win");
  if (win != NULL && g_action_group_get_action_enabled (win, "sweep"))
    {
      show_the_sweep (self);
      g_action_group_activate_action (win, "sweep", NULL);
    }
}

/* ---- a run's details ------------------------------------------------------- */

static void
describe_details (TlComparePage *self, const TlKernelRun *r, GString *s)
{
  const TlKernelInfo *info = r->info;
  gsize m, k, n;
  tl_session_get_size (self->session, &m, &k, &n);
  g_autofree char *label = tl_kernel_display_name (info, r->kernel_id);
  g_autofree char *med = tl_run_text_time (r->time.median);
  g_autofree char *mn = tl_run_text_time (r->time.min);
  g_autofree char *mx = tl_run_text_time (r->time.max);
  char gf[64];
  tl_format_gflops (tl_stats_gflops (tl_stats_gemm_flops (m, k, n), r->time.median), gf, sizeof gf);
  g_autofree char *pct = tl_run_text_percent (r->percent_of_reference);
  g_autofree char *err = tl_run_text_number (r->rel_norm);
  g_autofree char *tol = tl_run_text_number (r->tolerance);

  g_string_append_printf (s, "%s\n%s\n\n", label, info && info->lesson && *info->lesson ? _(info->lesson) : "");
  g_string_append_printf (s, _("id          %s\nbackend     %s\nprecision   %s\nstatus      %s\n"),
                          r->kernel_id, tl_backend_name (r->backend), r->precision ? r->precision : "—",
                          tl_run_status_name (r->status));
  if (r->message)
    g_string_append_printf (s, _("message     %s\n"), r->message);
  g_string_append_printf (s, _("size        %zu×%zu·%zu×%zu\n"), m, k, k, n);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "median      %s  (min %s, max %s, %u run)\n",
                                          "median      %s  (min %s, max %s, %u runs)\n", r->time.count),
                          med, mn, mx, r->time.count);
  /* TRANSLATORS: a rate with its unit, "45.7 TFLOP/s" */
  g_string_append_printf (s, _("throughput  %s\n"), gf);
  if (!isnan (r->percent_of_reference))
    g_string_append_printf (s, _("%% of ref    %s%% (%s)\n"), pct, r->reference_id ? r->reference_id : "—");
  /* the speed-up over the CPU loop only where the run has one (not a
   * record without cpu-naive) */
  if (!isnan (r->speedup_vs_naive))
    g_string_append_printf (s, r->speedup_vs_naive >= 10 ? _("vs naive    %.0f×\n") : _("vs naive    %.1f×\n"),
                            r->speedup_vs_naive);
  g_string_append_printf (s, _("error       %s (tolerance %s) %s\n"), err, tol,
                          r->verified ? (r->passed ? _("passed") : _("FAILED")) : _("not verified"));
  if (r->backend == TL_BACKEND_CPU)
    g_string_append_printf (s, _("threads     %u\n"), r->threads);
  if (info && info->seed && *info->seed)
    g_string_append_printf (s, _("seed        %s\n"), info->seed);
  if (info && info->source_path)
    g_string_append_printf (s, _("source      %s\n"), info->source_path);
}

static void
bar_activated_cb (TlChartView *view, gint index, TlComparePage *self)
{
  GPtrArray *runs = current_runs (self);

  self->selected_bar = index;
  update_layout (self);
  fit_charts_soon (self);
  gboolean valid = runs != NULL && index >= 0 && (guint) index < runs->len;
  /* the sweep shows the picked kernel's lines over the others */
  tl_chart_view_set_picked (TL_CHART_VIEW (self->sweep),
                            valid ? ((const TlKernelRun *) runs->pdata[index])->kernel_id : NULL);
  if (!valid)
    return;
  const TlKernelRun *r = runs->pdata[index];
  GString *s = g_string_new (NULL);
  describe_details (self, r, s);
  gtk_label_set_text (GTK_LABEL (self->details_label), s->str);
  g_string_free (s, TRUE);
  /* its launch facts wait on the Device page */
  tl_page_emit_show_kernel (TL_PAGE (self), r->kernel_id, "device", FALSE);
}

static void
metric_changed_cb (GtkComboBox *combo, TlComparePage *self)
{
  if (self->bars)
    tl_chart_view_set_metric (TL_CHART_VIEW (self->bars),
                              g_strcmp0 (gtk_combo_box_get_active_id (combo), "gflops") == 0
                                ? TL_COMPARE_GFLOPS : TL_COMPARE_TIME);
}

static void
color_changed_cb (GtkComboBox *combo, TlComparePage *self)
{
  if (self->bars && self->session)
    update_bars (self);
}

/* ---- CSV ------------------------------------------------------------------- */

static void
csv_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_c (s, ',');
  if (!isnan (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

char *
tl_compare_page_get_csv (TlComparePage *self)
{
  g_return_val_if_fail (TL_IS_COMPARE_PAGE (self), NULL);
  GPtrArray *runs = current_runs (self);
  gsize m = 0, k = 0, n = 0;
  if (self->session)
    tl_session_get_size (self->session, &m, &k, &n);
  double flops = tl_stats_gemm_flops (m, k, n);
  GString *s = g_string_new ("kernel,backend,precision,status,m,k,n,median_ms,min_ms,max_ms,gflops,"
                             "percent_of_reference,speedup_vs_cpu_naive,rel_error,passed\n");
  for (guint i = 0; runs && i < runs->len; i++)
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

/* ---- TlPage ---------------------------------------------------------------- */

static void
results_changed_cb (TlSession *session, TlComparePage *self)
{
  self->selected_bar = -1;
  update_bars (self);
  tl_chart_view_set_selected (TL_CHART_VIEW (self->bars), -1);
  tl_chart_view_set_picked (TL_CHART_VIEW (self->sweep), NULL);
  update_layout (self);
}

static void
history_changed_cb (TlSession *session, TlComparePage *self)
{
  update_sweep (self);
}

static void
lu_record_changed_cb (TlSession *session, TlComparePage *self)
{
  update_lu (self);
}

static void
compare_set_session (TlPage *page, TlSession *session)
{
  TlComparePage *self = TL_COMPARE_PAGE (page);
  tl_page_connect_session (&self->session, session, self,
                           "results-changed", results_changed_cb,
                           "history-changed", history_changed_cb,
                           "lu-record-changed", lu_record_changed_cb, NULL);
  if (session)
    {
      g_autofree char *sizes = tl_session_get_sweep_sizes (session);
      gtk_entry_set_text (GTK_ENTRY (self->sweep_sizes), sizes);
      update_bars (self);
    }
  update_sweep (self);
  update_lu (self);
}

static gboolean
compare_has_content (TlPage *page)
{
  GPtrArray *runs = current_runs (TL_COMPARE_PAGE (page));
  return runs && runs->len > 0;
}

static void
compare_set_presentation (TlPage *page, gboolean on, gboolean high_contrast)
{
  TlComparePage *self = TL_COMPARE_PAGE (page);
  tl_chart_view_set_presentation (TL_CHART_VIEW (self->bars), on ? 1.6 : 1.0, high_contrast);
  tl_chart_view_set_presentation (TL_CHART_VIEW (self->sweep), on ? 1.6 : 1.0, high_contrast);
  self->presentation = on;
  /* presenting, the toolbar keeps one line: what the bars show */
  gtk_widget_set_visible (gtk_widget_get_parent (self->sweep_group), !on);
  gtk_widget_set_visible (self->csv_button, !on);
  self->showing_sweep = FALSE;
  update_layout (self);
  fit_charts_soon (self);
}

/* clickers: the previous or next bar; one chart at a time (presenting, a
 * short window), past the last bar the sweep, and back.  At either end the
 * key is taken all the same: passed on, it scrolled the focused sidebar
 * under a chart that stayed. */
static gboolean
compare_step (TlPage *page, int direction)
{
  TlComparePage *self = TL_COMPARE_PAGE (page);
  gint n = (gint) tl_compare_page_get_n_bars (self);
  gboolean slides = one_at_a_time (self);
  /* the sweep slide shows every line alike (no bar is picked there: the
   * last bar's kernel would stand out for no reason); back on the bars,
   * the last bar is picked again */
  if (slides && self->showing_sweep)
    {
      if (direction > 0)
        return TRUE;
      self->showing_sweep = FALSE;
      if (n > 0)
        tl_compare_page_select_bar (self, n - 1);
      update_layout (self);
      return TRUE;
    }
  if (slides && direction > 0 && (n == 0 || self->selected_bar >= n - 1))
    {
      self->showing_sweep = TRUE;
      tl_compare_page_select_bar (self, -1);
      update_layout (self);
      return TRUE;
    }
  if (n == 0)
    return FALSE;
  tl_compare_page_select_bar (self, CLAMP (self->selected_bar + direction, 0, n - 1));
  return TRUE;
}

static gboolean
compare_export_options (TlPage *page, TlRenderOptions *o)
{
  TlComparePage *self = TL_COMPARE_PAGE (page);
  GPtrArray *runs = current_runs (self);
  o->view = TL_RENDER_COMPARE;
  /* the bars as on show: time or GFLOP/s, the picked one marked */
  o->color = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->metric_combo));
  if (runs && self->selected_bar >= 0 && (guint) self->selected_bar < runs->len)
    o->selected = ((const TlKernelRun *) runs->pdata[self->selected_bar])->kernel_id;
  /* the bars' colours, and the charts on the screen: the sweep under the
   * bars where both show, else the one chart shown (presenting, and in a
   * window too short for both: 1024×768 exported both where it showed one) */
  o->counter = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->color_combo));
  o->sweep_percent = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->sweep_percent));
  if (!self->sweep_has_sizes)
    o->charts = TL_RENDER_CHARTS_BARS;
  else if (!one_at_a_time (self))
    o->charts = TL_RENDER_CHARTS_BARS_OVER_SWEEP;
  else
    o->charts = self->showing_sweep ? TL_RENDER_CHARTS_SWEEP : TL_RENDER_CHARTS_BARS;
  return TRUE;
}

/* win.copy-csv: the table of the runs on show, for a spreadsheet */
static void
copy_csv_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  TlComparePage *self = user_data;
  g_autofree char *csv = tl_compare_page_get_csv (self);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), csv,
                          -1);
  if (self->session)
    tl_session_set_status (self->session, _("The comparison table is on the clipboard (CSV)."));
}

static void
compare_add_actions (TlPage *page, GActionMap *map)
{
  static const GActionEntry entries[] = { { "copy-csv", copy_csv_action } };
  g_action_map_add_action_entries (map, entries, G_N_ELEMENTS (entries), page);
}

static const char *
compare_hint (TlPage *page)
{
  return _("Click a bar for its details");
}

/* the bars are of the record on show; the size sweep, where it shows,
 * draws every record opened */
static guint
compare_shown_records (TlPage *page, TlRunRecord **shown)
{
  TlComparePage *self = TL_COMPARE_PAGE (page);
  GPtrArray *history = self->session ? tl_session_get_history (self->session) : NULL;
  if (gtk_widget_get_visible (self->sweep_box) && history && history->len > 1)
    return history->len;
  *shown = self->session ? tl_session_get_record (self->session) : NULL;
  return *shown ? 1 : TL_PAGE_RECORDS_UNSAID;
}

static void
tl_compare_page_page_init (TlPageInterface *iface)
{
  iface->hint = compare_hint;
  iface->shown_records = compare_shown_records;
  iface->add_actions = compare_add_actions;
  iface->set_session = compare_set_session;
  iface->set_presentation = compare_set_presentation;
  iface->step = compare_step;
  iface->export_options = compare_export_options;
  iface->has_content = compare_has_content;
}

void
tl_compare_page_select_bar (TlComparePage *self, gint index)
{
  g_return_if_fail (TL_IS_COMPARE_PAGE (self));
  tl_chart_view_set_selected (TL_CHART_VIEW (self->bars), index);
  bar_activated_cb (TL_CHART_VIEW (self->bars), index, self);
}

guint
tl_compare_page_get_n_bars (TlComparePage *self)
{
  g_return_val_if_fail (TL_IS_COMPARE_PAGE (self), 0);
  return tl_chart_view_get_n_bars (TL_CHART_VIEW (self->bars));
}

static void
tl_compare_page_dispose (GObject *object)
{
  TlComparePage *self = TL_COMPARE_PAGE (object);
  tl_page_disconnect_session (&self->session, self);
  g_clear_handle_id (&self->fit_id, g_source_remove);
  G_OBJECT_CLASS (tl_compare_page_parent_class)->dispose (object);
}

static void
tl_compare_page_class_init (TlComparePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tl_compare_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tilelab/Tilelab/ui/tl-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, metric_combo);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, stale_label);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, lu_label);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, placeholder);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, compare_paned);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, charts_scroller);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, charts_column);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, bars_box);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, sweep_box);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, details_box);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, details_label);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, slide_hint);
  gtk_widget_class_bind_template_callback (widget_class, metric_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, color_combo);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, sweep_group);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, csv_button);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, color_legend);
  gtk_widget_class_bind_template_callback (widget_class, color_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, sweep_sizes);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, sweep_percent);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, chart_switch);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, bars_shown);
  gtk_widget_class_bind_template_child (widget_class, TlComparePage, sweep_shown);
  gtk_widget_class_bind_template_callback (widget_class, chart_switch_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, sweep_button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, sweep_sizes_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, sweep_sizes_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, sweep_percent_toggled_cb);
}

static void
tl_compare_page_init (TlComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->selected_bar = -1;

  /* the charts are built in code: their kind is a constructor argument */
  self->bars = tl_chart_view_new (TL_CHART_BARS);
  gtk_widget_set_hexpand (self->bars, TRUE);
  gtk_box_pack_start (GTK_BOX (self->bars_box), self->bars, TRUE, TRUE, 0);
  g_signal_connect (self->bars, "bar-activated", G_CALLBACK (bar_activated_cb), self);
  g_signal_connect_after (self->charts_scroller, "size-allocate", G_CALLBACK (scroller_allocate_cb), self);
  self->sweep = tl_chart_view_new (TL_CHART_SWEEP);
  gtk_box_pack_start (GTK_BOX (self->sweep_box), self->sweep, TRUE, TRUE, 0);
  gtk_widget_show (self->bars);
  gtk_widget_show (self->sweep);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->metric_combo), "time");
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->color_combo), "kernel",
                             _("Colour: kernel"));
  for (guint i = 0; i < tl_counter_view_count (); i++)
    {
      const TlCounterView *view = tl_counter_view_get (i);
      g_autofree char *label = g_strdup_printf (_("Colour: %s"), tl_counter_view_title (view));
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->color_combo),
                                 tl_counter_view_key (view), label);
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->color_combo), "kernel");
  /* the longest counter's name would widen the toolbar past a 1024-pixel
   * screen: names are cut at 22 characters (the legend line under the bars
   * names the chosen counter whole), never below "Colour: kernel" */
  g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (self->color_combo));
  if (cells != NULL)
    g_object_set (cells->data, "ellipsize", PANGO_ELLIPSIZE_END, "max-width-chars", 22,
                  "width-chars", MIN ((int) g_utf8_strlen (_("Colour: kernel"), -1), 22), NULL);
  /* the bars above, the sweep below, in proportion on any screen */
  tl_paned_keep_ratio (GTK_PANED (self->compare_paned), 0.55);
}
