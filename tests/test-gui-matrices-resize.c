/* test-gui-matrices-resize.c — the Matrices page before any run, the
 * window resized 1024×768 → 1600×1000 → 1024×768: the summary beside the
 * reference and error panels is as high as its text at the width it has
 * each time — not cut (its height was fitted once, at the first width: cut
 * at 1024×768 after a larger window) and leaving no gap under it.  Exits 77
 * (skip) without a display. */
#include "gui-test-util.h"

static TlWindow *win;

/* The summary's scrolled window and the height its text needs at its
 * width (its label wrapped in it, the frame's 12 px around). */
static GtkWidget *
summary_window (int *text_h)
{
  GtkWidget *page = tl_window_get_page (win, "matrices");
  GtkWidget *sw = gui_test_find_widget (page, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (sw);
  GtkWidget *label = gui_test_find_widget (sw, GTK_TYPE_LABEL);
  g_assert_nonnull (label);
  gtk_widget_get_preferred_height_for_width (label, gtk_widget_get_allocated_width (sw) - 24,
                                             NULL, text_h);
  *text_h += 12;
  return sw;
}

static void
check_at (int width, int height)
{
  gtk_window_resize (GTK_WINDOW (win), width, height);
  gui_test_pump (0.5);
  g_assert_true (gui_test_wait_until (gui_test_window_settled, win, 30));
  gui_test_pump (0.3);
  int text_h;
  GtkWidget *sw = summary_window (&text_h);
  int sw_h = gtk_widget_get_allocated_height (sw);
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
  g_test_message ("window %d×%d: summary %d×%d, its text %d px high, scrolls %.0f of %.0f",
                  gtk_widget_get_allocated_width (GTK_WIDGET (win)),
                  gtk_widget_get_allocated_height (GTK_WIDGET (win)),
                  gtk_widget_get_allocated_width (sw), sw_h, text_h,
                  gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v),
                  gtk_adjustment_get_upper (v));
  /* whole: nothing to scroll, the text's height given */
  g_assert_cmpfloat (gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v), <=, 1);
  g_assert_cmpint (sw_h, >=, text_h - 1);
  /* and no more than that asked for: the row no higher than the text or
   * the panels' own height beside it */
  g_assert_cmpint (gtk_scrolled_window_get_min_content_height (GTK_SCROLLED_WINDOW (sw)), <=,
                   text_h + 1);
}

static void
test_resized_before_run (void)
{
  tl_window_show_view (win, "matrices");
  check_at (1024, 768);
  check_at (1600, 1000);
  check_at (1024, 768);
}

static void
add_tests (void)
{
  g_test_add_func ("/gui-matrices/resized-before-run", test_resized_before_run);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .add_tests = add_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
