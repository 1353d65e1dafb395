/* test-mtx.c — Matrix Market reading and writing. */
#include "io-test-util.h"

static void
round_trip_case (const TlMatrix *m, const char *path, gpointer data)
{
  io_test_round_trip (m, path, TL_FORMAT_AUTO, TRUE);
}

static void
test_round_trip (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  io_test_for_each_case (dir, "m.mtx", round_trip_case, NULL);
  io_test_rmdir (dir);
}

static TlMatrix *
load_text (const char *dir, const char *name, const char *text)
{
  return io_test_load_text (dir, name, text, TL_FORMAT_AUTO);
}

static void
test_variants (void)
{
  g_autofree char *dir = io_test_tmpdir ();

  /* coordinate real general, banner in odd case, comments, blank line */
  g_autoptr (TlMatrix) a = load_text (dir, "a.mtx",
    "%%matrixmarket MATRIX Coordinate REAL General\n% a comment\n%\n2 3 3\n"
    "1 1 1.5\n2 3 -2e1\n\n1 2 nan\n");
  g_assert_cmpint (a->dtype, ==, TL_DTYPE_FLOAT64);
  g_assert_true (isnan (tl_matrix_get (a, 0, 1)));
  tl_matrix_set (a, 0, 1, 9);
  io_test_assert_values (a, 2, 3, (double[]) { 1.5, 9, 0, 0, 0, -20 });

  /* coordinate integer symmetric: mirrored */
  g_autoptr (TlMatrix) b = load_text (dir, "b.mtx",
    "%%MatrixMarket matrix coordinate integer symmetric\n3 3 4\n1 1 5\n2 1 -7\n3 2 4\n3 3 1\n");
  g_assert_cmpint (b->dtype, ==, TL_DTYPE_INT32);
  io_test_assert_values (b, 3, 3, (double[]) { 5, -7, 0, -7, 0, 4, 0, 4, 1 });

  /* skew-symmetric: mirrored with the sign flipped */
  g_autoptr (TlMatrix) c = load_text (dir, "c.mtx",
    "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 2.5\n3 1 -1\n");
  io_test_assert_values (c, 3, 3, (double[]) { 0, -2.5, 1, 2.5, 0, 0, -1, 0, 0 });

  /* pattern: ones where the entries are */
  g_autoptr (TlMatrix) d = load_text (dir, "d.mtx",
    "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n");
  io_test_assert_values (d, 2, 2, (double[]) { 0, 1, 1, 0 });

  /* array general: column by column */
  g_autoptr (TlMatrix) e = load_text (dir, "e.mtx",
    "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
  io_test_assert_values (e, 2, 3, (double[]) { 1, 3, 5, 2, 4, 6 });

  /* array symmetric: the lower triangle, column by column */
  g_autoptr (TlMatrix) f = load_text (dir, "f.mtx",
    "%%MatrixMarket matrix array integer symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");
  io_test_assert_values (f, 3, 3, (double[]) { 1, 2, 3, 2, 4, 5, 3, 5, 6 });

  /* array skew-symmetric: the strict lower triangle */
  g_autoptr (TlMatrix) g = load_text (dir, "g.mtx",
    "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  io_test_assert_values (g, 3, 3, (double[]) { 0, -1, -2, 1, 0, -3, 2, 3, 0 });

  /* CRLF and a BOM are fine */
  g_autoptr (TlMatrix) h = load_text (dir, "h.mtx",
    "\xef\xbb\xbf%%MatrixMarket matrix array real general\r\n1 2\r\n0.25\r\n-inf\r\n");
  g_assert_cmpfloat (tl_matrix_get (h, 0, 0), ==, 0.25);
  g_assert_true (isinf (tl_matrix_get (h, 0, 1)));

  /* "double" is an old spelling of real; the float32 note of our writer */
  g_autoptr (TlMatrix) i = load_text (dir, "i.mtx",
    "%%MatrixMarket matrix array double general\n% tilelab: dtype=float32\n1 1\n0.1\n");
  g_assert_cmpint (i->dtype, ==, TL_DTYPE_FLOAT32);
  g_assert_cmpfloat (((float *) i->data)[0], ==, 0.1f);

  /* the content decides, whatever the name */
  g_autoptr (TlMatrix) j = load_text (dir, "j.csv",
    "%%MatrixMarket matrix array real general\n1 1\n2\n");
  g_assert_cmpfloat (tl_matrix_get (j, 0, 0), ==, 2.0);
  io_test_rmdir (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const IoTestErrorCase cases[] = {
    { "empty.mtx", "", TL_ERROR_PARSE, ":1:" },
    { "nobanner.mtx", "2 2 1\n1 1 1\n", TL_ERROR_PARSE, ":1:1:" },
    { "typo.mtx", "%%MatrixMarket matrix coordinat real general\n1 1 1\n1 1 1\n", TL_ERROR_PARSE, ":1:23:" },
    { "complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", TL_ERROR_UNSUPPORTED, ":1:34:" },
    { "hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", TL_ERROR_UNSUPPORTED, ":1:" },
    { "vector.mtx", "%%MatrixMarket vector coordinate real general\n1 1 1\n1 1 1\n", TL_ERROR_UNSUPPORTED, ":1:16:" },
    { "arraypattern.mtx", "%%MatrixMarket matrix array pattern general\n1 1\n", TL_ERROR_PARSE, ":1:" },
    { "nosize.mtx", "%%MatrixMarket matrix coordinate real general\n% only comments\n", TL_ERROR_PARSE, ":3:" },
    { "sizeword.mtx", "%%MatrixMarket matrix coordinate real general\n2 two 1\n1 1 1\n", TL_ERROR_PARSE, ":2:3:" },
    { "sizeshort.mtx", "%%MatrixMarket matrix coordinate real general\n2 2\n1 1 1\n", TL_ERROR_PARSE, ":2:" },
    { "negative.mtx", "%%MatrixMarket matrix coordinate real general\n-2 2 1\n1 1 1\n", TL_ERROR_PARSE, ":2:1:" },
    { "huge.mtx", "%%MatrixMarket matrix array real general\n3000000000 3000000000\n1\n", TL_ERROR_TOO_LARGE, ":2:" },
    { "toomanynnz.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 5\n1 1 1\n", TL_ERROR_PARSE, ":2:" },
    { "fewer.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n", TL_ERROR_PARSE, ":5:" },
    { "more.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", TL_ERROR_PARSE, ":4:1:" },
    { "arrayfewer.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", TL_ERROR_PARSE, ":6:" },
    { "arraymore.mtx", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n3\n", TL_ERROR_PARSE, ":5:1:" },
    { "arraytwo.mtx", "%%MatrixMarket matrix array real general\n1 2\n1 2\n", TL_ERROR_PARSE, ":3:3:" },
    { "range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", TL_ERROR_PARSE, ":3:1:" },
    { "zero.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", TL_ERROR_PARSE, ":3:3:" },
    { "dup.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n2 2 1\n1 2 5\n", TL_ERROR_PARSE, ":5:1:" },
    { "upper.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", TL_ERROR_PARSE, ":3:1:" },
    { "skewdiag.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", TL_ERROR_PARSE, ":3:1:" },
    { "notsquare.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", TL_ERROR_PARSE, ":2:" },
    { "value.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1,5\n", TL_ERROR_PARSE, ":3:5:" },
    { "novalue.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", TL_ERROR_PARSE, ":3:" },
    { "intfrac.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", TL_ERROR_PARSE, ":3:5:" },
    { "intwide.mtx", "%%MatrixMarket matrix array integer general\n1 1\n99999999999\n", TL_ERROR_PARSE, ":3:1:" },
    { "patternvalue.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", TL_ERROR_PARSE, ":3:5:" },
    { "skewmin.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 -2147483648\n", TL_ERROR_PARSE, ":3:" },
  };
  io_test_expect_errors (dir, cases, G_N_ELEMENTS (cases), TL_FORMAT_AUTO);

  /* a duplicate names both lines */
  g_autoptr (GError) error = NULL;
  g_autofree char *p = g_build_filename (dir, "dup.mtx", NULL);
  g_assert_null (tl_matrix_load (p, TL_FORMAT_AUTO, &error));
  g_assert_nonnull (strstr (error->message, "line 3"));
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mtx/round-trip", test_round_trip);
  g_test_add_func ("/mtx/variants", test_variants);
  g_test_add_func ("/mtx/errors", test_errors);
  return g_test_run ();
}
