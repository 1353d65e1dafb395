/* test-gemm-check.c — the one GEMM rule: its bounds, its reference
 * (against sums computed here), what passes, what fails and what it keeps.
 * Random inputs are fresh each run (g_test's seed; --seed replays). */
#include "gemm/tl-gemm-check.h"

#include <float.h>
#include <math.h>

static double
gamma_k (double k, double eps)
{
  return k * eps / (1.0 - k * eps);
}

static void
test_tolerances (void)
{
  g_assert_cmpfloat (tl_gemm_check_tolerance ("exact", 4096), ==, 0.0);
  const struct
  {
    const char *precision;
    double eps_in, eps_acc;
  } rows[] = {
    { "fp64", 0.0, DBL_EPSILON },
    { "fp32", 0.0, FLT_EPSILON },
    { "tf32", 0x1p-10, FLT_EPSILON },
    { "bf16", 0x1p-7, FLT_EPSILON },
  };
  const gsize ks[] = { 1, 100, 1024, 4093 };
  for (gsize r = 0; r < G_N_ELEMENTS (rows); r++)
    for (gsize i = 0; i < G_N_ELEMENTS (ks); i++)
      {
        double k = (double) ks[i], e = rows[r].eps_in;
        double want = 2 * e + e * e + gamma_k (k, rows[r].eps_acc) + gamma_k (k, DBL_EPSILON);
        g_assert_cmpfloat_with_epsilon (tl_gemm_check_tolerance (rows[r].precision, ks[i]), want,
                                        want * 1e-12);
      }
  /* the table in the header */
  g_assert_cmpfloat (fabs (tl_gemm_check_tolerance ("fp32", 4096) - 4.9e-4), <, 0.05e-4);
  g_assert_cmpfloat (fabs (tl_gemm_check_tolerance ("tf32", 1024) - 2.1e-3), <, 0.05e-3);
  g_assert_cmpfloat (fabs (tl_gemm_check_tolerance ("bf16", 4096) - 1.6e-2), <, 0.05e-2);
  /* unknown names are judged as fp32 */
  g_assert_cmpfloat (tl_gemm_check_tolerance ("fp17", 64), ==, tl_gemm_check_tolerance ("fp32", 64));
}

static TlMatrix *
random_matrix (TlDtype dtype, gsize rows, gsize cols, double lo, double hi)
{
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, NULL);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      {
        double v = g_test_rand_double_range (lo, hi);
        tl_matrix_set (m, i, j, dtype == TL_DTYPE_INT32 ? floor (v) : v);
      }
  return m;
}

/* C = A·B in the dtype's own arithmetic, summed in order (what a kernel
 * computes); int32 wraps. */
static TlMatrix *
product (const TlMatrix *a, const TlMatrix *b)
{
  TlMatrix *c = tl_matrix_new (a->dtype, a->rows, b->cols, NULL);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < b->cols; j++)
      {
        guint32 wrapped = 0;
        float f = 0.0f;
        double d = 0.0;
        for (gsize p = 0; p < a->cols; p++)
          {
            double x = tl_matrix_get (a, i, p), y = tl_matrix_get (b, p, j);
            wrapped += (guint32) (gint32) x * (guint32) (gint32) y;
            f += (float) x * (float) y;
            d += x * y;
          }
        tl_matrix_set (c, i, j, a->dtype == TL_DTYPE_INT32   ? (double) (gint32) wrapped
                                : a->dtype == TL_DTYPE_FLOAT32 ? (double) f
                                                               : d);
      }
  return c;
}

/* The reference's A·B and |A|·|B| against sums done here in long double. */
static void
test_reference (void)
{
  g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, 13, 29, -1, 1);
  g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, 29, 7, -1, 1);
  g_autoptr (GError) error = NULL;
  /* whole, and in panels of 5 rows (the last one 3) and of 1 row */
  const gsize panels[] = { 0, 5, 1 };
  for (gsize q = 0; q < G_N_ELEMENTS (panels); q++)
    {
      g_autoptr (TlGemmReference) ref =
        tl_gemm_reference_new_cancellable (a, b, panels[q], NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ref->k, ==, 29);
      for (gsize i = 0; i < 13; i++)
        for (gsize j = 0; j < 7; j++)
          {
            long double s = 0, abs_s = 0;
            for (gsize p = 0; p < 29; p++)
              {
                long double x = tl_matrix_get (a, i, p), y = tl_matrix_get (b, p, j);
                s += x * y;
                abs_s += fabsl (x * y);
              }
            g_assert_cmpfloat (fabs (tl_matrix_get (ref->c, i, j) - (double) s), <=, 1e-14);
            g_assert_cmpfloat (fabs (tl_matrix_get (ref->abs_c, i, j) - (double) abs_s), <=, 1e-14);
          }
      g_assert_cmpfloat_with_epsilon (ref->norm_a, tl_matrix_norm (a, TL_NORM_FROBENIUS), 1e-12);
    }

  /* int32: modulo 2³², no |A|·|B| (compared exactly) */
  g_autoptr (TlMatrix) ia = tl_matrix_new (TL_DTYPE_INT32, 1, 2, NULL);
  g_autoptr (TlMatrix) ib = tl_matrix_new (TL_DTYPE_INT32, 2, 1, NULL);
  tl_matrix_set (ia, 0, 0, 65536);
  tl_matrix_set (ia, 0, 1, 3);
  tl_matrix_set (ib, 0, 0, 65536);
  tl_matrix_set (ib, 1, 0, 5);
  g_autoptr (TlGemmReference) iref = tl_gemm_reference_new (ia, ib, &error);
  g_assert_no_error (error);
  g_assert_null (iref->abs_c);
  g_assert_cmpfloat (tl_matrix_get (iref->c, 0, 0), ==, 15.0); /* 2³² + 15 wraps to 15 */
}

/* A correct product passes in every dtype, at odd shapes, also when the
 * entries cancel (|C| far below |A|·|B|). */
static void
test_correct_passes (void)
{
  const TlDtype dtypes[] = { TL_DTYPE_INT32, TL_DTYPE_FLOAT32, TL_DTYPE_FLOAT64 };
  const char *precisions[] = { "exact", "fp32", "fp64" };
  const gsize shapes[][3] = { { 1, 1, 1 }, { 17, 33, 9 }, { 31, 257, 5 } };
  for (gsize d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
      {
        double big = dtypes[d] == TL_DTYPE_INT32 ? 1e6 : 1.0; /* int32 products wrap */
        g_autoptr (TlMatrix) a = random_matrix (dtypes[d], shapes[s][0], shapes[s][1], -big, big);
        g_autoptr (TlMatrix) b = random_matrix (dtypes[d], shapes[s][1], shapes[s][2], -big, big);
        g_autoptr (TlMatrix) c = product (a, b);
        g_autoptr (TlGemmReference) ref = tl_gemm_reference_new (a, b, NULL);
        TlGemmCheck check;
        g_assert_true (tl_gemm_check (ref, c, precisions[d], &check));
        g_assert_cmpuint (check.n_wrong, ==, 0);
        g_assert_cmpuint (check.n_mismatches, ==, 0);
        g_assert_cmpfloat (check.worst, <=, check.tolerance);
        g_assert_null (tl_gemm_check_describe (&check));
      }

  /* cancellation: the row (1, 1, …) times the column (x₀, −x₀, x₁, −x₁, …)
   * is exactly 0; a float32 kernel's rounding stays within its bound there */
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT32, 1, 64, NULL);
  g_autoptr (TlMatrix) b = tl_matrix_new (TL_DTYPE_FLOAT32, 64, 1, NULL);
  for (gsize p = 0; p < 64; p++)
    {
      tl_matrix_set (a, 0, p, 1.0);
      tl_matrix_set (b, p, 0, (p % 2 ? -1.0 : 1.0) * (1.0 + (p / 2) / 7.0));
    }
  g_autoptr (TlGemmReference) ref = tl_gemm_reference_new (a, b, NULL);
  g_autoptr (TlMatrix) c = product (a, b);
  tl_matrix_set (c, 0, 0, tl_matrix_get (c, 0, 0) + 1e-6); /* as a different summation order might */
  TlGemmCheck check;
  g_assert_true (tl_gemm_check (ref, c, "fp32", &check));
  g_assert_cmpfloat (check.rel_norm, >, 1.0); /* relative to |C| this looks terrible */
}

/* Wrong elements fail, are counted, and the first ones are kept with
 * their position, value, expected value and bound. */
static void
test_wrong_fails (void)
{
  g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, 20, 45, -1, 1);
  g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, 45, 30, -1, 1);
  g_autoptr (TlGemmReference) ref = tl_gemm_reference_new (a, b, NULL);
  g_autoptr (TlMatrix) c = product (a, b);
  gsize r = (gsize) g_test_rand_int_range (0, 20), col = (gsize) g_test_rand_int_range (0, 30);
  double was = tl_matrix_get (c, r, col);
  double bound = tl_gemm_check_tolerance ("fp32", 45) * tl_matrix_get (ref->abs_c, r, col);
  tl_matrix_set (c, r, col, was + 10 * bound + 1e-3);
  TlGemmCheck check;
  g_assert_false (tl_gemm_check (ref, c, "fp32", &check));
  g_assert_cmpuint (check.n_wrong, ==, 1);
  g_assert_cmpuint (check.n_mismatches, ==, 1);
  g_assert_cmpuint (check.mismatches[0].row, ==, r);
  g_assert_cmpuint (check.mismatches[0].col, ==, col);
  g_assert_cmpfloat (check.mismatches[0].got, ==, tl_matrix_get (c, r, col));
  g_assert_cmpfloat (check.mismatches[0].expected, ==, tl_matrix_get (ref->c, r, col));
  g_assert_cmpfloat_with_epsilon (check.mismatches[0].bound, bound, bound * 1e-12);
  g_assert_cmpfloat (check.worst, >, check.tolerance);
  g_autofree char *why = tl_gemm_check_describe (&check);
  g_assert_nonnull (why);

  /* an unwritten (NaN) element fails; many wrong ones keep the first few,
   * in row-major order */
  tl_matrix_set (c, r, col, was);
  for (gsize j = 0; j < 30; j++)
    tl_matrix_set (c, 7, j, NAN);
  g_assert_false (tl_gemm_check (ref, c, "fp32", &check));
  g_assert_cmpuint (check.n_wrong, ==, 30);
  g_assert_cmpuint (check.n_mismatches, ==, TL_GEMM_CHECK_KEEP);
  for (guint i = 0; i < TL_GEMM_CHECK_KEEP; i++)
    {
      g_assert_cmpuint (check.mismatches[i].row, ==, 7);
      g_assert_cmpuint (check.mismatches[i].col, ==, i);
      g_assert_true (isnan (check.mismatches[i].got));
    }
  g_assert_true (isinf (check.worst));

  /* int32 is exact: off by one fails */
  g_autoptr (TlMatrix) ia = random_matrix (TL_DTYPE_INT32, 5, 6, -9, 9);
  g_autoptr (TlMatrix) ib = random_matrix (TL_DTYPE_INT32, 6, 4, -9, 9);
  g_autoptr (TlGemmReference) iref = tl_gemm_reference_new (ia, ib, NULL);
  g_autoptr (TlMatrix) ic = product (ia, ib);
  tl_matrix_set (ic, 4, 3, tl_matrix_get (ic, 4, 3) + 1);
  g_assert_false (tl_gemm_check (iref, ic, "exact", &check));
  g_assert_cmpuint (check.n_wrong, ==, 1);
  g_assert_cmpfloat (check.tolerance, ==, 0.0);
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static gpointer
reference_thread (gpointer data)
{
  GError *error = NULL;
  TlGemmReference *ref = tl_gemm_reference_new_cancellable (g_object_get_data (data, "a"),
                                                            g_object_get_data (data, "b"), 0,
                                                            data, &error);
  g_assert_null (ref);
  return error;
}

/* A cancel stops the reference between panels: cancelled before, nothing
 * is computed; cancelled while the product runs, it stops within a panel. */
static void
test_reference_cancel (void)
{
  g_assert_cmpuint (tl_gemm_reference_panel_rows (8192, 8192, 8192), ==, 64);
  g_assert_cmpuint (tl_gemm_reference_panel_rows (500, 777, 1111), ==, 500);
  g_assert_cmpuint (tl_gemm_reference_panel_rows (40000, 2048, 2048), ==, 119);
  g_assert_cmpuint (tl_gemm_reference_panel_rows (10, 100000, 100000), ==, 10);

  g_autoptr (GCancellable) before = g_cancellable_new ();
  g_cancellable_cancel (before);
  g_autoptr (TlMatrix) a = random_matrix (TL_DTYPE_FLOAT32, 130, 90, -1, 1);
  g_autoptr (TlMatrix) b = random_matrix (TL_DTYPE_FLOAT32, 90, 70, -1, 1);
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_gemm_reference_new_cancellable (a, b, 16, before, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_autoptr (TlMatrix) ia = tl_matrix_new_zeroed (TL_DTYPE_INT32, 50, 40, NULL);
  g_autoptr (TlMatrix) ib = tl_matrix_new_zeroed (TL_DTYPE_INT32, 40, 30, NULL);
  g_assert_null (tl_gemm_reference_new_cancellable (ia, ib, 0, before, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* 2000³ twice (A·B and |A|·|B|): seconds here, 0.1 s on a big server;
   * cancelled after 20 ms from the main loop, as Escape would */
  g_autoptr (GCancellable) during = g_cancellable_new ();
  g_autoptr (TlMatrix) big_a = random_matrix (TL_DTYPE_FLOAT32, 2000, 2000, -1, 1);
  g_autoptr (TlMatrix) big_b = random_matrix (TL_DTYPE_FLOAT32, 2000, 2000, -1, 1);
  g_object_set_data (G_OBJECT (during), "a", big_a);
  g_object_set_data (G_OBJECT (during), "b", big_b);
  GThread *t = g_thread_new ("reference", reference_thread, during);
  g_timeout_add (20, cancel_cb, during);
  while (!g_cancellable_is_cancelled (during))
    g_main_context_iteration (NULL, TRUE);
  gint64 t0 = g_get_monotonic_time ();
  GError *got = g_thread_join (t);
  g_test_message ("the reference stopped %.1f ms after the cancel",
                  (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_error (got, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_error_free (got);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gemm-check/tolerances", test_tolerances);
  g_test_add_func ("/gemm-check/reference", test_reference);
  g_test_add_func ("/gemm-check/reference-cancel", test_reference_cancel);
  g_test_add_func ("/gemm-check/correct-passes", test_correct_passes);
  g_test_add_func ("/gemm-check/wrong-fails", test_wrong_fails);
  return g_test_run ();
}
