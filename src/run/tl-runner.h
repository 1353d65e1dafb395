/* tl-runner.h — the worker that runs jobs off the main thread.
 *
 * A TlRunner owns ONE worker thread, and that thread owns the GPUs: its
 * TlGpuSession opens each device lazily, on the first job that names it
 * (CUDA is initialised there, never on the main thread), and it runs jobs
 * one at a time, in the order they were submitted, so timings never
 * overlap.  Every job names its device (TlJob.device, TlLuOptions's
 * gpu_ordinal); that device runs it and the record names it.  GEMM,
 * Gauss (LU, solve, GF(p): run/tl-gauss-run.h) and the device probe are
 * jobs; anything else can be a TlRunnerJobFunc.
 *
 * Submitting snapshots the job (tl_job_copy: strings copied, matrices
 * ref'd), so the caller may change or free its job right away.
 *
 * Progress and results arrive as signals, emitted in the thread-default
 * main context that was current when the job was submitted (as with
 * GTask), in the order they happened, and always before the job's
 * GAsyncReadyCallback:
 *
 *   "progress"        (TlRunner *, const TlRunProgress *progress)
 *   "kernel-finished" (TlRunner *, guint job_id, const TlKernelRun *run)
 *        a kernel of the job is done; run is complete for that kernel
 *        (times, verification, % of reference where the reference ran
 *        first — the runner runs references and cpu-naive before the
 *        others); copy it to keep it.  A second one for the same kernel
 *        of the job replaces the first: a remote host says a result as
 *        soon as it arrives and again once its C has (remote/tl-remote-host.h).
 *
 * Every signal carries the job id that tl_runner_run_gemm_async()
 * returned, so a view can ignore news from a job it has replaced.
 *
 * Cancelling the GCancellable stops the job at its next launch boundary
 * (run/tl-gemm-run.h; LU between block steps).  A GEMM job that finished
 * a kernel first returns a record with `cancelled` set; otherwise a
 * cancelled job finishes with G_IO_ERROR_CANCELLED.  A job still queued
 * when cancelled never starts.  With G_MESSAGES_DEBUG=Tilelab the runner
 * logs, on the monotonic clock in ms, "cancel requested", "worker idle"
 * (the worker has stopped) and "result delivered" (the caller's context
 * has the outcome), so the latency of a cancel can be measured.
 */
#pragma once

#include <gio/gio.h>

#include "device/tl-gpu-session.h"
#include "run/tl-gemm-run.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

#define TL_TYPE_RUNNER (tl_runner_get_type ())
G_DECLARE_FINAL_TYPE (TlRunner, tl_runner, TL, RUNNER, GObject)

typedef struct
{
  guint job_id;
  const char *kernel_id; /* NULL for job-wide stages */
  const char *stage;     /* "computing the reference", "run 3 of 10", … */
  double fraction;       /* 0..1 of the whole job */
} TlRunProgress;

/* A job function runs on the worker thread; it may use the worker's GPU
 * session (also the thread's default session while it runs) and report
 * progress. */
typedef struct _TlRunnerJob TlRunnerJob;
typedef gpointer (*TlRunnerJobFunc) (TlRunnerJob *job, gpointer job_data,
                                     GCancellable *cancellable, GError **error);

TlGpuSession *tl_runner_job_get_gpu (TlRunnerJob *job);
void          tl_runner_job_progress (TlRunnerJob *job, const char *kernel_id,
                                      const char *stage, double fraction);
/* emits "kernel-finished" with a copy of run */
void          tl_runner_job_kernel_finished (TlRunnerJob *job, const TlKernelRun *run);

typedef enum
{
  TL_RUNNER_FLAGS_NONE = 0,
  /* The worker (and the CPU kernels' threads it starts, which inherit it)
   * runs at a lower scheduling priority (nice +5), so a CPU run on every
   * core still leaves the main loop answering.  For the desktop app. */
  TL_RUNNER_BACKGROUND = 1 << 0,
} TlRunnerFlags;

TlRunner    *tl_runner_new_full (TlRunnerFlags flags);
/* tl_runner_new_full (TL_RUNNER_FLAGS_NONE).  `device` is not used: jobs
 * name their device.  It stays for callers written when the runner had one
 * device (ui/tl-window.c); new code calls tl_runner_new_full(). */
TlRunner    *tl_runner_new (int device);

/* Runs a GEMM job on the worker.  Returns the job id used in signals. */
guint        tl_runner_run_gemm_async  (TlRunner           *self,
                                        const TlJob        *job,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
/* The record (release with tl_run_record_unref), or NULL with the error. */
TlRunRecord *tl_runner_run_gemm_finish (TlRunner     *self,
                                        GAsyncResult *result,
                                        GError      **error);

/* Synchronous: submits to the worker and waits, emitting the signals on
 * the calling thread meanwhile.  For the CLI. */
TlRunRecord *tl_runner_run_gemm (TlRunner     *self,
                                 const TlJob  *job,
                                 GCancellable *cancellable,
                                 GError      **error);

/* The facts of every GPU, read on the worker (where CUDA may be
 * initialised): a GArray of TlGpuFacts (free with g_array_unref), or NULL
 * with TL_ERROR_NO_DEVICE saying why there is none (built without CUDA, no
 * driver, no device) or TL_ERROR_DEVICE_LOST. */
guint        tl_runner_probe_devices_async  (TlRunner           *self,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
GArray      *tl_runner_probe_devices_finish (TlRunner     *self,
                                             GAsyncResult *result,
                                             GError      **error);
GArray      *tl_runner_probe_devices        (TlRunner     *self,
                                             GCancellable *cancellable,
                                             GError      **error);

/* Any job: func(job, job_data, …) runs on the worker; its result (freed
 * with result_free if nobody takes it) comes back through _finish. */
guint        tl_runner_run_func_async  (TlRunner           *self,
                                        TlRunnerJobFunc     func,
                                        gpointer            job_data,
                                        GDestroyNotify      job_data_free,
                                        GDestroyNotify      result_free,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
gpointer     tl_runner_run_func_finish (TlRunner     *self,
                                        GAsyncResult *result,
                                        GError      **error);
/* Synchronous: submits func and waits, emitting the job's signals on the
 * calling thread meanwhile (the CLI).  Takes job_data. */
gpointer     tl_runner_run_func        (TlRunner       *self,
                                        TlRunnerJobFunc func,
                                        gpointer        job_data,
                                        GDestroyNotify  job_data_free,
                                        GDestroyNotify  result_free,
                                        GCancellable   *cancellable,
                                        GError        **error);

G_END_DECLS
