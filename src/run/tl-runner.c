/* tl-runner.c — one worker thread, its GPUs, jobs in order. */
#include "run/tl-runner.h"

#include "core/tl-error.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

struct _TlRunnerJob
{
  gboolean quit;            /* tells the worker to stop */
  guint job_id;
  GTask *task;
  GMainContext *context;    /* where signals and the result go */
  GWeakRef runner;          /* signals are emitted only while it lives */
  TlRunnerJobFunc func;
  gpointer data;
  GDestroyNotify data_free;
  GDestroyNotify result_free;
  TlGpuSession *gpu;        /* the worker's, while the job runs */
  gulong cancel_handler;    /* logs "cancel requested" (tl_runner_log_cancel_cb) */
};

typedef struct
{
  GAsyncQueue *queue;
  TlRunnerFlags flags;
} WorkerState;

struct _TlRunner
{
  GObject parent_instance;
  GAsyncQueue *queue;
  GThread *thread;
};

G_DEFINE_FINAL_TYPE (TlRunner, tl_runner, G_TYPE_OBJECT)

enum
{
  SIGNAL_PROGRESS,
  SIGNAL_KERNEL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];
static guint next_job_id = 1;

static void
runner_job_free (TlRunnerJob *job)
{
  if (job->data_free && job->data)
    job->data_free (job->data);
  g_weak_ref_clear (&job->runner);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_free (job);
}

/* Milliseconds on the monotonic clock: the cancel log's lines share it, so
 * "cancel requested" → "worker idle" → "result delivered" is the latency
 * of a cancel (G_MESSAGES_DEBUG=Tilelab shows them). */
static double
monotonic_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* ---- messages to the submitter's context ------------------------------- */

typedef struct
{
  TlRunner *runner;
  guint job_id;
  char *kernel_id;
  char *stage;
  double fraction;
  TlKernelRun *run;
} Message;

static void
message_free (gpointer data)
{
  Message *msg = data;
  g_clear_object (&msg->runner);
  g_free (msg->kernel_id);
  g_free (msg->stage);
  g_clear_pointer (&msg->run, tl_kernel_run_free);
  g_free (msg);
}

static gboolean
emit_message_cb (gpointer data)
{
  Message *msg = data;
  if (msg->run)
    g_signal_emit (msg->runner, signals[SIGNAL_KERNEL_FINISHED], 0, msg->job_id, msg->run);
  else
    {
      TlRunProgress progress = { msg->job_id, msg->kernel_id, msg->stage, msg->fraction };
      g_signal_emit (msg->runner, signals[SIGNAL_PROGRESS], 0, &progress);
    }
  return G_SOURCE_REMOVE;
}

/* Runs func on context's thread, in the order of calls.  Always an idle
 * source, never g_main_context_invoke(): that runs func right here, on the
 * worker, whenever the worker manages to acquire the context (say, before
 * the caller's loop runs) — the wrong thread, and out of order. */
static void
queue_on_context (GMainContext *context, GSourceFunc func, gpointer data, GDestroyNotify destroy)
{
  GSource *source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  g_source_set_static_name (source, "[tilelab] runner");
  g_source_attach (source, context);
  g_source_unref (source);
}

static void
post_message (TlRunnerJob *job, Message *msg)
{
  msg->runner = g_weak_ref_get (&job->runner);
  msg->job_id = job->job_id;
  if (msg->runner == NULL)
    {
      message_free (msg);
      return;
    }
  /* Sources of equal priority are dispatched in the order they were
   * attached, so messages arrive in order and before the job's callback. */
  queue_on_context (job->context, emit_message_cb, msg, message_free);
}

TlGpuSession *
tl_runner_job_get_gpu (TlRunnerJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  return job->gpu;
}

void
tl_runner_job_progress (TlRunnerJob *job, const char *kernel_id, const char *stage,
                        double fraction)
{
  g_return_if_fail (job != NULL);
  Message *msg = g_new0 (Message, 1);
  msg->kernel_id = g_strdup (kernel_id);
  msg->stage = g_strdup (stage ? stage : "");
  msg->fraction = fraction;
  post_message (job, msg);
}

void
tl_runner_job_kernel_finished (TlRunnerJob *job, const TlKernelRun *run)
{
  g_return_if_fail (job != NULL && run != NULL);
  g_debug ("job %u: %s finished (%s) at %.3f ms (monotonic)", job->job_id, run->kernel_id,
           tl_run_status_name (run->status), monotonic_ms ());
  Message *msg = g_new0 (Message, 1);
  msg->run = tl_kernel_run_copy (run);
  post_message (job, msg);
}

/* ---- the cancel log ------------------------------------------------------ */

/* Runs in the thread that cancels (the main loop's, for Escape or Ctrl+C). */
static void
log_cancel_cb (GCancellable *cancellable, gpointer data)
{
  g_debug ("job %u: cancel requested at %.3f ms (monotonic)", GPOINTER_TO_UINT (data),
           monotonic_ms ());
}

/* ---- the worker -------------------------------------------------------- */

typedef struct
{
  GTask *task;
  guint job_id;
  gulong cancel_handler;
  gpointer result;
  GDestroyNotify result_free;
  GError *error;
} Completion;

/* Runs in the submitter's context, after every message the job posted:
 * returns the result there and drops the worker's reference there, so the
 * runner is never finalised (and joined) on its own worker thread. */
static gboolean
complete_cb (gpointer data)
{
  Completion *done = data;
  GCancellable *cancellable = g_task_get_cancellable (done->task);
  if (done->cancel_handler)
    g_cancellable_disconnect (cancellable, done->cancel_handler);
  if (g_cancellable_is_cancelled (cancellable))
    g_debug ("job %u: result delivered at %.3f ms (monotonic)", done->job_id, monotonic_ms ());
  if (done->error)
    g_task_return_error (done->task, done->error);
  else
    g_task_return_pointer (done->task, done->result, done->result_free);
  g_object_unref (done->task);
  g_free (done);
  return G_SOURCE_REMOVE;
}

/* A nice value above the main loop's: the scheduler then prefers the
 * window when the CPU kernels take every core.  An unprivileged thread may
 * raise its own nice value (not lower it); threads it starts inherit it. */
static void
lower_priority (void)
{
#ifdef __linux__
  id_t tid = (id_t) syscall (SYS_gettid);
  errno = 0;
  int nice = getpriority (PRIO_PROCESS, tid);
  if (errno == 0 && nice < 5)
    setpriority (PRIO_PROCESS, tid, 5);
#endif
}

static gpointer
worker_main (gpointer data)
{
  WorkerState *w = data;
  if (w->flags & TL_RUNNER_BACKGROUND)
    lower_priority ();
  /* Devices open lazily, here, on the first job that names each; code in
   * a job finds the session as the thread's default. */
  TlGpuSession *gpu = tl_gpu_session_new ();
  tl_gpu_session_set_thread_default (gpu);

  for (;;)
    {
      TlRunnerJob *job = g_async_queue_pop (w->queue);
      if (job->quit)
        {
          runner_job_free (job);
          break;
        }
      job->gpu = gpu;
      GCancellable *cancellable = g_task_get_cancellable (job->task);
      GError *error = NULL;
      gpointer result = NULL;
      g_debug ("job %u: started at %.3f ms (monotonic)", job->job_id, monotonic_ms ());
      if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
        result = job->func (job, job->data, cancellable, &error);
      if (result == NULL && error == NULL)
        error = g_error_new_literal (TL_ERROR, TL_ERROR_INVALID, _("The job failed"));
      if (g_cancellable_is_cancelled (cancellable))
        g_debug ("job %u: worker idle at %.3f ms (monotonic)%s", job->job_id, monotonic_ms (),
                 result ? ", partial result" : "");
      Completion *done = g_new0 (Completion, 1);
      done->job_id = job->job_id;
      done->cancel_handler = job->cancel_handler;
      done->task = g_steal_pointer (&job->task);
      done->result = result;
      done->result_free = job->result_free;
      done->error = error;
      queue_on_context (job->context, complete_cb, done, NULL);
      job->gpu = NULL;
      runner_job_free (job);
    }

  tl_gpu_session_set_thread_default (NULL);
  tl_gpu_session_free (gpu);
  g_async_queue_unref (w->queue);
  g_free (w);
  return NULL;
}

/* ---- GObject ----------------------------------------------------------- */

static void
tl_runner_dispose (GObject *object)
{
  TlRunner *self = TL_RUNNER (object);
  if (self->thread)
    {
      TlRunnerJob *quit = g_new0 (TlRunnerJob, 1);
      quit->quit = TRUE;
      g_weak_ref_init (&quit->runner, NULL);
      g_async_queue_push (self->queue, quit);
      if (g_thread_self () == self->thread)
        g_thread_unref (self->thread);
      else
        g_thread_join (self->thread);
      self->thread = NULL;
    }
  G_OBJECT_CLASS (tl_runner_parent_class)->dispose (object);
}

static void
tl_runner_finalize (GObject *object)
{
  TlRunner *self = TL_RUNNER (object);
  g_clear_pointer (&self->queue, g_async_queue_unref);
  G_OBJECT_CLASS (tl_runner_parent_class)->finalize (object);
}

static void
tl_runner_class_init (TlRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = tl_runner_dispose;
  object_class->finalize = tl_runner_finalize;

  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_KERNEL_FINISHED] =
    g_signal_new ("kernel-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_POINTER);
}

static void
tl_runner_init (TlRunner *self)
{
  self->queue = g_async_queue_new ();
}

TlRunner *
tl_runner_new_full (TlRunnerFlags flags)
{
  TlRunner *self = g_object_new (TL_TYPE_RUNNER, NULL);
  WorkerState *w = g_new0 (WorkerState, 1);
  w->queue = g_async_queue_ref (self->queue);
  w->flags = flags;
  self->thread = g_thread_new ("tl-runner", worker_main, w);
  return self;
}

TlRunner *
tl_runner_new (int device)
{
  return tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
}

/* ---- submitting -------------------------------------------------------- */

guint
tl_runner_run_func_async (TlRunner           *self,
                          TlRunnerJobFunc     func,
                          gpointer            job_data,
                          GDestroyNotify      job_data_free,
                          GDestroyNotify      result_free,
                          GCancellable       *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer            user_data)
{
  g_return_val_if_fail (TL_IS_RUNNER (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), 0);

  TlRunnerJob *job = g_new0 (TlRunnerJob, 1);
  job->job_id = g_atomic_int_add (&next_job_id, 1);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, tl_runner_run_func_async);
  /* a job stopped by its cancellable may still return what it finished
   * (a GEMM's partial record): the result stands */
  g_task_set_check_cancellable (job->task, FALSE);
  if (cancellable)
    job->cancel_handler = g_cancellable_connect (cancellable, G_CALLBACK (log_cancel_cb),
                                                 GUINT_TO_POINTER (job->job_id), NULL);
  job->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&job->runner, self);
  job->func = func;
  job->data = job_data;
  job->data_free = job_data_free;
  job->result_free = result_free;
  guint id = job->job_id;
  g_async_queue_push (self->queue, job);
  return id;
}

gpointer
tl_runner_run_func_finish (TlRunner *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (TL_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
gemm_progress_cb (const char *kernel_id, const char *stage, double fraction, gpointer user_data)
{
  tl_runner_job_progress (user_data, kernel_id, stage, fraction);
}

static void
gemm_kernel_finished_cb (const TlKernelRun *run, gpointer user_data)
{
  tl_runner_job_kernel_finished (user_data, run);
}

static gpointer
gemm_job_func (TlRunnerJob *job, gpointer job_data, GCancellable *cancellable, GError **error)
{
  TlGemmCallbacks callbacks = { gemm_progress_cb, gemm_kernel_finished_cb, job };
  return tl_gemm_run (job_data, tl_runner_job_get_gpu (job), &callbacks, cancellable, error);
}

guint
tl_runner_run_gemm_async (TlRunner           *self,
                          const TlJob        *job,
                          GCancellable       *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer            user_data)
{
  g_return_val_if_fail (TL_IS_RUNNER (self), 0);
  g_return_val_if_fail (job != NULL, 0);
  return tl_runner_run_func_async (self, gemm_job_func, tl_job_copy (job),
                                   (GDestroyNotify) tl_job_free,
                                   (GDestroyNotify) tl_run_record_unref, cancellable, callback,
                                   user_data);
}

TlRunRecord *
tl_runner_run_gemm_finish (TlRunner *self, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (self, result, error);
}

typedef struct
{
  gboolean done;
  GAsyncResult *result;
} SyncData;

static void
sync_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SyncData *data = user_data;
  data->result = g_object_ref (result);
  data->done = TRUE;
}

gpointer
tl_runner_run_func (TlRunner *self, TlRunnerJobFunc func, gpointer job_data,
                    GDestroyNotify job_data_free, GDestroyNotify result_free,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (TL_IS_RUNNER (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  g_autoptr (GMainContext) context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  SyncData data = { FALSE, NULL };
  tl_runner_run_func_async (self, func, job_data, job_data_free, result_free, cancellable,
                            sync_done_cb, &data);
  while (!data.done)
    g_main_context_iteration (context, TRUE);
  gpointer result = tl_runner_run_func_finish (self, data.result, error);
  g_object_unref (data.result);
  while (g_main_context_pending (context))
    g_main_context_iteration (context, FALSE);
  g_main_context_pop_thread_default (context);
  return result;
}

TlRunRecord *
tl_runner_run_gemm (TlRunner *self, const TlJob *job, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (TL_IS_RUNNER (self), NULL);
  g_return_val_if_fail (job != NULL, NULL);
  return tl_runner_run_func (self, gemm_job_func, tl_job_copy (job), (GDestroyNotify) tl_job_free,
                             (GDestroyNotify) tl_run_record_unref, cancellable, error);
}

/* ---- the device probe ------------------------------------------------- */

static gpointer
probe_job_func (TlRunnerJob *job, gpointer job_data, GCancellable *cancellable, GError **error)
{
  return tl_gpu_session_probe (tl_runner_job_get_gpu (job), error);
}

guint
tl_runner_probe_devices_async (TlRunner *self, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  return tl_runner_run_func_async (self, probe_job_func, NULL, NULL,
                                   (GDestroyNotify) g_array_unref, cancellable, callback,
                                   user_data);
}

GArray *
tl_runner_probe_devices_finish (TlRunner *self, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (self, result, error);
}

GArray *
tl_runner_probe_devices (TlRunner *self, GCancellable *cancellable, GError **error)
{
  return tl_runner_run_func (self, probe_job_func, NULL, NULL, (GDestroyNotify) g_array_unref,
                             cancellable, error);
}
