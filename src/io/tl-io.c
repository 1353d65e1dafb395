/* tl-io.c — choosing a format by name, extension or content, and
 * handing the file to its reader or writer. */
#include "io/tl-io.h"

#include "core/tl-file.h"

#include "io/tl-csv.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-source.h"
#include "io/tl-io-writer.h"
#include "io/tl-mtx.h"
#include "io/tl-npy.h"
#include "io/tl-text.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ---- format names ---------------------------------------------------- */

static const struct
{
  TlFormat format;
  const char *name;
  const char *title;
} format_table[] = {
  { TL_FORMAT_AUTO, "auto", N_("automatic") },
  { TL_FORMAT_MTX,  "mtx",  N_("Matrix Market") },
  { TL_FORMAT_NPY,  "npy",  N_("NumPy .npy") },
  { TL_FORMAT_CSV,  "csv",  N_("CSV / delimited text") },
  { TL_FORMAT_TEXT, "text", N_("Tilelab text") },
};

const char *
tl_format_name (TlFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (format_table[i].format == format)
      return format_table[i].name;
  g_return_val_if_reached ("invalid");
}

const char *
tl_format_title (TlFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (format_table[i].format == format)
      return _(format_table[i].title);
  g_return_val_if_reached ("invalid");
}

gboolean
tl_format_from_name (const char *name, TlFormat *out_format)
{
  static const struct { const char *alias; TlFormat format; } aliases[] = {
    { "auto", TL_FORMAT_AUTO },
    { "mtx", TL_FORMAT_MTX }, { "mm", TL_FORMAT_MTX }, { "matrixmarket", TL_FORMAT_MTX },
    { "npy", TL_FORMAT_NPY }, { "numpy", TL_FORMAT_NPY },
    { "csv", TL_FORMAT_CSV }, { "tsv", TL_FORMAT_CSV },
    { "text", TL_FORMAT_TEXT }, { "txt", TL_FORMAT_TEXT }, { "tilelab", TL_FORMAT_TEXT },
  };
  g_return_val_if_fail (out_format != NULL, FALSE);
  for (gsize i = 0; name && i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (name, aliases[i].alias) == 0)
      {
        *out_format = aliases[i].format;
        return TRUE;
      }
  return FALSE;
}

static const char *
path_extension (const char *path)
{
  const char *base = strrchr (path, G_DIR_SEPARATOR);
  base = base ? base + 1 : path;
  const char *dot = strrchr (base, '.');
  return (dot && dot != base) ? dot + 1 : NULL;
}

TlFormat
tl_format_from_path (const char *path)
{
  g_return_val_if_fail (path != NULL, TL_FORMAT_AUTO);
  const char *ext = path_extension (path);
  if (ext == NULL)
    return TL_FORMAT_AUTO;
  if (g_ascii_strcasecmp (ext, "mtx") == 0 || g_ascii_strcasecmp (ext, "mm") == 0)
    return TL_FORMAT_MTX;
  if (g_ascii_strcasecmp (ext, "npy") == 0)
    return TL_FORMAT_NPY;
  if (g_ascii_strcasecmp (ext, "csv") == 0 || g_ascii_strcasecmp (ext, "tsv") == 0)
    return TL_FORMAT_CSV;
  if (g_ascii_strcasecmp (ext, "txt") == 0 || g_ascii_strcasecmp (ext, "mat") == 0)
    return TL_FORMAT_TEXT;
  return TL_FORMAT_AUTO;
}


/* ---- load and save --------------------------------------------------- */

/* Whether the file starts (after a byte order mark) with "%%MatrixMarket". */
static gboolean
starts_with_mtx_banner (int fd)
{
  static const char banner[] = "%%MatrixMarket";
  char head[3 + sizeof banner];
  ssize_t n = pread (fd, head, sizeof head, 0);
  const char *at = head;
  if (n >= 3 && memcmp (head, "\xef\xbb\xbf", 3) == 0)
    at += 3, n -= 3;
  return n >= (ssize_t) sizeof banner - 1
         && g_ascii_strncasecmp (at, banner, sizeof banner - 1) == 0;
}

TlMatrix *
tl_matrix_load_with (const char *path, TlFormat format, GCancellable *cancellable,
                     TlLoadInfo *info, GError **error)
{
  return tl_matrix_load_watched (path, format, cancellable, NULL, info, error);
}

gboolean
tl_io_open (const char *path, TlFormat format, GCancellable *cancellable,
            TlLoadProgress *progress, TlIoOpened *out, GError **error)
{
  *out = (TlIoOpened) { .format = format, .fd = -1 };
  /* a regular file, opened without blocking (a FIFO never hangs us) */
  int fd = tl_file_open_regular (path, &out->size, error);
  if (fd < 0)
    return FALSE;
  if (progress)
    g_atomic_pointer_set (&progress->size, (gsize) out->size);

  /* content first: the magic of .npy and the banner of Matrix Market are
   * unambiguous; then the extension; then text-or-CSV by a look inside */
  char magic[6];
  if (format == TL_FORMAT_AUTO && pread (fd, magic, sizeof magic, 0) == sizeof magic
      && memcmp (magic, "\x93NUMPY", 6) == 0)
    format = TL_FORMAT_NPY;
  gboolean sniff_text = FALSE;
  if (format == TL_FORMAT_AUTO)
    {
      format = starts_with_mtx_banner (fd) ? TL_FORMAT_MTX : tl_format_from_path (path);
      sniff_text = format == TL_FORMAT_TEXT || format == TL_FORMAT_AUTO;
      if (format == TL_FORMAT_NPY)
        {
          /* named .npy, but without the magic */
          close (fd);
          tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                           _("byte 0: expected the .npy magic “\\x93NUMPY”"));
          return FALSE;
        }
    }
  out->format = format;
  if (format == TL_FORMAT_NPY)
    {
      out->fd = fd;
      return TRUE;
    }
  tl_io_source_init_fd (&out->src, path, fd, out->size, cancellable);
  out->src.progress = progress ? &progress->done : NULL;
  if (sniff_text)
    out->format = tl_text_sniff_source (&out->src, &out->note) ? TL_FORMAT_TEXT : TL_FORMAT_CSV;
  return TRUE;
}

void
tl_io_opened_clear (TlIoOpened *opened)
{
  if (opened->format != TL_FORMAT_NPY)
    tl_io_source_clear (&opened->src);
  else if (opened->fd >= 0)
    close (opened->fd);
  opened->fd = -1;
  g_clear_pointer (&opened->note, g_free);
}

TlMatrix *
tl_matrix_load_watched (const char *path, TlFormat format, GCancellable *cancellable,
                        TlLoadProgress *progress, TlLoadInfo *info, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (info)
    *info = (TlLoadInfo) { TL_FORMAT_AUTO, NULL };
  if (progress)
    {
      g_atomic_pointer_set (&progress->done, 0);
      g_atomic_pointer_set (&progress->size, 0);
    }
  TlIoOpened opened;
  if (!tl_io_open (path, format, cancellable, progress, &opened, error))
    return NULL;
  TlMatrix *m = NULL;
  switch (opened.format)
    {
    case TL_FORMAT_NPY:
      {
        int fd = opened.fd;
        opened.fd = -1; /* closed by the reader */
        m = tl_npy_load_fd (path, fd, opened.size, cancellable,
                            progress ? &progress->done : NULL, error);
      }
      break;
    case TL_FORMAT_MTX:  m = tl_mtx_load (&opened.src, error); break;
    case TL_FORMAT_CSV:  m = tl_csv_load (&opened.src, error); break;
    case TL_FORMAT_TEXT: m = tl_text_load (&opened.src, error); break;
    case TL_FORMAT_AUTO:
    default:
      g_assert_not_reached ();
    }
  if (m && info)
    *info = (TlLoadInfo) { opened.format, g_steal_pointer (&opened.note) };
  tl_io_opened_clear (&opened);
  return m;
}

void
tl_load_info_clear (TlLoadInfo *info)
{
  g_clear_pointer (&info->note, g_free);
}

TlMatrix *
tl_matrix_load_full (const char *path, TlFormat format, TlFormat *out_format, GError **error)
{
  TlLoadInfo info;
  TlMatrix *m = tl_matrix_load_with (path, format, NULL, &info, error);
  if (m && out_format)
    *out_format = info.format;
  tl_load_info_clear (&info);
  return m;
}

TlMatrix *
tl_matrix_load (const char *path, TlFormat format, GError **error)
{
  return tl_matrix_load_with (path, format, NULL, NULL, error);
}

gboolean
tl_matrix_save (const TlMatrix *matrix, const char *path, TlFormat format, GError **error)
{
  return tl_matrix_save_with (matrix, path, format, NULL, error);
}

/* The writer of format (AUTO: by path's extension) and its data. */
static gboolean
writer_of (const char *path, TlFormat format, TlIoWriteFunc *func, gpointer *data,
           GError **error)
{
  if (format == TL_FORMAT_AUTO)
    format = tl_format_from_path (path);
  *data = NULL;
  switch (format)
    {
    case TL_FORMAT_MTX:
      *func = tl_mtx_write;
      return TRUE;
    case TL_FORMAT_NPY:
      *func = tl_npy_write;
      return TRUE;
    case TL_FORMAT_CSV:
      {
        const char *ext = path_extension (path);
        char delim = (ext && g_ascii_strcasecmp (ext, "tsv") == 0) ? '\t' : ',';
        *func = tl_csv_write;
        *data = GINT_TO_POINTER (delim);
        return TRUE;
      }
    case TL_FORMAT_TEXT:
      *func = tl_text_write;
      return TRUE;
    case TL_FORMAT_AUTO:
    default:
      tl_io_set_error (error, TL_ERROR_INVALID, path, 0, 0,
                       _("cannot tell the format from the name; use .mtx, .npy, .csv, .tsv "
                         "or .txt, or name the format"));
      return FALSE;
    }
}

gboolean
tl_matrix_save_with (const TlMatrix *matrix, const char *path, TlFormat format,
                     GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (matrix != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  TlIoWriteFunc func;
  gpointer data;
  return writer_of (path, format, &func, &data, error)
         && tl_io_write_atomic (path, matrix, func, data, cancellable, error);
}

gboolean
tl_matrix_save_into (const TlMatrix *matrix, TlSave *save, const char *path, TlFormat format,
                     GError **error)
{
  g_return_val_if_fail (matrix != NULL && save != NULL && path != NULL, FALSE);
  TlIoWriteFunc func;
  gpointer data;
  return writer_of (path, format, &func, &data, error)
         && tl_io_write_save (save, path, matrix, func, data, error);
}
