/* tl-paint-compare.c — bar chart of kernels and the size-sweep chart. */
#include "paint/tl-paint-compare.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "paint/tl-paint-util.h"

#define MAX_TICKS 24

void
tl_compare_model_init (TlCompareModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlCompareModel) {0};
  model->reference_index = -1;
  model->baseline_index = -1;
  model->selected_index = -1;
  model->reference_name = "cuBLAS";
  model->baseline_name = "CPU naive";
}

static gboolean
bar_ok (const TlCompareBar *b)
{
  return b->failed == NULL && b->median_ms > 0 && isfinite (b->median_ms);
}

double
tl_compare_bar_value (const TlCompareModel *model, guint index, double *out_lo, double *out_hi)
{
  g_return_val_if_fail (model != NULL && index < model->n_bars, NAN);

  const TlCompareBar *b = &model->bars[index];
  double v, lo, hi;

  if (!bar_ok (b))
    {
      if (out_lo)
        *out_lo = NAN;
      if (out_hi)
        *out_hi = NAN;
      return NAN;
    }

  double min_ms = b->min_ms > 0 ? b->min_ms : b->median_ms;
  double max_ms = b->max_ms > 0 ? b->max_ms : b->median_ms;
  if (model->metric == TL_COMPARE_GFLOPS)
    {
      /* flops / (ms · 1e-3 s) / 1e9 */
      v = b->flops / (b->median_ms * 1e6);
      lo = b->flops / (max_ms * 1e6);
      hi = b->flops / (min_ms * 1e6);
    }
  else
    {
      v = b->median_ms;
      lo = min_ms;
      hi = max_ms;
    }
  if (out_lo)
    *out_lo = lo;
  if (out_hi)
    *out_hi = hi;
  return v;
}

/* The annotation of bar i: the number (bold) and the ratios (second line). */
static void
bar_note (const TlCompareModel *model, guint i, char *num, gsize num_size, GString *note)
{
  const TlCompareBar *b = &model->bars[i];
  const TlCompareBar *ref = NULL, *base = NULL;
  double v = tl_compare_bar_value (model, i, NULL, NULL);

  if (model->reference_index >= 0 && (guint) model->reference_index < model->n_bars
      && bar_ok (&model->bars[model->reference_index]))
    ref = &model->bars[model->reference_index];
  if (model->baseline_index >= 0 && (guint) model->baseline_index < model->n_bars
      && bar_ok (&model->bars[model->baseline_index]))
    base = &model->bars[model->baseline_index];

  g_string_truncate (note, 0);
  num[0] = '\0';
  if (isnan (v))
    return;
  if (model->metric == TL_COMPARE_GFLOPS)
    tl_paint_format_gflops (v, num, num_size);
  else
    tl_paint_format_ms (v, num, num_size);
  if (b->reference_label != NULL)
    {
      if (!b->reference && !isnan (b->percent_of_reference) && b->percent_of_reference > 0)
        g_string_append_printf (note, _("%.0f%% of %s"), b->percent_of_reference,
                                b->reference_label);
    }
  else if (ref && b != ref)
    g_string_append_printf (note, _("%.0f%% of %s"),
                            100.0 * ref->median_ms / b->median_ms, model->reference_name);
  if (base && b != base)
    {
      double sp = base->median_ms / b->median_ms;
      if (note->len)
        g_string_append (note, " · ");
      g_string_append_printf (note, sp >= 10 ? _("%.0f× %s") : _("%.1f× %s"),
                              sp, model->baseline_name);
    }
}

static const char *
metric_axis_label (TlCompareMetric metric)
{
  return metric == TL_COMPARE_GFLOPS ? _("GFLOP/s (higher is better)")
                                     : _("time per multiply, ms (lower is better)");
}

void
tl_paint_compare_layout (const TlCompareModel *model, const TlPaintStyle *style,
                         cairo_t *cr, double width, double height, TlCompareLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double label_w = 0;
  double lo = INFINITY, hi = -INFINITY;

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint i = 0; i < model->n_bars; i++)
    {
      double a, b;
      if (model->bars[i].label)
        label_w = MAX (label_w, tl_paint_text_width (cr, model->bars[i].label));
      if (isnan (tl_compare_bar_value (model, i, &a, &b)))
        continue;
      lo = MIN (lo, a);
      hi = MAX (hi, b);
    }
  label_w = MIN (label_w, width * 0.32);

  double top = (model->title ? TL_PX (style, style->title_font_size) * 1.6 : font * 0.6);
  double bottom = font * 3.4; /* tick labels and the axis label */
  double annot_w = font * 6;
  {
    GString *note = g_string_new (NULL);
    char num[64];
    for (guint i = 0; i < model->n_bars; i++)
      {
        bar_note (model, i, num, sizeof num, note);
        annot_w = MAX (annot_w, tl_paint_text_width (cr, note->str) + font);
        /* the number itself is bold */
        tl_paint_set_font (cr, style, style->font_size, TRUE);
        annot_w = MAX (annot_w, tl_paint_text_width (cr, num) + font);
        tl_paint_set_font (cr, style, style->font_size, FALSE);
      }
    g_string_free (note, TRUE);
  }
  annot_w = MIN (annot_w, width * 0.42);

  out->plot_x = font * 0.6 + label_w + font * 0.8;
  out->plot_y = top;
  out->plot_w = MAX (width - out->plot_x - annot_w - font * 0.6, 10);
  out->plot_h = MAX (height - top - bottom, 10);
  out->row_h = model->n_bars ? MIN (out->plot_h / model->n_bars, font * 3.4) : out->plot_h;
  out->bar_h = out->row_h * 0.6;

  if (!isfinite (lo))
    {
      lo = 0.1;
      hi = 1.0;
    }
  gboolean log_axis = model->axis == TL_COMPARE_AXIS_LOG
                      || (model->axis == TL_COMPARE_AXIS_AUTO && lo > 0 && hi / lo > 30);
  out->log_axis = log_axis;
  if (log_axis)
    {
      out->lo = pow (10.0, floor (log10 (lo)));
      out->hi = pow (10.0, ceil (log10 (hi)));
      if (out->hi <= out->lo)
        out->hi = out->lo * 10;
    }
  else
    {
      double ticks[MAX_TICKS];
      guint n = tl_paint_nice_ticks (0, hi, 5, ticks, MAX_TICKS);
      double step = n >= 2 ? ticks[1] - ticks[0] : hi;
      out->lo = 0;
      out->hi = step > 0 ? ceil (hi / step - 1e-9) * step : hi;
      if (!(out->hi > 0))
        out->hi = 1;
    }
}

double
tl_compare_layout_x (const TlCompareLayout *layout, double value)
{
  double t;
  if (layout->log_axis)
    t = (log10 (MAX (value, layout->lo * 1e-3)) - log10 (layout->lo))
        / (log10 (layout->hi) - log10 (layout->lo));
  else
    t = (value - layout->lo) / (layout->hi - layout->lo);
  return layout->plot_x + CLAMP (t, 0.0, 1.0) * layout->plot_w;
}

gint
tl_paint_compare_bar_at (const TlCompareModel *model, const TlPaintStyle *style,
                         double width, double height, double x, double y)
{
  g_return_val_if_fail (model != NULL && style != NULL, -1);

  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  TlCompareLayout lay;
  gint hit = -1;

  tl_paint_compare_layout (model, style, cr, width, height, &lay);
  if (y >= lay.plot_y && x >= 0 && x < width)
    {
      gint i = (gint) floor ((y - lay.plot_y) / lay.row_h);
      if (i >= 0 && (guint) i < model->n_bars)
        hit = i;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return hit;
}

static void
bar_rgb (const TlCompareBar *b, const TlPaintStyle *style, double rgb[3])
{
  /* Okabe–Ito: blue for GPU rungs, orange for references, grey for the CPU */
  if (b->reference)
    tl_paint_series_rgb (1, rgb);
  else if (b->cpu)
    rgb[0] = rgb[1] = rgb[2] = style->high_contrast ? 0.3 : 0.55;
  else
    tl_paint_series_rgb (0, rgb);
}

/* grid: the light lines behind the bars; otherwise ticks, labels and axes */
static void
paint_value_axis (cairo_t *cr, const TlCompareModel *model, const TlCompareLayout *lay,
                  const TlPaintStyle *style, gboolean grid)
{
  double font = TL_PX (style, style->font_size);
  double ticks[MAX_TICKS];
  guint n = 0;
  double y_axis = lay->plot_y + lay->plot_h;

  if (lay->log_axis)
    {
      int e0 = (int) round (log10 (lay->lo)), e1 = (int) round (log10 (lay->hi));
      int stride = (e1 - e0) > 8 ? 2 : 1;
      for (int e = e0; e <= e1 && n < MAX_TICKS; e += stride)
        ticks[n++] = pow (10.0, e);
    }
  else
    n = tl_paint_nice_ticks (lay->lo, lay->hi, 5, ticks, MAX_TICKS);

  cairo_set_line_width (cr, TL_PX (style, style->line_width * 0.5));
  for (guint i = 0; i < n; i++)
    {
      double x = round (tl_compare_layout_x (lay, ticks[i])) + 0.5;
      char buf[64];

      if (grid)
        {
          cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2], 0.18);
          cairo_move_to (cr, x, lay->plot_y);
          cairo_line_to (cr, x, y_axis);
          cairo_stroke (cr);
          continue;
        }
      tl_paint_set_fg (cr, style);
      cairo_move_to (cr, x, y_axis);
      cairo_line_to (cr, x, y_axis + TL_PX (style, 4));
      cairo_stroke (cr);
      tl_paint_format_value (ticks[i], buf, sizeof buf);
      tl_paint_text (cr, x, y_axis + TL_PX (style, 5), 0.5, 0.0, buf);
    }
  if (grid)
    return;

  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  cairo_move_to (cr, lay->plot_x, lay->plot_y);
  cairo_line_to (cr, lay->plot_x, y_axis);
  cairo_line_to (cr, lay->plot_x + lay->plot_w, y_axis);
  cairo_stroke (cr);

  GString *axis = g_string_new (metric_axis_label (model->metric));
  if (lay->log_axis)
    g_string_append (axis, _(", log scale"));
  tl_paint_text (cr, lay->plot_x + lay->plot_w / 2, y_axis + font * 1.8, 0.5, 0.0, axis->str);
  g_string_free (axis, TRUE);
}

void
tl_paint_compare (cairo_t *cr, const TlCompareModel *model,
                  const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlCompareLayout lay;
  double font = TL_PX (style, style->font_size);
  

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  tl_paint_compare_layout (model, style, cr, width, height, &lay);

  if (model->title)
    {
      tl_paint_set_fg (cr, style);
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text (cr, font * 0.6, 0, 0, 0, model->title);
    }
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  paint_value_axis (cr, model, &lay, style, TRUE);

  for (guint i = 0; i < model->n_bars; i++)
    {
      const TlCompareBar *b = &model->bars[i];
      double row_y = lay.plot_y + i * lay.row_h;
      double cy = row_y + lay.row_h / 2;
      double lo, hi, v, rgb[3];

      if ((gint) i == model->selected_index)
        {
          cairo_set_source_rgba (cr, 0.2, 0.5, 1.0, 0.14);
          cairo_rectangle (cr, 0, row_y, width, lay.row_h);
          cairo_fill (cr);
        }

      tl_paint_set_fg (cr, style);
      if (b->label)
        {
          cairo_save (cr);
          cairo_rectangle (cr, 0, row_y, lay.plot_x - font * 0.4, lay.row_h);
          cairo_clip (cr);
          tl_paint_text (cr, lay.plot_x - font * 0.8, cy, 1.0, 0.5, b->label);
          cairo_restore (cr);
        }

      v = tl_compare_bar_value (model, i, &lo, &hi);
      if (isnan (v))
        {
          cairo_set_source_rgb (cr, 0.75, 0.1, 0.1);
          tl_paint_text (cr, lay.plot_x + font * 0.5, cy, 0, 0.5,
                         b->failed ? b->failed : _("no result"));
          continue;
        }

      double x1 = tl_compare_layout_x (&lay, v);
      bar_rgb (b, style, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, lay.plot_x, cy - lay.bar_h / 2, x1 - lay.plot_x, lay.bar_h);
      cairo_fill (cr);

      /* whisker: min–max over the repeats */
      double wl = tl_compare_layout_x (&lay, lo), wh = tl_compare_layout_x (&lay, hi);
      tl_paint_set_fg (cr, style);
      cairo_set_line_width (cr, TL_PX (style, 1.5));
      cairo_move_to (cr, wl, cy);
      cairo_line_to (cr, wh, cy);
      cairo_move_to (cr, wl, cy - lay.bar_h / 4);
      cairo_line_to (cr, wl, cy + lay.bar_h / 4);
      cairo_move_to (cr, wh, cy - lay.bar_h / 4);
      cairo_line_to (cr, wh, cy + lay.bar_h / 4);
      cairo_stroke (cr);

      /* annotation: the number, and under it the share of the reference
       * and the speed-up over the baseline */
      char num[64];
      GString *note = g_string_new (NULL);
      bar_note (model, i, num, sizeof num, note);
      double ax = lay.plot_x + lay.plot_w + font * 0.6;
      gboolean two = note->len > 0 && lay.row_h >= font * 2.4;
      cairo_save (cr);
      cairo_rectangle (cr, ax, row_y, width - ax, lay.row_h);
      cairo_clip (cr);
      tl_paint_set_font (cr, style, style->font_size, TRUE);
      tl_paint_text (cr, ax, two ? cy - font * 0.05 : cy, 0, two ? 1.0 : 0.5, num);
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      if (two)
        tl_paint_text (cr, ax, cy + font * 0.05, 0, 0.0, note->str);
      else if (note->len)
        {
          double wn = tl_paint_text_width (cr, num);
          tl_paint_text (cr, ax + wn + font * 0.9, cy, 0, 0.5, note->str);
        }
      cairo_restore (cr);
      g_string_free (note, TRUE);
    }

  paint_value_axis (cr, model, &lay, style, FALSE);
  cairo_restore (cr);
}

/* ---- size sweep ------------------------------------------------------- */

void
tl_paint_sweep_layout (const TlSweepModel *model, const TlPaintStyle *style,
                       cairo_t *cr, double width, double height, TlSweepLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double legend_w = 0;
  double n_lo = INFINITY, n_hi = -INFINITY, g_lo = INFINITY, g_hi = -INFINITY;

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      if (se->label)
        legend_w = MAX (legend_w, tl_paint_text_width (cr, se->label));
      for (guint i = 0; i < se->count; i++)
        {
          if (!(se->n[i] > 0) || !(se->gflops[i] > 0) || !isfinite (se->gflops[i]))
            continue;
          n_lo = MIN (n_lo, se->n[i]);
          n_hi = MAX (n_hi, se->n[i]);
          g_lo = MIN (g_lo, se->gflops[i]);
          g_hi = MAX (g_hi, se->gflops[i]);
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

  legend_w = MIN (legend_w + font * 3.2, width * 0.35);
  out->plot_x = font * 5.5;
  out->plot_y = model->title ? TL_PX (style, style->title_font_size) * 1.6 : font;
  out->plot_w = MAX (width - out->plot_x - legend_w - font, 10);
  out->plot_h = MAX (height - out->plot_y - font * 3.6, 10);
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

void
tl_paint_sweep (cairo_t *cr, const TlSweepModel *model,
                const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlSweepLayout lay;
  double font = TL_PX (style, style->font_size);
  char buf[64];

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  tl_paint_sweep_layout (model, style, cr, width, height, &lay);

  tl_paint_set_fg (cr, style);
  if (model->title)
    {
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text (cr, font * 0.6, 0, 0, 0, model->title);
    }
  tl_paint_set_font (cr, style, style->font_size, FALSE);

  /* grid and ticks: powers of two along n, decades along GFLOP/s */
  cairo_set_line_width (cr, TL_PX (style, style->line_width * 0.5));
  double n_first = pow (2.0, ceil (log2 (lay.n_lo)));
  int steps = (int) floor (log2 (lay.n_hi / n_first));
  int stride = steps > 8 ? 2 : 1;
  for (int e = 0; e <= steps; e += stride)
    {
      double n = n_first * pow (2.0, e), x, y;
      tl_sweep_layout_point (&lay, n, lay.g_lo, &x, &y);
      x = round (x) + 0.5;
      cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2], 0.18);
      cairo_move_to (cr, x, lay.plot_y);
      cairo_line_to (cr, x, lay.plot_y + lay.plot_h);
      cairo_stroke (cr);
      tl_paint_set_fg (cr, style);
      g_snprintf (buf, sizeof buf, "%.0f", n);
      tl_paint_text (cr, x, lay.plot_y + lay.plot_h + TL_PX (style, 4), 0.5, 0, buf);
    }
  int e0 = (int) round (log10 (lay.g_lo)), e1 = (int) round (log10 (lay.g_hi));
  for (int e = e0; e <= e1; e++)
    {
      double x, y;
      tl_sweep_layout_point (&lay, lay.n_lo, pow (10.0, e), &x, &y);
      y = round (y) + 0.5;
      cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2], 0.18);
      cairo_move_to (cr, lay.plot_x, y);
      cairo_line_to (cr, lay.plot_x + lay.plot_w, y);
      cairo_stroke (cr);
      tl_paint_set_fg (cr, style);
      tl_paint_format_value (pow (10.0, e), buf, sizeof buf);
      tl_paint_text (cr, lay.plot_x - TL_PX (style, 4), y, 1.0, 0.5, buf);
    }

  tl_paint_frame (cr, style, lay.plot_x, lay.plot_y, lay.plot_w, lay.plot_h);
  tl_paint_text (cr, lay.plot_x + lay.plot_w / 2, lay.plot_y + lay.plot_h + font * 1.8, 0.5, 0,
                 _("n (m = n = k), log scale"));
  cairo_save (cr);
  cairo_translate (cr, font * 0.3, lay.plot_y + lay.plot_h / 2);
  cairo_rotate (cr, -G_PI / 2);
  tl_paint_text (cr, 0, 0, 0.5, 0, _("GFLOP/s, log scale"));
  cairo_restore (cr);

  /* one line per series */
  for (guint s = 0; s < model->n_series; s++)
    {
      const TlSweepSeries *se = &model->series[s];
      double rgb[3];
      gboolean pen_down = FALSE;

      tl_paint_series_rgb (s, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, TL_PX (style, se->reference ? 2.5 : 2.0));
      if (se->reference)
        {
          double dash[] = { TL_PX (style, 7), TL_PX (style, 4) };
          cairo_set_dash (cr, dash, 2, 0);
        }
      else
        cairo_set_dash (cr, NULL, 0, 0);

      cairo_save (cr);
      cairo_rectangle (cr, lay.plot_x, lay.plot_y, lay.plot_w, lay.plot_h);
      cairo_clip (cr);
      for (guint i = 0; i < se->count; i++)
        {
          double x, y;
          if (!(se->n[i] > 0) || !(se->gflops[i] > 0) || !isfinite (se->gflops[i]))
            {
              pen_down = FALSE;
              continue;
            }
          tl_sweep_layout_point (&lay, se->n[i], se->gflops[i], &x, &y);
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
          if (!(se->n[i] > 0) || !(se->gflops[i] > 0) || !isfinite (se->gflops[i]))
            continue;
          tl_sweep_layout_point (&lay, se->n[i], se->gflops[i], &x, &y);
          cairo_arc (cr, x, y, TL_PX (style, 3.5), 0, 2 * G_PI);
          cairo_fill (cr);
        }
      cairo_restore (cr);

      /* legend entry */
      double ly = lay.plot_y + font * 0.8 + s * font * 1.5;
      double lx = lay.plot_x + lay.plot_w + font * 0.8;
      cairo_set_line_width (cr, TL_PX (style, 2.5));
      if (se->reference)
        {
          double dash[] = { TL_PX (style, 5), TL_PX (style, 3) };
          cairo_set_dash (cr, dash, 2, 0);
        }
      cairo_move_to (cr, lx, ly);
      cairo_line_to (cr, lx + font * 2, ly);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      tl_paint_set_fg (cr, style);
      if (se->label)
        tl_paint_text (cr, lx + font * 2.5, ly, 0, 0.5, se->label);
    }

  cairo_restore (cr);
}
