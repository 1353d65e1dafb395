/* tl-io-writer.c — shortest round-trip numbers and atomic saving. */
#include "io/tl-io-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
tl_io_append_value (GString *out, TlDtype dtype, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];

  if (isnan (value))
    {
      g_string_append (out, "nan");
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value < 0 ? "-inf" : "inf");
      return;
    }
  switch (dtype)
    {
    case TL_DTYPE_INT32:
      g_string_append_printf (out, "%" G_GINT32_FORMAT, (gint32) value);
      return;
    case TL_DTYPE_FLOAT32:
      /* the shortest of 6..9 significant digits that reads back exactly */
      for (int p = 6; p <= 9; p++)
        {
          g_snprintf (format, sizeof format, "%%.%dg", p);
          g_ascii_formatd (buf, sizeof buf, format, value);
          if (p == 9 || (float) g_ascii_strtod (buf, NULL) == (float) value)
            break;
        }
      break;
    case TL_DTYPE_FLOAT64:
      for (int p = 15; p <= 17; p++)
        {
          g_snprintf (format, sizeof format, "%%.%dg", p);
          g_ascii_formatd (buf, sizeof buf, format, value);
          if (p == 17 || g_ascii_strtod (buf, NULL) == value)
            break;
        }
      break;
    }
  g_string_append (out, buf);
}

void
tl_io_append_element (GString *out, const TlMatrix *matrix, gsize i, gsize j)
{
  tl_io_append_value (out, matrix->dtype, tl_matrix_get (matrix, i, j));
}


gboolean
tl_io_write_atomic (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                    gpointer user_data, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s%c.%s.tmp-XXXXXX", dir, G_DIR_SEPARATOR, base);
  struct stat st;
  g_autoptr (GError) local = NULL;

  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0,
                       _("cannot create a temporary file in %s: %s"), dir, g_strerror (e));
      return FALSE;
    }
  /* keep the permissions of a file we replace */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    (void) fchmod (fd, st.st_mode & 07777);

  FILE *out = fdopen (fd, "wb");
  if (out == NULL)
    {
      int e = errno;
      close (fd);
      g_unlink (tmp);
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot write: %s"), g_strerror (e));
      return FALSE;
    }

  gboolean ok = func (out, matrix, user_data, &local);
  int e = 0;
  if (ok && (fflush (out) != 0 || ferror (out)))
    ok = FALSE, e = errno ? errno : EIO;
  if (ok && fsync (fileno (out)) != 0)
    ok = FALSE, e = errno;
  if (fclose (out) != 0 && ok)
    ok = FALSE, e = errno;
  if (ok && g_rename (tmp, path) != 0)
    ok = FALSE, e = errno;

  if (!ok)
    {
      g_unlink (tmp);
      if (local != NULL)
        {
          /* the writer says what; the message names the file */
          g_autofree char *name = g_filename_display_name (path);
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
        }
      else
        tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot write: %s"),
                         g_strerror (e ? e : EIO));
      return FALSE;
    }

  /* make the rename itself durable */
  int dfd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dfd >= 0)
    {
      (void) fsync (dfd);
      close (dfd);
    }
  return TRUE;
}

