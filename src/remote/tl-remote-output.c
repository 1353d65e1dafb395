/* tl-remote-output.c — a worker's output, read on the transport's
 * context: its messages (a JSON line, with its long arrays of numbers
 * packed: tl_wire_parse_packed) and the bytes a message announces, whole
 * or in chunk frames, a matrix's straight into the matrix. */
#include "remote/tl-remote-output.h"

#include "core/tl-json.h"
#include "remote/tl-wire.h"
#include "remote/tl-wire-lines.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

struct _TlRemoteOutput
{
  GDataInputStream *from;
  GCancellable *cancellable;
  char *host;
  TlRemoteOutputCallbacks callbacks;
  gpointer data;
  guint pending;          /* reads not yet called back */
  gboolean ended;         /* ended or broken was called */
  /* the last payload's buffer, for the next: messages come one after
   * another (a Gauss recording's thousand parts), and fresh memory for
   * each would be faulted in page by page */
  guchar *spare;
  gsize spare_size;
};

static void read_next_line (TlRemoteOutput *o);

static void
say_ended (TlRemoteOutput *o)
{
  o->ended = TRUE;
  o->callbacks.ended (o->data);
}

/* The output broke the protocol: nothing more is read from it. */
static void
say_broken (TlRemoteOutput *o, GError *error)
{
  o->ended = TRUE;
  o->callbacks.broken (error, o->data);
}

/* A line of the worker's output, or NULL at its end (then said) or when
 * the read was cancelled. */
static char *
finish_output_line (TlRemoteOutput *o, GObject *source, GAsyncResult *result, gsize *length)
{
  o->pending--;
  g_autoptr (GError) error = NULL;
  char *line = tl_wire_read_line_finish (G_BUFFERED_INPUT_STREAM (source), result, length,
                                         &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    say_broken (o, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL, _("%s sent %s"),
                                o->host, error->message));
  else if (line == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    say_ended (o);
  return line;
}

typedef struct
{
  TlRemoteOutput *o;
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
  TlRemoteOutput *o = p->o;
  o->pending++;
  g_input_stream_read_all_async (G_INPUT_STREAM (o->from), dest, n, G_PRIORITY_DEFAULT,
                                 o->cancellable, callback, p);
}

/* The read of p's span finished: TRUE when all of it came; else the
 * stream ended inside it (nothing of p is handed on, p is freed). */
static gboolean
payload_read (Payload *p, GObject *source, GAsyncResult *result)
{
  TlRemoteOutput *o = p->o;
  o->pending--;
  gsize got = 0;
  if (g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &got, NULL)
      && got == p->span)
    return TRUE;
  if (!g_cancellable_is_cancelled (o->cancellable))
    say_ended (o);
  payload_free (p);
  return FALSE;
}

/* All of p's bytes came into its buffer: handed on; the next line is read. */
static void
deliver_bytes (Payload *p)
{
  TlRemoteOutput *o = p->o;
  GBytes *bytes = g_bytes_new_take (g_steal_pointer (&p->buffer), p->size);
  o->callbacks.message (p->type, p->msg, bytes, NULL, o->data);
  /* back as the spare (a copy, should the callee have kept the bytes) */
  gsize size = 0;
  guchar *back = g_bytes_unref_to_data (bytes, &size);
  if (size >= o->spare_size)
    {
      g_free (o->spare);
      o->spare = back;
      o->spare_size = size;
    }
  else
    g_free (back);
  read_next_line (o);
  payload_free (p);
}

static void
deliver_matrix (Payload *p)
{
  TlRemoteOutput *o = p->o;
  o->callbacks.message (p->type, p->msg, NULL, g_steal_pointer (&p->matrix), o->data);
  read_next_line (o);
  payload_free (p);
}

/* Whether the matrix header in p->buffer is the one its message says;
 * if not, the transport is of no more use (and p is freed). */
static gboolean
check_matrix_header (Payload *p)
{
  TlRemoteOutput *o = p->o;
  if (tl_wire_check_npy_header (p->matrix, p->buffer, p->size))
    return TRUE;
  say_broken (o, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                              _("%s sent a matrix whose NPY header does not match its message"),
                              o->host));
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
  TlRemoteOutput *o = p->o;
  if (!payload_read (p, source, result))
    return;
  p->offset += p->span;
  p->chunk_left -= p->span;
  if (p->chunk_left > 0)
    {
      read_span (p);
      return;
    }
  if (o->callbacks.receiving && p->total > TL_WIRE_CHUNK)
    o->callbacks.receiving (p->type, p->msg, p->offset, p->total, o->data);
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
  TlRemoteOutput *o = p->o;
  gsize length = 0;
  g_autofree char *line = finish_output_line (o, source, result, &length);
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
               p->type, o->host, p->offset, p->total);
      json_object_set_boolean_member (p->msg, "cut", TRUE);
      o->callbacks.message (p->type, p->msg, NULL, NULL, o->data);
      read_next_line (o);
      payload_free (p);
      return;
    }
  gint64 n = frame && strcmp (type, "chunk") == 0 ? tl_wire_get_count (frame, "bytes", 0) : 0;
  if (n <= 0 || (guint64) n > p->total - p->offset)
    {
      /* the frames are out of step */
      say_broken (o, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                  _("%s broke off a payload: a chunk frame was expected"),
                                  o->host));
      payload_free (p);
      return;
    }
  p->chunk_left = (guint64) n;
  read_span (p);
}

static void
read_frame_line (Payload *p)
{
  TlRemoteOutput *o = p->o;
  o->pending++;
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (o->from), TL_WIRE_MAX_LINE,
                           o->cancellable, frame_line_cb, p);
}

/* Reads the size bytes that follow msg, then hands both on: a matrix's
 * straight into a new matrix, any other's into a buffer. */
static void
read_payload (TlRemoteOutput *o, const char *type, JsonObject *msg, TlJsonPackStore *arrays,
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
      if (matrix == NULL && o->spare && first <= o->spare_size
          && o->spare_size / 4 <= MAX (first, 1u << 20))
        {
          buffer = g_steal_pointer (&o->spare);
          o->spare_size = 0;
        }
      else
        buffer = g_try_malloc (first);
    }
  if (buffer == NULL)
    {
      g_clear_pointer (&matrix, tl_matrix_unref);
      say_broken (o, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                  _("%s sent %" PRId64 " bytes, more than this computer can hold%s%s"),
                                  o->host, size,
                                  error ? ": " : "", error ? error->message : ""));
      return;
    }
  Payload *p = g_new0 (Payload, 1);
  p->o = o;
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
  TlRemoteOutput *o = data;
  gsize length = 0;
  g_autofree char *line = finish_output_line (o, source, result, &length);
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
      g_debug ("remote %s (not a message): %.200s", o->host, line);
      read_next_line (o);
      return;
    }
  g_clear_pointer (&line, g_free);
  gint64 size = tl_wire_get_count (msg, "bytes", 0);
  if (size > 0)
    {
      read_payload (o, type, msg, arrays, size);
      return;
    }
  o->callbacks.message (type, msg, NULL, NULL, o->data);
  read_next_line (o);
}

static void
read_next_line (TlRemoteOutput *o)
{
  if (o->ended)
    return;
  o->pending++;
  tl_wire_read_line_async (G_BUFFERED_INPUT_STREAM (o->from), TL_WIRE_MAX_LINE,
                           o->cancellable, line_cb, o);
}

/* ---- its life ------------------------------------------------------------------- */

TlRemoteOutput *
tl_remote_output_new (GInputStream *stream, GCancellable *cancellable, const char *host,
                      const TlRemoteOutputCallbacks *callbacks, gpointer data)
{
  TlRemoteOutput *o = g_new0 (TlRemoteOutput, 1);
  o->from = g_data_input_stream_new (stream);
  g_buffered_input_stream_set_buffer_size (G_BUFFERED_INPUT_STREAM (o->from), 1 << 16);
  o->cancellable = g_object_ref (cancellable);
  o->host = g_strdup (host);
  o->callbacks = *callbacks;
  o->data = data;
  return o;
}

void
tl_remote_output_start (TlRemoteOutput *o)
{
  read_next_line (o);
}

gboolean
tl_remote_output_is_reading (TlRemoteOutput *o)
{
  return o->pending > 0;
}

void
tl_remote_output_free (TlRemoteOutput *o)
{
  if (o == NULL)
    return;
  g_clear_object (&o->from);
  g_clear_object (&o->cancellable);
  g_free (o->host);
  g_free (o->spare);
  g_free (o);
}
