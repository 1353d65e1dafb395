/* tl-paint-blocks.c — C's tiles coloured by their block's time, with axes and colorbar. */
#include "paint/tl-paint-blocks.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include "paint/tl-paint-colorbar.h"
#include "paint/tl-paint-plan.h"
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"

#define EMPTY_RGB 0.86
/* the facts' lines, in lines of type apart */
#define FACTS_LINE 1.3

gboolean
tl_blocks_color_from_name (const char *name, TlBlocksColor *out)
{
  static const char *const names[] = { [TL_BLOCKS_COLOR_DURATION] = "duration", [TL_BLOCKS_COLOR_START] = "start", NULL };
  guint i;
  if (!tl_paint_choice_from_name (name, names, &i))
    return FALSE;
  *out = (TlBlocksColor) i;
  return TRUE;
}

void
tl_blocks_model_init (TlBlocksModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlBlocksModel) {0};
  model->launch = -1;
  model->colormap = TL_COLORMAP_VIRIDIS;
  model->highlight_x = model->highlight_y = -1;
  model->show_colorbar = TRUE;
}

static void
grid_size (const TlBlocksModel *model, guint *gx, guint *gy)
{
  guint x = model->grid_x, y = model->grid_y;
  if (model->plan != NULL && x == 0 && y == 0)
    x = model->plan->tiles_n, y = model->plan->tiles_m;
  for (gsize i = 0; i < model->n_blocks; i++)
    {
      x = MAX (x, model->blocks[i].block_x + 1);
      y = MAX (y, model->blocks[i].block_y + 1);
    }
  *gx = MAX (x, 1);
  *gy = MAX (y, 1);
}

static gboolean
selected (const TlBlocksModel *model, gsize i)
{
  return model->launch < 0 || model->blocks[i].launch == (guint32) model->launch;
}

/* Values per tile in µs (NaN: no block), row-major gy × gx; caller frees. */
static double *
tile_values (const TlBlocksModel *model, guint gx, guint gy)
{
  double *v = g_new (double, (gsize) gx * gy);
  guint64 t0 = G_MAXUINT64;

  for (gsize i = 0; i < (gsize) gx * gy; i++)
    v[i] = NAN;
  for (gsize i = 0; i < model->n_blocks; i++)
    if (selected (model, i))
      t0 = MIN (t0, model->blocks[i].start_ns);

  for (gsize i = 0; i < model->n_blocks; i++)
    {
      const TlBlockRecord *b = &model->blocks[i];
      if (!selected (model, i))
        continue;
      double *cell = &v[(gsize) b->block_y * gx + b->block_x];
      double d = b->end_ns > b->start_ns ? (b->end_ns - b->start_ns) / 1e3 : 0.0;
      double s = (b->start_ns - t0) / 1e3;
      if (model->color == TL_BLOCKS_COLOR_START)
        *cell = isnan (*cell) ? s : MIN (*cell, s);
      else
        *cell = isnan (*cell) ? d : *cell + d;
    }
  return v;
}

static void
values_range (const double *v, gsize n, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (gsize i = 0; i < n; i++)
    if (!isnan (v[i]))
      {
        *lo = MIN (*lo, v[i]);
        *hi = MAX (*hi, v[i]);
      }
}

static void
value_scale (const TlBlocksModel *model, const double *v, gsize n, TlColorScale *scale)
{
  double lo, hi;
  if (model->scale_shared)
    lo = model->scale_lo, hi = model->scale_hi;
  else
    values_range (v, n, &lo, &hi);
  if (!isfinite (lo) || !isfinite (hi))
    lo = 0, hi = 1;
  if (model->color == TL_BLOCKS_COLOR_START)
    lo = 0;
  if (hi <= lo)
    hi = lo + MAX (fabs (lo) * 0.01, 1e-3);
  /* durations: one straggler 30× slower than the rest would flatten a linear scale */
  gboolean log = model->color == TL_BLOCKS_COLOR_DURATION && lo > 0 && hi / lo > 30;
  tl_color_scale_init (scale, model->colormap, log ? TL_SCALE_LOG : TL_SCALE_LINEAR, lo, hi);
}

gboolean
tl_blocks_model_value_range (const TlBlocksModel *model, double *lo, double *hi)
{
  g_return_val_if_fail (model != NULL && lo != NULL && hi != NULL, FALSE);
  guint gx, gy;
  grid_size (model, &gx, &gy);
  double *v = tile_values (model, gx, gy);
  values_range (v, (gsize) gx * gy, lo, hi);
  g_free (v);
  return isfinite (*lo);
}

double
tl_blocks_model_value (const TlBlocksModel *model, guint tile_x, guint tile_y)
{
  g_return_val_if_fail (model != NULL, NAN);
  guint gx, gy;
  grid_size (model, &gx, &gy);
  if (tile_x >= gx || tile_y >= gy)
    return NAN;
  double *v = tile_values (model, gx, gy);
  double r = v[(gsize) tile_y * gx + tile_x];
  g_free (v);
  return r;
}

/* The line under the title: the grid's size, how many tiles ran a block,
 * what the colour says and C's size; owned by the caller. */
static char *
facts_text (const TlBlocksModel *model, const double *v, guint gx, guint gy)
{
  gsize shown = 0;
  GString *facts = g_string_new (NULL);

  for (gsize i = 0; i < (gsize) gx * gy; i++)
    shown += !isnan (v[i]);
  g_string_append_printf (facts, _("%u×%u tiles"), gx, gy);
  if (model->tile_m > 0 && model->tile_n > 0)
    g_string_append_printf (facts, _(" of %u×%u"), model->tile_m, model->tile_n);
  if (model->n_blocks > 0)
    g_string_append_printf (facts, _(" · %zu with a block"), shown);
  else
    g_string_append (facts, _(" · not timed (no block records)"));
  if (model->launch >= 0)
    g_string_append_printf (facts, _(" · launch %d"), model->launch);
  /* TRANSLATORS: two kernels' tile grids side by side, coloured on one scale */
  if (model->n_blocks > 0 && model->scale_shared)
    g_string_append_printf (facts, " · %s",
                            model->color == TL_BLOCKS_COLOR_START ? _("colour: block start, one scale for both")
                                                                  : _("colour: block time, one scale for both"));
  else if (model->n_blocks > 0)
    g_string_append_printf (facts, " · %s",
                            model->color == TL_BLOCKS_COLOR_START
                              ? _("colour: when the block started")
                              : _("colour: how long the block ran"));
  if (model->caption)
    g_string_append_printf (facts, " · %s", model->caption);
  return g_string_free (facts, FALSE);
}

/* the lines the facts take wrapped in the page's width (a grid beside two
 * timelines is narrow): at most FACTS_MAX_LINES */
#define FACTS_MAX_LINES 3

static guint
facts_lines (const TlPaintStyle *style, const char *facts, double width)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (s);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  guint n = tl_paint_text_wrap_count (cr, width - 2 * TL_PX (style, 4), facts);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return CLAMP (n, 1u, FACTS_MAX_LINES);
}

static void
layout_with_values (const TlBlocksModel *model, const TlPaintStyle *style, double width,
                    double height, const double *v, guint gx, guint gy, TlBlocksLayout *out)
{
  double font = TL_PX (style, style->font_size);
  double top = 0, left, right, bottom;

  out->grid_x = gx;
  out->grid_y = gy;
  value_scale (model, v, (gsize) gx * gy, &out->scale);

  if (model->title)
    top += TL_PX (style, style->title_font_size) * 1.4;
  g_autofree char *facts = facts_text (model, v, gx, gy);
  top += font * 1.4 + font * FACTS_LINE * (facts_lines (style, facts, width) - 1); /* facts */
  top += font * 1.35;                     /* "tile column" */
  top += font * 1.25 + TL_PX (style, 6);  /* tick labels and ticks */
  top = MAX (top, model->plot_top);
  left = font * 1.5 + font * (0.62 * tl_paint_digits (gy) + 0.5) + TL_PX (style, 5);
  right = font * 0.6;
  bottom = font * 0.6;

  bottom += tl_paint_plan_legend_height (model->plan, style, width - 2 * TL_PX (style, 4), height);
  out->cb_w = tl_paint_colorbar_reserve (style, model->show_colorbar && model->n_blocks > 0, &right);

  double avail_w = MAX (width - left - right, 1.0);
  double avail_h = MAX (height - top - bottom, 1.0);
  /* cells shaped like the tiles (square for square tiles): the grid keeps
   * C's proportions, so a square C is drawn square; only a grid thinner
   * than 1:8 (a 1-D launch) is widened to a strip an eighth of its long
   * side, as far as the room allows */
  double aspect = (model->tile_m > 0 && model->tile_n > 0)
                    ? (double) model->tile_m / model->tile_n : 1.0;
  double cw = MIN (avail_w / gx, avail_h / (gy * aspect));
  out->cell_w = cw;
  out->cell_h = cw * aspect;
  double plot_w = out->cell_w * gx, plot_h = out->cell_h * gy;
  if (plot_h > 8 * plot_w)
    out->cell_w = MIN (plot_h / 8, avail_w) / gx;
  else if (plot_w > 8 * plot_h)
    out->cell_h = MIN (plot_w / 8, avail_h) / gy;
  out->plot_w = out->cell_w * gx;
  out->plot_h = out->cell_h * gy;
  out->plot_x = left + (avail_w - out->plot_w) / 2;
  out->plot_y = top;
  tl_paint_colorbar_place (style, out->cb_w, out->plot_x, out->plot_y, out->plot_w, out->plot_h,
                           &out->cb_x, &out->cb_y, &out->cb_h);
}

void
tl_paint_blocks_layout (const TlBlocksModel *model, const TlPaintStyle *style,
                        double width, double height, TlBlocksLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);
  guint gx, gy;
  grid_size (model, &gx, &gy);
  double *v = tile_values (model, gx, gy);
  layout_with_values (model, style, width, height, v, gx, gy, out);
  g_free (v);
}

gboolean
tl_blocks_layout_tile_at (const TlBlocksLayout *layout, double x, double y,
                          guint *out_x, guint *out_y)
{
  g_return_val_if_fail (layout != NULL, FALSE);
  if (x < layout->plot_x || y < layout->plot_y
      || x >= layout->plot_x + layout->plot_w || y >= layout->plot_y + layout->plot_h)
    return FALSE;
  guint tx = (guint) ((x - layout->plot_x) / layout->cell_w);
  guint ty = (guint) ((y - layout->plot_y) / layout->cell_h);
  if (tx >= layout->grid_x || ty >= layout->grid_y)
    return FALSE;
  if (out_x)
    *out_x = tx;
  if (out_y)
    *out_y = ty;
  return TRUE;
}

void
tl_blocks_layout_tile_centre (const TlBlocksLayout *layout, guint tile_x, guint tile_y,
                              double *out_x, double *out_y)
{
  *out_x = layout->plot_x + (tile_x + 0.5) * layout->cell_w;
  *out_y = layout->plot_y + (tile_y + 0.5) * layout->cell_h;
}

gssize
tl_blocks_model_find (const TlBlocksModel *model, guint tile_x, guint tile_y)
{
  g_return_val_if_fail (model != NULL, -1);
  for (gsize i = 0; i < model->n_blocks; i++)
    if (selected (model, i) && model->blocks[i].block_x == tile_x
        && model->blocks[i].block_y == tile_y)
      return (gssize) i;
  return -1;
}

static void
paint_cells (cairo_t *cr, const TlBlocksLayout *lay, const double *v, const TlPaintStyle *style)
{
  guint gx = lay->grid_x, gy = lay->grid_y;

  if (gx > 8192 || gy > 8192 || tl_paint_is_vector (cr))
    {
      /* beyond what an image surface takes (a long 1-D grid), or SVG/PDF
       * (crisp at any zoom): one rectangle per tile */
      cairo_save (cr);
      cairo_set_source_rgb (cr, EMPTY_RGB, EMPTY_RGB, EMPTY_RGB);
      cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
      cairo_fill (cr);
      for (guint y = 0; y < gy; y++)
        for (guint x = 0; x < gx; x++)
          {
            double val = v[(gsize) y * gx + x];
            guint8 rgb[3];
            if (isnan (val))
              continue;
            tl_color_scale_rgb (&lay->scale, val, rgb);
            cairo_set_source_rgb (cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
            cairo_rectangle (cr, lay->plot_x + x * lay->cell_w, lay->plot_y + y * lay->cell_h,
                             MAX (lay->cell_w, 1.0), MAX (lay->cell_h, 1.0));
            cairo_fill (cr);
          }
      cairo_restore (cr);
      return;
    }

  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, gx, gy);
  unsigned char *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  guint32 empty = 0xff000000u | (guint32) (EMPTY_RGB * 255) * 0x010101u;

  cairo_surface_flush (img);
  for (guint y = 0; y < gy; y++)
    for (guint x = 0; x < gx; x++)
      {
        double val = v[(gsize) y * gx + x];
        ((guint32 *) (data + y * stride))[x]
          = isnan (val) ? empty : tl_color_scale_argb (&lay->scale, val);
      }
  cairo_surface_mark_dirty (img);

  cairo_save (cr);
  cairo_rectangle (cr, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  cairo_clip (cr);
  cairo_translate (cr, lay->plot_x, lay->plot_y);
  cairo_scale (cr, lay->cell_w, lay->cell_h);
  cairo_set_source_surface (cr, img, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (img);

  /* tile borders, when tiles are big enough to carry them */
  if (lay->cell_w >= TL_PX (style, 12) && lay->cell_h >= TL_PX (style, 12))
    {
      cairo_save (cr);
      for (guint x = 1; x < gx; x++)
        {
          double px = round (lay->plot_x + x * lay->cell_w) + 0.5;
          cairo_move_to (cr, px, lay->plot_y);
          cairo_line_to (cr, px, lay->plot_y + lay->plot_h);
        }
      for (guint y = 1; y < gy; y++)
        {
          double py = round (lay->plot_y + y * lay->cell_h) + 0.5;
          cairo_move_to (cr, lay->plot_x, py);
          cairo_line_to (cr, lay->plot_x + lay->plot_w, py);
        }
      cairo_set_source_rgba (cr, style->bg[0], style->bg[1], style->bg[2],
                             style->high_contrast ? 0.9 : 0.55);
      cairo_set_line_width (cr, TL_LINE (style, 1.0));
      cairo_stroke (cr);
      cairo_restore (cr);
    }
}

static void
paint_axes (cairo_t *cr, const TlBlocksModel *model, const TlBlocksLayout *lay,
            const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  double tick = TL_PX (style, 5);

  tl_paint_frame (cr, style, lay->plot_x, lay->plot_y, lay->plot_w, lay->plot_h);
  tl_paint_set_font (cr, style, style->font_size, FALSE);

  tl_paint_index_ticks_top (cr, style, lay->plot_x, lay->plot_y, 0, lay->cell_w, 0, lay->grid_x - 1);
  /* a small grid (two timelines beside it) says it shorter rather than cut */
  const char *column[] = { _("tile column (blockIdx.x)"), _("tile column"), NULL };
  tl_paint_text_fit_first (cr, lay->plot_x + lay->plot_w / 2, lay->plot_y - tick - font * 1.35, 0.5, 1.0,
                           lay->plot_w + font * 4, column);

  double label_left = tl_paint_index_ticks_left (cr, style, lay->plot_x, lay->plot_y, 0, lay->cell_h,
                                                 0, lay->grid_y - 1);
  cairo_save (cr);
  cairo_translate (cr, label_left - font * 0.3, lay->plot_y + lay->plot_h / 2);
  cairo_rotate (cr, -G_PI / 2);
  const char *row[] = { _("tile row (blockIdx.y)"), _("tile row"), NULL };
  tl_paint_text_fit_first (cr, 0, 0, 0.5, 1.0, lay->plot_h, row);
  cairo_restore (cr);
}

static void
paint_header (cairo_t *cr, const TlBlocksModel *model, const TlBlocksLayout *lay,
              const TlPaintStyle *style, const double *v, double width)
{
  double y = 0, x = TL_PX (style, 4);
  double room = width - 2 * x;

  tl_paint_set_fg (cr, style);
  if (model->title)
    {
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text_fit (cr, x, y, 0, 0, room, model->title);
      y += TL_PX (style, style->title_font_size) * 1.4;
    }
  g_autofree char *facts = facts_text (model, v, lay->grid_x, lay->grid_y);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  tl_paint_text_wrap (cr, x, y, room, TL_PX (style, style->font_size) * FACTS_LINE, FACTS_MAX_LINES, facts);
}

static void
paint_highlight (cairo_t *cr, const TlBlocksModel *model, const TlBlocksLayout *lay,
                 const TlPaintStyle *style)
{
  if (model->highlight_x < 0 || model->highlight_y < 0
      || (guint) model->highlight_x >= lay->grid_x || (guint) model->highlight_y >= lay->grid_y)
    return;
  double lw = TL_LINE (style, 3);
  double w = MAX (lay->cell_w, TL_PX (style, 8)), h = MAX (lay->cell_h, TL_PX (style, 8));
  double cx, cy;
  tl_blocks_layout_tile_centre (lay, model->highlight_x, model->highlight_y, &cx, &cy);
  cairo_save (cr);
  cairo_rectangle (cr, cx - w / 2, cy - h / 2, w, h);
  cairo_set_line_width (cr, lw * 2);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, lw);
  cairo_set_source_rgb (cr, TL_PAINT_HIGHLIGHT_RGB);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
tl_paint_blocks (cairo_t *cr, const TlBlocksModel *model, const TlPaintStyle *style,
                 double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  if (model->n_blocks == 0 && model->plan == NULL)
    {
      tl_paint_hint (cr, style, width, height, _("No block records: run the kernel instrumented"));
      cairo_restore (cr);
      return;
    }

  guint gx, gy;
  TlBlocksLayout lay;
  grid_size (model, &gx, &gy);
  double *v = tile_values (model, gx, gy);
  layout_with_values (model, style, width, height, v, gx, gy, &lay);

  paint_cells (cr, &lay, v, style);
  /* the grid stands for C: rows × columns of tiles of tile_m × tile_n */
  double tm = model->tile_m > 0 ? model->tile_m : 1, tn = model->tile_n > 0 ? model->tile_n : 1;
  tl_paint_text_boxes_record_plot (cr, lay.grid_y * tm, lay.grid_x * tn, TRUE, lay.plot_x, lay.plot_y,
                                   lay.plot_w, lay.plot_h);
  paint_axes (cr, model, &lay, style);
  tl_paint_plan_tiles (cr, model->plan, style, lay.plot_x, lay.plot_y, lay.cell_w, lay.cell_h,
                       lay.grid_x, lay.grid_y);
  paint_highlight (cr, model, &lay, style);
  paint_header (cr, model, &lay, style, v, width);
  tl_paint_plan_legend (cr, model->plan, style, TL_PX (style, 4), lay.plot_y + lay.plot_h,
                        width - 2 * TL_PX (style, 4), height);

  if (lay.cb_w > 0)
    {
      /* a short bar (a kernel beside, at 1024×768) says the unit alone
       * rather than cut: the header above names what is coloured */
      g_autofree char *label = g_strconcat (model->color == TL_BLOCKS_COLOR_START ? _("block start (µs)")
                                                                                : _("block time (µs)"),
                                            "\nµs", NULL);
      TlColorbarModel cb = { .scale = lay.scale, .label = label };
      cairo_save (cr);
      cairo_translate (cr, lay.cb_x, lay.cb_y);
      tl_paint_colorbar (cr, &cb, style, lay.cb_w, lay.cb_h);
      cairo_restore (cr);
    }
  g_free (v);
  cairo_restore (cr);
}
