/* gui-screens.c — the screenshot matrix: every view, in a window and in
 * presentation mode, in each theme, at the size of the X screen it runs
 * on, with what a lecturer would check from the back row checked by code.
 *
 *   gui-screens [--out DIR] [--views LIST] [--modes LIST] [--themes LIST]
 *               [--scenarios LIST]
 *
 *   views      matrices,compare,blocks,gauss,source,device,roofline,lesson, and sweep
 *              (Compare's size sweep, its own screen when presenting); default: all
 *   modes      window,presentation
 *   themes     default,dark,hc,hci (Adwaita, Adwaita dark, HighContrast,
 *              HighContrastInverse: the last two by the app's Ctrl+H);
 *              default: default,dark,hc
 *   scenarios  records (the H200 GEMM record and LU record of docs/records
 *              open side by side), live (a CPU run on generated matrices
 *              and A factored on the Gauss page), messages (a run whose B
 *              was then replaced, and a malformed file for A: the stale
 *              notes and the error bar); default: all three
 *
 * Every picture fails on: a GTK warning while it was laid out (size
 * warnings: "Negative content width", "attempt to allocate widget with
 * width -3"), a window wider or taller than the screen, a label given less
 * than its minimum size, an ellipsized label whose tooltip does not keep
 * the whole text, labels that overlap, a label outside the window, and
 * what the painters report of their own texts (tl-paint-text-boxes: two
 * texts on top of each other, a text cut by its area or the picture, two
 * texts cut to the same words) and of their plots (a matrix, or the
 * tiles over C, out of proportion).  Presenting, also a painted text
 * under 14 px and a chart given less than half the page's height; in a
 * window, a painted text under 11 px.  Texts
 * scrolled out of a page's view (Compare scrolls in a short window) are
 * not counted as cut.
 * Presentation mode starts with F5 and ends with Escape, high contrast
 * with Ctrl+H: key presses through GTK's dispatch to the window, as the
 * keyboard's would come (gui_test_press_key); a key that does not take is
 * a problem too.
 * The window is drawn into an image surface for that; with --out that
 * image is saved as SCENARIO-MODE-THEME-N-VIEW-WxH.png.  One line per
 * problem; exit 1 when there was any.
 *
 * The words are the user's language's (LANGUAGE=de, LC_ALL=C.UTF-8), from
 * the build tree's catalogues as the app finds them (tl-locale.h).
 *
 * Run it under Xvfb with the screen size to test (tools/screenshots.sh runs
 * 1024×768, 1280×800 and 1920×1080; tests/screens.sh a subset for meson).
 */
#include <math.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "core/tl-locale.h"
#include "paint/tl-paint-text-boxes.h"
#include "tl-application.h"
#include "tl-blocks-page.h"
#include "tl-compare-page.h"
#include "tl-gauss-page.h"
#include "tl-heatmap-view.h"
#include "tl-page.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlWindow *win;
static guint n_gtk_warnings;
static GString *gtk_warnings;
static guint n_problems;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

static void
settle (void)
{
  gui_test_wait_until (is_idle, NULL, 120);
  gui_test_pump (0.25);
  gui_test_wait_until (is_idle, NULL, 60);
}

/* ---- GTK's warnings ------------------------------------------------------------ */

static void
log_cb (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  n_gtk_warnings++;
  if (gtk_warnings->len < 2000)
    g_string_append_printf (gtk_warnings, "%s%s: %s", gtk_warnings->len ? "; " : "", domain, message);
}

/* ---- the checks -------------------------------------------------------------------- */

typedef struct
{
  GtkWidget *label;
  GdkRectangle rect;    /* in window coordinates */
  GdkRectangle shown;   /* the part not scrolled out of view */
  gboolean scrolled;    /* inside a scrolled window: may extend past the window */
} LabelBox;

static void problem (const char *shot, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
problem (const char *shot, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_print ("screens: FAIL %s: %s\n", shot, text);
  n_problems++;
}

static const char *
label_text (GtkWidget *label)
{
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
collect_labels (GtkWidget *widget, gpointer data)
{
  GArray *boxes = data;

  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && *label_text (widget))
    {
      LabelBox b = { widget };
      GtkAllocation a;
      int x = 0, y = 0;
      gtk_widget_get_allocation (widget, &a);
      gtk_widget_translate_coordinates (widget, gtk_widget_get_toplevel (widget), 0, 0, &x, &y);
      b.rect = (GdkRectangle) { x, y, a.width, a.height };
      b.shown = b.rect;
      /* a scrolled window shows only its own allocation of its content */
      for (GtkWidget *p = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW); p;
           p = gtk_widget_get_ancestor (gtk_widget_get_parent (p), GTK_TYPE_SCROLLED_WINDOW))
        {
          GtkAllocation pa;
          int px = 0, py = 0;
          gtk_widget_get_allocation (p, &pa);
          gtk_widget_translate_coordinates (p, gtk_widget_get_toplevel (p), 0, 0, &px, &py);
          GdkRectangle view = { px, py, pa.width, pa.height };
          if (!gdk_rectangle_intersect (&b.shown, &view, &b.shown))
            b.shown.width = b.shown.height = 0;
          b.scrolled = TRUE;
        }
      g_array_append_val (boxes, b);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_labels, data);
}

static void
check_label (const char *shot, const LabelBox *b, int win_w, int win_h)
{
  GtkWidget *label = b->label;
  int min_w, nat_w, min_h, nat_h;
  g_autofree char *text = g_strndup (label_text (label), 60);

  for (char *p = text; *p; p++)
    if (*p == '\n')
      *p = ' ';
  /* preferred sizes include the margins, allocations do not */
  int margin_w = gtk_widget_get_margin_start (label) + gtk_widget_get_margin_end (label);
  int margin_h = gtk_widget_get_margin_top (label) + gtk_widget_get_margin_bottom (label);
  gtk_widget_get_preferred_width (label, &min_w, &nat_w);
  gtk_widget_get_preferred_height_for_width (label, b->rect.width + margin_w, &min_h, &nat_h);
  min_w -= margin_w;
  min_h -= margin_h;
  if (b->rect.width + 1 < min_w || b->rect.height + 1 < min_h)
    problem (shot, "label “%s” clipped: %d×%d given, needs %d×%d", text, b->rect.width, b->rect.height,
             min_w, min_h);
  /* cut short is fine only where the tooltip keeps the whole text */
  g_autofree char *tooltip = gtk_widget_get_tooltip_text (label);
  if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label)))
      && g_strcmp0 (tooltip, label_text (label)) != 0)
    problem (shot, "label “%s” ellipsized to %d px", text, b->rect.width);
  if (!b->scrolled && (b->rect.x < 0 || b->rect.y < 0 || b->rect.x + b->rect.width > win_w + 1
                       || b->rect.y + b->rect.height > win_h + 1))
    problem (shot, "label “%s” at %d,%d %d×%d lies outside the %d×%d window", text, b->rect.x, b->rect.y,
             b->rect.width, b->rect.height, win_w, win_h);
}

static gboolean
overlap (const GdkRectangle *a, const GdkRectangle *b)
{
  GdkRectangle r;
  return gdk_rectangle_intersect (a, b, &r) && r.width > 2 && r.height > 2;
}

static void
check_window (const char *shot, int screen_w, int screen_h)
{
  GtkWidget *w = GTK_WIDGET (win);
  GdkWindow *gdk = gtk_widget_get_window (w);
  int width = gdk_window_get_width (gdk), height = gdk_window_get_height (gdk);
  int min_w, nat_w;

  gtk_widget_get_preferred_width (w, &min_w, &nat_w);
  if (g_getenv ("SCREENS_DEBUG") != NULL)
    {
      int gw, gh;
      gtk_window_get_size (GTK_WINDOW (win), &gw, &gh);
      g_print ("debug: window %d×%d, content %d×%d\n", width, height, gw, gh);
    }
  if (width > screen_w || min_w > screen_w)
    problem (shot, "the window is %d px wide (at least %d) on a %d px screen", width, min_w, screen_w);
  if (height > screen_h)
    problem (shot, "the window is %d px tall on a %d px screen", height, screen_h);
  if (n_gtk_warnings)
    problem (shot, "%u GTK warnings: %s", n_gtk_warnings, gtk_warnings->str);

  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (LabelBox));
  gtk_container_forall (GTK_CONTAINER (w), collect_labels, boxes);
  for (guint i = 0; i < boxes->len; i++)
    {
      const LabelBox *a = &g_array_index (boxes, LabelBox, i);
      check_label (shot, a, width, height);
      for (guint j = i + 1; j < boxes->len; j++)
        {
          const LabelBox *b = &g_array_index (boxes, LabelBox, j);
          if (overlap (&a->shown, &b->shown) && !gtk_widget_is_ancestor (a->label, b->label)
              && !gtk_widget_is_ancestor (b->label, a->label))
            problem (shot, "labels “%.30s” and “%.30s” overlap", label_text (a->label), label_text (b->label));
        }
    }
}

static void
prepend_cb (GtkWidget *widget, gpointer data)
{
  GList **list = data;
  *list = g_list_prepend (*list, widget);
}

/* --explain: the widgets that make the window wide or tall */
static void
explain (GtkWidget *widget, int depth)
{
  int min_w, nat_w, min_h, nat_h;
  gtk_widget_get_preferred_width (widget, &min_w, &nat_w);
  gtk_widget_get_preferred_height (widget, &min_h, &nat_h);
  if (depth > 0 && min_w < 250 && min_h < 250)
    return;
  const char *name = GTK_IS_BUILDABLE (widget) ? gtk_buildable_get_name (GTK_BUILDABLE (widget)) : NULL;
  g_print ("%*s%s%s%s: min %d×%d, natural %d×%d%s\n", 2 * depth, "", G_OBJECT_TYPE_NAME (widget),
           name ? " " : "", name ? name : "", min_w, min_h, nat_w, nat_h,
           gtk_widget_get_mapped (widget) ? "" : " (unmapped)");
  if (GTK_IS_CONTAINER (widget) && depth < 14)
    {
      GList *list = NULL;
      gtk_container_forall (GTK_CONTAINER (widget), prepend_cb, &list);
      list = g_list_reverse (list);
      for (GList *l = list; l; l = l->next)
        explain (l->data, depth + 1);
      g_list_free (list);
    }
}

/* ---- themes and pictures ---------------------------------------------------------- */

static gboolean
has_class (const char *name)
{
  return gtk_style_context_has_class (gtk_widget_get_style_context (GTK_WIDGET (win)), name);
}

static gboolean
contrast_asked (void)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (win), "high-contrast");
  return state && g_variant_get_boolean (state);
}

/* The themes as a lecturer gets them: Adwaita or its dark variant as the
 * desktop's; high contrast by the app's own key, Ctrl+H, which gives the
 * widgets GTK's HighContrast theme (HighContrastInverse on a dark one). */
static void
apply_theme (const char *shot, const char *theme)
{
  GtkSettings *settings = gtk_settings_get_default ();
  gboolean hc = g_strcmp0 (theme, "hc") == 0, hci = g_strcmp0 (theme, "hci") == 0;
  gboolean dark = g_strcmp0 (theme, "dark") == 0 || hci;

  if (contrast_asked ())
    gui_test_press_key (win, GDK_KEY_h, GDK_CONTROL_MASK);
  g_object_set (settings, "gtk-theme-name", "Adwaita", "gtk-application-prefer-dark-theme", dark,
                "gtk-enable-animations", FALSE, NULL);
  if (hc || hci)
    gui_test_press_key (win, GDK_KEY_h, GDK_CONTROL_MASK);
  g_autofree char *name = NULL;
  g_object_get (settings, "gtk-theme-name", &name, NULL);
  const char *want = hc ? "HighContrast" : hci ? "HighContrastInverse" : "Adwaita";
  if (g_strcmp0 (name, want) != 0 || has_class ("high-contrast") != (hc || hci))
    problem (shot, "the theme is %s (high contrast %s) where %s was asked for", name,
             has_class ("high-contrast") ? "on" : "off", want);
}

/* Presenting as a lecturer starts it, F5, and leaves it, Escape. */
static void
present (const char *shot, gboolean on)
{
  if (has_class ("presentation") != on)
    gui_test_press_key (win, on ? GDK_KEY_F5 : GDK_KEY_Escape, 0);
  if (has_class ("presentation") != on)
    problem (shot, "%s did not %s presentation mode", on ? "F5" : "Escape", on ? "start" : "leave");
}

/* Presenting, what a back row reads: every painted text at least 14 px
 * tall.  In a window, every view's painted words at least 11 px tall: the
 * rows of two dozen kernels once shrank to 8 px at 1024×768. */
#define PRESENTATION_MIN_TEXT_PX 14.0
#define WINDOW_MIN_TEXT_PX 11.0

static void
check_text_sizes (const char *shot, const TlPaintTextBoxes *boxes, double min_px)
{
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, i);
      /* rotated text: its height is the box's width */
      double tall = MIN (b->h, b->w > b->h * 3 ? b->h : b->w);
      if (b->h < min_px && tall < min_px)
        problem (shot, "painted text “%.40s” only %.0f px tall", b->text, b->h);
    }
}

static void
collect_charts (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_DRAWING_AREA (widget) && !TL_IS_HEATMAP_VIEW (widget))
    g_ptr_array_add (data, widget);
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_charts, data);
}

/* Presenting, the charts of the page on show (not the heatmaps of the
 * Matrices page, which share it by design) take at least three quarters of
 * its height together — toolbars and notes the rest — and each at least
 * half of what they share. */
static void
check_chart_heights (const char *shot, GtkWidget *page)
{
  g_autoptr (GPtrArray) charts = g_ptr_array_new ();
  collect_charts (page, charts);
  int page_h = gtk_widget_get_allocated_height (page);
  int top = G_MAXINT, bottom = G_MININT;
  for (guint i = 0; i < charts->len; i++)
    {
      int x = 0, y = 0;
      gtk_widget_translate_coordinates (charts->pdata[i], page, 0, 0, &x, &y);
      top = MIN (top, y);
      bottom = MAX (bottom, y + gtk_widget_get_allocated_height (charts->pdata[i]));
    }
  if (charts->len == 0)
    return;
  if (4 * (bottom - top) + 4 < 3 * page_h)
    problem (shot, "the charts get %d of the page's %d px", bottom - top, page_h);
  for (guint i = 0; i < charts->len; i++)
    {
      int h = gtk_widget_get_allocated_height (charts->pdata[i]);
      if (2 * h + 12 < bottom - top)
        problem (shot, "a chart (%s) gets %d of the charts' %d px", G_OBJECT_TYPE_NAME (charts->pdata[i]), h,
                 bottom - top);
    }
}

static void
collect_scrollers (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_SCROLLED_WINDOW (widget))
    {
      GtkAllocation a;
      int x = 0, y = 0;
      gtk_widget_get_allocation (widget, &a);
      gtk_widget_translate_coordinates (widget, gtk_widget_get_toplevel (widget), 0, 0, &x, &y);
      GdkRectangle r = { x, y, a.width, a.height };
      g_array_append_val (data, r);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_scrollers, data);
}

static gboolean
inside (double x, double y, double w, double h, const GdkRectangle *r, double tolerance)
{
  return x >= r->x - tolerance && y >= r->y - tolerance && x + w <= r->x + r->width + tolerance
         && y + h <= r->y + r->height + tolerance;
}

/* A page that scrolls (Compare's charts, taller than a short window) shows
 * part of its picture: a text drawn in a scrolled window and reaching past
 * its view is scrolled out of sight, not cut by its painter. */
static void
drop_scrolled_out (TlPaintTextBoxes *boxes)
{
  g_autoptr (GArray) views = g_array_new (FALSE, FALSE, sizeof (GdkRectangle));
  gtk_container_forall (GTK_CONTAINER (win), collect_scrollers, views);
  for (guint i = tl_paint_text_boxes_len (boxes); i-- > 0;)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, i);
      for (guint v = 0; v < views->len; v++)
        {
          const GdkRectangle *r = &g_array_index (views, GdkRectangle, v);
          if (inside (b->area_x, b->area_y, b->area_w, b->area_h, r, 1.0) && !inside (b->x, b->y, b->w, b->h, r, 0.5))
            {
              tl_paint_text_boxes_remove (boxes, i);
              break;
            }
        }
    }
}

/* Draws the window as it is on screen into an image, with the painters
 * reporting where their texts went; checks those and saves the picture. */
static void
draw_and_check (const char *shot, const char *path, gboolean presenting)
{
  /* a resize still queued (a page that just came up) is done first:
   * gtk_widget_draw refuses a widget that waits for its allocation */
  gtk_container_check_resize (GTK_CONTAINER (win));
  GtkWidget *w = GTK_WIDGET (win);
  int width = gtk_widget_get_allocated_width (w), height = gtk_widget_get_allocated_height (w);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GString) report = g_string_new (NULL);

  tl_paint_text_boxes_attach (cr, boxes);
  gtk_widget_draw (w, cr);
  tl_paint_text_boxes_attach (cr, NULL);
  cairo_destroy (cr);
  drop_scrolled_out (boxes);
  if (tl_paint_text_boxes_check (boxes, width, height, report))
    {
      g_auto (GStrv) lines = g_strsplit (report->str, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        if (*lines[i])
          problem (shot, "painted text: %s", lines[i]);
    }
  check_text_sizes (shot, boxes, presenting ? PRESENTATION_MIN_TEXT_PX : WINDOW_MIN_TEXT_PX);
  if (path && cairo_surface_write_to_png (surface, path) != CAIRO_STATUS_SUCCESS)
    g_printerr ("gui-screens: could not save %s\n", path);
  cairo_surface_destroy (surface);
}

/* The window (with its header bar and borders, as a window manager would
 * maximize it) just fills the screen.  Without a window manager neither
 * maximizing nor fullscreen takes effect, and gtk_window_resize sizes the
 * content without the client-side decorations: the content is made the
 * screen less the decorations, again until the window fits (leaving
 * presentation mode, a resize can still be on its way). */
static void
fit_to_screen (int screen_w, int screen_h)
{
  GdkWindow *gdk = gtk_widget_get_window (GTK_WIDGET (win));
  gtk_window_move (GTK_WINDOW (win), 0, 0);
  for (int attempt = 0; attempt < 4; attempt++)
    {
      int w, h;
      gtk_window_get_size (GTK_WINDOW (win), &w, &h);
      int gw = gdk_window_get_width (gdk), gh = gdk_window_get_height (gdk);
      if (attempt > 0 && gw == screen_w && gh == screen_h)
        return;
      int dw = MAX (gw - w, 0), dh = MAX (gh - h, 0);
      gtk_window_resize (GTK_WINDOW (win), MAX (screen_w - dw, 1), MAX (screen_h - dh, 1));
      settle ();
    }
}

typedef struct
{
  char **views, **modes, **themes, **scenarios;
  const char *out;
  gboolean explain;
  int screen_w, screen_h;
} Matrix;

/* named so that a sorted listing gives one row per scenario, mode and
 * theme with the views in order: records-window-dark-3-blocks-1280x800 */
static void
shoot (const Matrix *m, const char *scenario, guint view_index, const char *view, const char *mode,
       const char *theme)
{
  g_autofree char *shot = g_strdup_printf ("%s-%s-%s-%u-%s-%dx%d", scenario, mode, theme, view_index + 1, view,
                                           m->screen_w, m->screen_h);
  gboolean presenting = g_strcmp0 (mode, "presentation") == 0;

  apply_theme (shot, theme);
  present (shot, presenting);
  /* "sweep": Compare's size sweep, which presenting has a screen of its
   * own after the last bar (a clicker's Page Down) */
  gboolean sweep = g_strcmp0 (view, "sweep") == 0;
  tl_window_show_view (win, sweep ? "compare" : view);
  if (sweep && presenting)
    {
      /* past the last bar; the page takes Page Down at the sweep too (the
       * key does nothing there), so step a bar count's times, not until
       * the key is refused */
      GtkWidget *compare = tl_window_get_page (win, "compare");
      guint n_bars = tl_compare_page_get_n_bars (TL_COMPARE_PAGE (compare));
      for (guint i = 0; i <= n_bars; i++)
        tl_page_step (TL_PAGE (compare), 1);
    }
  fit_to_screen (m->screen_w, m->screen_h);
  n_gtk_warnings = 0;
  g_string_truncate (gtk_warnings, 0);
  settle ();
  check_window (shot, m->screen_w, m->screen_h);
  if (m->explain)
    explain (GTK_WIDGET (win), 0);
  g_autofree char *name = g_strdup_printf ("%s.png", shot);
  g_autofree char *path = m->out ? g_build_filename (m->out, name, NULL) : NULL;
  draw_and_check (shot, path, presenting);
  if (presenting)
    check_chart_heights (shot, tl_window_get_page (win, sweep ? "compare" : view));
  g_print ("screens: %s\n", shot);
}

/* ---- the data shown ------------------------------------------------------------------- */

static void
open_records (void)
{
  const char *src = g_getenv ("TL_SOURCE_DIR");
  /* first the ladder at 4096 with its counters (the roofline; with the
   * record below, two sizes for Compare's size sweep), then the record on
   * show */
  g_autofree char *ladder = g_build_filename (src ? src : ".", "docs", "records",
                                              "h200-gemm-4096-fp32-counters.json", NULL);
  g_autoptr (GFile) f0 = g_file_new_for_path (ladder);
  tl_window_open_files (win, &f0, 1);
  settle ();
  g_autofree char *gemm = g_build_filename (src ? src : ".", "docs", "records", "h200-gemm-1000x500x1000.json", NULL);
  g_autofree char *lu = g_build_filename (src ? src : ".", "docs", "records", "h200-lu-02-blocked-96.json", NULL);
  g_autoptr (GFile) f1 = g_file_new_for_path (gemm);
  g_autoptr (GFile) f2 = g_file_new_for_path (lu);
  GFile *files[] = { f1, f2 };
  tl_window_open_files (win, files, 2);
  settle ();
  /* Blocks: two kernels' timelines, one under the other */
  const char *ids[2];
  gui_test_kernels_with_blocks (win, ids);
  if (ids[1])
    tl_blocks_page_show_kernels (TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks")), ids[0], ids[1]);
}

static void
live_run (void)
{
  static const char *const cpu[] = { "cpu-naive", "cpu-blocked", "cpu-openblas", NULL };
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));

  tl_window_generate (win, TL_TARGET_A, "random-uniform", 200, 200, TL_DTYPE_FLOAT64, 1);
  tl_window_generate (win, TL_TARGET_B, "random-normal", 200, 240, TL_DTYPE_FLOAT64, 2);
  settle ();
  gui_test_only_kernels (win, cpu);
  tl_window_run (win);
  settle ();
  tl_window_show_view (win, "gauss");
  tl_gauss_page_factor (gauss);
  settle ();
  for (int i = 0; i < 3; i++)
    tl_gauss_page_key (gauss, GDK_KEY_Page_Down, 0);
}

/* what the message bars and notes look like: results of inputs no longer
 * shown (B changed after a run) and an error (a malformed file for A) */
static void
messages (void)
{
  static const char *const naive[] = { "cpu-naive", "cpu-blocked", NULL };
  const char *src = g_getenv ("TL_SOURCE_DIR");
  g_autofree char *bad = g_build_filename (src ? src : ".", "tests", "data", "malformed.mtx", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (bad);

  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 96, 96, TL_DTYPE_FLOAT32, 3);
  settle ();
  gui_test_only_kernels (win, naive);
  tl_window_run (win);
  settle ();
  tl_window_generate (win, TL_TARGET_B, "random-normal", 96, 96, TL_DTYPE_FLOAT32, 4);
  settle ();
  tl_window_load_source (win, TL_TARGET_A, file);
  settle ();
}

/* the view's place in the header's switcher (names sort in that order) */
static guint
view_number (const char *view)
{
  static const char *const order[] = { "matrices", "compare", "blocks", "gauss", "source", "device",
                                       "roofline", "lesson", "sweep" };
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (g_strcmp0 (order[i], view) == 0)
      return i;
  return G_N_ELEMENTS (order);
}

static char **
list_option (const char *value, const char *fallback)
{
  return g_strsplit (value ? value : fallback, ",", -1);
}

int
main (int argc, char **argv)
{
  gboolean explain_sizes = FALSE;
  g_autofree char *views = NULL, *modes = NULL, *themes = NULL, *scenarios = NULL, *out = NULL;
  GOptionEntry entries[] = {
    { "views", 0, 0, G_OPTION_ARG_STRING, &views, "views", "LIST" },
    { "modes", 0, 0, G_OPTION_ARG_STRING, &modes, "window, presentation", "LIST" },
    { "themes", 0, 0, G_OPTION_ARG_STRING, &themes, "default, dark, hc, hci", "LIST" },
    { "scenarios", 0, 0, G_OPTION_ARG_STRING, &scenarios, "records, live, messages", "LIST" },
    { "explain", 0, 0, G_OPTION_ARG_NONE, &explain_sizes, "print the widgets that need the most room", NULL },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "save the pictures here", "DIR" },
    { NULL }
  };
  g_autoptr (GError) error = NULL;
  /* translated as the app is (LANGUAGE=de): the build tree's catalogues,
   * or $TILELAB_LOCALEDIR */
  tl_locale_init ();
  if (!gtk_init_with_args (&argc, &argv, "— the screenshot matrix", entries, NULL, &error))
    {
      g_printerr ("gui-screens: %s\n", error ? error->message : "no display");
      return error ? 2 : 77;
    }

  Matrix m = {
    .views = list_option (views, "matrices,compare,blocks,gauss,source,device,roofline,lesson,sweep"),
    .modes = list_option (modes, "window,presentation"),
    .themes = list_option (themes, "default,dark,hc"),
    .scenarios = list_option (scenarios, "records,live,messages"),
    .out = out,
    .explain = explain_sizes,
  };
  GdkRectangle geometry;
  gdk_monitor_get_geometry (gdk_display_get_primary_monitor (gdk_display_get_default ()), &geometry);
  m.screen_w = geometry.width;
  m.screen_h = geometry.height;
  if (out)
    g_mkdir_with_parents (out, 0755);

  gtk_warnings = g_string_new (NULL);
  g_log_set_handler ("Gtk", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL, log_cb, NULL);
  g_log_set_handler ("Gdk", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL, log_cb, NULL);
  /* GSettings' criticals too (a view missing from the schema's choices) */
  g_log_set_handler ("GLib-GIO", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL, log_cb, NULL);
  g_log_set_handler ("Tilelab", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL, log_cb, NULL);

  g_autoptr (TlApplication) app = NULL;
  win = gui_test_start_app (&app);
  fit_to_screen (m.screen_w, m.screen_h);
  settle ();

  gint64 t0 = g_get_monotonic_time ();
  guint n_shots = 0;
  for (guint s = 0; m.scenarios[s]; s++)
    {
      if (g_strcmp0 (m.scenarios[s], "records") == 0)
        open_records ();
      else if (g_strcmp0 (m.scenarios[s], "messages") == 0)
        messages ();
      else
        live_run ();
      for (guint t = 0; m.themes[t]; t++)
        for (guint d = 0; m.modes[d]; d++)
          for (guint v = 0; m.views[v]; v++, n_shots++)
            shoot (&m, m.scenarios[s], view_number (m.views[v]), m.views[v], m.modes[d], m.themes[t]);
      present (m.scenarios[s], FALSE);
    }
  g_print ("screens: %u pictures at %d×%d in %.1f s, %u problems\n", n_shots, m.screen_w, m.screen_h,
           (g_get_monotonic_time () - t0) / 1e6, n_problems);

  gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  g_strfreev (m.views);
  g_strfreev (m.modes);
  g_strfreev (m.themes);
  g_strfreev (m.scenarios);
  return n_problems ? 1 : 0;
}
