/* test-cli-formats.c — `tilelab-cli info` and `tilelab-cli convert` as a
 * user runs them: exit codes, one-line errors with positions. */
#include "io-test-util.h"

#include "cli-test-util.h"

static int
run_cli (const char *const *args, char **out, char **err)
{
  return cli_test_spawn (args, NULL, out, err);
}

static void
test_info (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *bad = io_test_write_text (dir, "bad.mtx",
    "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n4 1 2\n");
  g_autofree char *good = io_test_write_text (dir, "good.csv", "1;2,5;nan\n-4;5;inf\n");
  g_autofree char *out = NULL, *err = NULL;

  /* a malformed file: one line on stderr, with file, line and column; exit 1 */
  g_assert_cmpint (run_cli ((const char *[]) { "info", bad, NULL }, &out, &err), ==, 1);
  g_assert_true (g_str_has_prefix (err, "tilelab-cli info: "));
  g_assert_nonnull (strstr (err, "bad.mtx:4:1: "));
  g_assert_cmpint (strchr (err, '\n') - err, ==, (int) strlen (err) - 1);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a good file: the facts */
  g_assert_cmpint (run_cli ((const char *[]) { "info", good, NULL }, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "2 × 3"));
  g_assert_nonnull (strstr (out, "float64"));
  g_assert_nonnull (strstr (out, "(csv)"));
  g_assert_true (g_regex_match_simple ("NaN +1\n", out, 0, 0));
  g_assert_true (g_regex_match_simple ("Inf +1\n", out, 0, 0));
  g_assert_true (g_regex_match_simple ("min +-4\n", out, 0, 0));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* both: the good one is described, the exit code says one failed */
  g_assert_cmpint (run_cli ((const char *[]) { "info", good, bad, NULL }, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "2 × 3"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* usage errors */
  g_assert_cmpint (run_cli ((const char *[]) { "info", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "info", "--format", "xls", good, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "info", "--bogus", good, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "info", "--help", NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--format"));
  io_test_rmdir (dir);
}

static void
test_convert (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT32, 7, 13);
  g_autofree char *src = g_build_filename (dir, "m.npy", NULL);
  g_assert_true (tl_matrix_save (m, src, TL_FORMAT_AUTO, NULL));

  /* npy → mtx → txt → csv → npy keeps every value */
  static const char *const chain[] = { "m.mtx", "m.txt", "m.csv", "back.npy" };
  g_autofree char *prev = g_strdup (src);
  for (gsize k = 0; k < G_N_ELEMENTS (chain); k++)
    {
      g_autofree char *next = g_build_filename (dir, chain[k], NULL);
      const char *args[] = { "convert", prev, next, "--dtype", "float32", NULL };
      g_assert_cmpint (run_cli (args, NULL, NULL), ==, 0);
      g_free (prev);
      prev = g_steal_pointer (&next);
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) back = tl_matrix_load (prev, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->dtype, ==, TL_DTYPE_FLOAT32);
  g_assert_true (tl_matrix_equal (back, m));

  /* --format overrides the extension */
  g_autofree char *odd = g_build_filename (dir, "odd.dat", NULL);
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, odd, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, odd, "--format", "mtx", NULL },
                            NULL, NULL), ==, 0);
  g_autoptr (TlMatrix) odd_m = tl_matrix_load (odd, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (odd_m, m));

  /* to int32: refused for fractions unless --round */
  g_autofree char *ints = g_build_filename (dir, "i.npy", NULL);
  g_autofree char *err = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, ints, "--dtype", "int32", NULL },
                            NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "--round"));
  g_assert_false (g_file_test (ints, G_FILE_TEST_EXISTS));
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, ints, "--dtype", "int32", "--round",
                                               NULL }, NULL, NULL), ==, 0);
  g_autoptr (TlMatrix) im = tl_matrix_load (ints, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (im->dtype, ==, TL_DTYPE_INT32);

  /* to float32: a finite value beyond its range is refused, not made ±Inf */
  g_autofree char *huge = g_build_filename (dir, "huge.csv", NULL);
  g_assert_true (g_file_set_contents (huge, "1.5,-1e300\n", -1, NULL));
  g_autofree char *f32 = g_build_filename (dir, "f32.npy", NULL);
  g_autofree char *err32 = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "convert", huge, f32, "--dtype", "float32", NULL },
                            NULL, &err32), ==, 1);
  g_assert_nonnull (strstr (err32, "row 1, column 2 (-1.0000000000000001e+300) is beyond float32"));
  g_assert_false (g_file_test (f32, G_FILE_TEST_EXISTS));

  /* a missing input is a runtime failure; wrong arguments are usage errors */
  g_autofree char *missing = g_build_filename (dir, "missing.mtx", NULL);
  g_assert_cmpint (run_cli ((const char *[]) { "convert", missing, odd, "-f", "npy", NULL },
                            NULL, NULL), ==, 1);
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "convert", src, odd, "--dtype", "int8", NULL },
                            NULL, NULL), ==, 2);
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 1;
  g_test_add_func ("/cli/info", test_info);
  g_test_add_func ("/cli/convert", test_convert);
  return g_test_run ();
}
