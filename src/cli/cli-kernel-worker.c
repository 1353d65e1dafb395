/* tilelab-cli kernel-worker — runs user kernels for another Tilelab process.
 *
 * Not for people: the window and `tilelab-cli gemm` start it (src/run/
 * tl-user-worker.h) and speak run/tl-user-wire.h on its standard input
 * and output.  It runs one compiled user kernel per request through the
 * GPU door's harness (tl_gpu_user_gemm_run) and answers with the numbers,
 * C and the block records.  A student's kernel can ruin a CUDA context
 * (an illegal address) or never end; here that ends this process only.
 * After a fault that ruined the context it answers, then exits.
 *
 * A thread reads standard input, so that a cancel reaches the harness
 * between two launches while a request runs.  It exits when the input
 * closes (the parent is gone).
 */
#include "tl-cli.h"
#include "device/tl-gpu-session.h"
#include "run/tl-user-wire.h"
#include "tl-config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  GAsyncQueue *requests;  /* TlWireMessage*; a message with no head ends the loop */
  gint cancel_id;         /* atomic: the request to cancel, or -1 */
  gint running_id;        /* the request running now */
  GMutex out_lock;        /* one message at a time on stdout */
} Worker;

static gpointer
read_input (gpointer data)
{
  Worker *w = data;
  g_autoptr (GError) error = NULL;
  TlWireReader *reader = tl_wire_reader_new (STDIN_FILENO);
  TlWireMessage *m;
  while ((m = tl_wire_read (reader, -1, &error)) != NULL)
    {
      if (json_object_has_member (m->head, "cancel"))
        {
          g_atomic_int_set (&w->cancel_id, (gint) json_object_get_int_member (m->head, "cancel"));
          tl_wire_message_free (m);
        }
      else
        g_async_queue_push (w->requests, m);
    }
  tl_wire_reader_free (reader);
  g_async_queue_push (w->requests, g_new0 (TlWireMessage, 1)); /* the end */
  return NULL;
}

static void
send_message (Worker *w, JsonObject *head, const char *const *names, GBytes *const *payloads,
              guint n)
{
  g_mutex_lock (&w->out_lock);
  g_autoptr (GError) error = NULL;
  if (!tl_wire_write (STDOUT_FILENO, head, names, payloads, n, &error))
    _exit (0); /* the parent is gone */
  g_mutex_unlock (&w->out_lock);
  json_object_unref (head);
}

static void
progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  JsonObject *head = json_object_new ();
  JsonArray *p = json_array_new ();
  json_array_add_int_element (p, stage);
  json_array_add_int_element (p, step);
  json_array_add_int_element (p, total);
  json_object_set_array_member (head, "progress", p);
  send_message (user_data, head, NULL, NULL, 0);
}

static int
cancelled_cb (void *user_data)
{
  Worker *w = user_data;
  return g_atomic_int_get (&w->cancel_id) == w->running_id;
}

/* One request: run it, answer it. */
static void
serve (Worker *w, TlGpuSession *session, const TlWireMessage *m)
{
  guint64 id = 0;
  int device_ordinal = 0;
  TlGpuUserLaunch kernel;
  TlGpuGemmArgs args;
  g_autoptr (GError) error = NULL;
  if (!tl_wire_request_parse (m, &id, &device_ordinal, &kernel, &args, &error))
    {
      send_message (w, tl_wire_result_head (id, TL_GPU_BAD_SHAPE, error->message, NULL), NULL,
                    NULL, 0);
      return;
    }
  w->running_id = (gint) id;
  TlGpuDevice *device = tl_gpu_session_get_device (session, device_ordinal, &error);
  if (device == NULL)
    {
      send_message (w, tl_wire_result_head (id, TL_GPU_NO_DEVICE, error->message, NULL), NULL,
                    NULL, 0);
      return;
    }
  gsize c_bytes = (gsize) args.m * args.n * (args.dtype == TL_GPU_FLOAT64 ? 8 : 4);
  g_autofree void *c = args.c != NULL ? g_malloc (MAX (c_bytes, 1)) : NULL;
  args.c = c;
  args.progress = progress_cb;
  args.cancelled = cancelled_cb;
  args.user_data = w;
  TlGpuGemmResult result;
  TlGpuStatus st = tl_gpu_user_gemm_run (device, &kernel, &args, &result);
  const char *text = st == TL_GPU_OK ? "" : tl_gpu_last_message ();
  GBytes *payloads[2] = { NULL, NULL };
  const char *names[2] = { "c", "blocks" };
  guint n = 0;
  if (st == TL_GPU_OK)
    {
      payloads[n++] = g_bytes_new_static (c ? c : "", c ? c_bytes : 0);
      payloads[n++] = g_bytes_new_static (result.blocks ? (const void *) result.blocks : "",
                                          result.n_blocks * sizeof (TlGpuBlockRecord));
    }
  send_message (w, tl_wire_result_head (id, st, text, &result), names, payloads, n);
  for (guint i = 0; i < n; i++)
    g_bytes_unref (payloads[i]);
  tl_gpu_gemm_result_clear (&result);
  /* the context is ruined: a fresh process serves the next request */
  if (tl_gpu_is_lost ())
    _exit (3);
}

int
tl_cli_kernel_worker (int argc, char **argv)
{
  if (argc != 1 || isatty (STDIN_FILENO))
    {
      g_printerr (_("tilelab-cli kernel-worker is started by Tilelab itself to run your kernels "
                    "in a process of their own; run them with tilelab-cli gemm --kernel "
                    "FILE.cu\n"));
      return TL_CLI_USAGE;
    }
  Worker w = { .requests = g_async_queue_new (), .cancel_id = -1, .running_id = -2 };
  g_mutex_init (&w.out_lock);
  JsonObject *hello = json_object_new ();
  json_object_set_string_member (hello, "worker", TL_USER_WIRE_HELLO);
  json_object_set_int_member (hello, "protocol", TL_USER_WIRE_PROTOCOL);
  json_object_set_string_member (hello, "version", TL_VERSION);
  send_message (&w, hello, NULL, NULL, 0);

  GThread *reader = g_thread_new ("wire-reader", read_input, &w);
  g_autoptr (TlGpuSession) session = tl_gpu_session_new ();
  for (;;)
    {
      TlWireMessage *m = g_async_queue_pop (w.requests);
      gboolean end = m->head == NULL;
      if (!end)
        serve (&w, session, m);
      tl_wire_message_free (m);
      if (end)
        break;
    }
  g_thread_join (reader);
  g_async_queue_unref (w.requests);
  g_mutex_clear (&w.out_lock);
  return TL_CLI_OK;
}
