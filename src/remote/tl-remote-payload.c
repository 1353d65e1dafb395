/* tl-remote-payload.c — the bytes after the worker's messages: into a
 * buffer, a matrix's straight into the matrix, and large ones in chunk
 * frames that a cancel may cut (tl-wire.h). */
#include "remote/tl-remote-transport-private.h"

#include "core/tl-json.h"
#include "remote/tl-wire.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

typedef struct
{
  TlRemoteTransport *t;
  JsonObject *msg;
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
  g_free (p);
}

static void read_matrix_data (Payload *p);

/* Reads n bytes of the worker's output into dest, then calls back with p. */
static void
read_into (Payload *p, void *dest, gsize n, GAsyncReadyCallback callback)
{
  TlRemoteTransport *t = p->t;
  t->pending++;
  g_input_stream_read_all_async (G_INPUT_STREAM (t->from), dest, n, G_PRIORITY_DEFAULT,
                                 t->io_cancellable, callback, p);
}

/* The read of bytes for p finished: TRUE when all expected came; else
 * the stream ended inside them (nothing of them is handed on, p is freed). */
static gboolean
payload_read (Payload *p, GObject *source, GAsyncResult *result, gsize expected)
{
  TlRemoteTransport *t = p->t;
  t->pending--;
  gsize got = 0;
  if (g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &got, NULL)
      && got == expected)
    return TRUE;
  if (!g_cancellable_is_cancelled (t->io_cancellable))
    tl_remote_transport_on_eof (t);
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
  tl_remote_transport_read_next_line (t);
  payload_free (p);
}

static void
payload_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  if (!payload_read (p, source, result, p->size))
    return;
  if (p->matrix)
    read_matrix_data (p);
  else
    deliver_bytes (p);
}

static void
deliver_matrix (Payload *p)
{
  TlRemoteTransport *t = p->t;
  t->callbacks.message (p->type, p->msg, NULL, g_steal_pointer (&p->matrix), t->data);
  tl_remote_transport_read_next_line (t);
  payload_free (p);
}

static void
matrix_data_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  if (payload_read (p, source, result, tl_matrix_n_bytes (p->matrix)))
    deliver_matrix (p);
}

/* Whether the matrix header in p->buffer is the one its message says;
 * if not, the transport is of no more use (and p is freed). */
static gboolean
check_matrix_header (Payload *p)
{
  TlRemoteTransport *t = p->t;
  if (tl_wire_check_npy_header (p->matrix, p->buffer, p->size))
    return TRUE;
  tl_remote_transport_say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                              _("%s sent a matrix whose NPY header does not match its message"),
                              tl_remote_target_host (t->target)));
  tl_remote_transport_kill (t);
  payload_free (p);
  return FALSE;
}

/* The header came (in p->buffer): the data goes straight into the matrix. */
static void
read_matrix_data (Payload *p)
{
  if (!check_matrix_header (p))
    return;
  read_into (p, p->matrix->data, tl_matrix_n_bytes (p->matrix), matrix_data_cb);
}

/* ---- a payload in chunk frames --------------------------------------------------- */

static void read_frame_line (Payload *p);

/* A protocol error inside p's frames: the transport is of no more use. */
static void
frames_broken (Payload *p, const char *what)
{
  TlRemoteTransport *t = p->t;
  tl_remote_transport_say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                              _("%s broke off a payload: %s"), tl_remote_target_host (t->target),
                              what));
  tl_remote_transport_kill (t);
  payload_free (p);
}

static void read_span (Payload *p);

static void
span_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Payload *p = data;
  TlRemoteTransport *t = p->t;
  gsize span = p->span;
  if (!payload_read (p, source, result, span))
    return;
  p->offset += span;
  p->chunk_left -= span;
  if (p->chunk_left > 0)
    {
      read_span (p);
      return;
    }
  if (t->callbacks.receiving)
    t->callbacks.receiving (p->type, p->msg, p->offset, p->total, t->data);
  if (p->offset < p->total)
    read_frame_line (p);
  else if (p->matrix == NULL)
    deliver_bytes (p);
  else if (check_matrix_header (p))
    deliver_matrix (p);
}

/* The rest of the current chunk, or its part in one of p's two places:
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
  g_autofree char *line = tl_remote_transport_finish_output_line (t, source, result, &length);
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
      tl_remote_transport_read_next_line (t);
      payload_free (p);
      return;
    }
  gint64 n = frame && strcmp (type, "chunk") == 0 ? tl_wire_get_count (frame, "bytes", 0) : 0;
  if (n <= 0 || (guint64) n > p->total - p->offset)
    {
      frames_broken (p, _("a chunk frame was expected"));
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
  g_data_input_stream_read_line_async (t->from, G_PRIORITY_DEFAULT, t->io_cancellable,
                                       frame_line_cb, p);
}

/* Reads the size bytes that follow msg, then hands both on: a matrix's
 * straight into a new matrix, any other's into a buffer. */
void
tl_remote_transport_read_payload (TlRemoteTransport *t, const char *type, JsonObject *msg, gint64 size)
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
      tl_remote_transport_say_failed (t, g_error_new (TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                                  _("%s sent %" PRId64 " bytes, more than this computer can hold%s%s"),
                                  tl_remote_target_host (t->target), size,
                                  error ? ": " : "", error ? error->message : ""));
      tl_remote_transport_kill (t);
      return;
    }
  Payload *p = g_new0 (Payload, 1);
  p->t = t;
  p->msg = json_object_ref (msg);
  p->type = g_strdup (type);
  p->buffer = buffer;
  p->size = first;
  p->matrix = matrix;
  p->total = (guint64) size;
  JsonNode *chunks = json_object_get_member (msg, "chunks");
  if (chunks && tl_json_node_is_bool (chunks) && json_node_get_boolean (chunks))
    {
      read_frame_line (p);
      return;
    }
  read_into (p, buffer, first, payload_cb);
}

