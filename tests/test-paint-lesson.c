/* test-paint-lesson.c — "why is rung N faster than N−1?" as the back row
 * sees it.  From the H200 records of docs/records (one with block records,
 * one with counters) and the H100's, at 1024×768, 1280×800 and 1920×1080,
 * in window and presentation type (and high contrast's bold), and as
 * `render -p` draws it (its type 1.6 times its plain render's) at those
 * sizes and 1920×1040, every lesson of the ladder and the one render
 * shows without --kernel:
 *
 *   - the pictures get room: each SM timeline's lanes at least six lines
 *     of type high, the roofline's plot at least eight (presenting at
 *     1024×768 a band under the diff left them a sliver, about 40 px) and
 *     three fifths of its picture's width (its legend goes under it);
 *   - the table shows every row, its titles and values whole, its type
 *     at least 16 px presenting (the body's where that is less; it sat
 *     at 14 px beside the body's 19 at 1024×768 in German and high
 *     contrast, its titles whole in the width the charts leave);
 *   - the question, the answer, what changed, the diff's heading and the
 *     note of what the record lacks are never cut;
 *   - no text overlaps another, is cut without an ellipsis or runs off,
 *     and no two are cut to the same words;
 *   - the pictures get their share of the page: a column at least 40% of
 *     its width and, together, at least 60% of its height;
 *   - presenting, every text is at least 14 px high; in a window the
 *     table's at least the body's size, beside the sidebar at 1024×768 too
 *     (the page 652×586 px there, 529 px beside a sidebar dragged wider),
 *     window and presenting: titles too long for their column go on two
 *     or three lines, whole (at 529 px "share of the ref…" and "bank
 *     conflicts p…" were cut, in German at 652 px
 *     "Shared-Memory-Warteschl…").
 *
 * Run with LANGUAGE=de too (test-paint-lesson-de): the catalogue of the
 * build tree, as build/ui/tilelab finds it, and German is about a third
 * longer than English — the same checks, the table's words German.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "core/tl-locale.h"

#include "paint/tl-paint-lesson.h"
#include "paint/tl-paint-lesson-charts.h"
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint/tl-render.h"
#include "paint-test-util.h"

static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };
/* the page in a window of 1024×768 beside the sidebar (652 px), beside a
 * sidebar dragged wider (529 px): titles too long for their column go on
 * more lines, never cut */
/* render -p's pictures: the screens, and a 1920×1080 one less a taskbar */
static const int render_sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 }, { 1920, 1040 } };
static const int beside_sidebar[][2] = { { 652, 586 }, { 529, 586 } };

static TlRunRecord *
load_record (const char *name)
{
  TlRenderInput input;
  tl_test_doc_record_load (&input, name);
  TlRunRecord *record = g_steal_pointer (&input.record);
  tl_render_input_clear (&input);
  return record;
}

/* The boxes from k on that hold text whole, on one line or wrapped over
 * the next ones ("share of the" "reference", "Shared-Memory-"
 * "Warteschlange voll"); how many, 0 when they do not. */
static guint
drawn_whole_at (const TlPaintTextBoxes *boxes, guint k, const char *text)
{
  const char *rest = text;
  guint n = 0;
  for (; k < tl_paint_text_boxes_len (boxes); k++, n++)
    {
      const char *piece = tl_paint_text_boxes_index (boxes, k)->text;
      if (n > 0 && !g_str_has_suffix (tl_paint_text_boxes_index (boxes, k - 1)->text, "-"))
        {
          if (*rest != ' ')
            return 0;
          rest++;
        }
      if (*piece == '\0' || !g_str_has_prefix (rest, piece))
        return 0;
      rest += strlen (piece);
      if (*rest == '\0')
        return n + 1;
    }
  return 0;
}

/* One lesson on a width × height page in style; presenting: its text at
 * least 14 px; how: the style's name for the messages. */
/* Whether (x, y) lies inside the text's own corners (turned or not),
 * shrunk by a pixel. */
static gboolean
inside_text (const TlPaintTextBox *b, double x, double y)
{
  double cx = 0, cy = 0;
  for (int c = 0; c < 4; c++)
    {
      cx += b->corner_x[c] / 4;
      cy += b->corner_y[c] / 4;
    }
  int sign = 0;
  for (int c = 0; c < 4; c++)
    {
      double ax = b->corner_x[c], ay = b->corner_y[c];
      double bx = b->corner_x[(c + 1) % 4], by = b->corner_y[(c + 1) % 4];
      double len = hypot (bx - ax, by - ay);
      double side = ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / MAX (len, 1e-9);
      double centre = ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / MAX (len, 1e-9);
      int s = centre > 0 ? 1 : -1;
      if (side * s < 1)
        return FALSE;
      sign = s;
    }
  return sign != 0;
}

/* The arrow from the rung below to the rung runs through no text (at
 * 1024×768 presenting it crossed "FP32 · FP64 tensor 66.9 TFLOP/s"):
 * walked pixel by pixel. */
static void
check_arrow_clear (cairo_t *cr, const TlLesson *lesson, const TlPaintStyle *style,
                   const TlLessonParts *parts, const TlPaintTextBoxes *boxes, const char *where)
{
  TlRooflineLayout rl;
  double seg[4];
  if (parts->roofline_w <= 0)
    return;
  tl_paint_lesson_roofline_layout (cr, lesson, style, parts->roofline_w, parts->roofline_h, &rl);
  if (!tl_roofline_arrow_segment (&rl, lesson->roofline, 0, 1, seg))
    return;
  double len = hypot (seg[2] - seg[0], seg[3] - seg[1]);
  for (double t = 0; t <= len; t += 1)
    {
      double x = parts->roofline_x + seg[0] + (seg[2] - seg[0]) * t / len;
      double y = parts->roofline_y + seg[1] + (seg[3] - seg[1]) * t / len;
      for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
        if (inside_text (tl_paint_text_boxes_index (boxes, k), x, y))
          g_error ("%s: the arrow runs through “%s”", where,
                   tl_paint_text_boxes_index (boxes, k)->text);
    }
}

static void
check_lesson_styled (const TlRunRecord *record, const TlLesson *lesson, const TlPaintStyle *given,
                     int width, int height, gboolean presenting, const char *how)
{
  TlPaintStyle style = *given;
  double line = TL_PX (&style, style.font_size);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (s);
  g_autofree char *where = g_strdup_printf ("%s at %d×%d %s", lesson->upper_id, width, height, how);

  TlLessonParts parts;
  tl_paint_lesson_layout (cr, lesson, &style, width, height, &parts);
  TlTimelineLayout tl;
  if (tl_paint_lesson_timeline_layout (cr, lesson, record, &style, width, height, &tl))
    for (guint i = 0; i < tl.n_tracks; i++)
      if (tl.track[i].h < 6 * line)
        g_error ("%s: timeline %u is %.0f px high, under six lines of type (%.0f px)", where, i,
                 tl.track[i].h, 6 * line);
  if (parts.roofline_w > 0)
    {
      TlRooflineLayout rl;
      tl_paint_lesson_roofline_layout (cr, lesson, &style, parts.roofline_w, parts.roofline_h, &rl);
      if (rl.plot_h < 8 * line)
        g_error ("%s: the roofline's plot is %.0f px high, under eight lines of type (%.0f px)",
                 where, rl.plot_h, 8 * line);
      /* its legend under the plot, not beside it in a narrow column (the
       * plot was 100 px wide in a window at 1024×768, the names cut) */
      if (rl.plot_w < 0.6 * parts.roofline_w)
        g_error ("%s: the roofline's plot is %.0f px wide of %.0f", where, rl.plot_w,
                 parts.roofline_w);
    }

  /* the pictures' share: a column of the page's width, most of its height */
  double charts_w = MAX (parts.roofline_w, parts.timeline_w);
  double charts_h = parts.roofline_h + parts.timeline_h;
  if (charts_w < 0.4 * width || charts_h < 0.6 * height)
    g_error ("%s: the pictures get %.0f×%.0f px, under 40%% of the width or 60%% of the height",
             where, charts_w, charts_h);

  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_lesson (cr, lesson, record, &style, width, height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_autoptr (GString) report = g_string_new (NULL);
  if (tl_paint_text_boxes_check (boxes, width, height, report) > 0)
    g_error ("%s: problems with the text:\n%s", where, report->str);
  check_arrow_clear (cr, lesson, &style, &parts, boxes, where);
  for (guint k = 0; presenting && k < tl_paint_text_boxes_len (boxes); k++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
      if (b->h < 14 && MIN (b->w, b->h) > 0)
        g_error ("%s: “%s” is %.1f px high, under 14 px", where, b->text, MIN (b->h, b->w));
    }
  /* in German the table speaks German */
  const char *median = g_dgettext (GETTEXT_PACKAGE, "median time");
  if (tl_paint_text_boxes_find (boxes, median) == NULL)
    g_error ("%s: the table has no “%s”", where, median);
  /* in a window the table's type is at least the body's (it was 11 px
   * beside the sidebar at 1024×768) */
  cairo_save (cr);
  tl_paint_set_font (cr, &style, style.font_size, FALSE);
  double body_h = tl_paint_text_height (cr);
  tl_paint_set_font (cr, &style, MIN (style.font_size, 16.0 / style.scale), FALSE);
  double least_presenting_h = tl_paint_text_height (cr);
  cairo_restore (cr);
  /* every row of the table, its title and values whole (not cut to
   * "shared memory per bl…"), its type at least 16 px presenting */
  if (parts.table_rows < lesson->rows->len)
    g_error ("%s: the table shows %u of %u rows", where, parts.table_rows, lesson->rows->len);
  for (guint i = 0; i < lesson->rows->len; i++)
    {
      const TlLessonRow *row = lesson->rows->pdata[i];
      const char *cells[] = { row->title, row->before, row->after };
      for (guint c = 0; c < (row->heading ? 1 : G_N_ELEMENTS (cells)); c++)
        {
          gboolean whole = FALSE;
          for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
            {
              /* a title may go on more lines, a value on one */
              guint n = drawn_whole_at (boxes, k, cells[c]);
              if (n == 0 || (c > 0 && n > 1))
                continue;
              whole = TRUE;
              const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
              if (presenting && b->h < least_presenting_h - 0.01)
                g_error ("%s: the table's “%s” is %.1f px high, under 16 px type's %.1f", where,
                         b->text, b->h, least_presenting_h);
              if (!presenting && b->h < body_h - 0.01)
                g_error ("%s: the table's “%s” is %.1f px high, under the body's %.1f px", where,
                         b->text, b->h, body_h);
            }
          if (!whole)
            {
              /* what was drawn instead, to tell a cut from a missing cell */
              g_autofree char *start = g_utf8_substring (cells[c], 0, 5);
              const TlPaintTextBox *b = tl_paint_text_boxes_find (boxes, start);
              g_error ("%s: the table's “%s” is cut or missing (“%s”)", where, cells[c],
                       b ? b->text : "");
            }
        }
    }
  /* the words of the page's own lines end whole: the question, the
   * answer, what changed, the diff's heading, what the record lacks */
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
      gboolean in_part = FALSE;
      const double rects[][4] = { { parts.roofline_x, parts.roofline_y, parts.roofline_w, parts.roofline_h },
                                  { parts.timeline_x, parts.timeline_y, parts.timeline_w, parts.timeline_h },
                                  /* the code lines under the diff's heading */
                                  { parts.diff_x, parts.diff_y + b->h * 0.9, parts.diff_w, parts.diff_h } };
      for (guint r = 0; r < G_N_ELEMENTS (rects); r++)
        in_part |= rects[r][2] > 0 && b->x >= rects[r][0] - 1 && b->y >= rects[r][1] - 1
                   && b->x + b->w <= rects[r][0] + rects[r][2] + 1
                   && b->y + b->h <= rects[r][1] + rects[r][3] + 1;
      if (!in_part && g_str_has_suffix (b->text, "…"))
        g_error ("%s: “%s” is cut", where, b->text);
      /* the diff's count of the lines it leaves out, whole (“… und 323
       * weitere geänderte Zeilen (Seite Q…” at 1024×768 presenting) */
      if (g_str_has_prefix (b->text, "… ") && g_str_has_suffix (b->text, "…"))
        g_error ("%s: “%s” is cut", where, b->text);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* One lesson on a width × height page of the app (the window's status bar
 * taken off): in a window, presenting, presenting in high contrast. */
static void
check_lesson (const TlRunRecord *record, const TlLesson *lesson, int width, int height,
              int presenting)
{
  TlPaintStyle style;
  if (presenting)
    tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, presenting > 1);
  else
    tl_paint_style_init (&style, 1.0);
  check_lesson_styled (record, lesson, &style, width, height, presenting > 0,
                       presenting > 1 ? "presenting, high contrast"
                       : presenting ? "presenting" : "in a window");
}

/* `render --view lesson -p` of a width × height picture: the CLI's type,
 * 1.6 times as large as its plain render's (35 px at 1920×1080, where 24
 * units left no room for the table's last rows in German at 1920×1040). */
static void
check_lesson_rendered (const TlRunRecord *record, const TlLesson *lesson, int width, int height)
{
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_LESSON;
  o.presentation = TRUE;
  TlPaintStyle style;
  tl_render_style_init (&style, &o, width, height, 1.0);
  check_lesson_styled (record, lesson, &style, width, height, TRUE, "rendered, presenting");
}

static void
check_record (const char *name, gboolean want_blocks, gboolean want_roofline)
{
  TlRunRecord *record = load_record (name);
  g_autoptr (GPtrArray) ladder = tl_lesson_ladder (record);
  guint seen_blocks = 0, seen_roofline = 0;
  /* every rung of the ladder, then the lesson render shows without
   * --kernel (08 → 17 on the H200: its last stall row was dropped
   * presenting at 1920×1040 in German) */
  for (guint i = 1; i <= ladder->len; i++)
    {
      g_autoptr (TlLesson) lesson = tl_lesson_new (record, i < ladder->len ? ladder->pdata[i] : NULL,
                                                   NULL);
      if (lesson == NULL)
        continue;
      seen_blocks += lesson->has_blocks;
      seen_roofline += lesson->roofline != NULL;
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        /* in a window, presenting, presenting in high contrast (bold type) */
        for (int presenting = 0; presenting < 3; presenting++)
          /* the window's status bar off the screen's height */
          check_lesson (record, lesson, sizes[k][0], sizes[k][1] - 40, presenting);
      for (guint k = 0; k < G_N_ELEMENTS (render_sizes); k++)
        check_lesson_rendered (record, lesson, render_sizes[k][0], render_sizes[k][1]);
      /* presenting hides the sidebar */
      for (guint k = 0; k < G_N_ELEMENTS (beside_sidebar); k++)
        check_lesson (record, lesson, beside_sidebar[k][0], beside_sidebar[k][1], 0);
    }
  g_assert_true (!want_blocks || seen_blocks > 0);
  g_assert_true (!want_roofline || seen_roofline > 0);
  tl_run_record_unref (record);
}

static void
test_timelines (void)
{
  check_record ("h200-gemm-1000x500x1000.json", TRUE, FALSE);
}

static void
test_roofline (void)
{
  check_record ("h200-gemm-4096-fp32-counters.json", FALSE, TRUE);
}

/* the H100's ladder, float32 and float64: other rows, other names */
static void
test_roofline_h100 (void)
{
  check_record ("h100-gemm-4096-fp32-counters.json", FALSE, TRUE);
  check_record ("h100-gemm-4096-fp64-counters.json", FALSE, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* LANGUAGE=de: the build tree's German catalogue, as the app finds it */
  tl_locale_init ();
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0
      && strcmp (g_dgettext (GETTEXT_PACKAGE, "median time"), "median time") == 0)
    g_error ("LANGUAGE=de, but no German catalogue in %s", tl_locale_dir ());
  g_test_add_func ("/paint/lesson/timelines", test_timelines);
  g_test_add_func ("/paint/lesson/roofline", test_roofline);
  g_test_add_func ("/paint/lesson/roofline-h100", test_roofline_h100);
  return g_test_run ();
}
