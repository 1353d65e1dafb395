/* test-generate.c — every generator: shape, dtype, determinism, properties,
 * and the errors for bad specs. */
#include "core/tl-error.h"
#include "gen/tl-generate.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

/* singular values, largest first */
static double *
singular_values (const TlMatrix *m)
{
  gsize r = m->rows, c = m->cols, p = MIN (r, c);
  double *a = g_new (double, r * c);
  double *s = g_new0 (double, MAX (p, 1));
  double *superb = g_new (double, MAX (p, 2));
  for (gsize i = 0; i < r; i++)
    for (gsize j = 0; j < c; j++)
      a[i * c + j] = tl_matrix_get (m, i, j);
  lapack_int info = LAPACKE_dgesvd (LAPACK_ROW_MAJOR, 'N', 'N', (lapack_int) r, (lapack_int) c,
                                    a, (lapack_int) c, s, NULL, 1, NULL, 1, superb);
  g_assert_cmpint (info, ==, 0);
  g_free (a);
  g_free (superb);
  return s;
}

static gsize
numerical_rank (const TlMatrix *m, double rel_tol)
{
  g_autofree double *s = singular_values (m);
  gsize p = MIN (m->rows, m->cols), rank = 0;
  for (gsize i = 0; i < p; i++)
    rank += s[i] > s[0] * rel_tol;
  return rank;
}

static TlMatrix *
gen_ok (const char *spec, TlDtype dtype, gsize rows, gsize cols, guint64 seed)
{
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_generate (spec, dtype, rows, cols, seed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_cmpuint (m->rows, ==, rows);
  g_assert_cmpuint (m->cols, ==, cols);
  g_assert_cmpint (m->dtype, ==, dtype);
  TlMatrixStats st;
  tl_matrix_stats (m, &st);
  g_assert_cmpuint (st.n_nan + st.n_inf, ==, 0);
  return m;
}

static void
gen_fails (const char *spec, TlDtype dtype, gsize rows, gsize cols, int code,
           const char *needle)
{
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_generate (spec, dtype, rows, cols, 1, &error);
  g_assert_null (m);
  g_assert_error (error, TL_ERROR, code);
  if (needle && strstr (error->message, needle) == NULL)
    g_error ("“%s”: message “%s” lacks “%s”", spec, error->message, needle);
}

static gboolean
is_random (const TlGeneratorInfo *info)
{
  static const char *const fixed[] = { "ones", "zeros", "identity", "hilbert", "tridiagonal" };
  for (gsize i = 0; i < G_N_ELEMENTS (fixed); i++)
    if (strcmp (info->name, fixed[i]) == 0)
      return FALSE;
  return TRUE;
}

/* Every generator, every dtype it takes, several shapes: shape, dtype,
 * determinism, seed sensitivity. */
static void
test_all_generators (void)
{
  static const gsize shapes[][2] = { { 1, 1 }, { 7, 7 }, { 33, 33 }, { 5, 9 }, { 9, 5 } };
  g_assert_cmpuint (tl_generator_count (), >=, 12);

  for (guint g = 0; g < tl_generator_count (); g++)
    {
      const TlGeneratorInfo *info = tl_generator_get (g);
      g_assert_true (tl_generator_find (info->name) == info);
      g_assert_nonnull (info->title);
      g_assert_nonnull (info->description);
      g_assert_nonnull (info->params);
      /* the spec with its defaults spelt out works */
      g_autofree char *spec = *info->params ? g_strdup_printf ("%s:%s", info->name, info->params)
                                            : g_strdup (info->name);
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
          {
            gsize r = shapes[s][0], c = shapes[s][1];
            g_autoptr (GError) error = NULL;
            g_autoptr (TlMatrix) m1 = tl_generate (spec, d, r, c, 11, &error);
            if (m1 == NULL && error->code == TL_ERROR_UNSUPPORTED && d == TL_DTYPE_INT32)
              continue; /* real-valued generators refuse int32 */
            if (info->square_only && r != c)
              {
                g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
                continue;
              }
            if (m1 == NULL && strcmp (info->name, "condition") == 0 && r == 1)
              continue; /* a 1×1 matrix cannot have kappa 1000 */
            g_assert_no_error (error);
            g_assert_cmpuint (m1->rows, ==, r);
            g_assert_cmpuint (m1->cols, ==, c);
            g_assert_cmpint (m1->dtype, ==, d);

            g_autoptr (TlMatrix) m2 = tl_generate (spec, d, r, c, 11, NULL);
            g_assert_true (tl_matrix_equal (m1, m2));
            /* and the plain name gives the defaults */
            g_autoptr (TlMatrix) m3 = tl_generate (info->name, d, r, c, 11, NULL);
            g_assert_true (tl_matrix_equal (m1, m3));

            if (is_random (info) && r * c >= 25)
              {
                g_autoptr (TlMatrix) m4 = tl_generate (spec, d, r, c, 12, NULL);
                g_assert_false (tl_matrix_equal (m1, m4));
              }
          }
      /* empty shapes are legal where the generator has nothing to check */
      g_autoptr (TlMatrix) empty = tl_generate (info->name, TL_DTYPE_FLOAT64, 0, 0, 1, NULL);
      if (strcmp (info->name, "singular-zero-column") != 0)
        g_assert_nonnull (empty);
    }
}

/* Bit-exact anchors: these values must come out on every machine. */
static void
test_reference_values (void)
{
  g_autoptr (TlMatrix) ints = gen_ok ("random-int:lo=0,hi=4", TL_DTYPE_INT32, 2, 5, 2024);
  static const gint32 expect[] = { 3, 3, 1, 1, 3, 2, 2, 1, 0, 4 };
  for (int i = 0; i < 10; i++)
    g_assert_cmpint (((gint32 *) tl_matrix_row (ints, i / 5))[i % 5], ==, expect[i]);

  g_autoptr (TlMatrix) u = gen_ok ("random-uniform", TL_DTYPE_FLOAT64, 1, 2, 42);
  g_assert_cmpfloat (((double *) u->data)[0], ==, -1.0 + 2.0 * 0.08386297105988216);
  g_assert_cmpfloat (((double *) u->data)[1], ==, -1.0 + 2.0 * 0.3789802506626686);

  /* normals: the polar method's first values for seed 42 by an independent
   * implementation; they go through libm's log, so allow the last bits */
  static const double normal42[] = { -0.7262191382447857, -0.21119691823195985,
                                     0.2216227015035933, 0.5227716877560146 };
  g_autoptr (TlMatrix) z = gen_ok ("random-normal", TL_DTYPE_FLOAT64, 2, 2, 42);
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (((double *) z->data)[i], normal42[i], 1e-15);

  /* float32 is the float64 value rounded once */
  g_autoptr (TlMatrix) u32 = gen_ok ("random-uniform", TL_DTYPE_FLOAT32, 1, 2, 42);
  g_assert_cmpfloat (((float *) u32->data)[0], ==, (float) (-1.0 + 2.0 * 0.08386297105988216));
}

static void
test_constant_generators (void)
{
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) ones = gen_ok ("ones", d, 1000, 500, 5);
      g_autoptr (TlMatrix) zeros = gen_ok ("zeros", d, 3, 8, 5);
      g_autoptr (TlMatrix) eye = gen_ok ("identity", d, 9, 9, 5);
      g_autoptr (TlMatrix) tri = gen_ok ("tridiagonal", d, 8, 8, 5);
      TlMatrixStats st;
      tl_matrix_stats (ones, &st);
      g_assert_cmpfloat (st.min, ==, 1.0);
      g_assert_cmpfloat (st.max, ==, 1.0);
      tl_matrix_stats (zeros, &st);
      g_assert_cmpfloat (st.min, ==, 0.0);
      g_assert_cmpfloat (st.max, ==, 0.0);
      for (gsize i = 0; i < 9; i++)
        for (gsize j = 0; j < 9; j++)
          g_assert_cmpfloat (tl_matrix_get (eye, i, j), ==, i == j ? 1.0 : 0.0);
      for (gsize i = 0; i < 8; i++)
        for (gsize j = 0; j < 8; j++)
          {
            double want = i == j ? 2.0 : (i + 1 == j || j + 1 == i) ? -1.0 : 0.0;
            g_assert_cmpfloat (tl_matrix_get (tri, i, j), ==, want);
          }
    }
}

static void
test_hilbert (void)
{
  g_autoptr (TlMatrix) h = gen_ok ("hilbert", TL_DTYPE_FLOAT64, 12, 12, 0);
  g_autoptr (TlMatrix) h32 = gen_ok ("hilbert", TL_DTYPE_FLOAT32, 12, 12, 0);
  for (gsize i = 0; i < 12; i++)
    for (gsize j = 0; j < 12; j++)
      {
        g_assert_cmpfloat (tl_matrix_get (h, i, j), ==, 1.0 / (double) (i + j + 1));
        g_assert_cmpfloat (tl_matrix_get (h32, i, j), ==, (float) (1.0 / (double) (i + j + 1)));
      }
  g_assert_cmpfloat (tl_matrix_get (h, 0, 0), ==, 1.0);
  g_assert_cmpfloat (tl_matrix_get (h, 1, 2), ==, 0.25);
  /* famously ill-conditioned: κ₂(H₈) ≈ 1.5e10 */
  g_autoptr (TlMatrix) h8 = gen_ok ("hilbert", TL_DTYPE_FLOAT64, 8, 8, 0);
  g_autofree double *s = singular_values (h8);
  g_assert_cmpfloat (fabs (s[0] / s[7] / 1.5258e10 - 1.0), <, 0.01);
}

static void
test_diagonally_dominant (void)
{
  for (int d = TL_DTYPE_FLOAT32; d <= TL_DTYPE_FLOAT64; d++)
    {
      g_autoptr (TlMatrix) m = gen_ok ("diagonally-dominant:margin=0.5", d, 40, 40, 3);
      for (gsize i = 0; i < 40; i++)
        {
          double off = 0.0;
          for (gsize j = 0; j < 40; j++)
            if (j != i)
              {
                double v = tl_matrix_get (m, i, j);
                g_assert_cmpfloat (v, >=, -1.0);
                g_assert_cmpfloat (v, <, 1.0);
                off += fabs (v);
              }
          double diag = tl_matrix_get (m, i, i);
          g_assert_cmpfloat (diag, >, off);
          g_assert_cmpfloat (fabs (diag - off - 0.5), <, 1e-4 * (1 + off));
        }
    }
}

static void
test_condition (void)
{
  static const struct { const char *spec; double kappa; gsize n; TlDtype dtype; } cases[] = {
    { "condition", 1000, 50, TL_DTYPE_FLOAT64 },
    { "condition:kappa=1e6", 1e6, 120, TL_DTYPE_FLOAT64 },
    { "condition:kappa=10", 10, 2, TL_DTYPE_FLOAT64 },
    { "condition:kappa=1", 1, 17, TL_DTYPE_FLOAT64 },
    { "condition:kappa=1e12", 1e12, 40, TL_DTYPE_FLOAT64 },
    { "condition:kappa=100", 100, 30, TL_DTYPE_FLOAT32 },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TlMatrix) m = gen_ok (cases[c].spec, cases[c].dtype, cases[c].n, cases[c].n, 8);
      g_autofree double *s = singular_values (m);
      double kappa = s[0] / s[cases[c].n - 1];
      if (fabs (kappa / cases[c].kappa - 1.0) > 0.01)
        g_error ("%s: measured κ₂ = %g", cases[c].spec, kappa);
      g_assert_cmpfloat (fabs (s[0] - 1.0), <, 0.01);
      /* orthogonal factors keep every σ_k = kappa^(−k/(n−1)) */
      gsize n = cases[c].n;
      if (cases[c].dtype == TL_DTYPE_FLOAT64 && cases[c].kappa <= 1e6)
        for (gsize k = 0; k < n; k++)
          {
            double want = pow (cases[c].kappa, -(double) k / (double) (n - 1));
            g_assert_cmpfloat (fabs (s[k] / want - 1.0), <, 1e-6);
          }
    }
  /* a Haar-random factor spreads the values: no zero pattern, not diagonal */
  g_autoptr (TlMatrix) m = gen_ok ("condition:kappa=50", TL_DTYPE_FLOAT64, 10, 10, 4);
  gsize small = 0;
  for (gsize i = 0; i < 10; i++)
    for (gsize j = 0; j < 10; j++)
      small += fabs (tl_matrix_get (m, i, j)) < 1e-12;
  g_assert_cmpuint (small, ==, 0);

  gen_fails ("condition:kappa=0.5", TL_DTYPE_FLOAT64, 4, 4, TL_ERROR_INVALID, "kappa");
  gen_fails ("condition:kappa=inf", TL_DTYPE_FLOAT64, 4, 4, TL_ERROR_INVALID, "kappa");
  gen_fails ("condition", TL_DTYPE_FLOAT64, 4, 5, TL_ERROR_SHAPE, "4×5");
  gen_fails ("condition", TL_DTYPE_INT32, 4, 4, TL_ERROR_UNSUPPORTED, "float");
}

static void
test_rank_deficient (void)
{
  static const struct { const char *spec; gsize rows, cols, rank; } cases[] = {
    { "rank-deficient:rank=3", 20, 20, 3 },
    { "rank-deficient:rank=1", 7, 13, 1 },
    { "rank-deficient:rank=5", 31, 9, 5 },
    { "rank-deficient", 10, 10, 9 },
    { "rank-deficient:rank=9", 12, 9, 9 },
    { "rank-deficient:rank=0", 4, 6, 0 },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TlMatrix) m = gen_ok (cases[c].spec, TL_DTYPE_FLOAT64, cases[c].rows,
                                       cases[c].cols, 21);
      if (cases[c].rank == 0)
        {
          g_assert_cmpfloat (tl_matrix_norm (m, TL_NORM_MAX), ==, 0.0);
          continue;
        }
      g_assert_cmpuint (numerical_rank (m, 1e-10), ==, cases[c].rank);
      g_autoptr (TlMatrix) m32 = gen_ok (cases[c].spec, TL_DTYPE_FLOAT32, cases[c].rows,
                                         cases[c].cols, 21);
      g_assert_cmpuint (numerical_rank (m32, 1e-4), ==, cases[c].rank);
    }
  gen_fails ("rank-deficient:rank=11", TL_DTYPE_FLOAT64, 10, 12, TL_ERROR_INVALID, "10");
  gen_fails ("rank-deficient:rank=2.5", TL_DTYPE_FLOAT64, 10, 12, TL_ERROR_INVALID, "whole");
  gen_fails ("rank-deficient:rank=-2", TL_DTYPE_FLOAT64, 10, 12, TL_ERROR_INVALID, "rank");
}

static void
test_zero_column (void)
{
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) last = gen_ok ("singular-zero-column", d, 6, 6, 2);
      g_autoptr (TlMatrix) third = gen_ok ("singular-zero-column:col=2", d, 5, 7, 2);
      for (gsize i = 0; i < 6; i++)
        g_assert_cmpfloat (tl_matrix_get (last, i, 5), ==, 0.0);
      for (gsize i = 0; i < 5; i++)
        g_assert_cmpfloat (tl_matrix_get (third, i, 2), ==, 0.0);
      /* the other columns are not zero */
      for (gsize j = 0; j < 5; j++)
        {
          double col_norm = 0;
          for (gsize i = 0; i < 6; i++)
            col_norm += fabs (tl_matrix_get (last, i, j));
          g_assert_cmpfloat (col_norm, >, 0.0);
        }
      if (d != TL_DTYPE_INT32)
        g_assert_cmpuint (numerical_rank (last, 1e-6), ==, 5);
    }
  gen_fails ("singular-zero-column:col=7", TL_DTYPE_FLOAT64, 5, 7, TL_ERROR_INVALID, "col");
}

static void
test_random_ranges (void)
{
  /* random-int: inclusive, every value hit (seed 004's 0..4) */
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) m = gen_ok ("random-int", d, 100, 100, 9);
      int counts[5] = { 0 };
      for (gsize i = 0; i < 100; i++)
        for (gsize j = 0; j < 100; j++)
          {
            double v = tl_matrix_get (m, i, j);
            g_assert_cmpfloat (v, ==, floor (v));
            g_assert_cmpfloat (v, >=, 0);
            g_assert_cmpfloat (v, <=, 4);
            counts[(int) v]++;
          }
      for (int v = 0; v < 5; v++)
        g_assert_cmpint (abs (counts[v] - 2000), <, 250);
    }
  g_autoptr (TlMatrix) neg = gen_ok ("random-int:lo=-7,hi=-7", TL_DTYPE_INT32, 3, 3, 9);
  g_assert_cmpfloat (tl_matrix_norm (neg, TL_NORM_MAX), ==, 7.0);
  g_autoptr (TlMatrix) wide = gen_ok ("random-int:lo=-2147483648,hi=2147483647",
                                      TL_DTYPE_INT32, 50, 50, 9);
  TlMatrixStats st;
  tl_matrix_stats (wide, &st);
  g_assert_cmpfloat (st.min, <, -1e9);
  g_assert_cmpfloat (st.max, >, 1e9);

  /* random-uniform: [lo, hi) in both float dtypes, even when hi rounds */
  for (int d = TL_DTYPE_FLOAT32; d <= TL_DTYPE_FLOAT64; d++)
    {
      g_autoptr (TlMatrix) m = gen_ok ("random-uniform:lo=2, hi=2.0000001", d, 200, 200, 1);
      tl_matrix_stats (m, &st);
      g_assert_cmpfloat (st.min, >=, 2.0);
      g_assert_cmpfloat (st.max, <, 2.0000001);
      g_autoptr (TlMatrix) u = gen_ok ("random-uniform:lo=-5,hi=3", d, 300, 300, 1);
      tl_matrix_stats (u, &st);
      g_assert_cmpfloat (st.min, >=, -5);
      g_assert_cmpfloat (st.min, <, -4.99);
      g_assert_cmpfloat (st.max, <, 3);
      g_assert_cmpfloat (st.max, >, 2.99);
      g_assert_cmpfloat (fabs (st.mean + 1.0), <, 0.02);
    }

  /* random-normal: mean and standard deviation */
  g_autoptr (TlMatrix) z = gen_ok ("random-normal:mean=3,sd=0.5", TL_DTYPE_FLOAT64, 400, 400, 5);
  tl_matrix_stats (z, &st);
  g_assert_cmpfloat (fabs (st.mean - 3.0), <, 0.01);
  double var = 0;
  for (gsize i = 0; i < 400; i++)
    for (gsize j = 0; j < 400; j++)
      var += (tl_matrix_get (z, i, j) - st.mean) * (tl_matrix_get (z, i, j) - st.mean);
  g_assert_cmpfloat (fabs (sqrt (var / (400 * 400)) - 0.5), <, 0.005);
}

static void
test_bad_specs (void)
{
  gen_fails ("no-such-thing", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "random-uniform");
  gen_fails ("", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "hilbert");
  gen_fails ("random-uniform:low=1", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "lo, hi");
  gen_fails ("random-uniform:lo=abc", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "abc");
  gen_fails ("random-uniform:lo=", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "lo");
  gen_fails ("random-uniform:lo=nan", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "finite");
  gen_fails ("random-uniform:lo=1,lo=2", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "twice");
  gen_fails ("random-uniform:lo", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "key=value");
  gen_fails ("random-uniform:lo=1,hi=1", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "lo < hi");
  gen_fails ("random-uniform", TL_DTYPE_INT32, 3, 3, TL_ERROR_UNSUPPORTED, "random-int");
  gen_fails ("random-int:lo=5,hi=4", TL_DTYPE_INT32, 3, 3, TL_ERROR_INVALID, "lo ≤ hi");
  gen_fails ("random-int:hi=1e10", TL_DTYPE_INT32, 3, 3, TL_ERROR_INVALID, "int32");
  gen_fails ("random-normal:sd=-1", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "sd");
  gen_fails ("ones:value=2", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "no parameters");
  gen_fails ("diagonally-dominant:margin=0", TL_DTYPE_FLOAT64, 3, 3, TL_ERROR_INVALID, "margin");
  gen_fails ("identity", TL_DTYPE_FLOAT64, 3, 4, TL_ERROR_SHAPE, "3×4");
  gen_fails ("hilbert", TL_DTYPE_FLOAT64, 2, 1, TL_ERROR_SHAPE, "square");
  gen_fails ("tridiagonal", TL_DTYPE_FLOAT64, 5, 6, TL_ERROR_SHAPE, "square");
  /* sizes beyond the cap are refused before anything is allocated */
  gen_fails ("ones", TL_DTYPE_FLOAT64, G_MAXUINT32, G_MAXUINT32, TL_ERROR_TOO_LARGE, NULL);
  gen_fails ("zeros", TL_DTYPE_FLOAT32, G_MAXSIZE, 2, TL_ERROR_TOO_LARGE, NULL);

  /* whitespace and case are forgiven */
  g_autoptr (TlMatrix) m = gen_ok (" Random-Uniform : lo = 0 , hi = 1 ", TL_DTYPE_FLOAT64, 3, 3, 1);
  g_autoptr (TlMatrix) ref = gen_ok ("random-uniform:lo=0,hi=1", TL_DTYPE_FLOAT64, 3, 3, 1);
  g_assert_true (tl_matrix_equal (m, ref));
  g_autoptr (TlMatrix) ones = gen_ok ("ones:", TL_DTYPE_INT32, 2, 2, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/generate/all", test_all_generators);
  g_test_add_func ("/generate/reference-values", test_reference_values);
  g_test_add_func ("/generate/constant", test_constant_generators);
  g_test_add_func ("/generate/hilbert", test_hilbert);
  g_test_add_func ("/generate/diagonally-dominant", test_diagonally_dominant);
  g_test_add_func ("/generate/condition", test_condition);
  g_test_add_func ("/generate/rank-deficient", test_rank_deficient);
  g_test_add_func ("/generate/zero-column", test_zero_column);
  g_test_add_func ("/generate/random-ranges", test_random_ranges);
  g_test_add_func ("/generate/bad-specs", test_bad_specs);
  return g_test_run ();
}
