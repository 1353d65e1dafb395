/* tl-paint-lesson-table.c — the lesson's before → after table: its type,
 * its columns, its titles on more lines, its rows. */
#include "paint/tl-paint-lesson-table.h"

#include <string.h>

#include "paint/tl-paint-util.h"

/* Okabe–Ito bluish green: a change that helps, on light and dark alike */
static const double better_rgb[3] = { 0.0, 0.62, 0.45 };

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


/* The smallest type of the table, in style units: what the back row still
 * reads — three quarters of the body's type, never under 14 px (a render
 * of 1024×768 presenting has 18 px body type) nor over the body (a
 * window's 12 px stays 12). */
static double
table_min_font (const TlPaintStyle *style)
{
  return MIN (style->font_size, MAX (14.0 / style->scale, style->font_size * 0.75));
}

double
tl_paint_lesson_table_fit (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double max_w,
                           double max_h)
{
  double min_font = table_min_font (style);
  double font = min_font;
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
          font = f;
          break;
        }
    }
  cairo_restore (cr);
  return font;
}

double
tl_paint_lesson_table_width (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
                             double min_w, double max_w)
{
  Columns c;
  cairo_save (cr);
  table_columns (cr, l, style, font, l->rows->len, &c);
  cairo_restore (cr);
  return CLAMP (c.title_w + c.before_w + c.after_w + c.words_w + 3 * c.gap, min_w, max_w);
}

double
tl_paint_lesson_table_least_width (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                   double font)
{
  Columns c;
  cairo_save (cr);
  table_columns (cr, l, style, font, l->rows->len, &c);
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

guint
tl_paint_lesson_table_rows_in (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                               double font, double table_w, double max_h, double *height)
{
  guint n = l->rows->len;
  for (; n > 0; n--)
    if ((*height = table_height (cr, l, style, font, table_w, n)) <= max_h + 1e-6)
      return n;
  *height = table_height (cr, l, style, font, table_w, 0);
  return 0;
}

double
tl_paint_lesson_table_fit_wrapped (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                   double table_w, double max_h, double body_h)
{
  double min_font = table_min_font (style);
  double font = min_font;
  for (guint pass = 0; pass < 2; pass++)
    for (double f = style->font_size;; f = MAX (f * 0.95, min_font))
      {
        Table t;
        double h;
        cairo_save (cr);
        table_geometry (cr, l, style, f, table_w, l->rows->len, &t);
        gboolean whole = widest_title_piece (cr, l, t.c.gap) <= t.title_w + 0.5;
        guint rows = tl_paint_lesson_table_rows_in (cr, l, style, f, table_w,
                                                    pass == 0 ? max_h : body_h, &h);
        cairo_restore (cr);
        font = f;
        if (whole && rows == l->rows->len)
          return font;
        if (f <= min_font)
          break;
      }
  return font;
}

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

/* The heading row: the two rungs' short names over their columns, a
 * rule under them. */
static void
paint_heading_row (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, const Table *t,
                   double font, double x, double y, double w, double x_before, double x_after)
{
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, font, TRUE);
  double mid = y + t->row_h / 2;
  tl_paint_text_fit (cr, x_before, mid, 1, 0.5, t->c.before_w, l->lower_short);
  tl_paint_text_fit (cr, x_after, mid, 1, 0.5, t->c.after_w, l->upper_short);
  tl_paint_set_fg_alpha (cr, style, 0.5);
  cairo_set_line_width (cr, TL_LINE (style, 1));
  cairo_move_to (cr, x, y + t->row_h - 0.5);
  cairo_line_to (cr, x + w, y + t->row_h - 0.5);
  cairo_stroke (cr);
}

void
tl_paint_lesson_table (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double font,
                       double x, double y, double w, guint rows)
{
  Table t;
  table_geometry (cr, l, style, font, w, rows, &t);
  double gap = t.c.gap, arrow = t.c.arrow;
  double x_before = x + t.title_w + gap + t.c.before_w; /* right-aligned */
  double x_after = x_before + gap + t.c.after_w;
  double x_change = x_after + gap;
  double change_max = x + w - x_change;

  paint_heading_row (cr, l, style, &t, font, x, y, w, x_before, x_after);

  tl_paint_set_font (cr, style, font, FALSE);
  double top = y + t.row_h;
  for (guint i = 0; i < rows; i++)
    {
      const TlLessonRow *row = l->rows->pdata[i];
      double row_h = row_height (cr, &t, row);
      double row_top = top;
      top += row_h;
      tl_paint_set_fg (cr, style);
      if (row->heading)
        {
          tl_paint_text_fit (cr, x, row_top + t.row_h / 2, 0, 0.5, w, row->title);
          continue;
        }
      paint_row_title (cr, &t, row, x, row_top);
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
