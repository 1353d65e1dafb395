/* test-paint-roofline.c — the roofline model (peaks, points, limiters in
 * words, what is missing) and its painter (labels clear of each other at
 * the screens a lecture meets, every point where it belongs and hit by a
 * click there). */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint-test-util.h"

#define H200_SMS 132
#define H200_KHZ 1980000

/* One GPU run: FLOPs of one kind, DRAM and L2 bytes, issue share, median. */
static TlKernelRun *
gpu_run (const char *id, int flops_counter, double flops, double dram, double l2, double issue,
         double median_ms)
{
  TlKernelRun *run = tl_kernel_run_new (id, TL_BACKEND_GPU);
  const double ms[] = { median_ms };
  tl_kernel_run_set_samples (run, ms, 1);
  TlCounters *c = tl_counters_new (TL_GPU_COUNTERS_MEASURED, NULL);
  /* an FMA counts two FLOPs; the tensor counters count FLOPs already */
  c->value[flops_counter] = flops_counter == TL_GPU_COUNTER_FFMA ? flops / 2 : flops;
  c->value[TL_GPU_COUNTER_DRAM_READ_BYTES] = dram * 0.9;
  c->value[TL_GPU_COUNTER_DRAM_WRITE_BYTES] = dram * 0.1;
  c->value[TL_GPU_COUNTER_L2_BYTES] = l2;
  c->value[TL_GPU_COUNTER_ISSUE_ACTIVE] = issue * 1e9;
  c->value[TL_GPU_COUNTER_SMSP_CYCLES_ACTIVE] = 1e9;
  c->value[TL_GPU_COUNTER_STALL_LONG_SCOREBOARD] = 60;
  c->value[TL_GPU_COUNTER_STALL_BARRIER] = 40;
  run->counters = c;
  return run;
}

/* An H200 record: a latency-, a memory-, an issue- and a tensor-bound
 * kernel, a CPU kernel and one whose counters were refused. */
static TlRunRecord *
h200_record (gboolean with_bandwidth)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (4096, 4096, 4096, TL_DTYPE_FLOAT32);
  job->counters = TRUE;
  TlRunRecord *r = tl_run_record_new (job);
  r->has_device = TRUE;
  g_strlcpy (r->device.name, "NVIDIA H200", sizeof r->device.name);
  r->device.cc_major = 9;
  r->device.sm_count = H200_SMS;
  r->device.clock_khz = H200_KHZ;
  r->device.max_threads_per_sm = 2048;
  r->device.warp_size = 32;
  r->has_bandwidth = with_bandwidth;
  r->bandwidth.dram_bytes_per_s = 4e12;
  r->bandwidth.l2_bytes_per_s = 8e12;
  const double flops = 2.0 * 4096 * 4096 * 4096;
  g_ptr_array_add (r->runs, gpu_run ("gemm-02-coalesced", TL_GPU_COUNTER_FFMA, flops, 4.2e9,
                                     2e10, 0.3, 21.9));
  /* 14.4 GB in 4 ms: 3.6 TB/s, 90% of DRAM; 34 TFLOP/s, 51% of FP32 */
  g_ptr_array_add (r->runs, gpu_run ("gemm-01-naive", TL_GPU_COUNTER_FFMA, flops, 14.4e9, 14.4e9,
                                     0.1, 4.0));
  g_ptr_array_add (r->runs, gpu_run ("gemm-09-warptile", TL_GPU_COUNTER_FFMA, flops, 4.2e8,
                                     4.1e9, 0.75, 3.137));
  g_ptr_array_add (r->runs, gpu_run ("cublas-bf16", TL_GPU_COUNTER_TENSOR_BF16_OPS, flops, 2.3e8,
                                     0.8e9, 0.3, 0.185));
  /* 80% of L2 bandwidth and 69% of the BF16 peak: both are said */
  g_ptr_array_add (r->runs, gpu_run ("gemm-14-wgmma-persistent", TL_GPU_COUNTER_TENSOR_BF16_OPS,
                                     flops, 2.1e8, 1.184e9, 0.2, 0.185));
  TlKernelRun *cpu = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  const double ms[] = { 900 };
  tl_kernel_run_set_samples (cpu, ms, 1);
  g_ptr_array_add (r->runs, cpu);
  TlKernelRun *refused = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (refused, ms, 1);
  refused->counters = tl_counters_new (TL_GPU_COUNTERS_NOT_PERMITTED,
                                       "only administrators may (ERR_NVGPUCTRPERM)");
  g_ptr_array_add (r->runs, refused);
  return r;
}

static void
test_rates (void)
{
  double rate[TL_MATH_COUNT];
  g_assert_true (tl_roofline_rates (9, 0, rate));
  g_assert_cmpfloat (rate[TL_MATH_FP32], ==, 256);
  g_assert_cmpfloat (rate[TL_MATH_BF16], ==, 4096);
  g_assert_true (tl_roofline_rates (8, 0, rate));
  g_assert_cmpfloat (rate[TL_MATH_FP64_TENSOR], ==, 128);
  g_assert_true (tl_roofline_rates (8, 6, rate));
  g_assert_cmpfloat (rate[TL_MATH_FP64_TENSOR], ==, 0); /* no DMMA on GA10x */
  g_assert_true (tl_roofline_rates (8, 9, rate));
  g_assert_false (tl_roofline_rates (7, 5, rate));
  for (int m = 0; m < TL_MATH_COUNT; m++)
    g_assert_cmpfloat (rate[m], ==, 0);
}

static void
test_model (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  /* SMs × per-SM rate × clock: 66.9 TFLOP/s FP32 and 1.07 PFLOP/s BF16 */
  g_assert_cmpfloat (r->peak[TL_MATH_FP32], ==, 132.0 * 256 * 1.98e9);
  g_assert_cmpfloat (r->peak[TL_MATH_BF16], ==, 132.0 * 4096 * 1.98e9);
  g_assert_cmpfloat (r->dram_bytes_per_s, ==, 4e12);
  g_assert_nonnull (strstr (r->title, "NVIDIA H200"));
  g_assert_null (r->note);
  /* the CPU kernel and the refused one are no points */
  g_assert_cmpuint (r->n_points, ==, 5);

  const char *expected[] = {
    "latency-bound: warps wait on long scoreboard (waiting on global memory), 60% of stalls",
    "memory-bound: 90% of DRAM bandwidth",
    "issue-bound: an instruction issued in 75% of cycles, and 65% of the FP32 peak",
    "tensor-bound: 69% of the BF16 peak",
    "L2-bound: 80% of L2 bandwidth, and 69% of the BF16 peak",
  };
  const TlLimit limits[] = { TL_LIMIT_LATENCY, TL_LIMIT_MEMORY, TL_LIMIT_ISSUE, TL_LIMIT_TENSOR,
                             TL_LIMIT_L2 };
  for (guint i = 0; i < r->n_points; i++)
    {
      const TlRooflinePoint *p = &r->points[i];
      g_assert_cmpint (p->limit, ==, limits[i]);
      g_autofree char *text = tl_roofline_limiter_text (r, p);
      g_assert_cmpstr (text, ==, expected[i]);
      g_assert_cmpfloat_with_epsilon (p->intensity, p->flops / p->dram_bytes, 1e-9);
      g_assert_cmpfloat_with_epsilon (p->flops_per_s, p->flops / p->seconds, 1);
    }
  g_assert_cmpint (r->points[0].number, ==, 2);
  g_assert_cmpint (r->points[3].number, ==, 0);
  g_assert_cmpint (r->points[3].math, ==, TL_MATH_BF16);
  /* rung 9 is at 65% of the FP32 peak, but its schedulers are busier: issue-bound */
  g_assert_cmpfloat_with_epsilon (r->points[2].fraction[TL_LIMIT_COMPUTE], 0.655, 0.005);
}

/* The measured L2 roof is a copy's rate, not L2's peak: on an H100 the
 * wgmma rungs moved up to 126% of it.  Past it the words say "measured
 * copy rate", never "126% of L2 bandwidth". */
static void
test_past_l2_roof (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_ptr_array_set_size (record->runs, 0);
  const double flops = 2.0 * 4096 * 4096 * 4096;
  /* 1.6 GB of L2 traffic in 0.185 ms: 8.65 TB/s, 108% of the 8 TB/s copy */
  g_ptr_array_add (record->runs, gpu_run ("gemm-11-wgmma", TL_GPU_COUNTER_TENSOR_BF16_OPS, flops,
                                          2.4e8, 1.6e9, 0.16, 0.185));
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  g_assert_cmpuint (r->n_points, ==, 1);
  g_assert_cmpint (r->points[0].limit, ==, TL_LIMIT_L2);
  g_autofree char *text = tl_roofline_limiter_text (r, &r->points[0]);
  g_assert_cmpstr (text, ==,
                   "L2-bound: L2 traffic at 108% of the measured copy rate, and 69% of the BF16 peak");
}

static void
test_missing (void)
{
  /* no bandwidth: points, but no slanted roofs, and the note says so */
  g_autoptr (TlRunRecord) nobw = h200_record (FALSE);
  g_autoptr (TlRoofline) a = tl_roofline_from_record (nobw);
  g_assert_cmpuint (a->n_points, ==, 5);
  g_assert_true (isnan (a->dram_bytes_per_s));
  g_assert_nonnull (strstr (a->note, "bandwidth"));
  /* a GPU we have no rates for: no flat roofs, said in words */
  nobw->device.cc_major = 7;
  nobw->device.cc_minor = 5;
  g_autoptr (TlRoofline) b = tl_roofline_from_record (nobw);
  g_assert_cmpfloat (b->peak[TL_MATH_FP32], ==, 0);
  g_assert_nonnull (strstr (b->note, "7.5"));
  /* no counters at all: no points, and why */
  for (guint i = 0; i < nobw->runs->len; i++)
    {
      TlKernelRun *run = nobw->runs->pdata[i];
      g_clear_pointer (&run->counters, tl_counters_free);
    }
  nobw->job->counters = FALSE;
  g_autoptr (TlRoofline) c = tl_roofline_from_record (nobw);
  g_assert_cmpuint (c->n_points, ==, 0);
  g_assert_nonnull (strstr (c->note, "--counters"));
}

static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 } };

static void
draw_and_check (const TlRoofline *r, int selected, const TlPaintStyle *style, int w, int h,
                cairo_surface_t **out_surface)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_roofline (cr, r, selected, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  g_autoptr (GString) report = g_string_new (NULL);
  guint problems = tl_paint_text_boxes_check (boxes, w, h, report);
  if (problems > 0)
    g_error ("roofline at %d×%d, scale %.1f, selected %d: %u problems:\n%s", w, h, style->scale,
             selected, problems, report->str);
  /* the roofs are labelled with their numbers and units */
  if (r->peak[TL_MATH_BF16] > 0)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, "BF16 1071 TFLOP/s"));
  if (r->dram_bytes_per_s > 0)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, "DRAM 4.00 TB/s"));
  if (selected >= 0)
    {
      g_autofree char *limit = tl_roofline_limiter_text (r, &r->points[selected]);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, limit));
    }
  if (r->note != NULL)
    g_assert_nonnull (tl_paint_text_boxes_find (boxes, r->note));
  if (out_surface)
    *out_surface = s;
  else
    cairo_surface_destroy (s);
}

static void
test_paint_layout (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int mode = 0; mode < 3; mode++)
      for (int sel = -1; sel < (int) r->n_points; sel++)
        {
          TlPaintStyle style;
          if (mode == 1)
            tl_paint_style_init_presentation (&style, TL_PAINT_PRESENTATION_SCALE, FALSE);
          else
            tl_paint_style_init (&style, 1.0);
          tl_paint_style_set_high_contrast (&style, mode == 2);
          draw_and_check (r, sel, &style, sizes[k][0], sizes[k][1], NULL);
        }
}

/* Every point is drawn in its kernel's colour where the layout puts it,
 * and a click there finds it. */
static void
test_paint_points (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  cairo_surface_t *s = NULL;
  draw_and_check (r, -1, &style, 1280, 800, &s);
  cairo_t *cr = cairo_create (s);
  TlRooflineLayout lay;
  tl_paint_roofline_layout (r, &style, cr, 1280, 800, &lay);
  cairo_destroy (cr);
  for (guint i = 0; i < r->n_points; i++)
    {
      double x, y;
      TlKernelLook look;
      tl_roofline_layout_point (&lay, r->points[i].intensity, r->points[i].flops_per_s, &x, &y);
      tl_kernel_look (r->points[i].kernel_id, &look);
      tl_assert_pixel_near (s, x, y, tl_test_rgb ((int) round (look.rgb[0] * 255),
                                                  (int) round (look.rgb[1] * 255),
                                                  (int) round (look.rgb[2] * 255)), 8);
      g_assert_cmpint (tl_roofline_layout_hit (&lay, r, x + 1, y - 1), ==, (int) i);
    }
  g_assert_cmpint (tl_roofline_layout_hit (&lay, r, lay.plot_x + 2, lay.plot_y + 2), ==, -1);
  cairo_surface_destroy (s);
}

/* Nothing to place: the roofs and the sentence, no crash. */
static void
test_paint_empty (void)
{
  g_autoptr (TlRunRecord) record = h200_record (TRUE);
  for (guint i = 0; i < record->runs->len; i++)
    g_clear_pointer (&((TlKernelRun *) record->runs->pdata[i])->counters, tl_counters_free);
  g_autoptr (TlRoofline) r = tl_roofline_from_record (record);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  draw_and_check (r, -1, &style, 1280, 800, NULL);
  record->has_device = FALSE;
  record->has_bandwidth = FALSE;
  g_autoptr (TlRoofline) bare = tl_roofline_from_record (record);
  draw_and_check (bare, -1, &style, 1024, 768, NULL);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/roofline/rates", test_rates);
  g_test_add_func ("/roofline/model", test_model);
  g_test_add_func ("/roofline/missing", test_missing);
  g_test_add_func ("/roofline/past-l2-roof", test_past_l2_roof);
  g_test_add_func ("/roofline/paint/layout", test_paint_layout);
  g_test_add_func ("/roofline/paint/points", test_paint_points);
  g_test_add_func ("/roofline/paint/empty", test_paint_empty);
  return g_test_run ();
}
