/* test-io-write.c — the writers' fast paths read back exactly: runs of
 * zeros copied instead of formatted, Matrix Market's columns gathered a
 * block at a time (and a long column in pieces), .npy in large blocks,
 * and the dense form of a large sparse Matrix Market file. */
#include "io-test-util.h"
#include "io/tl-csv.h"
#include "io/tl-io-writer.h"
#include "io/tl-mtx.h"
#include "io/tl-text.h"

/* Bit for bit, so that −0 against +0 counts (tl_matrix_equal does not). */
static void
assert_same_bits (const TlMatrix *a, const TlMatrix *b, const char *what)
{
  g_assert_cmpuint (a->rows, ==, b->rows);
  g_assert_cmpuint (a->cols, ==, b->cols);
  g_assert_cmpint (a->dtype, ==, b->dtype);
  gsize row_bytes = a->cols * tl_dtype_size (a->dtype);
  for (gsize i = 0; i < a->rows; i++)
    if (memcmp (tl_matrix_row (a, i), tl_matrix_row (b, i), row_bytes) != 0)
      for (gsize j = 0; j < a->cols; j++)
        if (memcmp ((const char *) tl_matrix_row (a, i) + j * tl_dtype_size (a->dtype),
                    (const char *) tl_matrix_row (b, i) + j * tl_dtype_size (a->dtype),
                    tl_dtype_size (a->dtype)) != 0)
          g_error ("%s: (%zu, %zu) was %.17g, read back %.17g", what, i, j,
                   tl_matrix_get (a, i, j), tl_matrix_get (b, i, j));
}

static TlMatrix *
save_and_load (const TlMatrix *m, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
  g_assert_no_error (error);
  TlMatrix *back = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  return back;
}

/* Zeros where a run starts a row, ends it, fills it, stands alone between
 * values, and −0 inside a run (it must keep its sign); the rest random. */
static void
punch_zeros (TlMatrix *m)
{
  gsize c = m->cols;
  for (gsize j = 0; j < c; j++)
    {
      tl_matrix_set (m, 0, j, 0);
      if (j < 3)
        tl_matrix_set (m, 1, j, 0);
      if (j + 4 >= c)
        tl_matrix_set (m, 2, j, 0);
      if (j % 2 == 0)
        tl_matrix_set (m, 4, j, 0);
    }
  tl_matrix_set (m, 3, c / 2, 0);
  if (m->dtype != TL_DTYPE_INT32)
    tl_matrix_set (m, 0, c / 2, -0.0);
}

static void
test_zero_runs (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  static const char *const names[] = { "z.csv", "z.tsv", "z.txt", "z.mtx", "z.npy" };
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    for (gsize n = 0; n < G_N_ELEMENTS (names); n++)
      {
        g_autoptr (TlMatrix) m = io_test_random (d, 6, 11);
        punch_zeros (m);
        g_autofree char *path = g_build_filename (dir, names[n], NULL);
        g_autoptr (TlMatrix) back = save_and_load (m, path);
        assert_same_bits (m, back, path);
      }
  io_test_rmdir (dir);
}

static char *
write_to_string (const TlMatrix *m, TlIoWriteFunc func, gpointer user_data)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  g_autoptr (GError) error = NULL;
  g_assert_true (func (f, m, user_data, &error));
  g_assert_no_error (error);
  fclose (f);
  return text;
}

/* What the writers print for zeros, exactly: "0.0" in CSV's float
 * columns, "0" elsewhere, "-0" kept, and a run longer than the copy
 * block and the output chunk (64 KiB) split nowhere wrong. */
static void
test_zero_text (void)
{
  g_autoptr (TlMatrix) f = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, 2, 3, NULL);
  tl_matrix_set (f, 0, 2, 1.5);
  tl_matrix_set (f, 1, 1, -0.0);
  g_autofree char *csv = write_to_string (f, tl_csv_write, GINT_TO_POINTER (','));
  g_assert_cmpstr (csv, ==, "0.0,0.0,1.5\n0.0,-0.0,0.0\n");
  g_autofree char *txt = write_to_string (f, tl_text_write, NULL);
  g_assert_cmpstr (txt, ==, "2 3 float64\n0 0 1.5\n0 -0 0\n");
  g_autofree char *mtx = write_to_string (f, tl_mtx_write, NULL);
  g_assert_nonnull (g_strrstr (mtx, "\n2 3\n0\n0\n0\n-0\n1.5\n0\n"));

  g_autoptr (TlMatrix) i = tl_matrix_new_zeroed (TL_DTYPE_INT32, 1, 3, NULL);
  tl_matrix_set (i, 0, 1, 7);
  g_autofree char *icsv = write_to_string (i, tl_csv_write, GINT_TO_POINTER ('\t'));
  g_assert_cmpstr (icsv, ==, "0\t7\t0\n");

  gsize wide = 70000;
  g_autoptr (TlMatrix) w = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, 1, wide, NULL);
  tl_matrix_set (w, 0, 40000, 2.5);
  g_autofree char *wcsv = write_to_string (w, tl_csv_write, GINT_TO_POINTER (','));
  g_autoptr (GString) expect = g_string_new (NULL);
  for (gsize j = 0; j < wide; j++)
    g_string_append (expect, j == 0 ? "0.0" : j == 40000 ? ",2.5" : ",0.0");
  g_string_append_c (expect, '\n');
  g_assert_cmpstr (wcsv, ==, expect->str);
}

/* Sparse random values: mostly zeros, as a dense save of a sparse file. */
static TlMatrix *
sparse_random (TlDtype dtype, gsize rows, gsize cols, gsize count)
{
  TlMatrix *m = tl_matrix_new_zeroed (dtype, rows, cols, NULL);
  g_assert_nonnull (m);
  for (gsize k = 0; k < count; k++)
    tl_matrix_set (m, (gsize) g_test_rand_int_range (0, (gint32) rows),
                   (gsize) g_test_rand_int_range (0, (gint32) cols),
                   g_test_rand_int_range (-1000, 1000) + 0.25 * (dtype != TL_DTYPE_INT32));
  tl_matrix_set (m, rows - 1, cols - 1, 9);
  return m;
}

/* Matrix Market is column by column: columns gathered many at a time
 * (several blocks of them), and a column longer than the gather buffer
 * (4 MiB) in pieces; a view (not contiguous) through .npy's row path. */
static void
test_mtx_columns (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "c.mtx", NULL);
  static const struct { TlDtype dtype; gsize rows, cols; } shapes[] = {
    { TL_DTYPE_FLOAT64, 3, 400000 },   /* 174762 columns a block: three blocks */
    { TL_DTYPE_FLOAT64, 600001, 2 },   /* 524288 rows a piece: two pieces a column */
    { TL_DTYPE_INT32, 1100000, 1 },    /* 1048576 rows a piece */
    { TL_DTYPE_FLOAT32, 37, 29 },
  };
  for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr (TlMatrix) m = sparse_random (shapes[s].dtype, shapes[s].rows, shapes[s].cols,
                                              5000);
      g_autoptr (TlMatrix) back = save_and_load (m, path);
      assert_same_bits (m, back, path);
    }

  g_autofree char *npy = g_build_filename (dir, "v.npy", NULL);
  g_autoptr (TlMatrix) big = io_test_random (TL_DTYPE_FLOAT32, 40, 30);
  g_autoptr (TlMatrix) view = tl_matrix_view (big, 3, 5, 20, 7);
  g_assert_false (tl_matrix_is_contiguous (view));
  g_autoptr (TlMatrix) back = save_and_load (view, npy);
  g_autoptr (TlMatrix) copy = tl_matrix_copy (view, NULL);
  assert_same_bits (copy, back, npy);
  io_test_rmdir (dir);
}

/* A 90-byte coordinate file declaring 3000 × 2000 with three entries:
 * every dense format writes it (mostly copied zeros) and reads it back
 * as the same matrix. */
static void
test_sparse_declared (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *src = io_test_write_text (dir, "s.mtx",
    "%%MatrixMarket matrix coordinate real general\n3000 2000 3\n1 1 1.5\n"
    "1500 7 -2\n3000 2000 4e-300\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load (src, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (tl_matrix_get (m, 1499, 6), ==, -2);
  static const char *const names[] = { "d.csv", "d.txt", "d.mtx", "d.npy" };
  for (gsize n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autofree char *path = g_build_filename (dir, names[n], NULL);
      g_autoptr (TlMatrix) back = save_and_load (m, path);
      assert_same_bits (m, back, path);
    }
  io_test_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/io-write/zero-runs", test_zero_runs);
  g_test_add_func ("/io-write/zero-text", test_zero_text);
  g_test_add_func ("/io-write/mtx-columns", test_mtx_columns);
  g_test_add_func ("/io-write/sparse-declared", test_sparse_declared);
  return g_test_run ();
}
