/* test-paint-compare.c — bars at known positions and lengths, the sweep's points. */
#include <math.h>
#include "paint/tl-paint-compare.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

static cairo_surface_t *
surface (int w, int h, cairo_t **out_cr)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  *out_cr = cairo_create (s);
  return s;
}

static void
test_bars (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      double t0 = tl_test_random (40, 60);
      TlCompareBar bars[] = {
        { .label = "cpu-naive", .median_ms = t0, .min_ms = t0 * 0.9, .max_ms = t0 * 1.1, .flops = 2e9, .cpu = TRUE },
        { .label = "smem 16×16", .median_ms = t0 / 2, .min_ms = t0 / 2.2, .max_ms = t0 / 1.8, .flops = 2e9 },
        { .label = "cuBLAS", .median_ms = t0 / 4, .min_ms = t0 / 4.1, .max_ms = t0 / 3.9, .flops = 2e9, .reference = TRUE },
        { .label = "broken", .failed = "out of memory" },
      };
      TlCompareModel model;
      tl_compare_model_init (&model);
      model.bars = bars;
      model.n_bars = G_N_ELEMENTS (bars);
      model.title = "GEMM 1000³";
      model.axis = TL_COMPARE_AXIS_LINEAR;
      model.reference_index = 2;
      model.baseline_index = 0;

      for (int metric = TL_COMPARE_TIME; metric <= TL_COMPARE_GFLOPS; metric++)
        {
          model.metric = metric;
          int w = (int) (900 * sc), h = (int) (300 * sc);
          cairo_t *cr;
          cairo_surface_t *s = surface (w, h, &cr);
          tl_paint_compare (cr, &model, &style, w, h);
          TlCompareLayout lay;
          tl_paint_compare_layout (&model, &style, cr, w, h, &lay);
          cairo_destroy (cr);

          g_assert_false (lay.log_axis);
          double prev_end = metric == TL_COMPARE_TIME ? INFINITY : 0;
          for (guint i = 0; i < 3; i++)
            {
              double rgb[3];
              double v = tl_compare_bar_value (&model, i, NULL, NULL);
              double cy = lay.plot_y + (i + 0.5) * lay.row_h;
              double yb = cy + lay.bar_h * 0.35; /* inside the bar, off the whisker */
              double x_end = tl_compare_layout_x (&lay, v);
              double expect_len = (v - lay.lo) / (lay.hi - lay.lo) * lay.plot_w;

              g_assert_cmpfloat_with_epsilon (x_end - lay.plot_x, expect_len, 1e-6);
              guint32 fill = tl_test_pixel (s, lay.plot_x + 3 * sc, yb);
              tl_assert_pixel_near (s, x_end - 3 * sc, yb, fill, 0);
              /* past the end: no longer the bar colour */
              g_assert_cmpint (tl_test_pixel_distance (tl_test_pixel (s, x_end + 4 * sc, yb), fill), >, 30);
              /* the GPU rung is Okabe–Ito blue, the reference orange */
              if (i == 1)
                tl_assert_pixel_near (s, lay.plot_x + 3 * sc, yb, tl_test_rgb (0, 114, 178), 1);
              if (i == 2)
                tl_assert_pixel_near (s, lay.plot_x + 3 * sc, yb, tl_test_rgb (230, 159, 0), 1);
              (void) rgb;
              /* time shrinks and GFLOP/s grows down the list */
              if (metric == TL_COMPARE_TIME)
                g_assert_cmpfloat (x_end, <, prev_end);
              else
                g_assert_cmpfloat (x_end, >, prev_end);
              prev_end = x_end;

              g_assert_cmpint (tl_paint_compare_bar_at (&model, &style, w, h, lay.plot_x + 5, cy), ==, i);
            }
          if (metric == TL_COMPARE_GFLOPS)
            g_assert_cmpfloat_with_epsilon (tl_compare_bar_value (&model, 2, NULL, NULL),
                                            2e9 / (t0 / 4 * 1e6), 1e-9);
          g_assert_true (isnan (tl_compare_bar_value (&model, 3, NULL, NULL)));
          g_assert_cmpint (tl_paint_compare_bar_at (&model, &style, w, h, 10, h - 1), ==, -1);
          cairo_surface_destroy (s);
        }
    }
}

static void
test_log_axis (void)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlCompareBar bars[] = {
    { .label = "cpu-naive", .median_ms = 3000, .min_ms = 2900, .max_ms = 3100, .flops = 1e10, .cpu = TRUE },
    { .label = "cuBLAS", .median_ms = 2, .min_ms = 1.9, .max_ms = 2.2, .flops = 1e10, .reference = TRUE },
  };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = bars;
  model.n_bars = 2;
  cairo_t *cr;
  cairo_surface_t *s = surface (800, 200, &cr);
  TlCompareLayout lay;
  tl_paint_compare_layout (&model, &style, cr, 800, 200, &lay);
  g_assert_true (lay.log_axis);
  g_assert_cmpfloat (lay.lo, <=, 1.9);
  g_assert_cmpfloat (lay.hi, >=, 3100);
  /* 1 ms … 10 s: 2 ms sits at log10(2)/4 of the axis */
  g_assert_cmpfloat_with_epsilon ((tl_compare_layout_x (&lay, 2) - lay.plot_x) / lay.plot_w,
                                  (log10 (2) - log10 (lay.lo)) / (log10 (lay.hi) - log10 (lay.lo)), 1e-9);
  tl_paint_compare (cr, &model, &style, 800, 200);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_sweep (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      static const double n[] = { 128, 256, 512, 1024, 2048 };
      double g1[5], g2[5];
      for (int i = 0; i < 5; i++)
        {
          g1[i] = tl_test_random (1, 10) * (i + 1);
          g2[i] = tl_test_random (100, 1000) * (i + 1);
        }
      TlSweepSeries series[] = {
        { .label = "cpu-naive", .n = n, .gflops = g1, .count = 5 },
        { .label = "cuBLAS", .n = n, .gflops = g2, .count = 5, .reference = TRUE },
      };
      TlSweepModel model = { .series = series, .n_series = 2, .title = "size sweep" };
      int w = (int) (700 * sc), h = (int) (400 * sc);
      cairo_t *cr;
      cairo_surface_t *s = surface (w, h, &cr);
      tl_paint_sweep (cr, &model, &style, w, h);
      TlSweepLayout lay;
      tl_paint_sweep_layout (&model, &style, cr, w, h, &lay);
      cairo_destroy (cr);

      g_assert_cmpfloat (lay.n_lo, <, 128);
      g_assert_cmpfloat (lay.n_lo, >, 64);
      g_assert_cmpfloat (lay.n_hi, >, 2048);
      g_assert_cmpfloat (lay.n_hi, <, 4096);
      for (int i = 0; i < 5; i++)
        {
          double x, y;
          tl_sweep_layout_point (&lay, n[i], g1[i], &x, &y);
          tl_assert_pixel_near (s, x, y, tl_test_rgb (0, 114, 178), 2);
          tl_sweep_layout_point (&lay, n[i], g2[i], &x, &y);
          tl_assert_pixel_near (s, x, y, tl_test_rgb (230, 159, 0), 2);
        }
      /* log2 spacing: each doubling of n is the same distance */
      double xa, xb, ya;
      tl_sweep_layout_point (&lay, 128, 10, &xa, &ya);
      tl_sweep_layout_point (&lay, 256, 10, &xb, &ya);
      g_assert_cmpfloat_with_epsilon ((xb - xa) / lay.plot_w, 1.0 / log2 (lay.n_hi / lay.n_lo), 1e-9);
      cairo_surface_destroy (s);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/bars", test_bars);
  g_test_add_func ("/compare/log-axis", test_log_axis);
  g_test_add_func ("/compare/sweep", test_sweep);
  return g_test_run ();
}
