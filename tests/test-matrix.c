/* test-matrix.c — TlMatrix: sizes, views, conversion, statistics, norms. */
#include "core/tl-matrix.h"
#include "core/tl-error.h"

#include <math.h>

static void
test_new_and_access (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT64, 3, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->rows, ==, 3);
  g_assert_cmpuint (m->cols, ==, 5);
  g_assert_cmpuint ((guintptr) m->data % 64, ==, 0);
  for (gsize i = 0; i < 3; i++)
    for (gsize j = 0; j < 5; j++)
      tl_matrix_set (m, i, j, i * 10.0 + j + 0.5);
  g_assert_cmpfloat (tl_matrix_get (m, 2, 4), ==, 24.5);
  g_assert_cmpfloat (((double *) tl_matrix_row (m, 1))[2], ==, 12.5);
}

static void
test_size_overflow_and_cap (void)
{
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_matrix_new (TL_DTYPE_FLOAT64, G_MAXSIZE / 2, 3, &error);
  g_assert_null (m);
  g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
  g_clear_error (&error);

  g_setenv ("TL_MAX_MATRIX_BYTES", "1000", TRUE);
  m = tl_matrix_new (TL_DTYPE_FLOAT32, 16, 16, &error); /* 1024 bytes */
  g_assert_null (m);
  g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "16×16"));
  g_clear_error (&error);
  m = tl_matrix_new (TL_DTYPE_FLOAT32, 10, 25, &error); /* 1000 bytes: allowed */
  g_assert_no_error (error);
  tl_matrix_unref (m);
  g_unsetenv ("TL_MAX_MATRIX_BYTES");

  /* empty matrices are legal */
  m = tl_matrix_new (TL_DTYPE_INT32, 0, 7, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tl_matrix_n_elements (m), ==, 0);
  tl_matrix_unref (m);
}

static void
test_view_and_copy (void)
{
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_INT32, 4, 6, NULL);
  for (gsize i = 0; i < 4; i++)
    for (gsize j = 0; j < 6; j++)
      tl_matrix_set (m, i, j, (double) (i * 6 + j));
  TlMatrix *v = tl_matrix_view (m, 1, 2, 2, 3);
  g_assert_false (tl_matrix_is_contiguous (v));
  g_assert_cmpfloat (tl_matrix_get (v, 0, 0), ==, 8);
  g_assert_cmpfloat (tl_matrix_get (v, 1, 2), ==, 16);
  tl_matrix_set (v, 1, 1, -1);
  g_assert_cmpfloat (tl_matrix_get (m, 2, 3), ==, -1);

  g_autoptr (TlMatrix) c = tl_matrix_copy (v, NULL);
  g_assert_true (tl_matrix_is_contiguous (c));
  g_assert_true (tl_matrix_equal (c, v));

  /* the view keeps its parent's storage alive */
  g_clear_pointer (&m, tl_matrix_unref);
  g_assert_cmpfloat (tl_matrix_get (v, 1, 1), ==, -1);
  g_assert_cmpfloat (tl_matrix_get (v, 0, 2), ==, 10);
  tl_matrix_unref (v);
}

static void
test_convert_rounds_and_saturates (void)
{
  g_autoptr (TlMatrix) f = tl_matrix_new (TL_DTYPE_FLOAT64, 1, 5, NULL);
  tl_matrix_set (f, 0, 0, 2.5);
  tl_matrix_set (f, 0, 1, -2.7);
  tl_matrix_set (f, 0, 2, 1e12);
  tl_matrix_set (f, 0, 3, -1e12);
  tl_matrix_set (f, 0, 4, NAN);
  g_autoptr (TlMatrix) i = tl_matrix_convert (f, TL_DTYPE_INT32, NULL);
  g_assert_cmpfloat (tl_matrix_get (i, 0, 0), ==, 2); /* round half to even */
  g_assert_cmpfloat (tl_matrix_get (i, 0, 1), ==, -3);
  g_assert_cmpfloat (tl_matrix_get (i, 0, 2), ==, G_MAXINT32);
  g_assert_cmpfloat (tl_matrix_get (i, 0, 3), ==, G_MININT32);
  g_assert_cmpfloat (tl_matrix_get (i, 0, 4), ==, 0);
}

static void
test_stats_and_norms (void)
{
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT32, 2, 3, NULL);
  float vals[] = { 1, -2, 3, NAN, INFINITY, 4 };
  for (gsize k = 0; k < 6; k++)
    tl_matrix_set (m, k / 3, k % 3, vals[k]);
  TlMatrixStats s;
  tl_matrix_stats (m, &s);
  g_assert_cmpuint (s.n_nan, ==, 1);
  g_assert_cmpuint (s.n_inf, ==, 1);
  g_assert_cmpuint (s.n_finite, ==, 4);
  g_assert_cmpfloat (s.min, ==, -2);
  g_assert_cmpfloat (s.max, ==, 4);
  g_assert_cmpfloat_with_epsilon (s.mean, 1.5, 1e-12);

  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
  tl_matrix_set (a, 0, 0, 1);
  tl_matrix_set (a, 0, 1, -2);
  tl_matrix_set (a, 1, 0, 3);
  tl_matrix_set (a, 1, 1, 4);
  g_assert_cmpfloat (tl_matrix_norm (a, TL_NORM_ONE), ==, 6);
  g_assert_cmpfloat (tl_matrix_norm (a, TL_NORM_INF), ==, 7);
  g_assert_cmpfloat (tl_matrix_norm (a, TL_NORM_MAX), ==, 4);
  g_assert_cmpfloat_with_epsilon (tl_matrix_norm (a, TL_NORM_FROBENIUS), sqrt (30.0), 1e-12);

  /* no overflow for huge entries */
  tl_matrix_set (a, 0, 0, 1e300);
  tl_matrix_set (a, 1, 1, 1e300);
  g_assert_cmpfloat_with_epsilon (tl_matrix_norm (a, TL_NORM_FROBENIUS) / 1e300, sqrt (2.0), 1e-12);
}

static void
test_compare (void)
{
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
  g_autoptr (TlMatrix) b = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
  tl_matrix_fill (a, 1.0);
  tl_matrix_fill (b, 1.0);
  tl_matrix_set (a, 1, 0, 1.5);
  TlMatrixDiff d;
  g_assert_true (tl_matrix_compare (a, b, &d));
  g_assert_cmpfloat (d.max_abs, ==, 0.5);
  g_assert_cmpfloat (d.max_rel, ==, 0.5);
  g_assert_cmpuint (d.worst_row, ==, 1);
  g_assert_cmpuint (d.worst_col, ==, 0);
  g_assert_cmpfloat_with_epsilon (d.rel_norm, 0.25, 1e-12);

  /* an unwritten (NaN-poisoned) element is a mismatch, never a pass */
  tl_matrix_set (a, 0, 1, NAN);
  g_assert_true (tl_matrix_compare (a, b, &d));
  g_assert_cmpuint (d.n_mismatch_nan, ==, 1);
  g_assert_true (isinf (d.rel_norm));

  g_autoptr (TlMatrix) c = tl_matrix_new (TL_DTYPE_FLOAT64, 3, 2, NULL);
  g_assert_false (tl_matrix_compare (a, c, &d));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/matrix/new-and-access", test_new_and_access);
  g_test_add_func ("/matrix/size-overflow-and-cap", test_size_overflow_and_cap);
  g_test_add_func ("/matrix/view-and-copy", test_view_and_copy);
  g_test_add_func ("/matrix/convert", test_convert_rounds_and_saturates);
  g_test_add_func ("/matrix/stats-and-norms", test_stats_and_norms);
  g_test_add_func ("/matrix/compare", test_compare);
  return g_test_run ();
}
