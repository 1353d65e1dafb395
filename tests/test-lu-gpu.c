/* test-lu-gpu.c — the GPU rungs of the Gauss ladder against LAPACK's
 * ratio ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30, through tl_lu_factor.
 * Exits 77 (skip) without a CUDA device. */
#include "tl-gfp.h"
#include "tl-lu.h"
#include "tl-solve.h"
#include "tl-generate.h"
#include "tl-error.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

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

static const char *gpu_kernels[] = { "lu-01-percolumn", "lu-02-blocked", "lu-03-tuned", "lu-cusolver" };

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
              if (b > 0 && (k == 0 || k == 3))
                continue; /* not blocked */
              g_autoptr (TlLuResult) r = NULL;
              if (!tl_lu_factor (gpu_kernels[k], a, blocks[b], TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error))
                g_error ("%s %zux%zu %s: %s", gpu_kernels[k], shapes[s][0], shapes[s][1],
                         tl_dtype_name (dt), error->message);
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
        double eps = dt == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
        for (guint k = 0; k < G_N_ELEMENTS (gpu_kernels); k++)
          {
            g_autoptr (TlLuResult) r = NULL;
            g_assert_true (tl_lu_factor (gpu_kernels[k], a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
            g_autoptr (TlMatrix) x = tl_lu_solve (r, b, &error);
            g_assert_no_error (error);
            double an = tl_matrix_norm (a, TL_NORM_ONE);
            for (gsize c = 0; c < 7; c++)
              {
                double rn = 0, xn = 0;
                for (gsize i = 0; i < n; i++)
                  {
                    double s = tl_matrix_get (b, i, c);
                    for (gsize j = 0; j < n; j++)
                      s -= tl_matrix_get (a, i, j) * tl_matrix_get (x, j, c);
                    rn += fabs (s);
                    xn += fabs (tl_matrix_get (x, i, c));
                  }
                double ratio = rn / an / xn / eps;
                if (!(ratio < 30))
                  g_error ("%s n=%zu %s: solve ratio %g", gpu_kernels[k], n, tl_dtype_name (dt), ratio);
              }
          }
      }
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
  g_test_add_func ("/lu-gpu/solve", test_solve);
  g_test_add_func ("/lu-gpu/gfp", test_gfp);
  return g_test_run ();
}
