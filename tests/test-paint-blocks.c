/* test-paint-blocks.c — a known block record puts known colours on known
 * tiles of the grid; pixels map back to tiles. */
#include <math.h>
#include <string.h>
#include "view/tl-block-stats.h"
#include "core/tl-error.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

static cairo_surface_t *
paint (const TlBlocksModel *model, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  tl_paint_blocks (cr, model, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return s;
}

static void
test_grid_colours (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      double dur[35];
      g_autofree TlBlockRecord *b = tl_test_grid_blocks (7, 5, 3, dur);
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);

      for (int color = 0; color < 2; color++)
        {
          TlBlocksModel model;
          tl_blocks_model_init (&model);
          model.blocks = b;
          /* tile (6, 4) has no block: grey */
          model.n_blocks = 34;
          model.grid_x = 7;
          model.grid_y = 5;
          model.title = "gemm-03-smem16";
          model.tile_m = model.tile_n = 16;
          model.color = color;

          int w = (int) (700 * sc), h = (int) (420 * sc);
          cairo_surface_t *s = paint (&model, &style, w, h);
          TlBlocksLayout lay;
          tl_paint_blocks_layout (&model, &style, w, h, &lay);
          g_assert_cmpuint (lay.grid_x, ==, 7);
          g_assert_cmpuint (lay.grid_y, ==, 5);
          g_assert_cmpfloat (lay.cell_w, >, 10 * sc);
          g_assert_cmpfloat_with_epsilon (lay.cell_w, lay.cell_h, 1e-9);
          g_assert_cmpfloat (lay.cb_w, >, 0);
          g_assert_cmpfloat (lay.scale.vmin, ==, color ? 0.0 : (b[0].end_ns - b[0].start_ns) / 1e3);

          for (guint i = 0; i < 34; i++)
            {
              double cx, cy;
              guint tx, ty;
              tl_blocks_layout_tile_centre (&lay, b[i].block_x, b[i].block_y, &cx, &cy);
              /* the tile's centre is where tile column x, row y must be */
              g_assert_cmpfloat_with_epsilon (cx, lay.plot_x + (b[i].block_x + 0.5) * lay.cell_w, 1e-9);
              double want_us = color ? (b[i].start_ns - b[0].start_ns) / 1e3 : dur[i];
              g_assert_cmpfloat_with_epsilon (tl_blocks_model_value (&model, b[i].block_x, b[i].block_y),
                                              (color ? want_us : (b[i].end_ns - b[i].start_ns) / 1e3), 1e-9);
              guint32 want = tl_color_scale_argb (&lay.scale, tl_blocks_model_value (&model, b[i].block_x, b[i].block_y));
              tl_assert_pixel_near (s, cx, cy, want, 0);
              /* and a pixel near the tile's corner */
              tl_assert_pixel_near (s, cx - lay.cell_w * 0.35, cy - lay.cell_h * 0.35, want, 0);
              g_assert_true (tl_blocks_layout_tile_at (&lay, cx, cy, &tx, &ty));
              g_assert_cmpuint (tx, ==, b[i].block_x);
              g_assert_cmpuint (ty, ==, b[i].block_y);
              g_assert_cmpint (tl_blocks_model_find (&model, tx, ty), ==, i);
            }
          double cx, cy;
          tl_blocks_layout_tile_centre (&lay, 6, 4, &cx, &cy);
          tl_assert_pixel_near (s, cx, cy, tl_test_rgb (219, 219, 219), 1);
          g_assert_cmpint (tl_blocks_model_find (&model, 6, 4), ==, -1);
          g_assert_true (isnan (tl_blocks_model_value (&model, 6, 4)));
          g_assert_false (tl_blocks_layout_tile_at (&lay, lay.plot_x - 2, cy, NULL, NULL));
          g_assert_false (tl_blocks_layout_tile_at (&lay, cx, lay.plot_y + lay.plot_h + 1, NULL, NULL));
          /* durations increase with the index: the last tile is the colormap's top */
          if (color == 0)
            tl_assert_pixel_near (s, lay.plot_x + 5.5 * lay.cell_w, lay.plot_y + 4.5 * lay.cell_h,
                                  tl_color_scale_argb (&lay.scale, lay.scale.vmax), 0);
          cairo_surface_destroy (s);
        }
    }
}

static void
test_highlight_and_merge (void)
{
  /* two launches over the same tiles: merged durations add up */
  TlBlockRecord b[] = {
    { .block_x = 0, .block_y = 0, .launch = 0, .start_ns = 0, .end_ns = 10000 },
    { .block_x = 1, .block_y = 0, .launch = 0, .start_ns = 0, .end_ns = 20000 },
    { .block_x = 0, .block_y = 0, .launch = 1, .start_ns = 30000, .end_ns = 35000 },
    { .block_x = 1, .block_y = 1, .launch = 1, .start_ns = 30000, .end_ns = 60000 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      TlBlocksModel model;
      tl_blocks_model_init (&model);
      model.blocks = b;
      model.n_blocks = 4;
      g_assert_cmpfloat (tl_blocks_model_value (&model, 0, 0), ==, 15.0);
      g_assert_cmpfloat (tl_blocks_model_value (&model, 1, 1), ==, 30.0);
      model.launch = 0;
      g_assert_cmpfloat (tl_blocks_model_value (&model, 0, 0), ==, 10.0);
      g_assert_true (isnan (tl_blocks_model_value (&model, 1, 1)));
      model.launch = 1;
      g_assert_cmpint (tl_blocks_model_find (&model, 0, 0), ==, 2);

      model.launch = -1;
      model.highlight_x = 1;
      model.highlight_y = 0;
      model.show_colorbar = FALSE;
      int w = (int) (400 * sc), h = (int) (400 * sc);
      cairo_surface_t *s = paint (&model, &style, w, h);
      TlBlocksLayout lay;
      tl_paint_blocks_layout (&model, &style, w, h, &lay);
      g_assert_cmpfloat (lay.cb_w, ==, 0);
      double cx, cy;
      tl_blocks_layout_tile_centre (&lay, 1, 0, &cx, &cy);
      /* the orange outline runs along the tile's edge; its inside keeps the colour */
      tl_assert_pixel_near (s, cx + lay.cell_w / 2, cy, tl_test_rgb (255, 115, 0), 2);
      tl_assert_pixel_near (s, cx, cy, tl_color_scale_argb (&lay.scale, 20.0), 0);
      tl_blocks_layout_tile_centre (&lay, 0, 1, &cx, &cy);
      tl_assert_pixel_near (s, cx + lay.cell_w / 4, cy, tl_test_rgb (219, 219, 219), 1);
      cairo_surface_destroy (s);
    }
}

/* a long 1-D grid (more tiles than an image surface is wide) still draws */
static void
test_long_grid (void)
{
  const gsize n = 40000;
  g_autofree TlBlockRecord *b = g_new0 (TlBlockRecord, n);
  for (gsize i = 0; i < n; i++)
    {
      b[i].block_x = (guint32) i;
      b[i].start_ns = i * 10;
      b[i].end_ns = i * 10 + 1000 + (i >= n - 2000 ? 9000 : 0);
    }
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlBlocksModel model;
  tl_blocks_model_init (&model);
  model.blocks = b;
  model.n_blocks = n;
  cairo_surface_t *s = paint (&model, &style, 800, 300);
  TlBlocksLayout lay;
  tl_paint_blocks_layout (&model, &style, 800, 300, &lay);
  g_assert_cmpuint (lay.grid_x, ==, n);
  /* the slow last 2000 tiles: the top of the colormap at the right end */
  g_assert_cmpfloat (lay.plot_h, >=, 0.25 * (300 - lay.plot_y) - 20);
  tl_assert_pixel_near (s, lay.plot_x + lay.plot_w - 5, lay.plot_y + lay.plot_h / 2,
                        tl_color_scale_argb (&lay.scale, lay.scale.vmax), 2);
  tl_assert_pixel_near (s, lay.plot_x + lay.plot_w / 2, lay.plot_y + lay.plot_h / 2,
                        tl_color_scale_argb (&lay.scale, 1.0), 0);
  cairo_surface_destroy (s);
}

/* the grid keeps C's proportions: 16×16 square tiles over a square C are
 * drawn square in a wide, short panel (the Blocks page's upper third) */
static void
test_true_proportions (void)
{
  double dur[256];
  g_autofree TlBlockRecord *b = tl_test_grid_blocks (16, 16, 4, dur);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlBlocksModel model;
  tl_blocks_model_init (&model);
  model.blocks = b;
  model.n_blocks = 256;
  model.tile_m = model.tile_n = 64;
  TlBlocksLayout lay;
  tl_paint_blocks_layout (&model, &style, 640, 200, &lay);
  g_assert_cmpfloat_with_epsilon (lay.cell_w, lay.cell_h, 1e-9);
  g_assert_cmpfloat_with_epsilon (lay.plot_w, lay.plot_h, 1e-9);
  /* tiles of 128×64 (rows × columns): a cell twice as tall as wide */
  model.tile_m = 128;
  tl_paint_blocks_layout (&model, &style, 640, 400, &lay);
  g_assert_cmpfloat_with_epsilon (lay.cell_h, 2 * lay.cell_w, 1e-9);
}

static void
test_empty (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlBlocksModel model;
  tl_blocks_model_init (&model);
  cairo_surface_t *s = paint (&model, &style, 200, 100);
  tl_assert_pixel_near (s, 2, 2, tl_test_rgb (255, 255, 255), 0);
  cairo_surface_destroy (s);
  TlBlocksColor c;
  g_assert_true (tl_blocks_color_from_name ("start", &c));
  g_assert_cmpint (c, ==, TL_BLOCKS_COLOR_START);
  g_assert_false (tl_blocks_color_from_name ("wave", &c));
}

/* The Blocks page in a window beside the sidebar (its drawing area at
 * 1024×768 and 1280×800): every word at the views' 12-px type at least,
 * none cut to "…", none on another or beyond its area. */
static void
check_text (const TlRenderInput *input, TlRenderView view, const char *kernels, int w, int h,
            guint least_texts)
{
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = view;
  o.kernels = kernels;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GString) report = tl_test_window_text_problems (input, &o, w, h, boxes);
  if (report->len > 0)
    g_error ("blocks page %s at %d×%d:\n%s", kernels, w, h, report->str);
  g_assert_cmpuint (tl_paint_text_boxes_len (boxes), >=, least_texts);
}

static void
check_page_text (const TlRenderInput *input, const char *kernels, int w, int h)
{
  check_text (input, TL_RENDER_BLOCKS_AND_TIMELINE, kernels, w, h, 20);
}

static void
test_page_text (void)
{
  TlRenderInput input;
  tl_test_doc_record_load (&input, "h200-gemm-1000x500x1000.json");
  static const int sizes[][2] = { { 656, 480 }, { 912, 512 } };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      check_page_text (&input, "gemm-03-smem16", sizes[k][0], sizes[k][1]);
      check_page_text (&input, "gemm-01-naive,gemm-11-wgmma", sizes[k][0], sizes[k][1]);
    }
  tl_render_input_clear (&input);
}

/* The grid's own area on the Blocks page with a second kernel beside, at
 * 1024×768 (640×168 px): the colour bar beside an 86 px plot said
 * "block tim…"; it says the unit alone there ("µs"), as the timeline's. */
static void
test_short_grid_text (void)
{
  TlRenderInput input;
  tl_test_doc_record_load (&input, "h200-gemm-1000x500x1000.json");
  check_text (&input, TL_RENDER_BLOCKS, "gemm-03-smem16", 640, 168, 10);
  tl_render_input_clear (&input);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paint-blocks/colours", test_grid_colours);
  g_test_add_func ("/paint-blocks/highlight-merge", test_highlight_and_merge);
  g_test_add_func ("/paint-blocks/long-grid", test_long_grid);
  g_test_add_func ("/paint-blocks/true-proportions", test_true_proportions);
  g_test_add_func ("/paint-blocks/empty", test_empty);
  g_test_add_func ("/paint-blocks/page-text", test_page_text);
  g_test_add_func ("/paint-blocks/short-grid-text", test_short_grid_text);
  return g_test_run ();
}
