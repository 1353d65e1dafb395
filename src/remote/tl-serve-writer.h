/* tl-serve-writer.h — the worker's output: messages written on a thread of their own.
 *
 * The worker's main loop must keep reading its input while a large
 * payload goes out (a matrix, a file a command wrote): a "cancel" that
 * waits behind a gigabyte on a slow ssh link is no cancel.  So the loop
 * only queues messages; this writer writes them, in order, on its own
 * thread, and the loop goes on reading.
 *
 * A payload larger than TL_WIRE_CHUNK goes in chunk frames
 * (tl-wire.h): a "chunk" line before each part of it.  Each queued
 * payload carries a GCancellable, its cut: once that is cancelled (the
 * client cancelled its job after the message was queued), the payload
 * stops at the next frame with a "cut" line, and the client drops what
 * came of it.  The connection stays in step and usable.
 */
#pragma once

#include <gio/gio.h>

#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef struct _TlServeWriter TlServeWriter;

/* Writes to out on a new thread.  on_broken runs once on the thread
 * default main context of the caller when a write failed (the client is
 * gone); nothing more is written then. */
TlServeWriter *tl_serve_writer_new (GOutputStream *out, GSourceFunc on_broken, gpointer data);

/* Whether a payload of size bytes travels in chunk frames. */
gboolean       tl_serve_writer_chunks (guint64 size);

/* Queues line (a message with its '\n', whose "bytes" and "chunks" say
 * what follows) and its payload: bytes, a matrix's NPY header and rows
 * (header + matrix, its rows contiguous), or size bytes read from a stream (a file, opened
 * by the caller: it may be removed meanwhile).  cut may be NULL. */
void           tl_serve_writer_send        (TlServeWriter *writer, GBytes *line, GBytes *payload,
                                            GCancellable *cut);
void           tl_serve_writer_send_matrix (TlServeWriter *writer, GBytes *line, GBytes *header,
                                            TlMatrix *matrix, GCancellable *cut);
void           tl_serve_writer_send_stream (TlServeWriter *writer, GBytes *line,
                                            GInputStream *stream, guint64 size,
                                            GCancellable *cut);

/* Writes what is queued and ends the thread: TRUE and freed when it
 * ended within timeout_ms, else FALSE and left to the end of the process
 * (a client that does not read). */
gboolean       tl_serve_writer_finish (TlServeWriter *writer, guint timeout_ms);

G_END_DECLS
