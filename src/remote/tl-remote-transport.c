/* tl-remote-transport.c — the pipe to one worker: spawning it, the
 * worker's messages on its output, ssh's and Slurm's words on its
 * standard error, its end, and ending it. */
#include "remote/tl-remote-transport.h"

#include "core/tl-json.h"
#include "core/tl-matrix.h"
#include "remote/tl-remote-diagnose.h"
#include "remote/tl-wire.h"
#include "remote/tl-wire-lines.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <inttypes.h>
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

static void read_next_line (TlRemoteTransport *t);
static void read_payload (TlRemoteTransport *t, const char *type, JsonObject *msg,
                          TlJsonPackStore *arrays, gint64 size);



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

/* A line of the worker's output, or NULL at its end (then taken). */
static char *
finish_output_line (TlRemoteTransport *t, GObject *source, GAsyncResult *result, gsize *length)
{
  gboolean ended = FALSE;
  g_autoptr (GError) too_long = NULL;
  char *line = finish_line (t, source, result, length, &ended, &too_long);
  if (too_long)
    {
      /* no message can follow in step: the transport is of no more use */
      say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL, _("%s sent %s"),
                                  tl_remote_target_host (t->target), too_long->message));
      tl_remote_transport_kill (t);
    }
  else if (ended)
    on_eof (t);
  return line;
}

typedef struct
{
  TlRemoteTransport *t;
  JsonObject *msg;
  TlJsonPackStore *arrays; /* msg's long arrays of numbers (tl_wire_parse_packed) */
  char *type;
  guchar *buffer;
  gsize size;
  TlMatrix *matrix;       /* a matrix's data goes here after the buffer (its NPY header) */
  /* in chunk frames (TL_WIRE_CHUNK): all of it, how much came, how much
   * of the current chunk is still to come */
  guint64 total, offset, chunk_left;
  gsize span;             /* the read in flight */
} Payload;

static void
payload_free (Payload *p)
{
  g_free (p->buffer);
  g_free (p->type);
  g_clear_pointer (&p->matrix, tl_matrix_unref);
  json_object_unref (p->msg);
  g_clear_pointer (&p->arrays, tl_json_pack_store_unref);
  g_free (p);
}

/* Reads n bytes of the worker's output into dest, then calls back with p. */
static void
read_into (Payload *p, void *dest, gsize n, GAsyncReadyCallback callback)
{
  TlRemoteTransport *t = p->t;
  t->pending++;
  g_input_stream_read_all_async (G_INPUT_STREAM (t->from), dest, n, G_PRIORITY_DEFAULT,
                                 t->io_cancellable, callback, p);
}

/* The read of p's span finished: TRUE when all of it came; else the
 * stream ended inside it (nothing of p is handed on, p is freed). */
static gboolean
payload_read (Payload *p, GObject *source, GAsyncResult *result)
{
  TlRemoteTransport *t = p->t;
  t->pending--;
  gsize got = 0;
  if (g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &got, NULL)
      && got == p->span)
    return TRUE;
  if (!g_cancellable_is_cancelled (t->io_cancellable))
    on_eof (t);
  payload_free (p);
  return FALSE;
}

/* All of p's bytes came into its buffer: handed on; the next line is read. */
static void
deliver_bytes (Payload *p)
{
  TlRemoteTransport *t = p->t;
  GBytes *bytes = g_bytes_new_take (g_steal_pointer (&p->buffer), p->size);
  t->callbacks.message (p->type, p->msg, bytes, NULL, t->data);
  /* back as the spare (a copy, should the callee have kept the bytes) */
  gsize size = 0;
  guchar *back = g_bytes_unref_to_data (bytes, &size);
  if (size >= t->spare_size)
    {
      g_free (t->spare);
      t->spare = back;
      t->spare_size = size;
    }
  else
    g_free (back);
  read_next_line (t);
  payload_free (p);
}

static void
deliver_matrix (Payload *p)
{
  TlRemoteTransport *t = p->t;
  t->callbacks.message (p->type, p->msg, NULL, g_steal_pointer (&p->matrix), t->data);
  read_next_line (t);
  payload_free (p);
}

/* Whether the matrix header in p->buffer is the one its message says;
 * if not, the transport is of no more use (and p is freed). */
static gboolean
check_matrix_header (Payload *p)
{
  TlRemoteTransport *t = p->t;
  if (tl_wire_check_npy_header (p->matrix, p->buffer, p->size))
    return TRUE;
  say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                              _("%s sent a matrix whose NPY header does not match its message"),
                              tl_remote_target_host (t->target)));
  tl_remote_transport_kill (t);
  payload_free (p);
  return FALSE;
}

/* ---- a payload: whole, or in chunk frames ----------------------------------------- */

static void read_frame_line (Payload *p);

static void read_span (Payload *p);

static void
span_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  TlRemoteTransport *t = p->t;
  if (!payload_read (p, source, result))
    return;
  p->offset += p->span;
  p->chunk_left -= p->span;
  if (p->chunk_left > 0)
    {
      read_span (p);
      return;
    }
  if (t->callbacks.receiving && p->total > TL_WIRE_CHUNK)
    t->callbacks.receiving (p->type, p->msg, p->offset, p->total, t->data);
  if (p->offset < p->total)
    read_frame_line (p);
  else if (p->matrix == NULL)
    deliver_bytes (p);
  else if (check_matrix_header (p))
    deliver_matrix (p);
}

/* The rest of the current chunk (all of a payload not in frames), or its
 * part in one of p's two places:
 * the buffer (a matrix's header, or all of another payload), then the
 * matrix's data. */
static void
read_span (Payload *p)
{
  guchar *dest;
  gsize n;
  if (p->offset < p->size)
    {
      dest = p->buffer + p->offset;
      n = MIN (p->chunk_left, p->size - p->offset);
    }
  else
    {
      dest = (guchar *) p->matrix->data + (p->offset - p->size);
      n = p->chunk_left;
    }
  p->span = n;
  read_into (p, dest, n, span_cb);
}

static void
frame_line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  TlRemoteTransport *t = p->t;
  gsize length = 0;
  g_autofree char *line = finish_output_line (t, source, result, &length);
  if (line == NULL)
    {
      payload_free (p);
      return;
    }
  const char *type = NULL;
  g_autoptr (JsonObject) frame = length <= 256 ? tl_wire_parse (line, length, &type, NULL) : NULL;
  if (frame && strcmp (type, "cut") == 0)
    {
      /* the worker stopped sending it (a cancel): said, with nothing of it */
      g_debug ("remote: %s from %s cut after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes",
               p->type, tl_remote_target_host (t->target), p->offset, p->total);
      json_object_set_boolean_member (p->msg, "cut", TRUE);
      t->callbacks.message (p->type, p->msg, NULL, NULL, t->data);
      read_next_line (t);
      payload_free (p);
      return;
    }
  gint64 n = frame && strcmp (type, "chunk") == 0 ? tl_wire_get_count (frame, "bytes", 0) : 0;
  if (n <= 0 || (guint64) n > p->total - p->offset)
    {
      /* the frames are out of step: the transport is of no more use */
      say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                  _("%s broke off a payload: a chunk frame was expected"),
                                  tl_remote_target_host (t->target)));
      tl_remote_transport_kill (t);
      payload_free (p);
      return;
    }
  p->chunk_left = (guint64) n;
  read_span (p);
}

static void
read_frame_line (Payload *p)
{
  TlRemoteTransport *t = p->t;
  t->pending++;
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (t->from), TL_WIRE_MAX_LINE,
                           t->io_cancellable, frame_line_cb, p);
}

/* Reads the size bytes that follow msg, then hands both on: a matrix's
 * straight into a new matrix, any other's into a buffer. */
static void
read_payload (TlRemoteTransport *t, const char *type, JsonObject *msg, TlJsonPackStore *arrays,
              gint64 size)
{
  g_autoptr (GError) error = NULL;
  gsize header = 0;
  TlMatrix *matrix = tl_wire_matrix_for_message (msg, &header, &error);
  /* at most what a matrix may take here (and its NPY header), or the
   * allocation's failure says it does not fit */
  guint64 cap = tl_matrix_byte_cap ();
  gsize first = matrix ? header : (gsize) size;
  guchar *buffer = NULL;
  if (error == NULL && (guint64) size <= MAX (cap, cap + (1u << 20)))
    {
      /* the spare when it is large enough and not much larger */
      if (matrix == NULL && t->spare && first <= t->spare_size
          && t->spare_size / 4 <= MAX (first, 1u << 20))
        {
          buffer = g_steal_pointer (&t->spare);
          t->spare_size = 0;
        }
      else
        buffer = g_try_malloc (first);
    }
  if (buffer == NULL)
    {
      g_clear_pointer (&matrix, tl_matrix_unref);
      say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                  _("%s sent %" PRId64 " bytes, more than this computer can hold%s%s"),
                                  tl_remote_target_host (t->target), size,
                                  error ? ": " : "", error ? error->message : ""));
      tl_remote_transport_kill (t);
      return;
    }
  Payload *p = g_new0 (Payload, 1);
  p->t = t;
  p->msg = json_object_ref (msg);
  p->arrays = arrays ? tl_json_pack_store_ref (arrays) : NULL;
  p->type = g_strdup (type);
  p->buffer = buffer;
  p->size = first;
  p->matrix = matrix;
  p->total = (guint64) size;
  JsonNode *chunks = json_object_get_member (msg, "chunks");
  if (chunks && tl_json_node_is_bool (chunks) && json_node_get_boolean (chunks))
    read_frame_line (p);
  else
    {
      p->chunk_left = p->total; /* one chunk without a frame */
      read_span (p);
    }
}

static void
line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlRemoteTransport *t = data;
  gsize length = 0;
  g_autofree char *line = finish_output_line (t, source, result, &length);
  if (line == NULL)
    return;
  g_autoptr (GError) error = NULL;
  const char *type = NULL;
  /* a record's block columns stay typed arrays, and the line goes before
   * they are read: a message of 100 MB is never held three times over */
  g_autoptr (TlJsonPackStore) arrays = NULL;
  g_autoptr (JsonObject) msg = tl_wire_parse_packed (line, length, &type, &arrays, &error);
  if (msg == NULL)
    {
      /* not the protocol: a login banner or a shell's words on stdout */
      g_debug ("remote %s (not a message): %.200s", tl_remote_target_host (t->target), line);
      read_next_line (t);
      return;
    }
  g_clear_pointer (&line, g_free);
  gint64 size = tl_wire_get_count (msg, "bytes", 0);
  if (size > 0)
    {
      read_payload (t, type, msg, arrays, size);
      return;
    }
  t->callbacks.message (type, msg, NULL, NULL, t->data);
  read_next_line (t);
}

static void
read_next_line (TlRemoteTransport *t)
{
  if (t->eof)
    return;
  t->pending++;
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (t->from), TL_WIRE_MAX_LINE,
                           t->io_cancellable, line_cb, t);
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
  t->from = g_data_input_stream_new (g_subprocess_get_stdout_pipe (t->proc));
  g_buffered_input_stream_set_buffer_size (G_BUFFERED_INPUT_STREAM (t->from), 1 << 16);
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
  read_next_line (t);
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
  while (t->pending > 0)
    g_main_context_iteration (t->context, TRUE);
  /* its timers (its end, a late diagnosis) must not outlive it */
  GSource *stale;
  while ((stale = g_main_context_find_source_by_user_data (t->context, t)))
    g_source_destroy (stale);
  g_clear_object (&t->proc);
  g_clear_object (&t->to);
  g_clear_object (&t->from);
  g_clear_object (&t->err);
  g_clear_object (&t->io_cancellable);
  g_free (t->slurm_job);
  g_free (t->spare);
  g_string_free (t->err_tail, TRUE);
  tl_remote_target_free (t->target);
  g_main_context_pop_thread_default (t->context);
  g_main_context_unref (t->context);
  g_free (t);
}
