/* tl-remote-connection.c — the client's end of one worker. */
#include "remote/tl-remote-connection-private.h"

#include "core/tl-json.h"
#include "core/tl-matrix.h"
#include "remote/tl-remote-diagnose.h"
#include "remote/tl-wire.h"

#include <glib/gi18n-lib.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <signal.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define UPLOAD_CHUNK (1u << 20)

/* ---- small pieces ------------------------------------------------------------ */

void
tl_remote_connection_set_status (TlRemoteConnection *conn, const char *text, double fraction)
{
  if (conn->status)
    conn->status (text, fraction, conn->status_data);
}

void
tl_remote_connection_finish_wait (TlRemoteConnection *conn, GError *error)
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

static void
child_setup_cb (gpointer data)
{
  /* Ctrl+C in a terminal goes to the whole foreground process group: the
   * CLI handles it (a cancel message) and the transport must live on to
   * carry that message.  ssh installs its own SIGINT handler only when
   * SIGINT is not ignored. */
  signal (SIGINT, SIG_IGN);
#ifdef __linux__
  /* the client killed outright: the transport goes too, so the worker sees
   * its input end */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
}

static void
scancel_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteConnection *conn = data;
  conn->pending--;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
}

/* The Slurm job of this transport, if it has one, is cancelled by its id
 * (scancel beside the launcher's srun, through ssh for a host), without
 * waiting: a killed ssh leaves srun on the login node waiting in the
 * queue or holding the node, and the watchdog (tl-remote-target.c) that
 * would end it may not get the chance.  Once per transport;
 * tl_remote_connection_close() waits for it. */
static void
cancel_slurm_job (TlRemoteConnection *conn)
{
  if (conn->slurm_job == NULL || conn->scancel_sent)
    return;
  g_auto (GStrv) argv = tl_remote_target_scancel_argv (conn->target, conn->slurm_job);
  if (argv == NULL)
    return;
  conn->scancel_sent = TRUE;
  g_debug ("remote: cancelling Slurm job %s on %s", conn->slurm_job,
           tl_remote_target_host (conn->target));
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDIN_INHERIT | G_SUBPROCESS_FLAGS_STDOUT_SILENCE
    | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup_cb, NULL, NULL);
  g_autoptr (GSubprocess) proc = g_subprocess_launcher_spawnv (launcher,
                                                              (const char *const *) argv, NULL);
  if (proc == NULL)
    return;
  /* a scancel that hangs (a lost network) is ended by ssh's own timeouts */
  conn->pending++;
  g_subprocess_wait_async (proc, NULL, scancel_done_cb, conn);
}

/* The transport ends now (killed). */
static gboolean
force_exit_cb (gpointer data)
{
  TlRemoteConnection *conn = data;
  conn->force_exit = NULL;
  if (conn->proc && !conn->exited)
    g_subprocess_force_exit (conn->proc);
  return G_SOURCE_REMOVE;
}

/* The transport ends now: SIGTERM (a local srun then cancels its job; on
 * a host, the launcher's watchdog sees the connection go and does the
 * same), SIGKILL 2 s later; a Slurm job it runs or waits for is cancelled
 * by its id as well. */
void
tl_remote_connection_kill_transport (TlRemoteConnection *conn)
{
  conn->broken = TRUE;
  if (conn->proc && !conn->exited && conn->force_exit == NULL)
    {
      g_subprocess_send_signal (conn->proc, SIGTERM);
      conn->force_exit = g_timeout_source_new (2000);
      g_source_set_callback (conn->force_exit, force_exit_cb, conn, NULL);
      g_source_attach (conn->force_exit, conn->context);
      g_source_unref (conn->force_exit);
    }
  cancel_slurm_job (conn);
}

static gboolean
send_bytes (TlRemoteConnection *conn, GBytes *bytes, GError **error)
{
  gsize size = 0;
  const void *data = g_bytes_get_data (bytes, &size);
  g_autoptr (GError) local = NULL;
  if (conn->to && !conn->broken
      && g_output_stream_write_all (conn->to, data, size, NULL, NULL, &local))
    return TRUE;
  conn->broken = TRUE;
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST,
               _("The connection to %s was lost (%s). The next run connects again."),
               tl_remote_target_host (conn->target),
               local ? local->message : _("it had ended"));
  return FALSE;
}

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
  tl_remote_connection_finish_wait (conn, w && w->stop_error ? g_steal_pointer (&w->stop_error)
                                        : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                               text));
  tl_remote_connection_kill_transport (conn);
  return G_SOURCE_REMOVE;
}

void
tl_remote_connection_cancel_job (TlRemoteConnection *conn, Wait *w)
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
      tl_remote_connection_finish_wait (conn, w->stop_error ? g_steal_pointer (&w->stop_error)
                                       : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                              error->message));
      tl_remote_connection_kill_transport (conn);
      return;
    }
  w->grace = g_timeout_source_new_seconds (TL_REMOTE_CANCEL_GRACE_S);
  g_source_set_callback (w->grace, grace_cb, conn, NULL);
  g_source_attach (w->grace, conn->context);
  g_source_unref (w->grace);
}

static gboolean
cancelled_cb (GCancellable *cancellable, gpointer data)
{
  TlRemoteConnection *conn = data;
  Wait *w = conn->wait;
  if (w == NULL || w->finished)
    return G_SOURCE_REMOVE;
  g_debug ("remote: cancel for %s at %.3f ms (monotonic)", tl_remote_target_host (conn->target),
           g_get_monotonic_time () / 1000.0);
  if (w->job_id == 0 || w->req)
    {
      /* still connecting (or queued): nothing to stop but the transport
       * (said first: killing it makes its end, and a diagnosis, come) */
      tl_remote_connection_finish_wait (conn, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _("Stopped while connecting")));
      tl_remote_connection_kill_transport (conn);
    }
  else
    tl_remote_connection_cancel_job (conn, w);
  return G_SOURCE_REMOVE;
}

static gboolean
hello_timeout_cb (gpointer data)
{
  TlRemoteConnection *conn = data;
  if (conn->queued)
    return G_SOURCE_CONTINUE; /* a queue may take hours: the user cancels */
  g_autofree char *said = g_strstrip (g_strdup (conn->err_tail->str));
  tl_remote_connection_finish_wait (conn, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_TIMEOUT,
                                  _("The worker on %s did not answer within %d s%s%s."),
                                  tl_remote_target_host (conn->target), TL_REMOTE_HELLO_TIMEOUT_S,
                                  *said ? ": " : "", said));
  tl_remote_connection_kill_transport (conn);
  return G_SOURCE_REMOVE;
}

/* Iterates the connection's context until w finishes.  The context is the
 * thread default meanwhile (async calls made inside come back to it). */
static gboolean
wait_for (TlRemoteConnection *conn, Wait *w, GCancellable *cancellable, guint timeout_s,
          GError **error)
{
  conn->wait = w;
  GSource *cancel_source = NULL, *timeout = NULL;
  if (cancellable)
    {
      cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (cancel_source, (GSourceFunc) (void (*) (void)) cancelled_cb, conn,
                             NULL);
      g_source_attach (cancel_source, conn->context);
    }
  if (timeout_s)
    {
      timeout = g_timeout_source_new_seconds (timeout_s);
      g_source_set_callback (timeout, hello_timeout_cb, conn, NULL);
      g_source_attach (timeout, conn->context);
    }
  while (!w->finished)
    g_main_context_iteration (conn->context, TRUE);
  g_clear_pointer (&w->grace, g_source_destroy);
  if (cancel_source)
    {
      g_source_destroy (cancel_source);
      g_source_unref (cancel_source);
    }
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
spawn (TlRemoteConnection *conn, GError **error)
{
  g_auto (GStrv) argv = tl_remote_target_worker_argv (conn->target, error);
  if (argv == NULL)
    return FALSE;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
    | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup_cb, NULL, NULL);
  g_autoptr (GError) local = NULL;
  conn->proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, &local);
  if (conn->proc == NULL)
    {
      g_set_error (error, TL_REMOTE_ERROR,
                   conn->target->destination ? TL_REMOTE_ERROR_UNREACHABLE
                                             : TL_REMOTE_ERROR_NO_WORKER,
                   _("Could not start “%s” for %s: %s"), argv[0],
                   tl_remote_target_host (conn->target), local->message);
      return FALSE;
    }
  g_autofree char *shown = g_strjoinv (" ", argv);
  g_debug ("remote: started %s", shown);
  conn->to = g_object_ref (g_subprocess_get_stdin_pipe (conn->proc));
  tl_wire_widen_pipe (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (conn->to)));
  tl_wire_widen_pipe (g_unix_input_stream_get_fd (
    G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (conn->proc))));
  conn->from = g_data_input_stream_new (g_subprocess_get_stdout_pipe (conn->proc));
  g_buffered_input_stream_set_buffer_size (G_BUFFERED_INPUT_STREAM (conn->from), 1 << 16);
  conn->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (conn->proc));
  conn->io_cancellable = g_cancellable_new ();
  conn->eof = conn->exited = conn->err_eof = conn->broken = conn->queued = FALSE;
  conn->scancel_sent = FALSE;
  conn->diagnosed = FALSE;
  conn->exit_status = -1;
  g_string_truncate (conn->err_tail, 0);
  tl_remote_reader_start (conn);
  return TRUE;
}

static gboolean
open_on_context (TlRemoteConnection *conn, GCancellable *cancellable, GError **error)
{
  if (conn->hello && !conn->broken)
    return TRUE;
  tl_remote_connection_close (conn);
  g_autofree char *text = g_strdup_printf (_("connecting to %s"),
                                           tl_remote_target_host (conn->target));
  tl_remote_connection_set_status (conn, text, -1);
  if (!spawn (conn, error))
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
    {
      g_free (conn->slurm_job);
      conn->slurm_job = g_strdup (job);
    }
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

static gboolean
exit_wait_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until the transport has exited or ms have passed. */
static void
wait_for_exit (TlRemoteConnection *conn, guint ms)
{
  gboolean late = FALSE;
  GSource *s = g_timeout_source_new (ms);
  g_source_set_callback (s, exit_wait_cb, &late, NULL);
  g_source_attach (s, conn->context);
  while (!conn->exited && !late)
    g_main_context_iteration (conn->context, TRUE);
  g_source_destroy (s);
  g_source_unref (s);
}

void
tl_remote_connection_close (TlRemoteConnection *conn)
{
  g_return_if_fail (conn != NULL);
  if (conn->proc == NULL)
    return;
  g_main_context_push_thread_default (conn->context);
  if (!conn->exited)
    {
      /* the end of its input tells the worker to stop and clean up */
      g_output_stream_close (conn->to, NULL, NULL);
      wait_for_exit (conn, 3000);
    }
  if (!conn->exited)
    {
      tl_remote_connection_kill_transport (conn);
      wait_for_exit (conn, 1000);
    }
  if (!conn->exited)
    {
      g_subprocess_force_exit (conn->proc);
      wait_for_exit (conn, 1000);
    }
  g_clear_pointer (&conn->force_exit, g_source_destroy);
  g_cancellable_cancel (conn->io_cancellable);
  while (conn->pending > 0)
    g_main_context_iteration (conn->context, TRUE);
  /* timers of this transport (its end, a late diagnosis) must not touch
   * the next one */
  GSource *stale;
  while ((stale = g_main_context_find_source_by_user_data (conn->context, conn)))
    g_source_destroy (stale);
  g_clear_object (&conn->proc);
  g_clear_object (&conn->to);
  g_clear_object (&conn->from);
  g_clear_object (&conn->err);
  g_clear_object (&conn->io_cancellable);
  g_clear_pointer (&conn->hello, json_object_unref);
  g_clear_pointer (&conn->slurm_job, g_free);
  g_hash_table_remove_all (conn->uploaded);
  while (g_main_context_iteration (conn->context, FALSE))
    ;
  g_main_context_pop_thread_default (conn->context);
}

/* ---- the rest of the API ------------------------------------------------------- */

static gpointer
ignore_sigpipe (gpointer data)
{
  /* a worker that went away makes writes to its pipe fail with EPIPE
   * instead of killing this process */
  signal (SIGPIPE, SIG_IGN);
  return NULL;
}

TlRemoteConnection *
tl_remote_connection_new (const TlRemoteTarget *target)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, ignore_sigpipe, NULL);
  TlRemoteConnection *conn = g_new0 (TlRemoteConnection, 1);
  conn->target = tl_remote_target_copy (target);
  conn->context = g_main_context_new ();
  conn->err_tail = g_string_new (NULL);
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
  g_string_free (conn->err_tail, TRUE);
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
  return conn->hello != NULL && !conn->broken;
}

JsonObject *
tl_remote_connection_get_hello (TlRemoteConnection *conn)
{
  return conn->hello;
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
  if (conn->slurm_job)
    json_object_set_string_member (o, "slurm_job", conn->slurm_job);
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
      tl_remote_connection_set_status (conn, text, (double) done / size);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          /* the worker waits for bytes that will not come: this worker is done */
          tl_remote_connection_kill_transport (conn);
          return NULL;
        }
      gsize n = MIN (UPLOAD_CHUNK, size - done);
      g_autoptr (GBytes) chunk = g_bytes_new_static (data + done, n);
      if (!send_bytes (conn, chunk, error))
        return NULL;
      done += n;
    }
  tl_remote_connection_set_status (conn, text, 1.0);
  g_hash_table_add (conn->uploaded, g_strdup (sha));
  return g_steal_pointer (&sha);
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
