/* tl-user-worker.c — the worker process: started, spoken to, stopped. */
#include "run/tl-user-worker.h"
#include "run/tl-user-wire.h"
#include "core/tl-error.h"
#include "core/tl-json.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a new worker may take to say hello (loading nothing yet: the
 * CUDA module loads on the first request). */
#define HELLO_TIMEOUT_MS 30000
/* How often a wait looks at the cancellation. */
#define POLL_MS 100

typedef struct
{
  GPid pid;
  int to_worker, from_worker;
  TlWireReader *reader;
  guint next_id;
} Worker;

static GMutex lock;
static Worker worker; /* pid 0: none */

static char *
find_program (void)
{
  const char *forced = g_getenv ("TILELAB_CLI");
  if (forced && *forced)
    return g_strdup (forced);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *base = self ? g_path_get_basename (self) : NULL;
  if (base && strcmp (base, "tilelab-cli") == 0)
    return g_steal_pointer (&self);
  g_autofree char *dir = self ? g_path_get_dirname (self) : NULL;
  const char *candidates[] = {
    dir ? g_build_filename (dir, "tilelab-cli", NULL) : NULL,
    g_strdup (TL_CLI_BUILD_PATH),
    g_strdup (TL_CLI_INSTALL_PATH),
  };
  char *found = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      if (found == NULL && candidates[i] && g_file_test (candidates[i], G_FILE_TEST_IS_EXECUTABLE))
        found = g_strdup (candidates[i]);
      g_free ((char *) candidates[i]);
    }
  return found;
}

/* Ends the worker (killed: it may be inside a kernel that never ends). */
static void
stop_locked (void)
{
  if (worker.pid == 0)
    return;
  kill (worker.pid, SIGKILL);
  close (worker.to_worker);
  close (worker.from_worker);
  int status = 0;
  while (waitpid (worker.pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (worker.pid);
  tl_wire_reader_free (worker.reader);
  memset (&worker, 0, sizeof worker);
}

/* Why the worker ended, after its pipe closed. */
static char *
describe_exit (void)
{
  int status = 0;
  pid_t got;
  while ((got = waitpid (worker.pid, &status, 0)) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (worker.pid);
  close (worker.to_worker);
  close (worker.from_worker);
  tl_wire_reader_free (worker.reader);
  memset (&worker, 0, sizeof worker);
  if (got > 0 && WIFSIGNALED (status))
    return g_strdup_printf (_("it was killed by signal %d (%s)"), WTERMSIG (status),
                            g_strsignal (WTERMSIG (status)));
  if (got > 0 && WIFEXITED (status))
    return g_strdup_printf (_("it exited with status %d"), WEXITSTATUS (status));
  return g_strdup (_("it ended"));
}

static gboolean
start_locked (GError **error)
{
  if (worker.pid != 0)
    return TRUE;
  g_autofree char *program = find_program ();
  if (program == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("User kernels run in a process of their own, tilelab-cli kernel-worker, "
                     "and tilelab-cli was not found (beside this program, nor as %s; "
                     "TILELAB_CLI names it)"),
                   TL_CLI_INSTALL_PATH);
      return FALSE;
    }
  /* a worker that died leaves its pipe closed: writing to it must be an
   * error, not the end of this process */
  signal (SIGPIPE, SIG_IGN);
  char *argv[] = { program, (char *) "kernel-worker", NULL };
  GError *local = NULL;
  if (!g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                 &worker.pid, &worker.to_worker, &worker.from_worker, NULL, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("The worker for user kernels (%s kernel-worker) could not start: %s"), program,
                   local->message);
      g_error_free (local);
      memset (&worker, 0, sizeof worker);
      return FALSE;
    }
  worker.reader = tl_wire_reader_new (worker.from_worker);
  g_autoptr (TlWireMessage) hello = tl_wire_read (worker.reader, HELLO_TIMEOUT_MS, &local);
  const char *name = hello ? tl_json_object_get_string (hello->head, "worker", "") : "";
  gint64 protocol = hello ? json_object_get_int_member_with_default (hello->head, "protocol", 0) : 0;
  if (hello == NULL || strcmp (name, TL_USER_WIRE_HELLO) != 0 || protocol != TL_USER_WIRE_PROTOCOL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("%s kernel-worker did not answer as the worker of this Tilelab (protocol %d) "
                     "does: %s"),
                   program, TL_USER_WIRE_PROTOCOL,
                   local ? local->message : _("another version answered"));
      g_clear_error (&local);
      stop_locked ();
      return FALSE;
    }
  return TRUE;
}

static gboolean
send_request (int device, const TlGpuUserLaunch *k, const TlGpuGemmArgs *a, guint id,
              GError **error)
{
  gsize es = a->dtype == TL_GPU_FLOAT64 ? 8 : 4;
  g_autoptr (GBytes) image = g_bytes_new_static (k->image, k->image_size);
  g_autoptr (GBytes) timed = k->timed_image ? g_bytes_new_static (k->timed_image,
                                                                   k->timed_image_size)
                                            : NULL;
  g_autoptr (GBytes) pa = g_bytes_new_static (a->a, (gsize) a->m * a->k * es);
  g_autoptr (GBytes) pb = g_bytes_new_static (a->b, (gsize) a->k * a->n * es);
  const char *names[] = { "image", "a", "b", "timed_image" };
  GBytes *payloads[] = { image, pa, pb, timed };
  JsonObject *head = tl_wire_request_head (id, device, k, a);
  gboolean ok = tl_wire_write (worker.to_worker, head, names, payloads, timed ? 4 : 3, error);
  json_object_unref (head);
  return ok;
}

static void
send_cancel (guint id)
{
  JsonObject *head = json_object_new ();
  json_object_set_int_member (head, "cancel", id);
  tl_wire_write (worker.to_worker, head, NULL, NULL, 0, NULL);
  json_object_unref (head);
}

/* The error for a harness status, as tl_gpu_error_set says it, with the
 * worker's message; a lost context is the worker's, not this process's. */
static void
set_status_error (GError **error, TlGpuStatus st, const char *name, const char *text)
{
  switch (st)
    {
    case TL_GPU_CANCELLED:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return;
    case TL_GPU_DEVICE_LOST:
      {
        /* the harness's "GPU lost, restart Tilelab (WHAT)" is for a
         * context this process would keep: only WHAT is news here */
        static const char prefix[] = "GPU lost, restart Tilelab (";
        g_autofree char *what = g_strdup (text);
        if (g_str_has_prefix (what, prefix) && g_str_has_suffix (what, ")"))
          {
            what[strlen (what) - 1] = '\0';
            memmove (what, what + strlen (prefix), strlen (what + strlen (prefix)) + 1);
          }
        g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED,
                     _("%s made the GPU fault (%s). It ran in a process of its own, which "
                       "ended; the rest of Tilelab and the next run are not affected. Look for an "
                       "index outside A, B or C, or a read of memory the kernel never allocated."),
                     name, what);
        return;
      }
    case TL_GPU_NO_DEVICE:
      g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE, _("No usable CUDA GPU: %s"), text);
      return;
    case TL_GPU_OUT_OF_MEMORY:
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY, _("Out of GPU memory: %s"), text);
      return;
    case TL_GPU_BAD_SHAPE:
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("%s cannot run this job: %s"), name, text);
      return;
    default:
      g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED, _("Launch failed: %s"), text);
      return;
    }
}

/* Waits for the answer to request id, forwarding progress and cancel. */
static gboolean
await_result (guint id, const TlGpuUserLaunch *k, const TlGpuGemmArgs *args, double watchdog_s,
              TlGpuGemmResult *out, GError **error)
{
  const char *name = k->name ? k->name : "the kernel";
  gint64 quiet_since = g_get_monotonic_time ();
  gboolean cancel_sent = FALSE;
  gsize c_bytes = (gsize) args->m * args->n * (args->dtype == TL_GPU_FLOAT64 ? 8 : 4);
  for (;;)
    {
      if (!cancel_sent && args->cancelled && args->cancelled (args->user_data))
        {
          send_cancel (id);
          cancel_sent = TRUE;
        }
      g_autoptr (GError) local = NULL;
      g_autoptr (TlWireMessage) m = tl_wire_read (worker.reader, POLL_MS, &local);
      if (m == NULL && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        {
          if ((g_get_monotonic_time () - quiet_since) / 1e6 <= watchdog_s)
            continue;
          stop_locked ();
          g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED,
                       _("%s ran for more than %g s without finishing a launch: the watchdog "
                         "stopped it (its process was ended; the next run starts a new one). A "
                         "kernel that never ends often waits at a barrier that some threads "
                         "never reach, or loops on a condition that never changes. Slower "
                         "kernels can have more time: --watchdog SECONDS."),
                       name, watchdog_s);
          return FALSE;
        }
      if (m == NULL)
        {
          g_autofree char *how = describe_exit ();
          g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED,
                       _("The process running %s ended before it answered (%s); the rest of "
                         "Tilelab is not affected, and the next run starts a new one."),
                       name, how);
          return FALSE;
        }
      quiet_since = g_get_monotonic_time ();
      JsonNode *p = json_object_get_member (m->head, "progress");
      if (p && JSON_NODE_HOLDS_ARRAY (p) && json_array_get_length (json_node_get_array (p)) == 3)
        {
          JsonArray *a = json_node_get_array (p);
          if (args->progress)
            args->progress ((TlGpuStage) json_array_get_int_element (a, 0),
                            (int) json_array_get_int_element (a, 1),
                            (int) json_array_get_int_element (a, 2), args->user_data);
          continue;
        }
      if (!json_object_has_member (m->head, "result"))
        continue;
      TlGpuStatus st = TL_GPU_OK;
      g_autofree char *text = NULL;
      if (!tl_wire_result_parse (m, &st, &text, out, args->c, c_bytes, error))
        {
          stop_locked ();
          return FALSE;
        }
      if (st == TL_GPU_OK)
        return TRUE;
      if (st == TL_GPU_DEVICE_LOST)
        g_free (describe_exit ()); /* it exits after answering */
      set_status_error (error, st, name, text);
      return FALSE;
    }
}

gboolean
tl_user_worker_run (int device, const TlGpuUserLaunch *kernel, const TlGpuGemmArgs *args,
                    double watchdog_s, TlGpuGemmResult *out, GError **error)
{
  g_return_val_if_fail (kernel != NULL && args != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (watchdog_s <= 0)
    watchdog_s = TL_USER_WATCHDOG_DEFAULT_S;
  g_mutex_lock (&lock);
  gboolean ok = start_locked (error);
  guint id = ++worker.next_id;
  GError *local = NULL;
  if (ok && !send_request (device, kernel, args, id, &local))
    {
      /* it died since the last run: once more, with a fresh one */
      g_clear_error (&local);
      stop_locked ();
      ok = start_locked (error) && send_request (device, kernel, args, id = ++worker.next_id, error);
    }
  if (ok)
    ok = await_result (id, kernel, args, watchdog_s, out, error);
  g_mutex_unlock (&lock);
  return ok;
}

void
tl_user_worker_result_clear (TlGpuGemmResult *result)
{
  tl_wire_result_clear (result);
}

void
tl_user_worker_stop (void)
{
  g_mutex_lock (&lock);
  stop_locked ();
  g_mutex_unlock (&lock);
}

GPid
tl_user_worker_pid (void)
{
  g_mutex_lock (&lock);
  GPid pid = worker.pid;
  g_mutex_unlock (&lock);
  return pid;
}
