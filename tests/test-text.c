/* test-text.c — Tilelab's "rows cols [dtype]" text format. */
#include "io-test-util.h"

static void
round_trip_case (const TlMatrix *m, const char *path, gpointer data)
{
  io_test_round_trip (m, path, TL_FORMAT_TEXT, TRUE);
  io_test_round_trip (m, path, TL_FORMAT_AUTO, TRUE);
}

static void
test_round_trip (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  io_test_for_each_case (dir, "m.txt", round_trip_case, NULL);
  io_test_rmdir (dir);
}

static void
test_parse (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (GError) error = NULL;

  /* comments, values spread over lines as they like, CRLF, a BOM */
  g_autofree char *p1 = io_test_write_text (dir, "a.txt",
    "\xef\xbb\xbf# a seed matrix\r\n2 3 # rows cols\r\n1.5 -2\r\n3e2\r\n4 nan -inf # done\r\n");
  g_autoptr (TlMatrix) a = tl_matrix_load (p1, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (a->dtype, ==, TL_DTYPE_FLOAT64);
  g_assert_cmpuint (a->rows, ==, 2);
  g_assert_cmpuint (a->cols, ==, 3);
  g_assert_cmpfloat (tl_matrix_get (a, 0, 0), ==, 1.5);
  g_assert_cmpfloat (tl_matrix_get (a, 0, 2), ==, 300.0);
  g_assert_cmpfloat (tl_matrix_get (a, 1, 0), ==, 4.0);
  g_assert_true (isnan (tl_matrix_get (a, 1, 1)));
  g_assert_true (isinf (tl_matrix_get (a, 1, 2)) && tl_matrix_get (a, 1, 2) < 0);

  /* integers only: int32 */
  g_autofree char *p2 = io_test_write_text (dir, "b.txt", "2 2\n1 2\n3 -4\n");
  g_autoptr (TlMatrix) b = tl_matrix_load (p2, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (b->dtype, ==, TL_DTYPE_INT32);
  g_assert_cmpfloat (tl_matrix_get (b, 1, 1), ==, -4.0);

  /* a dtype word wins over the look of the values */
  g_autofree char *p3 = io_test_write_text (dir, "c.txt", "1 2 float32\n1 2\n");
  g_autoptr (TlMatrix) c = tl_matrix_load (p3, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (c->dtype, ==, TL_DTYPE_FLOAT32);

  /* an empty matrix is a matrix */
  g_autofree char *p4 = io_test_write_text (dir, "d.txt", "0 5 float64\n");
  g_autoptr (TlMatrix) d = tl_matrix_load (p4, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (d->rows, ==, 0);
  g_assert_cmpuint (d->cols, ==, 5);

  /* a two-column table that is not our header goes to the CSV reader */
  g_autofree char *p5 = io_test_write_text (dir, "e.txt", "3 4\n5 6\n7 8\n");
  TlFormat got;
  g_autoptr (TlMatrix) e = tl_matrix_load_full (p5, TL_FORMAT_AUTO, &got, &error);
  g_assert_no_error (error);
  g_assert_cmpint (got, ==, TL_FORMAT_CSV);
  g_assert_cmpuint (e->rows, ==, 3);
  g_assert_cmpuint (e->cols, ==, 2);
  io_test_rmdir (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const IoTestErrorCase cases[] = {
    { "empty.txt",    "",                                  TL_ERROR_PARSE, ":1:" },
    { "comments.txt", "# nothing\n\n",                     TL_ERROR_PARSE, ":3:" },
    { "short.txt",    "2 2 int32\n1 2\n3\n",               TL_ERROR_PARSE, ":4:" },
    { "long.txt",     "2 2 int32\n1 2\n3 4\n5\n",          TL_ERROR_PARSE, ":4:1:" },
    { "word.txt",     "2 2 float64\n1 2\n3 x4\n",          TL_ERROR_PARSE, ":3:3:" },
    { "notint.txt",   "1 2 int32\n1 2.5\n",                TL_ERROR_PARSE, ":2:3:" },
    { "wideint.txt",  "1 2 int32\n1 2147483648\n",         TL_ERROR_PARSE, ":2:3:" },
    { "nanint.txt",   "1 2 int32\n1 nan\n",                TL_ERROR_PARSE, ":2:3:" },
    { "f32range.txt", "1 2 float32\n1 1e39\n",             TL_ERROR_PARSE, ":2:3:" },
    { "f64range.txt", "1 2 float64\n1 1e999\n",            TL_ERROR_PARSE, ":2:3:" },
    { "negative.txt", "-2 2 float64\n1 2\n",               TL_ERROR_PARSE, ":1:1:" },
    { "dtype.txt",    "2 2 complex\n1 2 3 4\n",            TL_ERROR_PARSE, NULL },
    { "huge.txt",     "4000000000 4000000000 float64\n1\n", TL_ERROR_TOO_LARGE, ":1:" },
    { "hex.txt",      "1 1 float64\n0x10\n",               TL_ERROR_PARSE, ":2:1:" },
    { "extra.txt",    "1 1 float64 x\n1\n",                TL_ERROR_PARSE, ":1:13:" },
  };
  io_test_expect_errors (dir, cases, G_N_ELEMENTS (cases), TL_FORMAT_TEXT);
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text/round-trip", test_round_trip);
  g_test_add_func ("/text/parse", test_parse);
  g_test_add_func ("/text/errors", test_errors);
  return g_test_run ();
}
