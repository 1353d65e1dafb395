/* tl-wire-lines.c — a line reader with a cap (see the header). */
#include "tl-wire-lines.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  gsize cap;
  GByteArray *line; /* the bytes so far, never more than cap */
  gsize length;     /* the line's, once returned */
} LineRead;

static void
line_read_free (gpointer data)
{
  LineRead *r = data;
  g_byte_array_unref (r->line);
  g_free (r);
}

static void fill_cb (GObject *source, GAsyncResult *result, gpointer data);

static void
return_line (GTask *task, LineRead *r)
{
  g_byte_array_append (r->line, (const guint8 *) "", 1); /* the NUL */
  r->length = r->line->len - 1;
  char *text = (char *) g_byte_array_steal (r->line, NULL);
  g_task_return_pointer (task, text, g_free);
}

/* Takes what the buffer holds up to a newline; then the line, the error,
 * or another fill. Consumes task. */
static void
take_buffered (GTask *task)
{
  GBufferedInputStream *in = g_task_get_source_object (task);
  LineRead *r = g_task_get_task_data (task);
  gsize count = 0;
  const char *bytes = g_buffered_input_stream_peek_buffer (in, &count);
  if (count == 0)
    {
      g_buffered_input_stream_fill_async (in, -1, g_task_get_priority (task),
                                          g_task_get_cancellable (task), fill_cb, task);
      return;
    }
  const char *newline = memchr (bytes, '\n', count);
  gsize take = newline ? (gsize) (newline - bytes) : count;
  if (take > r->cap - r->line->len)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                               _("a line longer than %zu bytes: %zu bytes arrived without a "
                                 "newline"),
                               r->cap, r->line->len + take);
      g_object_unref (task);
      return;
    }
  g_byte_array_append (r->line, (const guint8 *) bytes, (guint) take);
  g_autoptr (GError) error = NULL;
  /* within the buffer: skipping only moves its start */
  if (g_input_stream_skip (G_INPUT_STREAM (in), take + (newline ? 1 : 0), NULL, &error) < 0)
    g_task_return_error (task, g_steal_pointer (&error));
  else if (newline)
    return_line (task, r);
  else
    {
      take_buffered (task);
      return;
    }
  g_object_unref (task);
}

static void
fill_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  LineRead *r = g_task_get_task_data (task);
  GError *error = NULL;
  gssize n = g_buffered_input_stream_fill_finish (G_BUFFERED_INPUT_STREAM (source), result,
                                                  &error);
  if (n < 0)
    g_task_return_error (task, error);
  else if (n == 0 && r->line->len > 0)
    return_line (task, r); /* the last line, without a newline */
  else if (n == 0)
    g_task_return_pointer (task, NULL, NULL); /* the end */
  else
    {
      take_buffered (task);
      return;
    }
  g_object_unref (task);
}

void
tl_wire_read_line_async (GBufferedInputStream *in, gsize cap, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer data)
{
  GTask *task = g_task_new (in, cancellable, callback, data);
  g_task_set_source_tag (task, tl_wire_read_line_async);
  LineRead *r = g_new0 (LineRead, 1);
  r->cap = MIN (cap, (gsize) G_MAXUINT - 1);
  r->line = g_byte_array_new ();
  g_task_set_task_data (task, r, line_read_free);
  take_buffered (task);
}

char *
tl_wire_read_line_finish (GBufferedInputStream *in, GAsyncResult *result, gsize *length,
                          GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, in), NULL);
  GTask *task = G_TASK (result);
  char *line = g_task_propagate_pointer (task, error);
  if (length)
    *length = line ? ((LineRead *) g_task_get_task_data (task))->length : 0;
  return line;
}
