/* tl-remote-transport-private.h — what the transport's two files share:
 * tl-remote-transport.c (the process, its standard error, its end) and
 * tl-remote-payload.c (the bytes that follow the worker's messages). */
#pragma once

#include "remote/tl-remote-transport.h"

G_BEGIN_DECLS

struct _TlRemoteTransport
{
  TlRemoteTarget *target;
  GMainContext *context;
  TlRemoteTransportCallbacks callbacks;
  gpointer data;

  GSubprocess *proc;
  GOutputStream *to;
  GDataInputStream *from, *err;
  GCancellable *io_cancellable;
  guint pending;           /* async operations not yet called back */
  GString *err_tail;
  char *slurm_job;
  gboolean queued;
  gboolean scancel_sent;   /* scancel of slurm_job started (once) */
  gboolean eof, exited, err_eof, broken;
  gboolean said_end;       /* failed or ended was called */
  int exit_status;
  GSource *force_exit;     /* SIGKILL after a SIGTERM that was not enough */
  /* the last payload's buffer, for the next: messages come one after
   * another (a Gauss recording's thousand parts), and fresh memory for
   * each would be faulted in page by page */
  guchar *spare;
  gsize spare_size;
};

/* The transport is of no more use: error (taken) is said, once. */
void  tl_remote_transport_say_failed     (TlRemoteTransport *t, GError *error);
/* Its output ended. */
void  tl_remote_transport_on_eof         (TlRemoteTransport *t);
/* A line read from source (the async read of t done), or NULL at its end
 * (*ended: the stream ended, rather than t being closed). */
char *tl_remote_transport_finish_line    (TlRemoteTransport *t, GObject *source,
                                          GAsyncResult *result, gsize *length, gboolean *ended);
/* The same for a line of the worker's output: its end is taken (the
 * transport's output ended). */
char *tl_remote_transport_finish_output_line (TlRemoteTransport *t, GObject *source,
                                              GAsyncResult *result, gsize *length);
/* Reads the worker's next message. */
void  tl_remote_transport_read_next_line (TlRemoteTransport *t);
/* Reads the size bytes that follow msg, then hands both on (and reads
 * the next message). */
void  tl_remote_transport_read_payload   (TlRemoteTransport *t, const char *type, JsonObject *msg,
                                          gint64 size);

G_END_DECLS
