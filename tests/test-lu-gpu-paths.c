/* test-lu-gpu-paths.c — the shapes that do not fit one launch: lu-05's
 * paths with its cluster capped, lu-06's panel plans and its workers taking
 * several column blocks, each against LAPACK's ratios. */
#include "lu-gpu-test-util.h"

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* lu-05's paths at an odd n, by capping its cluster (TL_LU05_CLUSTER):
 * with 1 CTA a panel of h rows takes one row per thread up to h = 512, two
 * up to 1024, and lu-04's kernel above; with 2 CTAs twice that; uncapped,
 * clusters of 4.  float32 with 16- and 32-column sub-panels, float64 with
 * 32 columns while one row per thread suffices and 16 above.  Fresh
 * matrices (the seed is printed); the solve ratio, O(n²). */
void
test_cluster_paths (void)
{
  const guint32 seed = fresh_seed ();
  const char *caps[] = { "1", "2", "16" };
  const char *widths[] = { "32", "16" };
  const gsize n = 1237;
  g_autoptr (GError) error = NULL;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform:lo=-1,hi=1", dt, n, n, (guint64) seed + dt, &error);
      g_assert_no_error (error);
      for (guint c = 0; c < G_N_ELEMENTS (caps); c++)
        for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
          {
            g_setenv ("TL_LU05_CLUSTER", caps[c], TRUE);
            g_setenv ("TL_LU05_WIDTH", widths[w], TRUE);
            g_autoptr (TlLuResult) r = factor_checked ("lu-05-cluster", a, 0);
            g_assert_cmpuint (r->info, ==, 0);
            double ratio = solve_ratio (a, r, seed);
            if (!(ratio < 30))
              g_error ("lu-05 cluster ≤ %s, width %s, %s seed %u: solve ratio %g", caps[c], widths[w],
                       tl_dtype_name (dt), seed, ratio);
          }
    }
  g_unsetenv ("TL_LU05_CLUSTER");
  g_unsetenv ("TL_LU05_WIDTH");
}

/* The panel width lu-06 factors an m×n matrix with when `forced`
 * (TL_LU06_WIDTH, "" for none) is asked, on a GPU of `sms` SMs: its
 * compiled instances hold float32 16 wide up to 2048 rows and 32 wide up
 * to 1024, float64 8 wide and 16 wide up to 1024 rows, with a worker for
 * every two W-column blocks at least (⌈n/W⌉ ≤ 2·(sms − 1)).  A width that
 * does not fit gives way to the usual one (16 float32, 8 float64); past
 * that, lu-05 factors with its block size, 128. */
static gsize
lu06_width (TlDtype dt, gsize m, gsize n, const char *forced, int sms)
{
  const gsize f32[][2] = { { 16, 2048 }, { 32, 1024 } };
  const gsize f64[][2] = { { 8, 1024 }, { 16, 1024 } };
  const gsize (*t)[2] = dt == TL_DTYPE_FLOAT32 ? f32 : f64;
  const gsize want = *forced ? (gsize) g_ascii_strtoull (forced, NULL, 10) : t[0][0];
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < 2; i++)
      if (t[i][0] == (pass == 0 ? want : t[0][0]) && m <= t[i][1]
          && (n + t[i][0] - 1) / t[i][0] <= 2 * (gsize) (sms - 1))
        return t[i][0];
  return 128;
}

/* lu-06's plans at odd shapes, fresh matrices (the seed is printed): each
 * compiled panel width (TL_LU06_WIDTH), the whole factorisation in one
 * launch or one or two steps a launch (TL_LU06_SEGMENT); one to four rows
 * per thread, and the shapes lu-05 takes over.  Small shapes by LAPACK's
 * ratio, large ones by the solve ratio (O(n²)); every result finite, and
 * the block size reported is the width used. */
void
test_fused_paths (void)
{
  const guint32 seed = fresh_seed ();
  TlGpuFacts facts;
  g_assert_cmpint (tl_gpu_device_facts (0, &facts), ==, TL_GPU_OK);
  const gsize shapes[][2] = { { 333, 333 }, { 777, 777 }, { 1237, 1237 }, { 2048, 2048 }, { 2049, 2049 },
                              { 300, 1000 }, { 1000, 300 }, { 5, 600 }, { 600, 5 }, { 17, 17 } };
  /* width, steps per launch (in columns) */
  const char *configs[][2] = { { "", "1000000" }, { "", "16" }, { "8", "1000000" }, { "16", "1000000" },
                               { "32", "1000000" }, { "32", "40" } };
  g_autoptr (GError) error = NULL;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      {
        const gsize m = shapes[s][0], n = shapes[s][1];
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform:lo=-1,hi=1", dt, m, n, (guint64) seed + 3 * s + dt, &error);
        g_assert_no_error (error);
        for (guint c = 0; c < G_N_ELEMENTS (configs); c++)
          {
            if (m > 1000 && c > 1)
              continue; /* the long runs: the usual plan, in one launch and in many */
            if (*configs[c][0])
              g_setenv ("TL_LU06_WIDTH", configs[c][0], TRUE);
            else
              g_unsetenv ("TL_LU06_WIDTH");
            g_setenv ("TL_LU06_SEGMENT", configs[c][1], TRUE);
            g_autoptr (TlLuResult) r = factor_checked ("lu-06-fused", a, 0);
            g_assert_cmpuint (r->info, ==, 0);
            g_assert_cmpuint (r->block_size, ==, lu06_width (dt, m, n, configs[c][0], facts.sm_count));
            for (gsize i = 0; i < m * n; i++)
              if (!isfinite (tl_matrix_get (r->lu, i / n, i % n)))
                g_error ("lu-06 %zux%zu %s config %u: element %zu not finite", m, n, tl_dtype_name (dt), c, i);
            double ratio = m == n && m > 400 ? solve_ratio (a, r, seed) : factor_ratio (a, r);
            if (!(ratio < 30))
              g_error ("lu-06 %zux%zu %s width “%s” columns/launch %s seed %u: ratio %g", m, n,
                       tl_dtype_name (dt), configs[c][0], configs[c][1], seed, ratio);
          }
      }
  g_unsetenv ("TL_LU06_WIDTH");
  g_unsetenv ("TL_LU06_SEGMENT");
}

/* lu-06 with several column blocks per worker.  TL_LU06_WORKERS caps the
 * workers: at two thirds of the blocks, a third of the workers own two
 * blocks and the rest one, so the workers with two fall steps behind the
 * panel while the owner of the panel just factored is free to swap its
 * rows (the schedule that once gave wrong factors from run to run); at 3,
 * every worker walks a third of the matrix; uncapped, the wide shapes
 * still have more blocks than an H200 has SMs (float64 301×1999: 250
 * blocks, 131 workers).  Some runs one panel a launch (TL_LU06_SEGMENT),
 * so the flags carry over between launches.  Odd shapes, fresh matrices
 * (the seed is printed), each capped plan three times; the factors'
 * ratios in float64: LAPACK's ‖PA − LU‖₁ / (n‖A‖₁ε), the solve ratio for
 * the large square ones. */
void
test_fused_workers (void)
{
  const guint32 seed = fresh_seed ();
  TlGpuFacts facts;
  g_assert_cmpint (tl_gpu_device_facts (0, &facts), ==, TL_GPU_OK);
  const gsize shapes[][2] = { { 1001, 1001 }, { 1237, 1237 }, { 517, 517 }, { 301, 1999 } };
  /* the workers (0: uncapped, 1: two thirds of the blocks, 3), columns per launch */
  const struct
  {
    int cap;
    const char *segment;
  } configs[] = { { 0, "1000000" }, { 1, "1000000" }, { 3, "1000000" }, { 1, "1" } };
  g_autoptr (GError) error = NULL;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      {
        const gsize m = shapes[s][0], n = shapes[s][1], width = lu06_width (dt, m, n, "", facts.sm_count);
        if (width == 128)
          continue; /* more rows than lu-06 holds in this dtype (float64 1237): lu-05's */
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform:lo=-1,hi=1", dt, m, n, (guint64) seed + 5 * s + dt, &error);
        g_assert_no_error (error);
        const gsize blocks = (n + width - 1) / width;
        for (guint c = 0; c < G_N_ELEMENTS (configs); c++)
          {
            const gsize workers = configs[c].cap == 0 ? 0 : configs[c].cap == 1 ? (2 * blocks + 2) / 3 : 3;
            g_autofree char *cap = g_strdup_printf ("%zu", workers);
            if (workers > 0)
              g_setenv ("TL_LU06_WORKERS", cap, TRUE);
            else
              g_unsetenv ("TL_LU06_WORKERS");
            g_setenv ("TL_LU06_SEGMENT", configs[c].segment, TRUE);
            for (guint run = 0; run < (workers > 0 ? 3u : 1u); run++)
              {
                g_autoptr (TlLuResult) r = factor_checked ("lu-06-fused", a, 0);
                g_assert_cmpuint (r->info, ==, 0);
                g_assert_cmpuint (r->block_size, ==, width);
                double ratio = m == n && m > 600 ? solve_ratio (a, r, seed) : factor_ratio (a, r);
                if (!(ratio < 30))
                  g_error ("lu-06 %zux%zu %s, %zu blocks, workers ≤ %s, columns/launch %s, run %u, seed %u: "
                           "ratio %g",
                           m, n, tl_dtype_name (dt), blocks, workers > 0 ? cap : "SMs − 1", configs[c].segment,
                           run, seed, ratio);
              }
          }
      }
  g_unsetenv ("TL_LU06_WORKERS");
  g_unsetenv ("TL_LU06_SEGMENT");
}
