/* tl-file.c — regular files only, opened without blocking, read capped. */
#include "core/tl-file.h"
#include "core/tl-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void
set_io_error (GError **error, TlErrorCode code, const char *path, const char *what)
{
  g_autofree char *name = g_filename_display_name (path);
  g_set_error (error, TL_ERROR, code, "%s: %s", name, what);
}

static gboolean
too_large (GError **error, const char *path, guint64 size, guint64 max_bytes)
{
  g_autofree char *have = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit = g_format_size_full (max_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *what = g_strdup_printf (_("the file is %s, more than the limit of %s"), have,
                                           limit);
  set_io_error (error, TL_ERROR_TOO_LARGE, path, what);
  return FALSE;
}

int
tl_file_open_regular (const char *path, guint64 *out_size, GError **error)
{
  g_return_val_if_fail (path != NULL, -1);
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int e = errno;
      g_autofree char *what = g_strdup_printf (_("cannot open: %s"), g_strerror (e));
      set_io_error (error, TL_ERROR_IO, path, what);
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      int e = errno;
      g_autofree char *what = g_strdup_printf (_("cannot read: %s"), g_strerror (e));
      set_io_error (error, TL_ERROR_IO, path, what);
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      set_io_error (error, TL_ERROR_IO, path,
                    S_ISDIR (st.st_mode) ? _("is a folder, not a file")
                                         : _("not a regular file"));
      close (fd);
      return -1;
    }
  /* a regular file never blocks, but reads are simpler without EAGAIN */
  int flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    (void) fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  if (out_size)
    *out_size = (guint64) st.st_size;
  return fd;
}

gboolean
tl_file_read_fd (int fd, const char *path, guint64 max_bytes, char **out_buf, gsize *out_len,
                 GError **error)
{
  struct stat st;
  guint64 hint = fstat (fd, &st) == 0 ? (guint64) st.st_size : 0;
  max_bytes = MIN (max_bytes, (guint64) G_MAXSSIZE - 2);
  /* room for one byte more than allowed (which tells "too large") and a NUL */
  gsize cap_len = (gsize) MIN (hint, max_bytes) + 2, len = 0;
  char *buf = g_malloc (cap_len);
  for (;;)
    {
      if (len > max_bytes)
        {
          /* the file grew past the limit since it was opened */
          g_free (buf);
          close (fd);
          return too_large (error, path, len, max_bytes);
        }
      if (len + 1 >= cap_len)
        {
          cap_len = (gsize) MIN ((guint64) cap_len * 2, max_bytes + 2);
          buf = g_realloc (buf, cap_len);
        }
      ssize_t n = read (fd, buf + len, cap_len - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          g_autofree char *what = g_strdup_printf (_("cannot read: %s"), g_strerror (e));
          set_io_error (error, TL_ERROR_IO, path, what);
          g_free (buf);
          close (fd);
          return FALSE;
        }
      if (n == 0)
        break;
      len += (gsize) n;
    }
  close (fd);
  buf[len] = '\0';
  *out_buf = buf;
  *out_len = len;
  return TRUE;
}

gboolean
tl_file_read_all (const char *path, guint64 max_bytes, char **out_buf, gsize *out_len,
                  GError **error)
{
  guint64 size;
  int fd = tl_file_open_regular (path, &size, error);
  if (fd < 0)
    return FALSE;
  if (size > max_bytes)
    {
      close (fd);
      return too_large (error, path, size, max_bytes);
    }
  return tl_file_read_fd (fd, path, max_bytes, out_buf, out_len, error);
}
