/* tl-paint-util.c — text, ticks and numbers for the painters. */
#include "paint/tl-paint-util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "paint/tl-paint-text-boxes.h"

gboolean
tl_paint_is_vector (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_RECORDING:
      return TRUE;
    default:
      return FALSE;
    }
}

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
tl_paint_set_fg_alpha (cairo_t *cr, const TlPaintStyle *style, double alpha)
{
  cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2],
                         style->high_contrast ? MIN (1.0, alpha * 2.5) : alpha);
}

void
tl_paint_frame (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w, double h)
{
  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width));
  cairo_rectangle (cr, x, y, w, h);
  cairo_stroke (cr);
}

void
tl_paint_set_font (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold)
{
  /* unhinted metrics: text measures the same at every size and on every
   * surface, so a PNG, an SVG and the screen share one layout */
  cairo_font_options_t *fo = cairo_font_options_create ();
  cairo_get_font_options (cr, fo);
  if (cairo_font_options_get_hint_metrics (fo) != CAIRO_HINT_METRICS_OFF)
    {
      cairo_font_options_set_hint_metrics (fo, CAIRO_HINT_METRICS_OFF);
      cairo_set_font_options (cr, fo);
    }
  cairo_font_options_destroy (fo);
  cairo_select_font_face (cr, style->font_family ? style->font_family : "Sans",
                          CAIRO_FONT_SLANT_NORMAL,
                          bold || style->high_contrast ? CAIRO_FONT_WEIGHT_BOLD
                                                       : CAIRO_FONT_WEIGHT_NORMAL);
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
tl_paint_text_height (cairo_t *cr)
{
  cairo_font_extents_t fe;
  cairo_font_extents (cr, &fe);
  return fe.ascent + fe.descent;
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

char *
tl_paint_fit_string (cairo_t *cr, const char *text, double max_w)
{
  g_return_val_if_fail (cr != NULL && text != NULL, NULL);
  if (tl_paint_text_width (cr, text) <= max_w)
    return g_strdup (text);
  /* the longest start of the text that fits with "…" after it */
  glong n = g_utf8_strlen (text, -1), lo = 0, hi = n;
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      g_autofree char *head = g_utf8_substring (text, 0, mid);
      g_autofree char *try = g_strconcat (g_strchomp (head), "…", NULL);
      if (tl_paint_text_width (cr, try) <= max_w)
        lo = mid;
      else
        hi = mid - 1;
    }
  if (lo == 0)
    return g_strdup ("");
  g_autofree char *head = g_utf8_substring (text, 0, lo);
  return g_strconcat (g_strchomp (head), "…", NULL);
}

double
tl_paint_text_fit (cairo_t *cr, double x, double y, double halign, double valign, double max_w,
                   const char *text)
{
  if (tl_paint_text_width (cr, text) <= max_w)
    return tl_paint_text (cr, x, y, halign, valign, text);
  g_autofree char *shown = tl_paint_fit_string (cr, text, max_w);
  return *shown ? tl_paint_text (cr, x, y, halign, valign, shown) : 0;
}

double
tl_paint_text_fit_choice (cairo_t *cr, double x, double y, double halign, double valign, double max_w,
                          const char *choices)
{
  g_auto (GStrv) lines = g_strsplit (choices, "\n", -1);
  guint n = g_strv_length (lines);
  for (guint i = 0; i + 1 < n; i++)
    if (tl_paint_text_width (cr, lines[i]) <= max_w)
      return tl_paint_text (cr, x, y, halign, valign, lines[i]);
  return n ? tl_paint_text_fit (cr, x, y, halign, valign, max_w, lines[n - 1]) : 0;
}

double
tl_paint_fit_font (cairo_t *cr, const TlPaintStyle *style, double size, double min_size,
                   gboolean bold, double max_w, const char *text)
{
  double s = size;
  for (;;)
    {
      tl_paint_set_font (cr, style, s, bold);
      if (s <= min_size || tl_paint_text_width (cr, text) <= max_w)
        return s;
      s = MAX (s * 0.95, min_size);
    }
}

void
tl_paint_label_on_patch (cairo_t *cr, const TlPaintStyle *style, double x, double y,
                         double halign, double valign, const double *rgb, const char *text)
{
  double w = tl_paint_text_width (cr, text), h = tl_paint_text_height (cr);
  double pad = h * 0.15;
  double bx = x - halign * w, by = y - valign * h;

  cairo_save (cr);
  cairo_set_source_rgba (cr, style->bg[0], style->bg[1], style->bg[2],
                         style->high_contrast ? 1.0 : 0.88);
  cairo_rectangle (cr, bx - pad, by, w + 2 * pad, h);
  cairo_fill (cr);
  if (rgb)
    cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  else
    tl_paint_set_fg (cr, style);
  tl_paint_text (cr, x, y, halign, valign, text);
  cairo_restore (cr);
}

/* the box's padding and frame around the text of tl_paint_label_boxed */
static void
label_box_metrics (cairo_t *cr, const TlPaintStyle *style, double *pad_x, double *pad_y,
                   double *line)
{
  double h = tl_paint_text_height (cr);
  *line = MAX (TL_LINE (style, 1.5), 1.0);
  *pad_x = h * 0.3 + *line;
  *pad_y = h * 0.08 + *line;
}

void
tl_paint_label_boxed_size (cairo_t *cr, const TlPaintStyle *style, const char *text, double *w,
                           double *h)
{
  double pad_x, pad_y, line;
  label_box_metrics (cr, style, &pad_x, &pad_y, &line);
  if (w)
    *w = tl_paint_text_width (cr, text) + 2 * pad_x;
  if (h)
    *h = tl_paint_text_height (cr) + 2 * pad_y;
}

double
tl_paint_label_boxed (cairo_t *cr, const TlPaintStyle *style, double x, double y, double max_w,
                      const double *rgb, const char *text)
{
  double pad_x, pad_y, line, w, h;
  label_box_metrics (cr, style, &pad_x, &pad_y, &line);
  tl_paint_label_boxed_size (cr, style, text, &w, &h);
  w = MIN (w, max_w);
  if (w <= 2 * pad_x)
    return 0;
  const double *edge = rgb ? rgb : style->fg;
  /* the info bars' tint: enough of the colour to say "warning", little
   * enough that fg on it keeps the theme's own contrast */
  const double tint = 0.18;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_set_source_rgb (cr, style->bg[0] + (edge[0] - style->bg[0]) * tint,
                        style->bg[1] + (edge[1] - style->bg[1]) * tint,
                        style->bg[2] + (edge[2] - style->bg[2]) * tint);
  cairo_fill (cr);
  cairo_rectangle (cr, x + line / 2, y + line / 2, w - line, h - line);
  cairo_set_source_rgb (cr, edge[0], edge[1], edge[2]);
  cairo_set_line_width (cr, line);
  cairo_stroke (cr);
  tl_paint_set_fg (cr, style);
  /* a box as wide as its size asked for holds its text whole, whatever
   * (width + 2·pad) − 2·pad rounds to */
  tl_paint_text_fit (cr, x + pad_x, y + pad_y, 0, 0, w - 2 * pad_x + 1e-6, text);
  cairo_restore (cr);
  return w;
}

/* Appends the lines of paragraph, wrapped at spaces to max_w, to lines. */
static void
wrap_paragraph (cairo_t *cr, const char *paragraph, double max_w, GPtrArray *lines)
{
  g_auto (GStrv) words = g_strsplit (paragraph, " ", -1);
  GString *line = g_string_new (NULL);
  for (guint i = 0; words[i]; i++)
    {
      gsize keep = line->len;
      if (line->len)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
      if (keep > 0 && tl_paint_text_width (cr, line->str) > max_w)
        {
          g_string_truncate (line, keep);
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
    }
  g_ptr_array_add (lines, g_string_free (line, FALSE));
}

guint
tl_paint_text_wrap (cairo_t *cr, double x, double y, double max_w, double line_h,
                    guint max_lines, const char *text)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  wrap_paragraph (cr, text, max_w, lines);
  guint n = MIN (lines->len, MAX (max_lines, 1u));
  for (guint i = 0; i < n; i++)
    {
      if (i == n - 1 && lines->len > n)
        {
          /* what does not fit goes into the last line's ellipsis */
          g_autoptr (GString) rest = g_string_new (lines->pdata[i]);
          for (guint j = i + 1; j < lines->len; j++)
            g_string_append_printf (rest, " %s", (char *) lines->pdata[j]);
          tl_paint_text_fit (cr, x, y + i * line_h, 0, 0, max_w, rest->str);
        }
      else
        tl_paint_text_fit (cr, x, y + i * line_h, 0, 0, max_w, lines->pdata[i]);
    }
  return n;
}

guint
tl_paint_text_wrap_count (cairo_t *cr, double max_w, const char *text)
{
  if (text == NULL || *text == '\0')
    return 0;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  wrap_paragraph (cr, text, max_w, lines);
  return lines->len;
}

/* The lines of a hint, wrapped to max_w in the hint's type (set on cr). */
static GPtrArray *
hint_lines (cairo_t *cr, const char *text, double max_w)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) paragraphs = g_strsplit (text, "\n", -1);
  for (guint i = 0; paragraphs[i]; i++)
    wrap_paragraph (cr, paragraphs[i], max_w, lines);
  return lines;
}

static void
paint_hint_at (cairo_t *cr, const TlPaintStyle *style, double width, double centre_y,
               gboolean boxed, const char *text)
{
  if (text == NULL || *text == '\0')
    return;
  double max_w = MAX (width * 0.86, 1.0);

  cairo_save (cr);
  tl_paint_set_font (cr, style, style->font_size * 1.15, FALSE);
  g_autoptr (GPtrArray) lines = hint_lines (cr, text, max_w);
  double lh = tl_paint_text_height (cr) * 1.25;
  double y = centre_y - lines->len * lh / 2;
  if (boxed)
    {
      double w = 0;
      for (guint i = 0; i < lines->len; i++)
        w = MAX (w, MIN (tl_paint_text_width (cr, lines->pdata[i]), max_w));
      double pad = lh * 0.5;
      cairo_set_source_rgb (cr, style->bg[0], style->bg[1], style->bg[2]);
      cairo_rectangle (cr, (width - w) / 2 - pad, MAX (y, 0) - pad, w + 2 * pad, lines->len * lh + 2 * pad);
      cairo_fill_preserve (cr);
      tl_paint_set_fg (cr, style);
      cairo_set_line_width (cr, TL_PX (style, 1));
      cairo_stroke (cr);
    }
  tl_paint_set_fg (cr, style);
  for (guint i = 0; i < lines->len; i++, y += lh)
    tl_paint_text_fit (cr, width / 2, MAX (y, 0), 0.5, 0, max_w, lines->pdata[i]);
  cairo_restore (cr);
}

void
tl_paint_hint (cairo_t *cr, const TlPaintStyle *style, double width, double height,
               const char *text)
{
  paint_hint_at (cr, style, width, height / 2, FALSE, text);
}

void
tl_paint_hint_boxed (cairo_t *cr, const TlPaintStyle *style, double width, double centre_y,
                     const char *text)
{
  paint_hint_at (cr, style, width, centre_y, TRUE, text);
}

/* ---- ticks ------------------------------------------------------------- */

/* Is [lo, hi] finite?  Puts it in order. */
static gboolean
finite_range (double *lo, double *hi)
{
  if (!isfinite (*lo) || !isfinite (*hi))
    return FALSE;
  if (*hi < *lo)
    {
      double t = *lo;
      *lo = *hi;
      *hi = t;
    }
  return TRUE;
}

#define AXIS_MAX_TICKS 64

/* The smallest 1, 2, 5 × 10^k that is ≥ x (> 0). */
static double
nice_at_least (double x)
{
  double mag = pow (10.0, floor (log10 (x)));
  for (int i = 0; i < 4; i++, mag *= 10)
    {
      if (mag >= x * (1 - 1e-12))
        return mag;
      if (2 * mag >= x * (1 - 1e-12))
        return 2 * mag;
      if (5 * mag >= x * (1 - 1e-12))
        return 5 * mag;
    }
  return mag;
}

/* How far apart two neighbouring labels must be: clear of each other,
 * and calm enough to read from the back (not a tick every two digits). */
static double
tick_spacing (double em, double w, double prev_w, gboolean vertical)
{
  if (vertical)
    return em * 2.0;
  return MAX ((w + prev_w) / 2 + em * 1.0, em * 2.4);
}

/* Do the labels of ticks v[0..n) at positions v·px_per_unit keep clear? */
static gboolean
labels_fit (cairo_t *cr, const double *v, guint n, double px_per_unit, gboolean vertical,
            TlTickFormat format)
{
  double em = tl_paint_text_height (cr);
  double prev_w = 0, prev_at = 0;
  for (guint i = 0; i < n; i++)
    {
      char buf[64];
      format (v[i], buf, sizeof buf);
      double at = v[i] * px_per_unit;
      double w = vertical ? em : tl_paint_text_width (cr, buf);
      if (i > 0 && fabs (at - prev_at) < tick_spacing (em, w, prev_w, vertical))
        return FALSE;
      prev_w = w;
      prev_at = at;
    }
  return TRUE;
}

guint
tl_paint_axis_ticks (cairo_t *cr, double lo, double hi, double px_per_unit, gboolean vertical,
                     gboolean integers, TlTickFormat format, double *out, guint max_out)
{
  if (!finite_range (&lo, &hi) || max_out == 0 || !(px_per_unit > 0))
    return 0;
  if (format == NULL)
    format = tl_format_value;
  if (hi == lo)
    {
      out[0] = lo;
      return 1;
    }

  double em = tl_paint_text_height (cr);
  double step = nice_at_least (MAX ((hi - lo) / MIN (max_out, AXIS_MAX_TICKS),
                                    em * 0.9 / px_per_unit));
  if (integers)
    step = MAX (step, 1.0);
  double v[AXIS_MAX_TICKS];
  guint n = 0;
  for (int tries = 0; tries < 60; tries++)
    {
      double first = ceil (lo / step - 1e-9) * step;
      n = 0;
      if ((hi - first) / step + 1 > AXIS_MAX_TICKS)
        {
          step = nice_at_least (step * 1.01);
          continue;
        }
      for (double t = first; t <= hi + step * 1e-9 && n < AXIS_MAX_TICKS; t += step)
        v[n++] = fabs (t) < step * 1e-9 ? 0.0 : t;
      if (n <= max_out && labels_fit (cr, v, n, px_per_unit, vertical, format))
        break;
      step = nice_at_least (step * 1.01);
      if (step > (hi - lo) * 4)
        {
          /* not even two labels fit: the first alone */
          n = MIN (n, 1u);
          break;
        }
    }
  for (guint i = 0; i < n; i++)
    out[i] = v[i];
  return n;
}

guint
tl_paint_power_ticks (cairo_t *cr, double base, double lo, double hi, double px_per_power,
                      gboolean vertical, TlTickFormat format, double *out, guint max_out)
{
  if (!(lo > 0) || !(hi >= lo) || !isfinite (hi) || max_out == 0 || !(base > 1))
    return 0;
  if (format == NULL)
    format = tl_format_value;

  int e0 = (int) ceil (log (lo) / log (base) - 1e-9);
  int e1 = (int) floor (log (hi) / log (base) + 1e-9);
  static const int strides[] = { 1, 2, 3, 4, 5, 10, 20, 50, 100 };
  double v[AXIS_MAX_TICKS], pos[AXIS_MAX_TICKS];
  guint n = 0;

  if (e1 < e0)
    return 0;
  for (guint s = 0; s < G_N_ELEMENTS (strides); s++)
    {
      int stride = strides[s];
      n = 0;
      /* multiples of the stride, so 10⁰ stays when it is in range */
      int first = (int) ceil ((double) e0 / stride) * stride;
      for (int e = first; e <= e1 && n < AXIS_MAX_TICKS; e += stride)
        {
          v[n] = pow (base, e);
          pos[n] = e;
          n++;
        }
      if (n == 0)
        {
          v[0] = pow (base, e0);
          pos[0] = e0;
          n = 1;
        }
      /* labels_fit measures positions as value × scale: pass exponents */
      gboolean fits = TRUE;
      double em = tl_paint_text_height (cr);
      for (guint i = 1; i < n && fits; i++)
        {
          char a[64], b[64];
          format (v[i - 1], a, sizeof a);
          format (v[i], b, sizeof b);
          double need = tick_spacing (em, tl_paint_text_width (cr, a), tl_paint_text_width (cr, b),
                                      vertical);
          fits = (pos[i] - pos[i - 1]) * px_per_power >= need;
        }
      if (fits && n <= max_out)
        break;
    }
  n = MIN (n, max_out);
  for (guint i = 0; i < n; i++)
    out[i] = v[i];
  return n;
}

/* Top edge (rows FALSE) or left edge (rows TRUE); returns the left end of
 * the labels (plot_x when there are none, or for the top edge). */
static double
index_ticks (cairo_t *cr, const TlPaintStyle *style, double plot_x, double plot_y, double origin,
             double cell_px, double lo, double hi, gboolean rows)
{
  double ticks[AXIS_MAX_TICKS];
  double tick = TL_PX (style, 5);
  char buf[32];
  double label_left = plot_x;
  guint n = tl_paint_axis_ticks (cr, lo, hi, cell_px, rows, TRUE, tl_format_index, ticks,
                                 AXIS_MAX_TICKS);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width));
  for (guint i = 0; i < n; i++)
    {
      double at = (rows ? plot_y : plot_x) + (ticks[i] + 0.5 - origin) * cell_px;
      tl_format_index (ticks[i], buf, sizeof buf);
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
                          double origin, double cell_px, double lo, double hi)
{
  index_ticks (cr, style, plot_x, plot_y, origin, cell_px, lo, hi, FALSE);
}

double
tl_paint_index_ticks_left (cairo_t *cr, const TlPaintStyle *style, double plot_x, double plot_y,
                           double origin, double cell_px, double lo, double hi)
{
  return index_ticks (cr, style, plot_x, plot_y, origin, cell_px, lo, hi, TRUE);
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
  if (!finite_range (&lo, &hi) || max_out == 0)
    return 0;
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

void
tl_paint_legend_grid (const TlPaintStyle *style, guint n, double label_w, double swatch_em,
                      double label_cap_em, double avail_h, double max_w, TlLegendGrid *out)
{
  double font = TL_PX (style, style->font_size);
  out->row_h = font * 1.45;
  out->rows = (guint) MAX (floor (avail_h / out->row_h), 1);
  out->cols = n ? (n + out->rows - 1) / out->rows : 0;
  if (out->cols > 0)
    out->rows = (n + out->cols - 1) / out->cols;
  double swatch = font * swatch_em;
  double col_w = swatch + MIN (label_w, font * label_cap_em) + font * 0.8;
  if (out->cols * col_w > max_w)
    col_w = MAX (max_w / MAX (out->cols, 1), swatch + font * 4);
  out->col_w = col_w;
  for (guint c = 0; c < MIN (out->cols, TL_LEGEND_MAX_COLS); c++)
    {
      out->col_left[c] = c * col_w;
      out->col_width[c] = col_w;
    }
}

/* The widths of cols columns, rows entries each (column-major), as wide as
 * their widest label (each capped at cap) plus extra; their sum. */
static double
legend_natural_widths (const double *label_w, guint n, guint rows, guint cols, double cap,
                       double extra, double *widths)
{
  double sum = 0;
  for (guint c = 0; c < cols; c++)
    {
      double w = 0;
      for (guint i = c * rows; i < MIN (n, (c + 1) * rows); i++)
        w = MAX (w, MIN (label_w[i], cap));
      widths[c] = w + extra;
      sum += widths[c];
    }
  return sum;
}

/* Shrinks widths (their sum total) to max_w: the columns narrower than a
 * level keep their width, the others get the level (no narrower than
 * least); the level found by halving. */
static void
legend_share_width (double *widths, guint cols, double total, double max_w, double least)
{
  if (total <= max_w)
    return;
  double lo = least, hi = 0;
  for (guint c = 0; c < cols; c++)
    hi = MAX (hi, widths[c]);
  for (int step = 0; step < 40; step++)
    {
      double level = (lo + hi) / 2, sum = 0;
      for (guint c = 0; c < cols; c++)
        sum += MAX (MIN (widths[c], level), least);
      if (sum > max_w)
        hi = level;
      else
        lo = level;
    }
  for (guint c = 0; c < cols; c++)
    widths[c] = MAX (MIN (widths[c], lo), least);
}

/* How many of the labels the columns (widths, less extra) cut. */
static guint
legend_cut_count (const double *label_w, guint n, guint rows, const double *widths, double extra)
{
  guint cut = 0;
  for (guint i = 0; i < n; i++)
    cut += label_w[i] > widths[i / rows] - extra + 0.5;
  return cut;
}

guint
tl_paint_legend_grid_fit (const TlPaintStyle *style, guint n, const double *label_w,
                          double swatch_em, double label_cap_em, double label_least_em,
                          guint max_rows, double max_w, gboolean fewest_rows, TlLegendGrid *out)
{
  double font = TL_PX (style, style->font_size);
  double extra = font * (swatch_em + 0.8), cap = font * label_cap_em;
  double widths[TL_LEGEND_MAX_COLS], best_w = G_MAXDOUBLE;
  guint best_cut = G_MAXUINT, first_rows = MAX ((n + TL_LEGEND_MAX_COLS - 1) / TL_LEGEND_MAX_COLS, 1);
  out->row_h = font * TL_LEGEND_FIT_ROW_EM;
  out->rows = first_rows;
  out->cols = 0;
  for (guint rows = first_rows; rows <= MAX (max_rows, first_rows) && n > 0; rows++)
    {
      guint cols = (n + rows - 1) / rows;
      double total = legend_natural_widths (label_w, n, rows, cols, cap, extra, widths);
      legend_share_width (widths, cols, total, max_w, extra + font * label_least_em);
      guint cut = legend_cut_count (label_w, n, rows, widths, extra);
      double sum = 0;
      for (guint c = 0; c < cols; c++)
        sum += widths[c];
      if (sum > max_w + 0.5)
        cut = n + 1; /* too wide even at the least: worse than any cut */
      if (cut > best_cut || (cut == best_cut && (fewest_rows || sum >= best_w)))
        continue;
      best_cut = cut, best_w = sum;
      out->rows = rows, out->cols = cols, out->col_w = 0;
      for (guint c = 0; c < cols; c++)
        {
          out->col_left[c] = c ? out->col_left[c - 1] + out->col_width[c - 1] : 0;
          out->col_width[c] = widths[c];
          out->col_w = MAX (out->col_w, widths[c]);
        }
    }
  return n > 0 ? best_cut : 0;
}

double
tl_paint_legend_grid_width (const TlLegendGrid *grid)
{
  if (grid->cols == 0 || grid->cols > TL_LEGEND_MAX_COLS)
    return grid->cols * grid->col_w;
  return grid->col_left[grid->cols - 1] + grid->col_width[grid->cols - 1];
}

double
tl_paint_legend_entry_width (const TlLegendGrid *grid, guint i)
{
  guint col = i / MAX (grid->rows, 1);
  return col < MIN (grid->cols, TL_LEGEND_MAX_COLS) ? grid->col_width[col] : grid->col_w;
}

void
tl_paint_legend_entry_at (const TlLegendGrid *grid, double x0, double y0, guint i, double *x,
                          double *y)
{
  guint col = i / MAX (grid->rows, 1), row = i % MAX (grid->rows, 1);
  *x = x0 + (col < MIN (grid->cols, TL_LEGEND_MAX_COLS) ? grid->col_left[col] : col * grid->col_w);
  *y = y0 + (row + 0.5) * grid->row_h;
}

gboolean
tl_paint_choice_from_name (const char *name, const char *const *names, guint *out)
{
  for (guint i = 0; name != NULL && names[i] != NULL; i++)
    if (strcmp (name, names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

void
tl_paint_plot_frame_titles (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w,
                            double h, double x_title_w, const char *x_title, const char *y_title)
{
  double font = TL_PX (style, style->font_size);
  tl_paint_frame (cr, style, x, y, w, h);
  tl_paint_text_fit_choice (cr, x + w / 2, y + h + font * 1.7, 0.5, 0, x_title_w, x_title);
  cairo_save (cr);
  cairo_translate (cr, font * 0.3, y + h / 2);
  cairo_rotate (cr, -G_PI / 2);
  tl_paint_text_fit_choice (cr, 0, 0, 0.5, 0, h, y_title);
  cairo_restore (cr);
}

void
tl_paint_x_tick (cairo_t *cr, const TlPaintStyle *style, double x, double plot_y, double plot_h,
                 const char *label)
{
  tl_paint_set_fg_alpha (cr, style, 0.18);
  cairo_move_to (cr, x, plot_y);
  cairo_line_to (cr, x, plot_y + plot_h);
  cairo_stroke (cr);
  tl_paint_set_fg (cr, style);
  tl_paint_text (cr, x, plot_y + plot_h + TL_PX (style, 4), 0.5, 0, label);
}

void
tl_paint_y_tick (cairo_t *cr, const TlPaintStyle *style, double y, double plot_x, double plot_w,
                 const char *label)
{
  tl_paint_set_fg_alpha (cr, style, 0.18);
  cairo_move_to (cr, plot_x, y);
  cairo_line_to (cr, plot_x + plot_w, y);
  cairo_stroke (cr);
  tl_paint_set_fg (cr, style);
  tl_paint_text (cr, plot_x - TL_PX (style, 4), y, 1.0, 0.5, label);
}
