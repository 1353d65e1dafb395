/* test-gfp.c — exact elimination over GF(p) against exactly known answers,
 * and the floating-point paths against it. */
#include "lu/tl-gfp.h"
#include "lu/tl-lu-recorder.h"
#include "gen/tl-generate.h"
#include "core/tl-error.h"
#include "record/tl-gauss-record.h"

#include <math.h>
#include <string.h>

#define P31 2147483647u
#define P_SMALL 1000003u

static TlGfpMatrix *
gfp_rows (gsize m, gsize n, guint32 p, const gint64 *v)
{
  TlGfpMatrix *a = tl_gfp_matrix_new (m, n, p, NULL);
  for (gsize i = 0; i < m * n; i++)
    a->data[i] = tl_gfp_from_int (v[i], p);
  return a;
}

static void
test_arith (void)
{
  g_assert_true (tl_gfp_is_prime (2));
  g_assert_true (tl_gfp_is_prime (P31));
  g_assert_true (tl_gfp_is_prime (P_SMALL));
  g_assert_true (tl_gfp_is_prime (8388593)); /* largest prime below 2²³ */
  g_assert_false (tl_gfp_is_prime (1));
  g_assert_false (tl_gfp_is_prime (2147483649u));
  g_assert_false (tl_gfp_is_prime (3215031751u)); /* strong pseudoprime to 2, 3, 5, 7 */
  g_assert_false (tl_gfp_is_prime (25326001));    /* strong pseudoprime to 2, 3, 5 */
  for (guint32 a = 1; a < 2000; a += 37)
    g_assert_cmpuint (tl_gfp_mul (a, tl_gfp_inv (a, P31), P31), ==, 1);
  g_assert_cmpuint (tl_gfp_mul (P31 - 1, P31 - 1, P31), ==, 1); /* (−1)² */
  g_assert_cmpuint (tl_gfp_from_int (-3, 7), ==, 4);
  g_assert_cmpint (tl_gfp_centered (P31 - 5, P31), ==, -5);

  g_autoptr (GError) error = NULL;
  g_assert_false (tl_gfp_check_modulus (91, &error)); /* 7·13 */
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (tl_gfp_check_modulus (4294967311ull, &error)); /* a prime above 2³¹ */
}

static void
test_det_known (void)
{
  const gint64 a2[] = { 2, 1, 1, 3 };           /* det 5 */
  const gint64 a3[] = { 0, 2, 1, 3, -1, 2, 1, 1, 4 }; /* det = 0(−4−2) − 2(12−2) + 1(3+1) = −16 */
  g_autoptr (TlGfpMatrix) m2 = gfp_rows (2, 2, P31, a2);
  g_autoptr (TlGfpMatrix) m3 = gfp_rows (3, 3, P31, a3);
  g_assert_cmpuint (tl_gfp_det (m2), ==, 5);
  g_assert_cmpint (tl_gfp_centered (tl_gfp_det (m3), P31), ==, -16);
  /* modulo 5 the first is singular */
  g_autoptr (TlGfpMatrix) m2p5 = gfp_rows (2, 2, 5, a2);
  g_assert_cmpuint (tl_gfp_det (m2p5), ==, 0);
  g_assert_cmpuint (tl_gfp_rank (m2p5), ==, 1);
}

/* Vandermonde: det V(x) = ∏_{i<j} (x_j − x_i), computed independently */
static void
test_vandermonde (void)
{
  const guint32 primes[] = { P31, P_SMALL, 8388593 };
  for (guint pi = 0; pi < G_N_ELEMENTS (primes); pi++)
    for (gsize n = 1; n <= 12; n++)
      {
        guint32 p = primes[pi];
        g_autoptr (TlGfpMatrix) v = tl_gfp_matrix_new (n, n, p, NULL);
        gint64 x[12];
        for (gsize i = 0; i < n; i++)
          x[i] = (gint64) (i * i * 7 + 3 * i + 1) * (i % 2 ? -1 : 1);
        for (gsize i = 0; i < n; i++)
          {
            guint32 xi = tl_gfp_from_int (x[i], p), pw = 1;
            for (gsize j = 0; j < n; j++)
              {
                v->data[i * n + j] = pw;
                pw = tl_gfp_mul (pw, xi, p);
              }
          }
        guint32 expect = 1;
        for (gsize i = 0; i < n; i++)
          for (gsize j = i + 1; j < n; j++)
            expect = tl_gfp_mul (expect, tl_gfp_from_int (x[j] - x[i], p), p);
        g_assert_cmpuint (tl_gfp_det (v), ==, expect);
      }
}

/* Hilbert scaled to integers: det(L·H_n) = Lⁿ·det H_n with, by Cauchy,
 * det H_n = (∏_{i<j} (j − i))² / ∏_{i,j} (i + j − 1), i, j = 1..n */
static void
test_hilbert_scaled (void)
{
  for (gsize n = 1; n <= 8; n++)
    {
      guint32 p = P31;
      gint64 L = 1; /* lcm(1 … 2n−1) */
      for (gint64 k = 2; k <= (gint64) (2 * n - 1); k++)
        {
          gint64 a = L, b = k;
          while (b)
            {
              gint64 t = a % b;
              a = b;
              b = t;
            }
          L = L / a * k;
        }
      g_autoptr (TlGfpMatrix) h = tl_gfp_matrix_new (n, n, p, NULL);
      for (gsize i = 0; i < n; i++)
        for (gsize j = 0; j < n; j++)
          h->data[i * n + j] = tl_gfp_from_int (L / (gint64) (i + j + 1), p);
      guint32 num = 1, den = 1;
      for (gsize i = 1; i <= n; i++)
        for (gsize j = 1; j <= n; j++)
          {
            if (i < j)
              num = tl_gfp_mul (num, (guint32) (j - i), p);
            den = tl_gfp_mul (den, (guint32) (i + j - 1), p);
          }
      guint32 num2 = tl_gfp_pow (num, 2, p);
      guint32 expect = tl_gfp_mul (tl_gfp_mul (num2, tl_gfp_inv (den, p), p),
                                   tl_gfp_pow (tl_gfp_from_int (L, p), n, p), p);
      g_assert_cmpuint (tl_gfp_det (h), ==, expect);
    }
}

/* the float paths agree with the exact ones on integer matrices */
static void
test_float_vs_exact (void)
{
  g_autoptr (GError) error = NULL;
  for (guint seed = 1; seed <= 20; seed++)
    {
      gsize n = 3 + seed % 7;
      g_autoptr (TlMatrix) ai = tl_generate ("random-int:lo=-4,hi=4", TL_DTYPE_INT32, n, n, seed, &error);
      g_assert_no_error (error);
      g_autoptr (TlMatrix) a = tl_matrix_convert (ai, TL_DTYPE_FLOAT64, &error);
      g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (a, P31, &error);
      g_assert_no_error (error);
      g_autoptr (TlLuResult) r = NULL;
      g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 2, TL_PIVOTING_PARTIAL, NULL, NULL, &r, &error));
      /* |det| ≤ Hadamard's bound (4√n)ⁿ < 2³⁰ here: the rounded float
       * determinant is the integer, and its residue must match */
      double d = round (r->det);
      g_assert_cmpfloat (fabs (r->det - d), <, 1e-6 * fmax (1.0, fabs (d)));
      g_assert_cmpint ((gint64) d, ==, tl_gfp_centered (tl_gfp_det (g), P31));
    }

  /* rank: integer F·G with inner dimension r */
  for (gsize r = 1; r <= 6; r++)
    {
      gsize m = 9, n = 7;
      g_autoptr (TlMatrix) f = tl_generate ("random-int:lo=-3,hi=3", TL_DTYPE_FLOAT64, m, r, 5 + r, &error);
      g_autoptr (TlMatrix) gm = tl_generate ("random-int:lo=-3,hi=3", TL_DTYPE_FLOAT64, r, n, 50 + r, &error);
      g_autoptr (TlMatrix) a = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, m, n, &error);
      for (gsize i = 0; i < m; i++)
        for (gsize j = 0; j < n; j++)
          {
            double s = 0;
            for (gsize k = 0; k < r; k++)
              s += tl_matrix_get (f, i, k) * tl_matrix_get (gm, k, j);
            tl_matrix_set (a, i, j, s);
          }
      g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (a, P31, &error);
      gsize rank_exact = tl_gfp_rank (g);
      g_assert_cmpuint (rank_exact, ==, tl_rank (a, -1));
      g_assert_cmpuint (rank_exact, <=, r);
      g_autoptr (TlGfpMatrix) ns = tl_gfp_null_space (g);
      g_assert_cmpuint (rank_exact + ns->cols, ==, n);
      /* A·N ≡ 0 */
      for (gsize i = 0; i < m; i++)
        for (gsize c = 0; c < ns->cols; c++)
          {
            guint32 s = 0;
            for (gsize j = 0; j < n; j++)
              s = tl_gfp_add (s, tl_gfp_mul (g->data[i * n + j], ns->data[j * ns->cols + c], P31), P31);
            g_assert_cmpuint (s, ==, 0);
          }
    }

  /* non-integers are refused with their position */
  g_autoptr (TlMatrix) h = tl_generate ("hilbert", TL_DTYPE_FLOAT64, 3, 3, 0, &error);
  g_autoptr (TlGfpMatrix) bad = tl_gfp_from_matrix (h, P31, &error);
  g_assert_null (bad);
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "row 1, column 2"));
}

static void
test_solve_cases (void)
{
  /* the singular 4×4 system of test-solve, exactly */
  const gint64 a[] = { 1, 1, 1, 1, 2, 2, 2, 2, 1, -1, 0, 0, 0, 0, 1, -1 };
  const gint64 b[] = { 10, 20, 0, 2 };
  const gint64 bad[] = { 10, 21, 0, 2 };
  g_autoptr (TlGfpMatrix) A = gfp_rows (4, 4, P_SMALL, a);
  g_autoptr (TlGfpMatrix) B = gfp_rows (4, 1, P_SMALL, b);
  g_autoptr (TlGfpMatrix) Bad = gfp_rows (4, 1, P_SMALL, bad);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlGfpSolution) s = tl_gfp_solve_space (A, B, &error);
  g_assert_cmpint (s->kind, ==, TL_SOLUTION_INFINITE);
  g_assert_cmpuint (s->rank, ==, 3);
  g_assert_cmpuint (s->null_basis->cols, ==, 1);
  for (gsize i = 0; i < 4; i++)
    {
      guint32 acc = 0, accn = 0;
      for (gsize j = 0; j < 4; j++)
        {
          acc = tl_gfp_add (acc, tl_gfp_mul (A->data[i * 4 + j], s->particular->data[j], P_SMALL), P_SMALL);
          accn = tl_gfp_add (accn, tl_gfp_mul (A->data[i * 4 + j], s->null_basis->data[j], P_SMALL), P_SMALL);
        }
      g_assert_cmpuint (acc, ==, B->data[i]);
      g_assert_cmpuint (accn, ==, 0);
    }
  g_autoptr (TlGfpSolution) n = tl_gfp_solve_space (A, Bad, &error);
  g_assert_cmpint (n->kind, ==, TL_SOLUTION_NONE);
  /* unique: x = (1, 2, 3) for a nonsingular 3×3 */
  const gint64 c[] = { 0, 2, 1, 3, -1, 2, 1, 1, 4 };
  const gint64 cb[] = { 0 * 1 + 2 * 2 + 1 * 3, 3 - 2 + 6, 1 + 2 + 12 };
  g_autoptr (TlGfpMatrix) C = gfp_rows (3, 3, P31, c);
  g_autoptr (TlGfpMatrix) CB = gfp_rows (3, 1, P31, cb);
  g_autoptr (TlGfpSolution) u = tl_gfp_solve_space (C, CB, &error);
  g_assert_cmpint (u->kind, ==, TL_SOLUTION_UNIQUE);
  g_assert_cmpuint (u->particular->data[0], ==, 1);
  g_assert_cmpuint (u->particular->data[1], ==, 2);
  g_assert_cmpuint (u->particular->data[2], ==, 3);
  g_autoptr (TlGfpMatrix) short_b = gfp_rows (2, 1, P31, cb);
  g_autoptr (TlGfpSolution) e = tl_gfp_solve_space (C, short_b, &error);
  g_assert_null (e);
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
}

/* the recorder in exact mode: integer values, det_mod ends at det */
static void
test_record_exact (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) ai = tl_generate ("random-int:lo=0,hi=4", TL_DTYPE_INT32, 12, 12, 77, &error);
  g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (ai, 101, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlGfpLu) lu = tl_gfp_lu (g, rec, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rec->steps->len, ==, 12);
  g_assert_cmpuint (rec->modulus, ==, 101);
  const TlLuStep *last = &g_array_index (rec->steps, TlLuStep, 11);
  g_assert_cmpuint (last->det_mod, ==, lu->det);
  g_assert_cmpuint (lu->det, ==, tl_gfp_det (g));
  for (guint k = 0; k < 12; k++)
    {
      const TlLuStep *s = &g_array_index (rec->steps, TlLuStep, k);
      g_assert_cmpint (s->pivot_row, ==, lu->ipiv[k]);
      for (guint t = 0; t < s->u_row.len; t++)
        {
          double v = s->u_row.data[t];
          g_assert_cmpfloat (v, ==, floor (v));
          g_assert_cmpfloat (v, <, 101);
        }
    }
  /* JSON writes integers and reads back */
  g_autoptr (JsonNode) node = tl_lu_recorder_to_json (rec);
  g_autoptr (TlLuRecorder) back = tl_lu_recorder_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->modulus, ==, 101);
  g_assert_cmpuint (g_array_index (back->steps, TlLuStep, 11).det_mod, ==, lu->det);
}

/* Replaces the first `from` in text by `to`. */
static char *
replace_once (const char *text, const char *from, const char *to)
{
  const char *at = strstr (text, from);
  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

/* A GF(p) recording whose values are not residues, whose modulus or ipiv
 * are out of range, is refused when read: replaying or re-saving it would
 * turn NaN, negative or huge doubles into integers.  Never a warning. */
static void
test_record_hostile (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) ai = tl_generate ("random-int:lo=0,hi=4", TL_DTYPE_INT32, 6, 6, 78, &error);
  g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (ai, 101, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlGfpLu) lu = tl_gfp_lu (g, rec, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (JsonNode) node = tl_lu_recorder_to_json (rec);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr (TlLuRecorder) ok = tl_lu_recorder_from_data (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);

  /* u_row of step 0 starts "…[v," : swap v for each bad value */
  const char *prefix = "\"u_row\":{\"pool\":1,\"data\":[";
  const char *at = strstr (text, prefix);
  g_assert_nonnull (at);
  g_autofree char *u_row = g_strndup (at, strchr (at + strlen (prefix), ',') + 1 - at);
  struct { const char *from, *to; } cases[] = {
    { "\"modulus\":101", "\"modulus\":-5" },
    { "\"modulus\":101", "\"modulus\":1" },
    { "\"modulus\":101", "\"modulus\":1099511627776" },
    { "\"modulus\":101", "\"modulus\":101.5" },
    { "\"dtype\":\"gfp\"", "\"dtype\":\"float64\"" },
    { "\"ipiv\":[", "\"ipiv\":[1.5," },
    { "\"ipiv\":[", "\"ipiv\":[\"x\"," },
    { "\"ipiv\":[", "\"ipiv\":[4294967296," },
    { "\"info\":", "\"info\":-1,\"x\":" },
    { "\"det_sign\":", "\"det_sign\":7,\"x\":" },
    { "\"det_mod\":", "\"det_mod\":101,\"x\":" },
    { u_row, g_strconcat (prefix, "\"nan\",", NULL) },
    { u_row, g_strconcat (prefix, "-1,", NULL) },
    { u_row, g_strconcat (prefix, "1e300,", NULL) },
    { u_row, g_strconcat (prefix, "2.5,", NULL) },
    { u_row, g_strconcat (prefix, "101,", NULL) },
    { "\"steps\":[", "\"steps\":[7," },
    { "\"snapshots\":[", "\"snapshots\":[[]," },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *bad = replace_once (text, cases[i].from, cases[i].to);
      g_autoptr (GError) e = NULL;
      g_autoptr (TlLuRecorder) r = tl_lu_recorder_from_data (bad, strlen (bad), &e);
      if (r != NULL || e == NULL)
        g_error ("case %u (%s → %s): expected an error", i, cases[i].from, cases[i].to);
      g_assert_true (e->domain == TL_ERROR);
      g_test_message ("%u: %s", i, e->message);
    }
  for (guint i = 11; i <= 15; i++)
    g_free ((char *) cases[i].to);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gfp/arith", test_arith);
  g_test_add_func ("/gfp/det-known", test_det_known);
  g_test_add_func ("/gfp/vandermonde", test_vandermonde);
  g_test_add_func ("/gfp/hilbert-scaled", test_hilbert_scaled);
  g_test_add_func ("/gfp/float-vs-exact", test_float_vs_exact);
  g_test_add_func ("/gfp/solve-cases", test_solve_cases);
  g_test_add_func ("/gfp/record-exact", test_record_exact);
  g_test_add_func ("/gfp/record-hostile", test_record_hostile);
  return g_test_run ();
}
