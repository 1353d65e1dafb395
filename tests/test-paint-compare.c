/* test-paint-compare.c — bars at known positions and lengths, the sweep's points. */
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include "core/tl-locale.h"
#include "view/tl-compare-bars.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-compare.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint/tl-render.h"
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

/* An LU model is drawn as LU: its axis, its residual, never a multiply;
 * bars take their kernel's colour (the model from an LU record:
 * test-view-compare.c). */
static void
test_lu_and_colours (void)
{
  const TlCompareBar bar = { .label = "lu-02-blocked", .kernel_id = "lu-02-blocked",
                             .median_ms = tl_test_random (20, 50), .flops = 2.0 / 3.0 * 96 * 96 * 96,
                             .residual = 0.0372, .percent_of_reference = NAN };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = &bar;
  model.n_bars = 1;
  model.work = TL_COMPARE_WORK_LU;
  model.title = "PA = LU, 96×96 (float64)";

  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  int w = 900, h = 300;
  cairo_t *cr;
  cairo_surface_t *s = surface (w, h, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  for (int metric = TL_COMPARE_TIME; metric <= TL_COMPARE_GFLOPS; metric++)
    {
      tl_paint_text_boxes_clear (boxes);
      model.metric = metric;
      tl_paint_compare (cr, &model, &style, w, h);
      /* never a multiply */
      for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
        g_assert_null (strstr (tl_paint_text_boxes_index (boxes, i)->text, "multipl"));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, metric == TL_COMPARE_TIME
                                                           ? "time per factorisation"
                                                           : "from the LU flop count"));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "residual 0.0372"));
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
    }
  /* the bar has lu-02-blocked's colour */
  TlCompareLayout lay;
  tl_paint_compare_layout (&model, &style, cr, w, h, &lay);
  TlKernelLook look;
  tl_kernel_look ("lu-02-blocked", &look);
  tl_assert_pixel_near (s, lay.plot_x + 4, lay.plot_y + lay.row_h / 2 + lay.bar_h * 0.35,
                        tl_test_rgb ((int) lround (look.rgb[0] * 255), (int) lround (look.rgb[1] * 255),
                                     (int) lround (look.rgb[2] * 255)), 1);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* One colour per kernel everywhere: the look follows the registry, not the
 * position in a chart; beyond ten kernels the marker changes. */
static void
test_kernel_looks (void)
{
  TlKernelLook a, b, c;
  tl_kernel_look ("gemm-03-smem16", &a);
  tl_kernel_look ("gemm-03-smem16", &b);
  g_assert_cmpmem (a.rgb, sizeof a.rgb, b.rgb, sizeof b.rgb);
  /* every pair of the first ten kernels differs in colour */
  for (guint i = 0; i < TL_KERNEL_COLORS; i++)
    for (guint j = i + 1; j < TL_KERNEL_COLORS; j++)
      {
        tl_kernel_look_at (i, &a);
        tl_kernel_look_at (j, &b);
        double d = fabs (a.rgb[0] - b.rgb[0]) + fabs (a.rgb[1] - b.rgb[1]) + fabs (a.rgb[2] - b.rgb[2]);
        g_assert_cmpfloat (d, >, 0.25);
      }
  /* kernel 10 shares kernel 0's colour, with another marker and hatching */
  tl_kernel_look_at (0, &a);
  tl_kernel_look_at (TL_KERNEL_COLORS, &c);
  g_assert_cmpmem (a.rgb, sizeof a.rgb, c.rgb, sizeof c.rgb);
  g_assert_cmpint (a.marker, !=, c.marker);
  g_assert_true (c.hatched);
}

/* The size sweep draws non-square problems labelled m×k×n, never as cubes
 * (the series as tl_sweep_data_new makes it: test-view-compare.c). */
static void
test_sweep_shapes (void)
{
  const double n[] = { 256, 512, cbrt (1000.0 * 500 * 1000) };
  const gsize shape[] = { 256, 256, 256, 512, 512, 512, 1000, 500, 1000 };
  const double gflops[] = { tl_test_random (1, 10), tl_test_random (10, 20), tl_test_random (20, 30) };
  TlSweepSeries series = { .label = "cpu-blocked", .kernel_id = "cpu-blocked", .n = n,
                           .gflops = gflops, .shape = shape, .count = 3 };
  const TlSweepModel model = { &series, 1, "sweep" };

  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  int w = 900, h = 500;
  cairo_t *cr;
  cairo_surface_t *s = surface (w, h, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_sweep (cr, &model, &style, w, h);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "1000×500×1000"));
  g_assert_null (tl_paint_text_boxes_find (boxes, "m = n = k"));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);

  /* a bench sweep's odd shape placed close to a cube (∛ of 300·177·411
   * is 282, beside 256): the odd shape keeps its label, the cube gives way */
  const double n2[] = { 128, 256, cbrt (300.0 * 177 * 411) };
  const gsize shape2[] = { 128, 128, 128, 256, 256, 256, 300, 177, 411 };
  TlSweepSeries bench = series;
  bench.n = n2;
  bench.shape = shape2;
  const TlSweepModel model2 = { &bench, 1, "sweep" };
  tl_paint_text_boxes_clear (boxes);
  tl_paint_sweep (cr, &model2, &style, w, h);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "300×177×411"));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "128"));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Twenty-four series: the legend shows every one of them. */
static void
test_sweep_legend_all (void)
{
  static const double n[] = { 256, 512, 1024 };
  double g[24][3];
  char labels[24][32];
  TlSweepSeries series[24];
  for (guint i = 0; i < 24; i++)
    {
      for (int j = 0; j < 3; j++)
        g[i][j] = tl_test_random (1, 100) * (j + 1);
      g_snprintf (labels[i], sizeof labels[i], "kernel %02u", i);
      series[i] = (TlSweepSeries) { .label = labels[i], .n = n, .gflops = g[i], .count = 3 };
    }
  TlSweepModel model = { .series = series, .n_series = 24, .title = "sweep" };
  for (int pres = 0; pres < 2; pres++)
    {
      TlPaintStyle style;
      if (pres)
        tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
      else
        tl_paint_style_init (&style, 1);
      int w = 1280, h = 800;
      cairo_t *cr;
      cairo_surface_t *s = surface (w, h, &cr);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_sweep (cr, &model, &style, w, h);
      for (guint i = 0; i < 24; i++)
        g_assert_nonnull (tl_paint_text_boxes_find (boxes, labels[i]));
      /* in presentation mode the legend's type is larger too (a fifth
       * under the plot's, whose tags name the lines), 14 px or more */
      const TlPaintTextBox *b = tl_paint_text_boxes_find (boxes, "kernel 00");
      g_assert_cmpfloat (b->h, >=, pres ? 17.0 : 13.0);
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

static gboolean
any_cut (const TlPaintTextBoxes *boxes)
{
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    if (strstr (tl_paint_text_boxes_index (boxes, i)->text, "…") != NULL)
      {
        g_test_message ("cut: %s", tl_paint_text_boxes_index (boxes, i)->text);
        return TRUE;
      }
  return FALSE;
}

/* The ladder beside the sidebar at 1024×768 (a chart 650 px wide): at
 * tl_paint_compare_min_height every row's words are 11 px or more, the
 * notes keep whole parts and the axis title fits in fewer words — nothing
 * ends in "…". */
static void
test_bars_legible (void)
{
  static const char *const names[] = {
    "naive triple loop", "cache-blocked, multi-threaded", "OpenBLAS ?gemm", "01 naive (uncoalesced)",
    "02 coalesced", "03 shared memory 16×16", "04 shared memory 32×32", "05 seed 004: three kernels",
    "06 1-D register tiling", "07 2-D register tiling", "08 vectorised, conflict-free",
    "09 warp tiling + async copy", "10 tensor cores (WMMA, TF32)", "10 tensor cores (WMMA, BF16)",
    "11 Hopper wgmma + TMA", "cuBLAS SGEMM (pedantic)", "cuBLAS TF32", "cuBLAS BF16",
  };
  enum { N = G_N_ELEMENTS (names) };
  TlCompareBar bars[N];
  for (guint i = 0; i < N; i++)
    {
      double t = 2000.0 / pow (1.6, i) * tl_test_random (0.9, 1.1);
      bars[i] = (TlCompareBar) { .label = names[i], .median_ms = t, .min_ms = t * 0.95, .max_ms = t * 1.1,
                                 .flops = 1e9, .cpu = i < 3, .reference = i == 15 };
    }
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = bars;
  model.n_bars = N;
  model.title = "C = A·B, 1000×500 · 500×1000 (float32)";
  model.reference_index = 15;
  model.reference_name = "cuBLAS SGEMM (pedantic)";
  model.baseline_index = 0;
  model.baseline_name = "CPU naive";
  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      TlPaintStyle style;
      tl_paint_style_init (&style, scales[k]);
      int w = (int) (650 * scales[k]), h = (int) ceil (tl_paint_compare_min_height (&model, &style));
      /* ten more bars need more room */
      model.n_bars = N - 10;
      g_assert_cmpfloat (tl_paint_compare_min_height (&model, &style), <, h);
      model.n_bars = N;
      cairo_t *cr;
      cairo_surface_t *s = surface (w, h, &cr);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_compare (cr, &model, &style, w, h);
      for (guint i = 0; i < N; i++)
        {
          const TlPaintTextBox *b = tl_paint_text_boxes_find (boxes, names[i]);
          g_assert_nonnull (b);
          g_assert_cmpfloat (b->h, >=, 11.0 * scales[k]);
        }
      g_assert_false (any_cut (boxes));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "time per multiply"));
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }

  /* presenting on a 1024×768 projector, the rows beside their notes: a
   * note leaves out its aside ("(pedantic)") rather than end in "(peda…" */
  TlPaintStyle style;
  tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  model.baseline_index = -1;
  cairo_t *cr;
  cairo_surface_t *s = surface (1010, 470, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_compare (cr, &model, &style, 1010, 470);
  g_assert_false (any_cut (boxes));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "of cuBLAS SGEMM"));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 1010, 470, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The bars of the 1000×500×1000 record as a window shows them beside the
 * sidebar (the chart 650×530 at 1024×768, 906×560 at 1280×800): every
 * word — names, numbers, the notes beside them — at the 12-px type of the
 * window's other pages (the notes and their numbers were 10.5 px on two
 * lines at 1024×768), none cut to "…", none on another. */
static void
test_bars_window_text (void)
{
  static const int sizes[][2] = { { 650, 530 }, { 906, 560 } };
  TlRenderInput input;
  tl_test_doc_record_load (&input, "h200-gemm-1000x500x1000.json");
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_COMPARE;
  o.color = "time";
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      g_autoptr (GString) report = tl_test_window_text_problems (&input, &o, sizes[k][0], sizes[k][1], boxes);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "of cuBLAS SGEMM"));
      if (report->len > 0)
        g_error ("compare bars at %d×%d:\n%s", sizes[k][0], sizes[k][1], report->str);
    }
  tl_render_input_clear (&input);
}

/* Compare in a 1024×768 window (a chart 560 px wide) with a few bars: a
 * name too wide for its column ("16 double-buffered, 4×8 warps, planned")
 * reads whole on two lines, not cut to "16 double-buffered, 4×8 warps,…". */
static void
test_bars_long_names (void)
{
  static const char *const names[] = { "16 double-buffered, 4×8 warps, planned", "02 coalesced",
                                       "cuBLAS SGEMM (pedantic)" };
  enum { N = G_N_ELEMENTS (names) };
  TlCompareBar bars[N];
  for (guint i = 0; i < N; i++)
    bars[i] = (TlCompareBar) { .label = names[i], .median_ms = 1.0 + i, .min_ms = 0.9 + i,
                               .max_ms = 1.1 + i, .flops = 1e9 };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = bars;
  model.n_bars = N;
  model.title = "C = A·B, 4096×4096 · 4096×4096 (float32)";
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  cairo_t *cr;
  cairo_surface_t *s = surface (560, 300, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_compare (cr, &model, &style, 560, 300);
  g_assert_false (any_cut (boxes));
  g_assert_null (tl_paint_text_boxes_find (boxes, names[0]));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "planned"));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "16 double-buffered"));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 560, 300, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Three bars drawn as `tilelab-cli render --view compare` draws them, on
 * a 1600×900 slide, window and presenting: the bars spread over the page
 * (from the first bar's top to the last's bottom at least half its
 * height, the axis in its lower quarter), not a strip at the top; each
 * bar stays a bar (thinner than its row), and its words stay whole. */
static void
test_bars_fill_page (void)
{
  TlCompareBar bars[] = {
    { .label = "01 naive (uncoalesced)", .median_ms = 1.7, .min_ms = 1.6, .max_ms = 1.8, .flops = 1e12 },
    { .label = "09 warp tiling + async copy", .median_ms = 0.108, .min_ms = 0.107, .max_ms = 0.109, .flops = 1e12 },
    { .label = "cuBLAS SGEMM (pedantic)", .median_ms = 0.037, .min_ms = 0.036, .max_ms = 0.056, .flops = 1e12,
      .reference = TRUE },
  };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = bars;
  model.n_bars = G_N_ELEMENTS (bars);
  model.title = "C = A·B, 1000×500 · 500×1000 (float32)";
  model.metric = TL_COMPARE_GFLOPS;
  model.reference_index = 2;
  model.reference_name = "cuBLAS SGEMM (pedantic)";
  for (int presenting = 0; presenting < 2; presenting++)
    {
      TlRenderOptions options;
      tl_render_options_init (&options);
      options.presentation = presenting;
      TlPaintStyle style;
      tl_render_style_init (&style, &options, 1600, 900, 1.0);
      cairo_t *cr;
      cairo_surface_t *s = surface (1600, 900, &cr);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_compare (cr, &model, &style, 1600, 900);
      TlCompareLayout lay;
      tl_paint_compare_layout (&model, &style, cr, 1600, 900, &lay);
      double first_top = lay.plot_y + lay.row_h / 2 - lay.bar_h / 2;
      double last_bottom = lay.plot_y + 2.5 * lay.row_h + lay.bar_h / 2;
      g_assert_cmpfloat (last_bottom - first_top, >=, 450);
      g_assert_cmpfloat (lay.plot_y + lay.plot_h, >=, 900 * 0.75);
      g_assert_cmpfloat (lay.bar_h, <, lay.row_h * 0.7);
      for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
        g_assert_nonnull (tl_paint_text_boxes_find (boxes, bars[i].label));
      g_assert_false (any_cut (boxes));
      g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 1600, 900, NULL), ==, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

/* Twenty series named with their machine in a chart 650 px wide, as
 * tall as tl_paint_sweep_min_height: the legend goes under the plot,
 * which keeps 40% of the height (as many columns as 650 px take, a
 * window's compare page at 1024×768: half as many rows as two columns,
 * whose height made the page scroll to the legend); names cut to their
 * columns keep their rung and never read alike; the axis titles say less rather than end in "…". */
static void
check_legend_under (const TlSweepModel *model, const TlPaintStyle *style, int w, int h,
                    double plot_min_h)
{
  cairo_t *cr;
  cairo_surface_t *s = surface (w, h, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_sweep (cr, model, style, w, h);
  TlSweepLayout lay;
  tl_paint_sweep_layout (model, style, cr, w, h, &lay);
  g_assert_cmpfloat (lay.legend_y, >, lay.plot_y + lay.plot_h);
  g_assert_cmpfloat (lay.plot_h, >=, plot_min_h);
  for (guint i = 0; i < model->n_series; i++)
    {
      char head[16];
      g_snprintf (head, sizeof head, "%02u tiled k", i);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, head));
    }
  g_autoptr (GString) report = g_string_new (NULL);
  tl_paint_text_boxes_check (boxes, w, h, report);
  g_test_message ("%dx%d: %s", w, h, report->str);
  /* above the legend (the title, the axes) nothing is cut */
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    if (tl_paint_text_boxes_index (boxes, b)->y < lay.legend_y - 1)
      g_assert_null (strstr (tl_paint_text_boxes_index (boxes, b)->text, "…"));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_sweep_legend_under (void)
{
  static const double n[] = { 793, 4096 };
  double g[20][2];
  char labels[20][64];
  TlSweepSeries series[20];
  gsize shape[20][6];
  for (guint i = 0; i < 20; i++)
    {
      for (int j = 0; j < 2; j++)
        g[i][j] = tl_test_random (1, 100) * (j + 1) * (i + 1);
      g_snprintf (labels[i], sizeof labels[i], "%02u tiled kernel number %u · NVIDIA H200", i, i);
      gsize sh[6] = { 1000, 500, 1000, 4096, 4096, 4096 };
      memcpy (shape[i], sh, sizeof sh);
      series[i] = (TlSweepSeries) { .label = labels[i], .n = n, .gflops = g[i], .count = 2, .shape = shape[i] };
    }
  TlSweepModel model = { .series = series, .n_series = 20, .title = "Size sweep: GFLOP/s" };
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  int w = 650;
  int two_columns = (int) ceil (tl_paint_sweep_min_height (&model, &style, 0));
  int in_width = (int) ceil (tl_paint_sweep_min_height (&model, &style, w));
  double key_row = 12 * 1.45;
  g_test_message ("least height: %d px in two columns, %d px in 650 px", two_columns, in_width);
  g_assert_cmpfloat (in_width, <=, two_columns - 4 * key_row);
  check_legend_under (&model, &style, w, in_width, in_width * 0.4);
}

/* Twenty kernels on a GPU and three on two CPUs, presenting at 1024×768:
 * the machines get a key of their own (their line styles, named once),
 * each kernel is named once and whole, never "… · NVIDIA H2…". */
static void
test_sweep_machine_key (void)
{
  static const double n[] = { 793, 4096 };
  static const char *const machines[] = { "NVIDIA H200", "Intel Xeon", "AMD EPYC 9654" };
  double g[26][2];
  char labels[26][64];
  TlSweepSeries series[26];
  for (guint i = 0; i < 26; i++)
    {
      for (int j = 0; j < 2; j++)
        g[i][j] = tl_test_random (1, 100) * (j + 1) * (i + 1);
      /* the last six: three CPU kernels, each on both CPUs */
      guint machine = i < 20 ? 0 : 1 + (i - 20) % 2;
      if (i < 20)
        g_snprintf (labels[i], sizeof labels[i], "%02u tiled kernel number %u", i, i);
      else
        g_snprintf (labels[i], sizeof labels[i], "cpu kernel %u", (i - 20) / 2);
      series[i] = (TlSweepSeries) { .label = labels[i], .kernel_id = i < 20 ? NULL : labels[i], .machine = machine,
                                    .n = n, .gflops = g[i], .count = 2 };
    }
  TlSweepModel model = { .series = series, .n_series = 26, .title = "Size sweep: GFLOP/s",
                         .machines = machines, .n_machines = 3 };
  TlPaintStyle style;
  tl_paint_style_init_presentation (&style, 1.6, FALSE);
  int w = 1024, h = 768;
  cairo_t *cr;
  cairo_surface_t *s = surface (w, h, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_sweep (cr, &model, &style, w, h);
  for (guint m = 0; m < 3; m++)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, machines[m]));
  for (guint i = 0; i < 26; i++)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, labels[i]));
  /* 3 machines + 20 GPU kernels + 3 CPU kernels named once, the title,
   * axis titles and ticks besides */
  guint named = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    named += g_str_has_prefix (tl_paint_text_boxes_index (boxes, b)->text, "cpu kernel ");
  g_assert_cmpuint (named, ==, 3);
  g_assert_false (any_cut (boxes));
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The texts cut to "…" in render -p of view over the two records that
 * make a size sweep (1000×500×1000 and 4096), w × h; each told. */
static guint
presented_cut (TlRenderView view, int w, int h)
{
  TlRenderInput input, big;
  tl_test_doc_record_load (&input, "h200-gemm-1000x500x1000.json");
  tl_test_doc_record_load (&big, "h200-gemm-4096-fp32-counters.json");
  g_assert_true (tl_render_input_add_run (&input, g_steal_pointer (&big.record), NULL));
  tl_render_input_clear (&big);
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = view;
  o.presentation = TRUE;
  o.charts = view == TL_RENDER_COMPARE ? TL_RENDER_CHARTS_BARS_OVER_SWEEP : o.charts;
  TlPaintStyle style;
  tl_render_style_init (&style, &o, w, h, 1);
  cairo_t *cr;
  cairo_surface_t *s = surface (w, h, &cr);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  g_assert_true (tl_render_draw (cr, &input, &o, &style, w, h, NULL));
  guint cut = 0;
  for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
    if (strstr (tl_paint_text_boxes_index (boxes, b)->text, "…"))
      {
        g_test_message ("%d×%d: “%s”", w, h, tl_paint_text_boxes_index (boxes, b)->text);
        cut++;
      }
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, w, h, NULL), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  tl_render_input_clear (&input);
  return cut;
}

/* render -p of the sweep and of Compare over a sweep on a projector at
 * 1024×768, 1280×800 and 1920×1080 (and in German, test-paint-compare-de):
 * the legend's columns each as wide as its own longest name, cut no name
 * of the sweep (rows 1.25 lines apart: at 1.45 four columns at 1920×1080
 * cut six, "14 Hopper wgmma, persis…"); beside Compare's plot, by the
 * kernels' tags, its rows down to the picture's foot and the CPU's
 * kernels named whole where that cuts no other, none of Compare at
 * 1024×768 and 1280×800 (cut at 9 ems, "cache-blocked,…" and in German
 * "naive Dreifachsc…"), and none at 1920×1080 in a type 0.85 as large
 * (eight in the six rows beside the plot alone, "cu…TF…"; one and two
 * in the legend's whole type). */
static void
test_legend_presenting (void)
{
  static const int screens[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };
  for (guint k = 0; k < G_N_ELEMENTS (screens); k++)
    {
      guint sweep = presented_cut (TL_RENDER_SWEEP, screens[k][0], screens[k][1]);
      guint compare = presented_cut (TL_RENDER_COMPARE, screens[k][0], screens[k][1]);
      g_test_message ("%d×%d: %u cut in the sweep, %u in Compare", screens[k][0], screens[k][1], sweep, compare);
      g_assert_cmpuint (sweep, ==, 0);
      g_assert_cmpuint (compare, ==, 0);
    }
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  /* LANGUAGE=de (test-paint-compare-de): the build tree's catalogue */
  tl_locale_init ();
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0
      && strcmp (g_dgettext (GETTEXT_PACKAGE, "median time"), "median time") == 0)
    g_error ("LANGUAGE=de, but no German catalogue in %s", tl_locale_dir ());
  g_test_add_func ("/compare/bars", test_bars);
  g_test_add_func ("/compare/log-axis", test_log_axis);
  g_test_add_func ("/compare/sweep", test_sweep);
  g_test_add_func ("/compare/lu-and-colours", test_lu_and_colours);
  g_test_add_func ("/compare/kernel-looks", test_kernel_looks);
  g_test_add_func ("/compare/sweep-shapes", test_sweep_shapes);
  g_test_add_func ("/compare/sweep-legend-all", test_sweep_legend_all);
  g_test_add_func ("/compare/bars-legible", test_bars_legible);
  g_test_add_func ("/compare/bars-window-text", test_bars_window_text);
  g_test_add_func ("/compare/bars-long-names", test_bars_long_names);
  g_test_add_func ("/compare/bars-fill-page", test_bars_fill_page);
  g_test_add_func ("/compare/sweep-legend-under", test_sweep_legend_under);
  g_test_add_func ("/compare/sweep-machine-key", test_sweep_machine_key);
  g_test_add_func ("/compare/legend-presenting", test_legend_presenting);
  return g_test_run ();
}
