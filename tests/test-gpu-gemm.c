/* test-gpu-gemm.c — every GEMM rung and cuBLAS reference against float64.
 *
 * For each shape (m×k×n) and dtype: fresh random A and B (never zeros),
 * then every kernel of the registry that takes the dtype and runs on this
 * GPU, judged by the one rule of gemm/tl-gemm-check.h (per element,
 * |ĉ − c| ≤ tol(k)·(|A|·|B|)ᵢⱼ, tol from the kernel's precision: exact for
 * int32).  C is poisoned with NaN on the host (the harness also poisons it
 * on the device before every launch), so an unwritten element fails; a
 * failure prints the first mismatches.  Each kernel also runs its
 * instrumented variant: one record per block, start ≤ end, a real SM.
 *
 * The shapes are odd on purpose (edges of every tile size) plus a few
 * large ones.  384×264×520 is there for the unguarded fast paths: whole
 * 128-row tiles, k a multiple of 8 (rungs 8, 16) and even but not a
 * multiple of 16 (rung 15's last k-tile is partial), n with a partial last
 * tile.  2300×1000×4348 (k a multiple of 8 as well) is there for rows that
 * are multiples of 4 floats (the TMA path of rung 13), partial tiles, and
 * several tiles for each block of the persistent rungs 13 and 14.
 * 4096×4096×128 is skinny (n = 128 over a long k): too few tiles for the
 * SMs, so the planned rungs split k there (rung 15: 64×64/s2); at
 * 4096×4096×64 rung 15 cuts k in 5, a count that divides neither k's
 * tiles nor the tile's 64 rows evenly (the cluster's sum shares them out
 * 12, 13, 13, 13, 13).
 *
 * 200×700×300 (TMA path) and 150×333×260 (copy path: k odd) give every
 * rung several tiles of C and many k-tiles at a size memcheck and
 * synccheck still take; racecheck needs minutes for them, so they stay
 * out of /gpu/gemm/small.
 *
 * /gpu/gemm/small/ holds the small odd shapes that compute-sanitizer runs
 * (tools/gpu-device-check.sh sanitize):
 *   compute-sanitizer --tool memcheck test-gpu-gemm -p /gpu/gemm/small
 * TL_TEST_KERNELS=id,id… runs only those kernels (e.g. the rungs a
 * sanitizer run is about).  The planned rungs (gpu/tl-gpu-plan.c) run the
 * cost model's plan; TL_TEST_PLANS=all runs each of their plans as well,
 * pinned (every tile, every split of k): the plans a shape never gets by
 * default are checked too.  TL_TEST_PLANS=name,name… (e.g. 64x64/s2) runs
 * only those plans of the planned rungs, pinned, instead of the model's
 * (a sanitizer run of the plans it has not seen); a name that is no plan of
 * any kernel tested fails the test.
 */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"
#include "gemm/tl-gemm-check.h"
#include "gemm/tl-kernels.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const char *group; /* "small": the compute-sanitizer shapes */
  int m, k, n;
} Shape;

static const Shape shapes[] = {
  { "small", 1, 1, 1 },
  { "small", 17, 33, 9 },
  { "small", 67, 45, 33 },
  { "small", 127, 129, 131 },
  { "small", 130, 136, 72 },
  { "", 200, 700, 300 },
  { "", 150, 333, 260 },
  { "", 256, 256, 256 },
  { "", 384, 264, 520 },
  { "", 640, 2048, 1024 },
  { "", 1000, 500, 1000 },
  { "", 2300, 1000, 4348 },
  { "", 4096, 4096, 128 },
  { "", 4096, 4096, 64 },
  { "", 4097, 4095, 4093 },
  { "", 4000, 5000, 3000 },
};

static TlGpuDevice *device;
static TlGpuFacts facts;
static GRand *rng;
static char **only_kernels; /* $TL_TEST_KERNELS, or NULL for all */
static gboolean all_plans;  /* $TL_TEST_PLANS=all: every plan of the planned rungs too */
static char **only_plans;   /* $TL_TEST_PLANS=name,…: only these plans of the planned rungs */

static const char *
dtype_name (TlGpuDtype d)
{
  return tl_dtype_name ((TlDtype) d);
}

static gboolean
runs_here (const TlGpuKernelInfo *info, TlGpuDtype d)
{
  if (only_kernels != NULL && !g_strv_contains ((const char *const *) only_kernels, info->id))
    return FALSE;
  return (info->dtypes & TL_GPU_DTYPE_BIT (d)) && info->min_cc <= facts.cc_major * 10 + facts.cc_minor
         && tl_gpu_kernel_available (info->id);
}

/* Whether `name` is a plan of a kernel this run tests (TL_TEST_PLANS). */
static gboolean
plan_known (const char *name)
{
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    {
      const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
      if (only_kernels != NULL && !g_strv_contains ((const char *const *) only_kernels, info->id))
        continue;
      for (int p = 0; p < tl_gpu_gemm_plan_count (info->id); p++)
        {
          TlGpuGemmPlan plan;
          if (tl_gpu_gemm_plan_nth (info->id, p, 1024, 1024, 1024, &facts, &plan)
              && strcmp (plan.name, name) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

static void
check_records (const TlGpuKernelInfo *info, const Shape *s, const TlGpuGemmResult *r)
{
  const TlGpuLaunchFacts *lf = &r->launch;
  if (!info->instrumentable)
    {
      g_assert_cmpuint (r->n_blocks, ==, 0);
      return;
    }
  g_assert_cmpint (lf->launches, >=, 1);
  g_assert_cmpuint (r->n_blocks, >, 0);
  /* One record per block; or, for a persistent kernel (a few blocks that
   * loop over C's tiles), one per tile of C (and slice of k): every tile
   * exactly once.  A planned rung's tile is its plan's. */
  const int tile_m = r->plan.tile_m > 0 ? r->plan.tile_m : info->tile_m;
  const int tile_n = r->plan.tile_n > 0 ? r->plan.tile_n : info->tile_n;
  const int splits = r->plan.splits > 1 ? r->plan.splits : 1;
  const guint tiles_x = (guint) ((s->n + tile_n - 1) / tile_n);
  const guint tiles_y = (guint) ((s->m + tile_m - 1) / tile_m);
  const size_t grid = (size_t) lf->grid_x * lf->grid_y * lf->grid_z;
  if (lf->launches == 1 && r->n_blocks != grid)
    {
      g_assert_cmpuint (r->n_blocks, ==, (size_t) tiles_x * tiles_y * splits);
      for (size_t i = 0; i < r->n_blocks; i++)
        if (r->blocks[i].block_x >= tiles_x || r->blocks[i].block_y >= tiles_y)
          g_error ("%s %dx%dx%d: record %zu names tile (%u,%u) outside the %u×%u tiles of C",
                   info->id, s->m, s->k, s->n, i, r->blocks[i].block_x, r->blocks[i].block_y,
                   tiles_x, tiles_y);
    }
  g_assert_cmpfloat (r->instrumented_median_ms, >, 0.0);
  /* One record per block: (launch, x, y) all different. */
  GHashTable *seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  gint64 *keys = g_new (gint64, r->n_blocks);
  uint64_t earliest = UINT64_MAX;
  for (size_t i = 0; i < r->n_blocks; i++)
    {
      const TlGpuBlockRecord *b = &r->blocks[i];
      if (!(b->start_ns <= b->end_ns) || !(b->sm < (uint32_t) facts.sm_count)
          || !(b->launch < (uint32_t) MAX (MAX (lf->launches, 3), splits)))
        g_error ("%s %dx%dx%d: block record %zu broken: block (%u,%u) launch %u sm %u, %" G_GUINT64_FORMAT
                 "..%" G_GUINT64_FORMAT " ns",
                 info->id, s->m, s->k, s->n, i, b->block_x, b->block_y, b->launch, b->sm,
                 (guint64) b->start_ns, (guint64) b->end_ns);
      keys[i] = ((gint64) b->launch << 48) | ((gint64) b->block_y << 24) | b->block_x;
      if (g_hash_table_contains (seen, &keys[i]))
        g_error ("%s: two records for block (%u,%u) of launch %u", info->id, b->block_x, b->block_y,
                 b->launch);
      g_hash_table_add (seen, &keys[i]);
      earliest = MIN (earliest, b->start_ns);
    }
  g_assert_cmpuint (earliest, ==, 0); /* normalised to the earliest start */
  g_hash_table_destroy (seen);
  g_free (keys);
}

static void
fail_check (const TlGpuKernelInfo *info, TlGpuDtype d, const Shape *s, const TlGemmCheck *check)
{
  for (guint i = 0; i < check->n_mismatches; i++)
    printf ("#   mismatch at (%zu, %zu): got %.9g, want %.9g, bound %.3g\n",
            check->mismatches[i].row, check->mismatches[i].col, check->mismatches[i].got,
            check->mismatches[i].expected, check->mismatches[i].bound);
  g_autofree char *why = tl_gemm_check_describe (check);
  g_error ("%s %s %dx%dx%d: %s (tolerance %.2e × |A|·|B|)", info->id, dtype_name (d), s->m, s->k,
           s->n, why, check->tolerance);
}

static void
run_one (const TlGpuKernelInfo *info, TlGpuDtype d, const Shape *s, const TlMatrix *a,
         const TlMatrix *b, const TlGemmReference *ref, const char *plan)
{
  g_autoptr (TlMatrix) c = tl_matrix_new ((TlDtype) d, s->m, s->n, NULL);
  TlGpuGemmArgs args = tl_gpu_test_gemm_args (a, b, c);
  args.plan = plan;
  args.repeats = 2;
  args.instrument = 1;
  args.instrument_repeats = 1;
  TlGpuGemmResult r;
  TlGpuStatus st = tl_gpu_gemm_run (device, info->id, &args, &r);
  if (st != TL_GPU_OK)
    g_error ("%s %s %s %dx%dx%d: %s: %s", info->id, plan ? plan : "", dtype_name (d), s->m, s->k,
             s->n, tl_gpu_status_name (st), tl_gpu_last_message ());
  if (plan != NULL)
    g_assert_cmpstr (r.plan.name, ==, plan);
  if (tl_gpu_gemm_plan_count (info->id) > 0)
    {
      g_assert_cmpint (r.plan.tile_m, >, 0);   /* a planned rung always says what it ran */
      /* and its model counted the CTAs per SM the occupancy calculator
       * gives the kernel that ran */
      g_assert_cmpint (r.plan.ctas_per_sm, ==, r.launch.active_blocks_per_sm);
    }
  g_assert_cmpint (r.n_times, ==, 2);
  for (int i = 0; i < r.n_times; i++)
    g_assert_cmpfloat (r.times_ms[i], >, 0.0);

  const char *precision = tl_kernel_precision (tl_kernel_find (info->id), (TlDtype) d);
  TlGemmCheck check;
  if (!tl_gemm_check (ref, c, precision, &check))
    fail_check (info, d, s, &check);
  printf ("# %-20s %-11s %-7s %5dx%5dx%5d  worst err/(|A||B|) %.2e (tolerance %.2e)  rel Frobenius %.2e  "
          "median %.3f ms  instrumented %.3f ms  regs %d  blocks/SM %d\n",
          info->id, r.plan.name, dtype_name (d), s->m, s->k, s->n, check.worst, check.tolerance,
          check.rel_norm,
          r.times_ms[0], r.instrumented_median_ms, r.launch.regs_per_thread,
          r.launch.active_blocks_per_sm);
  check_records (info, s, &r);
  tl_gpu_gemm_result_clear (&r);
}

static void
test_shape (gconstpointer data)
{
  const Shape *s = data;
  const TlGpuDtype dtypes[] = { TL_GPU_INT32, TL_GPU_FLOAT32, TL_GPU_FLOAT64 };
  for (size_t di = 0; di < G_N_ELEMENTS (dtypes); di++)
    {
      const TlGpuDtype d = dtypes[di];
      gboolean any = FALSE;
      for (int i = 0; i < tl_gpu_kernel_count (); i++)
        any |= runs_here (tl_gpu_kernel_info (i), d);
      if (!any)
        continue;
      g_autoptr (TlMatrix) a = tl_gpu_test_random_matrix (rng, (TlDtype) d, s->m, s->k);
      g_autoptr (TlMatrix) b = tl_gpu_test_random_matrix (rng, (TlDtype) d, s->k, s->n);
      g_autoptr (GError) error = NULL;
      g_autoptr (TlGemmReference) ref = tl_gemm_reference_new (a, b, &error);
      g_assert_no_error (error);
      for (int i = 0; i < tl_gpu_kernel_count (); i++)
        {
          const TlGpuKernelInfo *info = tl_gpu_kernel_info (i);
          if (!runs_here (info, d))
            continue;
          const int n_plans = tl_gpu_gemm_plan_count (info->id);
          if (only_plans == NULL || n_plans == 0)
            run_one (info, d, s, a, b, ref, NULL);
          /* TL_TEST_PLANS: every plan of a planned rung, or the ones named, pinned */
          for (int p = 0; (all_plans || only_plans != NULL) && p < n_plans; p++)
            {
              TlGpuGemmPlan plan;
              if (tl_gpu_gemm_plan_nth (info->id, p, s->m, s->n, s->k, &facts, &plan)
                  && (all_plans || g_strv_contains ((const char *const *) only_plans, plan.name)))
                run_one (info, d, s, a, b, ref, plan.name);
            }
        }
    }
}

/* What a cancelled run did: the stages it reported, and when to cancel. */
typedef struct
{
  int cancel_at_run; /* the poll after RUN step n is reported says "cancel" */
  gboolean cancel;
  int warmups, runs, instrumented, downloads;
} CancelWatch;

static void
cancel_progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  CancelWatch *w = user_data;
  switch (stage)
    {
    case TL_GPU_STAGE_WARMUP: w->warmups++; break;
    case TL_GPU_STAGE_RUN:
      if (step < total)
        w->runs++;
      if (step == w->cancel_at_run)
        w->cancel = TRUE;
      break;
    case TL_GPU_STAGE_INSTRUMENTED: w->instrumented++; break;
    case TL_GPU_STAGE_DOWNLOAD: w->downloads++; break;
    case TL_GPU_STAGE_UPLOAD:
    case TL_GPU_STAGE_COUNTERS: break;
    }
}

static int
cancel_poll_cb (void *user_data)
{
  return ((CancelWatch *) user_data)->cancel;
}

/* Cancel stops a run at the next launch: after run 3 of 10 is announced
 * no launch starts — no more timed runs, no instrumented run, no
 * download — and the device serves the next run, which is right. */
static void
test_cancel (void)
{
  const Shape s = { "", 515, 259, 517 };
  g_autoptr (TlMatrix) a = tl_gpu_test_random_matrix (rng, TL_DTYPE_FLOAT32, s.m, s.k);
  g_autoptr (TlMatrix) b = tl_gpu_test_random_matrix (rng, TL_DTYPE_FLOAT32, s.k, s.n);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlGemmReference) ref = tl_gemm_reference_new (a, b, &error);
  g_assert_no_error (error);
  const char *ids[] = { "gemm-01-naive", "gemm-03-smem16", "cublas-fp32" };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const TlGpuKernelInfo *info = tl_gpu_kernel_find (ids[i]);
      if (!runs_here (info, TL_GPU_FLOAT32))
        continue;
      g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_FLOAT32, s.m, s.n, NULL);
      TlGpuGemmArgs args = tl_gpu_test_gemm_args (a, b, c);
      CancelWatch w = { .cancel_at_run = 3 };
      args.repeats = 10;
      args.instrument = 1;
      args.progress = cancel_progress_cb;
      args.cancelled = cancel_poll_cb;
      args.user_data = &w;
      TlGpuGemmResult r;
      g_assert_cmpint (tl_gpu_gemm_run (device, ids[i], &args, &r), ==, TL_GPU_CANCELLED);
      g_assert_cmpint (w.warmups, ==, 2);
      g_assert_cmpint (w.runs, ==, 4); /* run 4 announced, never launched */
      g_assert_cmpint (w.instrumented, ==, 0);
      g_assert_cmpint (w.downloads, ==, 0);
      g_assert_cmpint (r.n_times, ==, 0);
      g_assert_null (r.times_ms);

      args.progress = NULL;
      args.cancelled = NULL;
      args.instrument = 0;
      g_assert_cmpint (tl_gpu_gemm_run (device, ids[i], &args, &r), ==, TL_GPU_OK);
      g_assert_cmpint (r.n_times, ==, 10);
      TlGemmCheck check;
      if (!tl_gemm_check (ref, c, info->precision, &check))
        fail_check (info, TL_GPU_FLOAT32, &s, &check);
      tl_gpu_gemm_result_clear (&r);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  rng = g_rand_new_with_seed (tl_gpu_test_seed ());
  if (g_getenv ("TL_TEST_KERNELS") != NULL)
    {
      only_kernels = g_strsplit (g_getenv ("TL_TEST_KERNELS"), ",", -1);
      printf ("# only the kernels in TL_TEST_KERNELS: %s\n", g_getenv ("TL_TEST_KERNELS"));
    }
  const char *plans = g_getenv ("TL_TEST_PLANS");
  all_plans = g_strcmp0 (plans, "all") == 0;
  if (plans != NULL && *plans != '\0' && !all_plans)
    {
      only_plans = g_strsplit (plans, ",", -1);
      printf ("# only the plans in TL_TEST_PLANS: %s\n", plans);
    }
  if (tl_gpu_device_facts (0, &facts) != TL_GPU_OK || tl_gpu_device_open (0, &device) != TL_GPU_OK)
    g_error ("opening GPU 0: %s", tl_gpu_last_message ());
  printf ("# %s, compute capability %d.%d, %d SMs\n", facts.name, facts.cc_major, facts.cc_minor,
          facts.sm_count);
  for (guint i = 0; only_plans != NULL && only_plans[i] != NULL; i++)
    if (!plan_known (only_plans[i]))
      g_error ("TL_TEST_PLANS names \"%s\", which is no plan of the kernels tested", only_plans[i]);
  for (int i = 0; i < tl_gpu_kernel_count (); i++)
    if (!tl_gpu_kernel_available (tl_gpu_kernel_info (i)->id))
      printf ("# NOTE: %s is in the registry but not built into this Tilelab: not tested\n",
              tl_gpu_kernel_info (i)->id);
  for (size_t i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      char *path = g_strdup_printf ("/gpu/gemm/%s%s%dx%dx%d", shapes[i].group,
                                    *shapes[i].group ? "/" : "", shapes[i].m, shapes[i].k,
                                    shapes[i].n);
      g_test_add_data_func (path, &shapes[i], test_shape);
      g_free (path);
    }
  g_test_add_func ("/gpu/gemm/cancel", test_cancel);
  int ret = g_test_run ();
  tl_gpu_device_close (device);
  g_rand_free (rng);
  g_strfreev (only_kernels);
  g_strfreev (only_plans);
  return ret;
}
