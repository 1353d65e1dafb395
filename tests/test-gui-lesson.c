/* test-gui-lesson.c — "Why faster?" in the window, as a lecturer drives it:
 * a record with counters opens on a laptop without a GPU, the page shows
 * the top rung beside the rung below, and the clicker's Page Up / Page
 * Down (key presses to the window, presenting and not) walk the ladder
 * rung by rung to its first lesson and back; Enter shows the rung's
 * source, whose code has the page's width at 1024×768, window and
 * presenting (the facts below it, a scroll bar for longer lines); a
 * record with block records only still has its lessons.  Every lesson
 * of both records as the window draws it at 1024×768 and 1280×800,
 * window and presenting: no text overlaps another or is cut to the same
 * words as another, presenting none is under 14 px; run again as
 * test-gui-lesson-de (LANGUAGE=de, the build tree's catalogue), where
 * the table speaks German.
 * Exits 77 (skip) without a display.
 */
#include <gtk/gtk.h>
#include <string.h>

#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "tl-lesson-page.h"
#include "tl-page.h"
#include "tl-roofline-page.h"
#include "tl-source-page.h"
#include "tl-window.h"
#include "view/tl-lesson.h"

#include "gui-test-util.h"

static TlWindow *win;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

/* a key as the clicker sends it, to the window */
static gboolean
press (guint keyval)
{
  GdkEvent *ev = gdk_event_new (GDK_KEY_PRESS);
  ev->key.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (win)));
  ev->key.keyval = keyval;
  GdkSeat *seat = gdk_display_get_default_seat (gdk_display_get_default ());
  gdk_event_set_device (ev, gdk_seat_get_keyboard (seat));
  gboolean handled = FALSE;
  g_signal_emit_by_name (win, "key-press-event", ev, &handled);
  gdk_event_free (ev);
  gui_test_pump (0.05);
  return handled;
}

/* The ladder as the page walks it: every rung with one below it. */
static GPtrArray *
rungs_of (const TlRunRecord *record)
{
  GPtrArray *rungs = g_ptr_array_new ();
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  for (guint i = 0; i < ladder->len; i++)
    {
      g_autoptr (TlLesson) l = tl_lesson_new (record, ladder->pdata[i], NULL);
      if (l != NULL)
        g_ptr_array_add (rungs, ladder->pdata[i]);
    }
  return rungs;
}

static void
walk (TlLessonPage *page, const TlRunRecord *record, gboolean presenting)
{
  g_autoptr (GPtrArray) rungs = rungs_of (record);
  g_assert_cmpuint (rungs->len, >, 5);
  /* the top rung first */
  g_assert_true (tl_lesson_page_select_rung (page, rungs->pdata[rungs->len - 1]));
  for (guint i = rungs->len - 1; i-- > 0;)
    {
      g_assert_true (press (GDK_KEY_Page_Up));
      g_assert_cmpstr (tl_lesson_page_get_rung (page), ==, rungs->pdata[i]);
      g_assert_nonnull (tl_lesson_page_get_rung_below (page));
      g_assert_cmpstr (tl_lesson_page_get_rung_below (page), !=, rungs->pdata[i]);
    }
  /* at the first lesson Page Up goes nowhere */
  press (GDK_KEY_Page_Up);
  g_assert_cmpstr (tl_lesson_page_get_rung (page), ==, rungs->pdata[0]);
  g_assert_cmpstr (tl_lesson_page_get_rung_below (page), ==, "gemm-01-naive");
  for (guint i = 1; i < rungs->len; i++)
    {
      g_assert_true (press (presenting ? GDK_KEY_Right : GDK_KEY_Page_Down));
      g_assert_cmpstr (tl_lesson_page_get_rung (page), ==, rungs->pdata[i]);
    }
}

static void
test_counters (void)
{
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  tl_window_show_view (win, "lesson");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  TlLessonPage *page = TL_LESSON_PAGE (tl_window_get_page (win, "lesson"));
  const TlRunRecord *record = tl_window_get_record (win);
  g_assert_cmpuint (record->job->m, ==, 4096);
  g_assert_true (tl_page_has_content (TL_PAGE (page)));
  g_assert_true (tl_page_export_record (TL_PAGE (page)) == record);

  /* the first rung has none below it: it is no lesson */
  g_assert_false (tl_lesson_page_select_rung (page, "gemm-01-naive"));
  g_assert_false (tl_lesson_page_select_rung (page, "cublas-fp32"));

  walk (page, record, FALSE);
  tl_window_set_presentation (win, TRUE);
  gui_test_pump (0.3);
  walk (page, record, TRUE);
  tl_window_set_presentation (win, FALSE);
  gui_test_pump (0.3);

  /* the export draws the rung on show */
  TlRenderOptions o;
  g_assert_true (tl_page_export_options (TL_PAGE (page), &o));
  g_assert_cmpint (o.view, ==, TL_RENDER_LESSON);
  g_assert_cmpstr (o.kernels, ==, tl_lesson_page_get_rung (page));

  /* Enter: the rung's source */
  g_assert_true (tl_lesson_page_select_rung (page, "gemm-08-vectorized"));
  g_assert_true (press (GDK_KEY_Return));
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  TlSourcePage *source = TL_SOURCE_PAGE (tl_window_get_page (win, "source"));
  g_assert_cmpuint (tl_source_page_get_source_length (source), >, 500);
}

static void
collect_labels (GtkWidget *widget, gpointer data)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (data, widget);
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_labels, data);
}

static GtkWidget *
code_scroller (TlSourcePage *source)
{
  GList *all = gtk_container_get_children (GTK_CONTAINER (source));
  /* the toolbar, then the split: code first */
  GtkWidget *split = g_list_nth_data (all, 1);
  g_list_free (all);
  return gtk_paned_get_child1 (GTK_PANED (split));
}

/* the split turned to where it belongs (it turns when idle after a
 * resize): beside its facts with a line of 100 characters in view, or
 * above them with the page's width */
static gboolean
source_placed (gpointer data)
{
  TlSourcePage *source = data;
  if (!gui_test_window_settled (win))
    return FALSE;
  if (tl_source_page_get_code_beside (source))
    return tl_source_page_get_code_columns (source) >= 95;
  return gtk_widget_get_allocated_width (code_scroller (source))
         >= gtk_widget_get_allocated_width (GTK_WIDGET (source)) * 9 / 10;
}

/* The code has the room a line needs: min_columns characters or more
 * in view, the page's width where its facts would squeeze it (they go
 * below), a scroll bar (not one shown on hover) where lines are longer
 * still. */
static void
check_source_room (TlSourcePage *source, double min_columns, const char *where)
{
  gui_test_pump (0.3);
  g_assert_true (gui_test_wait_until (source_placed, source, 10));
  gui_test_pump (0.2); /* turned, its handle is placed when idle */
  double columns = tl_source_page_get_code_columns (source);
  if (columns < min_columns)
    g_error ("%s: the Source page shows %.0f characters of a line", where, columns);
  GtkWidget *scroller = code_scroller (source);
  GtkWidget *split = gtk_widget_get_parent (scroller);
  GtkWidget *view = gtk_bin_get_child (GTK_BIN (scroller));
  g_assert_true (GTK_IS_TEXT_VIEW (view));
  if (!tl_source_page_get_code_beside (source))
    g_assert_cmpint (gtk_widget_get_allocated_width (scroller), >=,
                     gtk_widget_get_allocated_width (GTK_WIDGET (source)) * 9 / 10);
  GtkWidget *hbar = gtk_scrolled_window_get_hscrollbar (GTK_SCROLLED_WINDOW (scroller));
  GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  if (gtk_adjustment_get_upper (h) > gtk_adjustment_get_page_size (h) + 1)
    {
      g_assert_true (gtk_widget_get_mapped (hbar));
      g_assert_false (gtk_scrolled_window_get_overlay_scrolling (GTK_SCROLLED_WINDOW (scroller)));
    }
  /* the facts still show some lines */
  GtkWidget *side = gtk_paned_get_child2 (GTK_PANED (split));
  g_assert_cmpint (gtk_widget_get_allocated_height (side), >, 50);
  g_assert_cmpint (gtk_widget_get_allocated_width (side), >, 250);
}

/* Lines of code in view: the code view's visible height in its lines */
static double
code_lines_shown (TlSourcePage *source)
{
  GtkTextView *view = GTK_TEXT_VIEW (gtk_bin_get_child (GTK_BIN (code_scroller (source))));
  GdkRectangle rect;
  gtk_text_view_get_visible_rect (view, &rect);
  GtkTextIter first;
  int y, line_h;
  gtk_text_buffer_get_start_iter (gtk_text_view_get_buffer (view), &first);
  gtk_text_view_get_line_yrange (view, &first, &y, &line_h);
  return rect.height / (double) MAX (line_h, 1);
}

/* The Source page of rung 8 of the record with counters, at 1024×768 */
static TlSourcePage *
show_rung_8_at_1024x768 (void)
{
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  gui_test_fill_screen (win, 1024, 768);
  TlSourcePage *source = TL_SOURCE_PAGE (tl_window_get_page (win, "source"));
  tl_window_show_view (win, "source");
  tl_source_page_show_kernel (source, "gemm-08-vectorized");
  return source;
}

static void
test_source_room (void)
{
  TlSourcePage *source = show_rung_8_at_1024x768 ();
  /* beside the sidebar: what the page has (60 to 70 characters; its
   * facts beside it left 36) */
  check_source_room (source, 56, "1024×768");
  g_assert_false (tl_source_page_get_code_beside (source));
  /* the code most of the page, its facts a few compact lines below (once
   * the facts above it took the height and left about 10 lines) */
  double lines = code_lines_shown (source);
  g_test_message ("1024×768: %.1f lines of code", lines);
  g_assert_cmpfloat (lines, >=, 24.5);
  /* a record made before constant memory was recorded says so */
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  collect_labels (GTK_WIDGET (source), labels);
  gboolean said = FALSE;
  for (guint i = 0; i < labels->len; i++)
    said |= strstr (gtk_label_get_text (labels->pdata[i]), "constant memory  — (not in this record)") != NULL;
  g_assert_true (said);
  tl_window_set_presentation (win, TRUE);
  /* the type 1.6 times larger, the whole width: about 77 characters */
  check_source_room (source, 72, "presenting");
  tl_window_set_presentation (win, FALSE);
  gui_test_pump (0.3);
  /* 1280×800: still below its facts beside the sidebar, the handle where
   * it was put (once 256 px higher: GtkPaned moved it by the width less
   * the height after the split turned) */
  gui_test_fill_screen (win, 1280, 800);
  check_source_room (source, 56, "1280×800");
  g_assert_false (tl_source_page_get_code_beside (source));
  lines = code_lines_shown (source);
  g_test_message ("1280×800: %.1f lines of code", lines);
  g_assert_cmpfloat (lines, >=, 25);
}

/* Presenting at 1024×768 the code keeps most of the page and its facts a
 * few lines below it: what was measured among those lines, in view
 * without a scroll (it came after the facts, out of sight) */
static void
test_source_measured_seen (void)
{
  TlSourcePage *source = show_rung_8_at_1024x768 ();
  tl_window_set_presentation (win, TRUE);
  check_source_room (source, 72, "presenting");
  double lines = code_lines_shown (source);
  g_test_message ("1024×768 presenting: %.1f lines of code", lines);
  /* 19.3 lines (17 where the status bar's bigger type came after the
   * handle was placed), as with the facts in one column */
  g_assert_cmpfloat (lines, >=, 17);

  GtkWidget *side = gtk_paned_get_child2 (GTK_PANED (gtk_widget_get_parent (code_scroller (source))));
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (side));
  g_assert_cmpfloat (gtk_adjustment_get_value (v), ==, gtk_adjustment_get_lower (v));
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  collect_labels (side, labels);
  int bottom = G_MAXINT;
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = labels->pdata[i];
      const char *text = gtk_label_get_text (GTK_LABEL (label));
      const char *word = strstr (text, "Measured");
      int x, y;
      if (word == NULL || !gtk_widget_get_mapped (label)
          || !gtk_widget_translate_coordinates (label, side, 0, 0, &x, &y))
        continue;
      /* the rate in its unit, as Compare says it ("GFLOP/s  4.573e+04" before) */
      g_assert_nonnull (strstr (word, "TFLOP/s"));
      g_assert_null (strstr (word, "e+0"));
      PangoRectangle at;
      pango_layout_index_to_pos (gtk_label_get_layout (GTK_LABEL (label)), (int) (word - text), &at);
      bottom = y + gtk_widget_get_margin_top (label) + PANGO_PIXELS (at.y + at.height);
    }
  g_test_message ("\"Measured\" ends %d px down the facts' %d", bottom, gtk_widget_get_allocated_height (side));
  if (bottom > gtk_widget_get_allocated_height (side))
    g_error ("presenting at 1024×768, \"Measured\" is out of sight below the Source page's facts");
  tl_window_set_presentation (win, FALSE);
  gui_test_pump (0.3);
}

/* The lines the export of a page gives (first and count), and the lines
 * the page's code view shows. */
static void
exported_lines (TlSourcePage *source, guint *first, guint *n)
{
  TlRenderOptions options;
  tl_render_options_init (&options);
  g_assert_true (tl_page_export_options (TL_PAGE (source), &options));
  *first = options.sheet->first_number;
  *n = tl_sheet_get_n_rows (options.sheet);
}

static void
shown_lines (TlSourcePage *source, guint *first, guint *n)
{
  GtkTextView *view = GTK_TEXT_VIEW (gtk_bin_get_child (GTK_BIN (code_scroller (source))));
  GdkRectangle rect;
  gtk_text_view_get_visible_rect (view, &rect);
  GtkTextIter top, bottom;
  gtk_text_view_get_line_at_y (view, &top, rect.y, NULL);
  gtk_text_view_get_line_at_y (view, &bottom, rect.y + rect.height - 1, NULL);
  *first = gtk_text_iter_get_line (&top) + 1;
  *n = gtk_text_iter_get_line (&bottom) - gtk_text_iter_get_line (&top) + 1;
}

/* Export right after switching to the Source page at 1024×768, before
 * the page has been drawn: the lines it then shows, not the file's first
 * forty or nothing. */
static void
test_source_export_shown (void)
{
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  gui_test_fill_screen (win, 1024, 768);
  TlSourcePage *source = TL_SOURCE_PAGE (tl_window_get_page (win, "source"));
  tl_window_show_view (win, "matrices");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  tl_source_page_show_kernel (source, "gemm-08-vectorized");
  tl_window_show_view (win, "source");
  guint first, n;
  exported_lines (source, &first, &n);
  g_assert_true (gui_test_wait_until (source_placed, source, 30));
  guint shown_first, shown_n;
  shown_lines (source, &shown_first, &shown_n);
  g_test_message ("exported %u+%u, shown %u+%u", first, n, shown_first, shown_n);
  g_assert_cmpuint (first, ==, shown_first);
  g_assert_cmpuint (n, ==, shown_n);
}

static void
test_blocks_only (void)
{
  gui_test_open_doc_record (win, "h200-gemm-1000x500x1000.json");
  tl_window_show_view (win, "lesson");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  TlLessonPage *page = TL_LESSON_PAGE (tl_window_get_page (win, "lesson"));
  /* the record just opened has a ladder: the page shows it */
  const TlRunRecord *record = tl_window_get_record (win);
  g_assert_cmpuint (record->job->m, ==, 1000);
  g_assert_true (tl_lesson_page_select_rung (page, "gemm-04-smem32"));
  g_assert_cmpstr (tl_lesson_page_get_rung_below (page), ==, "gemm-03-smem16");
  g_assert_true (press (GDK_KEY_Page_Down));
  g_assert_cmpstr (tl_lesson_page_get_rung (page), ==, "gemm-05-seed3k");
}

/* The numbers show at once, the diff when the worker has made it; steps
 * faster than the worker drop the diffs they passed, and the one drawn
 * last is the rung's own. */
static void
test_diff_off_main_loop (void)
{
  gui_test_open_doc_record (win, "h200-gemm-4096-fp32-counters.json");
  tl_window_show_view (win, "lesson");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  TlLessonPage *page = TL_LESSON_PAGE (tl_window_get_page (win, "lesson"));
  g_assert_true (tl_lesson_page_select_rung (page, "gemm-04-smem32"));
  g_assert_true (tl_lesson_page_is_busy (page));
  const TlLesson *shown = tl_lesson_page_get_lesson (page);
  g_assert_nonnull (shown);
  g_assert_cmpuint (shown->rows->len, >, 3);
  g_assert_null (shown->diff);
  for (int i = 0; i < 4; i++)
    tl_page_step (TL_PAGE (page), 1);
  const char *rung = tl_lesson_page_get_rung (page);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  g_assert_false (tl_lesson_page_is_busy (page));
  g_assert_cmpstr (tl_lesson_page_get_rung (page), ==, rung);

  shown = tl_lesson_page_get_lesson (page);
  g_autoptr (TlLesson) whole = tl_lesson_new (tl_window_get_record (win), rung, NULL);
  g_assert_nonnull (whole);
  g_assert_cmpstr (shown->what_changed, ==, whole->what_changed);
  g_assert_cmpstr (shown->diff_note, ==, whole->diff_note);
  g_assert_true ((shown->diff == NULL) == (whole->diff == NULL));
  if (whole->diff != NULL)
    {
      g_assert_cmpuint (shown->diff->n_added, ==, whole->diff->n_added);
      g_assert_cmpuint (shown->diff->n_removed, ==, whole->diff->n_removed);
    }
}

static void
find_area (GtkWidget *widget, gpointer data)
{
  if (GTK_IS_DRAWING_AREA (widget))
    *(GtkWidget **) data = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_area, data);
}

static gboolean
page_ready (gpointer page)
{
  return gui_test_window_settled (win) && !tl_lesson_page_is_busy (page);
}

/* In a window, beside the sidebar at 1024×768 too, the table's words are
 * at least the body's size (they were 11 px against the body's 12). */
static void
check_table_type (TlLessonPage *page, const TlPaintTextBoxes *boxes, const char *at)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  tl_paint_set_font (cr, &style, style.font_size, FALSE);
  double body_h = tl_paint_text_height (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  const TlLesson *lesson = tl_lesson_page_get_lesson (page);
  guint seen = 0;
  for (guint i = 0; i < lesson->rows->len; i++)
    {
      const TlLessonRow *row = lesson->rows->pdata[i];
      for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
        {
          const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
          if (strcmp (b->text, row->title) != 0)
            continue;
          seen++;
          if (b->h < body_h - 0.01)
            g_error ("%s: the table's “%s” is %.1f px high, under the body's %.1f px", at, b->text, b->h,
                     body_h);
        }
    }
  g_assert_cmpuint (seen, >, 0);
}

/* The lesson shown, drawn as the window draws it: its texts' problems. */
static void
check_drawn (TlLessonPage *page, gboolean presenting, const char *where)
{
  g_assert_true (gui_test_wait_until (page_ready, page, 30));
  GtkWidget *area = NULL;
  find_area (GTK_WIDGET (page), &area);
  g_assert_nonnull (area);
  g_autoptr (TlPaintTextBoxes) boxes = gui_test_widget_texts (area);
  int w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area);
  g_autofree char *at = g_strdup_printf ("%s, %s on %d×%d", where, tl_lesson_page_get_rung (page), w, h);
  g_autoptr (GString) report = g_string_new (NULL);
  if (tl_paint_text_boxes_check (boxes, w, h, report) > 0)
    g_error ("%s: problems with the text:\n%s", at, report->str);
  for (guint k = 0; presenting && k < tl_paint_text_boxes_len (boxes); k++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
      if (MIN (b->w, b->h) > 0 && b->h < 14)
        g_error ("%s: “%s” is %.1f px high", at, b->text, b->h);
    }
  const char *median = g_dgettext (GETTEXT_PACKAGE, "median time");
  if (tl_paint_text_boxes_find (boxes, median) == NULL)
    g_error ("%s: the table has no “%s”", at, median);
  if (!presenting)
    check_table_type (page, boxes, at);
  g_test_message ("%s: drawn", at);
}

static void
test_drawn (void)
{
  static const char *const records[] = { "h200-gemm-4096-fp32-counters.json",
                                         "h200-gemm-1000x500x1000.json" };
  static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 } };
  for (guint r = 0; r < G_N_ELEMENTS (records); r++)
    {
      gui_test_open_doc_record (win, records[r]);
      tl_window_show_view (win, "lesson");
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      TlLessonPage *page = TL_LESSON_PAGE (tl_window_get_page (win, "lesson"));
      g_autoptr (GPtrArray) rungs = rungs_of (tl_window_get_record (win));
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        for (int presenting = 0; presenting < 2; presenting++)
          {
            gui_test_fill_screen (win, sizes[k][0], sizes[k][1]);
            tl_window_set_presentation (win, presenting);
            gui_test_pump (0.3);
            g_autofree char *where = g_strdup_printf ("%s at %d×%d%s", records[r], sizes[k][0],
                                                      sizes[k][1], presenting ? " presenting" : "");
            for (guint i = 0; i < rungs->len; i++)
              {
                g_assert_true (tl_lesson_page_select_rung (page, rungs->pdata[i]));
                check_drawn (page, presenting, where);
              }
          }
      tl_window_set_presentation (win, FALSE);
      gui_test_pump (0.3);
    }
}

/* the combos a page shows: each lists something to choose, or is greyed */
static void
check_combos_cb (GtkWidget *widget, gpointer data)
{
  const char *page = data;
  if (GTK_IS_COMBO_BOX (widget) && gtk_widget_get_mapped (widget))
    {
      GtkTreeModel *model = gtk_combo_box_get_model (GTK_COMBO_BOX (widget));
      int rows = model ? gtk_tree_model_iter_n_children (model, NULL) : 0;
      if (rows == 0 && gtk_widget_is_sensitive (widget))
        g_error ("with no record, the %s page shows an empty combo (“%s”)", page,
                 gtk_widget_get_tooltip_text (widget));
    }
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), check_combos_cb, data);
}

/* Before any record: the Roofline and Why Faster? pages showed two blank
 * "▾" side by side (the record's and the kernel's) — the record's combo
 * is hidden, the kernel's greyed, the page's text says what to open. */
static void
test_no_record (void)
{
  static const char *const pages[] = { "roofline", "lesson" };
  const GType types[] = { TL_TYPE_ROOFLINE_PAGE, TL_TYPE_LESSON_PAGE };
  g_assert_null (tl_window_get_record (win));
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      tl_window_show_view (win, pages[p]);
      g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
      gui_test_pump (0.2);
      GtkWidget *page = gui_test_find_widget (GTK_WIDGET (win), types[p]);
      g_assert_nonnull (page);
      g_assert_true (gtk_widget_get_mapped (page));
      check_combos_cb (page, (gpointer) pages[p]);
    }
}

static void
add_tests (void)
{
  g_test_add_func ("/gui-lesson/no-record", test_no_record);
  g_test_add_func ("/gui-lesson/counters", test_counters);
  g_test_add_func ("/gui-lesson/blocks-only", test_blocks_only);
  g_test_add_func ("/gui-lesson/source-room", test_source_room);
  g_test_add_func ("/gui-lesson/source-measured-seen", test_source_measured_seen);
  g_test_add_func ("/gui-lesson/source-export-shown", test_source_export_shown);
  g_test_add_func ("/gui-lesson/diff-off-main-loop", test_diff_off_main_loop);
  g_test_add_func ("/gui-lesson/drawn", test_drawn);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .app_locale = TRUE, .add_tests = add_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
