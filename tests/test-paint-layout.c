/* test-paint-layout.c — every view, drawn from real records at the screens a
 * lecture meets (1024×768, 1280×800, 1920×1080), in normal and presentation
 * type and in high contrast: no text overlaps another, none is clipped,
 * none runs off the picture.  The records are the H200 GEMM and LU records
 * of docs/records, a stacked CPU + GPU timeline, a size sweep over both,
 * and a heatmap of a fresh random matrix with a NaN and a log scale. */
#include <math.h>
#include <string.h>

#include "paint/tl-paint-heatmap.h"
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-render.h"
#include "paint-test-util.h"

static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };

typedef enum { NORMAL, PRESENTATION, HIGH_CONTRAST, N_MODES } Mode;
static const char *const mode_names[N_MODES] = { "normal", "presentation", "high contrast" };

/* A record of docs/records, loaded as `render --run` loads it. */
static void
load_record (const char *name, TlRenderInput *input)
{
  tl_test_doc_record_load (input, name);
}

/* The style a widget of this size would draw with on screen (the views'
 * 12-unit type, ×1.6 in presentation mode), or the CLI's renderer's. */
static void
style_for (TlPaintStyle *style, Mode mode, gboolean screen, const TlRenderOptions *o, int w, int h)
{
  if (!screen)
    {
      tl_render_style_init (style, o, w, h, 1.0);
      return;
    }
  if (mode == PRESENTATION)
    tl_paint_style_init_presentation (style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  else
    tl_paint_style_init (style, 1.0);
  tl_paint_style_set_high_contrast (style, mode == HIGH_CONTRAST);
}

static void
check_view (const TlRenderInput *input, TlRenderOptions *o, const char *what)
{
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (Mode mode = NORMAL; mode < N_MODES; mode++)
      for (int screen = 0; screen < 2; screen++)
        {
          int w = sizes[k][0], h = sizes[k][1];
          TlPaintStyle style;
          o->presentation = mode == PRESENTATION;
          o->high_contrast = mode == HIGH_CONTRAST;
          o->width = w;
          o->height = h;
          style_for (&style, mode, screen, o, w, h);

          cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
          cairo_t *cr = cairo_create (s);
          g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
          g_autoptr (GError) error = NULL;
          tl_paint_text_boxes_attach (cr, boxes);
          gboolean ok = tl_render_draw (cr, input, o, &style, w, h, &error);
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
          cairo_destroy (cr);
          cairo_surface_destroy (s);

          g_autoptr (GString) report = g_string_new (NULL);
          guint problems = tl_paint_text_boxes_check (boxes, w, h, report);
          if (problems > 0)
            g_error ("%s at %d×%d, %s, %s type: %u problems with the text:\n%s", what, w, h,
                     mode_names[mode], screen ? "screen" : "render", problems, report->str);
          /* and it drew words, not an empty picture */
          g_assert_cmpuint (tl_paint_text_boxes_len (boxes), >=, 8);
        }
}

static void
test_gemm_record (void)
{
  TlRenderInput input;
  load_record ("h200-gemm-1000x500x1000.json", &input);

  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_COMPARE;
  check_view (&input, &o, "compare, GFLOP/s");
  o.color = "time";
  check_view (&input, &o, "compare, time");
  o.color = NULL;
  o.view = TL_RENDER_BLOCKS;
  o.kernels = "gemm-03-smem16";
  check_view (&input, &o, "blocks");
  o.view = TL_RENDER_TIMELINE;
  check_view (&input, &o, "timeline");
  /* two kernels of very different speed, on one and on their own scales */
  o.kernels = "gemm-01-naive,gemm-11-wgmma";
  check_view (&input, &o, "timeline, two kernels on one scale");
  o.own_time_scale = TRUE;
  check_view (&input, &o, "timeline, two kernels on own scales");
  o.own_time_scale = FALSE;
  o.color = "wave";
  check_view (&input, &o, "timeline by wave");
  o.color = NULL;
  o.kernels = NULL;
  o.view = TL_RENDER_SWEEP;
  check_view (&input, &o, "sweep");
  tl_render_input_clear (&input);
}

static void
test_lu_record (void)
{
  TlRenderInput input;
  load_record ("h200-lu-02-blocked-96.json", &input);

  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_COMPARE;
  check_view (&input, &o, "compare of an LU record");
  o.view = TL_RENDER_GAUSS;
  static const guint steps[] = { 0, 1, 20, 95, 96 };
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_autofree char *what = g_strdup_printf ("gauss step %u", steps[i]);
      o.step = steps[i];
      o.gauss_record_range = i % 2 == 1;
      check_view (&input, &o, what);
    }
  tl_render_input_clear (&input);
}

/* A record with matrices in memory: A (with a NaN), B, C and the reference. */
static TlRunRecord *
record_with_matrices (gsize m, gsize k, gsize n)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (m, k, n, TL_DTYPE_FLOAT32);
  TlRunRecord *rec = tl_run_record_new (job);
  rec->a = tl_test_random_matrix (TL_DTYPE_FLOAT32, m, k, -1, 1);
  rec->b = tl_test_random_matrix (TL_DTYPE_FLOAT32, k, n, -1, 1);
  tl_matrix_set (rec->a, m / 3, k / 2, NAN);
  rec->reference = tl_test_random_matrix (TL_DTYPE_FLOAT64, m, n, -8, 8);
  TlKernelRun *run = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  double samples[2] = { 1.5, 1.6 };
  tl_kernel_run_set_samples (run, samples, 2);
  run->c = tl_matrix_new (TL_DTYPE_FLOAT32, m, n, NULL);
  for (gsize i = 0; i < m; i++)
    for (gsize j = 0; j < n; j++)
      tl_matrix_set (run->c, i, j, tl_matrix_get (rec->reference, i, j) + tl_test_random (-1e-4, 1e-4));
  g_ptr_array_add (rec->runs, run);
  return rec;
}

static void
test_heatmaps (void)
{
  TlRenderInput input = { 0 };
  input.record = record_with_matrices (1000, 37, 500);
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_HEATMAP;
  static const char *const which[] = { "A", "B", "C", "error" };
  for (guint i = 0; i < G_N_ELEMENTS (which); i++)
    {
      g_autofree char *what = g_strdup_printf ("heatmap %s", which[i]);
      o.matrix = which[i];
      check_view (&input, &o, what);
    }
  o.matrix = "error";
  o.value_scale = "log";
  check_view (&input, &o, "heatmap error, log scale");
  o.matrix = "C";
  o.value_scale = "symlog";
  o.pool = "max";
  check_view (&input, &o, "heatmap C, symlog, max pooling");
  tl_render_input_clear (&input);
}

/* A heatmap of grid titled `title`, values in the linear scale of its range. */
static void
heatmap_model_for (TlHeatmapModel *model, TlPooledGrid *grid, const char *title)
{
  tl_heatmap_model_init (model);
  model->grid = grid;
  model->title = title;
  model->units = "value";
  tl_color_scale_init_for_range (&model->scale, -1, TL_SCALE_LINEAR, &grid->range);
}

/* A vector (1×156342 or 156342×1) is drawn as a strip an eighth of its
 * length, not as a hairline, with a colour bar that has room for its ticks;
 * the whole view passes the text checks. */
static void
test_vectors (void)
{
  static const gsize shapes[][2] = { { 1, 156342 }, { 156342, 1 } };
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      gsize rows = shapes[i][0], cols = shapes[i][1];
      g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT64, rows, cols, -1, 1);
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 1024, 1024, TL_POOL_MEAN, NULL, NULL);
      TlHeatmapModel model;
      heatmap_model_for (&model, g, "B");
      TlPaintStyle style;
      tl_paint_style_init (&style, 1.0);
      TlHeatmapLayout lay;
      tl_paint_heatmap_layout (&model, &style, 300, 290, &lay);
      double longer = MAX (lay.plot_w, lay.plot_h), shorter = MIN (lay.plot_w, lay.plot_h);
      g_assert_cmpfloat (longer, >, 100);
      g_assert_cmpfloat (shorter, >=, longer / 8 - 0.5);
      /* a colour bar beside the plot is tall enough for its ticks; one under
       * it as wide as the plot */
      if (lay.cb_horizontal)
        g_assert_cmpfloat (lay.cb_w, >=, lay.plot_w);
      else
        g_assert_cmpfloat (lay.cb_h, >=, MIN (12 * style.font_size, 290 - lay.plot_y) - 0.5);
    }

  TlRenderInput input = { 0 };
  input.record = record_with_matrices (3, 1, 40000);
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_HEATMAP;
  o.matrix = "B";
  check_view (&input, &o, "heatmap of a 1×40000 B");
  tl_render_input_clear (&input);
}

/* A dark theme's colours reach the picture (background and text), and high
 * contrast thickens without shrinking: the heatmap keeps its size. */
static void
test_themes (void)
{
  g_autoptr (TlMatrix) m = tl_test_random_matrix (TL_DTYPE_FLOAT32, 64, 64, -1, 1);
  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 100, 100, TL_POOL_MEAN, NULL, NULL);
  TlHeatmapModel model;
  heatmap_model_for (&model, g, "A");

  TlPaintStyle dark;
  tl_paint_style_init (&dark, 1);
  dark.bg[0] = dark.bg[1] = dark.bg[2] = 0.14;  /* Adwaita:dark's base */
  dark.fg[0] = dark.fg[1] = dark.fg[2] = 0.93;
  int w = 640, h = 480;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_heatmap (cr, &model, &dark, w, h);
  cairo_destroy (cr);
  tl_assert_pixel_near (s, 2, h - 2, tl_test_rgb (36, 36, 36), 1);
  /* the title's ink is the light foreground */
  const TlPaintTextBox *title = tl_paint_text_boxes_find (boxes, "A");
  g_assert_nonnull (title);
  int light = 0;
  for (int y = (int) title->y; y < title->y + title->h; y++)
    for (int x = (int) title->x; x < title->x + title->w; x++)
      light += tl_test_pixel_distance (tl_test_pixel (s, x, y), tl_test_rgb (237, 237, 237)) < 40;
  g_assert_cmpint (light, >, 5);
  cairo_surface_destroy (s);

  TlPaintStyle normal, hc;
  tl_paint_style_init (&normal, 1);
  hc = normal;
  tl_paint_style_set_high_contrast (&hc, TRUE);
  g_assert_cmpfloat (hc.font_size, ==, normal.font_size);
  g_assert_cmpfloat (hc.fg[0], ==, 0.0);
  TlHeatmapLayout a, b;
  tl_paint_heatmap_layout (&model, &normal, w, h, &a);
  tl_paint_heatmap_layout (&model, &hc, w, h, &b);
  g_assert_cmpfloat (b.plot_w, >=, a.plot_w * 0.95);
  g_assert_cmpfloat (b.plot_h, >=, a.plot_h * 0.95);
  /* and a high-contrast dark theme is white on black */
  tl_paint_style_set_high_contrast (&dark, TRUE);
  g_assert_cmpfloat (dark.fg[0], ==, 1.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paint/layout/gemm-record", test_gemm_record);
  g_test_add_func ("/paint/layout/lu-record", test_lu_record);
  g_test_add_func ("/paint/layout/heatmaps", test_heatmaps);
  g_test_add_func ("/paint/layout/vectors", test_vectors);
  g_test_add_func ("/paint/layout/themes", test_themes);
  return g_test_run ();
}
