/* tl-paint-sweep.c — GFLOP/s against the problem size, a line per kernel and machine. */
#include "paint/tl-paint-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

#define MAX_TICKS 64

static gboolean
point_ok (const TlSweepSeries *se, guint i)
{
  return se->n[i] > 0 && se->gflops[i] > 0 && isfinite (se->gflops[i]) && isfinite (se->n[i]);
}

static gboolean
point_square (const TlSweepSeries *se, guint i)
{
  return se->shape == NULL
         || (se->shape[3 * i] == se->shape[3 * i + 1] && se->shape[3 * i + 1] == se->shape[3 * i + 2]);
}

static void
series_look (const TlSweepModel *model, guint s, TlKernelLook *look)
{
  if (model->series[s].kernel_id)
    tl_kernel_look (model->series[s].kernel_id, look);
  else
    tl_kernel_look_at (s, look);
}

static void
set_dash (cairo_t *cr, const TlPaintStyle *style, guint machine)
{
  double u = TL_PX (style, 1);
  switch (machine % 4)
    {
    case 1:
      {
        double d[] = { 8 * u, 4 * u };
        cairo_set_dash (cr, d, 2, 0);
        break;
      }
    case 2:
      {
        double d[] = { 2 * u, 3 * u };
        cairo_set_dash (cr, d, 2, 0);
        break;
      }
    case 3:
      {
        double d[] = { 9 * u, 3 * u, 2 * u, 3 * u };
        cairo_set_dash (cr, d, 4, 0);
        break;
      }
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

#define LEGEND_SWATCH_EM 3.0
#define LEGEND_LABEL_CAP_EM 18.0
/* a legend name cut shorter than this many ems reads as a riddle */
#define LEGEND_LABEL_MIN_EM 14.0
/* the plot keeps at least this many ems of height when the legend goes under it */
#define PLOT_MIN_EM 8.0

/* A line of the legend: a kernel (its colour and marker, and its
 * machine's line style, solid when it ran on several), or, first when the
 * sweep spans machines, a machine's line style in the text colour. */
typedef struct
{
  const char *label;
  guint series;     /* the kernel's first series; G_MAXUINT: a machine's key */
  guint machine;    /* the line style */
  gboolean several; /* the kernel ran on more than one machine */
} LegendEntry;

static gboolean
same_kernel (const TlSweepSeries *a, const TlSweepSeries *b)
{
  if (a->kernel_id || b->kernel_id)
    return g_strcmp0 (a->kernel_id, b->kernel_id) == 0;
  return a->label && g_strcmp0 (a->label, b->label) == 0;
}

/* The machines' key, then each kernel once: a kernel run on two machines
 * keeps one colour and marker, and the key tells its lines apart, so no
 * name carries its machine ("… · NVIDIA H200" cut the names short). */
static GArray *
legend_entries (const TlSweepModel *model)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));
  if (model->n_machines > 1)
    for (guint m = 0; m < model->n_machines; m++)
      {
        LegendEntry e = { model->machines[m], G_MAXUINT, m, FALSE };
        g_array_append_val (entries, e);
      }
  guint first_kernel = entries->len;
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      gboolean seen = FALSE;
      for (guint j = first_kernel; j < entries->len && !seen; j++)
        {
          LegendEntry *e = &g_array_index (entries, LegendEntry, j);
          if (same_kernel (&model->series[e->series], se))
            {
              e->several |= e->machine != se->machine;
              seen = TRUE;
            }
        }
      if (!seen)
        {
          LegendEntry e = { se->label, s, se->machine, FALSE };
          g_array_append_val (entries, e);
        }
    }
  return entries;
}

static double
widest_label (const GArray *entries, const TlPaintStyle *style, cairo_t *cr)
{
  double label_w = 0;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      if (e->label)
        label_w = MAX (label_w, tl_paint_text_width (cr, e->label));
    }
  return label_w;
}

/* The legend: every series, in as many columns as the height needs, right
 * of the plot.  Where that would cut the names short (a narrow window) and
 * the height allows, in rows under the plot, as wide as the picture.
 * Returns the height the legend takes from the plot (0 when beside it). */
static double
legend_layout (const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr, double width,
               double avail_h, TlSweepLayout *out)
{
  double font = TL_PX (style, style->font_size);
  g_autoptr (GArray) entries = legend_entries (model);
  guint n = entries->len;
  double label_w = widest_label (entries, style, cr);
  double swatch = font * LEGEND_SWATCH_EM;
  TlLegendGrid *grid = &out->legend;
  tl_paint_legend_grid (style, n, label_w, LEGEND_SWATCH_EM, LEGEND_LABEL_CAP_EM, avail_h, width * 0.45, grid);
  gboolean cut = grid->col_w - swatch - font * 0.8 < MIN (label_w, font * LEGEND_LABEL_MIN_EM) - 0.5;
  if (!cut || n == 0)
    return 0;

  double full_w = width - font * 1.2;
  double col_w = swatch + MIN (label_w, font * LEGEND_LABEL_CAP_EM) + font * 0.8;
  guint cols = (guint) CLAMP (floor (full_w / col_w), 1, n);
  guint rows = (n + cols - 1) / cols;
  double legend_h = rows * grid->row_h + font * 0.5;
  if (avail_h - legend_h < font * PLOT_MIN_EM)
    return 0;
  out->legend.rows = rows;
  out->legend.cols = cols;
  out->legend.col_w = full_w / cols;
  return legend_h;
}

double
tl_paint_sweep_min_height (const TlSweepModel *model, const TlPaintStyle *style)
{
  g_return_val_if_fail (model != NULL && style != NULL, 0);
  double font = TL_PX (style, style->font_size);
  double top = (model->title ? TL_PX (style, style->title_font_size) * 1.35 : 0) + font * 0.9;
  /* the legend under the plot in two columns */
  g_autoptr (GArray) entries = legend_entries (model);
  guint rows = (entries->len + 1) / 2;
  return ceil (top + font * (PLOT_MIN_EM + 3.6) + rows * font * 1.45 + font * 0.5);
}

void
tl_paint_sweep_layout (const TlSweepModel *model, const TlPaintStyle *style,
                       cairo_t *cr, double width, double height, TlSweepLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double n_lo = INFINITY, n_hi = -INFINITY, g_lo = INFINITY, g_hi = -INFINITY;

  *out = (TlSweepLayout) { .square = TRUE };
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      for (guint i = 0; i < se->count; i++)
        {
          if (!point_ok (se, i))
            continue;
          n_lo = MIN (n_lo, se->n[i]);
          n_hi = MAX (n_hi, se->n[i]);
          g_lo = MIN (g_lo, se->gflops[i]);
          g_hi = MAX (g_hi, se->gflops[i]);
          out->square &= point_square (se, i);
        }
    }
  if (!isfinite (n_lo))
    {
      n_lo = 64;
      n_hi = 4096;
      g_lo = 1;
      g_hi = 1000;
    }
  /* a quarter octave and a bit of a decade of air, so no point sits on the frame */
  out->n_lo = pow (2.0, floor (log2 (n_lo)) - 0.25);
  out->n_hi = pow (2.0, ceil (log2 (n_hi)) + 0.25);
  out->g_lo = pow (10.0, floor (log10 (g_lo / 1.25)));
  out->g_hi = pow (10.0, ceil (log10 (g_hi * 1.25)));

  /* under the title, with room for half of the top tick label */
  out->plot_y = (model->title ? TL_PX (style, style->title_font_size) * 1.35 : 0) + font * 0.9;
  double bottom = font * 3.6;
  double avail_h = MAX (height - out->plot_y - bottom, 10);
  double legend_h = legend_layout (model, style, cr, width, avail_h, out);

  out->plot_x = font * 5.2;
  if (legend_h > 0)
    {
      out->plot_w = MAX (width - out->plot_x - font * 1.6, 10);
      out->plot_h = avail_h - legend_h;
      out->legend_x = font * 0.6;
      out->legend_y = out->plot_y + out->plot_h + bottom + font * 0.5;
      return;
    }
  double legend_w = out->legend.cols * out->legend.col_w;
  out->plot_w = MAX (width - out->plot_x - legend_w - font * 1.6, 10);
  out->plot_h = avail_h;
  out->legend_x = out->plot_x + out->plot_w + font * 1.2;
  out->legend_y = out->plot_y;
}

void
tl_sweep_layout_point (const TlSweepLayout *lay, double n, double gflops,
                       double *out_x, double *out_y)
{
  double tx = (log2 (n) - log2 (lay->n_lo)) / (log2 (lay->n_hi) - log2 (lay->n_lo));
  double ty = (log10 (gflops) - log10 (lay->g_lo)) / (log10 (lay->g_hi) - log10 (lay->g_lo));
  *out_x = lay->plot_x + tx * lay->plot_w;
  *out_y = lay->plot_y + (1.0 - ty) * lay->plot_h;
}

/* x ticks: powers of two for cubes; otherwise the problems themselves,
 * "m×k×n", as many as fit side by side. */
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
          if (!point_ok (se, i))
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

static guint
size_ticks (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay, double *at,
            char (*labels)[48], guint max_out)
{
  guint n = 0;
  double px_per_octave = lay->plot_w / log2 (lay->n_hi / lay->n_lo);
  if (lay->square)
    {
      double v[MAX_TICKS];
      n = tl_paint_power_ticks (cr, 2.0, lay->n_lo, lay->n_hi, px_per_octave, FALSE,
                                tl_format_index, v, MIN (max_out, MAX_TICKS));
      for (guint i = 0; i < n; i++)
        {
          at[i] = v[i];
          tl_format_index (v[i], labels[i], sizeof labels[i]);
        }
      return n;
    }

  /* Each problem's label where it clears the labels kept: the odd shapes
   * first ("300×177×411" beside 256 is the one a lecturer points at),
   * then the cubes; a problem whose label does not fit keeps its grid
   * line (an empty label). */
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
        if (cube)
          g_snprintf (buf, sizeof buf, "%.0f", p[1]);
        else
          g_snprintf (buf, sizeof buf, "%.0f×%.0f×%.0f", p[1], p[2], p[3]);
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

  series_look (model, s, &look);
  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
  cairo_set_line_width (cr, TL_LINE (style, se->reference ? 3.0 : 2.0));
  set_dash (cr, style, se->machine);
  for (guint i = 0; i < se->count; i++)
    {
      double x, y;
      if (!point_ok (se, i))
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
      if (!point_ok (se, i))
        continue;
      tl_sweep_layout_point (lay, se->n[i], se->gflops[i], &x, &y);
      tl_paint_marker (cr, look.marker, x, y, TL_PX (style, 4));
    }
  cairo_restore (cr);
}

static void
paint_legend (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
              const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  g_autoptr (GArray) entries = legend_entries (model);
  /* names cut to their column stay told apart ("cuBL…TF32", "cuBL…BF16") */
  const char **names = g_newa (const char *, entries->len + 1);
  for (guint i = 0; i < entries->len; i++)
    names[i] = g_array_index (entries, LegendEntry, i).label;
  g_auto (GStrv) labels = tl_paint_legend_labels (cr, style, names, entries->len, lay->legend.col_w - font * 3.2);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      const TlSweepSeries *se = e->series == G_MAXUINT ? NULL : &model->series[e->series];
      TlKernelLook look;
      double lx, ly;
      tl_paint_legend_entry_at (&lay->legend, lay->legend_x, lay->legend_y, i, &lx, &ly);

      if (se)
        {
          series_look (model, e->series, &look);
          cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
        }
      else
        tl_paint_set_fg (cr, style);
      cairo_set_line_width (cr, TL_LINE (style, se && se->reference ? 3.0 : 2.5));
      set_dash (cr, style, e->several ? 0 : e->machine);
      cairo_move_to (cr, lx, ly);
      cairo_line_to (cr, lx + font * 2.2, ly);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (se)
        tl_paint_marker (cr, look.marker, lx + font * 1.1, ly, TL_PX (style, 4));
      tl_paint_set_fg (cr, style);
      if (e->label)
        tl_paint_text_fit (cr, lx + font * 2.7, ly, 0, 0.5, lay->legend.col_w - font * 3.2, labels[i]);
    }
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
      tl_paint_text_fit (cr, font * 0.6, 0, 0, 0, width - font * 1.2, model->title);
    }
  paint_axes (cr, model, &lay, style);
  for (guint s = 0; s < model->n_series; s++)
    paint_series (cr, model, &lay, s, style);
  paint_legend (cr, model, &lay, style);
  cairo_restore (cr);
}
