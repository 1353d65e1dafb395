/* test-paint-blocks.c — block statistics, and a known block record puts known
 * colours on known tiles of the grid; pixels map back to tiles. */
#include <math.h>
#include <string.h>
#include "paint/tl-block-stats.h"
#include "core/tl-error.h"
#include "paint/tl-paint-blocks.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

/* gx × gy tiles, one block each, on `units` SMs round robin; durations
 * random and distinct (µs), starts in waves of `units` blocks */
static TlBlockRecord *
grid_blocks (guint gx, guint gy, guint units, double *dur_us)
{
  TlBlockRecord *b = g_new0 (TlBlockRecord, gx * gy);
  for (guint i = 0; i < gx * gy; i++)
    {
      dur_us[i] = 10.0 + i * 3.0 + tl_test_random (0.0, 1.0);
      b[i].block_x = i % gx;
      b[i].block_y = i / gx;
      b[i].unit = i % units;
      b[i].start_ns = (guint64) (i / units) * 100000;
      b[i].end_ns = b[i].start_ns + (guint64) llround (dur_us[i] * 1e3);
    }
  return b;
}

static void
test_stats_waves_tail (void)
{
  /* 10 blocks of 100 µs on 4 SMs, 1 block per SM: waves of 4, 4, 2 */
  TlBlockRecord b[10];
  for (guint i = 0; i < 10; i++)
    b[i] = (TlBlockRecord) { .block_x = i, .unit = (i % 4), .start_ns = (i / 4) * 100000,
                             .end_ns = (i / 4) * 100000 + 100000 - i * 1000 };
  g_autoptr (TlBlockStats) s = tl_block_stats_new (b, 10, 4, 1, -1);
  g_assert_cmpuint (s->n_blocks, ==, 10);
  g_assert_cmpuint (s->n_units, ==, 4);
  g_assert_cmpuint (s->capacity, ==, 4);
  g_assert_cmpuint (s->n_waves, ==, 3);
  g_assert_true (s->last_wave_partial);
  g_assert_cmpuint (s->last_wave_blocks, ==, 2);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (s->wave[i], ==, i / 4);
  g_assert_cmpuint (s->t0_ns, ==, 0);
  g_assert_cmpuint (s->t1_ns, ==, 200000 + 100000 - 8000);
  g_assert_cmpuint (s->tail_start_ns, ==, 200000);
  g_assert_cmpfloat_with_epsilon (s->tail_share, 92000.0 / 292000.0, 1e-12);
  g_assert_cmpuint (s->min_ns, ==, 91000);
  g_assert_cmpuint (s->max_ns, ==, 100000);
  g_assert_cmpuint (s->median_ns, ==, (96000 + 95000) / 2);
  g_assert_cmpfloat_with_epsilon (s->blocks_per_unit, 2.5, 1e-12);
  g_assert_cmpuint (s->max_blocks_per_unit, ==, 3);
  g_autofree char *sum = tl_block_stats_summary (s, "SM");
  g_assert_nonnull (strstr (sum, "10 blocks on 4 SMs"));
  g_assert_nonnull (strstr (sum, "3 waves"));
  g_assert_nonnull (strstr (sum, "tail 32%"));

  /* occupancy unknown: measured from the records (1 at a time per SM) */
  g_autoptr (TlBlockStats) m = tl_block_stats_new (b, 10, 4, 0, -1);
  g_assert_true (m->slots_measured);
  g_assert_cmpuint (m->slots, ==, 1);
  g_assert_cmpuint (m->n_waves, ==, 3);

  /* two resident blocks per SM: one wave of 8 and a partial one of 2 */
  g_autoptr (TlBlockStats) o = tl_block_stats_new (b, 10, 4, 2, -1);
  g_assert_cmpuint (o->n_waves, ==, 2);
  g_assert_cmpuint (o->last_wave_blocks, ==, 2);

  /* exactly full: no tail */
  g_autoptr (TlBlockStats) f = tl_block_stats_new (b, 8, 4, 1, -1);
  g_assert_false (f->last_wave_partial);
  g_assert_cmpfloat (f->tail_share, ==, 0.0);
}

static void
test_stats_slots_and_launches (void)
{
  /* one SM running three blocks at once, then a second launch */
  TlBlockRecord b[] = {
    { .block_x = 0, .unit = 0, .launch = 0, .start_ns = 0, .end_ns = 1000 },
    { .block_x = 1, .unit = 0, .launch = 0, .start_ns = 100, .end_ns = 900 },
    { .block_x = 2, .unit = 0, .launch = 0, .start_ns = 200, .end_ns = 1200 },
    { .block_x = 3, .unit = 0, .launch = 0, .start_ns = 950, .end_ns = 1500 },
    { .block_x = 0, .block_y = 1, .unit = 1, .launch = 1, .start_ns = 2000, .end_ns = 2500 },
  };
  g_autoptr (TlBlockStats) s = tl_block_stats_new (b, 5, 2, 0, -1);
  g_assert_cmpuint (s->n_launches, ==, 2);
  g_assert_cmpuint (s->slots, ==, 3);
  g_assert_cmpuint (s->max_slot, ==, 3);
  g_assert_cmpuint (s->slot[0], ==, 0);
  g_assert_cmpuint (s->slot[1], ==, 1);
  g_assert_cmpuint (s->slot[2], ==, 2);
  g_assert_cmpuint (s->slot[3], ==, 1); /* block 1 ended at 900 */
  g_assert_cmpuint (s->grid_x, ==, 4);
  g_assert_cmpuint (s->grid_y, ==, 2);
  /* capacity 6: launch 0 is one wave, launch 1 the next */
  g_assert_cmpuint (s->n_waves, ==, 2);
  g_assert_cmpuint (s->wave[4], ==, 1);

  g_autoptr (TlBlockStats) l1 = tl_block_stats_new (b, 5, 2, 0, 1);
  g_assert_cmpuint (l1->n_blocks, ==, 1);
  g_assert_false (tl_block_stats_selected (l1, 0));
  g_assert_true (tl_block_stats_selected (l1, 4));
  g_assert_cmpuint (l1->span_ns, ==, 500);

  gsize r0, rows, c0, cols;
  tl_block_tile_extent (3, 2, 32, 16, 70, 50, &r0, &rows, &c0, &cols);
  g_assert_cmpuint (r0, ==, 64);
  g_assert_cmpuint (rows, ==, 6);
  g_assert_cmpuint (c0, ==, 48);
  g_assert_cmpuint (cols, ==, 2);
}

static void
test_stats_for_run (void)
{
  g_autoptr (TlKernelRun) run = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_block_stats_new_for_run (NULL, run, -1, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "gemm-03-smem16"));

  double dur[12];
  tl_kernel_run_take_blocks (run, grid_blocks (4, 3, 5, dur), 12, "sm");
  run->launch.valid = TRUE;
  run->launch.active_blocks_per_sm = 2;
  TlRunRecord rec = { 0 };
  rec.has_device = TRUE;
  rec.device.sm_count = 6;
  g_autoptr (TlBlockStats) s = tl_block_stats_new_for_run (&rec, run, -1, NULL);
  g_assert_cmpuint (s->n_units, ==, 6);
  g_assert_cmpuint (s->slots, ==, 2);
  g_assert_cmpuint (s->capacity, ==, 12);
  g_assert_cmpuint (s->n_waves, ==, 1);
  g_assert_false (s->last_wave_partial);
}

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
      g_autofree TlBlockRecord *b = grid_blocks (7, 5, 3, dur);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/block-stats/waves-tail", test_stats_waves_tail);
  g_test_add_func ("/block-stats/slots-launches", test_stats_slots_and_launches);
  g_test_add_func ("/block-stats/for-run", test_stats_for_run);
  g_test_add_func ("/paint-blocks/colours", test_grid_colours);
  g_test_add_func ("/paint-blocks/highlight-merge", test_highlight_and_merge);
  g_test_add_func ("/paint-blocks/long-grid", test_long_grid);
  g_test_add_func ("/paint-blocks/empty", test_empty);
  return g_test_run ();
}
