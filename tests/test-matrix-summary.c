/* test-matrix-summary.c — stats and the four norms in one pass, against a
 * float64 (long double for the Frobenius norm) reference computed
 * element by element; fed in pieces of any size; a matrix too wide for
 * column sums; and `info`'s streaming summary of .npy, CSV and text
 * files against the loaded matrix's. */
#include "core/tl-error.h"
#include "core/tl-matrix-summary.h"
#include "core/tl-rng.h"
#include "io/tl-io-summary.h"

#include <float.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* A rows × cols float64 matrix of normal values, a few scaled far up or down. */
static TlMatrix *
random_matrix (TlRng *rng, gsize rows, gsize cols, double wild)
{
  TlMatrix *m = tl_matrix_new (TL_DTYPE_FLOAT64, rows, cols, NULL);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      {
        double v = tl_rng_normal (rng), u = tl_rng_uniform (rng);
        tl_matrix_set (m, i, j, u < 0.02 ? v * wild : u < 0.04 ? v / wild : v);
      }
  return m;
}

static void
assert_reference (const TlMatrix *m, const TlMatrixSummary *s)
{
  double one = 0, inf = 0, max = 0, sum = 0, lo = INFINITY, hi = -INFINITY;
  long double scale = 0, ssq = 0;
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      scale = fmaxl (scale, fabsl ((long double) tl_matrix_get (m, i, j)));
  for (gsize i = 0; i < m->rows; i++)
    {
      double row = 0;
      for (gsize j = 0; j < m->cols; j++)
        {
          double v = tl_matrix_get (m, i, j);
          row += fabs (v), sum += v, lo = fmin (lo, v), hi = fmax (hi, v), max = fmax (max, fabs (v));
          long double r = scale > 0 ? (long double) v / scale : 0;
          ssq += r * r;
        }
      inf = fmax (inf, row);
    }
  for (gsize j = 0; j < m->cols; j++)
    {
      double col = 0;
      for (gsize i = 0; i < m->rows; i++)
        col += fabs (tl_matrix_get (m, i, j));
      one = fmax (one, col);
    }
  g_assert_cmpuint (s->stats.n_finite, ==, m->rows * m->cols);
  g_assert_cmpfloat (s->stats.min, ==, lo);
  g_assert_cmpfloat (s->stats.max, ==, hi);
  g_assert_cmpfloat (s->stats.mean, ==, sum / (double) (m->rows * m->cols));
  g_assert_cmpfloat (s->norm_max, ==, max);
  g_assert_cmpfloat (s->norm_inf, ==, inf); /* summed in the same order */
  g_assert_cmpfloat_with_epsilon (s->norm_one / one, 1.0, 1e-15);
  double frobenius = (double) (scale * sqrtl (ssq));
  g_assert_cmpfloat_with_epsilon (s->norm_frobenius / frobenius, 1.0, 1e-14);
}

static void
test_against_reference (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  const double wild[] = { 1.0, 1e200, 1e300 }; /* huge and tiny beside ordinary values */
  const gsize shapes[][2] = { { 37, 53 }, { 1, 1001 }, { 1000, 1 }, { 129, 257 } };
  for (guint w = 0; w < G_N_ELEMENTS (wild); w++)
    for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
      {
        g_autoptr (TlMatrix) m = random_matrix (&rng, shapes[k][0], shapes[k][1], wild[w]);
        TlMatrixSummary s;
        tl_matrix_summarize (m, &s);
        assert_reference (m, &s);

        /* the same values fed in pieces of random sizes: the same summary */
        TlSummaryPass pass;
        tl_summary_pass_begin (&pass, m->rows, m->cols);
        const double *v = m->data;
        for (gsize at = 0, n; at < m->rows * m->cols; at += n)
          {
            gsize want = (gsize) tl_rng_int_range (&rng, 1, 300);
            n = MIN (want, m->rows * m->cols - at);
            tl_summary_pass_add (&pass, v + at, n);
          }
        TlMatrixSummary pieces;
        g_assert_true (tl_summary_pass_end (&pass, &pieces));
        g_assert_cmpmem (&pieces, sizeof pieces, &s, sizeof s);
      }
}

static void
test_nan_inf_and_empty (void)
{
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT32, 2, 3, NULL);
  const double v[] = { 1, -2, NAN, INFINITY, 3, -4 };
  for (int k = 0; k < 6; k++)
    tl_matrix_set (m, k / 3, k % 3, v[k]);
  TlMatrixSummary s;
  tl_matrix_summarize (m, &s);
  g_assert_cmpuint (s.stats.n_nan, ==, 1);
  g_assert_cmpuint (s.stats.n_inf, ==, 1);
  g_assert_cmpuint (s.stats.n_finite, ==, 4);
  g_assert_cmpfloat (s.stats.min, ==, -4);
  g_assert_cmpfloat (s.stats.max, ==, 3);
  g_assert_cmpfloat (s.stats.mean, ==, -0.5);
  g_assert_cmpfloat (s.norm_max, ==, INFINITY);
  g_assert_cmpfloat (s.norm_inf, ==, INFINITY); /* the NaN row never wins, the Inf row does */
  g_assert_cmpfloat (s.norm_one, ==, INFINITY);
  g_assert_true (isnan (s.norm_frobenius));

  /* a sum beyond float64 on the way: the mean as it is, not Inf */
  g_autoptr (TlMatrix) huge = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
  const double big[] = { 1e308, 1e308, -1e308, 1e308 };
  memcpy (huge->data, big, sizeof big);
  tl_matrix_summarize (huge, &s);
  g_assert_cmpfloat_with_epsilon (s.stats.mean / 5e307, 1.0, 1e-15);

  g_autoptr (TlMatrix) empty = tl_matrix_new (TL_DTYPE_FLOAT64, 0, 7, NULL);
  tl_matrix_summarize (empty, &s);
  g_assert_cmpuint (s.stats.n_finite, ==, 0);
  g_assert_cmpfloat (s.norm_one + s.norm_inf + s.norm_frobenius + s.norm_max, ==, 0);
}

/* Two rows wider than TL_SUMMARY_MAX_COLS: no column sums, the 1-norm by
 * a second pass; one such row: its largest |value|. */
static void
test_too_wide (void)
{
  gsize cols = TL_SUMMARY_MAX_COLS + 3;
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_INT32, 2, cols, NULL);
  gint32 *d = m->data;
  for (gsize k = 0; k < 2 * cols; k++)
    d[k] = (gint32) (k % 7) - 3;
  d[cols - 1] = 1000, d[2 * cols - 1] = -999; /* the last column: 1999 */
  TlMatrixSummary s;
  tl_matrix_summarize (m, &s);
  g_assert_cmpfloat (s.norm_one, ==, 1999);
  g_assert_cmpfloat (s.norm_max, ==, 1000);

  TlSummaryPass pass;
  tl_summary_pass_begin (&pass, 1, cols);
  double row[3] = { -5, 2, 4 };
  tl_summary_pass_add (&pass, row, 3);
  g_assert_true (tl_summary_pass_end (&pass, &s));
  g_assert_cmpfloat (s.norm_one, ==, 5);
}

/* What a load of path gives: its summary, as `info` printed it before it
 * streamed. */
static void
summary_of_load (const char *path, TlFileSummary *want, TlLoadInfo *info)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) loaded = tl_matrix_load_with (path, TL_FORMAT_AUTO, NULL, info, &error);
  g_assert_no_error (error);
  memset (want, 0, sizeof *want);
  want->dtype = loaded->dtype;
  want->rows = loaded->rows;
  want->cols = loaded->cols;
  tl_matrix_summarize (loaded, &want->summary);
}

/* `info`'s summary of path, streamed with no matrix allowed (cap: a
 * TL_MAX_MATRIX_BYTES no matrix of the file fits), is the loaded
 * matrix's, bit for bit, with the same format and note. */
static void
assert_streams_as_loaded (const char *path, const char *cap)
{
  TlFileSummary want, got;
  TlLoadInfo want_info, info;
  summary_of_load (path, &want, &want_info);
  g_autoptr (GError) error = NULL;
  if (cap)
    g_setenv ("TL_MAX_MATRIX_BYTES", cap, TRUE);
  gboolean ok = tl_matrix_file_summarize (path, TL_FORMAT_AUTO, &info, &got, &error);
  g_unsetenv ("TL_MAX_MATRIX_BYTES");
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (info.format, ==, want_info.format);
  g_assert_cmpstr (info.note, ==, want_info.note);
  g_assert_cmpmem (&got, sizeof got, &want, sizeof want);
  tl_load_info_clear (&info);
  tl_load_info_clear (&want_info);
}

static char *
write_file (const char *dir, const char *name, const void *bytes, gsize len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  return path;
}

/* An .npy of the given header dict and data (magic, version 1.0, the
 * dict padded to 128 bytes). */
static char *
write_npy (const char *dir, const char *name, const char *dict, const void *data, gsize len)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  char head[128];
  memset (head, ' ', sizeof head);
  memcpy (head, "\x93NUMPY\x01\x00\x76\x00", 10);
  g_assert_cmpuint (strlen (dict), <, sizeof head - 10);
  memcpy (head + 10, dict, strlen (dict));
  head[127] = '\n';
  g_byte_array_append (bytes, (const guint8 *) head, sizeof head);
  g_byte_array_append (bytes, data, (guint) len);
  return write_file (dir, name, bytes->data, bytes->len);
}

/* info's summary, streamed from the file, says what the loaded matrix
 * does: every dtype in .npy, CSV and text, and under a cap on matrices
 * that none of them fits */
static void
test_file_stream (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT64, TL_DTYPE_FLOAT32, TL_DTYPE_INT32 };
  const char *const names[] = { "m.npy", "m.csv", "m.txt" };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (guint f = 0; f < G_N_ELEMENTS (names); f++)
      {
        g_autoptr (TlMatrix) wide = random_matrix (&rng, 301, 1111, 1e30);
        g_autoptr (TlMatrix) m = tl_matrix_convert (wide, dtypes[d], &error);
        g_assert_no_error (error);
        g_autofree char *path = g_build_filename (dir, names[f], NULL);
        g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
        assert_streams_as_loaded (path, "4096");
        g_assert_cmpint (g_remove (path), ==, 0);
      }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* The readers' own cases: int32 values widened to float64 at the last,
 * a CSV header row, a "rows cols" line that is (not) a header, shapes
 * without cells, .npy of int64, big-endian and Fortran order. */
static void
test_file_stream_cases (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  static const struct { const char *name, *text; } texts[] = {
    { "widen.csv", "1,2,3\n4,5,6\n7,8,9.5\n" },
    { "header.csv", "a;b\n1,5;-2\n3;4\n" },
    { "header.txt", "2 2\n1 2\n3 4\n" },
    { "savetxt.txt", "2 2\n1 2\n3 4\n5 6\n" },
    { "typed.txt", "2 3 float32\n0.1 0.2 0.3\n-1e30 nan inf\n" },
    { "empty.txt", "5 0\n" },
    { "none.txt", "0 4 int32\n" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
    {
      g_autofree char *path = write_file (dir, texts[k].name, texts[k].text,
                                          strlen (texts[k].text));
      assert_streams_as_loaded (path, "8");
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  const gint64 ints[6] = { -3, 2000000000, 5, -7, 11, 13 };
  g_autofree char *i8 = write_npy (dir, "i8.npy", "{'descr': '<i8', 'fortran_order': False, "
                                   "'shape': (2, 3), }", ints, sizeof ints);
  assert_streams_as_loaded (i8, "8");
  guint8 big[6 * 8];
  for (int k = 0; k < 6; k++)
    {
      double v = ints[k] * 0.25;
      guint64 bits;
      memcpy (&bits, &v, 8);
      bits = GUINT64_TO_BE (bits);
      memcpy (big + 8 * k, &bits, 8);
    }
  g_autofree char *be = write_npy (dir, "be.npy", "{'descr': '>f8', 'fortran_order': False, "
                                   "'shape': (3, 2), }", big, sizeof big);
  assert_streams_as_loaded (be, "8");
  g_autofree char *column = write_npy (dir, "col.npy", "{'descr': '<i8', 'fortran_order': True, "
                                       "'shape': (6,), }", ints, sizeof ints);
  assert_streams_as_loaded (column, "8");
  g_autofree char *fortran = write_npy (dir, "f.npy", "{'descr': '<i8', 'fortran_order': True, "
                                        "'shape': (2, 3), }", ints, sizeof ints);
  assert_streams_as_loaded (fortran, "8");
  g_autofree char *none = write_npy (dir, "none.npy", "{'descr': '<f4', 'fortran_order': False, "
                                     "'shape': (0, 3), }", NULL, 0);
  assert_streams_as_loaded (none, "8");

  /* an integer beyond int32, named as a load names it */
  const gint64 huge[2] = { 1, (gint64) 1 << 40 };
  g_autofree char *wide = write_npy (dir, "wide.npy", "{'descr': '<i8', 'fortran_order': False, "
                                     "'shape': (1, 2), }", huge, sizeof huge);
  TlLoadInfo info;
  TlFileSummary got;
  g_assert_false (tl_matrix_file_summarize (wide, TL_FORMAT_AUTO, &info, &got, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "row 1, column 2 (1099511627776)"));
  g_clear_error (&error);
  /* in Fortran order, two: the first in the file's order named, as a load
   * names it (row 2, column 1), not the first row's (row 1, column 3) */
  const gint64 two[6] = { 1, (gint64) 1 << 40, 3, 4, -((gint64) 1 << 40), 6 };
  g_autofree char *two_path = write_npy (dir, "two.npy", "{'descr': '<i8', 'fortran_order': True, "
                                         "'shape': (2, 3), }", two, sizeof two);
  g_autoptr (GError) load_error = NULL;
  g_autoptr (TlMatrix) none_loaded = tl_matrix_load (two_path, TL_FORMAT_AUTO, &load_error);
  g_assert_null (none_loaded);
  g_assert_false (tl_matrix_file_summarize (two_path, TL_FORMAT_AUTO, &info, &got, &error));
  g_assert_cmpstr (error->message, ==, load_error->message);
  g_assert_nonnull (strstr (error->message, "row 2, column 1"));
  g_clear_error (&error);
  /* a CSV whose last row is short: the reader's error, the pass's sums freed */
  g_autofree char *short_row = write_file (dir, "short.csv", "1,2\n3\n", 6);
  g_assert_false (tl_matrix_file_summarize (short_row, TL_FORMAT_AUTO, &info, &got, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "short.csv:2:"));
  g_clear_error (&error);

  const char *const all[] = { i8, be, column, fortran, none, wide, two_path, short_row };
  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    g_assert_cmpint (g_remove (all[k]), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Matrices in Fortran order, more rows than one band of a summary holds
 * (1 Mi values): summarized band by band, in row-major order, as the
 * loaded matrix is — 800 × 3000 float32 (columns of 3200 bytes, each
 * band picked out of a pass over the data: 349 rows a band) and 1200 ×
 * 1000 float64 (columns of 9600 bytes, read where they lie: 1048 rows a
 * band). */
static void
test_file_stream_fortran_bands (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  static const struct { gsize rows, cols, size; const char *dict; } files[] = {
    { 800, 3000, 4, "{'descr': '<f4', 'fortran_order': True, 'shape': (800, 3000), }" },
    { 1200, 1000, 8, "{'descr': '<f8', 'fortran_order': True, 'shape': (1200, 1000), }" },
  };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      gsize n = files[f].rows * files[f].cols;
      g_autofree guint8 *data = g_malloc (n * files[f].size);
      for (gsize k = 0; k < n; k++)
        {
          double v = tl_rng_normal (&rng) * (k % 97 == 0 ? 1e20 : 1.0);
          float x = (float) v;
          if (files[f].size == 4)
            memcpy (data + 4 * k, &x, 4);
          else
            memcpy (data + 8 * k, &v, 8);
        }
      g_autofree char *path = write_npy (dir, "bands.npy", files[f].dict, data, n * files[f].size);
      assert_streams_as_loaded (path, "8");
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* an .npy cut short: the header's error, as a load gives it */
static void
test_file_stream_cut (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_autofree char *cut = g_build_filename (dir, "cut.npy", NULL);
  g_autoptr (TlMatrix) small = tl_matrix_new (TL_DTYPE_FLOAT64, 3, 3, NULL);
  g_assert_true (tl_matrix_save (small, cut, TL_FORMAT_NPY, &error));
  g_assert_cmpint (truncate (cut, 190), ==, 0);
  TlLoadInfo info;
  TlFileSummary got;
  g_assert_false (tl_matrix_file_summarize (cut, TL_FORMAT_AUTO, &info, &got, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_assert_cmpint (g_remove (cut), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* How much of a Matrix Market file's summary is the loaded matrix's bit
 * for bit: the rest is within the rounding of a sum in another order. */
typedef enum
{
  MTX_EXACT_NO_SUMS,  /* counts, min, max, max-norm */
  MTX_EXACT_NORMS,    /* and the 1- and ∞-norms (rows and columns each in order) */
  MTX_EXACT_ALL,      /* every figure (the file row after row) */
} MtxExact;

/* got within the rounding of a sum of n terms whose magnitudes add up to
 * abs_sum, taken in another order: each sum is off by at most
 * (n − 1)·ε·abs_sum, two of them twice that */
static void
assert_sum_close (double got, double want, double n, double abs_sum)
{
  if (got == want || (isnan (got) && isnan (want)))
    return;
  double bound = 2 * n * DBL_EPSILON * abs_sum;
  if (!(fabs (got - want) <= bound))
    g_error ("%.17g against %.17g: off by %.3g, more than %.3g", got, want, fabs (got - want),
             bound);
}

/* `info`'s summary of a file (Matrix Market, or an .npy too wide for the
 * column sums), streamed with no matrix allowed (TL_MAX_MATRIX_BYTES 8),
 * against the loaded matrix's */
static void
assert_streams_close (const char *path, MtxExact exact)
{
  g_autoptr (GError) error = NULL;
  TlLoadInfo want_info, info;
  g_autoptr (TlMatrix) m = tl_matrix_load_with (path, TL_FORMAT_AUTO, NULL, &want_info, &error);
  g_assert_no_error (error);
  TlMatrixSummary want;
  tl_matrix_summarize (m, &want);
  TlFileSummary got;
  g_setenv ("TL_MAX_MATRIX_BYTES", "8", TRUE);
  gboolean ok = tl_matrix_file_summarize (path, TL_FORMAT_AUTO, &info, &got, &error);
  g_unsetenv ("TL_MAX_MATRIX_BYTES");
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (info.format, ==, want_info.format);
  g_assert_cmpint (got.dtype, ==, m->dtype);
  g_assert_cmpuint (got.rows, ==, m->rows);
  g_assert_cmpuint (got.cols, ==, m->cols);
  const TlMatrixSummary *s = &got.summary;
  if (exact == MTX_EXACT_ALL)
    g_assert_cmpmem (s, sizeof *s, &want, sizeof want);
  g_assert_cmpmem (&s->stats.n_nan, 3 * sizeof (gsize), &want.stats.n_nan, 3 * sizeof (gsize));
  /* (a zero's sign too: the last zero in row-major order, as a load's) */
  g_assert_cmpmem (&s->stats.min, sizeof (double), &want.stats.min, sizeof (double));
  g_assert_cmpmem (&s->stats.max, sizeof (double), &want.stats.max, sizeof (double));
  g_assert_cmpfloat (s->norm_max, ==, want.norm_max);
  if (exact >= MTX_EXACT_NORMS)
    {
      g_assert_cmpfloat (s->norm_one, ==, want.norm_one);
      g_assert_cmpfloat (s->norm_inf, ==, want.norm_inf);
    }
  /* the magnitudes: of the finite values for the mean, of the squares
   * relative to the norm's own square for the Frobenius norm */
  double abs_sum = 0, n = (double) (m->rows * m->cols);
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      abs_sum += isfinite (tl_matrix_get (m, i, j)) ? fabs (tl_matrix_get (m, i, j)) : 0;
  assert_sum_close (s->stats.mean * (double) want.stats.n_finite,
                    want.stats.mean * (double) want.stats.n_finite, n, abs_sum);
  assert_sum_close (s->norm_frobenius, want.norm_frobenius, n, want.norm_frobenius);
  assert_sum_close (s->norm_one, want.norm_one, (double) m->rows, want.norm_one);
  assert_sum_close (s->norm_inf, want.norm_inf, (double) m->cols, want.norm_inf);
  tl_load_info_clear (&info);
  tl_load_info_clear (&want_info);
}

/* An .npy 2 × (TL_SUMMARY_MAX_COLS + 5) float32, too wide for the column
 * sums, in C and in Fortran order: streamed a block of columns at a time
 * (512 Ki columns, the last block 5), each row's and column's sum in
 * order as the loaded matrix's (1- and ∞-norms, counts, min and max bit
 * for bit), the mean and the Frobenius norm summed column block after
 * block, within the rounding of another order. */
static void
test_file_stream_too_wide (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  gsize cols = TL_SUMMARY_MAX_COLS + 5, n = 2 * cols;
  g_autofree float *data = g_new (float, n);
  for (gsize k = 0; k < n; k++)
    data[k] = (float) (tl_rng_normal (&rng) * (k % 97 == 0 ? 1e20 : 1.0));
  data[n - 1] = 7e20f; /* a column of the last block wins the 1-norm */
  data[3] = -0.0f;
  static const char *const orders[] = { "False", "True" };
  for (guint f = 0; f < G_N_ELEMENTS (orders); f++)
    {
      g_autofree char *dict = g_strdup_printf ("{'descr': '<f4', 'fortran_order': %s, "
                                               "'shape': (2, %zu), }", orders[f], cols);
      g_autofree char *path = write_npy (dir, "wide.npy", dict, data, n * sizeof (float));
      assert_streams_close (path, MTX_EXACT_NORMS);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A coordinate file of m's nonzero cells (those of the lower triangle
 * for a symmetry but "general"), in row-major order or shuffled. */
static char *
write_coordinate (const char *dir, const char *name, const TlMatrix *m, const char *field,
                  const char *symmetry, TlRng *shuffle)
{
  gboolean lower = strcmp (symmetry, "general") != 0;
  gboolean strict = strcmp (symmetry, "skew-symmetric") == 0;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < (lower ? i + !strict : m->cols); j++)
      if (tl_matrix_get (m, i, j) != 0)
        g_ptr_array_add (lines, strcmp (field, "pattern") == 0
                                  ? g_strdup_printf ("%zu %zu\n", i + 1, j + 1)
                                  : g_strdup_printf ("%zu %zu %.17g\n", i + 1, j + 1,
                                                     tl_matrix_get (m, i, j)));
  for (guint k = lines->len; shuffle && k > 1; k--)
    {
      guint r = (guint) tl_rng_int_range (shuffle, 0, k - 1);
      gpointer t = lines->pdata[k - 1];
      lines->pdata[k - 1] = lines->pdata[r];
      lines->pdata[r] = t;
    }
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_printf (text, "%%%%MatrixMarket matrix coordinate %s %s\n%% a comment\n"
                          "%zu %zu %u\n", field, symmetry, m->rows, m->cols, lines->len);
  for (guint k = 0; k < lines->len; k++)
    g_string_append (text, lines->pdata[k]);
  return write_file (dir, name, text->str, text->len);
}

/* A rows × cols matrix of small integers, about half of them 0, NaN and
 * ±Inf among them unless whole. */
static TlMatrix *
sparse_matrix (TlRng *rng, gsize rows, gsize cols, gboolean whole)
{
  TlMatrix *m = tl_matrix_new (TL_DTYPE_FLOAT64, rows, cols, NULL);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      {
        double u = tl_rng_uniform (rng), v = 0;
        if (u < 0.5)
          v = (double) tl_rng_int_range (rng, -1000, 1000) * (whole ? 1 : 0.1);
        else if (!whole && u < 0.51)
          v = u < 0.505 ? NAN : (u < 0.508 ? INFINITY : -INFINITY);
        tl_matrix_set (m, i, j, v);
      }
  return m;
}

/* Matrix Market files summarized as they are read, no matrix: array files
 * of each dtype (column by column: the 1- and ∞-norms bit for bit, the
 * mean and the Frobenius norm within rounding), coordinate files in
 * row-major order (all bit for bit), shuffled (within rounding),
 * symmetric, skew-symmetric and pattern files */
static void
test_file_stream_mtx (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "a.mtx", NULL);
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT64, TL_DTYPE_FLOAT32, TL_DTYPE_INT32 };
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr (TlMatrix) wide = random_matrix (&rng, 131, 77, 1e30);
      g_autoptr (TlMatrix) m = tl_matrix_convert (wide, dtypes[d], &error);
      g_assert_no_error (error);
      g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
      assert_streams_close (path, MTX_EXACT_NORMS);
    }
  g_assert_cmpint (g_remove (path), ==, 0);

  g_autoptr (TlMatrix) general = sparse_matrix (&rng, 97, 61, FALSE);
  g_autofree char *sorted = write_coordinate (dir, "sorted.mtx", general, "real", "general", NULL);
  assert_streams_close (sorted, MTX_EXACT_ALL);
  g_autofree char *shuffled = write_coordinate (dir, "shuffled.mtx", general, "real", "general",
                                                &rng);
  assert_streams_close (shuffled, MTX_EXACT_NO_SUMS);
  g_autoptr (TlMatrix) square = sparse_matrix (&rng, 83, 83, TRUE);
  static const char *const kinds[][2] = { { "real", "symmetric" }, { "integer", "symmetric" },
                                          { "integer", "skew-symmetric" },
                                          { "pattern", "symmetric" }, { "pattern", "general" } };
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *in_order = write_coordinate (dir, "k.mtx", square, kinds[k][0],
                                                    kinds[k][1], NULL);
      assert_streams_close (in_order, strcmp (kinds[k][1], "general") == 0 ? MTX_EXACT_ALL
                                                                         : MTX_EXACT_NORMS);
      g_autofree char *any = write_coordinate (dir, "k.mtx", square, kinds[k][0], kinds[k][1],
                                               &rng);
      assert_streams_close (any, MTX_EXACT_NO_SUMS);
    }
  static const char *const arrays[] = {
    "%%MatrixMarket matrix array real symmetric\n3 3\n1\n-2\n3.5\n4\n-5e300\n6\n",
    "%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n-2\n3\n",
    "%%MatrixMarket matrix array real general\n% tilelab: dtype=float32\n2 2\n0.1\n3e38\n-0\nnan\n",
    "%%MatrixMarket matrix coordinate real general\n4 0 0\n",
    "%%MatrixMarket matrix array real general\n0 5\n",
    /* min or max 0: −0 where the last zero in row-major order is −0 */
    "%%MatrixMarket matrix coordinate real general\n2 2 2\n2 2 -0\n1 1 1\n",
    "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 -0\n1 1 1\n",
    "%%MatrixMarket matrix coordinate real general\n2 3 3\n2 3 -0\n1 1 -1\n2 1 -0\n",
    "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 -0\n",
    "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 -0\n2 2 -0\n",
    "%%MatrixMarket matrix array real general\n2 2\n1\n-0\n0\n2\n",
    "%%MatrixMarket matrix array real general\n2 2\n-1\n0\n-0\n-2\n",
    "%%MatrixMarket matrix array real skew-symmetric\n2 2\n-0\n",
  };
  for (guint k = 0; k < G_N_ELEMENTS (arrays); k++)
    {
      g_autofree char *small = write_file (dir, "s.mtx", arrays[k], strlen (arrays[k]));
      assert_streams_close (small, MTX_EXACT_NORMS);
    }
  const char *const all[] = { sorted, shuffled, path };
  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    g_remove (all[k]);
  g_remove (path);
  g_autofree char *k_path = g_build_filename (dir, "k.mtx", NULL), *s_path = g_build_filename (dir, "s.mtx", NULL);
  g_remove (k_path);
  g_remove (s_path);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A bad Matrix Market file: info refuses it with the load's own words */
static void
test_file_stream_mtx_errors (void)
{
  static const char *const bad[] = {
    /* a repeated entry after the entries left their order, and right after itself */
    "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n3 2 2\n2 2 3\n3 2 4\n",
    "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n2 2 3\n",
    "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n3 1\n2 2\n3 1\n",
    /* above the diagonal, an index beyond, too many, too few, a short file
     * with a repeat (the end said, as a load says it) */
    "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 2\n",
    "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 1 2\n",
    "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 2\n",
    "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 1\n2 2 2\n",
    "%%MatrixMarket matrix coordinate real general\n30 30 20\n1 1 1\n1 1 1\n",
    "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n",
    "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n5\n",
    "%%MatrixMarket matrix array integer skew-symmetric\n2 2\n-2147483648\n",
    "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n",
    "%%MatrixMarket matrix coordinate real general\n3 3 10\n",
    "%%MatrixMarket matrix array real symmetric\n2 3\n",
    "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
    "",
  };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "bad.mtx", NULL);
  for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      g_assert_true (g_file_set_contents (path, bad[k], -1, NULL));
      g_autoptr (GError) load_error = NULL;
      g_autoptr (TlMatrix) none = tl_matrix_load (path, TL_FORMAT_MTX, &load_error);
      g_assert_null (none);
      TlLoadInfo info;
      TlFileSummary got;
      g_assert_false (tl_matrix_file_summarize (path, TL_FORMAT_MTX, &info, &got, &error));
      g_test_message ("%s", error->message);
      g_assert_cmpstr (error->message, ==, load_error->message);
      g_assert_cmpint (error->code, ==, load_error->code);
      g_clear_error (&error);
    }
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/matrix-summary/against-reference", test_against_reference);
  g_test_add_func ("/matrix-summary/nan-inf-and-empty", test_nan_inf_and_empty);
  g_test_add_func ("/matrix-summary/too-wide", test_too_wide);
  g_test_add_func ("/matrix-summary/file-stream", test_file_stream);
  g_test_add_func ("/matrix-summary/file-stream-cases", test_file_stream_cases);
  g_test_add_func ("/matrix-summary/file-stream-fortran-bands", test_file_stream_fortran_bands);
  g_test_add_func ("/matrix-summary/file-stream-too-wide", test_file_stream_too_wide);
  g_test_add_func ("/matrix-summary/file-stream-cut", test_file_stream_cut);
  g_test_add_func ("/matrix-summary/file-stream-mtx", test_file_stream_mtx);
  g_test_add_func ("/matrix-summary/file-stream-mtx-errors", test_file_stream_mtx_errors);
  return g_test_run ();
}
