/* test-lu-gpu-solve.c — the GPU solve (xGET02 per column) and against
 * cuSOLVER's getrs from the same factors; the exact mode bit for bit with
 * the CPU; rank and null space against the CPU path. */
#include "lu-gpu-test-util.h"

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "lu/tl-gfp.h"
#include "lu/tl-gfp-gpu.h"
#include "lu/tl-rank.h"
#include "lu/tl-solve.h"
#include "lu-test-util.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* getrs on the GPU: ‖B − AX‖₁ / (‖A‖₁ ‖X‖₁ ε) < 30 per column (xGET02) */
void
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
void
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
void
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
void
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
