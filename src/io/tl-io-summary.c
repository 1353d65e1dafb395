/* tl-io-summary.c — a matrix file summarized (see the header). */
#include "io/tl-io-summary.h"

#include "core/tl-file.h"
#include "io/tl-io-error.h"
#include "io/tl-npy.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK_BYTES ((gsize) 8 << 20)

/* n elements of dtype at bytes as doubles into out */
static void
to_doubles (TlDtype dtype, const void *bytes, gsize n, double *out)
{
  for (gsize k = 0; k < n; k++)
    out[k] = dtype == TL_DTYPE_FLOAT32 ? ((const float *) bytes)[k]
             : dtype == TL_DTYPE_INT32 ? ((const gint32 *) bytes)[k]
                                       : ((const double *) bytes)[k];
}

/* f at the data of a native .npy of rows × cols dtype: one pass through it. */
static gboolean
summarize_npy_data (const char *path, FILE *f, TlFileSummary *out, GError **error)
{
  gsize size = tl_dtype_size (out->dtype), per_block = BLOCK_BYTES / size;
  guint64 left = (guint64) out->rows * out->cols;
  g_autofree guint8 *block = g_try_malloc (BLOCK_BYTES);
  g_autofree double *values = out->dtype == TL_DTYPE_FLOAT64 ? NULL
                                                             : g_try_new (double, per_block);
  if (block == NULL || (out->dtype != TL_DTYPE_FLOAT64 && values == NULL))
    {
      tl_io_set_error (error, TL_ERROR_OUT_OF_MEMORY, path, 0, 0, _("no memory for a block of "
                                                                    "its data"));
      return FALSE;
    }
  TlSummaryPass pass;
  tl_summary_pass_begin (&pass, out->rows, out->cols);
  while (left > 0)
    {
      gsize n = (gsize) MIN ((guint64) per_block, left);
      if (fread (block, size, n, f) != n)
        {
          int e = errno;
          tl_summary_pass_end (&pass, &out->summary);
          tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read the data: %s"),
                           g_strerror (e ? e : EIO));
          return FALSE;
        }
      if (values)
        to_doubles (out->dtype, block, n, values);
      tl_summary_pass_add (&pass, values ? values : (const double *) block, n);
      left -= n;
    }
  /* a matrix too wide for the 1-norm's column sums is loaded instead */
  return tl_summary_pass_end (&pass, &out->summary);
}

/* TRUE with *done set when path is an .npy summarized from its stream
 * (*done FALSE: not one, load it); FALSE with the error of its header. */
static gboolean
try_npy_stream (const char *path, TlFormat format, TlFileSummary *out, gboolean *done,
                GError **error)
{
  *done = FALSE;
  guint64 size;
  int fd = tl_file_open_regular (path, &size, error);
  if (fd < 0)
    return FALSE;
  char magic[6];
  if ((format != TL_FORMAT_AUTO && format != TL_FORMAT_NPY)
      || pread (fd, magic, sizeof magic, 0) != sizeof magic
      || memcmp (magic, "\x93NUMPY", 6) != 0)
    {
      close (fd);
      return TRUE; /* the loader says what is wrong, if anything */
    }
  FILE *f = fdopen (fd, "rb");
  if (f == NULL)
    {
      close (fd);
      return TRUE;
    }
  guint64 rows = 0, cols = 0;
  gboolean native = FALSE;
  gboolean ok = tl_npy_open_data (path, f, size, &out->dtype, &rows, &cols, &native, error);
  if (ok && native)
    {
      out->rows = (gsize) rows;
      out->cols = (gsize) cols;
      g_autoptr (GError) local = NULL;
      *done = summarize_npy_data (path, f, out, &local);
      if (local)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          ok = FALSE;
        }
    }
  fclose (f);
  return ok;
}

gboolean
tl_matrix_file_summarize (const char *path, TlFormat format, TlLoadInfo *info,
                          TlFileSummary *out, GError **error)
{
  memset (out, 0, sizeof *out);
  *info = (TlLoadInfo) { TL_FORMAT_AUTO, NULL };
  gboolean done = FALSE;
  if (!try_npy_stream (path, format, out, &done, error))
    return FALSE;
  if (done)
    {
      info->format = TL_FORMAT_NPY;
      return TRUE;
    }
  g_autoptr (TlMatrix) m = tl_matrix_load_with (path, format, NULL, info, error);
  if (m == NULL)
    return FALSE;
  out->dtype = m->dtype;
  out->rows = m->rows;
  out->cols = m->cols;
  tl_matrix_summarize (m, &out->summary);
  return TRUE;
}
