/* tl-paint-util.c — text, ticks and numbers for the painters. */
#include "paint/tl-paint-util.h"

#include <math.h>
#include <stdio.h>
#include "paint/tl-paint-text-boxes.h"

void
tl_paint_background (cairo_t *cr, const TlPaintStyle *style, double width, double height)
{
  if (style->transparent)
    return;
  cairo_save (cr);
  cairo_set_source_rgb (cr, style->bg[0], style->bg[1], style->bg[2]);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
}

void
tl_paint_set_fg (cairo_t *cr, const TlPaintStyle *style)
{
  cairo_set_source_rgb (cr, style->fg[0], style->fg[1], style->fg[2]);
}

void
tl_paint_frame (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w, double h)
{
  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  cairo_rectangle (cr, x, y, w, h);
  cairo_stroke (cr);
}

void
tl_paint_set_font (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold)
{
  cairo_select_font_face (cr, style->font_family ? style->font_family : "Sans",
                          CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, TL_PX (style, size));
}

double
tl_paint_text_width (cairo_t *cr, const char *text)
{
  cairo_text_extents_t te;
  cairo_text_extents (cr, text, &te);
  return te.x_advance;
}

double
tl_paint_text (cairo_t *cr, double x, double y, double halign, double valign,
               const char *text)
{
  cairo_text_extents_t te;
  cairo_font_extents_t fe;

  cairo_text_extents (cr, text, &te);
  cairo_font_extents (cr, &fe);
  /* the box from ascent (top) to descent (bottom) keeps lines aligned */
  double h = fe.ascent + fe.descent;
  double left = x - halign * te.x_advance, top = y - valign * h;
  cairo_move_to (cr, left, top + fe.ascent);
  cairo_show_text (cr, text);
  cairo_new_path (cr);
  /* the ink's width, the font's height: what a reader sees as the text */
  tl_paint_text_boxes_record (cr, text, left + te.x_bearing, top, te.width, h);
  return te.x_advance;
}

#define INDEX_MAX_TICKS 24

/* Top edge (rows FALSE) or left edge (rows TRUE); returns the left end of
 * the labels (plot_x when there are none, or for the top edge). */
static double
index_ticks (cairo_t *cr, const TlPaintStyle *style, double plot_x, double plot_y, double origin,
             double cell_px, double lo, double hi, guint target, gboolean rows)
{
  double ticks[INDEX_MAX_TICKS];
  double tick = TL_PX (style, 5);
  char buf[32];
  double label_left = plot_x;
  guint n = tl_paint_nice_ticks (lo, hi, target, ticks, INDEX_MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      if (ticks[i] != floor (ticks[i]))
        continue; /* whole cells only */
      double at = (rows ? plot_y : plot_x) + (ticks[i] + 0.5 - origin) * cell_px;
      g_snprintf (buf, sizeof buf, "%.0f", ticks[i]);
      if (rows)
        {
          cairo_move_to (cr, plot_x, at);
          cairo_line_to (cr, plot_x - tick, at);
          cairo_stroke (cr);
          double w = tl_paint_text (cr, plot_x - tick - TL_PX (style, 2), at, 1.0, 0.5, buf);
          label_left = MIN (label_left, plot_x - tick - TL_PX (style, 2) - w);
        }
      else
        {
          cairo_move_to (cr, at, plot_y);
          cairo_line_to (cr, at, plot_y - tick);
          cairo_stroke (cr);
          tl_paint_text (cr, at, plot_y - tick - TL_PX (style, 1), 0.5, 1.0, buf);
        }
    }
  return label_left;
}

void
tl_paint_index_ticks_top (cairo_t *cr, const TlPaintStyle *style, double plot_x, double plot_y,
                          double origin, double cell_px, double lo, double hi, guint target)
{
  index_ticks (cr, style, plot_x, plot_y, origin, cell_px, lo, hi, target, FALSE);
}

double
tl_paint_index_ticks_left (cairo_t *cr, const TlPaintStyle *style, double plot_x, double plot_y,
                           double origin, double cell_px, double lo, double hi, guint target)
{
  return index_ticks (cr, style, plot_x, plot_y, origin, cell_px, lo, hi, target, TRUE);
}

int
tl_paint_digits (guint64 n)
{
  int d = 1;
  while (n >= 10)
    n /= 10, d++;
  return d;
}

guint
tl_paint_nice_ticks (double lo, double hi, guint target, double *out, guint max_out)
{
  if (!isfinite (lo) || !isfinite (hi) || max_out == 0)
    return 0;
  if (hi < lo)
    {
      double t = lo;
      lo = hi;
      hi = t;
    }
  if (hi == lo)
    {
      out[0] = lo;
      return 1;
    }

  double raw = (hi - lo) / MAX (target, 1);
  double mag = pow (10.0, floor (log10 (raw)));
  double f = raw / mag;
  double step = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
  double first = ceil (lo / step - 1e-9) * step;
  guint n = 0;

  for (double v = first; v <= hi + step * 1e-9 && n < max_out; v += step)
    out[n++] = fabs (v) < step * 1e-9 ? 0.0 : v;
  return n;
}

void
tl_paint_format_value (double v, char *buf, gsize size)
{
  if (isnan (v))
    g_strlcpy (buf, "NaN", size);
  else if (isinf (v))
    g_strlcpy (buf, v > 0 ? "∞" : "−∞", size);
  else if (v == 0)
    g_strlcpy (buf, "0", size);
  else if (fabs (v) >= 1e5 || fabs (v) < 1e-3)
    {
      int e = (int) floor (log10 (fabs (v)));
      double m = v / pow (10.0, e);
      char mb[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (mb, sizeof mb, "%.3g", m);
      if (g_strcmp0 (mb, "1") == 0)
        g_snprintf (buf, size, "1e%d", e);
      else if (g_strcmp0 (mb, "-1") == 0)
        g_snprintf (buf, size, "-1e%d", e);
      else
        g_snprintf (buf, size, "%se%d", mb, e);
    }
  else
    g_ascii_formatd (buf, size, fabs (v) >= 1e4 ? "%.0f" : "%.4g", v);
}

void
tl_paint_format_ms (double ms, char *buf, gsize size)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  const char *unit;
  double v;

  if (ms < 1.0)
    {
      v = ms * 1000.0;
      unit = "µs";
    }
  else if (ms < 1000.0)
    {
      v = ms;
      unit = "ms";
    }
  else
    {
      v = ms / 1000.0;
      unit = "s";
    }
  g_ascii_formatd (num, sizeof num, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  g_snprintf (buf, size, "%s %s", num, unit);
}

void
tl_paint_format_gflops (double gflops, char *buf, gsize size)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  const char *unit = "GFLOP/s";
  double v = gflops;

  if (gflops >= 1000.0)
    {
      v = gflops / 1000.0;
      unit = "TFLOP/s";
    }
  else if (gflops < 1.0)
    {
      v = gflops * 1000.0;
      unit = "MFLOP/s";
    }
  g_ascii_formatd (num, sizeof num, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  g_snprintf (buf, size, "%s %s", num, unit);
}

void
tl_paint_series_rgb (guint index, double out_rgb[3])
{
  static const guint8 okabe_ito[8][3] = {
    {0, 114, 178}, {230, 159, 0}, {0, 158, 115}, {213, 94, 0},
    {86, 180, 233}, {204, 121, 167}, {240, 228, 66}, {0, 0, 0},
  };
  const guint8 *c = okabe_ito[index % 8];
  for (int i = 0; i < 3; i++)
    out_rgb[i] = c[i] / 255.0;
}
