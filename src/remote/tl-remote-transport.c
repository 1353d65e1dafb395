/* tl-remote-transport.c — the pipe to one worker: spawning it, the
 * worker's messages on its output (read by tl-remote-output.c), ssh's
 * and Slurm's words on its standard error, its end, and ending it. */
#include "remote/tl-remote-transport.h"

#include "remote/tl-remote-diagnose.h"
#include "remote/tl-remote-output.h"
#include "remote/tl-wire.h"
#include "remote/tl-wire-lines.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define STDERR_TAIL_BYTES 4096
#define STDERR_LINE_BYTES (1u << 20) /* of a longer line, a piece is left out */

struct _TlRemoteTransport
{
  TlRemoteTarget *target;
  GMainContext *context;
  TlRemoteTransportCallbacks callbacks;
  gpointer data;

  GSubprocess *proc;
  GOutputStream *to;
  TlRemoteOutput *out;     /* the worker's messages (tl-remote-output.c) */
  GDataInputStream *err;
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
};



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

static int
decode_status (GSubprocess *proc)
{
  if (g_subprocess_get_if_exited (proc))
    return g_subprocess_get_exit_status (proc);
  if (g_subprocess_get_if_signaled (proc))
    return 128 + g_subprocess_get_term_sig (proc);
  return -1;
}

static void
say_failed (TlRemoteTransport *t, GError *error)
{
  t->broken = TRUE;
  if (t->said_end)
    {
      g_error_free (error);
      return;
    }
  t->said_end = TRUE;
  t->callbacks.failed (error, t->data);
}

/* ---- the end ------------------------------------------------------------------ */

/* The transport has ended: once its output, its exit status and its
 * standard error are all in (or standard error did not end within half a
 * second: a child of ssh may hold it), it is said with what they say. */
static void
say_ended (TlRemoteTransport *t)
{
  if (t->said_end)
    return;
  t->said_end = TRUE;
  t->broken = TRUE;
  t->callbacks.ended (t->exit_status, t->err_tail->str, t->data);
}

static gboolean
ended_late_cb (gpointer data)
{
  say_ended (data);
  return G_SOURCE_REMOVE;
}

static void
attach_timeout (TlRemoteTransport *t, guint ms, GSourceFunc func)
{
  GSource *s = g_timeout_source_new (ms);
  g_source_set_callback (s, func, t, NULL);
  g_source_attach (s, t->context);
  g_source_unref (s);
}

static void
try_say_ended (TlRemoteTransport *t)
{
  if (!t->eof || !t->exited || t->said_end)
    return;
  if (t->err_eof)
    say_ended (t);
  else
    attach_timeout (t, 500, ended_late_cb);
}

static gboolean
eof_grace_cb (gpointer data)
{
  TlRemoteTransport *t = data;
  /* the output ended but the transport lives on: end it, then say why */
  if (!t->exited && t->proc)
    g_subprocess_force_exit (t->proc);
  return G_SOURCE_REMOVE;
}

static void
on_eof (TlRemoteTransport *t)
{
  t->eof = TRUE;
  t->broken = TRUE;
  if (!t->exited)
    attach_timeout (t, 2000, eof_grace_cb);
  try_say_ended (t);
}

static void
exited_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteTransport *t = data;
  t->pending--;
  if (!g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL))
    return; /* closing */
  t->exited = TRUE;
  t->exit_status = decode_status (G_SUBPROCESS (source));
  g_debug ("remote: the transport to %s exited (%d)", tl_remote_target_host (t->target),
           t->exit_status);
  try_say_ended (t);
}

/* ---- standard error: ssh's and Slurm's words ------------------------------------- */

static void read_next_err_line (TlRemoteTransport *t);

static void
take_launcher_line (TlRemoteTransport *t, const char *line)
{
  g_autofree char *job = NULL;
  gboolean queued = FALSE;
  if (!tl_remote_parse_launcher_line (line, &job, &queued))
    return;
  g_free (t->slurm_job);
  t->slurm_job = g_strdup (job);
  t->queued = queued;
  g_autofree char *text = queued
    ? g_strdup_printf (_("waiting for a GPU: job %s pending on %s"), job,
                       tl_remote_target_host (t->target))
    : g_strdup_printf (_("job %s started on %s"), job, tl_remote_target_host (t->target));
  t->callbacks.status (text, t->data);
}

/* A line read from source (the async read of t done), or NULL at its end
 * (*ended: the stream ended, rather than t being closed) or when the peer
 * sent a line longer than the wire allows (*too_long, then set). */
static char *
finish_line (TlRemoteTransport *t, GObject *source, GAsyncResult *result, gsize *length,
             gboolean *ended, GError **too_long)
{
  t->pending--;
  g_autoptr (GError) error = NULL;
  char *line = tl_wire_read_line_finish (G_BUFFERED_INPUT_STREAM (source), result, length,
                                         &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_propagate_error (too_long, g_steal_pointer (&error));
      *ended = FALSE;
      return NULL;
    }
  *ended = line == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  return line;
}

static void
err_line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteTransport *t = data;
  gsize length = 0;
  gboolean ended = FALSE;
  g_autoptr (GError) too_long = NULL;
  g_autofree char *line = finish_line (t, source, result, &length, &ended, &too_long);
  if (too_long)
    {
      /* left out, and read on (a child blocked on a full pipe would hang) */
      g_debug ("remote %s: standard error: %s, left out", tl_remote_target_host (t->target),
               too_long->message);
      read_next_err_line (t);
      return;
    }
  if (line == NULL)
    {
      if (ended)
        {
          t->err_eof = TRUE;
          try_say_ended (t);
        }
      return;
    }
  if (*line != '\0') /* an empty line is the watchdog's heartbeat (tl-remote-target.c) */
    {
      g_debug ("remote %s: %s", tl_remote_target_host (t->target), line);
      g_string_append (t->err_tail, line);
      g_string_append_c (t->err_tail, '\n');
      if (t->err_tail->len > STDERR_TAIL_BYTES)
        g_string_erase (t->err_tail, 0, t->err_tail->len - STDERR_TAIL_BYTES);
      take_launcher_line (t, line);
    }
  read_next_err_line (t);
}

static void
read_next_err_line (TlRemoteTransport *t)
{
  t->pending++;
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (t->err), STDERR_LINE_BYTES,
                           t->io_cancellable, err_line_cb, t);
}

/* ---- standard output: the worker's messages ------------------------------------- */

static void
output_message_cb (const char *type, JsonObject *message, GBytes *payload, TlMatrix *matrix,
                   gpointer data)
{
  TlRemoteTransport *t = data;
  t->callbacks.message (type, message, payload, matrix, t->data);
}

static void
output_receiving_cb (const char *type, JsonObject *message, guint64 done, guint64 total,
                     gpointer data)
{
  TlRemoteTransport *t = data;
  if (t->callbacks.receiving)
    t->callbacks.receiving (type, message, done, total, t->data);
}

static void
output_ended_cb (gpointer data)
{
  on_eof (data);
}

static void
output_broken_cb (GError *error, gpointer data)
{
  /* no message can follow in step: the transport is of no more use */
  TlRemoteTransport *t = data;
  say_failed (t, error);
  tl_remote_transport_kill (t);
}

/* ---- starting ----------------------------------------------------------------- */

static gpointer
ignore_sigpipe (gpointer data)
{
  /* a worker that went away makes writes to its pipe fail with EPIPE
   * instead of killing this process */
  signal (SIGPIPE, SIG_IGN);
  return NULL;
}

static void
take_pipes (TlRemoteTransport *t)
{
  t->to = g_object_ref (g_subprocess_get_stdin_pipe (t->proc));
  tl_wire_widen_pipe (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (t->to)));
  tl_wire_widen_pipe (g_unix_input_stream_get_fd (
    G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (t->proc))));
  static const TlRemoteOutputCallbacks output_callbacks = {
    output_message_cb, output_receiving_cb, output_ended_cb, output_broken_cb,
  };
  t->out = tl_remote_output_new (g_subprocess_get_stdout_pipe (t->proc), t->io_cancellable,
                                 tl_remote_target_host (t->target), &output_callbacks, t);
  t->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (t->proc));
}

TlRemoteTransport *
tl_remote_transport_spawn (const TlRemoteTarget *target, GMainContext *context,
                           const TlRemoteTransportCallbacks *callbacks, gpointer data,
                           GError **error)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, ignore_sigpipe, NULL);
  g_auto (GStrv) argv = tl_remote_target_worker_argv (target, error);
  if (argv == NULL)
    return NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
    | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup_cb, NULL, NULL);
  g_autoptr (GError) local = NULL;
  GSubprocess *proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, &local);
  if (proc == NULL)
    {
      g_set_error (error, TL_REMOTE_ERROR,
                   target->destination ? TL_REMOTE_ERROR_UNREACHABLE : TL_REMOTE_ERROR_NO_WORKER,
                   _("Could not start “%s” for %s: %s"), argv[0], tl_remote_target_host (target),
                   local->message);
      return NULL;
    }
  g_autofree char *shown = g_strjoinv (" ", argv);
  g_debug ("remote: started %s", shown);
  TlRemoteTransport *t = g_new0 (TlRemoteTransport, 1);
  t->target = tl_remote_target_copy (target);
  t->context = g_main_context_ref (context);
  t->callbacks = *callbacks;
  t->data = data;
  t->proc = proc;
  t->err_tail = g_string_new (NULL);
  t->io_cancellable = g_cancellable_new ();
  t->exit_status = -1;
  take_pipes (t);
  tl_remote_output_start (t->out);
  read_next_err_line (t);
  t->pending++;
  g_subprocess_wait_async (t->proc, t->io_cancellable, exited_cb, t);
  return t;
}

/* ---- writing, and the small rest ------------------------------------------------ */

gboolean
tl_remote_transport_send (TlRemoteTransport *t, GBytes *bytes, GError **error)
{
  gsize size = 0;
  const void *data = g_bytes_get_data (bytes, &size);
  g_autoptr (GError) local = NULL;
  if (!t->broken && g_output_stream_write_all (t->to, data, size, NULL, NULL, &local))
    return TRUE;
  t->broken = TRUE;
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_LOST,
               _("The connection to %s was lost (%s). The next run connects again."),
               tl_remote_target_host (t->target), local ? local->message : _("it had ended"));
  return FALSE;
}

gboolean
tl_remote_transport_is_broken (TlRemoteTransport *t)
{
  return t->broken;
}

void
tl_remote_transport_set_broken (TlRemoteTransport *t)
{
  t->broken = TRUE;
}

const char *
tl_remote_transport_get_slurm_job (TlRemoteTransport *t)
{
  return t->slurm_job;
}

void
tl_remote_transport_set_slurm_job (TlRemoteTransport *t, const char *job)
{
  g_free (t->slurm_job);
  t->slurm_job = g_strdup (job);
}

gboolean
tl_remote_transport_is_queued (TlRemoteTransport *t)
{
  return t->queued;
}

const char *
tl_remote_transport_get_err_tail (TlRemoteTransport *t)
{
  return t->err_tail->str;
}

/* ---- ending it ------------------------------------------------------------------ */

static void
scancel_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteTransport *t = data;
  t->pending--;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
}

/* The Slurm job of this transport, if it has one, is cancelled by its id
 * (scancel beside the launcher's srun, through ssh for a host), without
 * waiting: a killed ssh leaves srun on the login node waiting in the
 * queue or holding the node, and the watchdog (tl-remote-target.c) that
 * would end it may not get the chance.  Once; closing waits for it. */
static void
cancel_slurm_job (TlRemoteTransport *t)
{
  if (t->slurm_job == NULL || t->scancel_sent)
    return;
  g_auto (GStrv) argv = tl_remote_target_scancel_argv (t->target, t->slurm_job);
  if (argv == NULL)
    return;
  t->scancel_sent = TRUE;
  g_debug ("remote: cancelling Slurm job %s on %s", t->slurm_job,
           tl_remote_target_host (t->target));
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDIN_INHERIT | G_SUBPROCESS_FLAGS_STDOUT_SILENCE
    | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup_cb, NULL, NULL);
  g_autoptr (GSubprocess) proc = g_subprocess_launcher_spawnv (launcher,
                                                              (const char *const *) argv, NULL);
  if (proc == NULL)
    return;
  /* a scancel that hangs (a lost network) is ended by ssh's own timeouts */
  t->pending++;
  g_subprocess_wait_async (proc, NULL, scancel_done_cb, t);
}

static gboolean
force_exit_cb (gpointer data)
{
  TlRemoteTransport *t = data;
  t->force_exit = NULL;
  if (!t->exited)
    g_subprocess_force_exit (t->proc);
  return G_SOURCE_REMOVE;
}

void
tl_remote_transport_kill (TlRemoteTransport *t)
{
  t->broken = TRUE;
  if (!t->exited && t->force_exit == NULL)
    {
      g_subprocess_send_signal (t->proc, SIGTERM);
      t->force_exit = g_timeout_source_new (2000);
      g_source_set_callback (t->force_exit, force_exit_cb, t, NULL);
      g_source_attach (t->force_exit, t->context);
      g_source_unref (t->force_exit);
    }
  cancel_slurm_job (t);
}

static gboolean
exit_wait_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until the transport has exited or ms have passed. */
static void
wait_for_exit (TlRemoteTransport *t, guint ms)
{
  gboolean late = FALSE;
  GSource *s = g_timeout_source_new (ms);
  g_source_set_callback (s, exit_wait_cb, &late, NULL);
  g_source_attach (s, t->context);
  while (!t->exited && !late)
    g_main_context_iteration (t->context, TRUE);
  g_source_destroy (s);
  g_source_unref (s);
}

void
tl_remote_transport_close (TlRemoteTransport *t)
{
  if (t == NULL)
    return;
  g_main_context_push_thread_default (t->context);
  /* nothing more is said: the connection has let it go */
  t->said_end = TRUE;
  if (!t->exited)
    {
      /* the end of its input tells the worker to stop and clean up */
      g_output_stream_close (t->to, NULL, NULL);
      wait_for_exit (t, 3000);
    }
  if (!t->exited)
    {
      tl_remote_transport_kill (t);
      wait_for_exit (t, 1000);
    }
  if (!t->exited)
    {
      g_subprocess_force_exit (t->proc);
      wait_for_exit (t, 1000);
    }
  g_clear_pointer (&t->force_exit, g_source_destroy);
  g_cancellable_cancel (t->io_cancellable);
  while (t->pending > 0 || tl_remote_output_is_reading (t->out))
    g_main_context_iteration (t->context, TRUE);
  /* its timers (its end, a late diagnosis) must not outlive it */
  GSource *stale;
  while ((stale = g_main_context_find_source_by_user_data (t->context, t)))
    g_source_destroy (stale);
  g_clear_object (&t->proc);
  g_clear_object (&t->to);
  g_clear_pointer (&t->out, tl_remote_output_free);
  g_clear_object (&t->err);
  g_clear_object (&t->io_cancellable);
  g_free (t->slurm_job);
  g_string_free (t->err_tail, TRUE);
  tl_remote_target_free (t->target);
  g_main_context_pop_thread_default (t->context);
  g_main_context_unref (t->context);
  g_free (t);
}
