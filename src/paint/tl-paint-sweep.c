/* tl-paint-sweep.c — GFLOP/s against the problem size, a line per kernel and machine. */
#include "paint/tl-paint-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include "paint/tl-paint-sweep-legend.h"
#include "paint/tl-paint-sweep-tags.h"
#include "paint/tl-paint-util.h"

#define MAX_TICKS 64

static gboolean
point_square (const TlSweepSeries *se, guint i)
{
  return se->shape == NULL
         || (se->shape[3 * i] == se->shape[3 * i + 1] && se->shape[3 * i + 1] == se->shape[3 * i + 2]);
}

double
tl_paint_sweep_min_height (const TlSweepModel *model, const TlPaintStyle *style, double width)
{
  g_return_val_if_fail (model != NULL && style != NULL, 0);
  double font = TL_PX (style, style->font_size);
  /* the title and the axes' labels and titles around the plot */
  double frame = (model->title ? TL_PX (style, style->title_font_size) * 1.35 : 0) + font * (0.9 + 3.6);
  double legend = tl_sweep_legend_under_height (model, style, width);
  /* the plot keeps its floor: 8 ems, and its share of the whole */
  double by_share = (frame + legend) / (1 - TL_SWEEP_PLOT_MIN_SHARE);
  return ceil (MAX (frame + legend + tl_sweep_plot_floor (style, 0), by_share));
}

/* The sizes' and values' ranges of the points (a made-up one when there
 * are none); square: every problem is a cube. */
static void
data_ranges (const TlSweepModel *model, double *n_lo, double *n_hi, double *g_lo, double *g_hi,
             gboolean *square)
{
  *n_lo = *g_lo = INFINITY;
  *n_hi = *g_hi = -INFINITY;
  *square = TRUE;
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      for (guint i = 0; i < se->count; i++)
        {
          if (!tl_sweep_point_ok (se, i))
            continue;
          *n_lo = MIN (*n_lo, se->n[i]);
          *n_hi = MAX (*n_hi, se->n[i]);
          *g_lo = MIN (*g_lo, se->gflops[i]);
          *g_hi = MAX (*g_hi, se->gflops[i]);
          *square &= point_square (se, i);
        }
    }
  if (!isfinite (*n_lo))
    {
      *n_lo = 256;
      *n_hi = 4096;
      *g_lo = 1;
      *g_hi = 1000;
    }
}

static GArray *distinct_problems (const TlSweepModel *model);
static void    problem_label (const double *p, char *buf, gsize size);

/* Half the width of the tick labels of the smallest and the largest
 * problem, which are centred on the plot's ends. */
static void
end_label_halves (cairo_t *cr, const TlSweepModel *model, const TlPaintStyle *style, double *first,
                  double *last)
{
  g_autoptr (GArray) probs = distinct_problems (model);
  *first = *last = 0;
  if (probs->len == 0)
    return;
  char buf[48];
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  problem_label (&g_array_index (probs, double, 0), buf, sizeof buf);
  *first = tl_paint_text_width (cr, buf) / 2;
  problem_label (&g_array_index (probs, double, 4 * (probs->len - 1)), buf, sizeof buf);
  *last = tl_paint_text_width (cr, buf) / 2;
}

/* The size axis from just before the smallest size to just past the
 * largest: lo_px and hi_px of plot_w left as air at its ends, so a marker
 * never sits on the frame and the axis ends where the data does (one
 * size: an octave either side). */
static void
size_axis (double lo, double hi, double plot_w, double lo_px, double hi_px, TlSweepLayout *out)
{
  double span = log2 (hi / lo);
  double octaves = span > 0 ? span / MAX (1 - (lo_px + hi_px) / plot_w, 0.5) : 1;
  double air = span > 0 ? octaves - span : 1;
  out->n_lo = lo / exp2 (air * lo_px / (lo_px + hi_px));
  out->n_hi = hi * exp2 (air * hi_px / (lo_px + hi_px));
}

void
tl_paint_sweep_layout (const TlSweepModel *model, const TlPaintStyle *style,
                       cairo_t *cr, double width, double height, TlSweepLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double n_lo, n_hi, g_lo, g_hi;

  *out = (TlSweepLayout) { 0 };
  data_ranges (model, &n_lo, &n_hi, &g_lo, &g_hi, &out->square);
  /* a bit of a decade of air above and below */
  out->g_lo = pow (10.0, floor (log10 (g_lo / 1.25)));
  out->g_hi = pow (10.0, ceil (log10 (g_hi * 1.25)));

  /* under the title, with room for half of the top tick label */
  out->plot_y = (model->title ? TL_PX (style, style->title_font_size) * 1.35 : 0) + font * 0.9;
  double bottom = font * 3.6;
  double avail_h = MAX (height - out->plot_y - bottom, 10);
  /* right of the plot: the tags, and the last size's label half out */
  double pad = font * 0.8, first_half, last_half;
  end_label_halves (cr, model, style, &first_half, &last_half);
  double right = MAX (tl_sweep_tags_width (cr, model, style) + font * 1.6, last_half - pad + font * 0.6);
  out->plot_x = font * 5.2;
  /* the plot keeps half the picture's width (a legend beside it) or, the
   * legend's names allowing, half its height (a legend under it) */
  double beside_w = width * 0.5 - out->plot_x - right;
  double legend_h = tl_sweep_legend_layout (model, style, cr, width, beside_w, avail_h, height, out);

  out->plot_h = avail_h - legend_h;
  if (legend_h > 0)
    {
      out->plot_w = MAX (width - out->plot_x - right, 10);
      out->legend_x = font * 0.6;
      out->legend_y = out->plot_y + out->plot_h + bottom + font * 0.5;
    }
  else
    {
      double legend_w = tl_paint_legend_grid_width (&out->legend);
      out->plot_w = MAX (width - out->plot_x - right - legend_w, 10);
      out->legend_x = out->plot_x + out->plot_w + right - font * 0.4;
      out->legend_y = out->plot_y;
    }
  /* the first size's label clears the lowest value's, left of the plot */
  size_axis (n_lo, n_hi, out->plot_w, MAX (pad, first_half + font * 0.2), pad, out);
}

/* The distinct problems of the sweep's points, by size: n, m, k, n each. */
static GArray *
distinct_problems (const TlSweepModel *model)
{
  GArray *probs = g_array_new (FALSE, FALSE, sizeof (double) * 4);
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      for (guint i = 0; i < se->count; i++)
        {
          if (!tl_sweep_point_ok (se, i))
            continue;
          double p[4] = { se->n[i], se->n[i], se->n[i], se->n[i] };
          if (se->shape)
            for (int d = 0; d < 3; d++)
              p[d + 1] = (double) se->shape[3 * i + d];
          gboolean seen = FALSE;
          for (guint j = 0; j < probs->len && !seen; j++)
            {
              const double *q = &g_array_index (probs, double, 4 * j);
              seen = q[1] == p[1] && q[2] == p[2] && q[3] == p[3];
            }
          if (!seen)
            g_array_append_vals (probs, p, 1);
        }
    }
  for (guint j = 0; j < probs->len; j++)
    for (guint k = j + 1; k < probs->len; k++)
      if (g_array_index (probs, double, 4 * k) < g_array_index (probs, double, 4 * j))
        for (int d = 0; d < 4; d++)
          {
            double t = g_array_index (probs, double, 4 * j + d);
            g_array_index (probs, double, 4 * j + d) = g_array_index (probs, double, 4 * k + d);
            g_array_index (probs, double, 4 * k + d) = t;
          }
  return probs;
}

/* "1024" for a cube, "1000×777×1111" otherwise (p: n, m, k, n) */
static void
problem_label (const double *p, char *buf, gsize size)
{
  if (p[1] == p[2] && p[2] == p[3])
    g_snprintf (buf, size, "%.0f", p[1]);
  else
    g_snprintf (buf, size, "%.0f×%.0f×%.0f", p[1], p[2], p[3]);
}

/* The x ticks: the problems measured, each labelled where its label
 * clears the ones kept — the odd shapes first ("300×177×411" beside 256
 * is the one a lecturer points at), then the cubes ("1024"); a problem
 * whose label does not fit keeps its grid line (an empty label). */
static guint
size_ticks (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay, double *at,
            char (*labels)[48], guint max_out)
{
  guint n = 0;
  g_autoptr (GArray) probs = distinct_problems (model);
  double em = tl_paint_text_height (cr), left[MAX_TICKS], right[MAX_TICKS];
  for (int odd_pass = 1; odd_pass >= 0; odd_pass--)
    for (guint j = 0; j < probs->len && n < MIN (max_out, MAX_TICKS); j++)
      {
        const double *p = &g_array_index (probs, double, 4 * j);
        gboolean cube = p[1] == p[2] && p[2] == p[3];
        if (cube == odd_pass)
          continue;
        char buf[48];
        problem_label (p, buf, sizeof buf);
        double x, y, half = tl_paint_text_width (cr, buf) / 2 + em * 0.35;
        tl_sweep_layout_point (lay, p[0], lay->g_lo, &x, &y);
        gboolean clears = TRUE;
        for (guint i = 0; i < n && clears; i++)
          clears = x + half <= left[i] || x - half >= right[i];
        left[n] = clears ? x - half : INFINITY;
        right[n] = clears ? x + half : -INFINITY;
        at[n] = p[0];
        g_strlcpy (labels[n], clears ? buf : "", sizeof labels[n]);
        n++;
      }
  return n;
}

static void
paint_axes (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
            const TlPaintStyle *style)
{
  double at[MAX_TICKS], v[MAX_TICKS];
  char labels[MAX_TICKS][48];
  char buf[64];

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width * 0.5));
  guint n = size_ticks (cr, model, lay, at, labels, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double x, y;
      tl_sweep_layout_point (lay, at[i], lay->g_lo, &x, &y);
      tl_paint_x_tick (cr, style, round (x) + 0.5, lay->plot_y, lay->plot_h, labels[i]);
    }
  double px_per_decade = lay->plot_h / log10 (lay->g_hi / lay->g_lo);
  TlTickFormat format = tl_format_for_decades (lay->g_lo, lay->g_hi);
  n = tl_paint_power_ticks (cr, 10.0, lay->g_lo, lay->g_hi, px_per_decade, TRUE, format, v,
                            MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double x, y;
      tl_sweep_layout_point (lay, lay->n_lo, v[i], &x, &y);
      format (v[i], buf, sizeof buf);
      tl_paint_y_tick (cr, style, round (y) + 0.5, lay->plot_x, lay->plot_w, buf);
    }

  /* shorter wordings where the long ones do not fit (a narrow window) */
  g_autofree char *x_title
    = lay->square ? g_strjoin ("\n", _("n (m = n = k), log scale"), _("n (log)"), NULL)
                  : g_strjoin ("\n", _("problem m×k×n, placed at ∛(m·k·n), log scale"),
                               _("problem m×k×n, log scale"), _("m×k×n (log)"), NULL);
  g_autofree char *y_title
    = model->percent ? g_strjoin ("\n",
                                  /* xgettext:no-c-format */
                                  _("% of the vendor, log scale"),
                                  /* xgettext:no-c-format */
                                  _("% of vendor (log)"), NULL)
                     : g_strjoin ("\n", _("GFLOP/s, log scale"), _("GFLOP/s (log)"), NULL);
  tl_paint_plot_frame_titles (cr, style, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h,
                              lay->plot_w + lay->plot_x, x_title, y_title);
}

static void
paint_series (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay, guint s,
              const TlPaintStyle *style)
{
  const TlSweepSeries *se = &model->series[s];
  TlKernelLook look;
  gboolean pen_down = FALSE;

  double rgb[3];
  tl_sweep_series_look (model, s, &look);
  tl_sweep_series_rgb (model, s, style, rgb);
  gboolean picked = model->picked != NULL && !tl_sweep_series_faded (model, s);
  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, TL_LINE (style, picked ? 4.5 : se->reference ? 3.0 : 2.0));
  tl_sweep_set_dash (cr, style, se->machine);
  for (guint i = 0; i < se->count; i++)
    {
      double x, y;
      if (!tl_sweep_point_ok (se, i))
        {
          pen_down = FALSE;
          continue;
        }
      tl_sweep_layout_point (lay, se->n[i], se->gflops[i], &x, &y);
      if (pen_down)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      pen_down = TRUE;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < se->count; i++)
    {
      double x, y;
      if (!tl_sweep_point_ok (se, i))
        continue;
      tl_sweep_layout_point (lay, se->n[i], se->gflops[i], &x, &y);
      tl_paint_marker (cr, look.marker, x, y, TL_PX (style, picked ? 6 : 4));
    }
  cairo_restore (cr);
}

void
tl_paint_sweep (cairo_t *cr, const TlSweepModel *model,
                const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlSweepLayout lay;
  double font = TL_PX (style, style->font_size);

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  tl_paint_sweep_layout (model, style, cr, width, height, &lay);

  tl_paint_set_fg (cr, style);
  if (model->title)
    {
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text_fit_choice (cr, font * 0.6, 0, 0, 0, width - font * 1.2, model->title);
    }
  paint_axes (cr, model, &lay, style);
  /* the picked kernel's lines over the faded others */
  for (int pass = 0; pass < 2; pass++)
    for (guint s = 0; s < model->n_series; s++)
      if ((model->picked != NULL && !tl_sweep_series_faded (model, s)) == (pass == 1))
        paint_series (cr, model, &lay, s, style);
  tl_sweep_paint_tags (cr, model, &lay, style);
  tl_sweep_paint_legend (cr, model, &lay, style);
  cairo_restore (cr);
}
