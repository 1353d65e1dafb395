/* tl-file.h — reading whole files that a user named, safely.
 *
 * Only regular files are read.  The check never blocks: the file is
 * opened with O_NONBLOCK (so a FIFO without a writer, or a device, cannot
 * stall the open) and fstat'ed before a byte is read.  Sizes are capped
 * before anything is allocated, and again while reading (a file may grow).
 * Errors are TL_ERROR_IO ("PATH: not a regular file", "PATH: cannot
 * open: …") or TL_ERROR_TOO_LARGE.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The descriptor (blocking reads again, close-on-exec) and the file's
 * size, or -1 with the error set. */
int      tl_file_open_regular (const char *path, guint64 *out_size, GError **error);

/* Reads the rest of fd, at most max_bytes, and closes fd in every case.
 * The buffer is NUL-terminated (not counted in *out_len). */
gboolean tl_file_read_fd      (int fd, const char *path, guint64 max_bytes, char **out_buf,
                               gsize *out_len, GError **error);

/* Open, check the size against max_bytes, read. */
gboolean tl_file_read_all     (const char *path, guint64 max_bytes, char **out_buf,
                               gsize *out_len, GError **error);

G_END_DECLS
