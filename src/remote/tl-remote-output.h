/* tl-remote-output.h — a worker's output as the transport reads it: the
 * remote area's own, behind tl-remote-transport.c.
 *
 * Each message is a JSON line whose long arrays of numbers stay packed
 * (tl_wire_parse_packed), and the bytes it announces follow it, whole or
 * in chunk frames; a matrix's go straight into the matrix
 * (tl_wire_matrix_for_message).  Reads run on the caller's thread-default
 * main context and stop when the cancellable given is cancelled.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef struct _TlRemoteOutput TlRemoteOutput;

typedef struct
{
  /* as TlRemoteTransportCallbacks' message and receiving */
  void (*message) (const char *type, JsonObject *message, GBytes *payload, TlMatrix *matrix,
                   gpointer data);
  void (*receiving) (const char *type, JsonObject *message, guint64 done, guint64 total,
                     gpointer data);
  /* the output ended (inside a payload too): nothing more comes */
  void (*ended) (gpointer data);
  /* the output broke the protocol (a line too long, frames out of step, a
   * payload too large to hold): nothing more is read, and nothing more
   * can follow in step */
  void (*broken) (GError *error, gpointer data);
} TlRemoteOutputCallbacks;

/* Reads stream (a worker's standard output); host names the worker in
 * messages. */
TlRemoteOutput *tl_remote_output_new (GInputStream *stream, GCancellable *cancellable,
                                      const char *host, const TlRemoteOutputCallbacks *callbacks,
                                      gpointer data);
/* Starts reading its first message. */
void            tl_remote_output_start (TlRemoteOutput *output);
/* Whether a read is still to call back (after a cancel too: wait until
 * it has before freeing). */
gboolean        tl_remote_output_is_reading (TlRemoteOutput *output);
void            tl_remote_output_free (TlRemoteOutput *output);

G_END_DECLS
