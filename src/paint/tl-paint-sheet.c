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

/* the largest size from the style's down to two thirds of it at which the
 * rows fit; below that the rows are cut and counted */
static void
fit_rows (const TlPaintStyle *style, guint n, SheetLayout *l)
{
  double size = style->font_size;
  while (size > style->font_size * 0.67 && n * TL_PX (style, size * 1.35) > l->h)
    size *= 0.95;
  l->size = size;
  l->line_h = TL_PX (style, size * 1.35);
  guint fit = (guint) MAX (1.0, l->h / l->line_h);
  l->rows = n <= fit ? n : fit - 1;
  l->left_out = n - l->rows;
}

static void
set_mono (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold)
{
  TlPaintStyle mono = *style;
  mono.font_family = "Monospace";
  tl_paint_set_font (cr, &mono, size, bold);
}

static void
paint_more (cairo_t *cr, const TlPaintStyle *style, const SheetLayout *l, double x, const char *format)
{
  if (l->left_out == 0)
    return;
  g_autofree char *more = g_strdup_printf (format, l->left_out);
  tl_paint_set_font (cr, style, l->size, FALSE);
  tl_paint_set_fg_alpha (cr, style, 0.7);
  tl_paint_text (cr, x, l->y + l->rows * l->line_h, 0, 0, more);
}

/* one line's text in its inks' colours; a line wider than max_w ends in "…" */
static void
paint_code_line (cairo_t *cr, const TlPaintStyle *style, const TlSheet *sheet, guint row, double x,
                 double y, double max_w)
{
  const char *text = g_ptr_array_index (sheet->values, row);
  double advance = tl_paint_text_width (cr, "M");
  glong n = g_utf8_strlen (text, -1);
  glong shown = advance > 0 ? MIN ((glong) (max_w / advance), n) : n;
  gboolean cut = n > shown;
  if (cut)
    shown = MAX (shown - 1, 0);
  glong at = 0;
  while (at < shown)
    {
      /* the ink that starts here, or the plain text up to the next ink */
      const TlSheetInk *ink = NULL;
      glong next = shown;
      for (guint i = 0; i < sheet->inks->len; i++)
        {
          const TlSheetInk *k = &g_array_index (sheet->inks, TlSheetInk, i);
          if (k->row != row || (glong) k->end <= at)
            continue;
          if ((glong) k->start <= at)
            {
              ink = k;
              next = MIN ((glong) k->end, shown);
              break;
            }
          next = MIN (next, (glong) k->start);
        }
      g_autofree char *part = g_utf8_substring (text, at, next);
      if (ink && !style->high_contrast)
        cairo_set_source_rgb (cr, ink->rgb[0], ink->rgb[1], ink->rgb[2]);
      else
        tl_paint_set_fg (cr, style);
      tl_paint_text (cr, x + at * advance, y, 0, 0, part);
      at = next;
    }
  if (cut)
    {
      tl_paint_set_fg (cr, style);
      tl_paint_text (cr, x + shown * advance, y, 0, 0, "…");
    }
}

static void
paint_listing (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, SheetLayout *l)
{
  guint n = tl_sheet_get_n_rows (sheet);
  fit_rows (style, n, l);
  set_mono (cr, style, l->size, FALSE);
  g_autofree char *widest = g_strdup_printf ("%u", sheet->first_number + MAX (n, 1) - 1);
  double number_w = tl_paint_text_width (cr, widest);
  double code_x = l->x + number_w + TL_PX (style, l->size * 1.2);
  for (guint i = 0; i < l->rows; i++)
    {
      double y = l->y + i * l->line_h;
      g_autofree char *number = g_strdup_printf ("%u", sheet->first_number + i);
      set_mono (cr, style, l->size, FALSE);
      tl_paint_set_fg_alpha (cr, style, 0.5);
      tl_paint_text (cr, l->x + number_w, y, 1, 0, number);
      paint_code_line (cr, style, sheet, i, code_x, y, l->x + l->w - code_x);
    }
  /* TRANSLATORS: under an exported kernel listing cut at the picture's foot */
  paint_more (cr, style, l, code_x, _("… %u more lines"));
}

static void
paint_table (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, SheetLayout *l)
{
  guint n = tl_sheet_get_n_rows (sheet);
  fit_rows (style, n, l);
  tl_paint_set_font (cr, style, l->size, FALSE);
  double label_w = 0;
  for (guint i = 0; i < n; i++)
    if (*(const char *) g_ptr_array_index (sheet->values, i) && *(const char *) g_ptr_array_index (sheet->labels, i))
      label_w = MAX (label_w, tl_paint_text_width (cr, g_ptr_array_index (sheet->labels, i)));
  label_w = MIN (label_w, l->w * 0.45);
  double value_x = l->x + label_w + TL_PX (style, l->size * 1.5);
  for (guint i = 0; i < l->rows; i++)
    {
      const char *label = g_ptr_array_index (sheet->labels, i);
      const char *value = g_ptr_array_index (sheet->values, i);
      double y = l->y + i * l->line_h;
      if (*value == '\0' || *label == '\0')
        {
          /* a heading (bold) or a sentence: its own line, across the table */
          tl_paint_set_font (cr, style, l->size, *value == '\0');
          tl_paint_set_fg (cr, style);
          tl_paint_text_fit (cr, l->x, y, 0, 0, l->w, *value ? value : label);
          continue;
        }
      if (i % 2 == 1 && !style->high_contrast)
        {
          tl_paint_set_fg_alpha (cr, style, 0.05);
          cairo_rectangle (cr, l->x - TL_PX (style, l->size * 0.3), y - TL_PX (style, l->size * 0.15),
                           l->w + TL_PX (style, l->size * 0.6), l->line_h);
          cairo_fill (cr);
        }
      tl_paint_set_font (cr, style, l->size, FALSE);
      tl_paint_set_fg_alpha (cr, style, 0.7);
      tl_paint_text_fit (cr, l->x, y, 0, 0, label_w, label);
      tl_paint_set_fg (cr, style);
      tl_paint_text_fit (cr, value_x, y, 0, 0, l->x + l->w - value_x, value);
    }
  /* TRANSLATORS: under an exported table cut at the picture's foot */
  paint_more (cr, style, l, l->x, _("… %u more rows"));
}

void
tl_paint_sheet (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, double width,
                double height)
{
  g_return_if_fail (cr != NULL && sheet != NULL && style != NULL);
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
}
