/* test-gui-status.c — the status bar's message whole when presenting: a
 * run record opened, on a screen of 1024×768 and of 1280×800, on every
 * page (with and without the page's hover facts beside it), the message
 * "Run record from vm (2026-11-24 07:07 UTC) · NVIDIA H200" is shown on
 * one or two lines, never cut ("Run record from vm (2026-…"), and the
 * page's hint beside it whole as well, in the window's type.  Run in
 * English and, by meson, in German and Italian (test-gui-status-de, -it).
 * Exits 77 (skip) without a display.
 */
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>

#include "tl-page.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlWindow *win;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

typedef struct
{
  const char *needle;
  GtkLabel *found;
} LabelSearch;

static void
find_label_cb (GtkWidget *widget, gpointer data)
{
  LabelSearch *search = data;
  if (search->found == NULL && GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && strstr (gtk_label_get_text (GTK_LABEL (widget)), search->needle) != NULL)
    search->found = GTK_LABEL (widget);
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_label_cb, data);
}

/* the label on show whose text holds needle */
static GtkLabel *
find_label (const char *needle)
{
  LabelSearch search = { needle, NULL };
  gtk_container_forall (GTK_CONTAINER (win), find_label_cb, &search);
  return search.found;
}

/* The window presenting on a screen of w × h: the look of F5, the
 * window the screen's size (the screen under test is larger). */
static int want_w, want_h;

/* what the window shows: its content, without the border that a window
 * drawing its own decorations keeps for resizing */
static GtkWidget *
content (void)
{
  return gtk_bin_get_child (GTK_BIN (win));
}

static gboolean
has_wanted_size (gpointer data)
{
  return gtk_widget_get_allocated_width (content ()) == want_w
         && gtk_widget_get_allocated_height (content ()) == want_h;
}

static void
present_at (int w, int h)
{
  tl_window_set_presentation (win, TRUE);
  gtk_window_unfullscreen (GTK_WINDOW (win));
  want_w = w;
  want_h = h;
  gtk_window_resize (GTK_WINDOW (win), w, h);
  gui_test_wait_until (has_wanted_size, NULL, 3);
  /* the border comes on top of the size asked for */
  int extra_w = gtk_widget_get_allocated_width (GTK_WIDGET (win)) - gtk_widget_get_allocated_width (content ());
  int extra_h = gtk_widget_get_allocated_height (GTK_WIDGET (win)) - gtk_widget_get_allocated_height (content ());
  gtk_window_resize (GTK_WINDOW (win), w - extra_w, h - extra_h);
  if (!gui_test_wait_until (has_wanted_size, NULL, 10))
    g_error ("the window shows %d×%d, not %d×%d", gtk_widget_get_allocated_width (content ()),
             gtk_widget_get_allocated_height (content ()), w, h);
}

static void
check_message_whole (const char *page, int w, int h)
{
  /* the record's time as a reader says it, not "2026-11-24T07:07:41Z" */
  GtkLabel *label = find_label ("2026-11-24 07:07 UTC");
  g_assert_nonnull (label);
  const char *text = gtk_label_get_text (label);
  g_assert_nonnull (strstr (text, "vm"));
  g_assert_nonnull (strstr (text, "NVIDIA H200"));
  PangoLayout *layout = gtk_label_get_layout (label);
  if (pango_layout_is_ellipsized (layout))
    g_error ("presenting at %d×%d on %s, the status “%s” is cut to %d px", w, h, page, text,
             gtk_widget_get_allocated_width (GTK_WIDGET (label)));
  g_assert_cmpint (pango_layout_get_line_count (layout), <=, 2);
  /* every line inside the window */
  int x, y;
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (label), content (), 0, 0, &x, &y));
  g_assert_cmpint (y + gtk_widget_get_allocated_height (GTK_WIDGET (label)), <=, h);
}

/* The page's hint beside it, whole as well: presenting, a hint cut to 24
 * characters ("Fai clic su una barra per i det…", "Auf einen Block
 * zeigen, um i…") read as a broken sentence to the back row. */
static void
check_hint_whole (const char *page, int w, int h)
{
  const char *hint = tl_page_get_hint (TL_PAGE (tl_window_get_page (win, page)));
  if (*hint == '\0')
    return;
  GtkLabel *label = find_label (hint);
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (label), ==, hint);
  if (pango_layout_is_ellipsized (gtk_label_get_layout (label)))
    g_error ("presenting at %d×%d on %s, the hint “%s” is cut to %d px", w, h, page, hint,
             gtk_widget_get_allocated_width (GTK_WIDGET (label)));
  int x, y;
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (label), content (), 0, 0, &x, &y));
  g_assert_cmpint (x + gtk_widget_get_allocated_width (GTK_WIDGET (label)), <=, w);
  g_assert_cmpint (y + gtk_widget_get_allocated_height (GTK_WIDGET (label)), <=, h);
}

static void
test_record_message (void)
{
  static const int screens[][2] = { { 1024, 768 }, { 1280, 800 } };
  static const char *const pages[] = { "matrices", "compare", "blocks", "gauss", "source",
                                       "device", "roofline", "lesson" };
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  for (guint s = 0; s < G_N_ELEMENTS (screens); s++)
    {
      present_at (screens[s][0], screens[s][1]);
      for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
        {
          tl_window_show_view (win, pages[p]);
          g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
          gui_test_pump (0.2);
          check_message_whole (pages[p], screens[s][0], screens[s][1]);
          check_hint_whole (pages[p], screens[s][0], screens[s][1]);
        }
    }
  tl_window_set_presentation (win, FALSE);
}

/* The page's hint beside the message ("Point at a heatmap to read it") is
 * in the window's type, as the message is — it was in monospace, the
 * sidebar's facts' font, and read as a stray line of code. */
static void
test_hint_in_window_type (void)
{
  tl_window_show_view (win, "matrices");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  gui_test_pump (0.2);
  GtkLabel *hint = find_label (_("Point at a heatmap to read it"));
  g_assert_nonnull (hint);
  PangoFontDescription *font = NULL, *window_font = NULL;
  gtk_style_context_get (gtk_widget_get_style_context (GTK_WIDGET (hint)), GTK_STATE_FLAG_NORMAL, "font", &font, NULL);
  gtk_style_context_get (gtk_widget_get_style_context (GTK_WIDGET (win)), GTK_STATE_FLAG_NORMAL, "font", &window_font, NULL);
  g_assert_cmpstr (pango_font_description_get_family (font), ==, pango_font_description_get_family (window_font));
  pango_font_description_free (font);
  pango_font_description_free (window_font);
}

/* An LU record's time is said as a run record's is, not
 * "2026-11-21T23:12:01Z" (on Gauss, which draws it) */
static void
test_lu_record_time (void)
{
  gui_test_open_doc_record (win, "h200-lu-02-blocked-96.json");
  tl_window_show_view (win, "gauss");
  gui_test_pump (0.2);
  g_assert_nonnull (find_label ("2026-11-21 23:12 UTC"));
}

/* The status line names the record the page on show draws, not the one
 * opened last: a GEMM record, then an LU record opened, Roofline, Blocks
 * and Why Faster? draw the GEMM record and the status said "LU record
 * from …" beside them. */
static void
test_names_page_record (void)
{
  static const char *const gemm_pages[] = { "roofline", "blocks", "lesson", "compare", "matrices" };
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  gui_test_open_doc_record (win, "h200-lu-02-blocked-96.json");
  for (guint round = 0; round < 2; round++)
    {
      for (guint p = 0; p < G_N_ELEMENTS (gemm_pages); p++)
        {
          tl_window_show_view (win, gemm_pages[p]);
          g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
          if (find_label ("2026-11-24 07:07 UTC") == NULL || find_label ("2026-11-21 23:12 UTC") != NULL)
            g_error ("on %s, which draws the GEMM record of 2026-11-24 07:07, the status bar says “%s”", gemm_pages[p],
                     find_label ("UTC") ? gtk_label_get_text (find_label ("UTC")) : "");
        }
      tl_window_show_view (win, "gauss");
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      g_assert_nonnull (find_label ("2026-11-21 23:12 UTC"));
      g_assert_null (find_label ("2026-11-24 07:07 UTC"));
    }
}

/* A run made here keeps its news ("last: cpu-blocked …") on the pages
 * that draw it: it was replaced by "Run record from <this host> …" */
static void
test_run_here_keeps_news (void)
{
  static const char *const ids[] = { "cpu-blocked", NULL };
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 64, 64, TL_DTYPE_FLOAT32, 5);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 20));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  const char *last = _("last: ");
  static const char *const pages[] = { "matrices", "blocks" };
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      tl_window_show_view (win, pages[p]);
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      if (find_label (last) == NULL)
        g_error ("on %s after a run here, the status bar says “%s”, not the run's news", pages[p],
                 find_label ("UTC") ? gtk_label_get_text (find_label ("UTC")) : "?");
    }
}

static void
add_tests (void)
{
  g_test_add_func ("/gui-status/record-message-whole", test_record_message);
  g_test_add_func ("/gui-status/hint-in-window-type", test_hint_in_window_type);
  g_test_add_func ("/gui-status/lu-record-time", test_lu_record_time);
  g_test_add_func ("/gui-status/names-page-record", test_names_page_record);
  g_test_add_func ("/gui-status/run-here-keeps-news", test_run_here_keeps_news);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .app_locale = TRUE, .add_tests = add_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
