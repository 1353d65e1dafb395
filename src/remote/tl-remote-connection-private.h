/* tl-remote-connection-private.h — what the connection's two files share:
 * tl-remote-connection.c (opening, jobs, cancel, closing) and
 * tl-remote-reader.c (the transport's output, standard error and end). */
#pragma once

#include "remote/tl-remote-connection.h"

G_BEGIN_DECLS

/* The call in progress: opening (job_id 0) or a job. */
typedef struct
{
  guint64 job_id;
  guint64 req;            /* a call: the answer's "req" */
  GBytes *payload;        /* a call: the answer's bytes */
  TlRemoteMessageFunc on_message;
  gpointer user_data;
  gboolean finished;
  JsonObject *done;
  GError *error;          /* the call fails with it */
  GError *stop_error;     /* on_message's: the job is cancelled, then this is the outcome */
  gboolean cancel_sent;
  GSource *grace;         /* after a cancel: how long the worker has to end the job */
} Wait;

struct _TlRemoteConnection
{
  TlRemoteTarget *target;
  GMainContext *context;
  TlRemoteStatusFunc status;
  gpointer status_data;

  GSubprocess *proc;
  GOutputStream *to;
  GDataInputStream *from, *err;
  GCancellable *io_cancellable;
  guint pending;           /* async operations not yet called back */
  GString *err_tail;
  char *slurm_job;
  gboolean queued;
  gboolean scancel_sent;   /* scancel of slurm_job started (once per transport) */
  JsonObject *hello;
  gboolean eof, exited, err_eof, broken;
  gboolean diagnosed;      /* the end of this transport was said */
  int exit_status;
  GHashTable *uploaded;    /* SHA-256s sent on this worker */
  guint64 next_id, next_req;
  GSource *force_exit;     /* SIGKILL after a SIGTERM that was not enough */
  Wait *wait;
};

/* tl-remote-connection.c */
void     tl_remote_connection_set_status (TlRemoteConnection *conn, const char *text,
                                          double fraction);
/* Ends the call in progress with error (NULL: success); takes error. */
void     tl_remote_connection_finish_wait (TlRemoteConnection *conn, GError *error);
void     tl_remote_connection_kill_transport (TlRemoteConnection *conn);
void     tl_remote_connection_cancel_job (TlRemoteConnection *conn, Wait *w);

/* tl-remote-reader.c: starts reading the new transport's output and
 * standard error and waiting for its end */
void     tl_remote_reader_start (TlRemoteConnection *conn);

G_END_DECLS
