/* tl-paint-lesson.c — "why is rung N faster than N−1?" on one screen:
 * where the parts go, the words across the top and at the foot; the
 * table, the diff and the pictures paint themselves
 * (tl-paint-lesson-table.c, -diff.c, -charts.c). */
#include "paint/tl-paint-lesson.h"

#include <math.h>
#include <string.h>

#include "paint/tl-paint-lesson-charts.h"
#include "paint/tl-paint-lesson-diff.h"
#include "paint/tl-paint-lesson-table.h"
#include "paint/tl-paint-util.h"

/* ---- layout ------------------------------------------------------------- */

typedef TlLessonParts Parts;

typedef struct
{
  double pad, width, height;
  double question_y, question_size;
  guint question_lines;
  double answer_y;
  double changed_y, line_h;
  guint changed_lines;
  double missing_x, missing_y, missing_w;
  double missing_scale;    /* its type, of the body's: smaller beside the table */
  guint missing_lines;
  gboolean missing_beside; /* the note under the table, not across the foot */
  double table_font;
  Parts parts;
} Layout;

/* Lines text takes wrapped to max_w in cr's font, at most max_lines. */
static guint
lines_for (cairo_t *cr, const char *text, double max_w, guint max_lines)
{
  return MIN (tl_paint_text_wrap_count (cr, max_w, text), max_lines);
}

/* Places the table (its width already in o) at x, y with room max_h: the
 * rows that fit, their height. */
static void
place_table (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o, double x,
             double y, double max_h)
{
  Parts *p = &o->parts;
  p->table_x = x;
  p->table_y = y;
  p->table_rows = tl_paint_lesson_table_rows_in (cr, l, style, o->table_font, p->table_w, max_h,
                                                 &p->table_h);
}

/* The charts' least share of the body's width: the roofline's plot and
 * the timelines' lanes are what the back row must read, so they get
 * nearly half of it, more where the table, whole at 14 px presenting,
 * needs less (it gets at most the rest, at least two fifths). */
#define CHARTS_SHARE 0.45
#define TIMELINES_SHARE 0.56 /* their tail labels and axis titles */
/* the roofline's least, where the table's titles need more (German, high
 * contrast's bold type): its legend is under its plot */
#define ROOFLINE_LEAST 0.42
#define TIMELINES_LEAST 0.44

/* A page under this many lines of its type high puts the note of what
 * the record lacks under the table (on at most so many lines), that the
 * pictures take the foot of the page: the lanes of two timelines six
 * lines high each, the roofline's plot eight. */
#define SHORT_PAGE_LINES 36
#define NOTE_BESIDE_MAX_LINES 6
#define NOTE_BESIDE_SCALE 0.85

/* The table at x, y above a diff of some lines, or with the diff's room
 * too where its rows need it (titles on more lines, a page of few lines
 * of type); the note of what the record lacks under it where it goes
 * beside the pictures; the diff's top under both. */
static void
place_table_and_note (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o,
                      double x, double y, double body_h)
{
  Parts *p = &o->parts;
  double note_h = 0;
  if (o->missing_beside)
    {
      /* a side note, that the diff keeps its heading under it */
      o->missing_scale = NOTE_BESIDE_SCALE;
      cairo_save (cr);
      tl_paint_set_font (cr, style, style->font_size * o->missing_scale, FALSE);
      o->missing_lines = lines_for (cr, l->missing, p->table_w, NOTE_BESIDE_MAX_LINES);
      cairo_restore (cr);
      note_h = o->missing_lines * o->line_h * o->missing_scale + o->pad;
    }
  double table_room = body_h * 0.62, h;
  if (tl_paint_lesson_table_rows_in (cr, l, style, o->table_font, p->table_w, table_room, &h)
      < l->rows->len)
    table_room = body_h - note_h;
  place_table (cr, l, style, o, x, y, table_room);
  p->diff_y = y + p->table_h + o->pad;
  if (o->missing_beside)
    {
      o->missing_x = p->table_x;
      o->missing_w = p->table_w;
      o->missing_y = p->diff_y - o->pad * 0.5;
      p->diff_y += note_h;
    }
  p->diff_x = p->table_x;
}

/* The table's type where its whole titles leave it under TABLE_GOAL px
 * (1024×768 presenting, German or high contrast's bold: 14 px beside the
 * body's 19): its titles on more lines in the table's usual room, else in
 * the diff's too but for the diff's heading, where that gives larger type. */
#define TABLE_GOAL 16.0
static void
table_type_nearer_body (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o,
                        double body_h)
{
  double goal = MIN (style->font_size, TABLE_GOAL / style->scale);
  double w = o->parts.table_w;
  if (o->table_font >= goal)
    return;
  double usual = body_h * 0.62;
  double wrapped = tl_paint_lesson_table_fit_wrapped (cr, l, style, w, usual, usual);
  if (wrapped < goal)
    {
      double room = MAX (body_h - 2.2 * o->line_h - o->pad, usual);
      wrapped = MAX (wrapped, tl_paint_lesson_table_fit_wrapped (cr, l, style, w, room, room));
    }
  o->table_font = MAX (o->table_font, wrapped);
}

/* The charts stacked in a column on the left as high as the body, the
 * table on the right above the diff. */
static void
layout_pictures_first (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o,
                       double body_y, double body_h)
{
  Parts *p = &o->parts;
  double inner_w = o->width - 3 * o->pad;
  /* the table whole above a diff of some lines */
  double table_max = inner_w * (1 - (l->has_blocks ? TIMELINES_SHARE : CHARTS_SHARE));
  o->table_font = tl_paint_lesson_table_fit (cr, l, style, table_max, body_h * 0.62);
  /* the table's titles whole at its least type before the charts' share:
   * the charts keep at least their least (a window of 1024 px beside the
   * sidebar), and two fifths of the page where its margins eat that (529
   * px beside a sidebar dragged wider) */
  double charts_least = MAX (inner_w * (l->has_blocks ? TIMELINES_LEAST : ROOFLINE_LEAST),
                             o->width * 0.4);
  double least_w = tl_paint_lesson_table_least_width (cr, l, style, o->table_font);
  table_max = MAX (table_max, MIN (least_w, inner_w - charts_least));
  p->table_w = tl_paint_lesson_table_width (cr, l, style, o->table_font, inner_w * 0.4, table_max);
  /* narrower than its titles: they go on more lines */
  if (least_w > p->table_w + 0.5)
    o->table_font = tl_paint_lesson_table_fit_wrapped (cr, l, style, p->table_w, body_h * 0.62,
                                                       body_h);
  else
    table_type_nearer_body (cr, l, style, o, body_h);
  double chart_w = inner_w - p->table_w;
  place_table_and_note (cr, l, style, o, 2 * o->pad + chart_w, body_y, body_h);
  p->diff_w = p->table_w;
  p->diff_h = MAX (body_y + body_h - p->diff_y, 0);
  if (p->diff_h < 2.2 * o->line_h)
    p->diff_w = 0; /* no room for its heading and count: the Source page shows the code */

  /* the roofline above the timelines, the timelines (two tracks) the
   * larger share */
  double y = body_y;
  double gap = o->pad * 0.5;
  double both = body_h - gap;
  if (l->roofline != NULL)
    {
      double h = l->has_blocks ? floor (both * 0.42) : body_h;
      p->roofline_x = o->pad;
      p->roofline_y = y;
      p->roofline_w = chart_w;
      p->roofline_h = h;
      y += h + gap;
    }
  if (l->has_blocks)
    {
      p->timeline_x = o->pad;
      p->timeline_y = y;
      p->timeline_w = chart_w;
      p->timeline_h = body_y + body_h - y;
    }
}

/* The lines of words from the top (the question, the answer, what
 * changed) and at the foot (what the records lack). */
static void
layout_words (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double width, double height,
              Layout *o)
{
  memset (o, 0, sizeof *o);
  o->width = width;
  o->height = height;
  o->pad = TL_PX (style, style->font_size * 0.7);
  double text_w = width - 2 * o->pad;
  gboolean short_screen = height < TL_PX (style, style->font_size) * 42;

  cairo_save (cr);
  o->question_size = tl_paint_fit_font (cr, style, style->title_font_size, style->font_size, TRUE,
                                        text_w, l->question);
  o->question_lines = tl_paint_text_width (cr, l->question) > text_w ? 2 : 1;
  double qh = tl_paint_text_height (cr) * 1.1;
  o->question_y = o->pad;
  o->answer_y = o->question_y + o->question_lines * qh + o->pad * 0.2;
  tl_paint_set_font (cr, style, style->font_size * 1.1, TRUE);
  o->changed_y = o->answer_y + tl_paint_text_height (cr) * 1.3;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  o->line_h = tl_paint_text_height (cr) * 1.2;
  o->changed_lines = lines_for (cr, l->what_changed, text_w, short_screen ? 2 : 3);
  o->missing_lines = lines_for (cr, l->missing, text_w, 3);
  o->missing_scale = 1.0;
  o->missing_x = o->pad;
  o->missing_w = text_w;
  o->missing_y = height - o->pad - o->missing_lines * o->line_h;
  cairo_restore (cr);
}

/* Without charts: the diff on the left, the table beside it as wide as
 * it needs (the diff gets the rest, at least two fifths). */
static void
layout_diff_and_table (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o,
                       double body_y, double body_h)
{
  Parts *p = &o->parts;
  double inner_w = o->width - 3 * o->pad;
  o->table_font = tl_paint_lesson_table_fit (cr, l, style, inner_w * 0.6, body_h);
  p->table_w = tl_paint_lesson_table_width (cr, l, style, o->table_font, inner_w * 0.4,
                                            inner_w * 0.6);
  if (tl_paint_lesson_table_least_width (cr, l, style, o->table_font) > p->table_w + 0.5)
    o->table_font = tl_paint_lesson_table_fit_wrapped (cr, l, style, p->table_w, body_h, body_h);
  p->diff_x = o->pad;
  p->diff_y = body_y;
  p->diff_w = inner_w - p->table_w;
  p->diff_h = body_h;
  place_table (cr, l, style, o, 2 * o->pad + p->diff_w, body_y, body_h);
}

/* The pictures first where there are any (the roofline with counters,
 * the timelines with block records), else the diff beside the table. */
static void
lesson_layout (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double width, double height,
               Layout *o)
{
  layout_words (cr, l, style, width, height, o);
  double body_y = o->changed_y + o->changed_lines * o->line_h + o->pad * 0.6;
  gboolean pictures = l->roofline != NULL || l->has_blocks;
  /* a page of few lines of type (a 16:9 render presenting: 31 at
   * 1920×1080) gives the pictures the foot too: the note goes under the
   * table */
  o->missing_beside = pictures && l->missing != NULL
                      && height < TL_PX (style, style->font_size) * SHORT_PAGE_LINES;
  double foot = o->missing_beside ? height - o->pad * 0.5 : o->missing_y;
  double body_h = MAX (foot - o->pad * 0.5 - body_y, 1.0);
  if (pictures)
    layout_pictures_first (cr, l, style, o, body_y, body_h);
  else
    layout_diff_and_table (cr, l, style, o, body_y, body_h);
}

/* ---- the header ---------------------------------------------------------- */

static void
paint_header (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o)
{
  double text_w = o->width - 2 * o->pad;
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, o->question_size, TRUE);
  double qh = tl_paint_text_height (cr) * 1.1;
  tl_paint_text_wrap (cr, o->pad, o->question_y, text_w, qh, o->question_lines, l->question);

  /* in bold, in the text's colour: the theme's accent reads poorly on
   * dark backgrounds */
  tl_paint_set_font (cr, style, style->font_size * 1.1, TRUE);
  tl_paint_text_fit (cr, o->pad, o->answer_y, 0, 0, text_w, l->answer);

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  if (l->what_changed)
    tl_paint_text_wrap (cr, o->pad, o->changed_y, text_w, o->line_h, o->changed_lines,
                        l->what_changed);
  if (l->missing)
    {
      tl_paint_set_fg_alpha (cr, style, 0.75);
      tl_paint_set_font (cr, style, style->font_size * o->missing_scale, FALSE);
      tl_paint_text_wrap (cr, o->missing_x, o->missing_y, o->missing_w,
                          o->line_h * o->missing_scale, o->missing_lines, l->missing);
    }
}

void
tl_paint_lesson_layout (cairo_t *cr, const TlLesson *lesson, const TlPaintStyle *style,
                        double width, double height, TlLessonParts *out)
{
  g_return_if_fail (cr != NULL && lesson != NULL && style != NULL && out != NULL);
  Layout o;
  lesson_layout (cr, lesson, style, width, height, &o);
  *out = o.parts;
}

gboolean
tl_paint_lesson_timeline_layout (cairo_t *cr, const TlLesson *lesson, const TlRunRecord *record,
                                 const TlPaintStyle *style, double width, double height,
                                 TlTimelineLayout *out)
{
  g_return_val_if_fail (cr != NULL && lesson != NULL && record != NULL && out != NULL, FALSE);
  Layout o;
  lesson_layout (cr, lesson, style, width, height, &o);
  const Parts *p = &o.parts;
  return tl_paint_lesson_timelines_layout (lesson, record, style, p->timeline_x, p->timeline_y,
                                           p->timeline_w, p->timeline_h, out);
}

void
tl_paint_lesson (cairo_t *cr, const TlLesson *lesson, const TlRunRecord *record,
                 const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && lesson != NULL && record != NULL && style != NULL);
  Layout o;
  lesson_layout (cr, lesson, style, width, height, &o);
  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  paint_header (cr, lesson, style, &o);
  const Parts *p = &o.parts;
  if (p->diff_w > 0)
    tl_paint_lesson_diff (cr, lesson, style, p->diff_x, p->diff_y, p->diff_w, p->diff_h, o.line_h);
  tl_paint_lesson_table (cr, lesson, style, o.table_font, p->table_x, p->table_y, p->table_w,
                         p->table_rows);
  if (p->roofline_w > 0)
    tl_paint_lesson_roofline (cr, lesson, style, p->roofline_x, p->roofline_y, p->roofline_w,
                              p->roofline_h);
  if (p->timeline_w > 0)
    tl_paint_lesson_timelines (cr, lesson, record, style, p->timeline_x, p->timeline_y,
                               p->timeline_w, p->timeline_h);
  cairo_restore (cr);
}
