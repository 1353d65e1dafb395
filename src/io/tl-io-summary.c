/* tl-io-summary.c — a matrix file summarized (see the header). */
#include "io/tl-io-summary.h"

#include "io/tl-csv.h"
#include "io/tl-io-error.h"
#include "io/tl-io-reader.h"
#include "io/tl-mtx.h"
#include "io/tl-npy.h"
#include "io/tl-text.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

/* The summary of a matrix in memory. */
static void
summarize_matrix (const TlMatrix *m, TlFileSummary *out)
{
  out->dtype = m->dtype;
  out->rows = m->rows;
  out->cols = m->cols;
  tl_matrix_summarize (m, &out->summary);
}

/* An .npy, streamed (any width: *done TRUE).  Takes fd. */
static gboolean
summarize_npy (const char *path, int fd, guint64 size, TlFileSummary *out, gboolean *done,
               GError **error)
{
  FILE *f = fdopen (fd, "rb");
  if (f == NULL)
    {
      int e = errno;
      close (fd);
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read: %s"), g_strerror (e));
      return FALSE;
    }
  TlSummaryPass pass;
  guint64 rows = 0, cols = 0;
  gboolean ok = tl_npy_summarize (path, f, size, &out->dtype, &rows, &cols, &pass, error);
  fclose (f);
  out->rows = (gsize) rows;
  out->cols = (gsize) cols;
  if (ok)
    *done = tl_summary_pass_end (&pass, &out->summary);
  return ok;
}

/* CSV or text: its values summarized as they are parsed (*done FALSE: too
 * wide for the 1-norm's column sums, load it). */
static gboolean
summarize_text (TlIoOpened *opened, TlFileSummary *out, gboolean *done, GError **error)
{
  TlSummaryPass pass;
  TlIoFill fill = { 0 };
  tl_io_fill_summarize (&fill, &pass);
  gboolean ok = opened->format == TL_FORMAT_CSV ? tl_csv_read (&opened->src, &fill, error)
                                                : tl_text_read (&opened->src, &fill, error);
  if (!ok)
    return FALSE;
  out->dtype = fill.dtype;
  out->rows = (gsize) fill.rows;
  out->cols = (gsize) fill.cols;
  *done = tl_summary_pass_end (&pass, &out->summary);
  return TRUE;
}

/* A Matrix Market file, its values taken in the file's order (by
 * position: column by column, or entries in any order). */
static gboolean
summarize_mtx (TlIoSource *src, TlFileSummary *out, GError **error)
{
  TlSummaryPass pass;
  guint64 rows = 0, cols = 0;
  if (!tl_mtx_summarize (src, &pass, &out->dtype, &rows, &cols, error))
    return FALSE;
  out->rows = (gsize) rows;
  out->cols = (gsize) cols;
  tl_summary_pass_end (&pass, &out->summary);
  return TRUE;
}

gboolean
tl_matrix_file_summarize (const char *path, TlFormat format, TlLoadInfo *info,
                          TlFileSummary *out, GError **error)
{
  memset (out, 0, sizeof *out);
  *info = (TlLoadInfo) { TL_FORMAT_AUTO, NULL };
  TlIoOpened opened;
  if (!tl_io_open (path, format, NULL, NULL, &opened, error))
    return FALSE;
  gboolean ok, done = FALSE;
  if (opened.format == TL_FORMAT_NPY)
    {
      int fd = opened.fd;
      opened.fd = -1; /* closed by summarize_npy */
      ok = summarize_npy (path, fd, opened.size, out, &done, error);
    }
  else if (opened.format == TL_FORMAT_MTX)
    ok = done = summarize_mtx (&opened.src, out, error);
  else
    ok = summarize_text (&opened, out, &done, error);
  if (ok)
    *info = (TlLoadInfo) { opened.format, g_steal_pointer (&opened.note) };
  tl_io_opened_clear (&opened);
  if (!ok || done)
    return ok;
  /* too wide to stream: loaded, as tl_matrix_load_with loads it */
  tl_load_info_clear (info);
  g_autoptr (TlMatrix) m = tl_matrix_load_with (path, format, NULL, info, error);
  if (m == NULL)
    return FALSE;
  summarize_matrix (m, out);
  return TRUE;
}
