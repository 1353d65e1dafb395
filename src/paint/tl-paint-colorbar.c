/* tl-paint-colorbar.c — a colorbar (vertical or horizontal) with ticks, its label and note, and swatches. */
#include "paint/tl-paint-colorbar.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include "paint/tl-paint-util.h"

#define MAX_TICKS 32

static guint
decade_ticks (double lo_exp, double hi_exp, double sign, double *out, guint n, guint max_out)
{
  int e0 = (int) ceil (lo_exp - 1e-9);
  int e1 = (int) floor (hi_exp + 1e-9);

  for (int e = e1; e >= e0 && n < max_out; e--)
    out[n++] = sign * pow (10.0, e);
  return n;
}

guint
tl_colorbar_ticks (const TlColorScale *scale, double *out, guint max_out)
{
  g_return_val_if_fail (scale != NULL && out != NULL, 0);

  switch (scale->scale)
    {
    case TL_SCALE_LOG:
      {
        double lo = log10 (scale->vmin), hi = log10 (scale->vmax);
        if (floor (hi) - ceil (lo) >= 1)
          return decade_ticks (lo, hi, 1.0, out, 0, max_out);
        /* less than two decades: linear steps inside the range */
        double tmp[MAX_TICKS];
        guint k = tl_paint_nice_ticks (scale->vmin, scale->vmax, 4, tmp, MAX_TICKS);
        guint n = 0;
        for (guint i = 0; i < k && n < max_out; i++)
          if (tmp[i] > 0)
            out[n++] = tmp[i];
        return n;
      }
    case TL_SCALE_SYMLOG:
      {
        double m = MAX (fabs (scale->vmin), fabs (scale->vmax));
        double lo = log10 (scale->linthresh) + 1, hi = log10 (m);
        guint n = 0;
        if (scale->vmax > 0)
          n = decade_ticks (MAX (lo, hi - 3), log10 (scale->vmax), 1.0, out, n, max_out / 2);
        if (scale->vmin <= 0 && scale->vmax >= 0 && n < max_out)
          out[n++] = 0.0;
        if (scale->vmin < 0)
          {
            /* negative decades, largest magnitude last */
            double tmp[MAX_TICKS];
            guint k = decade_ticks (MAX (lo, hi - 3), log10 (-scale->vmin), 1.0, tmp, 0, MAX_TICKS);
            for (guint i = k; i > 0 && n < max_out; i--)
              out[n++] = -tmp[i - 1];
          }
        return n;
      }
    case TL_SCALE_LINEAR:
    default:
      return tl_paint_nice_ticks (scale->vmin, scale->vmax, 5, out, max_out);
    }
}

double
tl_paint_colorbar_preferred_width (const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  /* bar, tick, gap; labels such as "−0.0004"; the label and note lines */
  return TL_PX (style, 14 + 5 + 4) + font * 4.3 + font * 1.25 * 2 + TL_PX (style, 4);
}

static void format_tick (const TlColorScale *scale, double v, char *buf, gsize size);

double
tl_paint_colorbar_fit_width (const TlColorbarModel *model, const TlPaintStyle *style)
{
  g_return_val_if_fail (model != NULL && style != NULL, 0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  double cand[MAX_TICKS], widest = 0;
  char buf[64];

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  /* a tall bar takes finer linear steps than the candidates ("−1.5"
   * between "−2" and "−1"): measure those as well */
  guint k = model->scale.scale == TL_SCALE_LINEAR
              ? tl_paint_nice_ticks (model->scale.vmin, model->scale.vmax, 24, cand, MAX_TICKS)
              : tl_colorbar_ticks (&model->scale, cand, MAX_TICKS);
  for (guint i = 0; i < k; i++)
    {
      format_tick (&model->scale, cand[i], buf, sizeof buf);
      widest = MAX (widest, tl_paint_text_width (cr, buf));
    }
  if (model->show_mask)
    widest = MAX (widest, tl_paint_text_width (cr, model->mask_label ? model->mask_label : "≤ 0"));
  if (model->show_nan)
    widest = MAX (widest, tl_paint_text_width (cr, "NaN"));
  double line = tl_paint_text_height (cr) * 1.05;
  guint lines = (model->label && *model->label) + (model->note && *model->note);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return TL_PX (style, 4 + 14 + 5 + 3) + widest + TL_PX (style, 4) + lines * line;
}

double
tl_paint_colorbar_fit_height (const TlColorbarModel *model, const TlPaintStyle *style)
{
  g_return_val_if_fail (model != NULL && style != NULL, 0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double line = tl_paint_text_height (cr) * 1.05;
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  guint lines = 1 + (model->label && *model->label) + (model->note && *model->note);
  if (model->horizontal && model->label_beside && tl_paint_colorbar_label_beside_fits (model))
    lines = 1;
  return TL_PX (style, 4 + 14 + 5 + 3) + lines * line + TL_PX (style, 4);
}

double
tl_paint_colorbar_reserve (const TlPaintStyle *style, gboolean show, double *right)
{
  if (!show)
    return 0;
  double cb_w = tl_paint_colorbar_preferred_width (style);
  *right += cb_w + TL_PX (style, style->font_size) * 0.6;
  return cb_w;
}

void
tl_paint_colorbar_place (const TlPaintStyle *style, double cb_w, double plot_x, double plot_y,
                         double plot_w, double plot_h, double *cb_x, double *cb_y, double *cb_h)
{
  if (cb_w > 0)
    {
      *cb_x = plot_x + plot_w + TL_PX (style, style->font_size) * 0.8;
      *cb_y = plot_y;
      *cb_h = plot_h;
    }
  else
    *cb_x = *cb_y = *cb_h = 0;
}

static guint
n_swatches (const TlColorbarModel *model)
{
  return (model->show_mask ? 1 : 0) + (model->show_nan ? 1 : 0);
}

/* a swatch and its label ("≤ 0", "NaN") in a row right of a horizontal bar */
static double
swatch_width (const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  return font * 1.05 + TL_PX (style, 5 + 3) + font * 2.4 + font * 0.8;
}

gboolean
tl_paint_colorbar_label_beside_fits (const TlColorbarModel *model)
{
  return model->label && *model->label && !(model->note && *model->note) && n_swatches (model) == 0;
}

/* Right of a horizontal strip: half a tick label, or the label beside the
 * strip where it goes there (a gap, then the text). */
static double
right_end (const TlColorbarModel *model, const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  if (!model->label_beside || !tl_paint_colorbar_label_beside_fits (model))
    return font * 1.6;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  double w = tl_paint_text_width (cr, model->label);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return MAX (font * 1.6, font * 0.6 + w + TL_PX (style, 2));
}

double
tl_paint_colorbar_across_width (const TlColorbarModel *model, const TlPaintStyle *style,
                                double strip_w, double *strip_x)
{
  double end = TL_PX (style, style->font_size) * 1.6;
  *strip_x = end;
  return strip_w + end + right_end (model, style) + n_swatches (model) * swatch_width (style);
}

void
tl_paint_colorbar_layout (const TlColorbarModel *model, const TlPaintStyle *style,
                          double width, double height, TlColorbarLayout *out)
{
  double font = TL_PX (style, style->font_size);
  double pad = font * 0.7;

  out->tick_len = TL_PX (style, 5);
  if (model->horizontal)
    {
      /* half a tick label of room at either end of the strip (as
       * tl_paint_colorbar_across_width) */
      double end = font * 1.6;
      out->bar_x = end;
      out->bar_y = TL_PX (style, 4);
      out->bar_h = TL_PX (style, 14);
      out->bar_w = MAX (width - end - right_end (model, style) - n_swatches (model) * swatch_width (style),
                        1.0);
      out->swatch_x = out->bar_x + out->bar_w + end;
      out->swatch_y = out->bar_y;
      return;
    }
  out->bar_x = TL_PX (style, 4);
  out->bar_w = TL_PX (style, 14);
  out->bar_y = pad;
  out->bar_h = MAX (height - 2 * pad - n_swatches (model) * font * 1.45, 1.0);
  out->swatch_x = out->bar_x;
  out->swatch_y = out->bar_y + out->bar_h + pad;
}

double
tl_colorbar_layout_y (const TlColorbarLayout *layout, const TlColorScale *scale, double value)
{
  double t = tl_color_scale_normalize (scale, value);
  return layout->bar_y + (1.0 - t) * layout->bar_h;
}

double
tl_colorbar_layout_x (const TlColorbarLayout *layout, const TlColorScale *scale, double value)
{
  double t = tl_color_scale_normalize (scale, value);
  return layout->bar_x + t * layout->bar_w;
}

static void
format_tick (const TlColorScale *scale, double v, char *buf, gsize size)
{
  double m = MAX (fabs (scale->vmin), fabs (scale->vmax));
  TlTickFormat decade = tl_format_for_decades (scale->scale == TL_SCALE_LOG ? scale->vmin : 1, m);
  if (scale->scale == TL_SCALE_LINEAR || v == 0)
    tl_format_value (v, buf, size);
  else if (v < 0)
    {
      char pos[48];
      decade (-v, pos, sizeof pos);
      g_snprintf (buf, size, "−%s", pos);
    }
  else
    decade (v, buf, size);
}

/* The candidate ticks, thinned so that neighbours stand a line apart
 * (cr has the label font). */
static guint
fitting_ticks (cairo_t *cr, const TlColorbarModel *model, const TlColorbarLayout *lay,
               double *out, guint max_out)
{
  double cand[MAX_TICKS];
  guint k = tl_colorbar_ticks (&model->scale, cand, MAX_TICKS);
  double line = tl_paint_text_height (cr) * 1.2;
  double em = tl_paint_text_width (cr, "M");

  if (model->scale.scale == TL_SCALE_LINEAR)
    {
      /* linear: the densest nice step whose labels fit */
      double span = model->scale.vmax - model->scale.vmin;
      if (!(span > 0))
        return MIN (k, max_out);
      double length = model->horizontal ? lay->bar_w : lay->bar_h;
      guint n = tl_paint_axis_ticks (cr, model->scale.vmin, model->scale.vmax, length / span,
                                     !model->horizontal, FALSE, tl_format_value, out, max_out);
      /* a short strip across: at least its two ends, when their labels fit */
      if (model->horizontal && n < 2 && max_out >= 2)
        {
          char lo[64], hi[64];
          format_tick (&model->scale, model->scale.vmin, lo, sizeof lo);
          format_tick (&model->scale, model->scale.vmax, hi, sizeof hi);
          if ((tl_paint_text_width (cr, lo) + tl_paint_text_width (cr, hi)) / 2 + em <= lay->bar_w)
            {
              out[0] = model->scale.vmin;
              out[1] = model->scale.vmax;
              return 2;
            }
        }
      return n;
    }
  /* log and symlog: every other decade, every third, … until they fit: a
   * line apart up a vertical bar, an em between labels along a horizontal one */
  for (guint stride = 1; stride <= k; stride++)
    {
      guint n = 0;
      gboolean fits = TRUE;
      double prev = -INFINITY, prev_half = 0;
      for (guint i = 0; i < k; i += stride)
        {
          if (model->horizontal)
            {
              char buf[64];
              format_tick (&model->scale, cand[i], buf, sizeof buf);
              double x = tl_colorbar_layout_x (lay, &model->scale, cand[i]);
              double half = tl_paint_text_width (cr, buf) / 2;
              if (fabs (x - prev) < prev_half + half + em)
                fits = FALSE;
              prev = x;
              prev_half = half;
            }
          else
            {
              double y = tl_colorbar_layout_y (lay, &model->scale, cand[i]);
              if (fabs (y - prev) < line)
                fits = FALSE;
              prev = y;
            }
          if (n < max_out)
            out[n++] = cand[i];
        }
      if (fits)
        return n;
    }
  if (k > 0 && max_out > 0)
    {
      out[0] = cand[0];
      return 1;
    }
  return 0;
}

guint
tl_paint_colorbar_ticks (const TlColorbarModel *model, const TlPaintStyle *style, double width,
                         double height, double *out, guint max_out)
{
  g_return_val_if_fail (model != NULL && style != NULL && out != NULL, 0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  TlColorbarLayout lay;
  tl_paint_colorbar_layout (model, style, width, height, &lay);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  guint n = fitting_ticks (cr, model, &lay, out, max_out);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return n;
}

static void
paint_strip (cairo_t *cr, const TlColorbarModel *model, const TlColorbarLayout *lay)
{
  /* An image with one row (column) per device pixel, scaled without
   * smoothing so the ends show the map's exact end colours. */
  gboolean across = model->horizontal;
  int n = MAX ((int) ceil (across ? lay->bar_w : lay->bar_h), 1);
  cairo_surface_t *strip = cairo_image_surface_create (CAIRO_FORMAT_RGB24, across ? n : 1, across ? 1 : n);
  unsigned char *data = cairo_image_surface_get_data (strip);
  int stride = cairo_image_surface_get_stride (strip);
  cairo_surface_flush (strip);
  for (int i = 0; i < n; i++)
    {
      guint8 rgb[3];
      tl_colormap_rgb (model->scale.map, across ? (i + 0.5) / n : 1.0 - (i + 0.5) / n, rgb);
      guint32 px = ((guint32) rgb[0] << 16) | ((guint32) rgb[1] << 8) | rgb[2];
      if (across)
        ((guint32 *) data)[i] = px;
      else
        *(guint32 *) (data + i * stride) = px;
    }
  cairo_surface_mark_dirty (strip);
  cairo_save (cr);
  cairo_rectangle (cr, lay->bar_x, lay->bar_y, lay->bar_w, lay->bar_h);
  cairo_clip (cr);
  cairo_translate (cr, lay->bar_x, lay->bar_y);
  cairo_scale (cr, across ? lay->bar_w / n : lay->bar_w, across ? lay->bar_h : lay->bar_h / n);
  cairo_set_source_surface (cr, strip, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (strip);
}

static void
paint_swatches (cairo_t *cr, const TlColorbarModel *model, const TlColorbarLayout *lay,
                const TlPaintStyle *style, double width)
{
  double font = TL_PX (style, style->font_size);
  double x = lay->swatch_x, y = lay->swatch_y;
  double w = model->horizontal ? lay->bar_h : lay->bar_w;
  for (int which = 0; which < 2; which++)
    {
      guint8 rgb[3];
      const char *text;
      if (which == 0 && model->show_mask)
        {
          tl_colormap_mask_rgb (model->scale.map, rgb);
          text = model->mask_label ? model->mask_label : _("≤ 0");
        }
      else if (which == 1 && model->show_nan)
        {
          rgb[0] = (TL_COLOR_NAN_ARGB >> 16) & 0xff;
          rgb[1] = (TL_COLOR_NAN_ARGB >> 8) & 0xff;
          rgb[2] = TL_COLOR_NAN_ARGB & 0xff;
          text = "NaN";
        }
      else
        continue;
      double side = model->horizontal ? lay->bar_h : font * 1.05;
      cairo_set_source_rgb (cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
      cairo_rectangle (cr, x, y, w, side);
      cairo_fill (cr);
      tl_paint_frame (cr, style, x, y, w, side);
      double tx = x + w + lay->tick_len + TL_PX (style, 3);
      double room = model->horizontal ? MIN (width - tx, swatch_width (style) - (tx - x)) : width - tx;
      tl_paint_text_fit (cr, tx, y + side / 2, 0, 0.5, room, text);
      if (model->horizontal)
        x += swatch_width (style);
      else
        y += font * 1.45;
    }
}

/* ticks under the strip, labels under them, then the quantity and the
 * note, each a line, centred under the strip */
static void
paint_horizontal_labels (cairo_t *cr, const TlColorbarModel *model, const TlColorbarLayout *lay,
                         const TlPaintStyle *style, double width)
{
  double ticks[MAX_TICKS];
  guint n_ticks = fitting_ticks (cr, model, lay, ticks, MAX_TICKS);
  double y0 = lay->bar_y + lay->bar_h, line = tl_paint_text_height (cr) * 1.05;
  for (guint i = 0; i < n_ticks; i++)
    {
      char buf[64];
      double x = round (tl_colorbar_layout_x (lay, &model->scale, ticks[i]));
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y0 + lay->tick_len);
      cairo_stroke (cr);
      format_tick (&model->scale, ticks[i], buf, sizeof buf);
      tl_paint_text (cr, x, y0 + lay->tick_len + TL_PX (style, 3), 0.5, 0.0, buf);
    }
  if (model->label_beside && tl_paint_colorbar_label_beside_fits (model))
    {
      double x = lay->bar_x + lay->bar_w + TL_PX (style, style->font_size) * 0.6;
      tl_paint_text_fit_choice (cr, x, lay->bar_y + lay->bar_h / 2, 0.0, 0.5, MAX (width - x, 1.0), model->label);
      return;
    }
  double y = y0 + lay->tick_len + TL_PX (style, 3) + line;
  const char *lines[2] = { model->label, model->note };
  double mid = lay->bar_x + lay->bar_w / 2;
  double room = MIN (mid, width - mid) * 2 - TL_PX (style, 4);
  for (guint i = 0; i < 2; i++)
    if (lines[i] && *lines[i])
      {
        tl_paint_text_fit_choice (cr, mid, y, 0.5, 0.0, room, lines[i]);
        y += line;
      }
}

void
tl_paint_colorbar (cairo_t *cr, const TlColorbarModel *model,
                   const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlColorbarLayout lay;
  double ticks[MAX_TICKS];

  tl_paint_colorbar_layout (model, style, width, height, &lay);
  if (model->horizontal)
    {
      cairo_save (cr);
      paint_strip (cr, model, &lay);
      tl_paint_frame (cr, style, lay.bar_x, lay.bar_y, lay.bar_w, lay.bar_h);
      tl_paint_set_font (cr, style, style->font_size, FALSE);
      paint_horizontal_labels (cr, model, &lay, style, width);
      paint_swatches (cr, model, &lay, style, width);
      cairo_restore (cr);
      return;
    }

  cairo_save (cr);
  paint_strip (cr, model, &lay);
  tl_paint_frame (cr, style, lay.bar_x, lay.bar_y, lay.bar_w, lay.bar_h);

  tl_paint_set_font (cr, style, style->font_size, FALSE);
  guint n_ticks = fitting_ticks (cr, model, &lay, ticks, MAX_TICKS);
  double label_right = lay.bar_x + lay.bar_w;
  for (guint i = 0; i < n_ticks; i++)
    {
      char buf[64];
      double y = round (tl_colorbar_layout_y (&lay, &model->scale, ticks[i]));
      double x0 = lay.bar_x + lay.bar_w;

      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x0 + lay.tick_len, y);
      cairo_stroke (cr);
      format_tick (&model->scale, ticks[i], buf, sizeof buf);
      double w = tl_paint_text (cr, x0 + lay.tick_len + TL_PX (style, 3), y, 0.0, 0.5, buf);
      label_right = MAX (label_right, x0 + lay.tick_len + TL_PX (style, 3) + w);
    }
  paint_swatches (cr, model, &lay, style, width);

  /* along the bar, reading bottom to top, right of the tick labels: the
   * label, and the note beside it */
  double line = tl_paint_text_height (cr);
  double x = label_right + TL_PX (style, 4);
  const char *lines[2] = { model->label, model->note };
  for (guint i = 0; i < 2; i++)
    {
      if (lines[i] == NULL || *lines[i] == '\0')
        continue;
      double xx = MIN (x, width - line);
      cairo_save (cr);
      cairo_translate (cr, xx, lay.bar_y + lay.bar_h / 2);
      cairo_rotate (cr, -G_PI / 2);
      tl_paint_text_fit_choice (cr, 0, 0, 0.5, 0.0, lay.bar_h, lines[i]);
      cairo_restore (cr);
      x = xx + line * 1.05;
    }

  cairo_restore (cr);
}
