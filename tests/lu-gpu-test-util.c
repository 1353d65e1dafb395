/* lu-gpu-test-util.c — what the GPU Gauss tests share: the rungs, LAPACK's
 * ratios of a factorisation and of a solve through it, fresh seeds, and a
 * factorisation that must succeed. */
#include "lu-gpu-test-util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double
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

const char *const gpu_kernels[LU_GPU_N_KERNELS] = { "lu-01-percolumn", "lu-02-blocked", "lu-03-tuned", "lu-04-persistent",
                                     "lu-05-cluster", "lu-06-fused", "lu-cusolver" };

gboolean
is_blocked (const char *kernel)
{
  return tl_lu_kernel_find (kernel)->blocked;
}

/* LAPACK's backward error of a solve through the factors, O(n²):
 * ‖b − A·x̂‖∞ / (‖A‖∞ ‖x̂‖∞ n ε) for b = A·x, x random — for sizes where
 * ‖PA − LU‖ (O(n³) on the CPU) would take minutes. */
double
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
guint32
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
TlLuResult *
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
