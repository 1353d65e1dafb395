/* test-view-plan.c — a planned rung's plan on C's tiles: the tile grid, the
 * last wave's tiles in launch order, the numbers in words, from plans the
 * cost model chose and from a record read back from JSON. */
#include "view/tl-plan-view.h"

#include <locale.h>
#include <string.h>

/* A run with a plan filled by hand (the record's members). */
static TlKernelRun *
planned_run (int tile_m, int tile_n, int splits, int cluster, int raster, int work, int slots)
{
  TlKernelRun *run = tl_kernel_run_new ("gemm-17-simt-tma", TL_BACKEND_GPU);
  TlGpuGemmPlan *p = &run->plan;
  run->has_plan = TRUE;
  g_snprintf (p->name, sizeof p->name, "%dx%d%s", tile_m, tile_n, splits > 1 ? "/s4" : "");
  p->tile_m = tile_m;
  p->tile_n = tile_n;
  p->splits = splits;
  p->cluster = cluster;
  p->raster = raster;
  p->work = work;
  p->slots = slots;
  p->waves = (work + slots - 1) / slots;
  p->last_wave_fill = (double) (work - (p->waves - 1) * slots) / slots;
  p->idle_sms = 7;
  p->idle_sms_default = 124;
  g_strlcpy (p->why, "Because the test says so.", sizeof p->why);
  return run;
}

/* 64 tiles of 128×128, 40 at a time: the last wave is CTAs 40…63 */
static void
test_last_wave_row_order (void)
{
  g_autoptr (TlKernelRun) run = planned_run (128, 128, 1, 1, 0, 64, 40);
  g_autoptr (TlPlanView) v = tl_plan_view_new (run, 1024, 1024, 1024, 132);
  g_assert_nonnull (v);
  g_assert_cmpuint (v->tiles_m, ==, 8);
  g_assert_cmpuint (v->tiles_n, ==, 8);
  g_assert_cmpuint (v->waves, ==, 2);
  g_assert_cmpuint (v->last_wave_tiles, ==, 24);
  /* row order: tile 40 is row 5, column 0; tile 39 is row 4, column 7 */
  g_assert_true (tl_plan_view_in_last_wave (v, 0, 5));
  g_assert_false (tl_plan_view_in_last_wave (v, 7, 4));
  g_assert_true (tl_plan_view_in_last_wave (v, 7, 7));
  g_assert_false (tl_plan_view_in_last_wave (v, 8, 7)); /* outside C */
  g_assert_nonnull (strstr (v->summary, "8 rows × 8 columns of 128×128 tiles"));
  g_assert_nonnull (strstr (v->summary, "64 CTAs in 2 waves"));
  g_assert_nonnull (strstr (v->summary, "7 of 132 SMs idle"));
  g_assert_nonnull (strstr (v->legend, "24 tiles of the last wave"));
}

/* bands of two tile-rows, each down its rows first: unit 40 is band 2
 * (rows 4–5), 8th of it: row 4, column 4; unit 39 is row 5, column 3 */
static void
test_last_wave_bands (void)
{
  g_autoptr (TlKernelRun) run = planned_run (128, 128, 1, 1, 2, 64, 40);
  g_autoptr (TlPlanView) v = tl_plan_view_new (run, 1024, 1024, 1024, 132);
  g_assert_cmpuint (v->last_wave_tiles, ==, 24);
  g_assert_true (tl_plan_view_in_last_wave (v, 4, 4));
  g_assert_true (tl_plan_view_in_last_wave (v, 4, 5));
  g_assert_false (tl_plan_view_in_last_wave (v, 3, 5));
  g_assert_false (tl_plan_view_in_last_wave (v, 7, 3));
  g_assert_true (tl_plan_view_in_last_wave (v, 0, 6));
}

/* a split of k: each tile is `splits` CTAs of one cluster; 16 tiles × 4
 * = 64 CTAs fit one wave of 132, so every tile is in the last (only) wave */
static void
test_split_one_wave (void)
{
  g_autoptr (TlKernelRun) run = planned_run (128, 128, 4, 4, 0, 64, 132);
  run->plan.k_per_split = 128;
  g_autoptr (TlPlanView) v = tl_plan_view_new (run, 512, 512, 512, 132);
  g_assert_cmpuint (v->waves, ==, 1);
  g_assert_cmpuint (v->last_wave_tiles, ==, 16);
  g_assert_nonnull (strstr (v->summary, "k in 4 slices of 128"));
  g_assert_nonnull (strstr (v->summary, "1 wave ·"));
  g_autofree char *text = tl_plan_view_explain (v, 512, 512, 512);
  g_assert_nonnull (strstr (text, "128x128/s4"));
  g_assert_nonnull (strstr (text, "k into 4 slices of 128"));
  g_assert_nonnull (strstr (text, "Because the test says so."));
}

/* 100 tiles of 128 rows at 10 slots per wave, pairs: 50 units of two
 * tiles stacked along m; the last wave is units 45…49 */
static void
test_pairs (void)
{
  g_autoptr (TlKernelRun) run = planned_run (128, 128, 1, 2, 0, 100, 10);
  g_autoptr (TlPlanView) v = tl_plan_view_new (run, 1280, 64, 1280, 0);
  g_assert_cmpuint (v->waves, ==, 10);
  g_assert_cmpuint (v->last_wave_tiles, ==, 10);
  /* units are 5 rows of pairs × 10 columns: unit 45 = pair-row 4, column 5 */
  g_assert_true (tl_plan_view_in_last_wave (v, 5, 8));
  g_assert_true (tl_plan_view_in_last_wave (v, 5, 9));
  g_assert_false (tl_plan_view_in_last_wave (v, 4, 9));
  g_assert_nonnull (strstr (v->summary, "7 SMs idle in the last")); /* SMs unknown */
}

static void
test_no_plan (void)
{
  g_autoptr (TlKernelRun) run = tl_kernel_run_new ("gemm-08", TL_BACKEND_GPU);
  g_assert_null (tl_plan_view_new (run, 512, 512, 512, 132));
  g_autoptr (TlKernelRun) bad = planned_run (0, 128, 1, 1, 0, 4, 4);
  g_assert_null (tl_plan_view_new (bad, 512, 512, 512, 132));
  g_autoptr (TlKernelRun) ok = planned_run (128, 128, 1, 1, 0, 4, 4);
  g_assert_null (tl_plan_view_new (ok, 0, 512, 512, 132));
}

/* Every plan the cost model offers at an odd shape: the view's grid is the
 * plan's tiles and its last wave holds the CTAs past the full waves. */
static void
test_model_plans (void)
{
  const int m = 1000, k = 777, n = 1111;
  const char *ids[] = { "gemm-13-wgmma-tf32", "gemm-14-wgmma-persistent", "gemm-15-dmma-f64",
                        "gemm-17-simt-tma" };
  guint seen = 0;
  for (guint r = 0; r < G_N_ELEMENTS (ids); r++)
    for (int i = 0; i < tl_gpu_gemm_plan_count (ids[r]); i++)
      {
        seen++;
        g_autoptr (TlKernelRun) run = tl_kernel_run_new (ids[r], TL_BACKEND_GPU);
        if (!tl_gpu_gemm_plan_nth (ids[r], i, m, n, k, NULL, &run->plan))
          continue;
        run->has_plan = TRUE;
        g_autoptr (TlPlanView) v = tl_plan_view_new (run, m, k, n, 132);
        g_assert_nonnull (v);
        g_assert_cmpuint (v->tiles_m * v->tiles_n, ==, run->plan.tiles);
        const guint last_ctas = v->work - (v->waves - 1) * v->slots;
        g_assert_cmpuint (last_ctas, >, 0);
        g_assert_cmpuint (last_ctas, <=, v->slots);
        /* each marked tile holds its CTAs (splits, or one of a pair) */
        const guint per_tile = v->splits > 1 ? v->splits : 1;
        g_assert_cmpuint (v->last_wave_tiles * per_tile, <=, last_ctas);
        g_assert_cmpuint (v->last_wave_tiles * per_tile + v->cluster, >, last_ctas);
      }
  g_assert_cmpuint (seen, >=, 12);
}

/* The plan as a record carries it, read back from JSON. */
static void
test_from_record (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (1000, 777, 1111, TL_DTYPE_FLOAT32);
  g_autoptr (TlRunRecord) rec = tl_run_record_new (job);
  rec->has_device = TRUE;
  rec->device.sm_count = 132;
  TlKernelRun *run = tl_kernel_run_new ("gemm-17-simt-tma", TL_BACKEND_GPU);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 1000, 1111, 777, NULL, NULL, &run->plan), ==,
                   TL_GPU_OK);
  run->has_plan = TRUE;
  const double samples_ms[] = { 0.151, 0.148, 0.150 };
  tl_kernel_run_set_samples (run, samples_ms, G_N_ELEMENTS (samples_ms));
  g_ptr_array_add (rec->runs, run);
  g_autoptr (JsonNode) node = tl_run_record_to_json (rec);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_json (node, &error);
  g_assert_no_error (error);
  const TlKernelRun *r2 = back->runs->pdata[0];
  g_autoptr (TlPlanView) v = tl_plan_view_new_for_record (back, r2);
  g_assert_nonnull (v);
  g_assert_cmpstr (v->name, ==, run->plan.name);
  g_assert_cmpstr (v->why, ==, run->plan.why);
  g_assert_cmpuint (v->sm_count, ==, 132);
  g_assert_cmpuint (v->tiles_m, ==, (1000 + run->plan.tile_m - 1) / run->plan.tile_m);
  g_assert_cmpuint (v->tiles_n, ==, (1111 + run->plan.tile_n - 1) / run->plan.tile_n);
  g_assert_cmpuint (v->idle_sms, ==, run->plan.idle_sms);
  g_assert_nonnull (strstr (v->summary, run->plan.name));
}

/* Before a run: the model's choice for the session's size, said as such;
 * an unplanned rung has none */
static void
test_predict (void)
{
  g_autoptr (TlPlanView) v = tl_plan_view_predict ("gemm-17-simt-tma", 1000, 777, 1111, NULL);
  g_assert_nonnull (v);
  g_assert_true (v->predicted);
  g_assert_cmpuint (v->sm_count, ==, 132);
  TlGpuGemmPlan chosen;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 1000, 1111, 777, NULL, NULL, &chosen), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (v->name, ==, chosen.name);
  g_autofree char *text = tl_plan_view_explain (v, 1000, 777, 1111);
  g_assert_nonnull (strstr (text, "before a run"));
  g_assert_nonnull (strstr (text, chosen.name));
  g_assert_null (tl_plan_view_predict ("gemm-08-vec4", 1000, 777, 1111, NULL));
  g_assert_null (tl_plan_view_predict ("gemm-17-simt-tma", 0, 777, 1111, NULL));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-view/last-wave-row-order", test_last_wave_row_order);
  g_test_add_func ("/plan-view/last-wave-bands", test_last_wave_bands);
  g_test_add_func ("/plan-view/split-one-wave", test_split_one_wave);
  g_test_add_func ("/plan-view/pairs", test_pairs);
  g_test_add_func ("/plan-view/no-plan", test_no_plan);
  g_test_add_func ("/plan-view/model-plans", test_model_plans);
  g_test_add_func ("/plan-view/from-record", test_from_record);
  g_test_add_func ("/plan-view/predict", test_predict);
  return g_test_run ();
}
