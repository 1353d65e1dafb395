/* test-solve.c — Gauss–Jordan, rank, null space and the solution space. */
#include "lu/tl-solve.h"
#include "lu/tl-rank.h"
#include "gen/tl-generate.h"
#include "core/tl-error.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

static TlMatrix *
from_rows (gsize m, gsize n, const double *v)
{
  TlMatrix *a = tl_matrix_new (TL_DTYPE_FLOAT64, m, n, NULL);
  for (gsize i = 0; i < m; i++)
    for (gsize j = 0; j < n; j++)
      tl_matrix_set (a, i, j, v[i * n + j]);
  return a;
}

/* max |A·X − B| / (‖A‖∞ ‖X‖∞ + ‖B‖∞); B NULL means zero */
static double
residual (const TlMatrix *a, const TlMatrix *x, const TlMatrix *b)
{
  double worst = 0.0;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize c = 0; c < x->cols; c++)
      {
        double s = b ? -tl_matrix_get (b, i, c) : 0.0;
        for (gsize j = 0; j < a->cols; j++)
          s += tl_matrix_get (a, i, j) * tl_matrix_get (x, j, c);
        worst = fmax (worst, fabs (s));
      }
  double scale = tl_matrix_norm (a, TL_NORM_INF) * fmax (tl_matrix_norm (x, TL_NORM_INF), 1e-300)
                 + (b ? tl_matrix_norm (b, TL_NORM_INF) : 0.0);
  return scale > 0 ? worst / scale : worst;
}

static void
test_rref_known (void)
{
  /* rows 2 = 2·row 1, row 3 independent: rank 2, pivots in columns 0 and 2 */
  const double v[] = { 1, 2, 1, 4,
                       2, 4, 0, 6,
                       3, 6, 1, 10 };
  g_autoptr (TlMatrix) a = from_rows (3, 4, v);
  g_autofree gsize *piv = NULL;
  gsize rank = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) r = tl_rref (a, -1, &piv, &rank, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rank, ==, 2);
  g_assert_cmpuint (piv[0], ==, 0);
  g_assert_cmpuint (piv[1], ==, 2);
  const double expect[] = { 1, 2, 0, 3,
                            0, 0, 1, 1,
                            0, 0, 0, 0 };
  for (gsize i = 0; i < 3; i++)
    for (gsize j = 0; j < 4; j++)
      g_assert_cmpfloat (fabs (tl_matrix_get (r, i, j) - expect[i * 4 + j]), <, 1e-14);
}

/* the singular 4×4 system: x + y + z + w = 10, 2x + 2y + 2z + 2w = 20,
 * x − y = 0, z − w = 2 → rank 3 (rows 1, 2 dependent), one free variable */
static void
test_singular_4x4 (void)
{
  const double v[] = { 1, 1, 1, 1,
                       2, 2, 2, 2,
                       1, -1, 0, 0,
                       0, 0, 1, -1 };
  const double bv[] = { 10, 20, 0, 2 };
  const double bad[] = { 10, 21, 0, 2 };
  g_autoptr (TlMatrix) a = from_rows (4, 4, v);
  g_autoptr (TlMatrix) b = from_rows (4, 1, bv);
  g_autoptr (TlMatrix) bb = from_rows (4, 1, bad);
  g_autoptr (GError) error = NULL;

  g_autoptr (TlSolution) s = tl_solve_space (a, b, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->kind, ==, TL_SOLUTION_INFINITE);
  g_assert_cmpuint (s->rank, ==, 3);
  g_assert_nonnull (s->null_basis);
  g_assert_cmpuint (s->null_basis->cols, ==, 1);
  g_assert_cmpfloat (residual (a, s->particular, b), <, 1e-14);
  g_assert_cmpfloat (residual (a, s->null_basis, NULL), <, 1e-14);
  /* x_p + t·n solves it for any t */
  g_autoptr (TlMatrix) x = tl_matrix_copy (s->particular, NULL);
  for (gsize i = 0; i < 4; i++)
    tl_matrix_set (x, i, 0, tl_matrix_get (x, i, 0) + 3.7 * tl_matrix_get (s->null_basis, i, 0));
  g_assert_cmpfloat (residual (a, x, b), <, 1e-14);

  g_autoptr (TlSolution) n = tl_solve_space (a, bb, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n->kind, ==, TL_SOLUTION_NONE);
  g_assert_cmpuint (n->inconsistent_column, ==, 0);
  g_assert_null (n->particular);

  /* two right-hand sides, the second inconsistent: no solution, column 1 */
  const double two[] = { 10, 10, 20, 21, 0, 0, 2, 2 };
  g_autoptr (TlMatrix) b2 = from_rows (4, 2, two);
  g_autoptr (TlSolution) s2 = tl_solve_space (a, b2, -1, &error);
  g_assert_cmpint (s2->kind, ==, TL_SOLUTION_NONE);
  g_assert_cmpuint (s2->inconsistent_column, ==, 1);

  /* mismatched right-hand side */
  g_autoptr (TlMatrix) b3 = from_rows (3, 1, bv);
  g_autoptr (TlSolution) s3 = tl_solve_space (a, b3, -1, &error);
  g_assert_null (s3);
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
}

/* generated rank-deficient and rectangular matrices, both dtypes */
static void
test_null_space_random (void)
{
  g_autoptr (GError) error = NULL;
  const gsize shapes[][3] = { { 10, 10, 7 }, { 50, 50, 31 }, { 12, 30, 12 }, { 30, 12, 5 },
                              { 40, 40, 40 }, { 6, 9, 0 } };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
      {
        gsize m = shapes[s][0], n = shapes[s][1], r = shapes[s][2];
        g_autofree char *spec = g_strdup_printf ("rank-deficient:rank=%zu", r);
        g_autoptr (TlMatrix) a = r == MIN (m, n)
          ? tl_generate ("random-normal", dt, m, n, 40 + s, &error)
          : tl_generate (spec, dt, m, n, 40 + s, &error);
        g_assert_no_error (error);
        double eps = dt == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
        gsize rank = tl_rank (a, -1);
        g_assert_cmpuint (rank, ==, r);
        g_autoptr (TlMatrix) ns = tl_null_space (a, -1, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (ns->rows, ==, n);
        g_assert_cmpuint (rank + ns->cols, ==, n); /* rank + nullity = n */
        if (ns->cols)
          g_assert_cmpfloat (residual (a, ns, NULL), <, 1000 * n * eps);

        /* a consistent right-hand side B = A·Y */
        g_autoptr (TlMatrix) y = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, n, 2, 9, &error);
        g_autoptr (TlMatrix) b = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, m, 2, &error);
        for (gsize i = 0; i < m; i++)
          for (gsize c = 0; c < 2; c++)
            {
              double t = 0;
              for (gsize j = 0; j < n; j++)
                t += tl_matrix_get (a, i, j) * tl_matrix_get (y, j, c);
              tl_matrix_set (b, i, c, t);
            }
        g_autoptr (TlSolution) sol = tl_solve_space (a, b, -1, &error);
        g_assert_no_error (error);
        g_assert_cmpint (sol->kind, ==, r == n ? TL_SOLUTION_UNIQUE : TL_SOLUTION_INFINITE);
        g_assert_cmpfloat (residual (a, sol->particular, b), <, 1000 * n * eps);

        /* an inconsistent one when A is short of full row rank */
        if (r < m)
          {
            g_autoptr (TlMatrix) bad = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, m, 1, 11,
                                                    &error);
            g_autoptr (TlSolution) none = tl_solve_space (a, bad, -1, &error);
            g_assert_cmpint (none->kind, ==, TL_SOLUTION_NONE);
          }
      }
}

/* empty shapes are answered, not crashed on */
static void
test_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 0, 3, &error);
  g_autoptr (TlMatrix) b = tl_matrix_new (TL_DTYPE_FLOAT64, 0, 1, &error);
  g_autoptr (TlSolution) s = tl_solve_space (a, b, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->kind, ==, TL_SOLUTION_INFINITE); /* no equations: every x */
  g_assert_cmpuint (s->rank, ==, 0);
  g_assert_cmpuint (s->null_basis->cols, ==, 3);
  g_assert_cmpuint (tl_rank (a, -1), ==, 0);
  g_autoptr (TlMatrix) a0 = tl_matrix_new (TL_DTYPE_FLOAT64, 0, 0, &error);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a0, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_assert_cmpint (r->det_sign, ==, 1); /* det of the empty matrix is 1 */
  g_assert_cmpfloat (r->det, ==, 1.0);
}

static void
test_nonfinite (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 3, 3, 1, &error);
  tl_matrix_set (a, 0, 2, NAN);
  g_autoptr (TlMatrix) r = tl_rref (a, -1, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "row 1, column 3"));
}

/* The GPU rank's presentation (tl_rank_present), fed LAPACK's SVD instead
 * of the GPU's: from an orthonormal null-space basis it must give the CPU
 * path's pivot columns, its "free variable = 1" basis and its RREF, up to
 * rounding — at odd shapes, rank 0 and full rank. */
static void
test_rank_present (void)
{
  struct { gsize m, n, r; } cases[] = { { 67, 67, 40 }, { 30, 50, 17 }, { 50, 30, 29 },
                                        { 9, 9, 9 }, { 12, 7, 0 }, { 1, 1, 1 } };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const gsize m = cases[c].m, n = cases[c].n, want = cases[c].r;
      g_autoptr (GError) error = NULL;
      g_autofree char *spec = g_strdup_printf ("rank-deficient:rank=%zu", want);
      g_autoptr (TlMatrix) a = tl_generate (spec, TL_DTYPE_FLOAT64, m, n, 40 + c, &error);
      g_assert_no_error (error);
      /* LAPACK: Vᵀ in full, row k = right singular vector k */
      g_autoptr (TlMatrix) w = tl_matrix_copy (a, NULL);
      g_autofree double *sv = g_new0 (double, MIN (m, n));
      g_autofree double *vt = g_new0 (double, n * n);
      g_autofree double *superb = g_new0 (double, MIN (m, n));
      g_assert_cmpint (LAPACKE_dgesvd (LAPACK_ROW_MAJOR, 'N', 'A', (lapack_int) m, (lapack_int) n,
                                       w->data, (lapack_int) w->stride, sv, NULL, 1, vt,
                                       (lapack_int) n, superb), ==, 0);
      gsize rank = 0;
      while (rank < MIN (m, n) && sv[rank] > (double) MAX (m, n) * DBL_EPSILON * sv[0])
        rank++;
      g_assert_cmpuint (rank, ==, want);
      g_autoptr (TlRankResult) r = g_new0 (TlRankResult, 1);
      g_assert_true (tl_rank_present (r, rank, n, TRUE, vt + rank * n, DBL_EPSILON, &error));
      g_assert_no_error (error);

      g_autofree gsize *piv = NULL;
      gsize cpu_rank = 0;
      g_autoptr (TlMatrix) rref = tl_rref (a, -1, &piv, &cpu_rank, &error);
      g_autoptr (TlMatrix) cn = tl_null_space (a, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpu_rank, ==, rank);
      for (gsize i = 0; i < rank; i++)
        g_assert_cmpuint (r->pivot_cols[i], ==, piv[i]);
      g_assert_cmpuint (r->null_basis->rows, ==, n);
      g_assert_cmpuint (r->null_basis->cols, ==, n - rank);
      for (gsize j = 0; j < n; j++)
        for (gsize k = 0; k < n - rank; k++)
          if (!(fabs (tl_matrix_get (r->null_basis, j, k) - tl_matrix_get (cn, j, k)) <= 1e-9))
            g_error ("%zu×%zu rank %zu: basis(%zu, %zu) %.17g, CPU %.17g", m, n, want, j, k,
                     tl_matrix_get (r->null_basis, j, k), tl_matrix_get (cn, j, k));
      g_autoptr (TlMatrix) gr = tl_rank_rref (r, m, n, &error);
      g_assert_no_error (error);
      for (gsize i = 0; i < m; i++)
        for (gsize j = 0; j < n; j++)
          g_assert_cmpfloat (fabs (tl_matrix_get (gr, i, j) - tl_matrix_get (rref, i, j)), <=, 1e-9);
    }
}

/* No clear gap in the singular values (σ geometric from 1 to 1e-14):
 * elimination and the singular values disagree on the rank, and the SVD
 * decides — b = A·1 is consistent (never "no solution" from a rounding
 * contradiction), a generic b is not; the rank is the singular values'
 * (numpy's matrix_rank rule), the answer keeps elimination's form. */
static void
test_no_gap (void)
{
  g_autoptr (GError) error = NULL;
  const gsize n = 200;
  g_autoptr (TlMatrix) a = tl_generate ("condition:kappa=1e14", TL_DTYPE_FLOAT64, n, n, 3, &error);
  g_assert_no_error (error);

  /* the rank by the rule, from LAPACK */
  g_autoptr (TlMatrix) c = tl_matrix_copy (a, NULL);
  g_autofree double *sv = g_new0 (double, n);
  g_assert_cmpint (LAPACKE_dgesdd (LAPACK_ROW_MAJOR, 'N', n, n, c->data, c->stride, sv, NULL, n, NULL, n), ==, 0);
  gsize rank = 0;
  while (rank < n && sv[rank] > n * DBL_EPSILON * sv[0])
    rank++;
  g_assert_cmpuint (rank, <, n);

  g_autoptr (TlMatrix) b = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, 1, NULL);
  for (gsize i = 0; i < n; i++)
    {
      double sum = 0;
      for (gsize j = 0; j < n; j++)
        sum += tl_matrix_get (a, i, j);
      tl_matrix_set (b, i, 0, sum);
    }
  g_autoptr (TlSolution) s = tl_solve_space (a, b, -1, &error);
  g_assert_no_error (error);
  g_assert_true (s->by_svd);
  g_assert_cmpint (s->kind, ==, TL_SOLUTION_INFINITE);
  g_assert_cmpuint (s->rank, ==, rank);
  g_assert_cmpuint (s->null_basis->cols, ==, n - rank);
  g_assert_cmpfloat (residual (a, s->particular, b), <, 1e-9);
  g_assert_cmpfloat (residual (a, s->null_basis, NULL), <, 1e-12);
  /* the free variables of the particular solution are 0, the basis's free rows I */
  g_autofree gboolean *pivot = g_new0 (gboolean, n);
  for (gsize i = 0; i < s->rank; i++)
    pivot[s->pivot_cols[i]] = TRUE;
  gsize f = 0;
  for (gsize j = 0; j < n; j++)
    if (!pivot[j])
      {
        g_assert_cmpfloat (tl_matrix_get (s->particular, j, 0), ==, 0.0);
        g_assert_cmpfloat (fabs (tl_matrix_get (s->null_basis, j, f) - 1.0), <, 1e-12);
        f++;
      }

  /* a clear gap, the same rank both ways, but elimination's remainder of a
   * consistent b above its tolerance (0 = 3.1e-11): never "no solution" */
  g_autoptr (TlMatrix) d = tl_generate ("rank-deficient:rank=250", TL_DTYPE_FLOAT64, 300, 300, 1, &error);
  g_autoptr (TlMatrix) db = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, 300, 1, NULL);
  for (gsize i = 0; i < 300; i++)
    {
      double sum = 0;
      for (gsize j = 0; j < 300; j++)
        sum += tl_matrix_get (d, i, j);
      tl_matrix_set (db, i, 0, sum);
    }
  g_autoptr (TlSolution) ds = tl_solve_space (d, db, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ds->kind, ==, TL_SOLUTION_INFINITE);
  g_assert_cmpuint (ds->rank, ==, 250);
  g_assert_cmpfloat (residual (d, ds->particular, db), <, 1e-12);

  /* a generic right-hand side has a part outside A's range */
  g_autoptr (TlMatrix) g = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, n, 1, 4, &error);
  g_autoptr (TlSolution) none = tl_solve_space (a, g, -1, &error);
  g_assert_no_error (error);
  g_assert_true (none->by_svd);
  g_assert_cmpint (none->kind, ==, TL_SOLUTION_NONE);
  g_assert_cmpfloat (none->inconsistency, >, 1e-6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/solve/rref-known", test_rref_known);
  g_test_add_func ("/solve/singular-4x4", test_singular_4x4);
  g_test_add_func ("/solve/null-space-random", test_null_space_random);
  g_test_add_func ("/solve/nonfinite", test_nonfinite);
  g_test_add_func ("/solve/empty", test_empty);
  g_test_add_func ("/solve/rank-present", test_rank_present);
  g_test_add_func ("/solve/no-gap", test_no_gap);
  return g_test_run ();
}
