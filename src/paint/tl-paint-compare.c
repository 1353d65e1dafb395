/* tl-paint-compare.c — bar chart of kernels and the size-sweep chart. */
#include "paint/tl-paint-compare.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-util.h"

#define MAX_TICKS 64

/* The annotation of bar i: the number (bold) and the ratios (second line). */
static void
bar_note (const TlCompareModel *model, guint i, char *num, gsize num_size, GString *note)
{
  const TlCompareBar *b = &model->bars[i];
  const TlCompareBar *ref = NULL, *base = NULL;
  double v = tl_compare_bar_value (model, i, NULL, NULL);
  char pct[32];

  if (model->reference_index >= 0 && (guint) model->reference_index < model->n_bars
      && tl_compare_bar_is_timed (&model->bars[model->reference_index]))
    ref = &model->bars[model->reference_index];
  if (model->baseline_index >= 0 && (guint) model->baseline_index < model->n_bars
      && tl_compare_bar_is_timed (&model->bars[model->baseline_index]))
    base = &model->bars[model->baseline_index];

  g_string_truncate (note, 0);
  num[0] = '\0';
  if (isnan (v))
    return;
  if (model->metric == TL_COMPARE_GFLOPS)
    tl_format_gflops (v, num, num_size);
  else
    tl_format_ms (v, num, num_size);
  /* "0.48% of OpenBLAS", never "0% of" */
  if (b->reference_label != NULL)
    {
      if (!b->reference && !isnan (b->percent_of_reference) && b->percent_of_reference > 0)
        {
          tl_format_percent (b->percent_of_reference, pct, sizeof pct);
          /* TRANSLATORS: "0.48% of OpenBLAS ?gemm" */
          g_string_append_printf (note, _("%s of %s"), pct, b->reference_label);
        }
    }
  else if (ref && b != ref)
    {
      tl_format_percent (100.0 * ref->median_ms / b->median_ms, pct, sizeof pct);
      g_string_append_printf (note, _("%s of %s"), pct, model->reference_name);
    }
  if (base && b != base)
    {
      double sp = base->median_ms / b->median_ms;
      if (note->len)
        g_string_append (note, " · ");
      g_string_append_printf (note, sp >= 10 ? _("%.0f× %s") : _("%.1f× %s"),
                              sp, model->baseline_name);
    }
  if (b->residual > 0 && isfinite (b->residual))
    {
      char r[32];
      tl_format_value (b->residual, r, sizeof r);
      if (note->len)
        g_string_append (note, " · ");
      g_string_append_printf (note, _("residual %s"), r);
    }
}

static const char *
metric_axis_label (const TlCompareModel *model)
{
  /* %s: the unit, "GFLOP/s", "MFLOP/s", "ms", "µs" */
  if (model->work == TL_COMPARE_WORK_LU)
    return model->metric == TL_COMPARE_GFLOPS
             ? _("%s from the LU flop count, ⅔·n³ for n×n (higher is better)")
             : _("time per factorisation, %s (lower is better)");
  return model->metric == TL_COMPARE_GFLOPS ? _("%s (higher is better)")
                                            : _("time per multiply, %s (lower is better)");
}

/* the same in fewer words, for a narrow chart */
static const char *
metric_axis_brief (const TlCompareModel *model)
{
  /* %s: the unit, "GFLOP/s", "ms" */
  if (model->work == TL_COMPARE_WORK_LU)
    return model->metric == TL_COMPARE_GFLOPS ? _("LU %s") : _("time per factorisation, %s");
  return model->metric == TL_COMPARE_GFLOPS ? "%s" : _("time per multiply, %s");
}

/* the widest bar label, and the range lo … hi of the values and their whiskers */
static double
measure_bars (const TlCompareModel *model, cairo_t *cr, double *lo, double *hi)
{
  double label_w = 0;
  for (guint i = 0; i < model->n_bars; i++)
    {
      double a, b;
      if (model->bars[i].label)
        label_w = MAX (label_w, tl_paint_text_width (cr, model->bars[i].label));
      if (isnan (tl_compare_bar_value (model, i, &a, &b)))
        continue;
      *lo = MIN (*lo, a);
      *hi = MAX (*hi, b);
    }
  return label_w;
}

/* the room right of the bars for the widest annotation (its number bold) */
static double
annotation_width (const TlCompareModel *model, const TlPaintStyle *style, cairo_t *cr)
{
  double font = TL_PX (style, style->font_size);
  double annot_w = font * 6;
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
  return annot_w;
}

/* The value axis for values lo … hi: logarithmic when asked, or (auto)
 * when they span more than 30×; a linear one counts in a unit that fits
 * and ends at the next tick. */
static void
layout_axis (const TlCompareModel *model, cairo_t *cr, double lo, double hi, TlCompareLayout *out)
{
  if (!isfinite (lo))
    {
      lo = 0.1;
      hi = 1.0;
    }
  gboolean log_axis = model->axis == TL_COMPARE_AXIS_LOG
                      || (model->axis == TL_COMPARE_AXIS_AUTO && lo > 0 && hi / lo > 30);
  out->log_axis = log_axis;
  /* a linear axis counts in a unit that fits: 26 µs rather than 0.026 ms */
  out->label_scale = 1.0;
  out->unit = model->metric == TL_COMPARE_GFLOPS ? "GFLOP/s" : "ms";
  if (!log_axis && model->metric == TL_COMPARE_GFLOPS && hi < 1.0)
    out->label_scale = 1e3, out->unit = "MFLOP/s";
  else if (!log_axis && model->metric == TL_COMPARE_GFLOPS && hi >= 1e4)
    out->label_scale = 1e-3, out->unit = "TFLOP/s";
  else if (!log_axis && model->metric == TL_COMPARE_TIME && hi < 1.0)
    out->label_scale = 1e3, out->unit = "µs";
  else if (!log_axis && model->metric == TL_COMPARE_TIME && hi >= 1e4)
    out->label_scale = 1e-3, out->unit = "s";
  if (log_axis)
    {
      out->lo = pow (10.0, floor (log10 (lo)));
      out->hi = pow (10.0, ceil (log10 (hi)));
      if (out->hi <= out->lo)
        out->hi = out->lo * 10;
    }
  else
    {
      /* up to the next tick the labels leave room for */
      double ticks[MAX_TICKS], f = out->label_scale;
      if (!(hi > 0))
        hi = 1;
      guint n = tl_paint_axis_ticks (cr, 0, hi * f, out->plot_w / (hi * f), FALSE, FALSE,
                                     tl_format_value, ticks, MAX_TICKS);
      double step = n >= 2 ? ticks[1] - ticks[0] : hi * f;
      out->lo = 0;
      out->hi = step > 0 ? ceil (hi * f / step - 1e-9) * step / f : hi;
    }
}

void
tl_paint_compare_layout (const TlCompareModel *model, const TlPaintStyle *style,
                         cairo_t *cr, double width, double height, TlCompareLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double lo = INFINITY, hi = -INFINITY;

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double label_w = MIN (measure_bars (model, cr, &lo, &hi), width * 0.32);
  double top = (model->title ? TL_PX (style, style->title_font_size) * 1.6 : font * 0.6);
  double bottom = font * 3.2; /* tick labels and the axis label */
  double annot_w = MIN (annotation_width (model, style, cr), width * 0.42);

  out->plot_x = font * 0.6 + label_w + font * 0.8;
  out->plot_y = top;
  out->plot_w = MAX (width - out->plot_x - annot_w - font * 0.6, 10);
  out->plot_h = MAX (height - top - bottom, 10);
  /* the rows share the page, so a few bars fill it as many do; a bar
   * keeps to a thickness the eye reads as a bar, not a block */
  out->row_h = model->n_bars ? out->plot_h / model->n_bars : out->plot_h;
  out->bar_h = MIN (out->row_h * 0.6, font * 6);
  layout_axis (model, cr, lo, hi, out);
}

/* the smallest type a row's texts get: 11/12 of the chart's, and never
 * under a window's 12 px (the other pages' least; the notes were drawn
 * at 10.5 px in a 1024×768 window) */
#define ROW_FONT_MIN_RATIO (11.0 / 12.0)
#define ROW_FONT_MIN_PX 12.0
/* a note goes on a second line under its number in type this near the chart's */
#define TWO_LINE_FONT_MIN_RATIO 0.8
#define LINE_HEIGHT 1.164

/* The least type of a row's texts, in style units, at ratio of the
 * chart's type: never under ROW_FONT_MIN_PX (nor over the chart's type). */
static double
row_font_least (const TlPaintStyle *style, double ratio)
{
  return MIN (style->font_size, MAX (ROW_FONT_MIN_PX / style->scale, style->font_size * ratio));
}

double
tl_paint_compare_min_height (const TlCompareModel *model, const TlPaintStyle *style)
{
  g_return_val_if_fail (model != NULL && style != NULL, 0);
  double font = TL_PX (style, style->font_size);
  double top = model->title ? TL_PX (style, style->title_font_size) * 1.6 : font * 0.6;
  double row = TL_PX (style, row_font_least (style, ROW_FONT_MIN_RATIO)) * LINE_HEIGHT * 1.1;
  return ceil (top + font * 3.2 + row * model->n_bars);
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
  if (b->has_rgb)
    {
      for (int i = 0; i < 3; i++)
        rgb[i] = b->rgb[i];
      return;
    }
  if (b->kernel_id)
    {
      TlKernelLook look;
      tl_kernel_look (b->kernel_id, &look);
      for (int i = 0; i < 3; i++)
        rgb[i] = look.rgb[i];
      return;
    }
  /* Okabe–Ito: blue for GPU rungs, orange for references, grey for the CPU */
  if (b->reference)
    tl_paint_series_rgb (1, rgb);
  else if (b->cpu)
    rgb[0] = rgb[1] = rgb[2] = style->high_contrast ? 0.3 : 0.55;
  else
    tl_paint_series_rgb (0, rgb);
}

/* The axis' tick values: decades on a log axis (10ⁿ when they leave the
 * plain range), nice steps otherwise, as dense as their labels allow. */
static guint
value_ticks (cairo_t *cr, const TlCompareLayout *lay, double *ticks, TlTickFormat *format)
{
  if (lay->log_axis)
    {
      *format = tl_format_for_decades (lay->lo, lay->hi);
      return tl_paint_power_ticks (cr, 10.0, lay->lo, lay->hi,
                                   lay->plot_w / (log10 (lay->hi) - log10 (lay->lo)), FALSE,
                                   *format, ticks, MAX_TICKS);
    }
  /* in the label unit, then back */
  double f = lay->label_scale;
  *format = tl_format_value;
  guint n = tl_paint_axis_ticks (cr, lay->lo * f, lay->hi * f, lay->plot_w / ((lay->hi - lay->lo) * f),
                                 FALSE, FALSE, tl_format_value, ticks, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    ticks[i] /= f;
  return n;
}

/* grid: the light lines behind the bars; otherwise ticks, labels and axes */
static void
paint_value_axis (cairo_t *cr, const TlCompareModel *model, const TlCompareLayout *lay,
                  const TlPaintStyle *style, gboolean grid)
{
  double font = TL_PX (style, style->font_size);
  double ticks[MAX_TICKS];
  TlTickFormat format;
  double y_axis = lay->plot_y + lay->plot_h;
  guint n = value_ticks (cr, lay, ticks, &format);

  cairo_set_line_width (cr, TL_LINE (style, style->line_width * 0.5));
  for (guint i = 0; i < n; i++)
    {
      double x = round (tl_compare_layout_x (lay, ticks[i])) + 0.5;
      char buf[64];

      if (grid)
        {
          tl_paint_set_fg_alpha (cr, style, 0.18);
          cairo_move_to (cr, x, lay->plot_y);
          cairo_line_to (cr, x, y_axis);
          cairo_stroke (cr);
          continue;
        }
      tl_paint_set_fg (cr, style);
      cairo_move_to (cr, x, y_axis);
      cairo_line_to (cr, x, y_axis + TL_PX (style, 4));
      cairo_stroke (cr);
      format (ticks[i] * lay->label_scale, buf, sizeof buf);
      tl_paint_text (cr, x, y_axis + TL_PX (style, 5), 0.5, 0.0, buf);
    }
  if (grid)
    return;

  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width));
  cairo_move_to (cr, lay->plot_x, lay->plot_y);
  cairo_line_to (cr, lay->plot_x, y_axis);
  cairo_line_to (cr, lay->plot_x + lay->plot_w, y_axis);
  cairo_stroke (cr);

  /* the whole title, or where it does not fit, fewer words: never "loga…" */
  g_autofree char *label = g_strdup_printf (metric_axis_label (model), lay->unit);
  g_autofree char *brief = g_strdup_printf (metric_axis_brief (model), lay->unit);
  GString *axis = g_string_new (label);
  if (lay->log_axis)
    g_string_append (axis, _(", log scale"));
  g_string_append_printf (axis, "\n%s", brief);
  if (lay->log_axis)
    g_string_append (axis, _(", log scale"));
  g_string_append_printf (axis, "\n%s", brief);
  if (lay->log_axis)
    g_string_append (axis, _(" (log)"));
  tl_paint_text_fit_choice (cr, lay->plot_x + lay->plot_w / 2, y_axis + font * 1.75, 0.5, 0.0,
                            lay->plot_x + lay->plot_w, axis->str);
  g_string_free (axis, TRUE);
}

/* The type size of a row's texts: the style's, smaller when rows are thin. */
static double
row_font_size (const TlCompareLayout *lay, const TlPaintStyle *style, gboolean two_lines)
{
  double fit = lay->row_h / style->scale / (LINE_HEIGHT * (two_lines ? 2.15 : 1.1));
  return MIN (style->font_size, fit);
}

/* the bar from the axis to x1, hatched in the second round of kernel colours */
static void
bar_fill (cairo_t *cr, const TlCompareBar *b, const TlCompareLayout *lay, const TlPaintStyle *style,
          double cy, double x1)
{
  double rgb[3];
  bar_rgb (b, style, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, lay->plot_x, cy - lay->bar_h / 2, x1 - lay->plot_x, lay->bar_h);
  cairo_fill (cr);
  if (b->kernel_id && !b->has_rgb)
    {
      TlKernelLook look;
      tl_kernel_look (b->kernel_id, &look);
      if (look.hatched)
        {
          static const double white[4] = { 1, 1, 1, 0.55 };
          tl_paint_hatch (cr, lay->plot_x, cy - lay->bar_h / 2, x1 - lay->plot_x, lay->bar_h,
                          TL_PX (style, 7), TL_PX (style, 2), white);
        }
    }
}

/* whisker: min–max over the repeats */
static void
bar_whisker (cairo_t *cr, const TlCompareLayout *lay, const TlPaintStyle *style, double cy, double lo,
             double hi)
{
  double wl = tl_compare_layout_x (lay, lo), wh = tl_compare_layout_x (lay, hi);
  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, 1.5));
  cairo_move_to (cr, wl, cy);
  cairo_line_to (cr, wh, cy);
  cairo_move_to (cr, wl, cy - lay->bar_h / 4);
  cairo_line_to (cr, wl, cy + lay->bar_h / 4);
  cairo_move_to (cr, wh, cy - lay->bar_h / 4);
  cairo_line_to (cr, wh, cy + lay->bar_h / 4);
  cairo_stroke (cr);
}

/* A note ("4.7% of cuBLAS · 2326× CPU naive") where it fits: the parts
 * after the first that do not fit are left out whole (the run's details
 * have them), rather than cutting "CPU na…"; then a closing aside ("…
 * SGEMM (pedantic)"), rather than cutting "von cuBLAS SGEMM (peda…". */
static void
fit_note (cairo_t *cr, double x, double y, double valign, double room, GString *note)
{
  while (tl_paint_text_width (cr, note->str) > room)
    {
      const char *last = g_strrstr (note->str, " · ");
      const char *aside = g_strrstr (note->str, " (");
      if (last != NULL)
        g_string_truncate (note, last - note->str);
      else if (aside != NULL && note->str[note->len - 1] == ')')
        g_string_truncate (note, aside - note->str);
      else
        break;
    }
  tl_paint_text_fit (cr, x, y, 0, valign, room, note->str);
}

/* annotation: the number, and under it (or beside it, in thin rows) the
 * share of the reference and the speed-up over the baseline */
static void
bar_annotation (cairo_t *cr, const TlCompareModel *model, const TlCompareLayout *lay, guint i,
                const TlPaintStyle *style, double width, double cy, double size)
{
  double font = TL_PX (style, style->font_size);
  char num[64];
  GString *note = g_string_new (NULL);
  bar_note (model, i, num, sizeof num, note);
  double ax = lay->plot_x + lay->plot_w + font * 0.6;
  double room = width - ax - TL_PX (style, 2);
  gboolean two = note->len > 0
                 && row_font_size (lay, style, TRUE) >= row_font_least (style, TWO_LINE_FONT_MIN_RATIO);
  double nsize = two ? row_font_size (lay, style, TRUE) : size;
  double lh = TL_PX (style, nsize) * LINE_HEIGHT;
  tl_paint_set_font (cr, style, nsize, TRUE);
  double wn = tl_paint_text_fit (cr, ax, two ? cy - lh * 0.05 : cy, 0, two ? 1.0 : 0.5, room, num);
  tl_paint_set_font (cr, style, nsize, FALSE);
  if (two)
    fit_note (cr, ax, cy + lh * 0.05, 0.0, room, note);
  else if (note->len && room - wn - font * 0.9 > font)
    fit_note (cr, ax + wn + font * 0.9, cy, 0.5, room - wn - font * 0.9, note);
  g_string_free (note, TRUE);
}

/* The byte where name breaks onto a second line: the space nearest its
 * middle that leaves both lines within room; -1: none does. */
static gssize
name_break (cairo_t *cr, const char *name, double room)
{
  gssize best = -1, len = (gssize) strlen (name);
  for (const char *p = strchr (name, ' '); p; p = strchr (p + 1, ' '))
    {
      gssize at = p - name;
      g_autofree char *first = g_strndup (name, (gsize) at);
      if (tl_paint_text_width (cr, first) > room || tl_paint_text_width (cr, p + 1) > room)
        continue;
      if (best < 0 || ABS (2 * at - len) < ABS (2 * best - len))
        best = at;
    }
  return best;
}

/* a bar's name right of its column: whole on two lines where it is too wide
 * for one and the row has room for two, else as fitted (fitted) */
static void
paint_bar_name (cairo_t *cr, const TlCompareLayout *lay, const TlPaintStyle *style, double cy,
                const char *name, const char *fitted)
{
  double font = TL_PX (style, style->font_size);
  double x = lay->plot_x - font * 0.8, room = lay->plot_x - font * 1.2;
  double two_size = row_font_size (lay, style, TRUE);
  if (tl_paint_text_width (cr, name) > room && two_size >= row_font_least (style, ROW_FONT_MIN_RATIO))
    {
      tl_paint_set_font (cr, style, two_size, FALSE);
      gssize at = name_break (cr, name, room);
      if (at >= 0)
        {
          double lh = TL_PX (style, two_size) * LINE_HEIGHT;
          g_autofree char *first = g_strndup (name, (gsize) at);
          tl_paint_text_fit (cr, x, cy - lh * 0.05, 1.0, 1.0, room, first);
          tl_paint_text_fit (cr, x, cy + lh * 0.05, 1.0, 0.0, room, name + at + 1);
          return;
        }
      tl_paint_set_font (cr, style, row_font_size (lay, style, FALSE), FALSE);
    }
  tl_paint_text_fit (cr, x, cy, 1.0, 0.5, room, fitted);
}

static void
paint_bar (cairo_t *cr, const TlCompareModel *model, const TlCompareLayout *lay, guint i,
           const char *label, const TlPaintStyle *style, double width)
{
  const TlCompareBar *b = &model->bars[i];
  double font = TL_PX (style, style->font_size);
  double row_y = lay->plot_y + i * lay->row_h;
  double cy = row_y + lay->row_h / 2;
  double lo, hi;
  double size = row_font_size (lay, style, FALSE);

  if ((gint) i == model->selected_index)
    {
      cairo_set_source_rgba (cr, style->accent[0], style->accent[1], style->accent[2],
                             style->high_contrast ? 0.35 : 0.18);
      cairo_rectangle (cr, 0, row_y, width, lay->row_h);
      cairo_fill (cr);
    }

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, size, FALSE);
  if (label)
    paint_bar_name (cr, lay, style, cy, b->label, label);
  tl_paint_set_font (cr, style, size, FALSE);

  double v = tl_compare_bar_value (model, i, &lo, &hi);
  if (isnan (v))
    {
      cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
      tl_paint_text_fit (cr, lay->plot_x + font * 0.5, cy, 0, 0.5, width - lay->plot_x - font,
                         b->failed ? b->failed : _("no result"));
      return;
    }
  bar_fill (cr, b, lay, style, cy, tl_compare_layout_x (lay, v));
  bar_whisker (cr, lay, style, cy, lo, hi);
  bar_annotation (cr, model, lay, i, style, width, cy, size);
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
      tl_paint_text_fit (cr, font * 0.6, 0, 0, 0, width - font * 1.2, model->title);
    }
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  paint_value_axis (cr, model, &lay, style, TRUE);

  /* the names as they fit their column, told apart where cutting would
   * make two read the same ("10 tensor…TF32)", "10 tensor…BF16)") */
  const char **names = g_newa (const char *, model->n_bars + 1);
  for (guint i = 0; i < model->n_bars; i++)
    names[i] = model->bars[i].label;
  tl_paint_set_font (cr, style, row_font_size (&lay, style, FALSE), FALSE);
  g_auto (GStrv) labels = tl_paint_fit_distinct (cr, names, model->n_bars, lay.plot_x - font * 1.2);
  for (guint i = 0; i < model->n_bars; i++)
    paint_bar (cr, model, &lay, i, model->bars[i].label ? labels[i] : NULL, style, width);

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  paint_value_axis (cr, model, &lay, style, FALSE);
  cairo_restore (cr);
}
