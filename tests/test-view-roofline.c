/* test-view-roofline.c — the roofline model: peaks from the device's facts,
 * one point per counted run, limiters in words, what is missing said. */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "view/tl-roofline.h"
#include "roofline-test-util.h"

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

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/roofline/rates", test_rates);
  g_test_add_func ("/roofline/model", test_model);
  g_test_add_func ("/roofline/missing", test_missing);
  g_test_add_func ("/roofline/past-l2-roof", test_past_l2_roof);
  return g_test_run ();
}
