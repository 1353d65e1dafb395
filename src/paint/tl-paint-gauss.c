/* tl-paint-gauss.c — the working matrix, its L/U/panel/Schur regions, the pivot
 * search, the row swap, the time split per block step and the running facts. */
#include "paint/tl-paint-gauss.h"
#include "paint/tl-paint-gauss-side.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "paint/tl-paint-util.h"

void
tl_gauss_model_init (TlGaussModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlGaussModel) {0};
  model->show_values = TRUE;
  model->show_timing = TRUE;
  model->record_range = FALSE;
}

static void
heat_model (const TlGaussModel *model, TlHeatmapModel *hm)
{
  const TlGaussFrame *f = model->frame;
  const TlLuRecorder *rec = f->record;

  tl_heatmap_model_init (hm);
  hm->grid = f->matrix;
  hm->show_axes = TRUE;
  hm->show_colorbar = TRUE;
  if (rec->modulus > 0)
    {
      tl_color_scale_init (&hm->scale, TL_COLORMAP_VIRIDIS, TL_SCALE_LINEAR, 0,
                           (double) MAX (rec->modulus - 1, 1));
      hm->units = _("value mod p");
    }
  else if (model->record_range)
    {
      /* one scale for the whole record, so colours mean the same in every frame */
      double m = f->value_range > 0 ? f->value_range : 1.0;
      tl_color_scale_init (&hm->scale, TL_COLORMAP_RDBU, TL_SCALE_LINEAR, -m, m);
      hm->units = _("value, one range for every step");
    }
  else
    {
      /* this step's own range: the early steps of a ±1 matrix are not
       * washed out by the growth of the later ones */
      double m = f->matrix->range.max_abs > 0 ? f->matrix->range.max_abs : 1.0;
      tl_color_scale_init (&hm->scale, TL_COLORMAP_RDBU, TL_SCALE_LINEAR, -m, m);
      hm->units = _("value, this step's range");
    }
  hm->caption = _("working matrix");
}

/* The line under the title: the matrix, the pivoting, the block, and the
 * step (current: step k, else finished) in block step block (-1: none). */
static GString *
subtitle_text_at (const TlGaussFrame *f, gboolean current, guint k, gint block)
{
  const TlLuRecorder *rec = f->record;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%u×%u %s", rec->rows, rec->cols,
                          rec->modulus ? "GF(p)" : rec->dtype ? rec->dtype : "");
  if (rec->modulus)
    g_string_append_printf (s, " p = %" G_GUINT64_FORMAT, rec->modulus);
  if (rec->modulus > 0)
    g_string_append (s, _(" · pivot: first nonzero (exact)"));
  else
    g_string_append_printf (s, _(" · pivoting %s"), tl_pivoting_name (rec->pivoting));
  if (rec->block_size > 0)
    g_string_append_printf (s, _(" · block %u"), rec->block_size);
  if (current)
    g_string_append_printf (s, _(" · step k = %u of 0…%u: eliminate column %u"), k,
                            f->n_steps - 1, k);
  else
    g_string_append_printf (s, _(" · finished after %u steps: L\\U packed"), f->n_steps);
  if (block >= 0)
    g_string_append_printf (s, _(" · block step %d of %u"), block + 1, rec->blocks->len);
  return s;
}

static GString *
subtitle_text (const TlGaussFrame *f)
{
  return subtitle_text_at (f, f->current != NULL, f->step, f->block);
}

#define SUBTITLE_SIZE 1.1  /* of the body's type */
#define SUBTITLE_LEAST 0.95 /* on one line, where the full size would take two */

/* The width of the record's longest subtitle in cr's font: at its last
 * step and block step, or finished. */
static double
subtitle_widest (cairo_t *cr, const TlGaussFrame *f)
{
  gint last_block = (gint) f->record->blocks->len - 1;
  GString *texts[] = {
    subtitle_text_at (f, TRUE, f->n_steps - 1, last_block),
    subtitle_text_at (f, FALSE, f->n_steps, -1),
    subtitle_text_at (f, FALSE, f->n_steps, last_block),
  };
  double widest = 0;
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      widest = MAX (widest, tl_paint_text_width (cr, texts[i]->str));
      g_string_free (texts[i], TRUE);
    }
  return widest;
}

/* The subtitle's type and lines at width: one line, its type down to
 * SUBTITLE_LEAST of the body's where the record's longest subtitle then
 * fits (the same type on every frame: a second line for "4 of 6" took 46
 * px from the time chart at 1920×1080 presenting); else at full size,
 * two where one would cut it ("… eliminate column 40 · block ste…" at
 * 1280×800 presenting, German at 1024×768). */
static void
subtitle_fit (const TlGaussFrame *f, const TlPaintStyle *style, double width, TlGaussLayout *out)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (surface);
  double max_w = width - 2 * TL_PX (style, 4);
  out->subtitle_size = style->font_size * SUBTITLE_SIZE;
  tl_paint_set_font (cr, style, out->subtitle_size, FALSE);
  double widest = subtitle_widest (cr, f);
  if (widest > max_w && widest * SUBTITLE_LEAST / SUBTITLE_SIZE <= max_w)
    out->subtitle_size *= max_w / widest * 0.98; /* type does not scale exactly */
  GString *s = subtitle_text (f);
  tl_paint_set_font (cr, style, out->subtitle_size, FALSE);
  out->subtitle_lines = tl_paint_text_width (cr, s->str) > max_w ? 2 : 1;
  g_string_free (s, TRUE);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static double
subtitle_line_h (const TlPaintStyle *style, const TlGaussLayout *lay)
{
  return TL_PX (style, lay->subtitle_size) * 1.2;
}

static double
header_height (const TlPaintStyle *style, const TlGaussLayout *lay)
{
  return TL_PX (style, style->title_font_size) * 1.4 + TL_PX (style, style->font_size) * 1.5
         + (lay->subtitle_lines - 1) * subtitle_line_h (style, lay);
}

void
tl_paint_gauss_layout (const TlGaussModel *model, const TlPaintStyle *style,
                       double width, double height, TlGaussLayout *out)
{
  g_return_if_fail (model != NULL && model->frame != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  *out = (TlGaussLayout) {0};
  subtitle_fit (model->frame, style, width, out);
  double top = header_height (style, out);

  heat_model (model, &out->heat);

  /* right panel: a third of the width, enough for its facts at full size
   * where the canvas allows; the strip: a fourteenth */
  double right_w = MAX (width * 0.33, MIN (font * 25, width * 0.42));
  double strip_w = MAX (width * 0.07, font * 5);
  out->heat_x = 0;
  out->heat_y = top;
  out->heat_w = MAX (width - right_w - strip_w - font * 1.5, 1.0);
  out->heat_h = MAX (height - top - font * 2.2, 1.0);
  tl_paint_heatmap_layout (&out->heat, style, out->heat_w, out->heat_h, &out->heat_layout);
  /* pull the heatmap left: no slack between it and the strip */
  double used = out->heat_layout.cb_w > 0 ? out->heat_layout.cb_x + out->heat_layout.cb_w
                                          : out->heat_layout.plot_x + out->heat_layout.plot_w;
  double spare = out->heat_w - used - font * 0.6;
  if (spare > 1)
    {
      out->heat_w -= spare;
      tl_paint_heatmap_layout (&out->heat, style, out->heat_w, out->heat_h, &out->heat_layout);
    }
  /* to canvas coordinates */
  out->heat_layout.plot_x += out->heat_x;
  out->heat_layout.plot_y += out->heat_y;
  out->heat_layout.cb_x += out->heat_x;
  out->heat_layout.cb_y += out->heat_y;

  out->strip_x = out->heat_x + out->heat_w + font * 3.2;
  out->strip_w = strip_w;

  double rx = out->strip_x + strip_w + font * 2.0;
  double rw = MAX (width - rx - font * 0.5, 1.0);
  gboolean timing = model->show_timing && model->frame->record->blocks->len > 0;
  /* the facts' usual room, more where their lines wrap (a narrow column
   * presenting: "Schritt 95: Pivotelement 0.9014" / "bereits in Zeile 95:
   * kein Tausch" on four lines ran off the page) */
  double facts_h = MAX (font * 1.45 * 7.5,
                        tl_paint_gauss_facts_height (model->frame, style, rw) + font * 0.5);
  out->facts_x = rx;
  out->facts_w = rw;
  if (timing)
    {
      out->chart_x = rx;
      out->chart_y = top;
      out->chart_w = rw;
      out->chart_h = MAX (height - top - facts_h - font * 0.4, font * 6);
      out->facts_y = out->chart_y + out->chart_h + font * 0.4;
    }
  else
    out->facts_y = top + font;
  out->facts_h = height - out->facts_y;
}

void
tl_gauss_layout_cell_centre (const TlGaussLayout *lay, double i, double j, double *x, double *y)
{
  const TlHeatmapLayout *h = &lay->heat_layout;
  *x = h->plot_x + (j + 0.5 - h->view_col0) * h->px_per_col;
  *y = h->plot_y + (i + 0.5 - h->view_row0) * h->px_per_row;
}

gboolean
tl_gauss_layout_cell_at (const TlGaussLayout *lay, double x, double y, gsize *row, gsize *col)
{
  return tl_heatmap_layout_cell_at (&lay->heat_layout, &lay->heat, x, y, row, col);
}

/* edges of element rows/columns in canvas pixels */
static double
ex (const TlGaussLayout *lay, double j)
{
  return lay->heat_layout.plot_x + j * lay->heat_layout.px_per_col;
}

static double
ey (const TlGaussLayout *lay, double i)
{
  return lay->heat_layout.plot_y + i * lay->heat_layout.px_per_row;
}

static void
stroke_outline (cairo_t *cr, const TlPaintStyle *style, double r, double g, double b,
                double width_units, gboolean dashed)
{
  double lw = TL_PX (style, width_units);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  if (dashed)
    {
      double d[2] = { lw * 3, lw * 2 };
      cairo_set_dash (cr, d, 2, 0);
    }
  /* a light halo first, so the outline shows on every colour */
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_set_line_width (cr, lw + TL_PX (style, 2));
  cairo_stroke_preserve (cr);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_set_line_width (cr, lw);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* A region's name in its colour, lightened on a dark page (the blue U and
 * the green panel read about 2:1 on Adwaita's dark grey). */
static void
label_box (cairo_t *cr, const TlPaintStyle *style, double x, double y, double ha, double va,
           double r, double g, double b, const char *text)
{
  double rgb[3] = { r, g, b };
  for (int i = 0; tl_paint_style_is_dark (style) && i < 3; i++)
    rgb[i] += (1 - rgb[i]) * 0.45;
  tl_paint_label_on_patch (cr, style, x, y, ha, va, rgb, text);
}

static void
paint_values (cairo_t *cr, const TlGaussModel *model, const TlGaussLayout *lay,
              const TlPaintStyle *style)
{
  const TlPooledGrid *g = model->frame->matrix;
  const TlHeatmapLayout *h = &lay->heat_layout;
  double font = TL_PX (style, style->font_size);
  gboolean gfp = model->frame->record->modulus > 0;
  double cell = MIN (h->px_per_col, h->px_per_row);

  if (!model->show_values || g->factor_r != 1 || g->factor_c != 1 || cell < font * 1.6)
    return;
  /* the font that fits the widest value in a cell */
  double size = MIN (style->font_size, cell / style->scale / (gfp ? 2.2 : 3.4));
  if (TL_PX (style, size) < TL_PX (style, 7))
    return;
  cairo_save (cr);
  tl_paint_set_font (cr, style, size, FALSE);
  for (gsize i = 0; i < g->grid_rows; i++)
    for (gsize j = 0; j < g->grid_cols; j++)
      {
        double v = tl_pooled_grid_get (g, i, j);
        char buf[32];
        guint8 rgb[3];
        if (gfp)
          g_snprintf (buf, sizeof buf, "%.0f", v);
        else
          {
            g_ascii_formatd (buf, sizeof buf, fabs (v) >= 100 ? "%.0f" : "%.2f", v);
            if (g_str_has_prefix (buf, "-0.00") || strcmp (buf, "0.00") == 0)
              g_strlcpy (buf, "0", sizeof buf);
          }
        tl_color_scale_rgb (&lay->heat.scale, v, rgb);
        double lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
        if (lum < 128)
          cairo_set_source_rgb (cr, 1, 1, 1);
        else
          cairo_set_source_rgb (cr, 0, 0, 0);
        double x, y;
        tl_gauss_layout_cell_centre (lay, i, j, &x, &y);
        tl_paint_text (cr, x, y, 0.5, 0.5, buf);
      }
  cairo_restore (cr);
}

/* L below the diagonal in columns 0…N−1 (tinted), U in rows 0…N−1 from
 * the diagonal on */
static void
paint_l_and_u (cairo_t *cr, const TlGaussLayout *lay, const TlPaintStyle *style, double N, double m,
               double n)
{
  cairo_move_to (cr, ex (lay, 0), ey (lay, 1));
  for (double j = 0; j < N; j++)
    {
      cairo_line_to (cr, ex (lay, j + 1), ey (lay, j + 1));
      if (j + 1 < N)
        cairo_line_to (cr, ex (lay, j + 1), ey (lay, j + 2));
    }
  cairo_line_to (cr, ex (lay, N), ey (lay, m));
  cairo_line_to (cr, ex (lay, 0), ey (lay, m));
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, TL_GAUSS_RGB_L, 0.14);
  cairo_fill_preserve (cr);
  stroke_outline (cr, style, TL_GAUSS_RGB_L, 3.0, FALSE);

  cairo_move_to (cr, ex (lay, 0), ey (lay, 0));
  cairo_line_to (cr, ex (lay, n), ey (lay, 0));
  cairo_line_to (cr, ex (lay, n), ey (lay, N));
  for (double i = N - 1; i >= 0; i--)
    {
      cairo_line_to (cr, ex (lay, i), ey (lay, i + 1));
      cairo_line_to (cr, ex (lay, i), ey (lay, i));
    }
  cairo_close_path (cr);
  stroke_outline (cr, style, TL_GAUSS_RGB_U, 3.0, FALSE);
}

/* the pivot column N and the chosen pivot, ringed */
static void
paint_pivot_column (cairo_t *cr, const TlGaussFrame *f, const TlGaussLayout *lay, const TlPaintStyle *style,
                    double N, double m)
{
  cairo_rectangle (cr, ex (lay, N), ey (lay, N), ex (lay, N + 1) - ex (lay, N), ey (lay, m) - ey (lay, N));
  stroke_outline (cr, style, TL_GAUSS_RGB_PIVOT, 1.5, FALSE);
  if (f->current->pivot_row < 0)
    return;
  double cx, cy;
  double r = MAX (lay->heat_layout.px_per_col * 0.58, TL_PX (style, 9));
  tl_gauss_layout_cell_centre (lay, f->current->pivot_row, N, &cx, &cy);
  cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_line_width (cr, TL_PX (style, 5));
  cairo_stroke_preserve (cr);
  cairo_set_source_rgb (cr, TL_GAUSS_RGB_PIVOT);
  cairo_set_line_width (cr, TL_PX (style, 3));
  cairo_stroke (cr);
}

/* region names, where there is room */
static void
paint_region_names (cairo_t *cr, const TlGaussFrame *f, const TlGaussLayout *lay, const TlPaintStyle *style,
                    double N, double m, double n)
{
  const TlHeatmapLayout *h = &lay->heat_layout;
  double font = TL_PX (style, style->font_size);

  cairo_save (cr);
  tl_paint_set_font (cr, style, style->font_size * 1.1, TRUE);
  double lab = font * 1.6;
  if (N >= 2 && ey (lay, m) - ey (lay, N) > lab && ex (lay, N) - ex (lay, 0) > lab)
    label_box (cr, style, ex (lay, 0) + font * 0.4, ey (lay, m) - font * 0.3, 0, 1,
               TL_GAUSS_RGB_L, "L");
  if (N >= 1 && ey (lay, N) - ey (lay, 0) > lab * 0.8)
    label_box (cr, style, ex (lay, n) - font * 0.4, ey (lay, 0) + font * 0.2, 1, 0,
               TL_GAUSS_RGB_U, "U");
  if (N < m && N < n && ey (lay, m) - ey (lay, N) > lab * 2)
    {
      char buf[96];
      g_snprintf (buf, sizeof buf, _("Schur complement %.0f×%.0f"), m - N, n - N);
      /* only where the region is wide enough to hold it */
      if (tl_paint_text_width (cr, buf) + font * 1.2 < ex (lay, n) - ex (lay, N))
        /* in the theme's colour on its patch: near-black on a dark theme's patch was unreadable */
        tl_paint_label_on_patch (cr, style, ex (lay, n) - font * 0.4, ey (lay, m) - font * 0.3, 1, 1, NULL,
                                 buf);
    }
  if (f->block >= 0)
    {
      const TlLuBlockStep *bs = &g_array_index (f->record->blocks, TlLuBlockStep, f->block);
      tl_paint_set_font (cr, style, style->font_size, TRUE);
      char buf[64];
      g_snprintf (buf, sizeof buf, _("panel %u"), bs->index + 1);
      double x = ex (lay, bs->k0);
      label_box (cr, style, x, h->plot_y + h->plot_h + font * 0.2, 0, 0, TL_GAUSS_RGB_PANEL, buf);
    }
  cairo_restore (cr);
}

static void
paint_regions (cairo_t *cr, const TlGaussModel *model, const TlGaussLayout *lay,
               const TlPaintStyle *style)
{
  const TlGaussFrame *f = model->frame;
  const TlLuRecorder *rec = f->record;
  double m = rec->rows, n = rec->cols;
  double N = MIN (f->step, MIN (rec->rows, rec->cols));
  double font = TL_PX (style, style->font_size);

  cairo_save (cr);
  const TlHeatmapLayout *h = &lay->heat_layout;
  cairo_rectangle (cr, h->plot_x - font, h->plot_y - font, h->plot_w + 2 * font, h->plot_h + 2 * font);
  cairo_clip (cr);
  tl_paint_set_font (cr, style, style->font_size, TRUE);

  /* the current panel of a blocked kernel: columns k0…k0+kb−1, rows k0… */
  if (f->block >= 0)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, f->block);
      cairo_rectangle (cr, ex (lay, bs->k0), ey (lay, bs->k0),
                       ex (lay, MIN (bs->k0 + bs->kb, n)) - ex (lay, bs->k0), ey (lay, m) - ey (lay, bs->k0));
      cairo_set_source_rgba (cr, TL_GAUSS_RGB_PANEL, 0.12);
      cairo_fill_preserve (cr);
      stroke_outline (cr, style, TL_GAUSS_RGB_PANEL, 2.5, FALSE);
    }

  /* the Schur complement still to eliminate */
  if (N < m && N < n)
    {
      cairo_rectangle (cr, ex (lay, N), ey (lay, N), ex (lay, n) - ex (lay, N), ey (lay, m) - ey (lay, N));
      stroke_outline (cr, style, TL_GAUSS_RGB_SCHUR, 2.0, TRUE);
    }
  if (N >= 1)
    paint_l_and_u (cr, lay, style, N, m, n);
  if (f->current != NULL && N < n)
    paint_pivot_column (cr, f, lay, style, N, m);
  cairo_restore (cr);

  paint_region_names (cr, f, lay, style, N, m, n);
}

/* the strip's titles over it (while a step is on show) and its axis line */
static void
strip_titles (cairo_t *cr, const TlGaussFrame *f, const TlGaussLayout *lay, const TlPaintStyle *style)
{
  const TlHeatmapLayout *h = &lay->heat_layout;
  double font = TL_PX (style, style->font_size);
  double x0 = lay->strip_x, w = lay->strip_w;

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  char title[64];
  if (f->record->modulus > 0)
    g_snprintf (title, sizeof title, _("a(i, %u) mod p"), f->step);
  else
    g_snprintf (title, sizeof title, _("|a(i, %u)|"), f->step);
  /* over the strip, reaching left into the room of the swap arrow, never
   * right into the right panel's title */
  double right = MIN (x0 + w, lay->facts_x - font * 0.8);
  double room = right - (x0 - font * 2.6);
  if (f->current)
    tl_paint_text_fit (cr, right, h->plot_y - TL_PX (style, 5) - font * 1.35, 1.0, 1.0, room,
                       _("pivot search"));
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  if (f->current)
    tl_paint_text_fit (cr, right, h->plot_y - TL_PX (style, 5), 1.0, 1.0, room, title);

  cairo_set_line_width (cr, TL_PX (style, style->line_width));
  cairo_move_to (cr, round (x0) + 0.5, h->plot_y);
  cairo_line_to (cr, round (x0) + 0.5, h->plot_y + h->plot_h);
  cairo_stroke (cr);
}

/* |a(i, k)| for the rows below the diagonal, one bar per (pooled) row;
 * the chosen pivot's in the pivot colour */
static void
strip_bars (cairo_t *cr, const TlGaussFrame *f, const TlGaussLayout *lay, const TlPaintStyle *style)
{
  const TlLuStep *st = f->current;
  double x0 = lay->strip_x, w = lay->strip_w;
  double vmax = 0;
  for (guint e = 0; e < st->column.len; e++)
    if (isfinite (st->column.data[e]))
      vmax = MAX (vmax, fabs (st->column.data[e]));
  if (vmax <= 0)
    vmax = 1;

  guint pool = MAX (st->column.pool, 1);
  for (guint e = 0; e < st->column.len; e++)
    {
      double r0 = st->k + (double) e * pool;
      double r1 = MIN (r0 + pool, (double) f->record->rows);
      double y0 = ey (lay, r0), y1 = ey (lay, r1);
      double pad = (y1 - y0) >= 4 ? (y1 - y0) * 0.15 : 0;
      double v = fabs (st->column.data[e]);
      double bw = isfinite (v) ? v / vmax * w : 0;
      gboolean chosen = st->pivot_row >= r0 && st->pivot_row < r1;
      if (chosen)
        cairo_set_source_rgb (cr, TL_GAUSS_RGB_PIVOT);
      else
        cairo_set_source_rgba (cr, style->fg[0], style->fg[1], style->fg[2],
                               style->high_contrast ? 0.55 : 0.35);
      cairo_rectangle (cr, x0, y0 + pad, MAX (bw, 1.0), MAX (y1 - y0 - 2 * pad, 1.0));
      cairo_fill (cr);
    }
}

/* the swap as a bracket left of the bars, from row k (at ky) to the
 * pivot row (at py), with arrowheads at both ends */
static void
swap_arrow (cairo_t *cr, const TlGaussLayout *lay, const TlPaintStyle *style, double ky, double py)
{
  double font = TL_PX (style, style->font_size);
  double ax = lay->strip_x - font * 0.6, bulge = font * 1.6;
  double lw = TL_PX (style, 2.5), head = TL_PX (style, 9);
  cairo_set_source_rgb (cr, 0.80, 0.10, 0.10);
  cairo_set_line_width (cr, lw);
  cairo_move_to (cr, ax, ky);
  cairo_curve_to (cr, ax - bulge, ky, ax - bulge, py, ax, py);
  cairo_stroke (cr);
  for (int end = 0; end < 2; end++)
    {
      double y = end ? py : ky;
      cairo_move_to (cr, ax + TL_PX (style, 1), y);
      cairo_line_to (cr, ax - head, y - head * 0.55);
      cairo_line_to (cr, ax - head, y + head * 0.55);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  tl_paint_set_font (cr, style, style->font_size * 0.9, TRUE);
  cairo_save (cr);
  cairo_translate (cr, ax - bulge * 0.75 - TL_PX (style, 3), (ky + py) / 2);
  cairo_rotate (cr, -G_PI / 2);
  if (fabs (py - ky) > tl_paint_text_width (cr, _("swap")) + font)
    tl_paint_text (cr, 0, 0, 0.5, 1.0, _("swap"));
  cairo_restore (cr);
}

/* the chosen pivot: its value, the swap as an arrow from row k, and the
 * two rows marked across the matrix */
static void
strip_pivot (cairo_t *cr, const TlGaussFrame *f, const TlGaussLayout *lay, const TlPaintStyle *style)
{
  const TlLuStep *st = f->current;
  const TlHeatmapLayout *h = &lay->heat_layout;
  double font = TL_PX (style, style->font_size);
  double py = ey (lay, st->pivot_row + 0.5), ky = ey (lay, st->k + 0.5);
  char buf[64], val[32];
  if (f->record->modulus > 0)
    g_snprintf (val, sizeof val, "%.0f", st->pivot_value);
  else
    tl_format_value (st->pivot_value, val, sizeof val);
  g_snprintf (buf, sizeof buf, _("pivot %s"), val);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  /* beside the pivot's bar, from the heatmap's edge (its colour bar's
   * title beside it on a wide page) to past the strip; the value alone
   * where the words do not fit there */
  double least_x = lay->heat_x + lay->heat_w, most_x = lay->strip_x + lay->strip_w + font * 1.8;
  if (tl_paint_text_width (cr, buf) > most_x - least_x)
    g_strlcpy (buf, val, sizeof buf);
  double tw = tl_paint_text_width (cr, buf);
  double tx = MAX (least_x, MIN (lay->strip_x + TL_PX (style, 4), most_x - tw));
  double ty = py + font * 0.4;
  if (ty + font * 1.3 > h->plot_y + h->plot_h)
    ty = py - font * 1.7;
  /* the pivot's orange, dark on a light page, light on a dark one (the
   * brown read 2:1 on Adwaita's dark grey) */
  static const double pivot_dark[3] = { 1.0, 0.65, 0.3 }, pivot_light[3] = { 0.55, 0.25, 0.0 };
  tl_paint_label_on_patch (cr, style, tx, ty, 0, 0,
                           tl_paint_style_is_dark (style) ? pivot_dark : pivot_light, buf);

  if (st->swapped && st->pivot_row != st->k)
    swap_arrow (cr, lay, style, ky, py);
  cairo_set_source_rgba (cr, 0.80, 0.10, 0.10, 0.9);
  cairo_set_line_width (cr, TL_PX (style, 1.5));
  double d[2] = { TL_PX (style, 5), TL_PX (style, 4) };
  cairo_set_dash (cr, d, 2, 0);
  if (st->swapped)
    for (int r = 0; r < 2; r++)
      {
        double row = r ? st->pivot_row : st->k;
        cairo_rectangle (cr, h->plot_x, ey (lay, row), h->plot_w, MAX (ey (lay, row + 1) - ey (lay, row), 1.0));
        cairo_stroke (cr);
      }
  cairo_set_dash (cr, NULL, 0, 0);
}

/* The pivot search beside the matrix: the column's values below the
 * diagonal as bars, the pivot chosen among them, the swap. */
static void
paint_strip (cairo_t *cr, const TlGaussModel *model, const TlGaussLayout *lay,
             const TlPaintStyle *style)
{
  const TlGaussFrame *f = model->frame;
  const TlLuStep *st = f->current;

  cairo_save (cr);
  strip_titles (cr, f, lay, style);
  if (st != NULL && st->column.len > 0)
    {
      strip_bars (cr, f, lay, style);
      if (st->pivot_row >= 0)
        strip_pivot (cr, f, lay, style);
    }
  cairo_restore (cr);
}

static void
paint_title (cairo_t *cr, const TlGaussModel *model, const TlGaussLayout *lay,
             const TlPaintStyle *style, double width)
{
  const TlGaussFrame *f = model->frame;
  char buf[256];
  double x = TL_PX (style, 4);

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->title_font_size, TRUE);
  if (model->title)
    g_strlcpy (buf, model->title, sizeof buf);
  else
    g_snprintf (buf, sizeof buf, _("Gauss elimination · %s"),
                f->record->kernel_id ? f->record->kernel_id : "LU");
  tl_paint_text_fit (cr, x, 0, 0, 0, width - 2 * x, buf);

  GString *s = subtitle_text (f);
  tl_paint_set_font (cr, style, lay->subtitle_size, FALSE);
  tl_paint_text_wrap (cr, x, TL_PX (style, style->title_font_size) * 1.4, width - 2 * x,
                      subtitle_line_h (style, lay), lay->subtitle_lines, s->str);
  g_string_free (s, TRUE);
}

void
tl_paint_gauss (cairo_t *cr, const TlGaussModel *model, const TlPaintStyle *style,
                double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && model->frame != NULL && style != NULL);

  TlGaussLayout lay;
  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  tl_paint_gauss_layout (model, style, width, height, &lay);

  cairo_save (cr);
  cairo_translate (cr, lay.heat_x, lay.heat_y);
  TlPaintStyle inner = *style;
  inner.transparent = TRUE;
  tl_paint_heatmap (cr, &lay.heat, &inner, lay.heat_w, lay.heat_h);
  cairo_restore (cr);

  paint_values (cr, model, &lay, style);
  paint_regions (cr, model, &lay, style);
  paint_strip (cr, model, &lay, style);
  tl_paint_gauss_chart (cr, model->frame, style, lay.chart_x, lay.chart_y, lay.chart_w, lay.chart_h);
  tl_paint_gauss_facts (cr, model->frame, style, lay.facts_x, lay.facts_y, lay.facts_w, lay.facts_h);
  paint_title (cr, model, &lay, style, width);
  cairo_restore (cr);
}
