/* tl-remote-transport.h — the pipe to one worker: its process and its bytes.
 *
 * A transport spawns its target's command (tl-remote-target.h: a local
 * tilelab-cli, ssh, a launcher such as srun) and reads what comes back,
 * on a main context given to it: the worker's messages on standard
 * output (a JSON line, and the bytes it announces), ssh's and Slurm's
 * words on standard error (the last few KB kept for a diagnosis, a
 * launcher's "job 1234 queued" said as status), and the process's end.
 * It knows nothing of jobs: what the messages mean is the connection's
 * (tl-remote-connection.c), which it tells through callbacks.
 *
 * Writing blocks the calling thread; everything else runs on the
 * context, which the caller iterates (the thread default meanwhile).
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "core/tl-matrix.h"
#include "remote/tl-remote-target.h"

G_BEGIN_DECLS

typedef struct _TlRemoteTransport TlRemoteTransport;

typedef struct
{
  /* a message (a line of the protocol) and the bytes that followed it
   * (NULL when none); a message that describes its bytes as a matrix
   * (tl_wire_matrix_for_message) comes with that matrix instead, read
   * straight into it (matrix: taken by the callee); a payload the worker
   * cut off (a cancel) comes as its message with "cut": true and neither */
  void (*message) (const char *type, JsonObject *message, GBytes *payload, TlMatrix *matrix,
                   gpointer data);
  /* the transport is of no more use: error (taken) says why — it sent
   * more than this computer can hold */
  void (*failed) (GError *error, gpointer data);
  /* its output ended and it exited: exit_status (128 + signal, -1
   * unknown) and the tail of its standard error, for a diagnosis */
  void (*ended) (int exit_status, const char *err_tail, gpointer data);
  /* part of a large payload came (done of total bytes): for a progress */
  void (*receiving) (const char *type, JsonObject *message, guint64 done, guint64 total,
                     gpointer data);
  /* the launcher's words ("waiting for a GPU: job 1234 pending on gpu1") */
  void (*status) (const char *text, gpointer data);
} TlRemoteTransportCallbacks;

/* Starts target's worker command and reading from it, on context; the
 * callbacks (kept, with data) are called there.  NULL with the error when
 * the command could not start (TL_REMOTE_ERROR_UNREACHABLE for ssh,
 * TL_REMOTE_ERROR_NO_WORKER for a local tilelab-cli). */
TlRemoteTransport *tl_remote_transport_spawn (const TlRemoteTarget *target, GMainContext *context,
                                              const TlRemoteTransportCallbacks *callbacks,
                                              gpointer data, GError **error);

/* Writes bytes to the worker's input: FALSE with TL_REMOTE_ERROR_LOST
 * ("The connection to gpu1 was lost …") when the transport is broken. */
gboolean     tl_remote_transport_send (TlRemoteTransport *transport, GBytes *bytes,
                                       GError **error);

/* Broken: its output ended, a write failed, it was killed, or the
 * connection said so (a refused hello).  A broken transport is not
 * used again. */
gboolean     tl_remote_transport_is_broken (TlRemoteTransport *transport);
void         tl_remote_transport_set_broken (TlRemoteTransport *transport);

/* The Slurm job it runs or waits for (the launcher's words or the
 * worker's hello), NULL when none; whether it waits in the queue. */
const char  *tl_remote_transport_get_slurm_job (TlRemoteTransport *transport);
void         tl_remote_transport_set_slurm_job (TlRemoteTransport *transport, const char *job);
gboolean     tl_remote_transport_is_queued (TlRemoteTransport *transport);
/* What it said on standard error lately (at most a few KB). */
const char  *tl_remote_transport_get_err_tail (TlRemoteTransport *transport);

/* Ends it now: SIGTERM (a local srun then cancels its job; on a host,
 * the launcher's watchdog sees the connection go and does the same),
 * SIGKILL 2 s later; a Slurm job it runs or waits for is cancelled by
 * its id as well (scancel, once). */
void         tl_remote_transport_kill (TlRemoteTransport *transport);

/* Ends and frees it, iterating its context (on the calling thread): the
 * end of its input tells the worker to stop and clean up; when it has
 * not exited within 3 s it is killed.  Nothing of it runs afterwards. */
void         tl_remote_transport_close (TlRemoteTransport *transport);

G_END_DECLS
