/* test-csv.c — CSV, TSV and whitespace tables; decimal commas; headers. */
#include "io-test-util.h"

#include <locale.h>

static void
round_trip_case (const TlMatrix *m, const char *path, gpointer data)
{
  /* CSV has no dtype: int32 comes back as int32, float32 as float32 (our
   * writer's "# tilelab: dtype=float32" note), float64 as float64 */
  io_test_round_trip (m, path, TL_FORMAT_AUTO, m->dtype != TL_DTYPE_FLOAT64);
}

static void
test_round_trip (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const char *const names[] = { "m.csv", "m.tsv" };
  for (gsize n = 0; n < G_N_ELEMENTS (names); n++)
    io_test_for_each_case (dir, names[n], round_trip_case, NULL);
  io_test_rmdir (dir);
}

static TlMatrix *
load_text (const char *dir, const char *name, const char *text)
{
  return io_test_load_text (dir, name, text, TL_FORMAT_CSV);
}

static void
test_dialects (void)
{
  g_autofree char *dir = io_test_tmpdir ();

  g_autoptr (TlMatrix) a = load_text (dir, "a.csv", "1,2,3\n4,5,6\n");
  g_assert_cmpint (a->dtype, ==, TL_DTYPE_INT32);
  io_test_assert_values (a, 2, 3, (double[]) { 1, 2, 3, 4, 5, 6 });

  /* German / Italian spreadsheet export: ';' and decimal comma */
  g_autoptr (TlMatrix) b = load_text (dir, "b.csv", "1,5;2,25\n-3;4,0e1\n");
  g_assert_cmpint (b->dtype, ==, TL_DTYPE_FLOAT64);
  io_test_assert_values (b, 2, 2, (double[]) { 1.5, 2.25, -3, 40 });

  /* a header row, quoted fields, spaces around fields, CRLF, BOM */
  g_autoptr (TlMatrix) c = load_text (dir, "c.csv",
    "\xef\xbb\xbf\"x\",\"y, the second\",z\r\n 1.5 , \"2\" ,3\r\n4,5,6\r\n");
  g_assert_cmpint (c->dtype, ==, TL_DTYPE_FLOAT64);
  io_test_assert_values (c, 2, 3, (double[]) { 1.5, 2, 3, 4, 5, 6 });

  /* TSV, with a decimal comma as well */
  g_autoptr (TlMatrix) d = load_text (dir, "d.tsv", "a\tb\n0,5\t1\n2\t3.5\n");
  io_test_assert_values (d, 2, 2, (double[]) { 0.5, 1, 2, 3.5 });

  /* whitespace, as numpy.savetxt writes, with '#' comments and blank lines */
  g_autoptr (TlMatrix) e = load_text (dir, "e.txt",
    "# x y\n  1.000000000000000000e+00   -2.5e-01\n\n3 4\n");
  io_test_assert_values (e, 2, 2, (double[]) { 1, -0.25, 3, 4 });

  /* NaN and Inf are values */
  g_autoptr (TlMatrix) f = load_text (dir, "f.csv", "nan,inf,-inf,NaN,-Infinity\n");
  g_assert_true (isnan (tl_matrix_get (f, 0, 0)) && isnan (tl_matrix_get (f, 0, 3)));
  g_assert_true (isinf (tl_matrix_get (f, 0, 4)));

  /* integers beyond int32 make the whole table float64 */
  g_autoptr (TlMatrix) g = load_text (dir, "g.csv", "1,2\n3,4294967296\n");
  g_assert_cmpint (g->dtype, ==, TL_DTYPE_FLOAT64);
  g_assert_cmpfloat (tl_matrix_get (g, 1, 1), ==, 4294967296.0);

  /* a quote inside a quoted header */
  g_autoptr (TlMatrix) h = load_text (dir, "h.csv", "\"say \"\"hi\"\"\",b\n1,2\n");
  io_test_assert_values (h, 1, 2, (double[]) { 1, 2 });
  io_test_rmdir (dir);
}

/* A row of numbers is never taken for a header, whatever else is wrong
 * with it; lone CRs end lines; float32 keeps its shortest digits and
 * comes back bit-exact. */
static void
test_no_silent_loss (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const IoTestErrorCase cases[] = {
    /* the first row has a number (1) and one beyond float64: an error, not a header */
    { "range1.csv", "1,1e999\n2,3\n", TL_ERROR_PARSE, ":1:3:" },
    /* a doubled byte order mark glued to the first number */
    { "bom2.csv", "\xef\xbb\xbf\xef\xbb\xbf" "1,2\n2,3\n", TL_ERROR_PARSE, ":1:1:" },
    /* a header with a number in it is data, and says which field is wrong */
    { "mixed.csv", "id,2020\n1,2\n", TL_ERROR_PARSE, ":1:1:" },
    /* numbers written wrong are no header: hex floats, trailing garbage,
     * an ambiguous decimal comma, a fraction */
    { "hex.csv", "0x1p3,0x10\n1,2\n", TL_ERROR_PARSE, ":1:1:" },
    { "garbage.csv", "1.5x,2.5x\n1,2\n", TL_ERROR_PARSE, ":1:1:" },
    { "ambiguous.csv", "1.234,5;-2.345,6\n1;2\n", TL_ERROR_PARSE, ":1:1:" },
    { "fraction.csv", "x,-3/4\n1,2\n", TL_ERROR_PARSE, ":1:1:" },
    { "cr.csv", "1,2\r3,x\r", TL_ERROR_PARSE, ":2:3:" },
  };
  io_test_expect_errors (dir, cases, G_N_ELEMENTS (cases), TL_FORMAT_AUTO);

  g_autoptr (TlMatrix) cr = load_text (dir, "ok-cr.csv", "x,y\r1,2\r3,4");
  io_test_assert_values (cr, 2, 2, (double[]) { 1, 2, 3, 4 });
  g_autoptr (TlMatrix) crlf = load_text (dir, "ok-mixed.csv", "1,2\r\n3,4\r5,6\n");
  io_test_assert_values (crlf, 3, 2, (double[]) { 1, 2, 3, 4, 5, 6 });

  g_autoptr (TlMatrix) f = tl_matrix_new (TL_DTYPE_FLOAT32, 1, 3, NULL);
  tl_matrix_set (f, 0, 0, 0.1);
  tl_matrix_set (f, 0, 1, -3.4028235e38);
  tl_matrix_set (f, 0, 2, 1.17549435e-38);
  g_autofree char *path = g_build_filename (dir, "f.csv", NULL);
  g_assert_true (tl_matrix_save (f, path, TL_FORMAT_AUTO, NULL));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "# tilelab: dtype=float32\n0.1,-3.4028235e+38,1.1754944e-38\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) back = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->dtype, ==, TL_DTYPE_FLOAT32);
  g_assert_true (tl_matrix_equal (back, f));
  /* FLT_MAX's shortest digits are above FLT_MAX as a double: every text
   * format must still read them back as float32 */
  static const char *const others[] = { "f.txt", "f.mtx" };
  for (guint k = 0; k < G_N_ELEMENTS (others); k++)
    {
      g_autofree char *p = g_build_filename (dir, others[k], NULL);
      g_assert_true (tl_matrix_save (f, p, TL_FORMAT_AUTO, NULL));
      g_autoptr (TlMatrix) again = tl_matrix_load (p, TL_FORMAT_AUTO, &error);
      g_assert_no_error (error);
      g_assert_cmpint (again->dtype, ==, TL_DTYPE_FLOAT32);
      g_assert_true (tl_matrix_equal (again, f));
    }
  /* with the note, a value beyond float32 is an error at its place */
  static const IoTestErrorCase beyond[] = {
    { "f32big.csv", "# tilelab: dtype=float32\n1,1e39\n", TL_ERROR_PARSE, ":2:3:" },
  };
  io_test_expect_errors (dir, beyond, 1, TL_FORMAT_AUTO);
  io_test_rmdir (dir);
}

/* The user's locale must not change how numbers read: run a parse with
 * LC_NUMERIC set to a decimal-comma locale when one is installed. */
static void
test_locale (void)
{
  static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "it_IT.UTF-8",
                                         "sr_RS.UTF-8", "de_DE" };
  const char *set = NULL;
  for (gsize k = 0; k < G_N_ELEMENTS (locales) && set == NULL; k++)
    set = setlocale (LC_NUMERIC, locales[k]);
  if (set == NULL)
    {
      g_test_skip ("no decimal-comma locale installed");
      return;
    }
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (TlMatrix) a = load_text (dir, "a.csv", "1.5,2.25\n");
  io_test_assert_values (a, 1, 2, (double[]) { 1.5, 2.25 });
  g_autofree char *path = g_build_filename (dir, "b.csv", NULL);
  g_assert_true (tl_matrix_save (a, path, TL_FORMAT_AUTO, NULL));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "1.5,2.25\n");
  setlocale (LC_NUMERIC, "C");
  io_test_rmdir (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const IoTestErrorCase cases[] = {
    { "empty.csv", "", TL_ERROR_PARSE, ":1:" },
    { "blank.csv", "\n  \n# comment\n", TL_ERROR_PARSE, ":4:" },
    { "header.csv", "a,b,c\n", TL_ERROR_PARSE, ":2:" },
    { "ragged.csv", "1,2,3\n4,5,6\n7,8\n", TL_ERROR_PARSE, ":3:" },
    { "raggedhdr.csv", "a,b\n1,2,3\n", TL_ERROR_PARSE, ":2:" },
    { "word.csv", "1,2\n3,four\n", TL_ERROR_PARSE, ":2:3:" },
    { "emptyfield.csv", "1,2\n3,\n", TL_ERROR_PARSE, ":2:3:" },
    { "quote.csv", "1,2\n\"3,4\n", TL_ERROR_PARSE, ":2:1:" },
    /* a first row whose quote is never closed: its comma hid the delimiter */
    { "openquote.csv", "\"1,2\n3,4\n", TL_ERROR_PARSE, ":1:1: the quoted field has no closing" },
    { "openquote1.csv", "\"1,2\n", TL_ERROR_PARSE, ":1:1: the quoted field has no closing" },
    { "openquote2.csv", "# c\n  \"1,2\n3,4\n", TL_ERROR_PARSE, ":2:3: the quoted field" },
    { "afterquote.csv", "1,2\n\"3\"x,4\n", TL_ERROR_PARSE, ":2:4:" },
    { "thousands.csv", "1;2\n1.234,5;2\n", TL_ERROR_PARSE, ":2:1:" },
    { "range.csv", "1,2\n3,1e999\n", TL_ERROR_PARSE, ":2:3:" },
    { "nul.csv", "1,2\n3\0,4\n", TL_ERROR_PARSE, NULL, 9 },
  };
  io_test_expect_errors (dir, cases, G_N_ELEMENTS (cases), TL_FORMAT_AUTO);
  /* the ragged message says what was expected */
  g_autoptr (GError) error = NULL;
  g_autofree char *p = g_build_filename (dir, "ragged.csv", NULL);
  g_assert_null (tl_matrix_load (p, TL_FORMAT_AUTO, &error));
  g_assert_nonnull (strstr (error->message, "expected 3"));
  g_assert_nonnull (strstr (error->message, "found 2"));
  io_test_rmdir (dir);
}

/* A table larger than the memory cap is refused before a value is
 * parsed: the first pass counts its rows, and the message names the
 * whole table's size at its first row. */
static void
test_cap (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = io_test_tmpdir ();
      g_autoptr (GString) text = g_string_new (NULL);
      for (int i = 0; i < 100; i++)
        g_string_append (text, "1,2,3,4\n");
      g_autofree char *p = io_test_write (dir, "big.csv", text->str, text->len);
      /* 100 rows × 4 int32 values = 1600 bytes, more than 1280 */
      io_test_expect_error (p, TL_FORMAT_AUTO, TL_ERROR_TOO_LARGE, ":1: a 100×4 int32 matrix");
      io_test_rmdir (dir);
      return;
    }
  g_autofree char *env = g_strdup (g_getenv ("TL_MAX_MATRIX_BYTES"));
  g_setenv ("TL_MAX_MATRIX_BYTES", "1280", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  if (env)
    g_setenv ("TL_MAX_MATRIX_BYTES", env, TRUE);
  else
    g_unsetenv ("TL_MAX_MATRIX_BYTES");
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/round-trip", test_round_trip);
  g_test_add_func ("/csv/dialects", test_dialects);
  g_test_add_func ("/csv/no-silent-loss", test_no_silent_loss);
  g_test_add_func ("/csv/locale", test_locale);
  g_test_add_func ("/csv/errors", test_errors);
  g_test_add_func ("/csv/cap", test_cap);
  return g_test_run ();
}
