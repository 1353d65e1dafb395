/* test-lu-gpu-factor.c — the GPU rungs against LAPACK's ratio
 * ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30 through tl_lu_factor, at odd shapes and
 * fresh matrices; LAPACK's info on singular matrices; NaN named where it is;
 * near-singular systems; a last panel one column wide. */
#include "lu-gpu-test-util.h"

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void
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

void
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
void
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
void
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
void
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

/* Near-singular systems factor to finite results within LAPACK's ratio
 * (κ = 1e14 float64, 1e6 float32); a column that becomes zero only after
 * elimination (col 40 = col 3 + col 17) gives a tiny, finite pivot or an
 * exact zero that info reports — never NaN in the factors. */
void
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
void
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
