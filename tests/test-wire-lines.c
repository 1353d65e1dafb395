/* test-wire-lines.c — the wire's line reader with a cap: the lines
 * GDataInputStream gave (split across reads, CRLF, empty, the last one
 * without a newline), the bytes after a line left for a payload, and a
 * line past the cap refused before more than the cap of it is held. */
#include <gio/gunixinputstream.h>
#include <string.h>
#include <unistd.h>

#include "remote/tl-wire-lines.h"

typedef struct
{
  GMainLoop *loop;
  GAsyncResult *result;
} Wait;

static void
done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

/* One line of in read through the main loop, as the wire reads it. */
static char *
read_line (GBufferedInputStream *in, gsize cap, GCancellable *cancellable, gsize *length,
           GError **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), NULL };
  tl_wire_read_line_async (in, cap, cancellable, done_cb, &w);
  g_main_loop_run (w.loop);
  char *line = tl_wire_read_line_finish (in, w.result, length, error);
  g_object_unref (w.result);
  g_main_loop_unref (w.loop);
  return line;
}

/* text as a stream read through a buffer of buffer_size bytes, in pieces
 * of at most piece bytes (so lines arrive split across reads). */
static GBufferedInputStream *
stream_of (const char *text, gsize size, gsize piece, gsize buffer_size)
{
  GInputStream *memory = g_memory_input_stream_new ();
  for (gsize at = 0; at < size; at += piece)
    g_memory_input_stream_add_data (G_MEMORY_INPUT_STREAM (memory),
                                    g_memdup2 (text + at, MIN (piece, size - at)),
                                    (gssize) MIN (piece, size - at), g_free);
  GInputStream *in = g_buffered_input_stream_new_sized (memory, buffer_size);
  g_object_unref (memory);
  return G_BUFFERED_INPUT_STREAM (in);
}

/* Every line of a stream, as the capped reader and GDataInputStream read
 * it: the same lines, the same lengths, the same end. */
static void
test_same_lines (void)
{
  static const char text[] = "{\"type\":\"hello\"}\n"
                             "crlf line\r\n"
                             "\n"
                             "a\0b with a NUL\n"
                             "a line longer than the smallest buffer by far, to span reads\n"
                             "\n\n"
                             "the last line, without a newline";
  const gsize size = sizeof text - 1;
  const gsize buffers[] = { 1, 3, 7, 4096 };
  for (gsize b = 0; b < G_N_ELEMENTS (buffers); b++)
    {
      g_autoptr (GBufferedInputStream) capped = stream_of (text, size, 5, buffers[b]);
      g_autoptr (GBufferedInputStream) plain = stream_of (text, size, 5, 4096);
      g_autoptr (GDataInputStream) data = g_data_input_stream_new (G_INPUT_STREAM (plain));
      guint n = 0;
      for (;;)
        {
          gsize length = 1, want_length = 2;
          g_autoptr (GError) error = NULL;
          g_autofree char *line = read_line (capped, 100, NULL, &length, &error);
          g_autofree char *want = g_data_input_stream_read_line (data, &want_length, NULL, NULL);
          g_assert_no_error (error);
          if (want == NULL)
            {
              g_assert_null (line);
              g_assert_cmpuint (length, ==, 0);
              break;
            }
          g_assert_nonnull (line);
          g_assert_cmpuint (length, ==, want_length);
          g_assert_cmpmem (line, length, want, want_length);
          g_assert_cmpint (line[length], ==, '\0');
          n++;
        }
      g_assert_cmpuint (n, ==, 8);
      /* the end stays the end */
      g_autoptr (GError) error = NULL;
      g_assert_null (read_line (capped, 100, NULL, NULL, &error));
      g_assert_no_error (error);
    }
}

/* The bytes after a line are the next reader's: a payload is read whole. */
static void
test_payload_follows (void)
{
  static const char text[] = "{\"type\":\"result\",\"bytes\":6}\n\x01\n\0\xff\n\x02{\"type\":\"end\"}\n";
  const gsize size = sizeof text - 1;
  g_autoptr (GBufferedInputStream) in = stream_of (text, size, 4, 16);
  g_autoptr (GError) error = NULL;
  gsize length = 0;
  g_autofree char *first = read_line (in, 64, NULL, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first, ==, "{\"type\":\"result\",\"bytes\":6}");
  guchar payload[6];
  gsize got = 0;
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), payload, sizeof payload, &got,
                                          NULL, &error));
  g_assert_cmpmem (payload, got, "\x01\n\0\xff\n\x02", 6);
  g_autofree char *next = read_line (in, 64, NULL, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (next, ==, "{\"type\":\"end\"}");
}

/* A line past the cap: refused with the cap and the count named, and no
 * more than the cap taken from the stream (held); at the cap exactly, read. */
static void
test_over_cap (void)
{
  enum { CAP = 64, SENT = 100000 };
  g_autofree char *text = g_malloc (SENT + 1);
  memset (text, 'x', SENT);
  text[CAP] = '\n'; /* a line of exactly CAP bytes first */
  g_autoptr (GBufferedInputStream) in = stream_of (text, SENT, 1000, 10);
  g_autoptr (GError) error = NULL;
  gsize length = 0;
  g_autofree char *at_cap = read_line (in, CAP, NULL, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, CAP);

  g_autofree char *line = read_line (in, CAP, NULL, &length, &error);
  g_assert_null (line);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "longer than 64 bytes"));
  g_assert_nonnull (strstr (error->message, "without a newline"));
  /* taken from the stream: the first line and its newline, then at most CAP */
  g_autoptr (GError) rest_error = NULL;
  g_autofree char *rest = g_malloc (SENT);
  gsize rest_size = 0;
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), rest, SENT, &rest_size, NULL,
                                          &rest_error));
  g_assert_cmpuint (rest_size, >=, SENT - (CAP + 1) - CAP);
  g_assert_cmpuint (rest_size, <, SENT - (CAP + 1));
}

/* A read cancelled before it starts, and one cancelled while waiting on a
 * pipe that sends nothing. */
static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (void)
{
  int fds[2];
  g_assert_no_errno (pipe (fds));
  GInputStream *pipe_in = g_unix_input_stream_new (fds[0], TRUE);
  g_autoptr (GBufferedInputStream) in = G_BUFFERED_INPUT_STREAM (
    g_buffered_input_stream_new (pipe_in));
  g_object_unref (pipe_in);
  g_assert_cmpint (write (fds[1], "half a li", 9), ==, 9);

  g_autoptr (GCancellable) before = g_cancellable_new ();
  g_cancellable_cancel (before);
  g_autoptr (GError) error = NULL;
  g_assert_null (read_line (in, 64, before, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  g_autoptr (GCancellable) waiting = g_cancellable_new ();
  g_timeout_add (20, cancel_cb, waiting);
  g_assert_null (read_line (in, 64, waiting, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* a cancelled read drops what it took of its line: the pipe reads on
   * from there, then ends */
  g_assert_cmpint (write (fds[1], "ne\n", 3), ==, 3);
  close (fds[1]);
  gsize length = 0;
  g_autofree char *line = read_line (in, 64, NULL, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "ne");
  g_assert_null (read_line (in, 64, NULL, &length, &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wire-lines/same-as-data-stream", test_same_lines);
  g_test_add_func ("/wire-lines/payload-follows", test_payload_follows);
  g_test_add_func ("/wire-lines/over-cap", test_over_cap);
  g_test_add_func ("/wire-lines/cancel", test_cancel);
  return g_test_run ();
}
