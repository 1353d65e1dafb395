/* test-lu-gpu.c — the GPU rungs of the Gauss ladder against LAPACK's
 * ratio ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30, through tl_lu_factor; LAPACK's info
 * on singular matrices; the shapes that do not fit one launch; recording;
 * the GPU solve against cuSOLVER's getrs.
 * Exits 77 (skip) without a CUDA device. */
#include "lu/tl-gfp.h"
#include "lu/tl-gfp-gpu.h"
#include "lu/tl-lu.h"
#include "lu/tl-lu-recorder.h"
#include "lu/tl-solve.h"
#include "lu/tl-rank.h"
#include "gen/tl-generate.h"
#include "core/tl-error.h"
#include "lu-test-util.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double
factor_ratio (const TlMatrix *a, const TlLuResult *r)
{
  g_autoptr (TlMatrix) pa = tl_matrix_convert (a, TL_DTYPE_FLOAT64, NULL);
  tl_lu_apply_pivots (pa, r->ipiv, r->n_ipiv, FALSE);
  g_autoptr (TlMatrix) lu = tl_lu_reconstruct (r, NULL);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      tl_matrix_set (pa, i, j, tl_matrix_get (pa, i, j) - tl_matrix_get (lu, i, j));
  double an = tl_matrix_norm (a, TL_NORM_ONE);
  if (an == 0 || a->cols == 0)
    return 0;
  double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  return tl_matrix_norm (pa, TL_NORM_ONE) / a->cols / an / eps;
}

static const char *gpu_kernels[] = { "lu-01-percolumn", "lu-02-blocked", "lu-03-tuned", "lu-04-persistent",
                                     "lu-05-cluster", "lu-06-fused", "lu-cusolver" };

static gboolean
is_blocked (const char *kernel)
{
  return tl_lu_kernel_find (kernel)->blocked;
}

/* LAPACK's backward error of a solve through the factors, O(n²):
 * ‖b − A·x̂‖∞ / (‖A‖∞ ‖x̂‖∞ n ε) for b = A·x, x random — for sizes where
 * ‖PA − LU‖ (O(n³) on the CPU) would take minutes. */
static double
solve_ratio (const TlMatrix *a, const TlLuResult *r, guint32 seed)
{
  const gsize n = a->rows;
  g_autofree double *x = g_new (double, n), *b = g_new (double, n), *y = g_new (double, n);
  g_autofree double *row = g_new (double, n);
  GRand *rng = g_rand_new_with_seed (seed);
  for (gsize i = 0; i < n; i++)
    x[i] = g_rand_double_range (rng, -1, 1);
  g_rand_free (rng);
  double anorm = 0;
  for (gsize i = 0; i < n; i++)
    {
      double s = 0, rs = 0;
      for (gsize j = 0; j < n; j++)
        {
          double v = tl_matrix_get (a, i, j);
          s += v * x[j];
          rs += fabs (v);
        }
      b[i] = s;
      anorm = fmax (anorm, rs);
    }
  memcpy (y, b, n * sizeof (double));
  for (gsize k = 0; k < r->n_ipiv; k++)
    {
      double t = y[k];
      y[k] = y[r->ipiv[k]];
      y[r->ipiv[k]] = t;
    }
  for (gsize i = 0; i < n; i++)
    {
      for (gsize j = 0; j < n; j++)
        row[j] = tl_matrix_get (r->lu, i, j);
      for (gsize j = 0; j < i; j++)
        y[i] -= row[j] * y[j];
    }
  for (gsize i = n; i-- > 0;)
    {
      for (gsize j = i; j < n; j++)
        row[j] = tl_matrix_get (r->lu, i, j);
      for (gsize j = i + 1; j < n; j++)
        y[i] -= row[j] * y[j];
      y[i] /= row[i];
    }
  double rn = 0, xn = 0;
  for (gsize i = 0; i < n; i++)
    {
      double s = b[i];
      for (gsize j = 0; j < n; j++)
        s -= tl_matrix_get (a, i, j) * y[j];
      rn = fmax (rn, fabs (s));
      xn = fmax (xn, fabs (y[i]));
    }
  double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  return rn / (anorm * xn * (double) n * eps);
}

/* A seed for fresh random matrices: TL_TEST_SEED, else the clock; printed
 * so that a failure can be replayed. */
static guint32
fresh_seed (void)
{
  const char *env = g_getenv ("TL_TEST_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) : (guint32) g_get_real_time ();
  printf ("# random seed %u (set TL_TEST_SEED to replay)\n", seed);
  return seed;
}

/* ipiv is poisoned (−1) before every run: each entry written, k ≤ ipiv[k] < m */
static void
assert_ipiv_valid (const TlLuResult *r, gsize m, const char *kernel)
{
  for (gsize k = 0; k < r->n_ipiv; k++)
    if (r->ipiv[k] < (gint32) k || (gsize) r->ipiv[k] >= m)
      g_error ("%s: ipiv[%zu] = %d outside %zu…%zu", kernel, k, r->ipiv[k], k, m - 1);
}

/* A factorisation that must succeed, with every ipiv entry written. */
static TlLuResult *
factor_checked (const char *kernel, const TlMatrix *a, gsize block)
{
  g_autoptr (GError) error = NULL;
  TlLuResult *r = NULL;
  if (!tl_lu_factor (kernel, a, block, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error))
    g_error ("%s b=%zu %zux%zu %s: %s", kernel, block, a->rows, a->cols, tl_dtype_name (a->dtype),
             error->message);
  assert_ipiv_valid (r, a->rows, kernel);
  return r;
}

static void
test_ratios (void)
{
  const gsize shapes[][2] = { { 1, 1 }, { 2, 2 }, { 3, 3 }, { 5, 5 }, { 10, 10 }, { 50, 50 },
                              { 127, 127 }, { 300, 300 }, { 517, 517 }, { 200, 70 }, { 70, 200 } };
  const gsize blocks[] = { 0, 3, 20 };
  g_autoptr (GError) error = NULL;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      {
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, shapes[s][0], shapes[s][1], 31 + s, &error);
        for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
          for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
            {
              if (b > 0 && !is_blocked (gpu_kernels[k]))
                continue;
              g_autoptr (TlLuResult) r = factor_checked (gpu_kernels[k], a, blocks[b]);
              double ratio = factor_ratio (a, r);
              if (!(ratio < 30))
                g_error ("%s b=%zu %zux%zu %s: ratio %g", gpu_kernels[k], blocks[b], shapes[s][0],
                         shapes[s][1], tl_dtype_name (dt), ratio);
              g_assert_cmpuint (r->info, ==, 0);
              /* the same pivots as the CPU's partial pivoting where no ties are near */
              g_autoptr (TlLuResult) ref = NULL;
              g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &ref, &error));
              if (dt == TL_DTYPE_FLOAT64 && shapes[s][0] <= 50)
                for (gsize i = 0; i < r->n_ipiv; i++)
                  g_assert_cmpint (r->ipiv[i], ==, ref->ipiv[i]);
            }
      }
}

static void
test_singular_and_no_pivoting (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) z = tl_generate ("singular-zero-column:col=37", TL_DTYPE_FLOAT64, 90, 90, 4, &error);
  for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
    {
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor (gpu_kernels[k], z, 16, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
      g_assert_cmpuint (r->info, ==, 38);
      g_assert_cmpfloat (r->det, ==, 0.0);
      g_assert_cmpfloat (factor_ratio (z, r), <, 30);
    }
  g_autoptr (TlMatrix) dd = tl_generate ("diagonally-dominant", TL_DTYPE_FLOAT32, 64, 64, 5, &error);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-01-percolumn", dd, 0, TL_PIVOTING_NONE, NULL, NULL, &r, &error));
  g_assert_cmpuint (r->n_swaps, ==, 0);
  g_assert_cmpfloat (factor_ratio (dd, r), <, 30);
  g_autoptr (TlLuResult) r2 = NULL;
  g_assert_false (tl_lu_factor ("lu-03-tuned", dd, 0, TL_PIVOTING_NONE, NULL, NULL, &r2, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}


/* Singular at step k, at and around the block edges: LAPACK's info (the
 * first exactly zero pivot) for a zero column and for a zero row. */
static void
test_singular_steps (void)
{
  g_autoptr (GError) error = NULL;
  const gsize n = 300;
  const int cols[] = { 0, 1, 15, 16, 17, 19, 20, 21, 31, 32, 33, 127, 128, 129, 255, 256, 299 };
  const gsize blocks[] = { 0, 20 };
  for (guint ci = 0; ci < G_N_ELEMENTS (cols) + 1; ci++)
    {
      g_autoptr (TlMatrix) a = NULL;
      if (ci < G_N_ELEMENTS (cols))
        {
          g_autofree char *spec = g_strdup_printf ("singular-zero-column:col=%d", cols[ci]);
          a = tl_generate (spec, TL_DTYPE_FLOAT64, n, n, 200 + ci, &error);
        }
      else
        {
          /* a zero row: never a pivot until nothing else is left */
          a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, n, n, 250, &error);
          for (gsize j = 0; j < n; j++)
            tl_matrix_set (a, 77, j, 0.0);
        }
      g_assert_no_error (error);
      g_autoptr (TlLuResult) ref = NULL;
      g_assert_true (tl_lu_factor ("lu-lapack", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &ref, &error));
      g_assert_cmpuint (ref->info, >, 0);
      for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
        for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
          {
            if (b > 0 && !is_blocked (gpu_kernels[k]))
              continue;
            g_autoptr (TlLuResult) r = factor_checked (gpu_kernels[k], a, blocks[b]);
            if (r->info != ref->info)
              g_error ("%s b=%zu case %u: info %zu, LAPACK %zu", gpu_kernels[k], blocks[b], ci, r->info,
                       ref->info);
            g_assert_cmpfloat (r->det, ==, 0.0);
            double ratio = factor_ratio (a, r);
            if (!(ratio < 30))
              g_error ("%s b=%zu case %u: ratio %g", gpu_kernels[k], blocks[b], ci, ratio);
          }
    }
}

/* NaN in the input: tl_lu_factor names the entry, for every GPU rung; the
 * door itself runs such a matrix to the end (no crash, no hang). */
static void
test_nan (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 150, 150, 9, &error);
  tl_matrix_set (a, 5, 7, NAN);
  TlGpuDevice *dev = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &dev), ==, TL_GPU_OK);
  for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
    {
      g_autoptr (TlLuResult) r = NULL;
      g_autoptr (GError) e = NULL;
      g_assert_false (tl_lu_factor (gpu_kernels[k], a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &e));
      g_assert_error (e, TL_ERROR, TL_ERROR_INVALID);
      g_assert_nonnull (strstr (e->message, "row 6, column 8"));

      g_autoptr (TlMatrix) work = tl_matrix_copy (a, &error);
      g_autofree int *ipiv = g_new0 (int, 150);
      TlGpuLuArgs args = { 0 };
      args.dtype = TL_GPU_FLOAT32;
      args.m = args.n = 150;
      args.a = work->data;
      args.ipiv = ipiv;
      args.pivoting = 1;
      args.repeats = 1;
      TlGpuLuResult res = { 0 };
      TlGpuStatus st = tl_gpu_lu_run (dev, gpu_kernels[k], &args, &res);
      if (st != TL_GPU_OK)
        g_error ("%s on NaN: %s (%s)", gpu_kernels[k], tl_gpu_status_name (st), tl_gpu_last_message ());
      tl_gpu_lu_result_clear (&res);
    }
  tl_gpu_device_close (dev);
}

/* n = 16385 = 128·128 + 1: the last panel is one column wide, and the
 * panels are taller than any launch of the small tests. */
static void
test_large (void)
{
  g_autoptr (GError) error = NULL;
  const gsize n = 16385;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, n, n, 16385, &error);
  g_assert_no_error (error);
  const char *kernels[] = { "lu-04-persistent", "lu-05-cluster", "lu-cusolver" };
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autoptr (TlLuResult) r = factor_checked (kernels[k], a, 0);
      g_assert_cmpuint (r->info, ==, 0);
      double ratio = solve_ratio (a, r, 5);
      printf ("# %s n=%zu float32: %.3f s, solve ratio %.3g\n", kernels[k], n, r->elapsed_s, ratio);
      if (!(ratio < 30))
        g_error ("%s n=%zu: solve ratio %g", kernels[k], n, ratio);
    }
}

/* lu-05's paths at an odd n, by capping its cluster (TL_LU05_CLUSTER):
 * with 1 CTA a panel of h rows takes one row per thread up to h = 512, two
 * up to 1024, and lu-04's kernel above; with 2 CTAs twice that; uncapped,
 * clusters of 4.  float32 with 16- and 32-column sub-panels, float64 with
 * 32 columns while one row per thread suffices and 16 above.  Fresh
 * matrices (the seed is printed); the solve ratio, O(n²). */
static void
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
static void
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
static void
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

/* Near-singular systems factor to finite results within LAPACK's ratio
 * (κ = 1e14 float64, 1e6 float32); a column that becomes zero only after
 * elimination (col 40 = col 3 + col 17) gives a tiny, finite pivot or an
 * exact zero that info reports — never NaN in the factors. */
static void
test_near_singular (void)
{
  g_autoptr (GError) error = NULL;
  const char *kernels[] = { "lu-05-cluster", "lu-06-fused", "lu-cusolver" };
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    {
      const char *spec = dt == TL_DTYPE_FLOAT64 ? "condition:kappa=1e14" : "condition:kappa=1e6";
      g_autoptr (TlMatrix) a = tl_generate (spec, dt, 517, 517, 21, &error);
      g_assert_no_error (error);
      g_autoptr (TlMatrix) dep = tl_generate ("random-uniform", dt, 203, 203, 22, &error);
      for (gsize i = 0; i < 203; i++)
        tl_matrix_set (dep, i, 40, tl_matrix_get (dep, i, 3) + tl_matrix_get (dep, i, 17));
      for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
        {
          const TlMatrix *cases[] = { a, dep };
          for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
            {
              g_autoptr (TlLuResult) r = factor_checked (kernels[k], cases[c], 0);
              for (gsize i = 0; i < cases[c]->rows * cases[c]->cols; i++)
                if (!isfinite (tl_matrix_get (r->lu, i / cases[c]->cols, i % cases[c]->cols)))
                  g_error ("%s near-singular case %u %s: element %zu not finite", kernels[k], c,
                           tl_dtype_name (dt), i);
              double ratio = factor_ratio (cases[c], r);
              if (!(ratio < 30))
                g_error ("%s near-singular case %u %s: ratio %g", kernels[k], c, tl_dtype_name (dt), ratio);
              if (r->info > 0)
                g_assert_cmpfloat (r->det, ==, 0.0);
            }
        }
    }
}

/* Fresh random matrices every run (the seed is printed): the fused rungs at
 * odd shapes and block sizes. */
static void
test_fresh (void)
{
  const guint32 seed = fresh_seed ();
  const gsize shapes[][2] = { { 333, 333 }, { 601, 601 }, { 257, 513 }, { 513, 257 }, { 129, 129 } };
  const gsize blocks[] = { 0, 64, 96 };
  const char *kernels[] = { "lu-03-tuned", "lu-04-persistent", "lu-05-cluster", "lu-06-fused" };
  g_autoptr (GError) error = NULL;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
      {
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform:lo=-1,hi=1", dt, shapes[s][0], shapes[s][1],
                                              (guint64) seed + 17 * s + dt, &error);
        g_assert_no_error (error);
        for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
          for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
            {
              g_autoptr (TlLuResult) r = factor_checked (kernels[k], a, blocks[b]);
              g_assert_cmpuint (r->info, ==, 0);
              double ratio = factor_ratio (a, r);
              if (!(ratio < 30))
                g_error ("%s b=%zu %zux%zu %s seed %u: ratio %g", kernels[k], blocks[b], shapes[s][0],
                         shapes[s][1], tl_dtype_name (dt), seed, ratio);
            }
      }
}

/* getrs on the GPU: ‖B − AX‖₁ / (‖A‖₁ ‖X‖₁ ε) < 30 per column (xGET02) */
static void
test_solve (void)
{
  g_autoptr (GError) error = NULL;
  const gsize sizes[] = { 1, 17, 300 };
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
      {
        gsize n = sizes[si];
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n, n, 70 + si, &error);
        g_autoptr (TlMatrix) b = tl_generate ("random-uniform:lo=0.5,hi=2", dt, n, 7, 80 + si, &error);
        for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
          {
            g_autoptr (TlLuResult) r = NULL;
            g_assert_true (tl_lu_factor (gpu_kernels[k], a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
            g_autoptr (TlMatrix) x = tl_lu_solve (r, b, &error);
            g_assert_no_error (error);
            double ratio = lu_test_solve_ratio (a, x, b);
            if (!(ratio < 30))
              g_error ("%s n=%zu %s: solve ratio %g", gpu_kernels[k], n, tl_dtype_name (dt), ratio);
          }
      }
}


/* Tilelab's GPU solve and cuSOLVER's getrs from the same factors and many
 * right-hand sides: both pass xGET02 and agree; a bad ipiv is refused. */
static void
test_solve_bench (void)
{
  g_autoptr (GError) error = NULL;
  const gsize n = 300;
  TlGpuDevice *dev = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &dev), ==, TL_GPU_OK);
  const char *factors[] = { "lu-04-persistent", "lu-05-cluster" };
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (gsize k = 1; k <= 33; k += 32) /* one right-hand side (TRSV) and many (TRSM) */
      for (guint f = 0; f < G_N_ELEMENTS (factors); f++)
        {
          g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n, n, 71, &error);
          g_autoptr (TlMatrix) b = tl_generate ("random-uniform:lo=-1,hi=1", dt, n, k, 72, &error);
          g_autoptr (TlLuResult) r = factor_checked (factors[f], a, 0);
          const char *solvers[] = { "lu-solve", "cusolver-getrs" };
          g_autoptr (TlMatrix) ours = tl_matrix_copy (b, &error);
          g_autoptr (TlMatrix) theirs = tl_matrix_copy (b, &error);
          TlMatrix *xs[2] = { ours, theirs };
          for (guint s = 0; s < 2; s++)
            {
              TlGpuLuSolveArgs args = { (TlGpuDtype) dt, (int) n, (int) k, r->lu->data, r->ipiv, xs[s]->data };
              double times[3];
              TlGpuStatus st = tl_gpu_lu_solve_bench (dev, solvers[s], &args, 1, 3, times);
              if (st != TL_GPU_OK)
                g_error ("%s: %s (%s)", solvers[s], tl_gpu_status_name (st), tl_gpu_last_message ());
              for (int t = 0; t < 3; t++)
                g_assert_cmpfloat (times[t], >, 0);
              double ratio = lu_test_solve_ratio (a, xs[s], b);
              if (!(ratio < 30))
                g_error ("%s %s: solve ratio %g", solvers[s], tl_dtype_name (dt), ratio);
            }
          double tol = (dt == TL_DTYPE_FLOAT32 ? 1e-3 : 1e-10) * fmax (1.0, tl_matrix_norm (xs[1], TL_NORM_MAX));
          for (gsize i = 0; i < n; i++)
            for (gsize c = 0; c < k; c++)
              g_assert_cmpfloat (fabs (tl_matrix_get (xs[0], i, c) - tl_matrix_get (xs[1], i, c)), <=, tol);

          g_autofree int *bad = g_memdup2 (r->ipiv, sizeof (int) * n);
          bad[10] = 3; /* below its own step: not a LAPACK ipiv */
          g_autoptr (TlMatrix) x = tl_matrix_copy (b, &error);
          TlGpuLuSolveArgs args = { (TlGpuDtype) dt, (int) n, (int) k, r->lu->data, bad, x->data };
          double ms = 0;
          g_assert_cmpint (tl_gpu_lu_solve (dev, &args, &ms), ==, TL_GPU_BAD_SHAPE);
          g_assert_nonnull (strstr (tl_gpu_last_message (), "ipiv[10]"));
        }
  tl_gpu_device_close (dev);
}

/* the exact mode on the GPU gives the CPU's results bit for bit */
static void
test_gfp (void)
{
  g_autoptr (GError) error = NULL;
  const gsize shapes[][2] = { { 1, 1 }, { 7, 7 }, { 64, 64 }, { 300, 300 }, { 40, 90 }, { 90, 40 } };
  const guint32 primes[] = { 2147483647u, 1000003u, 101u };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint pi = 0; pi < G_N_ELEMENTS (primes); pi++)
      {
        g_autoptr (TlMatrix) ai = tl_generate ("random-int:lo=-9,hi=9", TL_DTYPE_INT32, shapes[s][0],
                                               shapes[s][1], 60 + s, &error);
        if (s == 3)
          for (gsize i = 0; i < shapes[s][0]; i++)
            tl_matrix_set (ai, i, 17, 0.0); /* a zero column */
        g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (ai, primes[pi], &error);
        g_assert_no_error (error);
        g_autoptr (TlGfpLu) cpu = tl_gfp_lu (g, NULL, NULL, &error);
        g_autoptr (TlGfpLu) gpu = tl_gfp_lu_gpu (g, 0, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (gpu->info, ==, cpu->info);
        g_assert_cmpuint (gpu->det, ==, cpu->det);
        g_assert_cmpmem (gpu->ipiv, sizeof (gint32) * gpu->n_ipiv, cpu->ipiv, sizeof (gint32) * cpu->n_ipiv);
        g_assert_cmpmem (gpu->lu->data, sizeof (guint32) * g->rows * g->cols, cpu->lu->data,
                         sizeof (guint32) * g->rows * g->cols);
      }
}

/* ---- recording on the GPU (a separate untimed run of lu-01 / lu-02) ---- */

static void
assert_vectors_close (const TlLuVector *g, const TlLuVector *c, double tol, const char *what, guint k)
{
  if (g->len != c->len || g->pool != c->pool)
    g_error ("step %u %s: %u×%u entries on the GPU, %u×%u on the CPU", k, what, g->len, g->pool,
             c->len, c->pool);
  for (guint t = 0; t < g->len; t++)
    if (!(fabs (g->data[t] - c->data[t]) <= tol))
      g_error ("step %u %s[%u]: GPU %.17g, CPU %.17g", k, what, t, g->data[t], c->data[t]);
}

/* The recording agrees with the factorisation it came from: one step per
 * column whose pivot is ipiv[k], the last snapshot is the final L\U
 * (pooled like the recorder pools above 512), and the block steps' phase
 * times sum to at most the run they were measured in. */
static void
check_recording (const TlLuRecorder *rec, const TlLuResult *r, const TlMatrix *a)
{
  const guint mn = (guint) MIN (a->rows, a->cols);
  g_assert_true (rec->finished);
  g_assert_cmpuint (rec->steps->len, ==, mn);
  g_assert_cmpuint (rec->n_ipiv, ==, mn);
  g_assert_cmpmem (rec->ipiv, sizeof (gint32) * mn, r->ipiv, sizeof (gint32) * mn);
  double amax = r->max_abs_a;
  for (guint k = 0; k < mn; k++)
    {
      const TlLuStep *s = &g_array_index (rec->steps, TlLuStep, k);
      g_assert_cmpuint (s->k, ==, k);
      g_assert_cmpint (s->pivot_row, ==, r->ipiv[k]);
      g_assert_cmpint (s->swapped, ==, r->ipiv[k] != (gint32) k);
      /* the pivot is U(k,k) of the result, and the largest of the column searched */
      double ukk = tl_matrix_get (r->lu, k, k);
      g_assert_cmpfloat (fabs (s->pivot_value - ukk), <=, 1e-5 * fmax (fabs (ukk), 1e-30));
      g_assert_cmpuint (s->column.len, >, 0);
      double cmax = 0;
      for (guint t = 0; t < s->column.len; t++)
        cmax = fmax (cmax, s->column.data[t]);
      g_assert_cmpfloat (fabs (cmax - fabs (s->pivot_value)), <=, 1e-5 * fmax (cmax, 1e-30));
      g_assert_cmpuint (s->u_row.len, ==, (a->cols - k + s->u_row.pool - 1) / s->u_row.pool);
    }
  /* the last snapshot is the final L\U */
  g_assert_cmpuint (rec->snapshots->len, >=, 2);
  const TlLuSnapshot *last = &g_array_index (rec->snapshots, TlLuSnapshot, rec->snapshots->len - 1);
  g_assert_cmpuint (last->after_steps, ==, mn);
  g_autofree double *pooled = g_new0 (double, (gsize) last->rows * last->cols);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (r->lu, i, j);
        double *cell = &pooled[(i / last->pool_r) * last->cols + j / last->pool_c];
        if (fabs (x) > fabs (*cell))
          *cell = x;
      }
  double tol = (a->dtype == TL_DTYPE_FLOAT32 ? 1e-5 : 1e-12) * fmax (amax * r->growth, 1.0);
  for (gsize c = 0; c < (gsize) last->rows * last->cols; c++)
    g_assert_cmpfloat (fabs (last->data[c] - pooled[c]), <=, tol);
  /* the first is the input */
  const TlLuSnapshot *first = &g_array_index (rec->snapshots, TlLuSnapshot, 0);
  g_assert_cmpuint (first->after_steps, ==, 0);
  if (first->pool_r == 1 && first->pool_c == 1)
    for (gsize i = 0; i < a->rows; i++)
      for (gsize j = 0; j < a->cols; j++)
        g_assert_cmpfloat (first->data[i * first->cols + j], ==, tl_matrix_get (a, i, j));

  if (r->block_size == 0)
    {
      g_assert_cmpuint (rec->blocks->len, ==, 0);
      return;
    }
  guint nblocks = (mn + (guint) r->block_size - 1) / (guint) r->block_size;
  g_assert_cmpuint (rec->blocks->len, ==, nblocks);
  gint64 sum[TL_LU_N_PHASES] = { 0 }, total = 0;
  for (guint b = 0; b < nblocks; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      g_assert_cmpuint (bs->index, ==, b);
      g_assert_cmpuint (bs->k0, ==, b * r->block_size);
      g_assert_cmpuint (bs->k0 + bs->kb, ==, MIN (mn, (b + 1) * r->block_size));
      g_assert_cmpuint (bs->upd_row0, ==, bs->k0 + bs->kb);
      g_assert_cmpuint (bs->upd_rows, ==, a->rows - bs->upd_row0);
      for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
        {
          g_assert_cmpint (bs->phase_ns[ph], >=, 0);
          sum[ph] += bs->phase_ns[ph];
          total += bs->phase_ns[ph];
        }
      /* every block step has a panel to factor: measured, not left at 0 */
      g_assert_cmpint (bs->phase_ns[TL_LU_PHASE_PANEL], >, 0);
    }
  /* the per-block split adds up to the result's split (ns rounding per block) … */
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    g_assert_cmpint (ABS (sum[ph] - r->phase_ns[ph]), <=, (gint64) nblocks + 2);
  /* … and to at most the run it was measured in (event resolution ~0.5 µs) */
  g_assert_cmpint (r->phase_run_ns, >, 0);
  g_assert_cmpint (total, <=, r->phase_run_ns + 1000);
  g_assert_cmpint (sum[TL_LU_PHASE_GEMM], >, 0);
}

static void
test_record (void)
{
  g_autoptr (GError) error = NULL;
  struct { const char *kernel; TlDtype dt; gsize m, n, b; } cases[] = {
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 600, 600, 64 }, /* pooled snapshots and vectors */
    { "lu-01-percolumn", TL_DTYPE_FLOAT64, 96, 96, 0 },
    { "lu-01-percolumn", TL_DTYPE_FLOAT32, 53, 40, 0 },
    { "lu-03-tuned", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-03-tuned", TL_DTYPE_FLOAT32, 90, 61, 20 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 600, 600, 64 }, /* several blocks per panel */
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT32, 600, 600, 64 }, /* two sub-panels per panel, clusters of 2 */
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 600, 600, 64 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-06-fused", TL_DTYPE_FLOAT32, 77, 77, 32 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 90, 61, 8 },
    { "lu-06-fused", TL_DTYPE_FLOAT32, 600, 600, 32 }, /* two slots per thread, pooled snapshots */
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", cases[c].dt, cases[c].m, cases[c].n, 90 + c, &error);
      g_assert_no_error (error);
      g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) r = NULL;
      if (!tl_lu_factor (cases[c].kernel, a, cases[c].b, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error))
        g_error ("%s %zux%zu: %s", cases[c].kernel, cases[c].m, cases[c].n, error->message);
      g_assert_cmpfloat (factor_ratio (a, r), <, 30);
      g_assert_cmpfloat (r->elapsed_s, >, 0);
      g_assert_cmpfloat (r->record_s, >, 0);
      g_assert_cmpstr (rec->kernel_id, ==, cases[c].kernel);
      check_recording (rec, r, a);

      /* recording does not change the result: the same factorisation without it */
      g_autoptr (TlLuResult) plain = NULL;
      g_assert_true (tl_lu_factor (cases[c].kernel, a, cases[c].b, TL_PIVOTING_PARTIAL, NULL, NULL, &plain, &error));
      g_assert_cmpmem (plain->ipiv, sizeof (gint32) * plain->n_ipiv, r->ipiv, sizeof (gint32) * r->n_ipiv);
      g_assert_cmpfloat (plain->record_s, ==, 0);
    }

  /* step by step the same as the CPU kernel of the same shape (float64,
   * small: the pivots agree), snapshots included */
  const char *pairs[][2] = { { "lu-02-blocked", "lu-cpu-blocked" }, { "lu-01-percolumn", "lu-cpu-unblocked" },
                             { "lu-03-tuned", "lu-cpu-blocked" }, { "lu-04-persistent", "lu-cpu-blocked" },
                             { "lu-05-cluster", "lu-cpu-blocked" }, { "lu-06-fused", "lu-cpu-blocked" } };
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 48, 48, 7, &error);
      g_autoptr (TlLuRecorder) gr = tl_lu_recorder_new (0);
      g_autoptr (TlLuRecorder) cr = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) g = NULL;
      g_autoptr (TlLuResult) c = NULL;
      g_assert_true (tl_lu_factor (pairs[p][0], a, 16, TL_PIVOTING_PARTIAL, gr, NULL, &g, &error));
      g_assert_true (tl_lu_factor (pairs[p][1], a, 16, TL_PIVOTING_PARTIAL, cr, NULL, &c, &error));
      g_assert_cmpmem (g->ipiv, sizeof (gint32) * 48, c->ipiv, sizeof (gint32) * 48);
      g_assert_cmpuint (gr->steps->len, ==, cr->steps->len);
      for (guint k = 0; k < gr->steps->len; k++)
        {
          const TlLuStep *gs = &g_array_index (gr->steps, TlLuStep, k);
          const TlLuStep *cs = &g_array_index (cr->steps, TlLuStep, k);
          g_assert_cmpuint (gs->block, ==, cs->block);
          g_assert_cmpint (gs->pivot_row, ==, cs->pivot_row);
          g_assert_cmpfloat (fabs (gs->pivot_value - cs->pivot_value), <=, 1e-12);
          assert_vectors_close (&gs->column, &cs->column, 1e-12, "column", k);
          assert_vectors_close (&gs->multipliers, &cs->multipliers, 1e-12, "multipliers", k);
          assert_vectors_close (&gs->u_row, &cs->u_row, 1e-12, "u_row", k);
          g_assert_cmpuint (gs->upd_row0, ==, cs->upd_row0);
          g_assert_cmpuint (gs->upd_rows, ==, cs->upd_rows);
          g_assert_cmpuint (gs->upd_col0, ==, cs->upd_col0);
          g_assert_cmpuint (gs->upd_cols, ==, cs->upd_cols);
          g_assert_cmpfloat (fabs (gs->growth - cs->growth), <=, 1e-12 * cs->growth);
          g_assert_cmpint (gs->det_sign, ==, cs->det_sign);
        }
      g_assert_cmpuint (gr->blocks->len, ==, cr->blocks->len);
      g_assert_cmpuint (gr->snapshots->len, ==, cr->snapshots->len);
      g_assert_cmpuint (gr->snapshots->len, >, 2);
      for (guint s = 0; s < gr->snapshots->len; s++)
        {
          const TlLuSnapshot *gs = &g_array_index (gr->snapshots, TlLuSnapshot, s);
          const TlLuSnapshot *cs = &g_array_index (cr->snapshots, TlLuSnapshot, s);
          g_assert_cmpuint (gs->after_steps, ==, cs->after_steps);
          g_assert_cmpuint (gs->rows * gs->cols, ==, cs->rows * cs->cols);
          for (gsize t = 0; t < (gsize) gs->rows * gs->cols; t++)
            if (!(fabs (gs->data[t] - cs->data[t]) <= 1e-12 * fmax (1.0, fabs (cs->data[t]))))
              g_error ("%s snapshot after %u steps, cell %zu: GPU %.17g, CPU %.17g", pairs[p][0],
                       gs->after_steps, t, gs->data[t], cs->data[t]);
        }
    }

  /* above 512 the GPU pools its snapshots on the device (tl-gpu.h): the
   * cells equal the CPU recorder's pooling of the CPU kernel's matrix, up
   * to the rounding in which the two factorisations differ */
  const char *pooled[] = { "lu-02-blocked", "lu-03-tuned" };
  for (guint p = 0; p < G_N_ELEMENTS (pooled); p++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 613, 587, 8, &error);
      g_autoptr (TlLuRecorder) gr = tl_lu_recorder_new (0);
      g_autoptr (TlLuRecorder) cr = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) g = NULL;
      g_autoptr (TlLuResult) c = NULL;
      g_assert_true (tl_lu_factor (pooled[p], a, 64, TL_PIVOTING_PARTIAL, gr, NULL, &g, &error));
      g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 64, TL_PIVOTING_PARTIAL, cr, NULL, &c, &error));
      g_assert_cmpmem (g->ipiv, sizeof (gint32) * g->n_ipiv, c->ipiv, sizeof (gint32) * c->n_ipiv);
      g_assert_cmpuint (gr->snapshots->len, ==, cr->snapshots->len);
      g_assert_cmpuint (gr->snapshots->len, >, 2);
      double tol = 1e-11 * fmax (1.0, g->max_abs_a * g->growth);
      for (guint s = 1; s + 1 < gr->snapshots->len; s++)
        {
          const TlLuSnapshot *gs = &g_array_index (gr->snapshots, TlLuSnapshot, s);
          const TlLuSnapshot *cs = &g_array_index (cr->snapshots, TlLuSnapshot, s);
          g_assert_cmpuint (gs->after_steps, ==, cs->after_steps);
          g_assert_cmpuint (gs->pool_r, ==, 3);
          g_assert_cmpuint (gs->pool_c, ==, 3);
          g_assert_cmpuint (gs->rows, ==, cs->rows);
          g_assert_cmpuint (gs->cols, ==, cs->cols);
          for (gsize t = 0; t < (gsize) gs->rows * gs->cols; t++)
            if (!(fabs (gs->data[t] - cs->data[t]) <= tol))
              g_error ("%s pooled snapshot after %u steps, cell %zu: GPU %.17g, CPU %.17g",
                       pooled[p], gs->after_steps, t, gs->data[t], cs->data[t]);
        }
    }

  /* cuSOLVER refuses with a message naming the rungs that record */
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 40, 40, 3, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_autoptr (GError) e = NULL;
  g_assert_false (tl_lu_factor ("lu-cusolver", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &r, &e));
  g_assert_error (e, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (e->message, "lu-02-blocked"));
  g_assert_nonnull (strstr (e->message, "lu-04-persistent"));
  g_assert_nonnull (strstr (e->message, "lu-05-cluster"));
}

/* Polls answered until the n-th, which says "cancel". */
typedef struct
{
  int polls, cancel_at;
} LuPolls;

static int
lu_poll_cb (void *user_data)
{
  LuPolls *p = user_data;
  return ++p->polls >= p->cancel_at;
}

/* Cancel stops a GPU factorisation between block steps: the harness
 * answers TL_GPU_CANCELLED at the first poll that says so (no further
 * poll, so no further step), and the device factors the next matrix
 * correctly. */
static void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 1031, 1031, 11, &error);
  g_assert_no_error (error);
  TlGpuDevice *device = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &device), ==, TL_GPU_OK);
  const char *kernels[] = { "lu-01-percolumn", "lu-02-blocked", "lu-03-tuned", "lu-04-persistent",
                            "lu-06-fused" };
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autoptr (TlMatrix) work = tl_matrix_copy (a, NULL);
      g_autofree int *ipiv = g_new (int, a->rows);
      LuPolls polls = { 0, 5 };
      TlGpuLuArgs args = { .dtype = TL_GPU_FLOAT32, .m = (int) a->rows, .n = (int) a->cols,
                           .a = work->data, .ipiv = ipiv, .pivoting = 1, .warmups = 1,
                           .repeats = 3, .cancelled = lu_poll_cb, .user_data = &polls };
      TlGpuLuResult r;
      TlGpuStatus st = tl_gpu_lu_run (device, kernels[k], &args, &r);
      g_assert_cmpint (st, ==, TL_GPU_CANCELLED);
      g_assert_cmpint (polls.polls, ==, 5);
      tl_gpu_lu_result_clear (&r);

      g_autoptr (TlLuResult) done = factor_checked (kernels[k], a, 0);
      double ratio = factor_ratio (a, done);
      if (!(ratio < 30))
        g_error ("%s after a cancel: ratio %g", kernels[k], ratio);
    }
  tl_gpu_device_close (device);
}

/* The rank-deficient generator: A = F·G/√r of m×r and r×n normal factors,
 * rank r exactly in float64, and up to rounding in float32. */
static TlMatrix *
low_rank (TlDtype dt, gsize m, gsize n, gsize r, guint64 seed)
{
  g_autofree char *spec = g_strdup_printf ("rank-deficient:rank=%zu", r);
  return tl_generate (spec, dt, m, n, seed, NULL);
}

static double
frob (const TlMatrix *m)
{
  double s = 0;
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      s += tl_matrix_get (m, i, j) * tl_matrix_get (m, i, j);
  return sqrt (s);
}

/* Rank and null space on the GPU (tl-rank.h) against the CPU path: the
 * same rank and pivot columns, ‖A·N‖_F / (‖A‖_F ‖N‖_F n ε) < 30, the free
 * rows of N the identity exactly, N equal to the CPU's RREF basis up to
 * rounding, and the RREF equal to the CPU's. */
static void
test_rank (void)
{
  g_autoptr (GError) error = NULL;
  struct { gsize m, n, r; } cases[] = {
    { 67, 67, 40 }, { 300, 200, 123 }, { 200, 300, 77 }, { 1, 1, 1 }, { 1, 1, 0 },
    { 45, 31, 0 }, { 31, 45, 31 }, { 129, 130, 128 },
  };
  const TlDtype dts[] = { TL_DTYPE_FLOAT64, TL_DTYPE_FLOAT32 };
  for (guint d = 0; d < G_N_ELEMENTS (dts); d++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        const gsize m = cases[c].m, n = cases[c].n, want = cases[c].r;
        const double eps = dts[d] == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
        g_autoptr (TlMatrix) a = low_rank (dts[d], m, n, want, 300 + c);
        g_autoptr (TlRankResult) g = tl_rank_gpu (a, NULL, 0, TRUE, NULL, &error);
        g_assert_no_error (error);
        g_autofree gsize *piv = NULL;
        gsize cpu_rank = 0;
        g_autoptr (TlMatrix) rref = tl_rref (a, -1, &piv, &cpu_rank, &error);
        g_assert_no_error (error);
        if (g->rank != want || cpu_rank != want)
          g_error ("%s %zu×%zu rank %zu: GPU %zu, CPU %zu", tl_dtype_name (dts[d]), m, n, want,
                   g->rank, cpu_rank);
        for (gsize i = 0; i < want; i++)
          g_assert_cmpuint (g->pivot_cols[i], ==, piv[i]);
        g_assert_cmpuint (g->n_sigma, ==, MIN (m, n));
        for (gsize k = 1; k < g->n_sigma; k++)
          g_assert_cmpfloat (g->sigma[k], <=, g->sigma[k - 1]);

        const TlMatrix *nb = g->null_basis;
        g_assert_cmpuint (nb->rows, ==, n);
        g_assert_cmpuint (nb->cols, ==, n - want);
        g_autoptr (TlMatrix) an = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, m, nb->cols, NULL);
        for (gsize i = 0; i < m; i++)
          for (gsize k = 0; k < nb->cols; k++)
            {
              double s = 0;
              for (gsize j = 0; j < n; j++)
                s += tl_matrix_get (a, i, j) * tl_matrix_get (nb, j, k);
              tl_matrix_set (an, i, k, s);
            }
        double na = frob (a), nn = frob (nb);
        double ratio = na > 0 && nn > 0 ? frob (an) / (na * nn * (double) n * eps) : 0;
        if (!(ratio < 30))
          g_error ("%s %zu×%zu rank %zu: ‖A·N‖ ratio %g", tl_dtype_name (dts[d]), m, n, want, ratio);

        /* the CPU's basis: free rows the identity, equal up to rounding */
        g_autoptr (TlMatrix) cn = tl_null_space (a, -1, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (cn->cols, ==, nb->cols);
        double diff = 0;
        for (gsize j = 0; j < n; j++)
          for (gsize k = 0; k < nb->cols; k++)
            {
              double x = tl_matrix_get (nb, j, k), y = tl_matrix_get (cn, j, k);
              if (y == 0.0 || y == 1.0)
                g_assert_cmpfloat (x, ==, y); /* the free rows: exactly I */
              diff = fmax (diff, fabs (x - y));
            }
        double bound = (dts[d] == TL_DTYPE_FLOAT32 ? 1e-2 : 1e-7) * fmax (1.0, nn);
        if (!(diff <= bound))
          g_error ("%s %zu×%zu rank %zu: GPU basis differs from the CPU's by %g", tl_dtype_name (dts[d]),
                   m, n, want, diff);
        g_autoptr (TlMatrix) grref = tl_rank_rref (g, m, n, &error);
        g_assert_no_error (error);
        for (gsize i = 0; i < m; i++)
          for (gsize j = 0; j < n; j++)
            g_assert_cmpfloat (fabs (tl_matrix_get (grref, i, j) - tl_matrix_get (rref, i, j)), <=, bound);
        g_test_message ("%s %zu×%zu rank %zu: %d sweeps, %.2f ms, ‖A·N‖ ratio %.3g, vs CPU %.3g",
                        tl_dtype_name (dts[d]), m, n, want, g->sweeps, g->svd_ms, ratio, diff);

        /* rank only: no vectors, the same rank */
        g_autoptr (TlRankResult) v = tl_rank_gpu (a, NULL, 0, FALSE, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (v->rank, ==, want);
        g_assert_null (v->null_basis);
      }

  /* NaN: refused with a message, never a rank */
  g_autoptr (TlMatrix) bad = low_rank (TL_DTYPE_FLOAT64, 5, 5, 2, 9);
  tl_matrix_set (bad, 2, 3, NAN);
  g_autoptr (TlRankResult) none = tl_rank_gpu (bad, NULL, 0, TRUE, NULL, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  int count = 0;
  if (tl_gpu_device_count (&count) != TL_GPU_OK || count == 0)
    {
      printf ("no CUDA device: skipping the GPU LU tests\n");
      return 77;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lu-gpu/ratios", test_ratios);
  g_test_add_func ("/lu-gpu/singular-and-no-pivoting", test_singular_and_no_pivoting);
  g_test_add_func ("/lu-gpu/singular-steps", test_singular_steps);
  g_test_add_func ("/lu-gpu/nan", test_nan);
  g_test_add_func ("/lu-gpu/fresh", test_fresh);
  g_test_add_func ("/lu-gpu/cluster-paths", test_cluster_paths);
  g_test_add_func ("/lu-gpu/fused-paths", test_fused_paths);
  g_test_add_func ("/lu-gpu/fused-workers", test_fused_workers);
  g_test_add_func ("/lu-gpu/near-singular", test_near_singular);
  g_test_add_func ("/lu-gpu/large", test_large);
  g_test_add_func ("/lu-gpu/solve", test_solve);
  g_test_add_func ("/lu-gpu/solve-bench", test_solve_bench);
  g_test_add_func ("/lu-gpu/gfp", test_gfp);
  g_test_add_func ("/lu-gpu/record", test_record);
  g_test_add_func ("/lu-gpu/cancel", test_cancel);
  g_test_add_func ("/lu-gpu/rank", test_rank);
  return g_test_run ();
}
