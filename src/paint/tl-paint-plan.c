/* tl-paint-plan.c — a planned rung's plan over the block grid. */
#include "paint/tl-paint-plan.h"

#include <glib/gi18n-lib.h>

#include "paint/tl-paint-util.h"

/* lines of each part of the legend: the numbers, the swatch's line, the why */
#define SUMMARY_LINES_MAX 2
#define WHY_LINES_MAX 3
#define LINE_SPACING 1.3

/* About how many lines text takes at the style's font in width (the
 * painter wraps at most this many, so the room is never overrun). */
static guint
lines_for (const char *text, const TlPaintStyle *style, double width, guint most)
{
  if (text == NULL || *text == '\0')
    return 0;
  double per_char = 0.56 * TL_PX (style, style->font_size);
  double chars = MAX (width / per_char, 8.0);
  guint lines = (guint) ((double) g_utf8_strlen (text, -1) / chars) + 1;
  return CLAMP (lines, 1u, most);
}

/* The lines the numbers and the why get in a picture `height` tall: the
 * legend takes at most two fifths of it, the why first (it is the lesson),
 * each part at least one line. */
static void
legend_lines (const TlPlanView *plan, const TlPaintStyle *style, double width, double height,
              guint *out_summary, guint *out_why)
{
  double line = TL_PX (style, style->font_size) * LINE_SPACING;
  guint budget = (guint) MAX (0.3 * height / line, 3.0) - 1; /* the swatch's line */
  guint why = lines_for (plan->why, style, width, WHY_LINES_MAX);
  guint summary = lines_for (plan->summary, style, width, SUMMARY_LINES_MAX);
  why = MIN (why, budget - 1);
  summary = MIN (summary, budget - why);
  *out_summary = summary;
  *out_why = why;
}

double
tl_paint_plan_legend_height (const TlPlanView *plan, const TlPaintStyle *style, double width,
                             double height)
{
  if (plan == NULL)
    return 0;
  double line = TL_PX (style, style->font_size) * LINE_SPACING;
  guint summary, why;
  legend_lines (plan, style, width, height, &summary, &why);
  return TL_PX (style, 8) + (1 + summary + why) * line;
}

/* Diagonal hatching in the rectangle, light over dark and dark over light
 * (white lines edged in black): visible on every colour of a colormap. */
static void
hatch (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w, double h)
{
  double step = TL_PX (style, 7);
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  for (double d = -h; d < w; d += step)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_set_line_width (cr, TL_LINE (style, 3.0));
  cairo_set_source_rgba (cr, 0, 0, 0, 0.55);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, TL_LINE (style, 1.4));
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
outline (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w, double h)
{
  double lw = TL_LINE (style, 2.0);
  cairo_save (cr);
  cairo_rectangle (cr, x + lw / 2, y + lw / 2, MAX (w - lw, 0.5), MAX (h - lw, 0.5));
  cairo_set_line_width (cr, lw);
  cairo_set_source_rgb (cr, TL_PAINT_HIGHLIGHT_RGB);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
tl_paint_plan_tiles (cairo_t *cr, const TlPlanView *plan, const TlPaintStyle *style, double plot_x,
                     double plot_y, double cell_w, double cell_h, guint grid_x, guint grid_y)
{
  g_return_if_fail (cr != NULL && style != NULL);
  if (plan == NULL)
    return;
  /* the grid is C's tiles at the plan's size: mark only where they agree */
  if (grid_x != plan->tiles_n || grid_y != plan->tiles_m)
    return;
  for (guint ty = 0; ty < grid_y; ty++)
    for (guint tx = 0; tx < grid_x; tx++)
      if (tl_plan_view_in_last_wave (plan, tx, ty))
        hatch (cr, style, plot_x + tx * cell_w, plot_y + ty * cell_h, cell_w, cell_h);
  gboolean big = cell_w >= TL_PX (style, 10) && cell_h >= TL_PX (style, 10);
  for (guint ty = 0; big && ty < grid_y; ty++)
    for (guint tx = 0; tx < grid_x; tx++)
      if (tl_plan_view_in_last_wave (plan, tx, ty))
        outline (cr, style, plot_x + tx * cell_w, plot_y + ty * cell_h, cell_w, cell_h);
}

void
tl_paint_plan_legend (cairo_t *cr, const TlPlanView *plan, const TlPaintStyle *style, double x,
                      double y, double width, double height)
{
  g_return_if_fail (cr != NULL && style != NULL);
  if (plan == NULL)
    return;
  double font = TL_PX (style, style->font_size);
  double line = font * LINE_SPACING;
  y += TL_PX (style, 8);

  cairo_save (cr);
  /* the swatch: the last wave's hatch, and what it marks */
  double sw = font * 1.6, sh = font;
  cairo_set_source_rgb (cr, 0.55, 0.55, 0.55);
  cairo_rectangle (cr, x, y, sw, sh);
  cairo_fill (cr);
  hatch (cr, style, x, y, sw, sh);
  outline (cr, style, x, y, sw, sh);
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  tl_paint_text_fit (cr, x + sw + font * 0.5, y, 0, 0, width - sw - font * 0.5, plan->legend);
  y += line;

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  guint n, n_why;
  legend_lines (plan, style, width, height, &n, &n_why);
  y += line * tl_paint_text_wrap (cr, x, y, width, line, n, plan->summary);
  n = n_why;
  if (n > 0)
    {
      g_autofree char *why = g_strdup_printf (_("Why: %s"), plan->why);
      tl_paint_text_wrap (cr, x, y, width, line, n, why);
    }
  cairo_restore (cr);
}
