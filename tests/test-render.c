/* test-render.c — `render` draws every view to PNG, SVG and PDF, and the files
 * read back: PNG with the right size, SVG well-formed, PDF a PDF.  A real CPU
 * GEMM with tile records goes through the runner and its timeline is checked
 * pixel by pixel.  Errors are clear, and the CLI exits 1 or 2. */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "lu/tl-lu.h"
#include "record/tl-lu-record.h"
#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-timeline.h"
#include "paint/tl-render.h"
#include "run/tl-runner.h"
#include "cli-test-util.h"
#include "paint-test-util.h"
#include "picture-test-util.h"
#include "plan-test-util.h"
#include "view/tl-plan-view.h"
#include "record/tl-gauss-record.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* A GPU-looking record: one instrumented kernel on 4 SMs, one without blocks. */
static char *
write_gpu_record (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (100, 50, 70, TL_DTYPE_FLOAT32);
  g_autoptr (TlRunRecord) rec = tl_run_record_new (job);
  rec->has_device = TRUE;
  rec->device.sm_count = 4;
  g_strlcpy (rec->device.name, "Test GPU", sizeof rec->device.name);

  TlKernelRun *run = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  double samples[3] = { 0.21, 0.2, 0.25 };
  tl_kernel_run_set_samples (run, samples, 3);
  /* 5 × 7 tiles of 16×16 over C (100×70), 4 SMs × 2 blocks */
  gsize n = 35;
  TlBlockRecord *b = g_new0 (TlBlockRecord, n);
  for (gsize i = 0; i < n; i++)
    {
      b[i].block_x = i % 5;
      b[i].block_y = i / 5;
      b[i].unit = i % 4;
      b[i].start_ns = (i / 8) * 20000 + (i % 3) * 100;
      b[i].end_ns = b[i].start_ns + 15000 + g_test_rand_int_range (0, 4000);
    }
  tl_kernel_run_take_blocks (run, b, n, "sm");
  run->block_tile_m = run->block_tile_n = 16;
  run->launch.valid = TRUE;
  run->launch.active_blocks_per_sm = 2;
  g_ptr_array_add (rec->runs, run);

  TlKernelRun *naive = tl_kernel_run_new ("cpu-naive", TL_BACKEND_CPU);
  double s2[2] = { 3.1, 3.3 };
  tl_kernel_run_set_samples (naive, s2, 2);
  g_ptr_array_add (rec->runs, naive);

  char *path = tmp_path ("gpu.json");
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_run_record_save (rec, path, TL_RECORD_SAVE_DEFAULT, &error));
  g_assert_no_error (error);
  return path;
}

static char *
write_lu_record (guint *n_steps)
{
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 24, 24, NULL);
  for (gsize i = 0; i < 24; i++)
    for (gsize j = 0; j < 24; j++)
      tl_matrix_set (a, i, j, tl_test_random (-1, 1));
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  char *path = tmp_path ("lu.json");
  g_assert_true (tl_lu_recorder_save (rec, path, NULL));
  *n_steps = rec->steps->len;
  return path;
}

/* The same steps inside a run record ($.extensions.lu), as `lu --record` writes. */
static char *
write_lu_run_record (void)
{
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 20, 20, NULL);
  for (gsize i = 0; i < 20; i++)
    for (gsize j = 0; j < 20; j++)
      tl_matrix_set (a, i, j, tl_test_random (-1, 1));
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_lu_run_record_new (res, a, NULL, rec, &error);
  g_assert_no_error (error);
  char *path = tmp_path ("lu-run.json");
  g_assert_true (tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_formats (void)
{
  g_autofree char *gpu = write_gpu_record ();
  guint n_steps;
  g_autofree char *lu = write_lu_record (&n_steps);
  TlRenderInput in, lu_in;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (&in, gpu, &error));
  g_assert_no_error (error);
  g_assert_nonnull (in.record);
  g_assert_null (in.lu);
  g_assert_true (tl_test_render_input_load (&lu_in, lu, &error));
  g_assert_null (lu_in.record);
  g_assert_nonnull (lu_in.lu);

  const TlRenderView views[] = { TL_RENDER_BLOCKS, TL_RENDER_TIMELINE, TL_RENDER_BLOCKS_AND_TIMELINE,
                                 TL_RENDER_COMPARE, TL_RENDER_GAUSS };
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      const TlRenderInput *input = views[v] == TL_RENDER_GAUSS ? &lu_in : &in;
      TlRenderOptions o;
      tl_render_options_init (&o);
      o.view = views[v];
      o.width = 800;
      o.height = 450;
      o.step = views[v] == TL_RENDER_GAUSS ? 10 : 0;
      for (double scale = 1; scale <= 2; scale++)
        {
          o.scale = scale;
          o.presentation = scale == 2;
          g_autofree char *png = tmp_path ("out.png");
          g_assert_true (tl_render_to_file (input, &o, png, &error));
          g_assert_no_error (error);
          check_png (png, (int) (800 * scale), (int) (450 * scale));
          g_unlink (png);
        }
      g_autofree char *svg = tmp_path ("out.svg");
      g_assert_true (tl_render_to_file (input, &o, svg, &error));
      g_assert_no_error (error);
      check_svg (svg);
      g_unlink (svg);
      g_autofree char *pdf = tmp_path ("out.PDF");
      g_assert_true (tl_render_to_file (input, &o, pdf, &error));
      g_assert_no_error (error);
      check_pdf (pdf);
      g_unlink (pdf);
    }

  /* the last frame of the Gauss record is fine, one more is not */
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_GAUSS;
  o.step = n_steps;
  g_autofree char *png = tmp_path ("g.png");
  g_assert_true (tl_render_to_file (&lu_in, &o, png, &error));
  g_unlink (png);
  o.step = n_steps + 1;
  g_assert_false (tl_render_to_file (&lu_in, &o, png, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "out of range"));
  g_clear_error (&error);
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));

  tl_render_input_clear (&in);
  tl_render_input_clear (&lu_in);
  g_unlink (gpu);
  g_unlink (lu);

  /* a run record carrying the steps: the gauss view and the comparison both draw */
  g_autofree char *lurun = write_lu_run_record ();
  TlRenderInput both;
  g_assert_true (tl_test_render_input_load (&both, lurun, &error));
  g_assert_no_error (error);
  g_assert_nonnull (both.record);
  g_assert_nonnull (both.lu);
  g_assert_cmpuint (both.lu->steps->len, ==, 20);
  o.view = TL_RENDER_GAUSS;
  o.step = 9;
  g_assert_true (tl_render_to_file (&both, &o, png, &error));
  g_assert_no_error (error);
  check_png (png, 1600, 900);
  o.view = TL_RENDER_COMPARE;
  g_assert_true (tl_render_to_file (&both, &o, png, &error));
  g_assert_no_error (error);
  g_unlink (png);
  tl_render_input_clear (&both);
  g_unlink (lurun);
}

/* The Blocks page's picture holds the tile grid above the timeline, as the
 * page shows them (the PDF once held only the timeline). */
static void
test_blocks_and_timeline (void)
{
  g_autofree char *gpu = write_gpu_record ();
  TlRenderInput in;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (&in, gpu, &error));
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_BLOCKS_AND_TIMELINE;
  o.color = "start";
  o.timeline_color = "wave";
  g_autofree char *png = tmp_path ("bt.png");
  g_assert_true (tl_render_to_file_with (&in, &o, png, boxes, NULL, &error));
  g_assert_no_error (error);
  check_png (png, 1600, 900);
  g_unlink (png);
  /* the grid's caption in the upper half, the timeline's lanes in the lower */
  const TlPaintTextBox *grid = tl_paint_text_boxes_find (boxes, "C is 100×70");
  g_assert_nonnull (grid);
  g_assert_cmpfloat (grid->y, <, 450);
  const TlPaintTextBox *lane = tl_paint_text_boxes_find (boxes, "SM");
  g_assert_nonnull (lane);
  g_assert_cmpfloat (lane->y, >, 450);
  g_autoptr (GString) report = g_string_new (NULL);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 1600, 900, report), ==, 0);
  tl_render_input_clear (&in);
}

/* docs/records/name as a render's input, the second one as a further record */
static void
load_doc_record (TlRenderInput *in, const char *name, gboolean more)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "records", name, NULL);
  g_autoptr (GError) error = NULL;
  TlRenderInput one;
  g_assert_true (tl_test_render_input_load (&one, path, &error));
  g_assert_no_error (error);
  if (!more)
    *in = one;
  else
    g_assert_true (tl_render_input_add_run (in, one.record, NULL));
}

/* How many of the boxes say needle. */
static guint
count_boxes (const TlPaintTextBoxes *boxes, const char *needle)
{
  guint n = 0;
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    n += strstr (tl_paint_text_boxes_index (boxes, i)->text, needle) != NULL;
  return n;
}

/* The Blocks page presenting two kernels on a lecture screen (the page's
 * size under the toolbar at 1024×768, 1280×800, 1920×1080): both kernels'
 * tile grids side by side above their timelines, each timeline keeping
 * its title and lanes, all in type of 14 px or more.  Once the grid of
 * the first kernel alone was shown, and at 1024×768 none: rung N could not
 * be set beside N−1.  The summaries' numbers, where shown, whole. */
static void
test_blocks_and_timeline_presenting (void)
{
  static const int sizes[][2] = { { 1024, 676 }, { 1280, 708 }, { 1920, 988 } };
  TlRenderInput in;
  load_doc_record (&in, "h200-gemm-1000x500x1000.json", FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      int w = sizes[i][0], h = sizes[i][1];
      TlPaintStyle style;
      tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
      TlRenderOptions o;
      tl_render_options_init (&o);
      o.view = TL_RENDER_BLOCKS_AND_TIMELINE;
      o.kernels = "cpu-blocked,gemm-03-smem16";
      o.presentation = TRUE;
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_t *cr = cairo_create (s);
      tl_paint_text_boxes_attach (cr, boxes);
      g_autoptr (GError) error = NULL;
      g_assert_true (tl_render_draw (cr, &in, &o, &style, w, h, &error));
      g_assert_no_error (error);
      cairo_destroy (cr);
      cairo_surface_destroy (s);

      g_test_message ("%d×%d: %u texts, %u summaries", w, h, tl_paint_text_boxes_len (boxes),
                      count_boxes (boxes, "median"));
      /* a grid each, titled as Compare names the rungs, and a track each */
      g_assert_cmpuint (count_boxes (boxes, "tile row"), ==, 2);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "03 shared memory 16×16"));
      g_assert_cmpuint (count_boxes (boxes, "gemm-03-smem16 — "), ==, 1);
      g_assert_cmpuint (count_boxes (boxes, "cpu-blocked — "), ==, 1);
      for (guint b = 0; b < tl_paint_text_boxes_len (boxes); b++)
        {
          /* the type's height, turned or not: from the first corner to the fourth */
          const TlPaintTextBox *t = tl_paint_text_boxes_index (boxes, b);
          g_assert_cmpfloat (hypot (t->corner_x[3] - t->corner_x[0], t->corner_y[3] - t->corner_y[0]), >=, 14);
          /* the summaries' numbers whole: "max 544 …" reads as another number */
          if (strstr (t->text, "median") || strstr (t->text, " blocks") || g_str_has_prefix (t->text, "til"))
            g_assert_null (strstr (t->text, "…"));
        }
      g_autoptr (GString) report = g_string_new (NULL);
      if (tl_paint_text_boxes_check (boxes, w, h, report) != 0)
        g_error ("%d×%d: %s", w, h, report->str);
    }
  tl_render_input_clear (&in);
}

/* render's default for several records, 1600×1500: the bars over the
 * sweep, each with its own share */
static void
compare_over_sweep_when_tall (const TlRenderInput *in, const char *png)
{
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GError) error = NULL;
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_COMPARE;
  o.charts = TL_RENDER_CHARTS_BARS_OVER_SWEEP;
  o.width = 1600;
  o.height = 1500;
  g_assert_true (tl_render_to_file_with (in, &o, png, boxes, NULL, &error));
  g_assert_no_error (error);
  const TlPaintTextBox *bars = tl_paint_text_boxes_find (boxes, "C = A·B");
  const TlPaintTextBox *sweep = tl_paint_text_boxes_find (boxes, "Size sweep: GFLOP/s");
  g_assert_nonnull (bars);
  g_assert_nonnull (sweep);
  g_assert_cmpfloat (sweep->y, >, 1500 * 0.5);
  g_assert_cmpfloat (sweep->x, <, bars->x + bars->w);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 1600, 1500, NULL), ==, 0);
  g_unlink (png);
}

/* The Compare page's picture as its screen: the bars coloured by a counter
 * with the legend line under them, over the size sweep of the records (two
 * sizes, titled by them), or the sweep alone; a single size keeps the bars alone; a counter
 * the page does not offer is refused by name. */
static void
test_compare_charts (void)
{
  TlRenderInput in;
  load_doc_record (&in, "h200-gemm-4096-fp32-counters.json", FALSE);
  load_doc_record (&in, "h200-gemm-1000x500x1000.json", TRUE);
  const TlRenderCharts charts[] = { TL_RENDER_CHARTS_BARS_OVER_SWEEP, TL_RENDER_CHARTS_SWEEP,
                                    TL_RENDER_CHARTS_BARS };
  g_autofree char *png = tmp_path ("compare.png");
  for (guint c = 0; c < G_N_ELEMENTS (charts); c++)
    for (int presenting = 0; presenting < 2; presenting++)
      {
        g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
        g_autoptr (GError) error = NULL;
        TlRenderOptions o;
        tl_render_options_init (&o);
        o.view = TL_RENDER_COMPARE;
        o.charts = charts[c];
        o.counter = "dram_bytes";
        o.presentation = presenting;
        g_assert_true (tl_render_to_file_with (&in, &o, png, boxes, NULL, &error));
        g_assert_no_error (error);
        const TlPaintTextBox *bars = tl_paint_text_boxes_find (boxes, "C = A·B");
        const TlPaintTextBox *legend = tl_paint_text_boxes_find (boxes, "Colour: DRAM bytes");
        const TlPaintTextBox *sweep = tl_paint_text_boxes_find (boxes, "Size sweep: GFLOP/s");
        g_assert_true ((legend != NULL) == (charts[c] != TL_RENDER_CHARTS_SWEEP));
        g_assert_true ((sweep != NULL) == (charts[c] != TL_RENDER_CHARTS_BARS));
        g_assert_true ((bars != NULL) == (charts[c] != TL_RENDER_CHARTS_SWEEP));
        /* 1600×900 is too short for 24 sweep lines under the bars (405 of
         * the 516 px they need): in a window the sweep sits beside them;
         * presenting, half the width is too narrow for its type */
        if (charts[c] == TL_RENDER_CHARTS_BARS_OVER_SWEEP && !presenting)
          g_assert_cmpfloat (legend->x + legend->w, <=, sweep->x);
        if (charts[c] == TL_RENDER_CHARTS_BARS_OVER_SWEEP && presenting)
          g_assert_cmpfloat (legend->y + legend->h, <=, sweep->y);
        /* the sweep's title says what it holds (the CPU kernels ran on the
         * H200 host's CPU), not "this session" */
        if (sweep != NULL)
          g_assert_cmpstr (sweep->text, ==, "Size sweep: GFLOP/s of 2 records on 2 machines");
        g_autoptr (GString) report = g_string_new (NULL);
        if (tl_paint_text_boxes_check (boxes, 1600, 900, report) != 0)
          g_error ("charts %u presenting %d: %s", c, presenting, report->str);
      }
  g_unlink (png);
  compare_over_sweep_when_tall (&in, png);
  /* one size: the bars alone, as the page shows them */
  tl_render_input_clear (&in);
  load_doc_record (&in, "h200-gemm-4096-fp32-counters.json", FALSE);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GError) error = NULL;
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_COMPARE;
  o.charts = TL_RENDER_CHARTS_SWEEP;
  g_assert_true (tl_render_to_file_with (&in, &o, png, boxes, NULL, &error));
  g_assert_null (tl_paint_text_boxes_find (boxes, "Size sweep"));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "C = A·B"));
  g_unlink (png);
  o.counter = "warp_speed";
  g_assert_false (tl_render_to_file_with (&in, &o, png, NULL, NULL, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "warp_speed"));
  g_assert_nonnull (strstr (error->message, "dram_bytes"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  tl_render_input_clear (&in);
}

/* A planned rung: the blocks view marks the last wave on its tiles and says
 * the plan under the grid — with block timings and without, in a window's
 * proportions and on a projector, every text whole and apart */
static void
test_blocks_plan (void)
{
  const struct { double w, h; gboolean presentation; gboolean blocks; const char *name; } cases[] = {
    { 1600, 900, FALSE, TRUE, "plan-1600x900.png" },
    { 1024, 768, TRUE, TRUE, "plan-1024x768-presentation.png" },
    { 1920, 1080, TRUE, TRUE, "plan-1920x1080-presentation.png" },
    { 1024, 768, FALSE, FALSE, "plan-untimed-1024x768.png" },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TlRunRecord) rec = tl_test_planned_record (1000, 777, 1111, cases[c].blocks);
      g_autoptr (TlPlanView) plan = tl_plan_view_new_for_record (rec, rec->runs->pdata[0]);
      g_autofree char *json = tmp_path ("planned.json");
      g_autoptr (GError) error = NULL;
      g_assert_true (tl_run_record_save (rec, json, TL_RECORD_SAVE_DEFAULT, &error));
      TlRenderInput in;
      g_assert_true (tl_test_render_input_load (&in, json, &error));
      g_assert_no_error (error);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      TlRenderOptions o;
      tl_render_options_init (&o);
      o.view = TL_RENDER_BLOCKS;
      o.width = cases[c].w;
      o.height = cases[c].h;
      o.presentation = cases[c].presentation;
      const char *keep = g_getenv ("TL_TEST_PICTURES"); /* a folder to look at them in */
      g_autofree char *png = keep ? g_build_filename (keep, cases[c].name, NULL) : tmp_path (cases[c].name);
      g_assert_true (tl_render_to_file_with (&in, &o, png, boxes, NULL, &error));
      g_assert_no_error (error);
      check_png (png, (int) cases[c].w, (int) cases[c].h);
      if (!keep)
        g_unlink (png);
      g_unlink (json);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, plan->name));
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, plan->legend));
      g_autofree char *why = g_strndup (plan->why, 24);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, why));
      g_autoptr (GString) report = g_string_new (NULL);
      if (tl_paint_text_boxes_check (boxes, cases[c].w, cases[c].h, report))
        g_error ("%s: %s", cases[c].name, report->str);
      tl_render_input_clear (&in);
    }
}

static void
test_errors (void)
{
  g_autofree char *gpu = write_gpu_record ();
  TlRenderInput in;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (&in, gpu, NULL));
  g_autofree char *png = tmp_path ("e.png");
  TlRenderOptions o;
  tl_render_options_init (&o);

  o.view = TL_RENDER_TIMELINE;
  o.kernels = "gemm-99-nope";
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no kernel “gemm-99-nope”"));
  g_assert_nonnull (strstr (error->message, "gemm-03-smem16, cpu-naive"));
  g_clear_error (&error);

  o.kernels = "cpu-naive";
  o.view = TL_RENDER_BLOCKS;
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "no block records"));
  g_clear_error (&error);

  o.kernels = NULL;
  o.view = TL_RENDER_GAUSS;
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "Gauss record"));
  g_clear_error (&error);

  o.view = TL_RENDER_HEATMAP;
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "--save-matrices"));
  g_clear_error (&error);

  o.view = TL_RENDER_BLOCKS;
  o.color = "wave";
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_clear_error (&error);
  o.color = NULL;
  o.launch = 3;
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "launch 3"));
  g_clear_error (&error);
  o.launch = -1;

  g_autofree char *bad = tmp_path ("e.jpg");
  g_assert_false (tl_render_to_file (&in, &o, bad, &error));
  g_assert_nonnull (strstr (error->message, ".png, .svg or .pdf"));
  g_clear_error (&error);
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));

  TlRenderInput none;
  g_autofree char *missing = tmp_path ("missing.json");
  g_assert_false (tl_test_render_input_load (&none, missing, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_clear_error (&error);
  g_autofree char *junk = tmp_path ("junk.json");
  g_assert_true (g_file_set_contents (junk, "[1, 2", -1, NULL));
  g_assert_false (tl_test_render_input_load (&none, junk, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_clear_error (&error);
  g_unlink (junk);

  /* --tile points at a tile: its outline in the block grid */
  {
    TlRenderOptions t;
    tl_render_options_init (&t);
    t.view = TL_RENDER_BLOCKS;
    t.tile_x = 2;
    t.tile_y = 3;
    TlPaintStyle style;
    tl_render_style_init (&style, &t, 800, 600, 1);
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 600);
    cairo_t *cr = cairo_create (s);
    g_assert_true (tl_render_draw (cr, &in, &t, &style, 800, 600, &error));
    g_assert_no_error (error);
    cairo_destroy (cr);
    const TlKernelRun *run = tl_run_record_find_run (in.record, "gemm-03-smem16");
    TlBlocksModel bm;
    tl_blocks_model_init (&bm);
    bm.blocks = run->blocks;
    bm.n_blocks = run->n_blocks;
    bm.title = "t";
    bm.tile_m = bm.tile_n = 16;
    bm.grid_x = 5; /* C is 100×70: 5 tile columns, 7 tile rows */
    bm.grid_y = 7;
    TlBlocksLayout lay;
    tl_paint_blocks_layout (&bm, &style, 800, 600, &lay);
    double cx, cy;
    tl_blocks_layout_tile_centre (&lay, 2, 3, &cx, &cy);
    tl_assert_pixel_near (s, cx + lay.cell_w / 2, cy, tl_test_rgb (255, 115, 0), 2);
    tl_assert_pixel_near (s, cx, cy, tl_color_scale_argb (&lay.scale, tl_blocks_model_value (&bm, 2, 3)), 0);
    tl_blocks_layout_tile_centre (&lay, 0, 3, &cx, &cy);
    g_assert_cmpint (tl_test_pixel_distance (tl_test_pixel (s, cx + lay.cell_w / 2, cy),
                                             tl_test_rgb (255, 115, 0)), >, 30);
    cairo_surface_destroy (s);
  }

  /* stacked run records: one kernel each, or one for all */
  TlRenderInput more;
  g_assert_true (tl_test_render_input_load (&more, gpu, &error));
  g_assert_true (tl_render_input_add_run (&in, g_steal_pointer (&more.record), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (in.n_more, ==, 1);
  o.view = TL_RENDER_TIMELINE;
  o.kernels = "gemm-03-smem16,gemm-03-smem16";
  g_assert_true (tl_render_to_file (&in, &o, png, &error));
  g_assert_no_error (error);
  check_png (png, 1600, 900);
  g_unlink (png);
  o.kernels = "gemm-03-smem16";
  g_assert_true (tl_render_to_file (&in, &o, png, &error));
  g_unlink (png);
  o.kernels = "a,b,c";
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "one per record"));
  g_clear_error (&error);
  o.kernels = "gemm-03-smem16,cpu-naive";
  g_assert_false (tl_render_to_file (&in, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "run record 2: "));
  g_assert_nonnull (strstr (error->message, "no block records"));
  g_clear_error (&error);
  /* three stacked under the first at most */
  for (guint i = in.n_more; i < G_N_ELEMENTS (in.more); i++)
    g_assert_true (tl_render_input_add_run (&in, tl_run_record_ref (in.record), &error));
  g_assert_false (tl_render_input_add_run (&in, tl_run_record_ref (in.record), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);

  tl_render_input_clear (&in);
  g_assert_cmpuint (in.n_more, ==, 0);
  g_unlink (gpu);
}

/* A real CPU GEMM with tile records through the runner, then its timeline. */
static void
test_cpu_run_timeline (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (150, 70, 130, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  const char *k[] = { "cpu-blocked", NULL };
  job->kernels = g_strdupv ((char **) k);
  job->instrument = TRUE;
  job->threads = 2;
  job->repeats = 2;
  job->warmups = 1;
  job->keep_matrices = TRUE;
  g_autoptr (TlRunner) runner = tl_runner_new (0);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) rec = tl_runner_run_gemm (runner, job, NULL, &error);
  g_assert_no_error (error);
  const TlKernelRun *run = tl_run_record_find_run (rec, "cpu-blocked");
  g_assert_nonnull (run);
  g_assert_cmpint (run->status, ==, TL_RUN_OK);
  g_assert_cmpuint (run->n_blocks, >, 1);
  g_assert_cmpstr (run->block_unit, ==, "thread");

  g_autoptr (TlBlockStats) st = tl_block_stats_new_for_run (rec, run, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (st->n_blocks, ==, run->n_blocks);
  g_assert_cmpuint (st->n_units, ==, run->threads);
  g_assert_cmpuint (st->slots, ==, 1);
  g_assert_cmpuint (st->max_slot, ==, 1); /* a thread runs one tile at a time */

  /* the same picture render draws, checked where the longest block is */
  TlRenderInput in = { .record = rec };
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_TIMELINE;
  TlPaintStyle style;
  tl_render_style_init (&style, &o, 1200, 700, 1);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
  cairo_t *cr = cairo_create (s);
  g_assert_true (tl_render_draw (cr, &in, &o, &style, 1200, 700, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);

  TlTimelineTrack track = { .label = run->kernel_id, .blocks = run->blocks, .n_blocks = run->n_blocks,
                            .stats = st, .unit_label = "thread" };
  TlTimelineModel model;
  tl_timeline_model_init (&model);
  model.tracks = &track;
  model.n_tracks = 1;
  TlTimelineLayout lay;
  tl_paint_timeline_layout (&model, &style, 1200, 700, &lay);
  gsize longest = 0;
  for (gsize i = 0; i < run->n_blocks; i++)
    if (run->blocks[i].end_ns - run->blocks[i].start_ns
        > run->blocks[longest].end_ns - run->blocks[longest].start_ns)
      longest = i;
  double x, y, w, h;
  tl_timeline_layout_bar (&lay, &model, 0, longest, &x, &y, &w, &h);
  g_assert_cmpfloat (y, >=, lay.track[0].y + run->blocks[longest].unit * lay.track[0].lane_h - 1e-9);
  /* the bar starts where its start time falls on the axis (to rounding:
   * the painter multiplies by a precomputed pixels-per-ns) */
  g_assert_cmpfloat_with_epsilon (x, lay.track[0].x + run->blocks[longest].start_ns
                                       * lay.track[0].w / lay.t_max_ns, 1e-6);
  /* a bar, not the background (white) or the lane shading */
  guint32 p = tl_test_pixel (s, x + w / 2, y + h / 2);
  g_assert_cmpint (tl_test_pixel_distance (p, tl_test_rgb (255, 255, 255)), >, 40);
  g_assert_cmpint (tl_test_pixel_distance (p, tl_test_rgb (243, 243, 243)), >, 40);
  guint t;
  gsize idx;
  g_assert_true (tl_timeline_layout_block_at (&lay, &model, x + w / 2, y + h / 2, &t, &idx));
  g_assert_cmpuint (idx, ==, longest);
  cairo_surface_destroy (s);

  /* saved with its matrices: the heatmap of C and of the error render too */
  g_autofree char *path = tmp_path ("cpu.json");
  g_assert_true (tl_run_record_save (rec, path, TL_RECORD_SAVE_MATRICES, &error));
  g_assert_no_error (error);
  TlRenderInput loaded;
  g_assert_true (tl_test_render_input_load (&loaded, path, &error));
  const char *which[] = { "A", "B", "C", "ref", "error" };
  for (guint i = 0; i < G_N_ELEMENTS (which); i++)
    {
      o.view = TL_RENDER_HEATMAP;
      o.matrix = which[i];
      o.width = 640;
      o.height = 480;
      g_autofree char *png = tmp_path ("hm.png");
      g_assert_true (tl_render_to_file (&loaded, &o, png, &error));
      g_assert_no_error (error);
      check_png (png, 640, 480);
      g_unlink (png);
    }
  o.matrix = "D";
  g_autofree char *png = tmp_path ("hm.png");
  g_assert_false (tl_render_to_file (&loaded, &o, png, &error));
  g_assert_nonnull (strstr (error->message, "unknown matrix"));
  tl_render_input_clear (&loaded);

  g_autoptr (GDir) dir = g_dir_open (tmpdir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_prefix (name, "cpu."))
      {
        g_autofree char *f = tmp_path (name);
        g_unlink (f);
      }
}

/* tilelab-cli render ARGS…; a failure must say who failed */
static int
run_cli (const char *first, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_ptr_array_add (args, "render");
  va_list ap;
  va_start (ap, first);
  cli_test_args_add_va (args, first, ap);
  va_end (ap);
  g_autofree char *err = NULL;
  int status = cli_test_spawn ((const char *const *) args->pdata, NULL, NULL, &err);
  if (status != 0)
    g_assert_nonnull (strstr (err, "tilelab-cli"));
  return status;
}

static void
test_cli (void)
{
  if (!g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("tilelab-cli not built");
      return;
    }
  g_autofree char *gpu = write_gpu_record ();
  guint n_steps;
  g_autofree char *lu = write_lu_record (&n_steps);
  g_autofree char *out = tmp_path ("cli.svg");
  g_autofree char *png = tmp_path ("cli.png");
  g_autofree char *step_ok = g_strdup_printf ("%u", n_steps);
  g_autofree char *step_bad = g_strdup_printf ("%u", n_steps + 1);

  g_assert_cmpint (run_cli ("--view", "timeline", "--run", gpu, "-o", out, NULL), ==, 0);
  check_svg (out);
  g_assert_cmpint (run_cli ("--view", "timeline", "--run", gpu, "--run", gpu, "-o", out, NULL), ==, 0);
  check_svg (out);
  g_assert_cmpint (run_cli ("--view", "blocks", "--run", gpu, "--run", gpu, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "blocks", "--run", gpu, "-o", png, "--scale", "2", "--width", "500",
                            "--height", "300", "--presentation", NULL), ==, 0);
  check_png (png, 1000, 600);
  g_assert_cmpint (run_cli ("--view", "timeline", "--tile", "2,3", "--run", gpu, "-o", png, NULL), ==, 0);
  g_assert_cmpint (run_cli ("--view", "blocks", "--tile", "2", "--run", gpu, "-o", png, NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "gauss", "--step", step_ok, "--run", lu, "-o", png, NULL), ==, 0);
  check_png (png, 1600, 900);

  /* usage errors: 2 */
  g_assert_cmpint (run_cli (NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "pie", "--run", gpu, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "timeline", "--run", gpu, NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "timeline", "--run", gpu, "-o", "x.gif", NULL), ==, 2);
  g_assert_cmpint (run_cli ("--view", "gauss", "--run", lu, "--step", "-3", "-o", out, NULL), ==, 2);
  /* what the record lacks: 1 */
  g_assert_cmpint (run_cli ("--view", "timeline", "--kernel", "nope", "--run", gpu, "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_cli ("--view", "blocks", "--kernel", "cpu-naive", "--run", gpu, "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_cli ("--view", "gauss", "--step", step_bad, "--run", lu, "-o", out, NULL), ==, 1);
  g_autofree char *missing = tmp_path ("nope.json");
  g_assert_cmpint (run_cli ("--view", "compare", "--run", missing, "-o", out, NULL), ==, 1);
  g_unlink (out);
  g_unlink (png);
  g_unlink (gpu);
  g_unlink (lu);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("tilelab-render-XXXXXX", NULL);
  cli_test_locate ();
  g_test_add_func ("/render/formats", test_formats);
  g_test_add_func ("/render/errors", test_errors);
  g_test_add_func ("/render/blocks-and-timeline", test_blocks_and_timeline);
  g_test_add_func ("/render/blocks-and-timeline-presenting", test_blocks_and_timeline_presenting);
  g_test_add_func ("/render/blocks-plan", test_blocks_plan);
  g_test_add_func ("/render/compare-charts", test_compare_charts);
  g_test_add_func ("/render/cpu-run-timeline", test_cpu_run_timeline);
  g_test_add_func ("/render/cli", test_cli);
  int rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  g_free (cli_path);
  return rc;
}
