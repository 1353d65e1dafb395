/* tl-paint-lesson.c — "why is rung N faster than N−1?" on one screen. */
#include "paint/tl-paint-lesson.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-timeline.h"
#include "paint/tl-paint-util.h"
#include "view/tl-block-stats.h"

/* Okabe–Ito bluish green: a change that helps, on light and dark alike */
static const double better_rgb[3] = { 0.0, 0.62, 0.45 };

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
  double missing_y;
  guint missing_lines;
  double row_h, table_font;
  Parts parts;
} Layout;

/* The table's columns: the values as wide as their widest text (the
 * headings in bold), the change by its short form (words_w: in words),
 * the titles as wide as the widest. */
typedef struct
{
  double gap, before_w, after_w, change_w, words_w, arrow, title_w;
} Columns;

static void
table_columns (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
               guint rows, Columns *c)
{
  tl_paint_set_font (cr, style, font, TRUE);
  c->before_w = tl_paint_text_width (cr, l->lower_short);
  c->after_w = tl_paint_text_width (cr, l->upper_short);
  tl_paint_set_font (cr, style, font, FALSE);
  c->gap = tl_paint_text_width (cr, "  ");
  c->change_w = 0;
  c->words_w = 0;
  c->title_w = 0;
  for (guint i = 0; i < rows; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      c->before_w = MAX (c->before_w, tl_paint_text_width (cr, row->before));
      c->after_w = MAX (c->after_w, tl_paint_text_width (cr, row->after));
      c->change_w = MAX (c->change_w, tl_paint_text_width (cr, row->factor));
      c->words_w = MAX (c->words_w, tl_paint_text_width (cr, row->change));
      /* a heading's title may run over the empty cells; a row under it
       * is indented */
      if (!row->heading)
        c->title_w = MAX (c->title_w, tl_paint_text_width (cr, row->title)
                                        + (row->indented ? c->gap : 0));
    }
  c->arrow = tl_paint_text_height (cr) * 0.7;
  c->change_w += c->arrow + c->gap / 2;
  c->words_w = MAX (c->words_w + c->arrow + c->gap / 2, c->change_w);
}

/* Lines text takes wrapped to max_w in cr's font, at most max_lines. */
static guint
lines_for (cairo_t *cr, const char *text, double max_w, guint max_lines)
{
  return MIN (tl_paint_text_wrap_count (cr, max_w, text), max_lines);
}

/* The smallest type of the table: 14 px presenting (three quarters of
 * its type), in a window the body's size — what the back row still reads. */
static double
table_min_font (const TlPaintStyle *style)
{
  return style->font_size * (style->scale > 1 ? 0.75 : 1.0);
}

/* The table's type, as large as lets every row and every title whole
 * (the change by its short form) fit max_w × max_h, down to
 * table_min_font; sets o's table_font and row_h. */
static void
fit_table (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o, double max_w,
           double max_h)
{
  double min_font = table_min_font (style);
  cairo_save (cr);
  for (double f = style->font_size;; f = MAX (f * 0.95, min_font))
    {
      Columns c;
      table_columns (cr, l, style, f, l->rows->len, &c);
      tl_paint_set_font (cr, style, f, FALSE);
      double row_h = tl_paint_text_height (cr) * 1.3;
      double w = c.title_w + c.before_w + c.after_w + c.change_w + 3 * c.gap;
      if ((w <= max_w && (l->rows->len + 1) * row_h <= max_h) || f <= min_font)
        {
          o->table_font = f;
          o->row_h = row_h;
          break;
        }
    }
  cairo_restore (cr);
}

/* The table's width at o's type: every title whole and the change in
 * words where that fits between min_w and max_w. */
static double
table_width (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o,
             double min_w, double max_w)
{
  Columns c;
  cairo_save (cr);
  table_columns (cr, l, style, o->table_font, l->rows->len, &c);
  cairo_restore (cr);
  return CLAMP (c.title_w + c.before_w + c.after_w + c.words_w + 3 * c.gap, min_w, max_w);
}

/* The table's width at o's type with its titles whole and the change
 * an arrow alone. */
static double
table_least_width (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o)
{
  Columns c;
  cairo_save (cr);
  table_columns (cr, l, style, o->table_font, l->rows->len, &c);
  cairo_restore (cr);
  return c.title_w + c.before_w + c.after_w + c.arrow + c.gap / 2 + 3 * c.gap;
}

/* ---- titles on more lines ----------------------------------------------------
 * A page narrower than the table's titles (529 px beside a wide sidebar,
 * German's "Shared-Memory-Warteschlange voll") wraps them rather than cut
 * them: at spaces and after hyphens, on at most three lines, the row as
 * high as its title. */

#define TITLE_MAX_LINES 3

/* title's lines at max_w in cr's font: broken at spaces and after hyphens,
 * as few as fit; a piece wider than max_w is a line of its own.  max_w 0:
 * every piece on a line of its own. */
static GPtrArray *
title_lines (cairo_t *cr, const char *title, double max_w)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) line = g_string_new (NULL);
  gboolean spaced = FALSE; /* a space between the line and the next piece */
  for (const char *p = title; *p != '\0';)
    {
      const char *end = p + strcspn (p, " -");
      if (*end == '-')
        end++;
      gsize keep = line->len;
      if (keep > 0 && spaced)
        g_string_append_c (line, ' ');
      g_string_append_len (line, p, end - p);
      if (keep > 0 && tl_paint_text_width (cr, line->str) > max_w)
        {
          g_string_truncate (line, keep);
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, "");
          g_string_append_len (line, p, end - p);
        }
      spaced = *end == ' ';
      p = spaced ? end + 1 : end;
    }
  if (line->len > 0 || lines->len == 0)
    g_ptr_array_add (lines, g_strdup (line->str));
  return lines;
}

/* The widest piece of any row's title that a line cannot break (its
 * indent included), in cr's font. */
static double
widest_title_piece (cairo_t *cr, const TlLesson *l, double indent)
{
  double widest = 0;
  for (guint i = 0; i < l->rows->len; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      if (row->heading)
        continue;
      g_autoptr (GPtrArray) pieces = title_lines (cr, row->title, 0);
      for (guint k = 0; k < pieces->len; k++)
        widest = MAX (widest, tl_paint_text_width (cr, pieces->pdata[k])
                                + (row->indented ? indent : 0));
    }
  return widest;
}

/* The table's columns in table_w at a type: the titles what they need
 * (at least a quarter), the change what is left — in words where there is
 * room, else its short form, else the arrow alone. */
typedef struct
{
  Columns c;
  double title_w, change_w;
  double row_h;   /* a row of one line */
  double line_h;  /* each further line of a title */
} Table;

static void
table_geometry (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
                double table_w, guint rows, Table *t)
{
  table_columns (cr, l, style, font, rows, &t->c);
  const Columns *c = &t->c;
  double beside = table_w - c->before_w - c->after_w - 3 * c->gap;
  t->change_w = CLAMP (beside - c->title_w, c->arrow + c->gap / 2, c->words_w);
  t->title_w = MAX (beside - t->change_w, table_w / 4);
  tl_paint_set_font (cr, style, font, FALSE);
  t->row_h = tl_paint_text_height (cr) * 1.3;
  t->line_h = tl_paint_text_height (cr) * 1.1;
}

/* Lines of row's title in the table's column (cr in the table's type). */
static guint
row_lines (cairo_t *cr, const Table *t, const TlLessonRow *row)
{
  if (row->heading)
    return 1;
  g_autoptr (GPtrArray) lines = title_lines (cr, row->title,
                                             t->title_w - (row->indented ? t->c.gap : 0) + 0.5);
  return MIN (lines->len, TITLE_MAX_LINES);
}

/* A row of one line, or of a title on more lines with air above and
 * below it, that the rows do not run together. */
#define WRAPPED_ROW_AIR 0.3

static double
row_height (cairo_t *cr, const Table *t, const TlLessonRow *row)
{
  guint n = row_lines (cr, t, row);
  return t->row_h + (n - 1.0) * t->line_h + (n > 1 ? WRAPPED_ROW_AIR * t->line_h : 0);
}

/* The height of l's first n rows and the heading row over them, in a
 * table of table_w whose columns fit those rows (the rows of one line
 * counted, not summed, as the table's height was before titles went on
 * more lines). */
static double
table_height (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
              double table_w, guint n)
{
  Table t;
  cairo_save (cr);
  table_geometry (cr, l, style, font, table_w, n, &t);
  double more = 0;
  for (guint i = 0; i < n; i++)
    more += row_height (cr, &t, l->rows->pdata[i]) - t.row_h;
  cairo_restore (cr);
  return (n + 1) * t.row_h + more;
}

/* How many of l's rows (from the first) fit max_h under the heading row;
 * their height, heading included, in *height. */
static guint
table_rows_in (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
               double table_w, double max_h, double *height)
{
  guint n = l->rows->len;
  for (; n > 0; n--)
    if ((*height = table_height (cr, l, style, font, table_w, n)) <= max_h + 1e-6)
      return n;
  *height = table_height (cr, l, style, font, table_w, 0);
  return 0;
}

/* Titles wrapped in a table of table_w: the largest type down to
 * table_min_font at which no title's piece is cut and every row fits
 * max_h, then fits body_h (the diff leaves: the Source page shows the
 * code); sets o's table_font and row_h. */
static void
fit_table_wrapped (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, Layout *o,
                   double table_w, double max_h, double body_h)
{
  double min_font = table_min_font (style);
  for (guint pass = 0; pass < 2; pass++)
    for (double f = style->font_size;; f = MAX (f * 0.95, min_font))
      {
        Table t;
        double h;
        cairo_save (cr);
        table_geometry (cr, l, style, f, table_w, l->rows->len, &t);
        gboolean whole = widest_title_piece (cr, l, t.c.gap) <= t.title_w + 0.5;
        guint rows = table_rows_in (cr, l, style, f, table_w, pass == 0 ? max_h : body_h, &h);
        cairo_restore (cr);
        o->table_font = f;
        o->row_h = t.row_h;
        if (whole && rows == l->rows->len)
          return;
        if (f <= min_font)
          break;
      }
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
  p->table_rows = table_rows_in (cr, l, style, o->table_font, p->table_w, max_h, &p->table_h);
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
  fit_table (cr, l, style, o, table_max, body_h * 0.62);
  /* the table's titles whole at its least type before the charts' share:
   * the charts keep at least their least (a window of 1024 px beside the
   * sidebar), and two fifths of the page where its margins eat that (529
   * px beside a sidebar dragged wider) */
  double charts_least = MAX (inner_w * (l->has_blocks ? TIMELINES_LEAST : ROOFLINE_LEAST),
                             o->width * 0.4);
  table_max = MAX (table_max, MIN (table_least_width (cr, l, style, o), inner_w - charts_least));
  p->table_w = table_width (cr, l, style, o, inner_w * 0.4, table_max);
  /* narrower than its titles: they go on more lines, and the table may
   * take the diff's room */
  double table_room = body_h * 0.62;
  if (table_least_width (cr, l, style, o) > p->table_w + 0.5)
    {
      fit_table_wrapped (cr, l, style, o, p->table_w, table_room, body_h);
      double h;
      if (table_rows_in (cr, l, style, o->table_font, p->table_w, table_room, &h) < l->rows->len)
        table_room = body_h;
    }
  double chart_w = inner_w - p->table_w;
  place_table (cr, l, style, o, 2 * o->pad + chart_w, body_y, table_room);
  p->diff_x = p->table_x;
  p->diff_y = body_y + p->table_h + o->pad;
  p->diff_w = p->table_w;
  p->diff_h = MAX (body_y + body_h - p->diff_y, 0);
  if (p->diff_h < 4 * o->line_h)
    p->diff_w = 0; /* no room for it: the Source page shows the code */

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
  fit_table (cr, l, style, o, inner_w * 0.6, body_h);
  p->table_w = table_width (cr, l, style, o, inner_w * 0.4, inner_w * 0.6);
  if (table_least_width (cr, l, style, o) > p->table_w + 0.5)
    fit_table_wrapped (cr, l, style, o, p->table_w, body_h, body_h);
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
  double body_h = MAX (o->missing_y - o->pad * 0.5 - body_y, 1.0);
  if (l->roofline != NULL || l->has_blocks)
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
      tl_paint_text_wrap (cr, o->pad, o->missing_y, text_w, o->line_h, o->missing_lines,
                          l->missing);
    }
}

/* ---- the diff ------------------------------------------------------------ */

/* The indentation every shown line shares (spaces), to leave out. */
static guint
common_indent (const TlLineDiff *diff, guint n)
{
  guint indent = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      const TlDiffLine *d = &g_array_index (diff->lines, TlDiffLine, i);
      if (d->text == NULL)
        continue;
      guint k = 0;
      while (d->text[k] == ' ')
        k++;
      if (d->text[k] != '\0')
        indent = MIN (indent, k);
    }
  return indent == G_MAXUINT ? 0 : indent;
}

/* A line of code cut to max_w in a monospace font: its start and its end
 * with "…" between, since a changed line and the line it replaces often
 * differ only at the end ("template <int BM, …bool GUARD>"). */
static char *
cut_code_line (cairo_t *cr, const char *text, double max_w)
{
  glong n = g_utf8_strlen (text, -1);
  double char_w = tl_paint_text_width (cr, "0");
  glong fit = char_w > 0 ? (glong) floor (max_w / char_w) - 1 : n;
  if (n <= fit + 1 || fit < 8)
    return g_strdup (text);
  glong tail = fit / 3, head = fit - tail;
  g_autofree char *start = g_utf8_substring (text, 0, head);
  g_autofree char *end = g_utf8_substring (text, n - tail, n);
  return g_strconcat (start, "…", end, NULL);
}

static void
paint_diff_line (cairo_t *cr, const TlPaintStyle *style, const TlDiffLine *d, guint indent,
                 double x, double y, double w, double lh)
{
  static const double added_rgb[3] = { 0.0, 0.62, 0.45 };
  const double *tint = d->op == TL_DIFF_ADDED ? added_rgb : d->op == TL_DIFF_REMOVED ? style->error
                                                                                     : NULL;
  if (tint != NULL)
    {
      cairo_set_source_rgba (cr, tint[0], tint[1], tint[2], style->high_contrast ? 0.35 : 0.2);
      cairo_rectangle (cr, x, y, w, lh);
      cairo_fill (cr);
    }
  tl_paint_set_fg (cr, style);
  if (d->op == TL_DIFF_FOLDED)
    {
      g_autofree char *text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "⋯ %u unchanged line", "⋯ %u unchanged lines", d->n_folded),
        d->n_folded);
      tl_paint_set_fg_alpha (cr, style, 0.6);
      tl_paint_text_fit (cr, x, y + lh / 2, 0, 0.5, w, text);
      return;
    }
  const char *mark = d->op == TL_DIFF_ADDED ? "+" : d->op == TL_DIFF_REMOVED ? "−" : " ";
  double mark_w = tl_paint_text_width (cr, "+ ");
  tl_paint_text (cr, x, y + lh / 2, 0, 0.5, mark);
  const char *text = d->text + MIN (indent, (guint) strlen (d->text));
  g_autofree char *shown = cut_code_line (cr, text, w - mark_w);
  if (*shown != '\0')
    tl_paint_text_fit (cr, x + mark_w, y + lh / 2, 0, 0.5, w - mark_w, shown);
}

static void
paint_diff (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o)
{
  const Parts *p = &o->parts;
  if (p->diff_w <= 0)
    return;
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  double head_h = tl_paint_text_height (cr) * 1.3;
  g_autofree char *head = NULL, *pair = g_strdup_printf ("%s → %s", l->lower_short, l->upper_short);
  if (l->diff != NULL)
    {
      /* TRANSLATORS: the diff's heading: "The kernels, 03 → 04: −12 +15 lines" (12 lines
         out, 15 in) */
      g_autofree char *whole = g_strdup_printf (_("The kernels, %s → %s: −%u +%u lines"),
                                                l->lower_short, l->upper_short, l->diff->n_removed,
                                                l->diff->n_added);
      /* a narrow column: "03 → 04: −12 +15", else "−12 +15" */
      head = g_strdup_printf ("%s\n%s: −%u +%u\n−%u +%u", whole, pair, l->diff->n_removed,
                              l->diff->n_added, l->diff->n_removed, l->diff->n_added);
    }
  else
    {
      g_autofree char *whole = g_strdup_printf (_("The kernels, %s → %s"), l->lower_short,
                                                l->upper_short);
      head = g_strdup_printf ("%s\n%s", whole, pair);
    }
  tl_paint_text_fit_choice (cr, p->diff_x, p->diff_y, 0, 0, p->diff_w, head);
  double y = p->diff_y + head_h;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  if (l->diff == NULL)
    {
      tl_paint_text_wrap (cr, p->diff_x, y, p->diff_w, o->line_h, 4,
                          l->diff_note ? l->diff_note : "");
      return;
    }

  TlPaintStyle mono = *style;
  mono.font_family = "Monospace";
  tl_paint_set_font (cr, &mono, style->font_size * 0.85, FALSE);
  double lh = tl_paint_text_height (cr) * 1.12;
  guint n = l->diff->lines->len;
  guint fit = (guint) MAX (floor ((p->diff_y + p->diff_h - y) / lh), 1);
  gboolean cut = n > fit;
  guint shown = cut ? fit - 1 : n;
  guint indent = common_indent (l->diff, shown);

  cairo_save (cr);
  cairo_rectangle (cr, p->diff_x, y, p->diff_w, p->diff_y + p->diff_h - y);
  cairo_clip (cr);
  for (guint i = 0; i < shown; i++)
    paint_diff_line (cr, &mono, &g_array_index (l->diff->lines, TlDiffLine, i), indent,
                     p->diff_x, y + i * lh, p->diff_w, lh);
  if (cut)
    {
      guint changes = 0;
      for (guint i = shown; i < n; i++)
        changes += g_array_index (l->diff->lines, TlDiffLine, i).op == TL_DIFF_ADDED
                   || g_array_index (l->diff->lines, TlDiffLine, i).op == TL_DIFF_REMOVED;
      g_autofree char *more = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "… and %u more changed line (Source page)",
                     "… and %u more changed lines (Source page)", changes),
        changes);
      tl_paint_set_fg_alpha (cr, style, 0.75);
      tl_paint_text_fit (cr, p->diff_x, y + shown * lh + lh / 2, 0, 0.5, p->diff_w, more);
    }
  cairo_restore (cr);
}

/* ---- the table ------------------------------------------------------------ */

static void
paint_arrow (cairo_t *cr, const TlPaintStyle *style, const TlLessonRow *row, double x, double cy,
             double size)
{
  if (row->direction == 0)
    return;
  if (row->trend == TL_LESSON_BETTER)
    cairo_set_source_rgb (cr, better_rgb[0], better_rgb[1], better_rgb[2]);
  else if (row->trend == TL_LESSON_WORSE)
    cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
  else
    tl_paint_set_fg (cr, style);
  double h = size * 0.8, half = size * 0.4;
  double tip = row->direction > 0 ? cy - h / 2 : cy + h / 2;
  double base = row->direction > 0 ? cy + h / 2 : cy - h / 2;
  cairo_move_to (cr, x + half, tip);
  cairo_line_to (cr, x + 2 * half, base);
  cairo_line_to (cr, x, base);
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* A row's title on its lines, from the top of the row (cr in the table's
 * type). */
static void
paint_row_title (cairo_t *cr, const Table *t, const TlLessonRow *row, double x, double y)
{
  double indent = row->indented ? t->c.gap : 0;
  /* half a pixel for the sums' rounding, as the change's */
  double max_w = t->title_w - indent + 0.5;
  g_autoptr (GPtrArray) lines = title_lines (cr, row->title, max_w);
  guint n = MIN (lines->len, TITLE_MAX_LINES);
  if (n > 1)
    y += WRAPPED_ROW_AIR / 2 * t->line_h;
  for (guint k = 0; k < n; k++)
    {
      /* what does not fit goes into the last line's ellipsis */
      g_autofree char *rest = k + 1 == n && lines->len > n
                                ? g_strjoinv (" ", (char **) lines->pdata + k)
                                : g_strdup (lines->pdata[k]);
      tl_paint_text_fit (cr, x + indent, y + t->row_h / 2 + k * t->line_h, 0, 0.5, max_w, rest);
    }
}

static void
paint_table (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o)
{
  const Parts *p = &o->parts;
  Table t;
  table_geometry (cr, l, style, o->table_font, p->table_w, p->table_rows, &t);
  double gap = t.c.gap, arrow = t.c.arrow;
  double x_before = p->table_x + t.title_w + gap + t.c.before_w; /* right-aligned */
  double x_after = x_before + gap + t.c.after_w;
  double x_change = x_after + gap;
  double change_max = p->table_x + p->table_w - x_change;

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, o->table_font, TRUE);
  double y = p->table_y + t.row_h / 2;
  tl_paint_text_fit (cr, x_before, y, 1, 0.5, t.c.before_w, l->lower_short);
  tl_paint_text_fit (cr, x_after, y, 1, 0.5, t.c.after_w, l->upper_short);
  tl_paint_set_fg_alpha (cr, style, 0.5);
  cairo_set_line_width (cr, TL_LINE (style, 1));
  cairo_move_to (cr, p->table_x, p->table_y + t.row_h - 0.5);
  cairo_line_to (cr, p->table_x + p->table_w, p->table_y + t.row_h - 0.5);
  cairo_stroke (cr);

  tl_paint_set_font (cr, style, o->table_font, FALSE);
  double top = p->table_y + t.row_h;
  for (guint i = 0; i < p->table_rows; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      double row_h = row_height (cr, &t, row);
      double row_top = top;
      top += row_h;
      tl_paint_set_fg (cr, style);
      if (row->heading)
        {
          tl_paint_text_fit (cr, p->table_x, row_top + t.row_h / 2, 0, 0.5, p->table_w, row->title);
          continue;
        }
      paint_row_title (cr, &t, row, p->table_x, row_top);
      /* the values and the change beside the title's middle */
      double mid = row_top + row_h / 2;
      tl_paint_text_fit (cr, x_before, mid, 1, 0.5, t.c.before_w, row->before);
      tl_paint_text_fit (cr, x_after, mid, 1, 0.5, t.c.after_w, row->after);
      paint_arrow (cr, style, row, x_change, mid, arrow);
      tl_paint_set_fg (cr, style);
      double change_x = x_change + arrow + gap / 2;
      /* the words where they fit, else the factor, else the arrow alone
       * (half a pixel for the sums' rounding) */
      double room = change_max - arrow - gap / 2 + 0.5;
      const char *change = tl_paint_text_width (cr, row->change) <= room ? row->change
                           : tl_paint_text_width (cr, row->factor) <= room ? row->factor
                                                                             : "";
      if (*change)
        tl_paint_text (cr, change_x, mid, 0, 0.5, change);
    }
}

/* ---- the charts ----------------------------------------------------------- */

static void
paint_roofline (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Layout *o)
{
  const Parts *p = &o->parts;
  TlPaintStyle sub = *style;
  sub.transparent = TRUE;
  cairo_save (cr);
  cairo_translate (cr, p->roofline_x, p->roofline_y);
  tl_paint_roofline (cr, l->roofline, 1, &sub, p->roofline_w, p->roofline_h);

  /* the arrow from the rung below to the rung */
  TlRooflineLayout rl;
  tl_paint_roofline_layout (l->roofline, &sub, cr, p->roofline_w, p->roofline_h, &rl);
  double x0, y0, x1, y1;
  const TlRooflinePoint *a = &l->roofline->points[0], *b = &l->roofline->points[1];
  tl_roofline_layout_point (&rl, a->intensity, a->flops_per_s, &x0, &y0);
  tl_roofline_layout_point (&rl, b->intensity, b->flops_per_s, &x1, &y1);
  double len = hypot (x1 - x0, y1 - y0), gap = rl.marker_r * 1.8;
  if (len > 2 * gap + rl.marker_r)
    {
      double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      double sx = x0 + ux * gap, sy = y0 + uy * gap, ex = x1 - ux * gap, ey = y1 - uy * gap;
      double head = MIN (rl.marker_r * 2.2, len / 3);
      tl_paint_set_fg (cr, style);
      cairo_set_line_width (cr, TL_LINE (style, 2));
      cairo_move_to (cr, sx, sy);
      cairo_line_to (cr, ex - ux * head * 0.8, ey - uy * head * 0.8);
      cairo_stroke (cr);
      cairo_move_to (cr, ex, ey);
      cairo_line_to (cr, ex - ux * head - uy * head * 0.5, ey - uy * head + ux * head * 0.5);
      cairo_line_to (cr, ex - ux * head + uy * head * 0.5, ey - uy * head - ux * head * 0.5);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/* the two rungs' timelines on one time scale */
typedef struct
{
  TlBlockStats *stats[2];
  char *labels[2]; /* the rung's name, then its short one ("10 BF16") */
  TlTimelineTrack tracks[2];
  TlTimelineModel model;
} Timelines;

static void
timelines_clear (Timelines *t)
{
  tl_block_stats_free (t->stats[0]);
  tl_block_stats_free (t->stats[1]);
  t->stats[0] = t->stats[1] = NULL;
  g_clear_pointer (&t->labels[0], g_free);
  g_clear_pointer (&t->labels[1], g_free);
}

/* FALSE (and nothing to clear) when a rung has no block records */
static gboolean
timelines_init (Timelines *t, const TlLesson *l, const TlRunRecord *record)
{
  memset (t, 0, sizeof *t);
  const TlKernelRun *runs[2] = { tl_run_record_find_run (record, l->lower_id),
                                 tl_run_record_find_run (record, l->upper_id) };
  const char *names[2] = { l->lower_name, l->upper_name }, *short_names[2] = { l->lower_short, l->upper_short };
  for (guint i = 0; i < 2; i++)
    {
      if (runs[i] == NULL || (t->stats[i] = tl_block_stats_new_for_run (record, runs[i], -1, NULL)) == NULL)
        {
          timelines_clear (t);
          return FALSE;
        }
      t->labels[i] = g_strjoin ("\n", names[i], short_names[i], NULL);
      t->tracks[i].label = t->labels[i];
      t->tracks[i].kernel_id = runs[i]->kernel_id;
      t->tracks[i].blocks = runs[i]->blocks;
      t->tracks[i].n_blocks = runs[i]->n_blocks;
      t->tracks[i].stats = t->stats[i];
      t->tracks[i].unit_label = tl_block_unit_label (runs[i]->block_unit);
    }
  tl_timeline_model_init (&t->model);
  t->model.tracks = t->tracks;
  t->model.n_tracks = 2;
  t->model.color = TL_TIMELINE_COLOR_WAVE;
  t->model.show_summary = FALSE;
  return TRUE;
}

/* A chart column too narrow for the tail's label (a window of 1024 px
 * beside the sidebar) leaves out the waves and the tail: the table's
 * "last partial wave" says it, and two labels cut alike ("tail: 232/2…"
 * twice) say nothing. */
static void
timelines_fit (Timelines *t, const TlPaintStyle *style, double width)
{
  t->model.show_waves = width >= TL_PX (style, style->font_size) * 26;
}

static void
paint_timelines (cairo_t *cr, const TlLesson *l, const TlRunRecord *record,
                 const TlPaintStyle *style, const Layout *o)
{
  const Parts *p = &o->parts;
  Timelines t;
  if (!timelines_init (&t, l, record))
    return;
  timelines_fit (&t, style, p->timeline_w);
  TlPaintStyle sub = *style;
  sub.transparent = TRUE;
  cairo_save (cr);
  cairo_translate (cr, p->timeline_x, p->timeline_y);
  tl_paint_timeline (cr, &t.model, &sub, p->timeline_w, p->timeline_h);
  cairo_restore (cr);
  timelines_clear (&t);
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
  Timelines t;
  if (o.parts.timeline_w <= 0 || !timelines_init (&t, lesson, record))
    return FALSE;
  timelines_fit (&t, style, o.parts.timeline_w);
  tl_paint_timeline_layout (&t.model, style, o.parts.timeline_w, o.parts.timeline_h, out);
  for (guint i = 0; i < out->n_tracks; i++)
    {
      out->track[i].x += o.parts.timeline_x;
      out->track[i].y += o.parts.timeline_y;
    }
  timelines_clear (&t);
  return TRUE;
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
  paint_diff (cr, lesson, style, &o);
  paint_table (cr, lesson, style, &o);
  if (o.parts.roofline_w > 0)
    paint_roofline (cr, lesson, style, &o);
  if (o.parts.timeline_w > 0)
    paint_timelines (cr, lesson, record, style, &o);
  cairo_restore (cr);
}
