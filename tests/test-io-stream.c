/* test-io-stream.c — the text readers stream their files through a window
 * (io/tl-io-source.h): lines and tokens across the window's edges, a row
 * longer than the window, lone CRs at its edge, an over-long token, the
 * dtype decided late (int32 until the last value), the .txt header rule,
 * and Matrix Market duplicates found without sorting. */
#include "io/tl-io.h"
#include "io/tl-io-source.h"
#include "io/tl-csv.h"

#include <math.h>
#include <string.h>

#include "io-test-util.h"

/* One row of n values: a line several windows long. */
static void
test_long_row (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  const gsize n = 400000; /* about 3.5 MiB: three and a half windows */
  g_autoptr (GString) text = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (gsize j = 0; j < n; j++)
    g_string_append_printf (text, "%s%s", j ? "," : "",
                            g_ascii_formatd (buf, sizeof buf, "%.3f", (double) j / 8.0 + 0.001));
  g_string_append_c (text, '\n');
  g_assert_cmpuint (text->len, >, 3 * TL_IO_WINDOW);
  g_autofree char *p = io_test_write (dir, "row.csv", text->str, text->len);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load (p, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->rows, ==, 1);
  g_assert_cmpuint (m->cols, ==, n);
  for (gsize j = 0; j < n; j += 997)
    g_assert_cmpfloat (tl_matrix_get (m, 0, j), ==,
                       g_ascii_strtod (g_ascii_formatd (buf, sizeof buf, "%.3f",
                                                        (double) j / 8.0 + 0.001), NULL));
  io_test_rmdir (dir);
}

/* A line end at every position around the window's edge: "\r\n" split
 * across it, a lone "\r" as its last byte, a number split across it. */
static void
test_window_edges (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  for (int shift = -2; shift <= 2; shift++)
    for (int style = 0; style < 3; style++)
      {
        const char *end = style == 0 ? "\r\n" : style == 1 ? "\r" : "\n";
        g_autoptr (GString) text = g_string_new (NULL);
        gsize rows = 0;
        /* rows "r,12345" until just before the edge, then one padded to
         * end at the edge + shift: its line end on, before or across it */
        while (text->len + 40 < TL_IO_WINDOW)
          g_string_append_printf (text, "%zu,%d%s", rows, (int) (rows * 7 % 100000), end), rows++;
        g_autofree char *last = g_strdup_printf ("%zu,%d%s", rows, (int) (rows * 7 % 100000), end);
        while ((gssize) (text->len + strlen (last)) < (gssize) TL_IO_WINDOW + shift)
          g_string_append_c (text, ' ');
        g_string_append (text, last), rows++;
        for (int k = 0; k < 4; k++)
          g_string_append_printf (text, "%zu,%d%s", rows, (int) (rows * 7 % 100000), end), rows++;
        /* a name of its own: io_test_write does not shorten a longer file */
        g_autofree char *name = g_strdup_printf ("edge-%d-%d.csv", shift + 3, style);
        g_autofree char *p = io_test_write (dir, name, text->str, text->len);
        g_autoptr (GError) error = NULL;
        g_autoptr (TlMatrix) m = tl_matrix_load (p, TL_FORMAT_AUTO, &error);
        if (error != NULL)
          g_error ("shift %d, line end %d: %s", shift, style, error->message);
        g_assert_cmpuint (m->rows, ==, rows);
        g_assert_cmpuint (m->cols, ==, 2);
        g_assert_cmpint (m->dtype, ==, TL_DTYPE_INT32);
        for (gsize i = 0; i < rows; i++)
          {
            g_assert_cmpfloat (tl_matrix_get (m, i, 0), ==, (double) i);
            g_assert_cmpfloat (tl_matrix_get (m, i, 1), ==, (double) (i * 7 % 100000));
          }
      }
  io_test_rmdir (dir);
}

/* A token longer than TL_IO_MAX_TOKEN is an error with its position,
 * not a buffer as long as the file. */
static void
test_long_token (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (GString) text = g_string_new ("1,2\n3,");
  for (gsize k = 0; k < TL_IO_MAX_TOKEN + 10; k++)
    g_string_append_c (text, '7');
  g_string_append (text, "\n");
  g_autofree char *p = io_test_write (dir, "long.csv", text->str, text->len);
  io_test_expect_error (p, TL_FORMAT_AUTO, TL_ERROR_PARSE, ":2:3: a value or field longer than");
  io_test_rmdir (dir);
}

/* int32 until the very last value, which makes the table float64: every
 * value kept, the int32 copy gone. */
static void
test_widen_late (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (GString) text = g_string_new ("# a comment first\n\n");
  const gsize rows = 50000;
  for (gsize i = 0; i < rows; i++)
    g_string_append_printf (text, "%zu;%d\n", i, -(int) i);
  g_string_append (text, "7;0,5\n"); /* a decimal comma, the table's only fraction */
  g_autofree char *p = io_test_write (dir, "late.csv", text->str, text->len);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load (p, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (m->dtype, ==, TL_DTYPE_FLOAT64);
  g_assert_cmpuint (m->rows, ==, rows + 1);
  g_assert_cmpfloat (tl_matrix_get (m, rows - 1, 1), ==, -(double) (rows - 1));
  g_assert_cmpfloat (tl_matrix_get (m, rows, 1), ==, 0.5);
  io_test_rmdir (dir);
}

/* What Tilelab writes, it reads as the same matrix of the same dtype:
 * a float64 of whole numbers is written "1.0" in CSV, and -0.0 keeps
 * its sign. */
static void
test_csv_keeps_float64 (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *p = g_build_filename (dir, "w.csv", NULL);
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 3, NULL);
  double values[6] = { 1, -2, 0, -0.0, 1e22, 3 };
  memcpy (m->data, values, sizeof values);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_matrix_save (m, p, TL_FORMAT_AUTO, &error));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (p, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "1.0,-2.0,0.0\n-0.0,1e+22,3.0\n");
  g_autoptr (TlMatrix) back = tl_matrix_load (p, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->dtype, ==, TL_DTYPE_FLOAT64);
  g_assert_true (tl_matrix_equal (m, back));
  g_assert_true (signbit (tl_matrix_get (back, 1, 0)));
  io_test_rmdir (dir);
}

typedef struct
{
  const char *text;
  TlFormat format;
  gsize rows, cols;
  const char *note;
} TxtCase;

/* A .txt's "rows cols" first line is a header only when exactly rows ×
 * cols values follow and the lines do not contradict it; `info` shows
 * the note that says which reading was chosen. */
static void
test_txt_header_rule (void)
{
  static const TxtCase cases[] = {
    { "2 3\n1 2 3\n4 5 6\n", TL_FORMAT_TEXT, 2, 3, "read as the header" },
    { "4 1\n5 6\n7 8\n", TL_FORMAT_CSV, 3, 2, "every line holds two values, not 1" },
    { "2 2\n1 2\n3 4\n", TL_FORMAT_TEXT, 2, 2, "it could also be the first row of a 3×2 table" },
    { "2 2\n1 2\n3 4\n5 6\n", TL_FORMAT_CSV, 4, 2, "more than 4 values follow" },
    { "3 1\n5\n6\n7\n", TL_FORMAT_TEXT, 3, 1, "read as the header" },
    { "2 2\n1 2 3 4\n", TL_FORMAT_TEXT, 2, 2, "read as the header" },
    { "1 2\n", TL_FORMAT_CSV, 1, 2, "0 values follow, not 2" },
    { "2 2 int32\n1 2\n3 4\n", TL_FORMAT_TEXT, 2, 2, NULL },
  };
  g_autofree char *dir = io_test_tmpdir ();
  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      const TxtCase *c = &cases[k];
      g_autofree char *name = g_strdup_printf ("m%zu.txt", k);
      g_autofree char *p = io_test_write_text (dir, name, c->text);
      g_autoptr (GError) error = NULL;
      TlLoadInfo info;
      g_autoptr (TlMatrix) m = tl_matrix_load_with (p, TL_FORMAT_AUTO, NULL, &info, &error);
      g_assert_no_error (error);
      g_assert_cmpint (info.format, ==, c->format);
      g_assert_cmpuint (m->rows, ==, c->rows);
      g_assert_cmpuint (m->cols, ==, c->cols);
      if (c->note == NULL)
        g_assert_null (info.note);
      else if (strstr (info.note, c->note) == NULL)
        g_error ("case %zu: the note “%s” lacks “%s”", k, info.note, c->note);
      tl_load_info_clear (&info);
    }
  io_test_rmdir (dir);
}

/* Duplicates are found as the entries are read (a bitmap, not a sort of
 * every entry), and named with the line that gave the position first. */
static void
test_mtx_duplicates (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *p = io_test_write_text (dir, "dup.mtx",
    "%%MatrixMarket matrix coordinate real general\n% c\n1000 1000 4\n"
    "5 6 1\n1 1 2\n5 6 3\n7 7 4\n");
  io_test_expect_error (p, TL_FORMAT_AUTO, TL_ERROR_PARSE,
                        ":6:1: duplicate entry (5, 6), first given on line 4");

  /* a sparse file declaring a large matrix: the rest is zero */
  g_autofree char *q = io_test_write_text (dir, "sparse.mtx",
    "%%MatrixMarket matrix coordinate integer symmetric\n3000 3000 2\n3000 1 -5\n2 2 9\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load (q, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (m->dtype, ==, TL_DTYPE_INT32);
  g_assert_cmpfloat (tl_matrix_get (m, 2999, 0), ==, -5);
  g_assert_cmpfloat (tl_matrix_get (m, 0, 2999), ==, -5);
  g_assert_cmpfloat (tl_matrix_get (m, 1, 1), ==, 9);
  g_assert_cmpfloat (tl_matrix_get (m, 1500, 1500), ==, 0);
  io_test_rmdir (dir);
}

/* The in-memory source walks a buffer as the file source walks a file. */
/* A watched load publishes the file's size and how far it has read: at
 * the end of a CSV of several windows, within the last window of its end
 * (the row-count pass not counted); of a .npy, all of it.  Every format
 * gives the same matrix as an unwatched load. */
static void
test_load_progress (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 700, 300); /* 4.6 MB as CSV */
  static const char *const names[] = { "p.csv", "p.txt", "p.mtx", "p.npy" };
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = g_build_filename (dir, names[k], NULL);
      g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, NULL));
      GStatBuf st;
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      TlLoadProgress progress = { 12345, 678 };
      g_autoptr (GError) error = NULL;
      g_autoptr (TlMatrix) back = tl_matrix_load_watched (path, TL_FORMAT_AUTO, NULL, &progress,
                                                          NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (back->data, tl_matrix_n_bytes (back), m->data, tl_matrix_n_bytes (m));
      g_assert_cmpuint (progress.size, ==, (gsize) st.st_size);
      g_assert_cmpuint (progress.done, <=, progress.size);
      if (g_str_has_suffix (names[k], ".npy"))
        g_assert_cmpuint (progress.done, ==, progress.size);
      else
        g_assert_cmpuint (progress.done + TL_IO_WINDOW, >=, progress.size);
    }
  io_test_rmdir (dir);
}

static void
test_memory_source (void)
{
  const char text[] = "\xef\xbb\xbf" "a,b\r1,2\r\n3,4\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_csv_load_data ("mem.csv", text, sizeof text - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->rows, ==, 2);
  g_assert_cmpfloat (tl_matrix_get (m, 1, 1), ==, 4);
  g_clear_pointer (&m, tl_matrix_unref);
  const char bad[] = "1,2\n3,\x00\n";
  m = tl_csv_load_data ("mem.csv", bad, sizeof bad - 1, &error);
  g_assert_null (m);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "mem.csv:2:3: a NUL byte"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/io-stream/long-row", test_long_row);
  g_test_add_func ("/io-stream/window-edges", test_window_edges);
  g_test_add_func ("/io-stream/long-token", test_long_token);
  g_test_add_func ("/io-stream/widen-late", test_widen_late);
  g_test_add_func ("/io-stream/csv-keeps-float64", test_csv_keeps_float64);
  g_test_add_func ("/io-stream/txt-header-rule", test_txt_header_rule);
  g_test_add_func ("/io-stream/mtx-duplicates", test_mtx_duplicates);
  g_test_add_func ("/io-stream/load-progress", test_load_progress);
  g_test_add_func ("/io-stream/memory-source", test_memory_source);
  return g_test_run ();
}
