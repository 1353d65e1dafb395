/* fuzz-convert.c — `tilelab-cli convert` from every format into every
 * format, through real files.
 *
 * The first input byte picks the format the rest is read as (mtx, npy,
 * csv, text); a matrix that loads is saved with tl_matrix_save_with —
 * the atomic save: a temporary beside the target, renamed over it — as
 * .mtx, .npy, .csv and .txt in a folder of this process's own, and each
 * file is loaded again by name (tl_matrix_load_with, the format from the
 * extension or the content, the text streamed through the file window):
 * it must be the same matrix, bit for bit (signed zeros kept, any NaN
 * for a NaN) and of the same dtype.  A writer may refuse a matrix with a
 * message; what it writes must read back whole.  `info` (one streaming
 * pass over a file, never the matrix) must say of each saved file, and of
 * the input itself as a file, what the load's summary says, bit for bit,
 * or fail as the load does. */
#include "fuzz-common.h"

#include <float.h>

#include "io/tl-csv.h"
#include "io/tl-io.h"
#include "io/tl-io-summary.h"
#include "io/tl-mtx.h"
#include "io/tl-text.h"

static TlMatrix *
load_as (TlFormat format, const uint8_t *data, size_t size, GError **error)
{
  if (format == TL_FORMAT_NPY)
    return fuzz_load_npy (data, size, error);
  g_autofree char *text = fuzz_text (data, size);
  switch (format)
    {
    case TL_FORMAT_MTX: return tl_mtx_load_data ("fuzz.mtx", text, size, error);
    case TL_FORMAT_CSV: return tl_csv_load_data ("fuzz.csv", text, size, error);
    default: return tl_text_load_data ("fuzz.txt", text, size, error);
    }
}

/* a and b the same double: NaN for NaN, a zero's sign kept */
static gboolean
same_double (double a, double b)
{
  return isnan (a) ? isnan (b) : a == b && !signbit (a) == !signbit (b);
}

/* got within the rounding of a sum of n terms whose magnitudes add up to
 * abs_sum, taken in another order (at most 2·n·ε·abs_sum apart; any
 * when abs_sum overflows, since a partial sum may then overflow in one
 * order and not the other) */
static gboolean
close_sum (double got, double want, double n, double abs_sum)
{
  double bound = 2 * n * DBL_EPSILON * abs_sum;
  return same_double (got, want) || isinf (bound) || fabs (got - want) <= bound;
}

/* The sum of the finite values' magnitudes. */
static double
abs_sum (const TlMatrix *m)
{
  double sum = 0;
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      {
        double v = tl_matrix_get (m, i, j);
        sum += isfinite (v) ? fabs (v) : 0;
      }
  return sum;
}

/* The figures a Matrix Market file's summary sums in the file's order
 * (io/tl-io-summary.h): the mean, the Frobenius norm and the 1- and
 * ∞-norms, within the rounding of another order. */
static gboolean
sums_close (const TlMatrix *m, const TlMatrixSummary *want, const TlMatrixSummary *got)
{
  double n = (double) (m->rows * m->cols), finite = (double) want->stats.n_finite;
  return close_sum (got->stats.mean * finite, want->stats.mean * finite, n, abs_sum (m))
         && close_sum (got->norm_frobenius, want->norm_frobenius, n, want->norm_frobenius)
         && close_sum (got->norm_one, want->norm_one, (double) m->rows, want->norm_one)
         && close_sum (got->norm_inf, want->norm_inf, (double) m->cols, want->norm_inf);
}

static gboolean
sums_same (const TlMatrixSummary *want, const TlMatrixSummary *got)
{
  return same_double (want->stats.mean, got->stats.mean)
         && same_double (want->norm_one, got->norm_one)
         && same_double (want->norm_inf, got->norm_inf)
         && same_double (want->norm_frobenius, got->norm_frobenius);
}

/* info's figures of the file at path, read as format: m's summary, bit
 * for bit, but for the sums of a Matrix Market file, taken in the file's
 * order (what `info` promises: io/tl-io-summary.h) */
static void
assert_summary (const TlMatrix *m, const char *path, TlFormat format, const char *name)
{
  TlLoadInfo info;
  TlFileSummary file;
  g_autoptr (GError) error = NULL;
  if (!tl_matrix_file_summarize (path, format, &info, &file, &error))
    g_error ("info on %s fails, but it loads: %s", name, error->message);
  tl_load_info_clear (&info);
  TlMatrixSummary want;
  tl_matrix_summarize (m, &want);
  const TlMatrixStats *a = &want.stats, *b = &file.summary.stats;
  if (file.rows != m->rows || file.cols != m->cols || file.dtype != m->dtype
      || a->n_nan != b->n_nan || a->n_inf != b->n_inf || a->n_finite != b->n_finite
      || !same_double (a->min, b->min) || !same_double (a->max, b->max)
      || !same_double (want.norm_max, file.summary.norm_max)
      || !(format == TL_FORMAT_MTX ? sums_close (m, &want, &file.summary)
                                   : sums_same (&want, &file.summary)))
    g_error ("info on %s says otherwise than its load:\n"
             "info %zu×%zu %s min %.17g max %.17g mean %.17g nan %zu inf %zu; norms %.17g %.17g "
             "%.17g %.17g\n"
             "load %zu×%zu %s min %.17g max %.17g mean %.17g nan %zu inf %zu; norms %.17g %.17g "
             "%.17g %.17g", name,
             file.rows, file.cols, tl_dtype_name (file.dtype), b->min, b->max, b->mean, b->n_nan,
             b->n_inf, file.summary.norm_one, file.summary.norm_inf, file.summary.norm_frobenius,
             file.summary.norm_max,
             m->rows, m->cols, tl_dtype_name (m->dtype), a->min, a->max, a->mean, a->n_nan,
             a->n_inf, want.norm_one, want.norm_inf, want.norm_frobenius, want.norm_max);
}

/* The input itself as a file: `info` streams every format through the
 * summary pass with no matrix, and must say what a load of the file says
 * — the same figures, or the same error (but the memory budget, which
 * info does not ask for a matrix it never makes). */
static void
assert_info_agrees (TlFormat format, const uint8_t *data, size_t size)
{
  static const char *const name[] = {
    [TL_FORMAT_MTX] = "input.mtx", [TL_FORMAT_NPY] = "input.npy", [TL_FORMAT_CSV] = "input.csv",
    [TL_FORMAT_TEXT] = "input.txt",
  };
  g_autofree char *path = g_build_filename (fuzz_folder (), name[format], NULL);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    g_error ("cannot write %s", path);
  g_autoptr (GError) load_error = NULL, info_error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_load_with (path, format, NULL, NULL, &load_error);
  TlLoadInfo info;
  TlFileSummary file;
  gboolean described = tl_matrix_file_summarize (path, format, &info, &file, &info_error);
  if (described)
    tl_load_info_clear (&info);
  if (m != NULL && !described)
    g_error ("info on %s fails, but it loads: %s", name[format], info_error->message);
  else if (m != NULL)
    {
      /* (a large matrix, summarized once more, would slow the fuzzer) */
      if (tl_matrix_n_elements (m) <= FUZZ_ROUND_TRIP_ELEMENTS)
        assert_summary (m, path, format, name[format]);
    }
  else if (g_error_matches (load_error, TL_ERROR, TL_ERROR_TOO_LARGE)
           || g_error_matches (load_error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY))
    ; /* info asks no budget */
  else if (described)
    g_error ("info describes %s, whose load fails: %s", name[format], load_error->message);
  else if (strcmp (load_error->message, info_error->message) != 0)
    g_error ("info on %s fails otherwise than its load:\n%s\n%s", name[format],
             info_error->message, load_error->message);
  g_unlink (path);
}

static void
convert (const TlMatrix *m, TlFormat format)
{
  static const char *const extension[] = {
    [TL_FORMAT_MTX] = "mtx", [TL_FORMAT_NPY] = "npy",
    [TL_FORMAT_CSV] = "csv", [TL_FORMAT_TEXT] = "txt",
  };
  g_autofree char *name = g_strdup_printf ("converted.%s", extension[format]);
  g_autofree char *path = g_build_filename (fuzz_folder (), name, NULL);
  g_autoptr (GError) error = NULL;
  if (!tl_matrix_save_with (m, path, TL_FORMAT_AUTO, NULL, &error))
    {
      /* refused with a message, and nothing left behind */
      g_assert (error != NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        g_error ("convert to %s failed (%s) but left %s", name, error->message, path);
      return;
    }
  g_autoptr (TlMatrix) back = tl_matrix_load_with (path, TL_FORMAT_AUTO, NULL, NULL, &error);
  if (back == NULL)
    g_error ("a loaded matrix saved as %s does not load: %s", name, error->message);
  fuzz_assert_same (m, back, TRUE, name);
  assert_summary (m, path, format, name);
  g_unlink (path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  static const TlFormat from[] = { TL_FORMAT_MTX, TL_FORMAT_NPY, TL_FORMAT_CSV, TL_FORMAT_TEXT };
  TlFormat format = from[data[0] % 4];
  assert_info_agrees (format, data + 1, size - 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = load_as (format, data + 1, size - 1, &error);
  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == TL_ERROR);
      return 0;
    }
  if (tl_matrix_n_elements (m) > FUZZ_ROUND_TRIP_ELEMENTS)
    return 0;
  for (guint k = 0; k < G_N_ELEMENTS (from); k++)
    convert (m, from[k]);
  return 0;
}
