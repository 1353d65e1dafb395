/* tl-remote-user.c — a user kernel's run as a job of the local worker. */
#include "remote/tl-remote-user.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "remote/tl-remote-connection.h"
#include "remote/tl-user-job.h"
#include "remote/tl-wire.h"
#include "run/tl-user-worker.h"

#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>

/* How often the watch looks at the caller's cancel and the watchdog. */
#define WATCH_MS 100
/* A cancel the worker has not answered within this long (a kernel that
 * never reaches its next launch boundary) ends the worker. */
#define CANCEL_GRACE_S 2.0

/* The worker keeps what it was sent (in its temporary folder) until it
 * ends: after this many bytes of inputs, it is ended after the run and
 * the next run starts a fresh one. */
#define MAX_UPLOADED_BYTES (G_GUINT64_CONSTANT (2) << 30)

static GMutex lock;
static TlRemoteConnection *conn; /* the worker, once started */
static GHashTable *uploaded;     /* SHA-256s sent to it */
static guint64 uploaded_bytes;

static void
drop_worker_locked (void)
{
  g_clear_pointer (&conn, tl_remote_connection_free);
  g_clear_pointer (&uploaded, g_hash_table_unref);
  uploaded_bytes = 0;
}

/* ---- one job ------------------------------------------------------------------------ */

typedef struct
{
  const TlGpuGemmArgs *args;
  double watchdog_s;
  GPid pid;
  GCancellable *cancel;
  GSource *watch;      /* on the connection's context, from the first message on */
  gint64 heard;        /* monotonic µs of the last message */
  gboolean launching;  /* the worker is in a stage that launches the kernel: the
                          watchdog counts from its last message */
  gint64 cancelled_at; /* monotonic µs of the cancel sent, or 0 */
  gboolean watchdog_fired, cancel_killed;
  TlGpuGemmResult *out;
  gboolean got_result, got_c;
} Call;

static gboolean
watch_cb (gpointer data)
{
  Call *c = data;
  const TlGpuGemmArgs *a = c->args;
  gint64 now = g_get_monotonic_time ();
  if (c->cancelled_at == 0 && a->cancelled && a->cancelled (a->user_data))
    {
      c->cancelled_at = now;
      g_cancellable_cancel (c->cancel);
    }
  if (c->pid <= 0 || c->watchdog_fired || c->cancel_killed)
    return G_SOURCE_CONTINUE;
  double quiet_s = (now - c->heard) / 1e6;
  if (c->cancelled_at && (now - MAX (c->cancelled_at, c->heard)) / 1e6 > CANCEL_GRACE_S)
    {
      g_debug ("user kernels: worker %d did not stop within %.1f s of the cancel", (int) c->pid,
               CANCEL_GRACE_S);
      c->cancel_killed = TRUE;
      kill (c->pid, SIGKILL);
    }
  else if (c->launching && quiet_s > c->watchdog_s)
    {
      g_debug ("user kernels: the watchdog kills worker %d after %.2f s", (int) c->pid, quiet_s);
      c->watchdog_fired = TRUE;
      kill (c->pid, SIGKILL);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
take_c (Call *c, TlRemoteConnection *connection, GBytes *payload, GError **error)
{
  const TlGpuGemmArgs *a = c->args;
  g_autoptr (TlMatrix) m = tl_remote_connection_take_matrix (connection, payload, "C", error);
  if (m == NULL)
    return FALSE;
  if (m->dtype != (TlDtype) a->dtype || m->rows != (gsize) a->m || m->cols != (gsize) a->n
      || !tl_matrix_is_contiguous (m))
    {
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                   _("the worker's C is not %s of %d×%d"), tl_dtype_name ((TlDtype) a->dtype),
                   a->m, a->n);
      return FALSE;
    }
  if (a->c != NULL)
    memcpy (a->c, m->data, (gsize) a->m * a->n * tl_dtype_size (m->dtype));
  c->got_c = TRUE;
  return TRUE;
}

/* Whether the harness launches the kernel in stage (its upload of A and
 * B and its download of C do not: the watchdog does not count them). */
static gboolean
stage_launches (int stage)
{
  return stage == TL_GPU_STAGE_WARMUP || stage == TL_GPU_STAGE_RUN
         || stage == TL_GPU_STAGE_INSTRUMENTED || stage == TL_GPU_STAGE_COUNTERS;
}

static void
take_progress (Call *c, JsonObject *message)
{
  int gpu_stage = tl_user_job_stage_from_name (tl_json_object_get_string (message, "stage", ""));
  c->launching = stage_launches (gpu_stage);
  if (gpu_stage >= 0 && c->args->progress)
    c->args->progress ((TlGpuStage) gpu_stage, (int) tl_wire_get_count (message, "step", 0),
                       (int) tl_wire_get_count (message, "total", 0), c->args->user_data);
}

static gboolean
on_message (TlRemoteConnection *connection, const char *type, JsonObject *message,
            GBytes *payload, gpointer data, GError **error)
{
  Call *c = data;
  c->heard = g_get_monotonic_time ();
  if (c->watch == NULL)
    {
      /* the connection's context is this thread's default while it waits */
      c->watch = g_timeout_source_new (WATCH_MS);
      g_source_set_callback (c->watch, watch_cb, c, NULL);
      g_source_attach (c->watch, g_main_context_get_thread_default ());
    }
  if (strcmp (type, "progress") == 0)
    take_progress (c, message);
  else if (strcmp (type, "result") == 0)
    {
      c->launching = FALSE;
      tl_user_worker_result_clear (c->out);
      if (!tl_user_job_get_result (message, c->out, error))
        return FALSE;
      c->got_result = TRUE;
    }
  else if (strcmp (type, "matrix") == 0
           && strcmp (tl_json_object_get_string (message, "name", ""), "c") == 0)
    return take_c (c, connection, payload, error);
  return TRUE;
}

/* ---- uploads -------------------------------------------------------------------------- */

/* bytes sent to the worker (once: it keeps what it has); their SHA-256,
 * or NULL. */
static char *
upload_bytes (GBytes *bytes, const char *name, GError **error)
{
  char *sha = tl_remote_connection_upload (conn, bytes, name, NULL, error);
  if (sha != NULL && !g_hash_table_contains (uploaded, sha))
    {
      g_hash_table_add (uploaded, g_strdup (sha));
      uploaded_bytes += g_bytes_get_size (bytes);
    }
  return sha;
}

/* The bytes of a host array as an NPY upload; its SHA-256, or NULL. */
static char *
upload (const void *data, TlGpuDtype dtype, int rows, int cols, const char *name, GError **error)
{
  g_autoptr (TlMatrix) m = tl_matrix_new ((TlDtype) dtype, (gsize) rows, (gsize) cols, error);
  if (m == NULL)
    return NULL;
  memcpy (m->data, data, (gsize) rows * cols * tl_dtype_size ((TlDtype) dtype));
  g_autoptr (GBytes) npy = tl_wire_matrix_to_npy (m, error);
  return npy ? upload_bytes (npy, name, error) : NULL;
}

/* The build's images sent: the worker runs them without compiling. */
static gboolean
upload_build (TlUserKernel *kernel, TlUserBuild *build, TlDtype dtype, TlUserJobBuild *out,
              GError **error)
{
  out->arch = build->arch;
  out->entry = g_strdup (build->lowered[dtype]);
  out->sha_image = upload_bytes (build->image, tl_user_kernel_file_name (kernel), error);
  if (out->sha_image != NULL && build->timed_image && tl_user_kernel_has_marks (kernel))
    out->sha_timed = upload_bytes (build->timed_image, tl_user_kernel_file_name (kernel), error);
  return out->entry != NULL && out->sha_image != NULL
         && (out->sha_timed != NULL || !build->timed_image || !tl_user_kernel_has_marks (kernel));
}

static void
job_build_clear (TlUserJobBuild *b)
{
  g_free (b->entry);
  g_free (b->sha_image);
  g_free (b->sha_timed);
}

/* ---- the run --------------------------------------------------------------------------- */

/* The job's outcome when the worker answered done. */
static gboolean
finish_done (Call *c, JsonObject *done, const char *name, GError **error)
{
  const char *status = tl_json_object_get_string (done, "status", "error");
  if (strcmp (status, "ok") == 0)
    {
      if (c->got_result && (c->got_c || c->args->c == NULL))
        return TRUE;
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                   _("The worker ran %s but sent no result"), name);
      return FALSE;
    }
  GError *e = tl_wire_get_error (done);
  if (g_error_matches (e, TL_ERROR, TL_ERROR_DEVICE_LOST))
    {
      /* the worker's GPU is ruined, this process's is not: the next run
       * starts a new worker */
      e->code = TL_ERROR_LAUNCH_FAILED;
      drop_worker_locked ();
    }
  g_propagate_error (error, e);
  return FALSE;
}

/* The job's outcome when the worker did not answer. */
static void
say_lost (Call *c, const char *name, GError *lost, GError **error)
{
  if (g_error_matches (lost, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !c->watchdog_fired)
    {
      g_propagate_error (error, lost);
      return;
    }
  if (c->cancel_killed)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 _("Cancelled: %s did not reach the end of a launch within %g s, so its process "
                   "was ended (the next run starts a new one)"),
                 name, CANCEL_GRACE_S);
  else if (c->watchdog_fired)
    g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED,
                 _("%s ran for more than %g s without finishing a launch: the watchdog stopped it "
                   "(its process was ended; the next run starts a new one). A kernel that never "
                   "ends often waits at a barrier that some threads never reach, or loops on a "
                   "condition that never changes. Slower kernels can have more time: --watchdog "
                   "SECONDS."),
                 name, c->watchdog_s);
  else
    g_set_error (error, TL_ERROR, TL_ERROR_LAUNCH_FAILED,
                 _("The process running %s ended before it answered. %s The rest of Tilelab is "
                   "not affected."),
                 name, lost->message);
  g_error_free (lost);
}

static gboolean
run_locked (TlUserKernel *kernel, TlUserBuild *build, int device, const TlGpuGemmArgs *args,
            double watchdog_s, TlGpuGemmResult *out, GError **error)
{
  const char *name = tl_user_kernel_file_name (kernel);
  if (conn == NULL)
    {
      g_autoptr (TlRemoteTarget) here = tl_remote_target_new (NULL, NULL, NULL);
      conn = tl_remote_connection_new (here);
      uploaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    }
  if (!tl_remote_connection_open (conn, NULL, error))
    {
      g_prefix_error (error, _("The worker for %s could not start: "), name);
      drop_worker_locked ();
      return FALSE;
    }
  g_autofree char *sha_a = upload (args->a, args->dtype, args->m, args->k, "A", error);
  g_autofree char *sha_b = sha_a ? upload (args->b, args->dtype, args->k, args->n, "B", error)
                                 : NULL;
  TlUserJobBuild sent = { 0 };
  if (sha_b == NULL || !upload_build (kernel, build, (TlDtype) args->dtype, &sent, error))
    {
      job_build_clear (&sent);
      drop_worker_locked ();
      return FALSE;
    }
  JsonObject *hello = tl_remote_connection_get_hello (conn);
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  Call c = {
    .args = args, .watchdog_s = watchdog_s, .cancel = cancel, .out = out,
    .pid = hello ? (GPid) tl_wire_get_count (hello, "pid", 0) : 0,
    .heard = g_get_monotonic_time (),
  };
  GError *local = NULL;
  JsonObject *done = tl_remote_connection_run_job (conn,
                                                   tl_user_job_begin (kernel, &sent, device, args,
                                                                      sha_a, sha_b),
                                                   on_message, &c, cancel, &local);
  job_build_clear (&sent);
  if (c.watch)
    {
      g_source_destroy (c.watch);
      g_source_unref (c.watch);
    }
  gboolean ok = FALSE;
  if (done == NULL)
    {
      gboolean cancelled = g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      say_lost (&c, name, local, error);
      if (c.watchdog_fired || c.cancel_killed || !cancelled || !tl_remote_connection_is_open (conn))
        drop_worker_locked ();
    }
  else
    {
      ok = finish_done (&c, done, name, error);
      json_object_unref (done);
    }
  if (!ok)
    tl_user_worker_result_clear (out);
  if (conn != NULL && uploaded_bytes > MAX_UPLOADED_BYTES)
    drop_worker_locked ();
  return ok;
}

static gboolean
run_in_worker (TlUserKernel *kernel, TlUserBuild *build, int device, const TlGpuGemmArgs *args,
               double watchdog_s, TlGpuGemmResult *out, GError **error)
{
  memset (out, 0, sizeof *out);
  g_mutex_lock (&lock);
  gboolean ok = run_locked (kernel, build, device, args, watchdog_s, out, error);
  g_mutex_unlock (&lock);
  return ok;
}

static void
stop_worker (void)
{
  g_mutex_lock (&lock);
  drop_worker_locked ();
  g_mutex_unlock (&lock);
}

void
tl_remote_user_install (void)
{
  tl_user_worker_install (run_in_worker, stop_worker);
}

GPid
tl_remote_user_worker_pid (void)
{
  g_mutex_lock (&lock);
  JsonObject *hello = conn && tl_remote_connection_is_open (conn)
                        ? tl_remote_connection_get_hello (conn)
                        : NULL;
  GPid pid = hello ? (GPid) tl_wire_get_count (hello, "pid", 0) : 0;
  g_mutex_unlock (&lock);
  return pid;
}
