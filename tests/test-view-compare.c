/* test-view-compare.c — the Compare page's models from kernel runs, without
 * drawing: bars against their own yardsticks, failed runs with their reason,
 * an LU job shown as LU, bars coloured by a counter, the size sweep. */
#include <math.h>
#include <string.h>

#include "view/tl-compare-bars.h"
#include "view/tl-colormap.h"
#include "view/tl-compare-counters.h"
#include "view/tl-sweep-sizes.h"
#include "core/tl-error.h"
#include "view-test-util.h"

static TlKernelRun *
timed_run (const char *id, TlBackend backend, double median_ms)
{
  TlKernelRun *r = tl_kernel_run_new (id, backend);
  const double ms[] = { median_ms * 1.1, median_ms, median_ms * 0.9 };
  tl_kernel_run_set_samples (r, ms, G_N_ELEMENTS (ms));
  return r;
}

/* Each bar carries its run's times, its own yardstick's share and label;
 * the baseline is found by the registry's column; a failed run keeps its
 * reason and no time. */
static void
test_bars_from_runs (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (200, 300, 100, TL_DTYPE_FLOAT32);
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  double naive_ms = tl_test_random (50, 90), blocked_ms = tl_test_random (2, 9);
  g_ptr_array_add (runs, timed_run ("cpu-naive", TL_BACKEND_CPU, naive_ms));
  TlKernelRun *blocked = timed_run ("cpu-blocked", TL_BACKEND_CPU, blocked_ms);
  blocked->reference_id = g_strdup ("cpu-openblas");
  blocked->reference = tl_kernel_find ("cpu-openblas");
  blocked->percent_of_reference = tl_test_random (10, 90);
  g_ptr_array_add (runs, blocked);
  TlKernelRun *failed = tl_kernel_run_new ("gemm-03-smem16", TL_BACKEND_GPU);
  g_autoptr (GError) why = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "no device");
  tl_kernel_run_set_error (failed, why);
  g_ptr_array_add (runs, failed);

  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  TlCompareModel model;
  tl_compare_model_init (&model);
  g_autoptr (GArray) bars = tl_compare_model_fill (&model, job, runs, TRUE, strings);
  g_assert_cmpuint (model.n_bars, ==, 3);
  g_assert_cmpint (model.work, ==, TL_COMPARE_WORK_GEMM);
  g_assert_cmpstr (model.title, ==, "C = A·B, 200×300 · 300×100 (float32)");
  g_assert_cmpint (model.baseline_index, ==, 0);

  const TlCompareBar *b = &model.bars[1];
  g_assert_true (tl_compare_bar_is_timed (b));
  g_assert_true (b->cpu);
  g_assert_cmpfloat (b->median_ms, ==, blocked_ms);
  g_assert_cmpfloat_with_epsilon (b->min_ms, blocked_ms * 0.9, 1e-12);
  g_assert_cmpfloat_with_epsilon (b->flops, 2.0 * 200 * 300 * 100, 1e-6);
  g_assert_cmpfloat (b->percent_of_reference, ==, blocked->percent_of_reference);
  g_assert_nonnull (b->reference_label);
  g_autofree char *title = tl_kernel_display_name (tl_kernel_find ("cpu-blocked"), "cpu-blocked");
  g_assert_cmpstr (b->label, ==, title);

  const TlCompareBar *f = &model.bars[2];
  g_assert_false (tl_compare_bar_is_timed (f));
  g_assert_nonnull (strstr (f->failed, "no device"));
  g_assert_true (isnan (tl_compare_bar_value (&model, 2, NULL, NULL)));

  /* by id, the labels are the ids */
  g_autoptr (GPtrArray) more = g_ptr_array_new_with_free_func (g_free);
  gint baseline = -2;
  g_autoptr (GArray) by_id = tl_compare_bars_from_runs (runs, 1e6, FALSE, more, &baseline);
  g_assert_cmpstr (g_array_index (by_id, TlCompareBar, 1).label, ==, "cpu-blocked");
  g_assert_cmpint (baseline, ==, 0);
}

/* Time (shorter is better) and GFLOP/s (longer is better) with whiskers
 * from the fastest and slowest sample. */
static void
test_bar_value (void)
{
  double flops = tl_test_random (1e8, 1e10), median = tl_test_random (1, 20);
  TlCompareBar bar = { .label = "k", .median_ms = median, .min_ms = median * 0.8,
                       .max_ms = median * 1.5, .flops = flops };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = &bar;
  model.n_bars = 1;
  double lo, hi;
  model.metric = TL_COMPARE_TIME;
  g_assert_cmpfloat (tl_compare_bar_value (&model, 0, &lo, &hi), ==, median);
  g_assert_cmpfloat (lo, ==, median * 0.8);
  g_assert_cmpfloat (hi, ==, median * 1.5);
  model.metric = TL_COMPARE_GFLOPS;
  double g = tl_compare_bar_value (&model, 0, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (g, flops / (median * 1e-3) / 1e9, 1e-9 * g);
  g_assert_cmpfloat_with_epsilon (lo, flops / (median * 1.5e-3) / 1e9, 1e-9 * g);
  g_assert_cmpfloat_with_epsilon (hi, flops / (median * 0.8e-3) / 1e9, 1e-9 * g);
}

/* An LU job is rated at the LU flop count and shows its residual. */
static void
test_lu_model (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (96, 96, 96, TL_DTYPE_FLOAT64);
  g_free (job->kind);
  job->kind = g_strdup ("lu");
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  TlKernelRun *r = timed_run ("lu-02-blocked", TL_BACKEND_GPU, tl_test_random (20, 50));
  r->verified = TRUE;
  r->normwise = 0.0372;
  g_ptr_array_add (runs, r);
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  TlCompareModel model;
  tl_compare_model_init (&model);
  g_autoptr (GArray) bars = tl_compare_model_fill (&model, job, runs, FALSE, strings);
  g_assert_cmpint (model.work, ==, TL_COMPARE_WORK_LU);
  g_assert_cmpstr (model.title, ==, "PA = LU, 96×96 (float64)");
  g_assert_cmpfloat_with_epsilon (model.bars[0].flops, 2.0 / 3.0 * 96 * 96 * 96, 1e-6);
  g_assert_cmpfloat (model.bars[0].residual, ==, 0.0372);
  g_assert_cmpint (model.baseline_index, ==, -1);
}

/* Bars take viridis by a counter: the smallest value dark, the largest
 * yellow, a run without counters grey; an unknown key leaves them alone. */
static void
test_color_by_counter (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (64, 64, 64, TL_DTYPE_FLOAT32);
  g_autoptr (TlRunRecord) rec = tl_run_record_new (job);
  const char *ids[] = { "gemm-01-naive", "gemm-02-coalesced", "cpu-naive" };
  double dram[] = { tl_test_random (1e9, 2e9), tl_test_random (1e7, 2e7) };
  for (guint i = 0; i < 3; i++)
    {
      TlKernelRun *r = timed_run (ids[i], i < 2 ? TL_BACKEND_GPU : TL_BACKEND_CPU, 1.0 + i);
      if (i < 2)
        {
          r->counters = tl_counters_new (TL_GPU_COUNTERS_MEASURED, NULL);
          r->counters->value[TL_GPU_COUNTER_DRAM_READ_BYTES] = dram[i];
          r->counters->value[TL_GPU_COUNTER_DRAM_WRITE_BYTES] = 0;
        }
      g_ptr_array_add (rec->runs, r);
    }
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  gint baseline;
  g_autoptr (GArray) bars = tl_compare_bars_from_runs (rec->runs, 1e6, FALSE, strings, &baseline);
  TlCompareBar *b = (TlCompareBar *) bars->data;

  g_assert_null (tl_compare_bars_color_by_counter (b, bars->len, rec, "no-such-view"));
  g_assert_false (b[0].has_rgb);

  g_autofree char *legend = tl_compare_bars_color_by_counter (b, bars->len, rec, "dram_bytes");
  g_assert_nonnull (legend);
  g_assert_nonnull (strstr (legend, "log scale"));
  guint8 dark[3], yellow[3];
  tl_colormap_rgb (TL_COLORMAP_VIRIDIS, 0.0, dark);
  tl_colormap_rgb (TL_COLORMAP_VIRIDIS, 1.0, yellow);
  for (int c = 0; c < 3; c++)
    {
      g_assert_cmpfloat_with_epsilon (b[0].rgb[c], yellow[c] / 255.0, 1e-9);
      g_assert_cmpfloat_with_epsilon (b[1].rgb[c], dark[c] / 255.0, 1e-9);
      g_assert_cmpfloat (b[2].rgb[c], ==, 0.62);
    }
  g_assert_true (b[2].has_rgb);
}

/* The size sweep: one series per kernel and machine (never joined), the
 * LU record left out, points sorted by size, a non-square problem at
 * ∛(m·k·n) with its shape kept for the labels. */
static void
test_sweep_data (void)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_free);
  const gsize shapes[3][3] = { { 512, 512, 512 }, { 256, 256, 256 }, { 1000, 500, 1000 } };
  for (guint machine = 0; machine < 2; machine++)
    for (guint p = 0; p < 3; p++)
      {
        g_autoptr (TlJob) job = tl_job_new_gemm (shapes[p][0], shapes[p][1], shapes[p][2], TL_DTYPE_FLOAT32);
        TlRunRecord *rec = tl_run_record_new (job);
        g_free (rec->machine.cpu_model);
        rec->machine.cpu_model = g_strdup (machine ? "AMD EPYC 9654 96-Core Processor" : "Intel(R) Xeon(R) CPU @ 2.00GHz");
        g_ptr_array_add (rec->runs, timed_run ("cpu-blocked", TL_BACKEND_CPU, tl_test_random (1, 10) * (p + 1)));
        g_ptr_array_add (records, rec);
      }
  g_autoptr (TlJob) lu = tl_job_new_gemm (96, 96, 96, TL_DTYPE_FLOAT64);
  g_free (lu->kind);
  lu->kind = g_strdup ("lu");
  TlRunRecord *lrec = tl_run_record_new (lu);
  g_ptr_array_add (lrec->runs, timed_run ("lu-02-blocked", TL_BACKEND_GPU, 40));
  g_ptr_array_add (records, lrec);

  g_autoptr (TlSweepData) data = tl_sweep_data_new (records, "sweep");
  g_assert_cmpstr (data->model.title, ==, "sweep");
  g_assert_cmpuint (data->model.n_series, ==, 2);
  g_assert_cmpuint (data->model.n_machines, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const TlSweepSeries *se = &data->model.series[i];
      g_assert_cmpstr (se->kernel_id, ==, "cpu-blocked");
      g_assert_cmpuint (se->machine, ==, i);
      g_assert_cmpuint (se->count, ==, 3);
      /* the kernel's name alone; the machine is the legend's key */
      g_assert_null (strstr (se->label, "·"));
      g_assert_nonnull (strstr (data->model.machines[se->machine], i ? "AMD EPYC" : "Intel Xeon"));
      g_assert_cmpfloat (se->n[0], ==, 256);
      g_assert_cmpfloat (se->n[1], ==, 512);
      g_assert_cmpfloat_with_epsilon (se->n[2], cbrt (1000.0 * 500 * 1000), 1e-9);
      g_assert_cmpuint (se->shape[3 * 2 + 1], ==, 500);
      for (guint p = 0; p < se->count; p++)
        g_assert_cmpfloat (se->gflops[p], >, 0);
    }
}

/* % of the vendor: each run's share of its yardstick in the same record;
 * the vendor's own line is 100%, a run without one has no point */
static void
test_sweep_percent (void)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_free);
  const gsize sizes[] = { 256, 512, 1024 };
  double pct[G_N_ELEMENTS (sizes)];
  for (guint p = 0; p < G_N_ELEMENTS (sizes); p++)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (sizes[p], sizes[p], sizes[p], TL_DTYPE_FLOAT32);
      TlRunRecord *rec = tl_run_record_new (job);
      TlKernelRun *vendor = timed_run ("cpu-openblas", TL_BACKEND_CPU, tl_test_random (1, 2));
      TlKernelRun *mine = timed_run ("cpu-blocked", TL_BACKEND_CPU, tl_test_random (2, 8));
      vendor->percent_of_reference = 100.0;
      pct[p] = mine->percent_of_reference = 100.0 * vendor->time.median / mine->time.median;
      g_ptr_array_add (rec->runs, vendor);
      g_ptr_array_add (rec->runs, mine);
      if (p == 1) /* no yardstick in this record: no point */
        g_ptr_array_add (rec->runs, timed_run ("cpu-naive", TL_BACKEND_CPU, 50));
      g_ptr_array_add (records, rec);
    }
  g_autoptr (TlSweepData) data = tl_sweep_data_new_metric (records, "pct", TRUE);
  g_assert_true (data->model.percent);
  g_assert_cmpuint (data->model.n_series, ==, 2);
  for (guint i = 0; i < data->model.n_series; i++)
    {
      const TlSweepSeries *se = &data->model.series[i];
      g_assert_cmpuint (se->count, ==, 3);
      gboolean vendor = g_strcmp0 (se->kernel_id, "cpu-openblas") == 0;
      g_assert_cmpint (se->reference, ==, vendor);
      for (guint p = 0; p < se->count; p++)
        g_assert_cmpfloat_with_epsilon (se->gflops[p], vendor ? 100.0 : pct[p], 1e-9);
    }
  g_autoptr (TlSweepData) gflops = tl_sweep_data_new (records, "gflops");
  g_assert_false (gflops->model.percent);
  g_assert_cmpuint (gflops->model.n_series, ==, 3);
}

/* The sweep's sizes as typed: n or m×k×n, any separator, duplicates once,
 * each wrong item named */
static void
test_sweep_sizes (void)
{
  g_autoptr (GArray) def = tl_sweep_sizes_parse (TL_SWEEP_SIZES_DEFAULT, NULL);
  g_assert_nonnull (def);
  g_assert_cmpuint (def->len, ==, 5);
  const TlSweepSize *odd = &g_array_index (def, TlSweepSize, 2);
  g_assert_cmpuint (odd->m, ==, 1000);
  g_assert_cmpuint (odd->k, ==, 777);
  g_assert_cmpuint (odd->n, ==, 1111);
  g_autofree char *back = tl_sweep_sizes_format (def);
  g_assert_cmpstr (back, ==, TL_SWEEP_SIZES_DEFAULT);

  g_autoptr (GArray) mixed = tl_sweep_sizes_parse (" 64 ,2x3X4, 5*6*7,,64, 2×3×4 ", NULL);
  g_assert_cmpuint (mixed->len, ==, 3);
  g_assert_cmpuint (g_array_index (mixed, TlSweepSize, 0).k, ==, 64);
  g_assert_cmpuint (g_array_index (mixed, TlSweepSize, 1).n, ==, 4);
  g_assert_cmpuint (g_array_index (mixed, TlSweepSize, 2).k, ==, 6);

  const char *bad[] = { "", " , ", "512, abc", "512x512", "0", "512, 99999", "-4", "1x2x3x4" };
  const char *named[] = { "no size", "no size", "“abc”", "“512x512”", "“0”", "“99999”", "“-4”",
                          "“1x2x3x4”" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (tl_sweep_sizes_parse (bad[i], &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, named[i]));
    }
  g_autoptr (GString) many = g_string_new (NULL);
  for (guint i = 1; i <= TL_SWEEP_SIZES_MAX + 1; i++)
    g_string_append_printf (many, "%u,", i);
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_sweep_sizes_parse (many->str, &error));
  g_assert_nonnull (strstr (error->message, "more than"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare-model/bars-from-runs", test_bars_from_runs);
  g_test_add_func ("/compare-model/bar-value", test_bar_value);
  g_test_add_func ("/compare-model/lu", test_lu_model);
  g_test_add_func ("/compare-model/colour-by-counter", test_color_by_counter);
  g_test_add_func ("/compare-model/sweep-data", test_sweep_data);
  g_test_add_func ("/compare-model/sweep-percent", test_sweep_percent);
  g_test_add_func ("/compare-model/sweep-sizes", test_sweep_sizes);
  return g_test_run ();
}
