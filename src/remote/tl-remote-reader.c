/* tl-remote-reader.c — the transport's side of a connection: the worker's
 * messages on its output, ssh's and Slurm's words on its standard error,
 * and its end, said in words (tl-remote-diagnose.c). */
#include "remote/tl-remote-connection-private.h"

#include "core/tl-json.h"
#include "core/tl-matrix.h"
#include "remote/tl-remote-diagnose.h"
#include "remote/tl-wire.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#define STDERR_TAIL_BYTES 4096

static void read_next_line (TlRemoteConnection *conn);

static int
decode_status (GSubprocess *proc)
{
  if (g_subprocess_get_if_exited (proc))
    return g_subprocess_get_exit_status (proc);
  if (g_subprocess_get_if_signaled (proc))
    return 128 + g_subprocess_get_term_sig (proc);
  return -1;
}

/* ---- the transport's end ------------------------------------------------------- */

/* The transport has ended: once its output, its exit status and its
 * standard error are all in (or standard error did not end within half a
 * second: a child of ssh may hold it), the call in progress fails with
 * what they say. */
static void
fail_with_diagnosis (TlRemoteConnection *conn)
{
  if (conn->diagnosed)
    return;
  conn->diagnosed = TRUE;
  conn->broken = TRUE;
  TlRemoteStage stage = conn->hello ? TL_REMOTE_STAGE_JOB : TL_REMOTE_STAGE_CONNECTING;
  tl_remote_connection_finish_wait (conn, tl_remote_diagnose (conn->target, stage, conn->exit_status,
                                         conn->err_tail->str));
}

static gboolean
diagnose_late_cb (gpointer data)
{
  fail_with_diagnosis (data);
  return G_SOURCE_REMOVE;
}

static void
attach_timeout (TlRemoteConnection *conn, guint ms, GSourceFunc func)
{
  GSource *s = g_timeout_source_new (ms);
  g_source_set_callback (s, func, conn, NULL);
  g_source_attach (s, conn->context);
  g_source_unref (s);
}

static void
try_diagnose (TlRemoteConnection *conn)
{
  if (!conn->eof || !conn->exited || conn->diagnosed)
    return;
  if (conn->err_eof)
    fail_with_diagnosis (conn);
  else
    attach_timeout (conn, 500, diagnose_late_cb);
}

static gboolean
eof_grace_cb (gpointer data)
{
  TlRemoteConnection *conn = data;
  /* the output ended but the transport lives on: end it, then say why */
  if (!conn->exited && conn->proc)
    g_subprocess_force_exit (conn->proc);
  return G_SOURCE_REMOVE;
}

static void
on_eof (TlRemoteConnection *conn)
{
  conn->eof = TRUE;
  conn->broken = TRUE;
  if (!conn->exited)
    attach_timeout (conn, 2000, eof_grace_cb);
  try_diagnose (conn);
}

static void
exited_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteConnection *conn = data;
  conn->pending--;
  if (!g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL))
    return; /* closing */
  conn->exited = TRUE;
  conn->exit_status = decode_status (G_SUBPROCESS (source));
  g_debug ("remote: the transport to %s exited (%d)", tl_remote_target_host (conn->target),
           conn->exit_status);
  try_diagnose (conn);
}

/* ---- standard error: ssh's and Slurm's words ------------------------------------- */

static void read_next_err_line (TlRemoteConnection *conn);

static void
err_line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteConnection *conn = data;
  conn->pending--;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source),
                                                                result, &length, &error);
  if (line == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          conn->err_eof = TRUE;
          try_diagnose (conn);
        }
      return;
    }
  if (*line == '\0')
    {
      /* the watchdog's heartbeat (tl-remote-target.c) */
      read_next_err_line (conn);
      return;
    }
  g_debug ("remote %s: %s", tl_remote_target_host (conn->target), line);
  g_string_append (conn->err_tail, line);
  g_string_append_c (conn->err_tail, '\n');
  if (conn->err_tail->len > STDERR_TAIL_BYTES)
    g_string_erase (conn->err_tail, 0, conn->err_tail->len - STDERR_TAIL_BYTES);

  g_autofree char *job = NULL;
  gboolean queued = FALSE;
  if (tl_remote_parse_launcher_line (line, &job, &queued))
    {
      g_free (conn->slurm_job);
      conn->slurm_job = g_strdup (job);
      conn->queued = queued;
      g_autofree char *text = queued
        ? g_strdup_printf (_("waiting for a GPU: job %s pending on %s"), job,
                           tl_remote_target_host (conn->target))
        : g_strdup_printf (_("job %s started on %s"), job, tl_remote_target_host (conn->target));
      tl_remote_connection_set_status (conn, text, -1);
    }
  read_next_err_line (conn);
}

static void
read_next_err_line (TlRemoteConnection *conn)
{
  conn->pending++;
  g_data_input_stream_read_line_async (conn->err, G_PRIORITY_DEFAULT, conn->io_cancellable,
                                       err_line_cb, conn);
}

/* ---- standard output: the worker's messages ------------------------------------- */

static void
dispatch (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload)
{
  Wait *w = conn->wait;
  if (strcmp (type, "hello") == 0)
    {
      if (conn->hello == NULL)
        conn->hello = json_object_ref (msg);
      if (w && w->job_id == 0)
        tl_remote_connection_finish_wait (conn, NULL);
      return;
    }
  if (strcmp (type, "refused") == 0)
    {
      conn->broken = TRUE;
      tl_remote_connection_finish_wait (conn, tl_wire_get_error (msg));
      return;
    }
  if (w && !w->finished && w->req && tl_wire_get_count (msg, "req", 0) == (gint64) w->req)
    {
      w->done = json_object_ref (msg);
      w->payload = payload ? g_bytes_ref (payload) : NULL;
      tl_remote_connection_finish_wait (conn, NULL);
      return;
    }
  if (w == NULL || w->finished || w->job_id == 0 || w->req)
    return; /* a late message of a job given up */
  if (tl_wire_get_count (msg, "id", 0) != (gint64) w->job_id)
    {
      if (strcmp (type, "error") == 0)
        tl_remote_connection_finish_wait (conn, tl_wire_get_error (msg));
      return;
    }
  if (strcmp (type, "done") == 0)
    {
      w->done = json_object_ref (msg);
      tl_remote_connection_finish_wait (conn, w->stop_error ? g_steal_pointer (&w->stop_error) : NULL);
      return;
    }
  GError *error = NULL;
  if (w->stop_error == NULL && w->on_message
      && !w->on_message (conn, type, msg, payload, w->user_data, &error))
    {
      w->stop_error = error;
      tl_remote_connection_cancel_job (conn, w);
    }
}

typedef struct
{
  TlRemoteConnection *conn;
  JsonObject *msg;
  char *type;
  guchar *buffer;
  gsize size;
} Payload;

static void
payload_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  TlRemoteConnection *conn = p->conn;
  conn->pending--;
  gsize got = 0;
  gboolean ok = g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &got, NULL);
  if (ok && got == p->size)
    {
      g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (&p->buffer), p->size);
      dispatch (conn, p->type, p->msg, bytes);
      read_next_line (conn);
    }
  else if (!g_cancellable_is_cancelled (conn->io_cancellable))
    on_eof (conn);
  g_free (p->buffer);
  g_free (p->type);
  json_object_unref (p->msg);
  g_free (p);
}

static void
line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteConnection *conn = data;
  conn->pending--;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source),
                                                                result, &length, &error);
  if (line == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        on_eof (conn);
      return;
    }
  const char *type = NULL;
  g_autoptr (JsonObject) msg = length <= TL_WIRE_MAX_LINE
                                 ? tl_wire_parse (line, length, &type, &error)
                                 : NULL;
  if (msg == NULL)
    {
      /* not the protocol: a login banner or a shell's words on stdout */
      g_debug ("remote %s (not a message): %.200s", tl_remote_target_host (conn->target), line);
      read_next_line (conn);
      return;
    }
  gint64 size = tl_wire_get_count (msg, "bytes", 0);
  if (size == 0)
    {
      dispatch (conn, type, msg, NULL);
      read_next_line (conn);
      return;
    }
  /* at most what a matrix may take here (and its NPY header), or the
   * allocation's failure says it does not fit */
  guint64 cap = tl_matrix_byte_cap ();
  guchar *buffer = (guint64) size <= MAX (cap, cap + (1u << 20)) ? g_try_malloc (size) : NULL;
  if (buffer == NULL)
    {
      conn->broken = TRUE;
      tl_remote_connection_finish_wait (conn, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                      _("%s sent %" PRId64 " bytes, more than this "
                                        "computer can hold"),
                                      tl_remote_target_host (conn->target), size));
      tl_remote_connection_kill_transport (conn);
      return;
    }
  Payload *p = g_new0 (Payload, 1);
  p->conn = conn;
  p->msg = json_object_ref (msg);
  p->type = g_strdup (type);
  p->buffer = buffer;
  p->size = size;
  conn->pending++;
  g_input_stream_read_all_async (G_INPUT_STREAM (conn->from), buffer, size, G_PRIORITY_DEFAULT,
                                 conn->io_cancellable, payload_cb, p);
}

static void
read_next_line (TlRemoteConnection *conn)
{
  if (conn->eof)
    return;
  conn->pending++;
  g_data_input_stream_read_line_async (conn->from, G_PRIORITY_DEFAULT, conn->io_cancellable,
                                       line_cb, conn);
}

void
tl_remote_reader_start (TlRemoteConnection *conn)
{
  read_next_line (conn);
  read_next_err_line (conn);
  conn->pending++;
  g_subprocess_wait_async (conn->proc, conn->io_cancellable, exited_cb, conn);
}
