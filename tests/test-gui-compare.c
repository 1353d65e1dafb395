/* test-gui-compare.c — the Compare page fits the window as a lecturer
 * shows it: two records (1000×500×1000 and 4096, 26 names in the sweep's
 * legend) at 1024×768 beside the sidebar, where the bars and the sweep
 * under them asked 95 px more than the page had and the sweep's plot was
 * 90 px tall; and at 1600×1000, where both fit.  Export draws the
 * chart or charts on the screen.  Exits 77 (skip) without a display.
 */
#include <gtk/gtk.h>

#include "tl-chart-view.h"
#include "gui-test-util.h"

static TlWindow *win;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

static void
collect (GtkWidget *widget, gpointer data)
{
  GPtrArray *found = data;
  if (TL_IS_CHART_VIEW (widget) || GTK_IS_CHECK_BUTTON (widget))
    g_ptr_array_add (found, widget);
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect, data);
}

/* The page's two charts (bars first), the switch's buttons and the
 * sweep's "Percent of vendor". */
typedef struct
{
  GtkWidget *bars, *sweep, *sweep_shown, *bars_shown, *percent;
} Charts;

static void
find_charts (Charts *c)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  collect (GTK_WIDGET (gui_test_compare (win)), found);
  *c = (Charts) { 0 };
  for (guint i = 0; i < found->len; i++)
    {
      GtkWidget *w = found->pdata[i];
      if (TL_IS_CHART_VIEW (w))
        *(c->bars ? &c->sweep : &c->bars) = w;
      else if (GTK_IS_RADIO_BUTTON (w))
        *(c->bars_shown ? &c->sweep_shown : &c->bars_shown) = w;
      else
        c->percent = w;
    }
  g_assert_true (c->bars && c->sweep && c->bars_shown && c->sweep_shown && c->percent);
}

/* How far the charts' page scrolls. */
static double
scroll_over (const Charts *c, double *page)
{
  GtkWidget *shown = gtk_widget_get_mapped (c->bars) ? c->bars : c->sweep;
  GtkWidget *scroller = gtk_widget_get_ancestor (shown, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  *page = gtk_adjustment_get_page_size (adj);
  return gtk_adjustment_get_upper (adj) - *page;
}

static gboolean
fits (gpointer data)
{
  double page;
  return scroll_over (data, &page) <= 1;
}

/* The charts' page shows all it holds once laid out (a sanitizer's build
 * takes seconds, hence the wait, and the look again after it): it does
 * not scroll. */
static void
assert_no_scroll (const Charts *c, const char *what)
{
  gui_test_pump (0.5);
  gui_test_wait_until (fits, (gpointer) c, 10);
  gui_test_pump (0.3);
  double page, over = scroll_over (c, &page);
  g_test_message ("%s: page %.0f px, %.0f px more", what, page, over);
  if (over > 1)
    g_error ("%s: the Compare page scrolls %.0f px", what, over);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* A chart on show (once the page has laid it out) gets the height it
 * asks at its width. */
static void
assert_whole (GtkWidget *chart)
{
  gui_test_wait_until (is_mapped, chart, 10);
  int want;
  gtk_widget_get_preferred_height_for_width (chart, gtk_widget_get_allocated_width (chart), &want, NULL);
  g_assert_true (gtk_widget_get_mapped (chart));
  g_assert_cmpint (gtk_widget_get_allocated_height (chart), >=, want);
}

/* What Export (Ctrl+E) draws from the page as it is now. */
static TlRenderCharts
exported_charts (void)
{
  TlRenderOptions o;
  tl_render_options_init (&o);
  g_assert_true (tl_page_export_options (TL_PAGE (gui_test_compare (win)), &o));
  return o.charts;
}

static void
open_two_sizes (void)
{
  const char *src = g_getenv ("TL_SOURCE_DIR");
  g_assert_nonnull (src);
  g_autofree char *small = g_build_filename (src, "docs", "records", "h200-gemm-1000x500x1000.json", NULL);
  g_autofree char *big = g_build_filename (src, "docs", "records", "h200-gemm-4096-fp32-counters.json", NULL);
  g_autoptr (GFile) f1 = g_file_new_for_path (small);
  g_autoptr (GFile) f2 = g_file_new_for_path (big);
  tl_window_open_record (win, f1);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  tl_window_open_record (win, f2);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  g_assert_null (tl_window_get_info_message (win));
  g_assert_cmpuint (tl_session_get_history (tl_window_get_session (win))->len, ==, 2);
  tl_window_show_view (win, "compare");
}

static void
find_sidebar_row (GtkWidget *widget, gpointer data)
{
  GtkWidget **found = data;
  if (*found || widget == GTK_WIDGET (gui_test_compare (win)))
    return;
  if (GTK_IS_LIST_BOX_ROW (widget) && gtk_widget_get_mapped (widget))
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_sidebar_row, data);
}

/* Page Down with the focus in the sidebar (a kernel's row, as a click
 * leaves it), the sweep on show and nothing past it: the chart stays, and
 * so do the sidebar's focus and scroll — the key moved them (the list's
 * cursor went a page down). */
static void
assert_page_down_stays_on_sweep (const Charts *c)
{
  GtkWidget *row = NULL;
  find_sidebar_row (GTK_WIDGET (win), &row);
  g_assert_nonnull (row);
  gtk_widget_grab_focus (row);
  GtkWidget *scroller = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  double scrolled = gtk_adjustment_get_value (adj);
  for (int i = 0; i < 3; i++)
    gui_test_press_key (win, GDK_KEY_Page_Down, 0);
  gui_test_pump (0.3);
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (win)) == row);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, scrolled);
  g_assert_true (gtk_widget_get_mapped (c->sweep));
}

/* 1024×768: one chart at a time, each whole, chosen by the switch; a
 * picked bar's details under the bars in the height they leave. */
static void
test_small_screen (void)
{
  Charts c;
  find_charts (&c);
  gui_test_fill_screen (win, 1024, 768);
  assert_no_scroll (&c, "1024×768, the bars");
  g_assert_true (gtk_widget_get_mapped (c.sweep_shown));
  assert_whole (c.bars);
  g_assert_false (gtk_widget_get_mapped (c.sweep));
  /* Export draws the chart on the screen, not both */
  g_assert_cmpint (exported_charts (), ==, TL_RENDER_CHARTS_BARS);

  gtk_button_clicked (GTK_BUTTON (c.sweep_shown));
  assert_whole (c.sweep);
  assert_no_scroll (&c, "1024×768, the sweep");
  g_assert_false (gtk_widget_get_mapped (c.bars));
  g_assert_cmpint (exported_charts (), ==, TL_RENDER_CHARTS_SWEEP);
  assert_page_down_stays_on_sweep (&c);

  gtk_button_clicked (GTK_BUTTON (c.bars_shown));
  tl_compare_page_select_bar (gui_test_compare (win), 3);
  assert_whole (c.bars);
  assert_no_scroll (&c, "1024×768, the bars and a run's details");
  tl_compare_page_select_bar (gui_test_compare (win), -1);

  /* the sweep's own "Percent of vendor" shows the sweep it changes */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (c.percent), TRUE);
  assert_whole (c.sweep);
  g_assert_false (gtk_widget_get_mapped (c.bars));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (c.percent), FALSE);
  gtk_button_clicked (GTK_BUTTON (c.bars_shown));
}

static void
find_hint (GtkWidget *widget, gpointer data)
{
  GtkWidget **hint = data;
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), "Page "))
    *hint = widget;
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_hint, data);
}

/* The line that says which key shows the other chart, when on screen. */
static const char *
slide_hint (void)
{
  GtkWidget *hint = NULL;
  find_hint (GTK_WIDGET (gui_test_compare (win)), &hint);
  return hint && gtk_widget_get_mapped (hint) ? gtk_label_get_text (GTK_LABEL (hint)) : NULL;
}

/* Presenting at 1024×768, the bars alone say that the sweep comes past
 * the last bar, the sweep how to get back: nothing on screen told a
 * lecturer the sweep was there. */
static void
test_presenting (void)
{
  Charts c;
  find_charts (&c);
  gui_test_fill_screen (win, 1024, 768);
  tl_window_set_presentation (win, TRUE);
  assert_whole (c.bars);
  g_assert_false (gtk_widget_get_mapped (c.sweep));
  g_assert_cmpstr (slide_hint (), ==, "Page Down past the last bar: the size sweep");

  TlPage *page = TL_PAGE (gui_test_compare (win));
  while (!gtk_widget_get_visible (gtk_widget_get_parent (c.sweep)))
    g_assert_true (tl_page_step (page, 1));
  assert_whole (c.sweep);
  g_assert_cmpstr (slide_hint (), ==, "Page Up: the bars");
  g_assert_cmpint (exported_charts (), ==, TL_RENDER_CHARTS_SWEEP);

  g_assert_true (tl_page_step (page, -1));
  assert_whole (c.bars);
  g_assert_cmpstr (slide_hint (), ==, "Page Down past the last bar: the size sweep");
  g_assert_cmpint (exported_charts (), ==, TL_RENDER_CHARTS_BARS);
  tl_window_set_presentation (win, FALSE);
  tl_compare_page_select_bar (gui_test_compare (win), -1);
  gui_test_pump (0.3);
}

/* 1600×1000: both charts, each whole, no switch. */
static void
test_large_screen (void)
{
  Charts c;
  find_charts (&c);
  gui_test_fill_screen (win, 1600, 1000);
  assert_whole (c.sweep);
  assert_no_scroll (&c, "1600×1000");
  assert_whole (c.bars);
  g_assert_false (gtk_widget_get_mapped (c.sweep_shown));
  g_assert_null (slide_hint ());
  g_assert_cmpint (exported_charts (), ==, TL_RENDER_CHARTS_BARS_OVER_SWEEP);
}

/* every mapped label's text under widget, a line each (data: a GString) */
static void
append_shown_texts (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (data, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), append_shown_texts, data);
}

/* An LU record opened after the GEMM ones: the page above the GEMM bars
 * described the LU record ("LU (Gauss elimination) of a 96×96 …"), read
 * as the chart's caption when presenting.  Last: it opens a third record. */
static void
test_lu_beside_gemm (void)
{
  const char *src = g_getenv ("TL_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src, "docs", "records", "h200-lu-02-blocked-96.json", NULL);
  g_autoptr (GFile) lu = g_file_new_for_path (path);
  tl_window_open_record (win, lu);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  tl_window_show_view (win, "compare");
  gui_test_fill_screen (win, 1024, 768);
  for (int presenting = 0; presenting < 2; presenting++)
    {
      tl_window_set_presentation (win, presenting);
      gui_test_pump (0.3);
      Charts c;
      find_charts (&c);
      g_assert_true (gtk_widget_get_mapped (c.bars));
      g_autoptr (GString) shown = g_string_new ("");
      append_shown_texts (GTK_WIDGET (gui_test_compare (win)), shown);
      g_assert_null (g_strstr_len (shown->str, -1, "LU ("));
    }
  tl_window_set_presentation (win, FALSE);
}

static void
add_tests (void)
{
  open_two_sizes ();
  g_test_add_func ("/gui-compare/1024x768", test_small_screen);
  g_test_add_func ("/gui-compare/1024x768-presenting", test_presenting);
  g_test_add_func ("/gui-compare/1600x1000", test_large_screen);
  g_test_add_func ("/gui-compare/lu-beside-gemm", test_lu_beside_gemm);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .add_tests = add_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
