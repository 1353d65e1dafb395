/* test-lu.c — the Gauss ladder against LAPACK's own test ratios.
 *
 * For LAPACK's eleven matrix types of xCHKGE (diagonal, upper and lower
 * triangular, random with condition 2, first / last / trailing columns
 * zero, condition √(0.1/ε) and 0.1/ε, scaled near underflow and
 * overflow), every CPU kernel, both dtypes, sizes 0…200 and block sizes
 * 1, 3, 20 and the default:
 *   ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30          (xGET01)
 *   ‖B − AX‖₁ / (‖A‖₁ ‖X‖₁ ε) < 30 per column of B (xGET02)
 *   info = the first zero column for the zero-column types.
 */
#include "lu/tl-lu.h"
#include "lu/tl-solve.h"
#include "gen/tl-generate.h"
#include "core/tl-error.h"
#include "lu-test-util.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define THRESH 30.0

static const gsize sizes[] = { 0, 1, 2, 3, 5, 10, 50, 200 };

static double
eps_of (TlDtype d)
{
  return d == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
}

/* LAPACK type number 1..11 → matrix, with expected info (izero). */
static TlMatrix *
make_type (int type, TlDtype dtype, gsize n, guint64 seed, gsize *out_izero)
{
  g_autoptr (GError) error = NULL;
  double eps = eps_of (dtype);
  double kappa = 2.0;
  if (type == 8)
    kappa = sqrt (0.1 / eps);
  else if (type == 9)
    kappa = 0.1 / eps;
  /* the generator knows a 1×1 matrix has condition 1 */
  g_autofree char *spec = n > 1 ? g_strdup_printf ("condition:kappa=%.17g", kappa)
                                : g_strdup ("random-uniform:lo=0.5,hi=1");
  TlMatrix *a = tl_generate (spec, TL_DTYPE_FLOAT64, n, n, seed, &error);
  g_assert_no_error (error);
  *out_izero = 0;
  for (gsize i = 0; i < n; i++)
    for (gsize j = 0; j < n; j++)
      {
        double v = tl_matrix_get (a, i, j);
        if ((type == 1 && i != j) || (type == 2 && i > j) || (type == 3 && i < j))
          v = 0.0;
        tl_matrix_set (a, i, j, v);
      }
  if (n && (type == 1 || type == 2 || type == 3))
    /* keep triangular types well conditioned: a dominant diagonal */
    for (gsize i = 0; i < n; i++)
      tl_matrix_set (a, i, i, (i % 2 ? -1.0 : 1.0) * (2.0 + (double) i / n));
  gsize izero = 0;
  if (type == 5)
    izero = 1;
  else if (type == 6)
    izero = n;
  else if (type == 7)
    izero = n / 2 + 1;
  if (n && izero)
    {
      gsize last = type == 5 ? 1 : n;
      for (gsize j = izero - 1; j < last; j++)
        for (gsize i = 0; i < n; i++)
          tl_matrix_set (a, i, j, 0.0);
      *out_izero = izero;
    }
  if (type == 10 || type == 11)
    {
      /* LAPACK's xLATB4: 0.25·safmin/ε and its inverse */
      double safmin = dtype == TL_DTYPE_FLOAT32 ? FLT_MIN : DBL_MIN;
      double small = 0.25 * safmin / eps, scale = type == 10 ? small : 1.0 / small;
      for (gsize i = 0; i < n; i++)
        for (gsize j = 0; j < n; j++)
          tl_matrix_set (a, i, j, tl_matrix_get (a, i, j) * scale);
    }
  TlMatrix *out = tl_matrix_convert (a, dtype, &error);
  g_assert_no_error (error);
  tl_matrix_unref (a);
  return out;
}

/* xGET01 */
static double
factor_ratio (const TlMatrix *a, const TlLuResult *r)
{
  gsize n = a->cols;
  double anorm = tl_matrix_norm (a, TL_NORM_ONE);
  if (n == 0 || a->rows == 0)
    return 0.0;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) pa = tl_matrix_convert (a, TL_DTYPE_FLOAT64, &error);
  tl_lu_apply_pivots (pa, r->ipiv, r->n_ipiv, FALSE);
  g_autoptr (TlMatrix) lu = tl_lu_reconstruct (r, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < n; j++)
      tl_matrix_set (pa, i, j, tl_matrix_get (pa, i, j) - tl_matrix_get (lu, i, j));
  double resid = tl_matrix_norm (pa, TL_NORM_ONE);
  if (anorm == 0.0)
    return resid == 0.0 ? 0.0 : 1.0 / eps_of (a->dtype);
  /* scale in two steps as xGET01 does, so tiny norms don't underflow */
  return ((resid / (double) n) / anorm) / eps_of (a->dtype);
}

typedef struct
{
  const char *kernel;
  gsize block;
  const char *gemm;
} Config;

static const Config configs[] = {
  { "lu-cpu-unblocked", 0, NULL },
  { "lu-cpu-blocked", 1, NULL },
  { "lu-cpu-blocked", 3, NULL },
  { "lu-cpu-blocked", 20, NULL },
  { "lu-cpu-blocked", 0, NULL },          /* the default block */
  { "lu-cpu-blocked", 20, "cpu-blocked" }, /* Tilelab's GEMM for the update */
  { "lu-lapack", 0, NULL },
};

static void
test_lapack_types (void)
{
  g_autoptr (GError) error = NULL;
  guint checked = 0;
  for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
    for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
      for (int type = 1; type <= 11; type++)
        {
          gsize n = sizes[si], izero = 0;
          if (type >= 5 && type <= 7 && n == 0)
            continue;
          g_autoptr (TlMatrix) a = make_type (type, dt, n, 1000 + 17 * si + type, &izero);
          /* B: random n×3 right-hand sides, never zeros */
          g_autoptr (TlMatrix) b = tl_generate ("random-uniform:lo=0.5,hi=2", dt, n, 3,
                                                99 + type, &error);
          g_assert_no_error (error);
          if (type == 10 || type == 11)
            {
              double s = tl_matrix_norm (a, TL_NORM_MAX);
              for (gsize i = 0; i < n; i++)
                for (gsize j = 0; j < 3; j++)
                  tl_matrix_set (b, i, j, tl_matrix_get (b, i, j) * s);
            }
          for (guint ci = 0; ci < G_N_ELEMENTS (configs); ci++)
            {
              if (n == 200 && configs[ci].block == 1)
                continue;
              TlLuOptions opt = { 0 };
              opt.kernel_id = configs[ci].kernel;
              opt.block_size = configs[ci].block;
              opt.gemm = configs[ci].gemm;
              opt.pivoting = TL_PIVOTING_PARTIAL;
              g_autoptr (TlLuResult) r = NULL;
              g_assert_true (tl_lu_factor_full (&opt, a, NULL, NULL, &r, &error));
              g_assert_no_error (error);
              g_assert_cmpuint (r->n_ipiv, ==, n);
              g_assert_cmpuint (r->info, ==, izero);
              g_assert_false (r->breakdown);
              double fr = factor_ratio (a, r);
              if (!(fr < THRESH))
                g_error ("%s b=%zu %s n=%zu type %d: ‖PA−LU‖ ratio %g", configs[ci].kernel,
                         configs[ci].block, tl_dtype_name (dt), n, type, fr);
              if (izero == 0)
                {
                  g_autoptr (TlMatrix) x = tl_lu_solve (r, b, &error);
                  g_assert_no_error (error);
                  double sr = lu_test_solve_ratio (a, x, b);
                  if (!(sr < THRESH))
                    g_error ("%s b=%zu %s n=%zu type %d: ‖B−AX‖ ratio %g", configs[ci].kernel,
                             configs[ci].block, tl_dtype_name (dt), n, type, sr);
                }
              else
                {
                  g_autoptr (TlMatrix) x = tl_lu_solve (r, b, &error);
                  g_assert_error (error, TL_ERROR, TL_ERROR_SINGULAR);
                  g_clear_error (&error);
                  g_assert_null (x);
                  g_assert_cmpint (r->det_sign, ==, 0);
                  g_assert_cmpfloat (r->det, ==, 0.0);
                }
              checked++;
            }
        }
  g_test_message ("%u factorisations checked", checked);
}

/* rectangular: tall and wide, ratio and info */
static void
test_rectangular (void)
{
  g_autoptr (GError) error = NULL;
  const gsize shapes[][2] = { { 7, 3 }, { 3, 7 }, { 60, 25 }, { 25, 60 }, { 1, 5 }, { 5, 1 } };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
      {
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, shapes[s][0], shapes[s][1],
                                              7 + s, &error);
        g_assert_no_error (error);
        for (guint ci = 0; ci < G_N_ELEMENTS (configs); ci++)
          {
            g_autoptr (TlLuResult) r = NULL;
            TlLuOptions opt = { configs[ci].kernel, configs[ci].block, TL_PIVOTING_PARTIAL,
                                configs[ci].gemm, 0 };
            g_assert_true (tl_lu_factor_full (&opt, a, NULL, NULL, &r, &error));
            g_assert_cmpuint (r->info, ==, 0);
            g_assert_cmpfloat (factor_ratio (a, r), <, THRESH);
            g_assert_cmpint (r->det_sign, ==, 0); /* no determinant for rectangles */
            g_assert_true (isnan (r->log_abs_det));
          }
      }
}

/* determinant: against LAPACK's log-det, a diagonal with known det, 0 when singular */
static void
test_determinant (void)
{
  g_autoptr (GError) error = NULL;
  for (gsize n = 1; n <= 120; n += 17)
    for (int dt = TL_DTYPE_FLOAT32; dt <= TL_DTYPE_FLOAT64; dt++)
      {
        g_autoptr (TlMatrix) a = tl_generate ("random-normal", dt, n, n, 500 + n, &error);
        g_autoptr (TlLuResult) ref = NULL;
        g_assert_true (tl_lu_factor ("lu-lapack", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &ref, &error));
        for (guint ci = 0; ci < G_N_ELEMENTS (configs); ci++)
          {
            g_autoptr (TlLuResult) r = NULL;
            TlLuOptions opt = { configs[ci].kernel, configs[ci].block, TL_PIVOTING_PARTIAL,
                                configs[ci].gemm, 0 };
            g_assert_true (tl_lu_factor_full (&opt, a, NULL, NULL, &r, &error));
            g_assert_cmpint (r->det_sign, ==, ref->det_sign);
            double tol = (dt == TL_DTYPE_FLOAT32 ? 1e-4 : 1e-11) * (n + 1);
            g_assert_cmpfloat (fabs (r->log_abs_det - ref->log_abs_det), <, tol);
            if (r->det_finite)
              g_assert_cmpfloat (fabs (r->det - ref->det), <=, tol * fabs (ref->det));
          }
      }

  /* a diagonal matrix with entries 10^±300: det = 1e6 exactly in log form,
   * though the running product would overflow */
  gsize n = 8;
  g_autoptr (TlMatrix) d = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, n, &error);
  double expect_log = 0.0;
  for (gsize i = 0; i < n; i++)
    {
      double v = (i % 2 ? 1e-300 : 1e300) * (i + 1) * (i == 3 ? -1 : 1);
      tl_matrix_set (d, (i + 1) % n, i, v); /* a cyclic shift: one permutation of odd parity? */
      expect_log += log (fabs (v));
    }
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", d, 3, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  /* cyclic shift of 8 = 7 transpositions (odd), one negative entry: +1 */
  g_assert_cmpint (r->det_sign, ==, 1);
  g_assert_cmpfloat (fabs (r->log_abs_det - expect_log), <, 1e-12 * fabs (expect_log) + 1e-12);
  g_assert_true (r->det_finite);
  g_assert_cmpfloat (fabs (r->det - exp (expect_log)), <, 1e-10 * exp (expect_log));

  /* 300 × diag(1e10): det = 1e3000, not representable; sign and log are */
  g_autoptr (TlMatrix) big = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, 300, 300, &error);
  for (gsize i = 0; i < 300; i++)
    tl_matrix_set (big, i, i, i == 7 ? -1e10 : 1e10);
  g_autoptr (TlLuResult) rb = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", big, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &rb, &error));
  g_assert_cmpint (rb->det_sign, ==, -1);
  g_assert_false (rb->det_finite);
  g_assert_cmpfloat (fabs (rb->log_abs_det - 3000 * log (10.0)), <, 1e-9);

  /* singular: det 0, log −inf */
  g_autoptr (TlMatrix) s = tl_generate ("rank-deficient:rank=4", TL_DTYPE_FLOAT64, 6, 6, 3, &error);
  for (gsize j = 0; j < 6; j++)
    tl_matrix_set (s, 2, j, 0.0); /* a zero row makes it exactly singular in LU too */
  for (gsize i = 0; i < 6; i++)
    tl_matrix_set (s, i, 4, 0.0);
  g_autoptr (TlLuResult) rs = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", s, 2, TL_PIVOTING_PARTIAL, NULL, NULL, &rs, &error));
  g_assert_cmpuint (rs->info, >, 0);
  g_assert_cmpint (rs->det_sign, ==, 0);
  g_assert_cmpfloat (rs->det, ==, 0.0);
  g_assert_true (isinf (rs->log_abs_det) && rs->log_abs_det < 0);
}

/* seed 004 §3.1.2: zero rows sink to the bottom of U; as in LAPACK the
 * factorisation completes with info = the first zero pivot */
static void
test_zero_rows (void)
{
  g_autoptr (GError) error = NULL;
  for (guint ci = 0; ci < G_N_ELEMENTS (configs); ci++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 9, 9, 90 + ci, &error);
      for (gsize j = 0; j < 9; j++)
        {
          tl_matrix_set (a, 2, j, 0.0);
          tl_matrix_set (a, 5, j, 0.0);
        }
      TlLuOptions opt = { configs[ci].kernel, configs[ci].block, TL_PIVOTING_PARTIAL, configs[ci].gemm, 0 };
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor_full (&opt, a, NULL, NULL, &r, &error));
      g_assert_cmpuint (r->info, ==, 8); /* rank 7: pivots 8 and 9 are zero */
      for (gsize i = 7; i < 9; i++)
        for (gsize j = i; j < 9; j++)
          g_assert_cmpfloat (tl_matrix_get (r->lu, i, j), ==, 0.0);
      g_assert_cmpfloat (factor_ratio (a, r), <, THRESH);
      g_assert_cmpuint (tl_rank (a, -1), ==, 7);
      g_assert_cmpint (r->det_sign, ==, 0);
    }
}

/* the Hilbert matrix: det H6 = 1/186313420339200000 ≈ 5.3673e-18 */
static void
test_hilbert (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) h = tl_generate ("hilbert", TL_DTYPE_FLOAT64, 6, 6, 0, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", h, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  double exact = 1.0 / 186313420339200000.0;
  g_assert_cmpint (r->det_sign, ==, 1);
  g_assert_cmpfloat (fabs (r->det - exact) / exact, <, 1e-8);
  g_assert_cmpfloat (fabs (r->log_abs_det - log (exact)), <, 1e-8);
}

/* LAPACK's condition estimate from the packed factors: exact on a diagonal
 * matrix, close to κ₁(H6) = 2.907e7 (MATLAB's cond(hilb(6), 1)), 0 for an
 * exactly singular one, in both dtypes */
static void
test_rcond (void)
{
  g_autoptr (GError) error = NULL;
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT64, TL_DTYPE_FLOAT32 };
  for (guint t = 0; t < 2; t++)
    {
      g_autoptr (TlMatrix) d = tl_matrix_new_zeroed (dtypes[t], 3, 3, &error);
      tl_matrix_set (d, 0, 0, 4.0);
      tl_matrix_set (d, 1, 1, -2.0);
      tl_matrix_set (d, 2, 2, 1e-3);
      g_autoptr (TlLuResult) rd = NULL;
      g_assert_true (tl_lu_factor ("lu-cpu-blocked", d, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &rd, &error));
      g_assert_cmpfloat (fabs (tl_lu_rcond (rd, tl_matrix_norm (d, TL_NORM_ONE)) - 1e-3 / 4.0), <, 1e-9);

      tl_matrix_set (d, 2, 2, 0.0);
      g_autoptr (TlLuResult) rs = NULL;
      g_assert_true (tl_lu_factor ("lu-cpu-blocked", d, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &rs, &error));
      g_assert_cmpuint (rs->info, ==, 3);
      g_assert_cmpfloat (tl_lu_rcond (rs, tl_matrix_norm (d, TL_NORM_ONE)), ==, 0.0);
    }
  g_autoptr (TlMatrix) h = tl_generate ("hilbert", TL_DTYPE_FLOAT64, 6, 6, 0, &error);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", h, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  double rc = tl_lu_rcond (r, tl_matrix_norm (h, TL_NORM_ONE));
  g_assert_cmpfloat (rc, >=, 0.9 / 2.907e7);
  g_assert_cmpfloat (rc, <=, 3.0 / 2.907e7);
}

/* pivoting none: fine on diagonally dominant matrices, growth and
 * breakdown where it must fail */
static void
test_no_pivoting (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) dd = tl_generate ("diagonally-dominant", TL_DTYPE_FLOAT64, 40, 40, 5, &error);
  const char *kernels[] = { "lu-cpu-unblocked", "lu-cpu-blocked" };
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor (kernels[k], dd, 7, TL_PIVOTING_NONE, NULL, NULL, &r, &error));
      g_assert_cmpuint (r->n_swaps, ==, 0);
      g_assert_cmpfloat (factor_ratio (dd, r), <, THRESH);
    }

  /* a tiny pivot: growth ~ 1/δ without pivoting, ≤ 2 with it */
  double data[] = { 1e-12, 1, 1, 1 };
  g_autoptr (TlMatrix) t = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, &error);
  for (int i = 0; i < 4; i++)
    tl_matrix_set (t, i / 2, i % 2, data[i]);
  g_autoptr (TlLuResult) rn = NULL, rp = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", t, 0, TL_PIVOTING_NONE, NULL, NULL, &rn, &error));
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", t, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &rp, &error));
  g_assert_cmpfloat (rn->growth, >, 1e11);
  g_assert_cmpfloat (rp->growth, <=, 2.0);

  /* [[0 1] [1 0]]: no pivot without a swap: breakdown, info 1 */
  g_autoptr (TlMatrix) z = tl_matrix_new_zeroed (TL_DTYPE_FLOAT32, 2, 2, &error);
  tl_matrix_set (z, 0, 1, 1);
  tl_matrix_set (z, 1, 0, 1);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor (kernels[k], z, 1, TL_PIVOTING_NONE, NULL, NULL, &r, &error));
      g_assert_true (r->breakdown);
      g_assert_cmpuint (r->info, ==, 1);
      g_assert_false (r->det_finite);
    }
  /* LAPACK cannot run without pivoting: a clear error */
  g_autoptr (TlLuResult) rl = NULL;
  g_assert_false (tl_lu_factor ("lu-lapack", z, 0, TL_PIVOTING_NONE, NULL, NULL, &rl, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}

static void
test_bad_input (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 5, 5, 1, &error);
  tl_matrix_set (a, 3, 1, NAN);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_false (tl_lu_factor ("lu-cpu-blocked", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "row 4, column 2"));
  g_clear_error (&error);
  tl_matrix_set (a, 3, 1, -INFINITY);
  g_assert_false (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_assert_nonnull (strstr (error->message, "-Inf"));
  g_clear_error (&error);

  g_autoptr (TlMatrix) i32 = tl_generate ("random-int", TL_DTYPE_INT32, 4, 4, 1, &error);
  g_assert_false (tl_lu_factor ("lu-cpu-blocked", i32, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  g_assert_false (tl_lu_factor ("lu-nonsense", a, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);

  /* the solver: right-hand sides that don't match */
  g_autoptr (TlMatrix) ok = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 5, 5, 2, &error);
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", ok, 0, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
  g_autoptr (TlMatrix) b = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 4, 2, 2, &error);
  g_autoptr (TlMatrix) x = tl_lu_solve (r, b, &error);
  g_assert_null (x);
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
}

/* cancellation is an ordinary outcome: G_IO_ERROR_CANCELLED, no result */
static void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 100, 100, 1, &error);
  g_autoptr (GCancellable) c = g_cancellable_new ();
  g_cancellable_cancel (c);
  const char *kernels[] = { "lu-cpu-unblocked", "lu-cpu-blocked" };
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (TlLuResult) r = NULL;
      g_assert_false (tl_lu_factor (kernels[k], a, 16, TL_PIVOTING_PARTIAL, NULL, c, &r, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (r);
      g_clear_error (&error);
    }
}

/* the registry: every row is complete and findable; GPU rows say no
 * device (or run) rather than crash */
static void
test_registry (void)
{
  g_assert_cmpuint (tl_lu_kernel_count (), >=, 7);
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_get (i);
      g_assert_nonnull (k->title);
      g_assert_nonnull (k->lesson);
      g_assert_true (k->dtypes != 0);
      g_assert_true (tl_lu_kernel_find (k->id) == k);
      g_autofree char *path = g_build_filename (g_getenv ("TL_SOURCE_DIR") ? g_getenv ("TL_SOURCE_DIR") : ".",
                                                k->source_path, NULL);
      if (k->backend == TL_BACKEND_CPU)
        g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

/* The GPU rows are the door's (gpu/lu/tl-lu-ladder.h), column for column;
 * the columns that replaced comparisons of ids say what the ids did. */
static void
test_registry_columns (void)
{
  guint n_gpu = 0;
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_get (i);
      g_assert_cmpint (k->blocked, ==, k->default_block > 0);
      if (k->backend != TL_BACKEND_GPU)
        continue;
      const TlGpuLuKernelInfo *g = tl_gpu_lu_kernel_find (k->id);
      g_assert_nonnull (g);
      n_gpu++;
      g_assert_cmpint (k->number, ==, g->number);
      g_assert_cmpstr (k->title, ==, g->title);
      g_assert_cmpuint (k->dtypes, ==, g->dtypes);
      g_assert_cmpint (k->reference, ==, g->reference != 0);
      g_assert_cmpuint (k->default_block, ==, (gsize) g->default_block);
      g_assert_cmpint (k->no_pivoting, ==, g->no_pivoting != 0);
      g_assert_cmpint (k->records_steps, ==, g->records_steps != 0);
      g_assert_cmpint (k->phases, ==, g->phases != 0);
      g_assert_cmpuint (k->fastest_from, ==, (gsize) g->fastest_from);
    }
  g_assert_cmpuint (n_gpu, ==, (guint) tl_gpu_lu_kernel_count ());
  /* the rungs that record steps, CPU and GPU (the Gauss page offers these) */
  const char *recording[] = { "lu-cpu-unblocked", "lu-cpu-blocked", "lu-01-percolumn",
                              "lu-02-blocked", "lu-03-tuned", "lu-04-persistent",
                              "lu-05-cluster", "lu-06-fused" };
  guint n_recording = 0;
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    n_recording += tl_lu_kernel_get (i)->records_steps;
  g_assert_cmpuint (n_recording, ==, G_N_ELEMENTS (recording));
  for (gsize i = 0; i < G_N_ELEMENTS (recording); i++)
    g_assert_true (tl_lu_kernel_find (recording[i])->records_steps);
  g_assert_true (tl_lu_kernel_find ("lu-cpu-blocked")->phases);
  g_assert_true (tl_lu_kernel_find ("lu-02-blocked")->phases);
  g_assert_true (tl_lu_kernel_find ("lu-03-tuned")->phases);
  g_assert_true (tl_lu_kernel_find ("lu-04-persistent")->phases);
  g_assert_true (tl_lu_kernel_find ("lu-05-cluster")->phases);
  g_assert_false (tl_lu_kernel_find ("lu-cusolver")->phases);
  g_assert_false (tl_lu_kernel_find ("lu-cusolver")->records_steps);
  g_assert_cmpuint (tl_lu_kernel_find ("lu-cpu-blocked")->default_block, ==, TL_LU_DEFAULT_BLOCK);
  g_assert_cmpuint (tl_lu_kernel_find ("lu-02-blocked")->default_block, ==, 128);
}

/* `--kernel gpu` is decided by the ladder's fastest_from column: at every
 * size one own rung (never the reference) that records its steps, the one
 * with the largest fastest_from at or below the size; the H200 table
 * (docs/perf/lu-h200-*) puts lu-06-fused at the small end and lu-05-cluster
 * at the large one. */
static void
test_fastest_gpu (void)
{
  const gsize sizes[] = { 0, 1, 2, 255, 256, 1000, 2048, 3000, 4096, 4097, 8192, 16384, 100000 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      const char *id = tl_lu_fastest_gpu_kernel (sizes[s], sizes[s]);
      g_assert_nonnull (id);
      const TlLuKernelInfo *k = tl_lu_kernel_find (id);
      g_assert_true (k->backend == TL_BACKEND_GPU && !k->reference && k->records_steps);
      g_assert_cmpuint (k->fastest_from, <=, MAX (sizes[s], 1));
      for (guint i = 0; i < tl_lu_kernel_count (); i++)
        {
          const TlLuKernelInfo *o = tl_lu_kernel_get (i);
          g_assert_true (o->fastest_from <= k->fastest_from || o->fastest_from > MAX (sizes[s], 1));
        }
    }
  g_assert_cmpstr (tl_lu_fastest_gpu_kernel (256, 256), ==, "lu-06-fused");
  g_assert_cmpstr (tl_lu_fastest_gpu_kernel (1000, 1000), ==, "lu-06-fused");
  g_assert_cmpstr (tl_lu_fastest_gpu_kernel (16384, 16384), ==, "lu-05-cluster");
  /* a rectangle goes by its larger side */
  g_assert_cmpstr (tl_lu_fastest_gpu_kernel (16384, 256), ==, "lu-05-cluster");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lu/lapack-types", test_lapack_types);
  g_test_add_func ("/lu/rectangular", test_rectangular);
  g_test_add_func ("/lu/determinant", test_determinant);
  g_test_add_func ("/lu/hilbert", test_hilbert);
  g_test_add_func ("/lu/rcond", test_rcond);
  g_test_add_func ("/lu/zero-rows", test_zero_rows);
  g_test_add_func ("/lu/no-pivoting", test_no_pivoting);
  g_test_add_func ("/lu/bad-input", test_bad_input);
  g_test_add_func ("/lu/registry", test_registry);
  g_test_add_func ("/lu/registry-columns", test_registry_columns);
  g_test_add_func ("/lu/fastest-gpu", test_fastest_gpu);
  g_test_add_func ("/lu/cancel", test_cancel);
  return g_test_run ();
}
