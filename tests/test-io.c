/* test-io.c — choosing formats, atomic saving, and the corpus of
 * malformed files in tests/data/bad (and odd-but-fine ones in data/good). */
#include "io-test-util.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

static void
test_names (void)
{
  TlFormat f;
  g_assert_cmpint (tl_format_from_path ("a/b/c.MTX"), ==, TL_FORMAT_MTX);
  g_assert_cmpint (tl_format_from_path ("x.npy"), ==, TL_FORMAT_NPY);
  g_assert_cmpint (tl_format_from_path ("x.csv"), ==, TL_FORMAT_CSV);
  g_assert_cmpint (tl_format_from_path ("x.tsv"), ==, TL_FORMAT_CSV);
  g_assert_cmpint (tl_format_from_path ("x.txt"), ==, TL_FORMAT_TEXT);
  g_assert_cmpint (tl_format_from_path ("x.mat"), ==, TL_FORMAT_TEXT);
  g_assert_cmpint (tl_format_from_path ("x.bin"), ==, TL_FORMAT_AUTO);
  g_assert_cmpint (tl_format_from_path ("dir.npy/x"), ==, TL_FORMAT_AUTO);
  g_assert_cmpint (tl_format_from_path (".npy"), ==, TL_FORMAT_AUTO);
  for (int k = TL_FORMAT_AUTO; k <= TL_FORMAT_TEXT; k++)
    {
      g_assert_true (tl_format_from_name (tl_format_name (k), &f));
      g_assert_cmpint (f, ==, k);
      g_assert_nonnull (tl_format_title (k));
    }
  g_assert_true (tl_format_from_name ("MatrixMarket", &f) && f == TL_FORMAT_MTX);
  g_assert_false (tl_format_from_name ("xlsx", &f));
}

static void
test_numbers (void)
{
  double v;
  gboolean is_int;
  g_assert_cmpint (tl_io_parse_number ("-12", 3, FALSE, FALSE, &v, &is_int), ==, TL_IO_NUMBER_OK);
  g_assert_true (is_int && v == -12);
  g_assert_cmpint (tl_io_parse_number ("2147483648", 10, FALSE, FALSE, &v, &is_int), ==, TL_IO_NUMBER_OK);
  g_assert_false (is_int);
  g_assert_cmpint (tl_io_parse_number ("1e3", 3, FALSE, FALSE, &v, &is_int), ==, TL_IO_NUMBER_OK);
  g_assert_false (is_int);
  g_assert_cmpint (tl_io_parse_number ("1,5", 3, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("1,5", 3, TRUE, FALSE, &v, NULL), ==, TL_IO_NUMBER_OK);
  g_assert_cmpfloat (v, ==, 1.5);
  g_assert_cmpint (tl_io_parse_number ("1,5,5", 5, TRUE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("0x10", 4, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("1e", 2, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("-", 1, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("", 0, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_BAD);
  g_assert_cmpint (tl_io_parse_number ("1e999", 5, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_RANGE);
  g_assert_cmpint (tl_io_parse_number ("1e-999", 6, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_OK);
  g_assert_cmpint (tl_io_parse_number ("-Inf", 4, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_OK);
  g_assert_true (isinf (v) && v < 0);
  g_assert_cmpint (tl_io_parse_number ("NAN", 3, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_OK);
  g_assert_true (isnan (v));
  /* a token is only its own bytes, not what follows it */
  g_assert_cmpint (tl_io_parse_number ("12abc", 2, FALSE, FALSE, &v, NULL), ==, TL_IO_NUMBER_OK);
  g_assert_cmpfloat (v, ==, 12);

  /* printing: shortest text that reads back exactly */
  g_autoptr (GString) s = g_string_new (NULL);
  tl_io_append_value (s, TL_DTYPE_FLOAT64, 0.1);
  g_string_append_c (s, ' ');
  tl_io_append_value (s, TL_DTYPE_FLOAT32, (float) 0.1);
  g_string_append_c (s, ' ');
  tl_io_append_value (s, TL_DTYPE_FLOAT64, -0.0);
  g_string_append_c (s, ' ');
  tl_io_append_value (s, TL_DTYPE_INT32, G_MININT32);
  g_string_append_c (s, ' ');
  tl_io_append_value (s, TL_DTYPE_FLOAT64, -INFINITY);
  g_assert_cmpstr (s->str, ==, "0.1 0.1 -0 -2147483648 -inf");
}

static gboolean
failing_writer (FILE *out, const TlMatrix *m, gpointer user_data, GError **error)
{
  fputs ("half a fi", out);
  g_set_error (error, TL_ERROR, TL_ERROR_IO, "the disk is on fire");
  return FALSE;
}

static void
test_atomic (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "keep.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 3, 4);

  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
  g_assert_no_error (error);
  g_autofree char *before = NULL;
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));

  /* a writer that fails half-way leaves the old file and no temporary */
  g_assert_false (tl_io_write_atomic (path, m, failing_writer, NULL, NULL, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_clear_error (&error);
  g_autofree char *after = NULL;
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  GDir *d = g_dir_open (dir, 0, NULL);
  int n = 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  g_assert_cmpint (n, ==, 1);

  /* permissions of a replaced file stay */
  g_chmod (path, 0600);
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* a directory that does not exist */
  g_autofree char *nowhere = g_build_filename (dir, "no", "such", "x.npy", NULL);
  g_assert_false (tl_matrix_save (m, nowhere, TL_FORMAT_AUTO, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "x.npy"));
  g_clear_error (&error);

  /* an extension that names no format */
  g_autofree char *unknown = g_build_filename (dir, "x.xlsx", NULL);
  g_assert_false (tl_matrix_save (m, unknown, TL_FORMAT_AUTO, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_clear_error (&error);

  /* loading what is not there, or not a file */
  g_autofree char *missing = g_build_filename (dir, "missing.csv", NULL);
  io_test_expect_error (missing, TL_FORMAT_AUTO, TL_ERROR_IO, ": ");
  g_assert_null (tl_matrix_load (dir, TL_FORMAT_AUTO, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_clear_error (&error);

  /* no extension: the content decides */
  g_autofree char *bare = g_build_filename (dir, "bare", NULL);
  g_assert_true (tl_matrix_save (m, bare, TL_FORMAT_NPY, &error));
  TlFormat got;
  g_autoptr (TlMatrix) back = tl_matrix_load_full (bare, TL_FORMAT_AUTO, &got, &error);
  g_assert_no_error (error);
  g_assert_cmpint (got, ==, TL_FORMAT_NPY);
  g_assert_true (tl_matrix_equal (back, m));
  io_test_rmdir (dir);
}

/* Every format × dtype, including save in one format and load in another. */
static void
test_cross (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const char *const names[] = { "a.mtx", "a.npy", "a.csv", "a.tsv", "a.txt" };
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      g_autoptr (TlMatrix) m = io_test_random (d, 5, 3);
      for (gsize k = 0; k < G_N_ELEMENTS (names); k++)
        {
          g_autofree char *path = g_build_filename (dir, names[k], NULL);
          io_test_round_trip (m, path, TL_FORMAT_AUTO, !g_str_has_suffix (names[k], "sv"));
        }
    }
  io_test_rmdir (dir);
}

static int
code_from_name (const char *name)
{
  if (g_str_equal (name, "parse"))
    return TL_ERROR_PARSE;
  if (g_str_equal (name, "too-large"))
    return TL_ERROR_TOO_LARGE;
  if (g_str_equal (name, "unsupported"))
    return TL_ERROR_UNSUPPORTED;
  if (g_str_equal (name, "io"))
    return TL_ERROR_IO;
  g_error ("unknown code %s in EXPECTED", name);
}

static void
test_corpus_bad (void)
{
  g_autofree char *manifest = g_test_build_filename (G_TEST_DIST, "data", "bad", "EXPECTED", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (manifest, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  int checked = 0;
  for (int k = 0; lines[k]; k++)
    {
      if (lines[k][0] == '#' || lines[k][0] == '\0')
        continue;
      g_auto (GStrv) f = g_strsplit (lines[k], " ", 3);
      g_assert_cmpuint (g_strv_length (f), ==, 3);
      g_autofree char *where = g_strdelimit (g_strdup (f[2]), "_", ' ');
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "bad", f[0], NULL);
      io_test_expect_error (path, TL_FORMAT_AUTO, code_from_name (f[1]), where);
      checked++;
    }
  g_assert_cmpint (checked, >=, 30);
}

static void
test_corpus_good (void)
{
  g_autofree char *manifest = g_test_build_filename (G_TEST_DIST, "data", "good", "EXPECTED", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (manifest, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (int k = 0; lines[k]; k++)
    {
      if (lines[k][0] == '#' || lines[k][0] == '\0')
        continue;
      g_auto (GStrv) f = g_strsplit (lines[k], " ", 3);
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "good", f[0], NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (TlMatrix) m = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (m->rows, ==, g_ascii_strtoull (f[1], NULL, 10));
      g_assert_cmpuint (m->cols, ==, g_ascii_strtoull (f[2], NULL, 10));
      TlMatrixStats st;
      tl_matrix_stats (m, &st);
      if (strstr (f[0], "nan-inf"))
        g_assert_cmpuint (st.n_nan + st.n_inf, >=, 2);
      else
        g_assert_cmpuint (st.n_nan + st.n_inf, ==, 0);
    }
}

/* Cut a valid file at every length: each prefix either loads (a shorter
 * but complete file can be valid) or fails with a message naming the
 * file — never a crash. */
static void
test_every_prefix (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const char *const names[] = { "p.mtx", "p.npy", "p.csv", "p.txt" };
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT32, 3, 2);
  for (gsize k = 0; k < G_N_ELEMENTS (names); k++)
    {
      gsize len;
      g_autofree char *bytes = io_test_save_bytes (dir, names[k], m, &len);
      g_autofree char *cut_name = g_strconcat ("cut-", names[k], NULL);
      g_autofree char *cut = g_build_filename (dir, cut_name, NULL);
      for (gsize n = 0; n < len; n++)
        {
          g_assert_true (io_test_set (cut, bytes, n));
          g_autoptr (GError) error = NULL;
          g_autoptr (TlMatrix) got = tl_matrix_load (cut, TL_FORMAT_AUTO, &error);
          g_assert_true ((got == NULL) != (error == NULL));
          if (error)
            g_assert_nonnull (strstr (error->message, "cut-"));
          if (got && g_str_has_suffix (names[k], ".npy"))
            g_error ("a truncated .npy (%zu of %zu bytes) loaded", n, len);
        }
    }
  io_test_rmdir (dir);
}

/* Random damage to valid files: flipped bytes, inserted digits and
 * delimiters.  Each result either loads or fails with a message naming the
 * file; nothing crashes (run under ASan/valgrind for the full value). */
static void
test_mutations (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const char *const names[] = { "f.mtx", "f.npy", "f.csv", "f.txt", "f.tsv" };
  static const char noise[] = "0123456789 \n\r\t,;.-+eE%#\"'()[]{}:nanif";
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 4, 3);
  int n_loaded = 0, n_refused = 0;
  io_test_add_nonfinite (m);
  for (gsize k = 0; k < G_N_ELEMENTS (names); k++)
    {
      gsize len;
      g_autofree char *bytes = io_test_save_bytes (dir, names[k], m, &len);
      g_autofree char *mut_name = g_strconcat ("mut-", names[k], NULL);
      g_autofree char *mut = g_build_filename (dir, mut_name, NULL);
      int rounds = g_test_slow () ? 5000 : 200;
      for (int round = 0; round < rounds; round++)
        {
          g_autoptr (GString) b = g_string_new_len (bytes, (gssize) len);
          int edits = g_test_rand_int_range (1, 4);
          for (int e = 0; e < edits && b->len > 0; e++)
            {
              gssize at = g_test_rand_int_range (0, (gint32) b->len);
              char c = noise[g_test_rand_int_range (0, sizeof noise - 1)];
              switch (g_test_rand_int_range (0, 4))
                {
                case 0: b->str[at] = (char) g_test_rand_int_range (0, 256); break;
                case 1: b->str[at] = c; break;
                case 2: g_string_erase (b, at, 1); break;
                default: g_string_insert_c (b, at, c); break;
                }
            }
          g_assert_true (io_test_set (mut, b->str, b->len));
          g_autoptr (GError) error = NULL;
          g_autoptr (TlMatrix) got = tl_matrix_load (mut, TL_FORMAT_AUTO, &error);
          g_assert_true ((got == NULL) != (error == NULL));
          if (error)
            g_assert_nonnull (strstr (error->message, "mut-"));
          if (got)
            n_loaded++;
          else
            n_refused++;
        }
    }
  g_test_message ("mutated files: %d loaded, %d refused", n_loaded, n_refused);
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/io/names", test_names);
  g_test_add_func ("/io/numbers", test_numbers);
  g_test_add_func ("/io/atomic", test_atomic);
  g_test_add_func ("/io/cross", test_cross);
  g_test_add_func ("/io/corpus-bad", test_corpus_bad);
  g_test_add_func ("/io/corpus-good", test_corpus_good);
  g_test_add_func ("/io/every-prefix", test_every_prefix);
  g_test_add_func ("/io/mutations", test_mutations);
  return g_test_run ();
}
