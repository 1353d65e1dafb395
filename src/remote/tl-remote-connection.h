/* tl-remote-connection.h — the client's end of one worker.
 *
 * A connection spawns its target's command (tl-remote-target.h: a local
 * tilelab-cli, ssh, a launcher), waits for the worker's hello, checks the
 * versions and then runs jobs one at a time: it sends a job, hands every
 * message of that job to the caller, and returns the job's "done".
 *
 * Calls block the calling thread, which must be the same one for the
 * connection's whole life: the runner worker of a host (ui, tl_remote_run_*),
 * or a CLI's.  Inside, they iterate a main context of the connection's own,
 * where its reads, timers, the child's exit and the cancellable's source
 * are; nothing runs on the caller's main loop.
 *
 * Cancelling a job's GCancellable sends "cancel": the worker stops at its
 * next launch boundary and the job ends as locally (a record marked
 * cancelled, or G_IO_ERROR_CANCELLED).  A worker that does not finish the
 * job within TL_REMOTE_CANCEL_GRACE_S afterwards (a lost network, a queued
 * launcher) is given up: the transport is killed and a Slurm job cancelled
 * (scancel).  Cancelling while connecting does the same at once.
 *
 * Failures name the host and what to do (tl-remote-diagnose.c): host
 * unreachable, host key unknown, login refused, no tilelab-cli or one of
 * another version there, Slurm refused or ended the job, the connection
 * lost.  A broken connection is reopened by the next call.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "core/tl-matrix.h"
#include "remote/tl-remote-target.h"

G_BEGIN_DECLS

#define TL_REMOTE_CANCEL_GRACE_S 10

typedef struct _TlRemoteConnection TlRemoteConnection;

/* What the connection is doing, in words ("connecting to gpu1", "waiting
 * for a GPU: job 1234 pending on gpu1", "uploading A.npy to gpu1", "receiving c/gemm-03 from gpu1"), with
 * fraction 0…1 or -1 when unknown. */
typedef void (*TlRemoteStatusFunc) (const char *text, double fraction, gpointer user_data);

/* A message of the running job (its "id"), or an answer to a request
 * made during it (its "req"), on the calling thread; payload holds the
 * bytes that followed it (NULL when none; a large payload the worker cut
 * off after a cancel comes as its message with "cut": true and none).  FALSE with error stops the job:
 * it is cancelled on the worker and the call fails with that error. */
typedef gboolean (*TlRemoteMessageFunc) (TlRemoteConnection *conn, const char *type,
                                         JsonObject *message, GBytes *payload,
                                         gpointer user_data, GError **error);

/* Inside a TlRemoteMessageFunc for a "matrix" message: its matrix (the
 * caller's), read straight from the stream into it, or decoded from the
 * NPY payload of a peer that sent one; NULL with the error when neither
 * came (name is for messages: "C of gemm-03 from gpu1"). */
TlMatrix           *tl_remote_connection_take_matrix (TlRemoteConnection *conn, GBytes *payload,
                                                      const char *name, GError **error);

TlRemoteConnection *tl_remote_connection_new  (const TlRemoteTarget *target);
/* Closes (tl_remote_connection_close) and frees. */
void                tl_remote_connection_free (TlRemoteConnection *conn);

/* Where status goes (default: nowhere). */
void          tl_remote_connection_set_status_func (TlRemoteConnection *conn,
                                                    TlRemoteStatusFunc func, gpointer user_data);

/* Starts the worker and exchanges hellos, unless it is open already. */
gboolean      tl_remote_connection_open (TlRemoteConnection *conn, GCancellable *cancellable,
                                         GError **error);
gboolean      tl_remote_connection_is_open (TlRemoteConnection *conn);
/* The worker's hello (host, version, pid, slurm_job); NULL before. */
JsonObject   *tl_remote_connection_get_hello (TlRemoteConnection *conn);

/* Where jobs of this connection ran, for a record's
 * $.extensions.remote: {"destination", "launcher", "host" (the worker
 * machine's name), "version", "slurm_job"}; a new node. */
JsonNode     *tl_remote_connection_where (TlRemoteConnection *conn);

/* Sends bytes (an NPY matrix, a file) to the worker as an upload named
 * by its SHA-256, unless this connection sent the same bytes before (so a
 * file goes once).  name is for the status.  Returns the SHA-256. */
char         *tl_remote_connection_upload (TlRemoteConnection *conn, GBytes *bytes,
                                           const char *name, GCancellable *cancellable,
                                           GError **error);

/* Whether this connection's worker has the upload sha256 (the worker is
 * started first, so that a worker started anew is not thought to have
 * what its predecessor had). */
gboolean      tl_remote_connection_has_upload (TlRemoteConnection *conn, const char *sha256,
                                               GCancellable *cancellable, GError **error);

/* Sends a job (a builder from tl_wire_begin ("job") with the kind's
 * members; this adds "id"), hands its messages to on_message and returns
 * its "done" message (unref), or NULL with the error. */
JsonObject   *tl_remote_connection_run_job (TlRemoteConnection *conn, JsonBuilder *job,
                                            TlRemoteMessageFunc on_message, gpointer user_data,
                                            GCancellable *cancellable, GError **error);

/* Ends the worker: end of input, then, when it has not exited within
 * 3 s, the transport is killed and a Slurm job it ran cancelled. */
void          tl_remote_connection_close (TlRemoteConnection *conn);

G_END_DECLS
