/* tl-paint-sheet.c — a kernel's listing or a table of facts, drawn. */
#include "paint/tl-paint-sheet.h"

#include <glib/gi18n-lib.h>

#include "paint/tl-paint-util.h"

typedef struct
{
  double x, y, w, h;   /* the area under the title */
  double size;         /* font size */
  double line_h;
  guint rows;          /* rows shown */
  guint left_out;      /* rows cut at the end */
} SheetLayout;

/* A few lines fill the picture in larger type, up to this much of the
 * style's, as long as the widest still fits. */
#define SHEET_MOST 1.5
#define LINE_SPACING 1.35
#define HEADING_SPACE 0.6 /* lines of space above a heading */

static double
space_above (const TlSheet *sheet, guint i, double line_h)
{
  return i > 0 && tl_sheet_get_row (sheet, i)->kind == TL_SHEET_HEADING ? HEADING_SPACE * line_h : 0;
}

/* how many of the rows fit h at line_h (with a line to count the rest) */
static guint
rows_that_fit (const TlSheet *sheet, double line_h, double h)
{
  guint n = tl_sheet_get_n_rows (sheet);
  double y = 0;
  guint fit = 0;
  while (fit < n && y + space_above (sheet, fit, line_h) + line_h <= h + 0.01)
    y += space_above (sheet, fit, line_h) + line_h, fit++;
  if (fit == n)
    return n;
  /* room for "… N more" under the rows shown */
  while (fit > 0 && y + line_h > h + 0.01)
    {
      fit--;
      y -= space_above (sheet, fit, line_h) + line_h;
    }
  return fit;
}

/* The largest size from SHEET_MOST of the style's down to
 * TL_PAINT_SHEET_LEAST of it at which every row fits: above the style's
 * size also the widest (widest_w at the style's size); below the least
 * size the rows are cut and counted. */
static void
fit_rows (const TlSheet *sheet, const TlPaintStyle *style, double widest_w, SheetLayout *l)
{
  guint n = tl_sheet_get_n_rows (sheet);
  double least = style->font_size * TL_PAINT_SHEET_LEAST;
  double size = style->font_size * SHEET_MOST;
  for (;; size = MAX (size * 0.95, least))
    {
      gboolean wide_enough = size <= style->font_size || widest_w * size / style->font_size <= l->w;
      if ((wide_enough && rows_that_fit (sheet, TL_PX (style, size * LINE_SPACING), l->h) == n)
          || size <= least)
        break;
    }
  l->size = size;
  l->line_h = TL_PX (style, size * LINE_SPACING);
  l->rows = rows_that_fit (sheet, l->line_h, l->h);
  l->left_out = n - l->rows;
}

static void
set_mono (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold)
{
  TlPaintStyle mono = *style;
  mono.font_family = "Monospace";
  tl_paint_set_font (cr, &mono, size, bold);
}

/* "… N more" at y, under the last row shown */
static void
paint_more (cairo_t *cr, const TlPaintStyle *style, const SheetLayout *l, double x, double y,
            const char *format)
{
  if (l->left_out == 0)
    return;
  g_autofree char *more = g_strdup_printf (format, l->left_out);
  tl_paint_set_font (cr, style, l->size, FALSE);
  tl_paint_set_fg_alpha (cr, style, 0.7);
  tl_paint_text_fit (cr, x, y, 0, 0, l->x + l->w - x, more);
}

/* The characters of text (n of them) that fit max_w, measured, with room
 * for "…" when they are not all of it. */
static glong
chars_that_fit (cairo_t *cr, const char *text, glong n, double max_w)
{
  if (tl_paint_text_width (cr, text) <= max_w)
    return n;
  double room = max_w - tl_paint_text_width (cr, "…");
  glong lo = 0, hi = n;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      g_autofree char *start = g_utf8_substring (text, 0, mid);
      if (tl_paint_text_width (cr, start) <= room)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

/* The ink of row that covers character at, or NULL; *next: where the run
 * from at ends (the ink's end, the next ink's start, or shown). */
static const TlSheetInk *
ink_at (const TlSheet *sheet, guint row, glong at, glong shown, glong *next)
{
  *next = shown;
  for (guint i = 0; i < sheet->inks->len; i++)
    {
      const TlSheetInk *k = &g_array_index (sheet->inks, TlSheetInk, i);
      if (k->row != row || (glong) k->end <= at)
        continue;
      if ((glong) k->start <= at)
        {
          *next = MIN ((glong) k->end, shown);
          return k;
        }
      *next = MIN (*next, (glong) k->start);
    }
  return NULL;
}

/* one line's text in its inks' colours; a line wider than max_w ends in "…" */
static void
paint_code_line (cairo_t *cr, const TlPaintStyle *style, const TlSheet *sheet, guint row, double x,
                 double y, double max_w)
{
  const char *text = tl_sheet_get_row (sheet, row)->value;
  glong n = g_utf8_strlen (text, -1);
  glong shown = chars_that_fit (cr, text, n, max_w);
  glong at = 0;
  double pen = x;
  while (at < shown)
    {
      glong next;
      const TlSheetInk *ink = ink_at (sheet, row, at, shown, &next);
      g_autofree char *part = g_utf8_substring (text, at, next);
      /* the cut's "…" ends the last part, in its colour */
      g_autofree char *shown_part = next == shown && shown < n ? g_strconcat (part, "…", NULL) : NULL;
      if (ink && !style->high_contrast)
        cairo_set_source_rgb (cr, ink->rgb[0], ink->rgb[1], ink->rgb[2]);
      else
        tl_paint_set_fg (cr, style);
      pen += tl_paint_text (cr, pen, y, 0, 0, shown_part ? shown_part : part);
      at = next;
    }
  if (shown == 0 && n > 0)
    {
      tl_paint_set_fg (cr, style);
      tl_paint_text (cr, pen, y, 0, 0, "…");
    }
}

/* a line the compiler found wrong: a red band across it and a bar in the
 * margin, which a grey print and high contrast keep too */
static void
paint_mark (cairo_t *cr, const TlPaintStyle *style, const SheetLayout *l, double y)
{
  cairo_set_source_rgba (cr, style->error[0], style->error[1], style->error[2],
                         style->high_contrast ? 0.35 : 0.18);
  cairo_rectangle (cr, l->x, y, l->w, l->line_h);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
  double bar = TL_PX (style, l->size * 0.3);
  cairo_rectangle (cr, l->x, y, bar, l->line_h);
  cairo_fill (cr);
}

/* the listing's widest line and its numbers, at the style's size */
static double
listing_width (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style)
{
  guint n = tl_sheet_get_n_rows (sheet);
  set_mono (cr, style, style->font_size, FALSE);
  g_autofree char *widest = g_strdup_printf ("%u", sheet->first_number + MAX (n, 1) - 1);
  double w = 0;
  for (guint i = 0; i < n; i++)
    w = MAX (w, tl_paint_text_width (cr, tl_sheet_get_row (sheet, i)->value));
  return w + tl_paint_text_width (cr, widest) + TL_PX (style, style->font_size * 1.8);
}

static void
paint_listing (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, SheetLayout *l)
{
  guint n = tl_sheet_get_n_rows (sheet);
  fit_rows (sheet, style, listing_width (cr, sheet, style), l);
  set_mono (cr, style, l->size, FALSE);
  g_autofree char *widest = g_strdup_printf ("%u", sheet->first_number + MAX (n, 1) - 1);
  double gutter = TL_PX (style, l->size * 0.6); /* room for a mark's bar */
  double number_w = tl_paint_text_width (cr, widest);
  double code_x = l->x + gutter + number_w + TL_PX (style, l->size * 1.2);
  for (guint i = 0; i < l->rows; i++)
    {
      double y = l->y + i * l->line_h;
      gboolean marked = tl_sheet_get_row (sheet, i)->marked;
      if (marked)
        paint_mark (cr, style, l, y);
      g_autofree char *number = g_strdup_printf ("%u", sheet->first_number + i);
      set_mono (cr, style, l->size, marked);
      if (marked)
        tl_paint_set_fg (cr, style);
      else
        tl_paint_set_fg_alpha (cr, style, 0.5);
      tl_paint_text (cr, l->x + gutter + number_w, y, 1, 0, number);
      set_mono (cr, style, l->size, FALSE);
      paint_code_line (cr, style, sheet, i, code_x, y, l->x + l->w - code_x);
    }
  /* TRANSLATORS: under an exported kernel listing cut at the picture's foot */
  paint_more (cr, style, l, code_x, l->y + l->rows * l->line_h, _("… %u more lines"));
}

/* the widest label of the label/value rows in cr's font, at most max_w */
static double
label_width (cairo_t *cr, const TlSheet *sheet, double max_w)
{
  double w = 0;
  for (guint i = 0; i < tl_sheet_get_n_rows (sheet); i++)
    {
      const TlSheetRow *row = tl_sheet_get_row (sheet, i);
      if (row->kind == TL_SHEET_ROW)
        w = MAX (w, tl_paint_text_width (cr, row->label));
    }
  return MIN (w, max_w);
}

/* the table's widest row at the style's size */
static double
table_width (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style)
{
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  double w = 0, value_x = label_width (cr, sheet, G_MAXDOUBLE) + TL_PX (style, style->font_size * 1.5);
  for (guint i = 0; i < tl_sheet_get_n_rows (sheet); i++)
    {
      const TlSheetRow *row = tl_sheet_get_row (sheet, i);
      /* bold for all: headings are, and a little room does no harm */
      double text_w = tl_paint_text_width (cr, row->kind == TL_SHEET_HEADING ? row->label : row->value);
      w = MAX (w, text_w + (row->kind == TL_SHEET_ROW || row->kind == TL_SHEET_NOTE ? value_x : 0));
    }
  return w;
}

static void
paint_table_row (cairo_t *cr, const TlPaintStyle *style, const SheetLayout *l, const TlSheetRow *row,
                 double y, double label_w, double value_x, gboolean stripe)
{
  tl_paint_set_font (cr, style, l->size, row->kind == TL_SHEET_HEADING);
  tl_paint_set_fg (cr, style);
  switch (row->kind)
    {
    case TL_SHEET_HEADING:
      tl_paint_text_fit (cr, l->x, y, 0, 0, l->w, row->label);
      break;
    case TL_SHEET_SENTENCE:
      tl_paint_text_fit (cr, l->x, y, 0, 0, l->w, row->value);
      break;
    case TL_SHEET_NOTE:
      /* under its row's value, set apart */
      tl_paint_set_fg_alpha (cr, style, 0.7);
      tl_paint_text_fit (cr, value_x, y, 0, 0, l->x + l->w - value_x, row->value);
      break;
    case TL_SHEET_ROW:
      if (stripe && !style->high_contrast)
        {
          tl_paint_set_fg_alpha (cr, style, 0.05);
          cairo_rectangle (cr, l->x, y, l->w, l->line_h);
          cairo_fill (cr);
        }
      tl_paint_set_fg_alpha (cr, style, 0.7);
      tl_paint_text_fit (cr, l->x, y, 0, 0, label_w, row->label);
      tl_paint_set_fg (cr, style);
      tl_paint_text_fit (cr, value_x, y, 0, 0, l->x + l->w - value_x, row->value);
      break;
    }
}

static void
paint_table (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, SheetLayout *l)
{
  fit_rows (sheet, style, table_width (cr, sheet, style), l);
  tl_paint_set_font (cr, style, l->size, FALSE);
  double label_w = label_width (cr, sheet, l->w * 0.45);
  double value_x = l->x + label_w + TL_PX (style, l->size * 1.5);
  guint stripe = 0;
  double y = l->y;
  for (guint i = 0; i < l->rows; i++)
    {
      const TlSheetRow *row = tl_sheet_get_row (sheet, i);
      y += space_above (sheet, i, l->line_h);
      /* every other row of a group on a faint band */
      stripe = row->kind == TL_SHEET_HEADING ? 0 : stripe + (row->kind == TL_SHEET_ROW);
      paint_table_row (cr, style, l, row, y, label_w, value_x, row->kind == TL_SHEET_ROW && stripe % 2 == 0);
      y += l->line_h;
    }
  /* TRANSLATORS: under an exported table cut at the picture's foot */
  paint_more (cr, style, l, l->x, y, _("… %u more rows"));
}

void
tl_paint_sheet (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, double width,
                double height)
{
  g_return_if_fail (cr != NULL && sheet != NULL && style != NULL);
  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  double margin = TL_PX (style, style->font_size * 2);
  double y = margin;

  tl_paint_set_font (cr, style, style->title_font_size, TRUE);
  tl_paint_set_fg (cr, style);
  tl_paint_text_fit (cr, margin, y, 0, 0, width - 2 * margin, sheet->title ? sheet->title : "");
  y += TL_PX (style, style->title_font_size * 1.5);
  if (sheet->subtitle)
    {
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      tl_paint_set_fg_alpha (cr, style, 0.7);
      tl_paint_text_fit (cr, margin, y, 0, 0, width - 2 * margin, sheet->subtitle);
      y += TL_PX (style, style->font_size * 1.6);
    }
  y += TL_PX (style, style->font_size * 0.5);
  SheetLayout l = { .x = margin, .y = y, .w = width - 2 * margin, .h = height - y - margin };
  if (sheet->listing)
    paint_listing (cr, sheet, style, &l);
  else
    paint_table (cr, sheet, style, &l);
  cairo_restore (cr);
}
