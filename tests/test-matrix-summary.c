/* test-matrix-summary.c — stats and the four norms in one pass, against a
 * float64 (long double for the Frobenius norm) reference computed
 * element by element; fed in pieces of any size; a matrix too wide for
 * column sums; and `info`'s streaming .npy summary against the loaded
 * matrix's. */
#include "core/tl-error.h"
#include "core/tl-matrix-summary.h"
#include "core/tl-rng.h"
#include "io/tl-io-summary.h"

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

/* info's .npy read in a streaming pass says what the loaded matrix does */
static void
test_npy_stream (void)
{
  TlRng rng;
  tl_rng_init (&rng, g_test_rand_int ());
  const TlDtype dtypes[] = { TL_DTYPE_FLOAT64, TL_DTYPE_FLOAT32, TL_DTYPE_INT32 };
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-summary-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    for (guint f = 0; f < 2; f++)
      {
        g_autoptr (TlMatrix) wide = random_matrix (&rng, 301, 1111, 1e30);
        g_autoptr (TlMatrix) m = tl_matrix_convert (wide, dtypes[d], &error);
        g_assert_no_error (error);
        g_autofree char *path = g_build_filename (dir, f ? "m.csv" : "m.npy", NULL);
        g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
        g_autoptr (TlMatrix) loaded = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
        g_assert_no_error (error);
        TlMatrixSummary want;
        tl_matrix_summarize (loaded, &want);
        TlLoadInfo info;
        TlFileSummary got;
        g_assert_true (tl_matrix_file_summarize (path, TL_FORMAT_AUTO, &info, &got, &error));
        g_assert_cmpint (info.format, ==, f ? TL_FORMAT_CSV : TL_FORMAT_NPY);
        g_assert_cmpint (got.dtype, ==, loaded->dtype);
        g_assert_cmpuint (got.rows, ==, 301);
        g_assert_cmpuint (got.cols, ==, 1111);
        g_assert_cmpmem (&got.summary, sizeof want, &want, sizeof want);
        tl_load_info_clear (&info);
        g_assert_cmpint (g_remove (path), ==, 0);
      }
  /* an .npy cut short: the header's error, as a load gives it */
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/matrix-summary/against-reference", test_against_reference);
  g_test_add_func ("/matrix-summary/nan-inf-and-empty", test_nan_inf_and_empty);
  g_test_add_func ("/matrix-summary/too-wide", test_too_wide);
  g_test_add_func ("/matrix-summary/npy-stream", test_npy_stream);
  return g_test_run ();
}
