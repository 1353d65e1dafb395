/* tl-serve-writer.c — the worker's output: messages written on a thread of their own. */
#include "remote/tl-serve-writer.h"

#include "remote/tl-wire.h"

#include <inttypes.h>
#include <stdio.h>

typedef enum
{
  ITEM_MESSAGE,
  ITEM_END,
} ItemKind;

/* A message and its payload: up to two spans of memory (a matrix's NPY
 * header and its rows), or size bytes of a stream. */
typedef struct
{
  ItemKind kind;
  GBytes *line;
  GBytes *bytes;          /* the payload, or a matrix's header */
  TlMatrix *matrix;       /* its rows follow the header */
  GInputStream *stream;
  guint64 size;           /* the payload's length, all of it */
  GCancellable *cut;
} Item;

struct _TlServeWriter
{
  GOutputStream *out;
  GThread *thread;
  GAsyncQueue *queue;
  GMainContext *context;  /* where on_broken runs */
  GSourceFunc on_broken;
  gpointer data;
  gint broken;            /* atomic */
  GMutex lock;
  GCond ended_cond;
  gboolean ended;
  guchar *buffer;         /* a stream's chunk */
};

static void
item_free (Item *item)
{
  g_clear_pointer (&item->line, g_bytes_unref);
  g_clear_pointer (&item->bytes, g_bytes_unref);
  g_clear_pointer (&item->matrix, tl_matrix_unref);
  if (item->stream)
    {
      g_input_stream_close (item->stream, NULL, NULL);
      g_object_unref (item->stream);
    }
  g_clear_object (&item->cut);
  g_free (item);
}

/* ---- on the writer's thread ------------------------------------------------------ */

static gboolean
write_data (TlServeWriter *w, const void *data, gsize size)
{
  if (g_atomic_int_get (&w->broken))
    return FALSE;
  g_autoptr (GError) error = NULL;
  if (size == 0 || g_output_stream_write_all (w->out, data, size, NULL, NULL, &error))
    return TRUE;
  g_debug ("serve: the client is gone (%s)", error->message);
  g_atomic_int_set (&w->broken, TRUE);
  GSource *idle = g_idle_source_new ();
  g_source_set_callback (idle, w->on_broken, w->data, NULL);
  g_source_attach (idle, w->context);
  g_source_unref (idle);
  return FALSE;
}

static gboolean
write_line (TlServeWriter *w, const char *format, guint64 n)
{
  char line[64];
  int length = g_snprintf (line, sizeof line, format, n);
  return write_data (w, line, (gsize) length);
}

/* The payload's memory spans: [0] the bytes or header, [1] the rows. */
static guint
item_spans (const Item *item, const guchar *data[2], gsize size[2])
{
  guint n = 0;
  if (item->bytes)
    {
      data[n] = g_bytes_get_data (item->bytes, &size[n]);
      n++;
    }
  if (item->matrix)
    {
      data[n] = item->matrix->data;
      size[n] = tl_matrix_n_bytes (item->matrix);
      n++;
    }
  return n;
}

/* Reads n bytes of the stream into the buffer; FALSE when they did not
 * come (a file cut short, a read error). */
static gboolean
read_stream (TlServeWriter *w, Item *item, gsize n)
{
  gsize got = 0;
  g_autoptr (GError) error = NULL;
  if (g_input_stream_read_all (item->stream, w->buffer, n, &got, NULL, &error) && got == n)
    return TRUE;
  g_debug ("serve: a file to send ended early (%s)", error ? error->message : "short");
  return FALSE;
}

/* The payload in chunk frames, each behind a "chunk" line; a "cut" line
 * when the item's cut was cancelled or its stream failed. */
static void
write_chunked (TlServeWriter *w, Item *item)
{
  const guchar *data[2] = { NULL, NULL };
  gsize size[2] = { 0, 0 };
  guint spans = item->stream ? 1 : item_spans (item, data, size);
  if (item->stream)
    size[0] = item->size;
  for (guint s = 0; s < spans; s++)
    for (gsize off = 0; off < size[s];)
      {
        gsize n = MIN (TL_WIRE_CHUNK, size[s] - off);
        if (g_cancellable_is_cancelled (item->cut) || (item->stream && !read_stream (w, item, n)))
          {
            write_line (w, "{\"type\":\"cut\",\"at\":%" PRIu64 "}\n", off);
            return;
          }
        const guchar *span = item->stream ? w->buffer : data[s] + off;
        if (!write_line (w, "{\"type\":\"chunk\",\"bytes\":%" PRIu64 "}\n", n)
            || !write_data (w, span, n))
          return;
        off += n;
      }
}

static void
write_item (TlServeWriter *w, Item *item)
{
  if (tl_serve_writer_chunks (item->size))
    {
      if (write_data (w, g_bytes_get_data (item->line, NULL), g_bytes_get_size (item->line)))
        write_chunked (w, item);
      return;
    }
  /* a small payload: read first (a stream that fails sends nothing), then whole */
  if (item->stream && item->size > 0 && !read_stream (w, item, item->size))
    return;
  if (!write_data (w, g_bytes_get_data (item->line, NULL), g_bytes_get_size (item->line)))
    return;
  if (item->stream)
    {
      write_data (w, w->buffer, item->size);
      return;
    }
  const guchar *data[2];
  gsize size[2];
  guint spans = item_spans (item, data, size);
  for (guint s = 0; s < spans && write_data (w, data[s], size[s]); s++)
    ;
}

static gpointer
writer_thread (gpointer data)
{
  TlServeWriter *w = data;
  for (;;)
    {
      Item *item = g_async_queue_pop (w->queue);
      gboolean end = item->kind == ITEM_END;
      if (!end)
        write_item (w, item);
      item_free (item);
      if (end)
        break;
    }
  g_mutex_lock (&w->lock);
  w->ended = TRUE;
  g_cond_signal (&w->ended_cond);
  g_mutex_unlock (&w->lock);
  return NULL;
}

/* ---- on the worker's main loop ------------------------------------------------------ */

TlServeWriter *
tl_serve_writer_new (GOutputStream *out, GSourceFunc on_broken, gpointer data)
{
  TlServeWriter *w = g_new0 (TlServeWriter, 1);
  w->out = g_object_ref (out);
  w->queue = g_async_queue_new ();
  w->context = g_main_context_ref_thread_default ();
  w->on_broken = on_broken;
  w->data = data;
  w->buffer = g_malloc (TL_WIRE_CHUNK);
  g_mutex_init (&w->lock);
  g_cond_init (&w->ended_cond);
  w->thread = g_thread_new ("serve-writer", writer_thread, w);
  return w;
}

gboolean
tl_serve_writer_chunks (guint64 size)
{
  return size > TL_WIRE_CHUNK;
}

static void
push (TlServeWriter *w, GBytes *line, GBytes *bytes, TlMatrix *matrix, GInputStream *stream,
      guint64 size, GCancellable *cut)
{
  Item *item = g_new0 (Item, 1);
  item->kind = ITEM_MESSAGE;
  item->line = g_bytes_ref (line);
  item->bytes = bytes ? g_bytes_ref (bytes) : NULL;
  item->matrix = matrix ? tl_matrix_ref (matrix) : NULL;
  item->stream = stream ? g_object_ref (stream) : NULL;
  item->size = size;
  item->cut = cut ? g_object_ref (cut) : g_cancellable_new ();
  g_async_queue_push (w->queue, item);
}

void
tl_serve_writer_send (TlServeWriter *w, GBytes *line, GBytes *payload, GCancellable *cut)
{
  push (w, line, payload, NULL, NULL, payload ? g_bytes_get_size (payload) : 0, cut);
}

void
tl_serve_writer_send_matrix (TlServeWriter *w, GBytes *line, GBytes *header, TlMatrix *matrix,
                             GCancellable *cut)
{
  /* the rows are written as one span */
  g_return_if_fail (tl_matrix_is_contiguous (matrix));
  push (w, line, header, matrix, NULL, g_bytes_get_size (header) + tl_matrix_n_bytes (matrix),
        cut);
}

void
tl_serve_writer_send_stream (TlServeWriter *w, GBytes *line, GInputStream *stream, guint64 size,
                             GCancellable *cut)
{
  push (w, line, NULL, NULL, stream, size, cut);
}

gboolean
tl_serve_writer_finish (TlServeWriter *w, guint timeout_ms)
{
  Item *end = g_new0 (Item, 1);
  end->kind = ITEM_END;
  g_async_queue_push (w->queue, end);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  g_mutex_lock (&w->lock);
  while (!w->ended)
    if (!g_cond_wait_until (&w->ended_cond, &w->lock, deadline))
      break;
  gboolean ended = w->ended;
  g_mutex_unlock (&w->lock);
  if (!ended)
    return FALSE;
  g_thread_join (w->thread);
  g_async_queue_unref (w->queue);
  g_main_context_unref (w->context);
  g_object_unref (w->out);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->ended_cond);
  g_free (w->buffer);
  g_free (w);
  return TRUE;
}
