/* tl-remote-connection.c — the client's end of one worker: the protocol
 * (hello, uploads, jobs, cancel) over a transport (tl-remote-transport.c:
 * the process and its bytes). */
#include "remote/tl-remote-connection.h"

#include "core/tl-json.h"
#include "remote/tl-remote-diagnose.h"
#include "remote/tl-remote-transport.h"
#include "remote/tl-wire.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define UPLOAD_CHUNK (1u << 20)

/* The call in progress: opening (job_id 0) or a job. */
typedef struct
{
  guint64 job_id;
  TlRemoteMessageFunc on_message;
  gpointer user_data;
  gboolean finished;
  JsonObject *done;
  GError *error;          /* the call fails with it */
  GError *stop_error;     /* on_message's: the job is cancelled, then this is the outcome */
  gboolean cancel_sent;
  GSource *grace;         /* after a cancel: how long the worker has to end the job */
  GMainContext *context;  /* the connection's, woken by a cancel */
  gint cancelled;         /* set by the cancellable's handler, on any thread */
} Wait;

struct _TlRemoteConnection
{
  TlRemoteTarget *target;
  GMainContext *context;
  TlRemoteStatusFunc status;
  gpointer status_data;

  TlRemoteTransport *transport; /* NULL when closed */
  JsonObject *hello;
  GHashTable *uploaded;    /* SHA-256s sent on this worker */
  guint64 next_id;
  Wait *wait;
  TlMatrix *matrix;        /* the matrix of the message being handed on */
  gboolean cut;            /* that message's payload was cut off by the worker */
  gint64 receiving_said_us; /* when a large payload's progress was last said */
};

/* ---- small pieces ------------------------------------------------------------ */

static void
set_status (TlRemoteConnection *conn, const char *text, double fraction)
{
  if (conn->status)
    conn->status (text, fraction, conn->status_data);
}

/* Ends the call in progress with error (NULL: success); takes error. */
static void
finish_wait (TlRemoteConnection *conn, GError *error)
{
  Wait *w = conn->wait;
  if (w == NULL || w->finished)
    {
      if (error)
        g_error_free (error);
      return;
    }
  w->finished = TRUE;
  w->error = error;
  g_clear_pointer (&w->grace, g_source_destroy);
}

static gboolean
send_bytes (TlRemoteConnection *conn, GBytes *bytes, GError **error)
{
  if (conn->transport)
    return tl_remote_transport_send (conn->transport, bytes, error);
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST,
               _("The connection to %s was lost (%s). The next run connects again."),
               tl_remote_target_host (conn->target), _("it had ended"));
  return FALSE;
}

static void
kill_transport (TlRemoteConnection *conn)
{
  if (conn->transport)
    tl_remote_transport_kill (conn->transport);
}

static void cancel_job (TlRemoteConnection *conn, Wait *w);

/* ---- what the transport says ---------------------------------------------------- */

static void dispatch_message (TlRemoteConnection *conn, const char *type, JsonObject *msg,
                              GBytes *payload);

static void
dispatch (const char *type, JsonObject *msg, GBytes *payload, TlMatrix *matrix, gpointer data)
{
  TlRemoteConnection *conn = data;
  /* the callee takes it (tl_remote_connection_take_matrix), or it goes */
  conn->matrix = matrix;
  JsonNode *cut = json_object_get_member (msg, "cut");
  conn->cut = cut && tl_json_node_is_bool (cut) && json_node_get_boolean (cut);
  dispatch_message (conn, type, msg, payload);
  g_clear_pointer (&conn->matrix, tl_matrix_unref);
}

static void
dispatch_message (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload)
{
  Wait *w = conn->wait;
  if (strcmp (type, "hello") == 0)
    {
      if (conn->hello == NULL)
        conn->hello = json_object_ref (msg);
      if (w && w->job_id == 0)
        finish_wait (conn, NULL);
      return;
    }
  if (strcmp (type, "refused") == 0)
    {
      tl_remote_transport_set_broken (conn->transport);
      finish_wait (conn, tl_wire_get_error (msg));
      return;
    }
  if (w == NULL || w->finished || w->job_id == 0)
    return; /* a late message of a job given up */
  if (tl_wire_get_count (msg, "id", 0) != (gint64) w->job_id)
    {
      if (strcmp (type, "error") == 0)
        finish_wait (conn, tl_wire_get_error (msg));
      return;
    }
  if (strcmp (type, "done") == 0)
    {
      w->done = json_object_ref (msg);
      finish_wait (conn, w->stop_error ? g_steal_pointer (&w->stop_error) : NULL);
      return;
    }
  GError *error = NULL;
  if (w->stop_error == NULL && w->on_message
      && !w->on_message (conn, type, msg, payload, w->user_data, &error))
    {
      w->stop_error = error;
      cancel_job (conn, w);
    }
}

static void
transport_failed (GError *error, gpointer data)
{
  finish_wait (data, error);
}

/* The transport ended: the call in progress fails with what it said. */
static void
transport_ended (int exit_status, const char *err_tail, gpointer data)
{
  TlRemoteConnection *conn = data;
  TlRemoteStage stage = conn->hello ? TL_REMOTE_STAGE_JOB : TL_REMOTE_STAGE_CONNECTING;
  finish_wait (conn, tl_remote_diagnose (conn->target, stage, exit_status, err_tail));
}

static void
transport_status (const char *text, gpointer data)
{
  set_status (data, text, -1);
}

/* A large payload's progress, said at most ten times a second. */
static void
transport_receiving (const char *type, JsonObject *msg, guint64 done, guint64 total, gpointer data)
{
  TlRemoteConnection *conn = data;
  gint64 now = g_get_monotonic_time ();
  if (done < total && now - conn->receiving_said_us < G_USEC_PER_SEC / 10)
    return;
  conn->receiving_said_us = now;
  /* a matrix's name, or a file's (its path is K/name on the worker) */
  const char *name = tl_json_object_get_string (msg, "name", NULL);
  if (name == NULL)
    {
      name = tl_json_object_get_string (msg, "path", type);
      name = strchr (name, '/') ? strrchr (name, '/') + 1 : name;
    }
  g_autofree char *text = g_strdup_printf (_("receiving %s from %s"), name,
                                           tl_remote_target_host (conn->target));
  set_status (conn, text, total ? (double) done / total : 1.0);
}

static const TlRemoteTransportCallbacks transport_callbacks = {
  .message = dispatch,
  .failed = transport_failed,
  .ended = transport_ended,
  .status = transport_status,
  .receiving = transport_receiving,
};

/* ---- waiting on the connection's context -------------------------------------- */

static gboolean
grace_cb (gpointer data)
{
  TlRemoteConnection *conn = data;
  if (conn->wait)
    conn->wait->grace = NULL;
  g_autofree char *text = g_strdup_printf (
    _("%s did not stop the job within %d s; the connection was closed."),
    tl_remote_target_host (conn->target), TL_REMOTE_CANCEL_GRACE_S);
  g_debug ("remote: %s", text);
  Wait *w = conn->wait;
  finish_wait (conn, w && w->stop_error ? g_steal_pointer (&w->stop_error)
                                        : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                               text));
  kill_transport (conn);
  return G_SOURCE_REMOVE;
}

static void
cancel_job (TlRemoteConnection *conn, Wait *w)
{
  if (w->cancel_sent || w->finished)
    return;
  w->cancel_sent = TRUE;
  JsonBuilder *b = tl_wire_begin ("cancel");
  tl_json_member_int (b, "id", (gint64) w->job_id);
  g_autoptr (GBytes) line = tl_wire_end (b);
  g_autoptr (GError) error = NULL;
  if (!send_bytes (conn, line, &error))
    {
      finish_wait (conn, w->stop_error ? g_steal_pointer (&w->stop_error)
                                       : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                              error->message));
      kill_transport (conn);
      return;
    }
  w->grace = g_timeout_source_new_seconds (TL_REMOTE_CANCEL_GRACE_S);
  g_source_set_callback (w->grace, grace_cb, conn, NULL);
  g_source_attach (w->grace, conn->context);
  g_source_unref (w->grace);
}

/* On the thread that cancels (Ctrl+C's: tl-stop-signals'): the wait sees
 * it when its context wakes.  (Not a GCancellableSource: GLib 2.74 leaks
 * one that its context destroys while another thread is still emitting
 * "cancelled" — the source fires, the wait ends and drops it, and the
 * reference it took for that emission is never given back.) */
static void
cancel_requested_cb (GCancellable *cancellable, gpointer data)
{
  Wait *w = data;
  g_atomic_int_set (&w->cancelled, TRUE);
  g_main_context_wakeup (w->context);
}

/* The cancel, on the connection's context. */
static void
cancelled (TlRemoteConnection *conn)
{
  Wait *w = conn->wait;
  if (w->finished)
    return;
  g_debug ("remote: cancel for %s at %.3f ms (monotonic)", tl_remote_target_host (conn->target),
           g_get_monotonic_time () / 1000.0);
  if (w->job_id == 0)
    {
      /* still connecting (or queued): nothing to stop but the transport
       * (said first: killing it makes its end, and a diagnosis, come) */
      finish_wait (conn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _("Stopped while connecting")));
      kill_transport (conn);
    }
  else
    cancel_job (conn, w);
}

static gboolean
hello_timeout_cb (gpointer data)
{
  TlRemoteConnection *conn = data;
  if (conn->transport && tl_remote_transport_is_queued (conn->transport))
    return G_SOURCE_CONTINUE; /* a queue may take hours: the user cancels */
  g_autofree char *said = g_strstrip (g_strdup (conn->transport ? tl_remote_transport_get_err_tail (conn->transport) : ""));
  finish_wait (conn, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_TIMEOUT,
                                  _("The worker on %s did not answer within %d s%s%s."),
                                  tl_remote_target_host (conn->target), TL_REMOTE_HELLO_TIMEOUT_S,
                                  *said ? ": " : "", said));
  kill_transport (conn);
  return G_SOURCE_REMOVE;
}

/* Iterates the connection's context until w finishes.  The context is the
 * thread default meanwhile (async calls made inside come back to it). */
static gboolean
wait_for (TlRemoteConnection *conn, Wait *w, GCancellable *cancellable, guint timeout_s,
          GError **error)
{
  conn->wait = w;
  w->context = conn->context;
  gulong cancel_handler = cancellable ? g_cancellable_connect (cancellable,
                                                               G_CALLBACK (cancel_requested_cb),
                                                               w, NULL)
                                      : 0;
  GSource *timeout = NULL;
  if (timeout_s)
    {
      timeout = g_timeout_source_new_seconds (timeout_s);
      g_source_set_callback (timeout, hello_timeout_cb, conn, NULL);
      g_source_attach (timeout, conn->context);
    }
  gboolean cancel_seen = FALSE;
  while (!w->finished)
    {
      if (!cancel_seen && g_atomic_int_get (&w->cancelled))
        {
          cancel_seen = TRUE;
          cancelled (conn);
          continue;
        }
      g_main_context_iteration (conn->context, TRUE);
    }
  /* (waits for an emission in flight on another thread to end) */
  g_cancellable_disconnect (cancellable, cancel_handler);
  g_clear_pointer (&w->grace, g_source_destroy);
  if (timeout)
    {
      g_source_destroy (timeout);
      g_source_unref (timeout);
    }
  conn->wait = NULL;
  g_clear_error (&w->stop_error);
  if (w->error)
    {
      g_propagate_error (error, w->error);
      g_clear_pointer (&w->done, json_object_unref);
      return FALSE;
    }
  return TRUE;
}

/* ---- opening and closing ------------------------------------------------------ */

static gboolean
open_on_context (TlRemoteConnection *conn, GCancellable *cancellable, GError **error)
{
  if (conn->hello && conn->transport && !tl_remote_transport_is_broken (conn->transport))
    return TRUE;
  tl_remote_connection_close (conn);
  g_autofree char *text = g_strdup_printf (_("connecting to %s"),
                                           tl_remote_target_host (conn->target));
  set_status (conn, text, -1);
  conn->transport = tl_remote_transport_spawn (conn->target, conn->context, &transport_callbacks,
                                               conn, error);
  if (conn->transport == NULL)
    return FALSE;
  Wait w = { 0 };
  guint timeout = conn->target->interactive ? 0 : TL_REMOTE_HELLO_TIMEOUT_S;
  if (!wait_for (conn, &w, cancellable, timeout, error))
    {
      tl_remote_connection_close (conn);
      return FALSE;
    }
  g_autofree char *who = g_strdup_printf (_("The tilelab-cli on %s"),
                                          tl_remote_target_host (conn->target));
  JsonBuilder *b = tl_wire_begin ("hello");
  tl_wire_add_versions (b);
  g_autoptr (GBytes) hello = tl_wire_end (b);
  if (!tl_wire_check_versions (conn->hello, who, error) || !send_bytes (conn, hello, error))
    {
      tl_remote_connection_close (conn);
      return FALSE;
    }
  const char *job = tl_json_object_get_string (conn->hello, "slurm_job", NULL);
  if (job)
    tl_remote_transport_set_slurm_job (conn->transport, job);
  return TRUE;
}

gboolean
tl_remote_connection_open (TlRemoteConnection *conn, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (conn != NULL, FALSE);
  g_main_context_push_thread_default (conn->context);
  gboolean ok = open_on_context (conn, cancellable, error);
  g_main_context_pop_thread_default (conn->context);
  return ok;
}

void
tl_remote_connection_close (TlRemoteConnection *conn)
{
  g_return_if_fail (conn != NULL);
  if (conn->transport == NULL)
    return;
  g_main_context_push_thread_default (conn->context);
  g_clear_pointer (&conn->transport, tl_remote_transport_close);
  GSource *stale;
  while ((stale = g_main_context_find_source_by_user_data (conn->context, conn)))
    g_source_destroy (stale);
  g_clear_pointer (&conn->hello, json_object_unref);
  g_hash_table_remove_all (conn->uploaded);
  while (g_main_context_iteration (conn->context, FALSE))
    ;
  g_main_context_pop_thread_default (conn->context);
}

/* ---- the rest of the API ------------------------------------------------------- */

TlRemoteConnection *
tl_remote_connection_new (const TlRemoteTarget *target)
{
  TlRemoteConnection *conn = g_new0 (TlRemoteConnection, 1);
  conn->target = tl_remote_target_copy (target);
  conn->context = g_main_context_new ();
  conn->uploaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return conn;
}

void
tl_remote_connection_free (TlRemoteConnection *conn)
{
  if (conn == NULL)
    return;
  tl_remote_connection_close (conn);
  tl_remote_target_free (conn->target);
  g_main_context_unref (conn->context);
  g_hash_table_unref (conn->uploaded);
  g_free (conn);
}

void
tl_remote_connection_set_status_func (TlRemoteConnection *conn, TlRemoteStatusFunc func,
                                      gpointer user_data)
{
  conn->status = func;
  conn->status_data = user_data;
}

gboolean
tl_remote_connection_is_open (TlRemoteConnection *conn)
{
  return conn->hello != NULL && conn->transport != NULL
         && !tl_remote_transport_is_broken (conn->transport);
}

JsonObject *
tl_remote_connection_get_hello (TlRemoteConnection *conn)
{
  return conn->hello;
}

TlMatrix *
tl_remote_connection_take_matrix (TlRemoteConnection *conn, GBytes *payload, const char *name,
                                  GError **error)
{
  if (conn->matrix)
    return g_steal_pointer (&conn->matrix);
  if (conn->cut)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("%s was cut off by the cancel"),
                   name);
      return NULL;
    }
  if (payload)
    return tl_wire_matrix_from_npy (payload, name, error);
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL, _("%s came without its bytes"),
               name);
  return NULL;
}

JsonNode *
tl_remote_connection_where (TlRemoteConnection *conn)
{
  JsonObject *o = json_object_new ();
  const TlRemoteTarget *t = conn->target;
  json_object_set_string_member (o, "transport", t->destination ? "ssh" : "local");
  if (t->destination)
    json_object_set_string_member (o, "destination", t->destination);
  if (t->launcher)
    json_object_set_string_member (o, "launcher", t->launcher);
  if (conn->hello)
    {
      const char *members[] = { "host", "version" };
      for (guint i = 0; i < G_N_ELEMENTS (members); i++)
        json_object_set_string_member (o, members[i],
                                       tl_json_object_get_string (conn->hello, members[i], "?"));
    }
  const char *job = conn->transport ? tl_remote_transport_get_slurm_job (conn->transport) : NULL;
  if (job)
    json_object_set_string_member (o, "slurm_job", job);
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, o);
  return node;
}

static char *
upload_on_context (TlRemoteConnection *conn, GBytes *bytes, const char *name,
                   GCancellable *cancellable, GError **error)
{
  if (!open_on_context (conn, cancellable, error))
    return NULL;
  g_autofree char *sha = tl_wire_sha256 (bytes);
  if (g_hash_table_contains (conn->uploaded, sha))
    return g_steal_pointer (&sha);
  gsize size = 0;
  const guchar *data = g_bytes_get_data (bytes, &size);
  JsonBuilder *b = tl_wire_begin ("upload");
  tl_json_member_string (b, "sha256", sha);
  tl_json_member_string (b, "name", name);
  tl_json_member_int (b, "bytes", (gint64) size);
  g_autoptr (GBytes) header = tl_wire_end (b);
  if (!send_bytes (conn, header, error))
    return NULL;
  g_autofree char *text = g_strdup_printf (_("uploading %s to %s"), name,
                                           tl_remote_target_host (conn->target));
  for (gsize done = 0; done < size;)
    {
      set_status (conn, text, (double) done / size);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          /* the worker waits for bytes that will not come: this worker is done */
          kill_transport (conn);
          return NULL;
        }
      gsize n = MIN (UPLOAD_CHUNK, size - done);
      g_autoptr (GBytes) chunk = g_bytes_new_static (data + done, n);
      if (!send_bytes (conn, chunk, error))
        return NULL;
      done += n;
    }
  set_status (conn, text, 1.0);
  g_hash_table_add (conn->uploaded, g_strdup (sha));
  return g_steal_pointer (&sha);
}

gboolean
tl_remote_connection_has_upload (TlRemoteConnection *conn, const char *sha256,
                                 GCancellable *cancellable, GError **error)
{
  g_main_context_push_thread_default (conn->context);
  gboolean open = open_on_context (conn, cancellable, error);
  g_main_context_pop_thread_default (conn->context);
  return open && g_hash_table_contains (conn->uploaded, sha256);
}

char *
tl_remote_connection_upload (TlRemoteConnection *conn, GBytes *bytes, const char *name,
                             GCancellable *cancellable, GError **error)
{
  g_main_context_push_thread_default (conn->context);
  char *sha = upload_on_context (conn, bytes, name, cancellable, error);
  g_main_context_pop_thread_default (conn->context);
  return sha;
}

static JsonObject *
run_job_on_context (TlRemoteConnection *conn, JsonBuilder *job, TlRemoteMessageFunc on_message,
                    gpointer user_data, GCancellable *cancellable, GError **error)
{
  if (!open_on_context (conn, cancellable, error))
    {
      g_object_unref (job);
      return NULL;
    }
  Wait w = { .job_id = ++conn->next_id, .on_message = on_message, .user_data = user_data };
  tl_json_member_int (job, "id", (gint64) w.job_id);
  g_autoptr (GBytes) line = tl_wire_end (job);
  if (!send_bytes (conn, line, error))
    return NULL;
  if (!wait_for (conn, &w, cancellable, 0, error))
    return NULL;
  return w.done;
}

JsonObject *
tl_remote_connection_run_job (TlRemoteConnection *conn, JsonBuilder *job,
                              TlRemoteMessageFunc on_message, gpointer user_data,
                              GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (conn != NULL && job != NULL, NULL);
  g_main_context_push_thread_default (conn->context);
  JsonObject *done = run_job_on_context (conn, job, on_message, user_data, cancellable, error);
  g_main_context_pop_thread_default (conn->context);
  return done;
}
