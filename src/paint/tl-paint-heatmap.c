/* tl-paint-heatmap.c — heatmap with index axes, facts line, colorbar and overlays. */
#include "paint/tl-paint-heatmap.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "paint/tl-paint-colorbar.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"

cairo_surface_t *
tl_pooled_grid_colorize (const TlPooledGrid *self, const TlColorScale *scale)
{
  g_return_val_if_fail (self != NULL && scale != NULL, NULL);

  int w = (int) MAX (self->grid_cols, 1);
  int h = (int) MAX (self->grid_rows, 1);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_surface_flush (surface);
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  for (gsize r = 0; r < self->grid_rows; r++)
    {
      guint32 *px = (guint32 *) (data + r * stride);
      for (gsize c = 0; c < self->grid_cols; c++)
        px[c] = tl_color_scale_argb (scale, self->values[r * self->grid_cols + c]);
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

void
tl_heatmap_model_init (TlHeatmapModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlHeatmapModel) {0};
  model->highlight_row = -1;
  model->highlight_col = -1;
  model->show_axes = TRUE;
  model->show_colorbar = TRUE;
  tl_color_scale_init_auto (&model->scale, 0.0, 1.0);
}

static void
view_window (const TlHeatmapModel *model, double *r0, double *c0, double *nr, double *nc)
{
  double rows = model->grid ? (double) model->grid->src_rows : 1.0;
  double cols = model->grid ? (double) model->grid->src_cols : 1.0;

  if (model->view_rows > 0 && model->view_cols > 0)
    {
      *r0 = model->view_row0;
      *c0 = model->view_col0;
      *nr = model->view_rows;
      *nc = model->view_cols;
    }
  else
    {
      *r0 = *c0 = 0;
      *nr = MAX (rows, 1);
      *nc = MAX (cols, 1);
    }
}

static int
index_digits (const TlHeatmapModel *model)
{
  gsize n = model->grid ? MAX (model->grid->src_rows, 1) : 1;
  return tl_paint_digits (n - 1);
}

/* Device pixels per matrix element along each axis: square cells (the
 * matrix keeps its proportions) unless stretch fills the room; a matrix
 * thinner than 1:8 is widened to a strip an eighth of its long side, as
 * far as the room allows. */
static void
cell_sizes (double avail_w, double avail_h, double rows, double cols, gboolean stretch,
            double *px_r, double *px_c)
{
  if (stretch)
    {
      *px_r = avail_h / rows;
      *px_c = avail_w / cols;
      return;
    }
  double pr, pc;
  pr = pc = MIN (avail_w / cols, avail_h / rows);
  if (rows >= cols)
    pc = MAX (pc, MIN (pr * rows / 8, avail_w) / cols);
  else
    pr = MAX (pr, MIN (pc * cols / 8, avail_h) / rows);
  *px_r = pr;
  *px_c = pc;
}

static void legend_model (const TlHeatmapModel *model, TlColorbarModel *cb, char **label,
                          char **note);

/* Where the colour bar goes: beside the plot, or under it when that leaves
 * the cells more room, or as much room while the bar beside would take more
 * than a fifth of the plot's side (a panel about as tall as wide: the bar
 * beside squeezes the plot as much as the lines under it, and under it
 * reads better). Under the plot the label goes right of the strip, where it
 * fits there, rather than on a line of its own. Sets the cell sizes,
 * cb_horizontal and cb_label_beside; returns the height under the plot. */
static double
choose_colorbar_place (const TlHeatmapModel *model, const TlPaintStyle *style, TlColorbarModel *cb,
                       double width, double left, double room_w, double room_h, double side_w,
                       TlHeatmapLayout *out)
{
  double font = TL_PX (style, style->font_size);
  double rows = out->view_rows, cols = out->view_cols;
  double pr_side, pc_side, pr_under, pc_under;
  cell_sizes (MAX (room_w - side_w, 1.0), room_h, rows, cols, model->stretch, &pr_side, &pc_side);

  cb->horizontal = TRUE;
  cb->label_beside = tl_paint_colorbar_label_beside_fits (cb);
  double under_h = tl_paint_colorbar_fit_height (cb, style) + font * 0.5;
  cell_sizes (room_w, MAX (room_h - under_h, 1.0), rows, cols, model->stretch, &pr_under, &pc_under);
  if (cb->label_beside)
    {
      /* the strip as wide as the plot, its label beyond it, inside the panel */
      double strip_x, plot_w = pc_under * cols;
      double across = tl_paint_colorbar_across_width (cb, style, plot_w, &strip_x);
      double plot_x = left + (room_w - plot_w) / 2;
      if (plot_x - strip_x + across > width)
        {
          cb->label_beside = FALSE;
          under_h = tl_paint_colorbar_fit_height (cb, style) + font * 0.5;
          cell_sizes (room_w, MAX (room_h - under_h, 1.0), rows, cols, model->stretch, &pr_under,
                      &pc_under);
        }
    }

  double side_area = pr_side * pc_side, under_area = pr_under * pc_under;
  double side_plot = MIN (pr_side * rows, pc_side * cols);
  out->cb_horizontal = under_area > 1.1 * side_area
                       || (side_w > 0.2 * side_plot && under_area >= side_area);
  out->cb_label_beside = out->cb_horizontal && cb->label_beside;
  cb->horizontal = out->cb_horizontal;
  cb->label_beside = out->cb_label_beside;
  out->px_per_row = out->cb_horizontal ? pr_under : pr_side;
  out->px_per_col = out->cb_horizontal ? pc_under : pc_side;
  return under_h;
}

void
tl_paint_heatmap_layout (const TlHeatmapModel *model, const TlPaintStyle *style,
                         double width, double height, TlHeatmapLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double top = 0, left = 0, right = 0, bottom = 0;

  view_window (model, &out->view_row0, &out->view_col0, &out->view_rows, &out->view_cols);

  if (model->show_axes)
    {
      if (model->title)
        top += TL_PX (style, style->title_font_size) * 1.35;
      top += font * 1.35;                   /* facts line */
      top += font * 1.25 + TL_PX (style, 6); /* column tick labels and ticks */
      left = font * (0.64 * index_digits (model) + 0.4) + TL_PX (style, 7);
      bottom = font * 0.6;
      right = font * 1.2; /* half of the last column label */
    }

  double side_w = 0, under_h = 0;
  TlColorbarModel cb = { 0 };
  g_autofree char *label = NULL, *note = NULL;
  out->cb_w = out->cb_h = 0;
  out->cb_horizontal = out->cb_label_beside = FALSE;
  if (model->show_colorbar && model->grid != NULL)
    {
      legend_model (model, &cb, &label, &note);
      side_w = tl_paint_colorbar_fit_width (&cb, style) + font * 0.6;
    }
  double room_w = MAX (width - left - right, 1.0), room_h = MAX (height - top - bottom, 1.0);
  if (side_w > 0)
    under_h = choose_colorbar_place (model, style, &cb, width, left, room_w, room_h, side_w, out);
  else
    cell_sizes (room_w, room_h, out->view_rows, out->view_cols, model->stretch, &out->px_per_row,
                &out->px_per_col);
  double avail_w = out->cb_horizontal ? room_w : MAX (room_w - side_w, 1.0);
  out->plot_w = out->px_per_col * out->view_cols;
  out->plot_h = out->px_per_row * out->view_rows;
  out->plot_x = left + (avail_w - out->plot_w) / 2;
  out->plot_y = top;
  if (out->cb_horizontal)
    {
      /* the strip under the plot, as wide, its end labels (and swatches) beyond */
      double strip_x;
      double want = tl_paint_colorbar_across_width (&cb, style, out->plot_w, &strip_x);
      out->cb_x = MAX (out->plot_x - strip_x, 0);
      out->cb_y = out->plot_y + out->plot_h + bottom + font * 0.5;
      out->cb_w = MAX (MIN (width - out->cb_x, want), 1.0);
      out->cb_h = under_h - font * 0.5;
    }
  else if (side_w > 0)
    {
      out->cb_w = side_w - font * 0.6;
      tl_paint_colorbar_place (style, out->cb_w, out->plot_x, out->plot_y, out->plot_w, out->plot_h,
                               &out->cb_x, &out->cb_y, &out->cb_h);
      /* beside a strip the bar keeps room for its ticks, as far as the panel allows */
      out->cb_h = MAX (out->cb_h, MIN (font * 12, room_h));
    }
}

gboolean
tl_heatmap_layout_cell_at (const TlHeatmapLayout *layout, const TlHeatmapModel *model,
                           double x, double y, gsize *out_row, gsize *out_col)
{
  g_return_val_if_fail (layout != NULL && model != NULL, FALSE);

  if (model->grid == NULL
      || x < layout->plot_x || y < layout->plot_y
      || x >= layout->plot_x + layout->plot_w || y >= layout->plot_y + layout->plot_h)
    return FALSE;

  double r = layout->view_row0 + (y - layout->plot_y) / layout->px_per_row;
  double c = layout->view_col0 + (x - layout->plot_x) / layout->px_per_col;
  if (r < 0 || c < 0 || r >= model->grid->src_rows || c >= model->grid->src_cols)
    return FALSE;
  if (out_row)
    *out_row = (gsize) r;
  if (out_col)
    *out_col = (gsize) c;
  return TRUE;
}

/* One rectangle per run of equally coloured cells in a row, in grid
 * coordinates (the caller scaled the context to cells); each overlaps its
 * right and lower neighbour a little so no hairline seam shows between them. */
static void
paint_cell_rects (cairo_t *cr, const TlPooledGrid *g, const TlColorScale *scale)
{
  double seam = 0.02;
  for (gsize r = 0; r < g->grid_rows; r++)
    {
      gsize c = 0;
      while (c < g->grid_cols)
        {
          guint32 argb = tl_color_scale_argb (scale, tl_pooled_grid_get (g, r, c));
          gsize end = c + 1;
          while (end < g->grid_cols && tl_color_scale_argb (scale, tl_pooled_grid_get (g, r, end)) == argb)
            end++;
          cairo_set_source_rgb (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                                (argb & 0xff) / 255.0);
          cairo_rectangle (cr, c, r, end - c + seam, 1 + seam);
          cairo_fill (cr);
          c = end;
        }
    }
}

static void
paint_cells (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay)
{
  const TlPooledGrid *g = model->grid;

  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);
  /* also clip to the pooled region (a zoomed grid may cover less than the view) */
  cairo_rectangle (cr,
                   lay->plot_x + (g->col0 - lay->view_col0) * lay->px_per_col,
                   lay->plot_y + (g->row0 - lay->view_row0) * lay->px_per_row,
                   g->cols * lay->px_per_col, g->rows * lay->px_per_row);
  cairo_clip (cr);

  cairo_translate (cr, lay->plot_x, lay->plot_y);
  cairo_scale (cr, lay->px_per_col * g->factor_c, lay->px_per_row * g->factor_r);
  cairo_translate (cr, (g->col0 - lay->view_col0) / g->factor_c,
                   (g->row0 - lay->view_row0) / g->factor_r);
  /* vector surfaces (SVG, PDF) get rectangles: viewers smooth an embedded
   * image when they enlarge it, and cells would blur into each other */
  if (tl_paint_is_vector (cr))
    paint_cell_rects (cr, g, &model->scale);
  else
    {
      cairo_surface_t *image = model->image;
      cairo_surface_t *owned = NULL;
      if (image == NULL)
        image = owned = tl_pooled_grid_colorize (g, &model->scale);
      cairo_set_source_surface (cr, image, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
      cairo_paint (cr);
      if (owned)
        cairo_surface_destroy (owned);
    }
  cairo_restore (cr);
}

static void
paint_tiles (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay,
             const TlPaintStyle *style)
{
  double min_gap = TL_PX (style, 4);
  double step_c = model->tile_n, step_r = model->tile_m;

  while (step_c * lay->px_per_col < min_gap)
    step_c *= 2;
  while (step_r * lay->px_per_row < min_gap)
    step_r *= 2;

  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);

  double c_end = MIN (lay->view_col0 + lay->view_cols, (double) model->grid->src_cols);
  double r_end = MIN (lay->view_row0 + lay->view_rows, (double) model->grid->src_rows);
  double y0 = lay->plot_y, y1 = lay->plot_y + (r_end - lay->view_row0) * lay->px_per_row;
  double x0 = lay->plot_x, x1 = lay->plot_x + (c_end - lay->view_col0) * lay->px_per_col;

  for (double c = ceil (lay->view_col0 / step_c) * step_c; c <= c_end; c += step_c)
    {
      double x = round (lay->plot_x + (c - lay->view_col0) * lay->px_per_col) + 0.5;
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y1);
    }
  for (double r = ceil (lay->view_row0 / step_r) * step_r; r <= r_end; r += step_r)
    {
      double y = round (lay->plot_y + (r - lay->view_row0) * lay->px_per_row) + 0.5;
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
    }

  /* dark under light, so the grid shows on every colormap */
  cairo_set_line_width (cr, TL_LINE (style, 1.6));
  cairo_set_source_rgba (cr, 0, 0, 0, style->high_contrast ? 1.0 : 0.45);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, TL_LINE (style, 0.7));
  cairo_set_source_rgba (cr, 1, 1, 1, style->high_contrast ? 1.0 : 0.8);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
paint_highlights (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay,
                  const TlPaintStyle *style)
{
  double min_band = TL_PX (style, 3);
  double lw = TL_LINE (style, 2);

  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x - lw, lay->plot_y - lw, lay->plot_w + 2 * lw, lay->plot_h + 2 * lw);
  cairo_clip (cr);
  cairo_set_line_width (cr, lw);

  if (model->highlight_row >= 0 && (gsize) model->highlight_row < model->grid->src_rows)
    {
      double span = lay->px_per_row * MAX (model->highlight_rows, 1);
      double h = MAX (span, min_band);
      double y = lay->plot_y + (model->highlight_row - lay->view_row0) * lay->px_per_row
                 + (span - h) / 2;
      cairo_rectangle (cr, lay->plot_x, y, lay->plot_w, h);
    }
  if (model->highlight_col >= 0 && (gsize) model->highlight_col < model->grid->src_cols)
    {
      double span = lay->px_per_col * MAX (model->highlight_cols, 1);
      double w = MAX (span, min_band);
      double x = lay->plot_x + (model->highlight_col - lay->view_col0) * lay->px_per_col
                 + (span - w) / 2;
      cairo_rectangle (cr, x, lay->plot_y, w, lay->plot_h);
    }
  cairo_set_source_rgba (cr, TL_PAINT_HIGHLIGHT_VEIL_RGB, style->high_contrast ? 0.5 : 0.25);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, TL_PAINT_HIGHLIGHT_RGB);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
paint_axes (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay,
            const TlPaintStyle *style)
{
  tl_paint_frame (cr, style, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  tl_paint_set_font (cr, style, style->font_size, FALSE);

  /* column indices along the top edge, row indices down the left, at cell
   * centres, as dense as their measured labels allow */
  double c_last = MIN (lay->view_col0 + lay->view_cols, (double) model->grid->src_cols) - 1;
  tl_paint_index_ticks_top (cr, style, lay->plot_x, lay->plot_y, lay->view_col0, lay->px_per_col,
                            ceil (lay->view_col0), floor (c_last));
  double r_last = MIN (lay->view_row0 + lay->view_rows, (double) model->grid->src_rows) - 1;
  tl_paint_index_ticks_left (cr, style, lay->plot_x, lay->plot_y, lay->view_row0, lay->px_per_row,
                             ceil (lay->view_row0), floor (r_last));
}

/* The line under the title: size, the caller's caption, pooling, the rows
 * and columns in view, tiles. */
static void
append_facts (GString *facts, const TlHeatmapModel *model, const TlHeatmapLayout *lay, gboolean caption)
{
  const TlPooledGrid *g = model->grid;
  g_string_append_printf (facts, "%zu×%zu", g->src_rows, g->src_cols);
  if (caption && model->caption)
    g_string_append_printf (facts, " %s", model->caption);
  /* without a colour bar, the facts say how cells were pooled */
  if ((g->factor_r > 1 || g->factor_c > 1) && lay->cb_w <= 0)
    g_string_append_printf (facts, _(" · pooled %u×%u (%s)"), g->factor_r, g->factor_c,
                            tl_pool_mode_name (g->mode));
  if (lay->view_rows < g->src_rows || lay->view_cols < g->src_cols)
    g_string_append_printf (facts, _(" · rows %.0f–%.0f, cols %.0f–%.0f"),
                            MAX (lay->view_row0, 0),
                            MIN (lay->view_row0 + lay->view_rows, (double) g->src_rows) - 1,
                            MAX (lay->view_col0, 0),
                            MIN (lay->view_col0 + lay->view_cols, (double) g->src_cols) - 1);
  if (model->show_tiles && model->tile_m > 0 && model->tile_n > 0)
    g_string_append_printf (facts, _(" · tiles %d×%d"), model->tile_m, model->tile_n);
  if (g->sample_stride > 1)
    g_string_append_printf (facts, _(" · first look: 1 row in %u, the rest follows"), g->sample_stride);
}

static void
paint_header (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay,
              const TlPaintStyle *style, double width)
{
  double y = 0;
  double x = MAX (MIN (lay->plot_x, width * 0.25), TL_PX (style, 4));
  double room = width - x - TL_PX (style, 4);
  GString *facts = g_string_new (NULL);

  tl_paint_set_fg (cr, style);
  if (model->title)
    {
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text_fit (cr, x, y, 0, 0, room, model->title);
      y += TL_PX (style, style->title_font_size) * 1.35;
    }

  /* a caption that does not fit whole is left out, not cut: "max 1.98…"
   * would read as a different number (the error's max stays in the
   * page's notes and its colour bar) */
  append_facts (facts, model, lay, TRUE);
  if (model->caption)
    {
      g_string_append_c (facts, '\n');
      append_facts (facts, model, lay, FALSE);
    }
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  tl_paint_text_fit_choice (cr, x, y, 0, 0, room, facts->str);
  g_string_free (facts, TRUE);
}

static const TlValueRange *
data_range (const TlHeatmapModel *model)
{
  return tl_value_range_is_empty (&model->range) ? &model->grid->range : &model->range;
}

/* The colour bar of the heatmap; *label and *note are allocated (NULL when
 * not needed) and outlive cb. */
static void
legend_model (const TlHeatmapModel *model, TlColorbarModel *cb, char **label, char **note)
{
  const TlValueRange *range = data_range (model);

  *cb = (TlColorbarModel) { .scale = model->scale, .label = model->units };
  *note = tl_pooled_grid_describe_cells (model->grid);
  *label = NULL;
  cb->note = *note;
  if (model->scale.scale == TL_SCALE_LOG)
    {
      /* LogNorm: what has no logarithm is masked, and the bar says so */
      /* a shorter wording where the bar is short: "|C − ref| (log)" */
      const char *units = model->units ? model->units : _("value");
      g_autofree char *long_label = g_strdup_printf (_("%s, log scale"), units);
      g_autofree char *short_label = g_strdup_printf (_("%s (log)"), units);
      *label = g_strjoin ("\n", long_label, short_label, NULL);
      cb->label = *label;
      cb->show_mask = range->n_finite > 0 && range->min <= 0;
      cb->mask_label = range->min < 0 ? _("≤ 0") : _("= 0");
    }
  cb->show_nan = range->n_nan > 0 || model->grid->n_nan_cells > 0;
}

static void
paint_legend (cairo_t *cr, const TlHeatmapModel *model, const TlHeatmapLayout *lay,
              const TlPaintStyle *style)
{
  TlColorbarModel cb;
  g_autofree char *label = NULL, *note = NULL;
  legend_model (model, &cb, &label, &note);
  cb.horizontal = lay->cb_horizontal;
  cb.label_beside = lay->cb_label_beside;
  cairo_save (cr);
  cairo_translate (cr, lay->cb_x, lay->cb_y);
  tl_paint_colorbar (cr, &cb, style, lay->cb_w, lay->cb_h);
  cairo_restore (cr);
}

void
tl_paint_heatmap (cairo_t *cr, const TlHeatmapModel *model,
                  const TlPaintStyle *style, double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlHeatmapLayout lay;

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);

  if (model->grid == NULL || model->grid->grid_rows == 0 || model->grid->grid_cols == 0)
    {
      /* wrapped, not cut: "C: für diese A, B „Ausführen“ d…" in a panel
       * of 210 px presenting */
      tl_paint_hint (cr, style, width, height, model->empty_text);
      cairo_restore (cr);
      return;
    }

  tl_paint_heatmap_layout (model, style, width, height, &lay);
  paint_cells (cr, model, &lay);
  tl_paint_text_boxes_record_plot (cr, lay.view_rows, lay.view_cols, !model->stretch, lay.plot_x,
                                   lay.plot_y, lay.plot_w, lay.plot_h);
  if (model->show_tiles && model->tile_m > 0 && model->tile_n > 0)
    paint_tiles (cr, model, &lay, style);
  if (model->highlight_row >= 0 || model->highlight_col >= 0)
    paint_highlights (cr, model, &lay, style);

  if (model->show_axes)
    {
      paint_axes (cr, model, &lay, style);
      paint_header (cr, model, &lay, style, width);
    }

  if (lay.cb_w > 0)
    paint_legend (cr, model, &lay, style);

  cairo_restore (cr);
}
