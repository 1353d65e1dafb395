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
 * message; what it writes must read back whole.  `info` on the saved
 * .npy (its header and one streaming pass over its data, never the
 * matrix) must say what the loaded matrix's summary says, bit for bit. */
#include "fuzz-common.h"

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

/* info on the file at path: the summary of m */
static void
assert_summary (const TlMatrix *m, const char *path, const char *name)
{
  TlLoadInfo info;
  TlFileSummary file;
  g_autoptr (GError) error = NULL;
  if (!tl_matrix_file_summarize (path, TL_FORMAT_AUTO, &info, &file, &error))
    g_error ("info on a saved %s fails: %s", name, error->message);
  TlMatrixSummary want;
  tl_matrix_summarize (m, &want);
  const TlMatrixStats *a = &want.stats, *b = &file.summary.stats;
  if (file.rows != m->rows || file.cols != m->cols || file.dtype != m->dtype
      || a->n_nan != b->n_nan || a->n_inf != b->n_inf || a->n_finite != b->n_finite
      || !same_double (a->min, b->min) || !same_double (a->max, b->max)
      || !same_double (a->mean, b->mean) || !same_double (want.norm_one, file.summary.norm_one)
      || !same_double (want.norm_inf, file.summary.norm_inf)
      || !same_double (want.norm_frobenius, file.summary.norm_frobenius)
      || !same_double (want.norm_max, file.summary.norm_max))
    g_error ("info on a saved %zu×%zu %s says otherwise than the loaded matrix: mean %.17g, "
             "not %.17g; Frobenius %.17g, not %.17g", m->rows, m->cols, name, b->mean, a->mean,
             file.summary.norm_frobenius, want.norm_frobenius);
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
  if (format == TL_FORMAT_NPY)
    assert_summary (m, path, name);
  g_unlink (path);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  static const TlFormat from[] = { TL_FORMAT_MTX, TL_FORMAT_NPY, TL_FORMAT_CSV, TL_FORMAT_TEXT };
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = load_as (from[data[0] % 4], data + 1, size - 1, &error);
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
