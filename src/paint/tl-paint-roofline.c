/* tl-paint-roofline.c — kernels as points under the device's roofs. */
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-roofline-labels.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "gemm/tl-kernels.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

#define MAX_TICKS 64

static double
lowest_peak (const TlRoofline *m)
{
  double low = INFINITY;
  for (int k = 0; k < TL_MATH_COUNT; k++)
    if (m->peak[k] > 0)
      low = MIN (low, m->peak[k]);
  return low;
}

/* the legend's line: "01 naive (uncoalesced)" */
static char *
legend_label (const TlRooflinePoint *p)
{
  const char *title = tl_kernel_title (p->info, p->kernel_id);
  if (p->number > 0)
    return g_strdup_printf ("%02d %s", p->number, title);
  return g_strdup (title);
}

/* ---- layout ----------------------------------------------------------------- */

static void
ranges (const TlRoofline *m, TlRooflineLayout *out)
{
  double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
  for (guint i = 0; i < m->n_points; i++)
    {
      x_lo = MIN (x_lo, m->points[i].intensity);
      x_hi = MAX (x_hi, m->points[i].intensity);
      y_lo = MIN (y_lo, m->points[i].flops_per_s);
      y_hi = MAX (y_hi, m->points[i].flops_per_s);
    }
  double top = tl_roofline_highest_peak (m), low = lowest_peak (m);
  if (top > 0)
    y_hi = MAX (y_hi, top);
  if (isfinite (low))
    y_lo = MIN (y_lo, low / 10.0);
  if (m->dram_bytes_per_s > 0 && top > 0)
    {
      /* both ends of the roofs' knees */
      x_lo = MIN (x_lo, low / m->dram_bytes_per_s);
      x_hi = MAX (x_hi, top / m->dram_bytes_per_s);
    }
  if (!isfinite (x_lo) || x_hi <= 0)
    {
      x_lo = 1;
      x_hi = 1000;
    }
  if (!isfinite (y_lo) || y_hi <= 0)
    {
      y_lo = 1e12;
      y_hi = 1e15;
    }
  /* some air around every point and roof, no more: the ticks stay on
   * whole decades, and the points get the room */
  out->x_lo = x_lo / 1.6;
  out->x_hi = x_hi * 4.0; /* the labels right of the last points */
  out->y_lo = y_lo / 1.6;
  out->y_hi = y_hi * 3.0; /* a line over the top roof: the labels of the points under it */
}

/* The legend's names measured in the legend's type, one a point. */
static double *
legend_widths (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr)
{
  double *widths = g_new0 (double, MAX (m->n_points, 1));
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < m->n_points; i++)
    {
      g_autofree char *label = legend_label (&m->points[i]);
      widths[i] = tl_paint_text_width (cr, label);
    }
  return widths;
}

/* Under the plot (a few points): rows 1.45 lines apart, in avail_h. */
static void
legend_layout_below (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr, double width,
                     double avail_h, TlRooflineLayout *out)
{
  g_autofree double *widths = legend_widths (m, style, cr);
  double label_w = 0;
  for (guint i = 0; i < m->n_points; i++)
    label_w = MAX (label_w, widths[i]);
  tl_paint_legend_grid (style, m->n_points, label_w, 1.6, 18, avail_h, width, &out->legend);
}

/* Beside the plot: rows as text is set (1.25 lines apart) down avail_h,
 * each column as wide as its own longest name, as few columns as leave
 * every name whole in up to 42% of the width — the ladder's nineteen
 * names in one column at 1920×1080 presenting, not two columns of names cut
 * to "03 sha…16×16" at 1.45 lines a row. */
static guint
legend_layout_beside (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr, double width,
                      double avail_h, TlRooflineLayout *out)
{
  g_autofree double *widths = legend_widths (m, style, cr);
  /* and a pixel and a half more, so that no two names touch (≥ 2 px
   * between their boxes at window size, where 1.25 lines left 1.0) */
  double row_h = TL_PX (style, style->font_size) * TL_LEGEND_FIT_ROW_EM + 1.5;
  guint max_rows = (guint) MAX (floor (avail_h / row_h), 1);
  guint cut = tl_paint_legend_grid_fit (style, m->n_points, widths, 1.6, 30, 6, max_rows, width * 0.42,
                                        FALSE, &out->legend);
  out->legend.row_h = row_h;
  return cut;
}

/* How many lines (up to three) the widest point's limiter takes under the
 * plot: every point's, so that the plot stays put as points are selected. */
static guint
limiter_lines (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr, double max_w)
{
  guint lines = 1;
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  for (guint i = 0; i < m->n_points && lines < 3; i++)
    {
      g_autofree char *limit = tl_roofline_limiter_text (m, &m->points[i]);
      lines = MAX (lines, tl_paint_text_wrap_count (cr, max_w, limit));
    }
  return MIN (lines, 3u);
}

/* Beside the plot the legend may run on past its foot, beside the x
 * axis's ticks and title, down to the caption: the ladder's nineteen names
 * in one column at 1024×768 presenting in German, not two columns of names
 * cut to "01 naiv (ohn…".  Where they still need a second column or lose
 * their ends, it may start up beside the title, if the title ends left of
 * it: at 1920×1080 presenting in German the nineteen names whole in one
 * column (down to the caption: 17 rows). */
static void
place_legend_beside (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr, double width,
                     double avail_h, TlRooflineLayout *out)
{
  double font = TL_PX (style, style->font_size), top = font * 0.3;
  guint cut = legend_layout_beside (m, style, cr, width, avail_h + font * 3.0, out);
  out->legend_y = out->plot_y;
  if ((cut > 0 || out->legend.cols > 1) && out->title_lines == 1)
    {
      TlLegendGrid below_title = out->legend;
      guint tall_cut = legend_layout_beside (m, style, cr, width,
                                             avail_h + font * 3.0 + out->plot_y - top, out);
      double legend_x = width - tl_paint_legend_grid_width (&out->legend) - font * 0.4;
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      gboolean clear = font * 0.6 + tl_paint_text_width (cr, m->title) + font * 1.2 <= legend_x;
      if (clear && (tall_cut < cut || (tall_cut == cut && out->legend.cols < below_title.cols)))
        out->legend_y = top;
      else
        out->legend = below_title;
    }
  double legend_w = tl_paint_legend_grid_width (&out->legend);
  out->plot_w = MAX (width - out->plot_x - legend_w - font * 1.6, 10);
  out->plot_h = avail_h;
  out->legend_x = out->plot_x + out->plot_w + font * 1.2;
  out->caption_y = out->plot_y + out->plot_h + font * 3.3;
}

void
tl_paint_roofline_layout (const TlRoofline *m, const TlPaintStyle *style, cairo_t *cr,
                          double width, double height, TlRooflineLayout *out)
{
  g_return_if_fail (m != NULL && style != NULL && out != NULL);
  double font = TL_PX (style, style->font_size);
  memset (out, 0, sizeof *out);
  ranges (m, out);
  out->marker_r = TL_PX (style, 5);
  /* a title wider than the picture ("Roofline — NVIDIA H100 80GB HBM3" on
   * a narrow page) on two lines rather than cut */
  tl_paint_set_font (cr, style, style->title_font_size, TRUE);
  out->title_lines = MIN (tl_paint_text_wrap_count (cr, width - font * 1.2, m->title), 2u);
  out->title_lines = MAX (out->title_lines, 1u);
  double title_h = TL_PX (style, style->title_font_size) * 1.35;
  out->plot_y = title_h * out->title_lines + font * 0.9;
  /* tick labels, the axis title, the caption (the numbers, what limits
   * the point on up to two lines) and the note's line */
  out->limiter_lines = limiter_lines (m, style, cr, width - font * 1.2);
  double bottom = font * 3.3 + font * 0.4
                  + font * 1.45 * (1 + out->limiter_lines + (m->note != NULL && m->n_points > 0));
  double avail_h = MAX (height - out->plot_y - bottom, 10);
  out->plot_x = font * 5.2;
  /* a few points (a rung beside the rung below) on a picture not much
   * wider than high: the legend under the plot, a line each, so the plot
   * keeps the width, and the caption's limiter up to three lines */
  out->legend_below = m->n_points > 0 && m->n_points <= 4 && width < 2 * height;
  if (out->legend_below)
    {
      legend_layout_below (m, style, cr, width - font * 1.2, font * 1.45 * m->n_points + 1, out);
      double legend_h = out->legend.rows * out->legend.row_h + 2 * font * 1.45;
      out->plot_w = MAX (width - out->plot_x - font * 1.6, 10);
      /* the limiter's second line is the legend's second spare one */
      out->plot_h = MAX (avail_h - legend_h + font * 1.45 * (out->limiter_lines - 1), 10);
      out->legend_x = font * 0.6;
      out->legend_y = out->plot_y + out->plot_h + font * 3.3;
      out->caption_y = out->legend_y + out->legend.rows * out->legend.row_h + font * 0.3;
      return;
    }
  place_legend_beside (m, style, cr, width, avail_h, out);
}

int
tl_roofline_layout_hit (const TlRooflineLayout *lay, const TlRoofline *m, double x, double y)
{
  g_return_val_if_fail (lay != NULL && m != NULL, -1);
  int best = -1;
  double best_d = lay->marker_r * 1.5;
  for (guint i = 0; i < m->n_points; i++)
    {
      double px, py;
      tl_roofline_layout_point (lay, m->points[i].intensity, m->points[i].flops_per_s, &px, &py);
      double d = hypot (px - x, py - y);
      if (d <= best_d)
        {
          best_d = d;
          best = (int) i;
        }
    }
  return best;
}

/* ---- axes ------------------------------------------------------------------- */

static void
paint_x_axis (cairo_t *cr, const TlRooflineLayout *lay, const TlPaintStyle *style)
{
  double v[MAX_TICKS];
  char buf[64];
  double px_per_decade = lay->plot_w / log10 (lay->x_hi / lay->x_lo);
  TlTickFormat format = tl_format_for_decades (lay->x_lo, lay->x_hi);
  guint n = tl_paint_power_ticks (cr, 10.0, lay->x_lo, lay->x_hi, px_per_decade, FALSE, format,
                                  v, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double x, y;
      tl_roofline_layout_point (lay, v[i], lay->y_lo, &x, &y);
      format (v[i], buf, sizeof buf);
      tl_paint_x_tick (cr, style, round (x) + 0.5, lay->plot_y, lay->plot_h, buf);
    }
}

/* the y axis in TFLOP/s: plain numbers read better than 10¹³ FLOP/s */
static void
paint_y_axis (cairo_t *cr, const TlRooflineLayout *lay, const TlPaintStyle *style)
{
  double v[MAX_TICKS];
  char buf[64];
  double lo = lay->y_lo / 1e12, hi = lay->y_hi / 1e12;
  double px_per_decade = lay->plot_h / log10 (hi / lo);
  TlTickFormat format = tl_format_for_decades (lo, hi);
  guint n = tl_paint_power_ticks (cr, 10.0, lo, hi, px_per_decade, TRUE, format, v, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double x, y;
      tl_roofline_layout_point (lay, lay->x_lo, v[i] * 1e12, &x, &y);
      format (v[i], buf, sizeof buf);
      tl_paint_y_tick (cr, style, round (y) + 0.5, lay->plot_x, lay->plot_w, buf);
    }
}

static void
paint_axes (cairo_t *cr, const TlRooflineLayout *lay, const TlPaintStyle *style)
{
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width * 0.5));
  paint_x_axis (cr, lay, style);
  paint_y_axis (cr, lay, style);
  /* shorter wordings where the long ones do not fit (a narrow window) */
  g_autofree char *x_title = g_strjoin ("\n", _("arithmetic intensity: FLOPs counted per DRAM byte, log scale"),
                                        _("FLOPs per DRAM byte, log scale"), _("FLOP/byte (log)"), NULL);
  g_autofree char *y_title = g_strjoin ("\n", _("achieved TFLOP/s, log scale"), _("TFLOP/s (log)"), NULL);
  tl_paint_plot_frame_titles (cr, style, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h,
                              lay->plot_w, x_title, y_title);
}

/* ---- roofs ------------------------------------------------------------------ */

/* "1.07 PFLOP/s", "66.9 TFLOP/s" */
static void
format_rate (double flops_per_s, char *buf, gsize size)
{
  tl_format_gflops (flops_per_s / 1e9, buf, size);
}

/* A slanted roof: bandwidth × intensity, up to the highest flat roof. */
static void
paint_slant (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
             const TlPaintStyle *style, double bandwidth, gboolean dashed)
{
  double top = tl_roofline_highest_peak (m) > 0 ? tl_roofline_highest_peak (m) : lay->y_hi;
  double x0, y0, x1, y1;
  tl_roofline_layout_point (lay, lay->x_lo, bandwidth * lay->x_lo, &x0, &y0);
  tl_roofline_layout_point (lay, top / bandwidth, top, &x1, &y1);
  tl_paint_set_fg_alpha (cr, style, dashed ? 0.55 : 0.85);
  cairo_set_line_width (cr, TL_LINE (style, dashed ? 1.5 : 2.0));
  double d[] = { TL_PX (style, 6), TL_PX (style, 4) };
  cairo_set_dash (cr, d, dashed ? 2 : 0, 0);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* The flat roofs: each from its knee on the DRAM roof to the right edge;
 * their lines taken, since a label on one would be read as that roof's. */
static void
paint_flat (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
            const TlPaintStyle *style, TlTaken *taken)
{
  double peaks[TL_MATH_COUNT];
  char names[TL_MATH_COUNT][64];
  guint n = tl_roofline_flat_roofs (m, peaks, names, TL_MATH_COUNT);
  tl_paint_set_fg_alpha (cr, style, 0.85);
  cairo_set_line_width (cr, TL_LINE (style, 2.0));
  for (guint i = 0; i < n; i++)
    {
      double knee = m->dram_bytes_per_s > 0 ? peaks[i] / m->dram_bytes_per_s : lay->x_lo;
      double x0, y, x1, y1;
      tl_roofline_layout_point (lay, MAX (knee, lay->x_lo), peaks[i], &x0, &y);
      tl_roofline_layout_point (lay, lay->x_hi, peaks[i], &x1, &y1);
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
      cairo_stroke (cr);
      tl_taken_add (taken, TL_TAKEN_LINE, x0, y - TL_PX (style, 1), x1 - x0, TL_PX (style, 2));
    }
}

static void
paint_roofs (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
             const TlPaintStyle *style, TlTaken *taken)
{
  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);
  if (m->l2_bytes_per_s > 0)
    paint_slant (cr, m, lay, style, m->l2_bytes_per_s, TRUE);
  if (m->dram_bytes_per_s > 0)
    paint_slant (cr, m, lay, style, m->dram_bytes_per_s, FALSE);
  paint_flat (cr, m, lay, style, taken);
  cairo_restore (cr);
}

/* The roofs' labels where they fit clear of the markers and the lines,
 * the slanted ones first (they have only their line to go along); then
 * the points' labels, which may move a roof's along its roof. */
static TlPointLabel *
place_labels (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
              const TlPaintStyle *style, const TlTaken *base, TlRoofLabels *roofs)
{
  g_autofree TlTaken *taken = g_new (TlTaken, 1);
  *taken = *base;
  tl_roof_labels_measure (cr, m, lay, style, roofs);
  for (guint c = 0; c < roofs->n; c++)
    if (tl_roof_label_place (&roofs->label[c], m, lay, taken))
      tl_roof_label_take (&roofs->label[c], taken);
  return tl_roofline_place_point_labels (cr, m, lay, style, base, roofs);
}

/* ---- points ------------------------------------------------------------------ */

/* Every marker's place, so that no label is put over a point. */
static void
take_markers (const TlRoofline *m, const TlRooflineLayout *lay, TlTaken *taken)
{
  double r = lay->marker_r;
  for (guint i = 0; i < m->n_points; i++)
    {
      double x, y;
      tl_roofline_layout_point (lay, m->points[i].intensity, m->points[i].flops_per_s, &x, &y);
      tl_taken_add (taken, TL_TAKEN_MARKER, x - r, y - r, 2 * r, 2 * r);
    }
}

static void
paint_points (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
              const TlPaintStyle *style, int selected)
{
  double r = lay->marker_r;
  for (guint i = 0; i < m->n_points; i++)
    {
      double x, y;
      TlKernelLook look;
      tl_roofline_layout_point (lay, m->points[i].intensity, m->points[i].flops_per_s, &x, &y);
      tl_kernel_look (m->points[i].kernel_id, &look);
      cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
      tl_paint_marker (cr, look.marker, x, y, r);
      if ((int) i == selected)
        {
          cairo_set_source_rgb (cr, style->accent[0], style->accent[1], style->accent[2]);
          cairo_set_line_width (cr, TL_LINE (style, 2.5));
          cairo_arc (cr, x, y, r * 2.0, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
    }
}

/* ---- legend and caption ------------------------------------------------------ */

static void
paint_legend (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
              const TlPaintStyle *style, int selected)
{
  double font = TL_PX (style, style->font_size);
  /* names cut to their column stay told apart ("10 tensor…TF32)") */
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < m->n_points; i++)
    g_ptr_array_add (names, legend_label (&m->points[i]));
  g_auto (GStrv) labels = tl_paint_legend_labels (cr, style, (const char *const *) names->pdata,
                                                  m->n_points, lay->legend.col_w - font * 2.0);
  for (guint i = 0; i < m->n_points; i++)
    {
      TlKernelLook look;
      double lx, ly;
      tl_paint_legend_entry_at (&lay->legend, lay->legend_x, lay->legend_y, i, &lx, &ly);
      tl_kernel_look (m->points[i].kernel_id, &look);
      cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
      tl_paint_marker (cr, look.marker, lx + font * 0.6, ly, TL_PX (style, 4.5));
      /* the selected entry ringed as its point is; its label stays regular
       * weight, so that it fits the width measured for every label */
      if ((int) i == selected)
        {
          cairo_set_source_rgb (cr, style->accent[0], style->accent[1], style->accent[2]);
          cairo_set_line_width (cr, TL_LINE (style, 2.0));
          cairo_arc (cr, lx + font * 0.6, ly, TL_PX (style, 4.5) * 2.0, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      tl_paint_set_fg (cr, style);
      tl_paint_text_fit (cr, lx + font * 1.6, ly, 0, 0.5,
                         tl_paint_legend_entry_width (&lay->legend, i) - font * 2.0, labels[i]);
    }
}

/* One line of the caption: its type a little smaller (never under 11 px at
 * scale 1, what the back row reads) rather than the line cut, and in fewer
 * words where even that does not fit (choices, one a line); the fewest
 * wrapped onto up to max_lines lines.  Returns the lines it took. */
static guint
caption_line (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w,
              gboolean bold, guint max_lines, const char *choices)
{
  g_auto (GStrv) lines = g_strsplit (choices, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      tl_paint_fit_font (cr, style, style->font_size, style->font_size * 11.0 / 12.0, bold, max_w, lines[i]);
      if (tl_paint_text_width (cr, lines[i]) <= max_w)
        {
          tl_paint_text (cr, x, y, 0, 0, lines[i]);
          return 1;
        }
      if (lines[i + 1] == NULL)
        return tl_paint_text_wrap (cr, x, y, max_w, TL_PX (style, style->font_size) * 1.45, max_lines,
                                   lines[i]);
    }
  return 0;
}

/* Under the plot: the selected point, its numbers and what limits it (or
 * how to read the picture), then what the record lacks. */
static void
paint_caption (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
               const TlPaintStyle *style, int selected, double width)
{
  double font = TL_PX (style, style->font_size);
  double x = font * 0.6, max_w = width - font * 1.2, y = lay->caption_y;
  tl_paint_set_fg (cr, style);
  if (selected >= 0 && (guint) selected < m->n_points)
    {
      const TlRooflinePoint *p = &m->points[selected];
      char rate[64], ai[G_ASCII_DTOSTR_BUF_SIZE];
      format_rate (p->flops_per_s, rate, sizeof rate);
      g_ascii_formatd (ai, sizeof ai, p->intensity >= 9.95 ? "%.0f" : "%.2f", p->intensity);
      g_autofree char *who = legend_label (p);
      g_autofree char *number = p->number > 0 ? g_strdup_printf ("%02d", p->number) : g_strdup (who);
      /* TRANSLATORS: "09 warp tiling: 43.8 TFLOP/s at 170 FLOP per DRAM byte" */
      g_autofree char *whole = g_strdup_printf (_("%s: %s at %s FLOP per DRAM byte"), who, rate, ai);
      /* where that is too wide, the rung by its number: "09: 43.8 TFLOP/s at …" */
      g_autofree char *brief = g_strdup_printf (_("%s: %s at %s FLOP per DRAM byte"), number, rate, ai);
      /* TRANSLATORS: the same in fewest words: "09: 43.8 TFLOP/s, 170 FLOP/B" */
      g_autofree char *fewest = g_strdup_printf (_("%s: %s, %s FLOP/B"), number, rate, ai);
      g_autofree char *numbers = g_strjoin ("\n", whole, brief, fewest, NULL);
      g_autofree char *limit = tl_roofline_limiter_text (m, p);
      caption_line (cr, style, x, y, max_w, FALSE, 1, numbers);
      y += font * 1.45;
      /* what limits it wrapped, never cut ("26% of…") */
      tl_paint_set_font (cr, style, style->font_size, TRUE);
      y += tl_paint_text_wrap (cr, x, y, max_w, font * 1.45, lay->legend_below ? 3 : lay->limiter_lines, limit) * font * 1.45;
    }
  else if (m->n_points > 0)
    {
      g_autofree char *how = g_strjoin ("\n",
                                        _("Each point is a kernel: its FLOPs counted per DRAM byte across, per second of its median time up."),
                                        _("Each point is a kernel: FLOPs per DRAM byte across, FLOP/s up."), NULL);
      y += caption_line (cr, style, x, y, max_w, FALSE, lay->limiter_lines, how) * font * 1.45;
      y += caption_line (cr, style, x, y, max_w, FALSE, 1, _("Select a point to see what limits it."))
           * font * 1.45;
    }
  if (m->note != NULL && m->n_points > 0)
    {
      cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
      caption_line (cr, style, x, y, max_w, FALSE, 1, m->note);
    }
}

/* Nothing to place: why, in a box low in the plot, below the compute roofs
 * (their labels sit at the top right). */
static void
paint_empty (cairo_t *cr, const TlRoofline *m, const TlRooflineLayout *lay,
             const TlPaintStyle *style)
{
  if (m->n_points > 0 || m->note == NULL)
    return;
  cairo_save (cr);
  cairo_translate (cr, lay->plot_x, lay->plot_y);
  tl_paint_hint_boxed (cr, style, lay->plot_w, lay->plot_h * 0.8, m->note);
  cairo_restore (cr);
}

/* ---- the arrow ----------------------------------------------------------------- */

gboolean
tl_roofline_arrow_segment (const TlRooflineLayout *lay, const TlRoofline *m, guint from, guint to,
                           double seg[4])
{
  g_return_val_if_fail (lay != NULL && m != NULL, FALSE);
  if (from >= m->n_points || to >= m->n_points)
    return FALSE;
  double x0, y0, x1, y1;
  const TlRooflinePoint *a = &m->points[from], *b = &m->points[to];
  tl_roofline_layout_point (lay, a->intensity, a->flops_per_s, &x0, &y0);
  tl_roofline_layout_point (lay, b->intensity, b->flops_per_s, &x1, &y1);
  double len = hypot (x1 - x0, y1 - y0), gap = lay->marker_r * 1.8;
  if (len <= 2 * gap + lay->marker_r)
    return FALSE;
  double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
  seg[0] = x0 + ux * gap;
  seg[1] = y0 + uy * gap;
  seg[2] = x1 - ux * gap;
  seg[3] = y1 - uy * gap;
  return TRUE;
}

static void
paint_arrow (cairo_t *cr, const TlPaintStyle *style, const TlRooflineLayout *lay, const double seg[4])
{
  double len = hypot (seg[2] - seg[0], seg[3] - seg[1]);
  double ux = (seg[2] - seg[0]) / len, uy = (seg[3] - seg[1]) / len, ex = seg[2], ey = seg[3];
  double head = MIN (lay->marker_r * 2.2, len / 3);
  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, 2));
  cairo_move_to (cr, seg[0], seg[1]);
  cairo_line_to (cr, ex - ux * head * 0.8, ey - uy * head * 0.8);
  cairo_stroke (cr);
  cairo_move_to (cr, ex, ey);
  cairo_line_to (cr, ex - ux * head - uy * head * 0.5, ey - uy * head + ux * head * 0.5);
  cairo_line_to (cr, ex - ux * head + uy * head * 0.5, ey - uy * head - ux * head * 0.5);
  cairo_close_path (cr);
  cairo_fill (cr);
}

void
tl_paint_roofline (cairo_t *cr, const TlRoofline *m, int selected, const TlPaintStyle *style,
                   double width, double height)
{
  tl_paint_roofline_arrow (cr, m, selected, G_MAXUINT, G_MAXUINT, style, width, height);
}

void
tl_paint_roofline_arrow (cairo_t *cr, const TlRoofline *m, int selected, guint from, guint to,
                         const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && m != NULL && style != NULL);
  TlRooflineLayout lay;
  double font = TL_PX (style, style->font_size);
  /* no text flush against another ("17" touching "FP32 · FP64 tensor
   * 66.9 TFLOP/s"): every roof's and point's label keeps a few pixels */
  g_autofree TlTaken *taken = g_new0 (TlTaken, 1);
  TlRoofLabels roofs;
  taken->text_gap = 2.5;

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  tl_paint_roofline_layout (m, style, cr, width, height, &lay);
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->title_font_size, TRUE);
  tl_paint_text_wrap (cr, font * 0.6, 0, width - font * 1.2, TL_PX (style, style->title_font_size) * 1.35,
                      lay.title_lines, m->title);
  paint_axes (cr, &lay, style);
  take_markers (m, &lay, taken);
  paint_roofs (cr, m, &lay, style, taken);
  /* the arrow taken as a leader: no label over it, no leader across it */
  double arrow[4];
  gboolean has_arrow = tl_roofline_arrow_segment (&lay, m, from, to, arrow);
  if (has_arrow)
    tl_taken_add_leader (taken, arrow);
  g_autofree TlPointLabel *labels = place_labels (cr, m, &lay, style, taken, &roofs);
  tl_roof_labels_draw (cr, style, &roofs);
  paint_points (cr, m, &lay, style, selected);
  tl_roofline_draw_point_labels (cr, m, &lay, style, labels);
  if (has_arrow)
    paint_arrow (cr, style, &lay, arrow);
  paint_legend (cr, m, &lay, style, selected);
  paint_caption (cr, m, &lay, style, selected, width);
  paint_empty (cr, m, &lay, style);
  cairo_restore (cr);
}
