/* tl-wire-lines.h — reading the wire's lines with a cap on their length.
 *
 * GDataInputStream's read_line keeps the whole line in memory before its
 * caller can look at its length, so a peer that never sends a newline
 * grows it without bound. This reader copies the buffered stream's bytes
 * out up to each '\n' and fails once a line passes cap bytes, before
 * holding more than cap of it. Lines are what GDataInputStream's
 * G_DATA_STREAM_NEWLINE_TYPE_LF gives: without their '\n' (a '\r' before it
 * stays), the last one also when the stream ends without a newline.
 *
 * The stream stays usable for reading what follows a line (a payload's
 * bytes): nothing past the newline is taken from its buffer. A read that
 * fails (cancelled, too long) drops what it had taken of its line. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Reads the next line of in; at most cap bytes of it are held. */
void tl_wire_read_line_async (GBufferedInputStream *in, gsize cap, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer data);

/* The line (NUL-terminated, *length bytes before the NUL), or NULL: at the
 * stream's end with no bytes left (no error set), or on an error —
 * G_IO_ERROR_MESSAGE_TOO_LARGE when more than cap bytes arrived without a
 * newline, G_IO_ERROR_CANCELLED, or the stream's own. */
char *tl_wire_read_line_finish (GBufferedInputStream *in, GAsyncResult *result, gsize *length,
                                GError **error);

G_END_DECLS
