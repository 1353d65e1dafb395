/* tl-gemm-run.h — executes one GEMM job, start to finish, on this thread.
 *
 * Creates (or takes) the inputs, computes the float64 reference once,
 * then runs every kernel of the job: warm-up, repeats, timing, an optional
 * instrumented run, verification against the reference, and fills one
 * TlKernelRun per kernel.  Normally called on TlRunner's worker thread,
 * which owns the GPU; the CLI may call it through tl_runner_run_gemm().
 *
 * Kernel lists: ids separated by commas, or "all" (every kernel that
 * supports the dtype on the backends present; without a GPU only the CPU
 * kernels, with a note in the record), "gpu", "cpu".  A kernel that came
 * in through "all", "gpu" or "cpu" and cannot take the job (a shape it
 * refuses, a rung not built in) is skipped with the reason; one named by
 * its id fails with the error.  A kernel that needs a newer GPU than the
 * one present is always skipped.
 */
#pragma once

#include <gio/gio.h>

#include "device/tl-gpu-session.h"
#include "record/tl-record.h"
#include "run/tl-gemm-kernels.h"

G_BEGIN_DECLS

/* Progress, reported on the calling thread (the runner forwards it). */
typedef struct
{
  /* stage: "creating inputs", "computing the reference", "uploading",
   * "warming up", "run 3 of 10", "instrumented run", "verifying",
   * "downloading"; kernel_id NULL for job-wide stages; fraction 0..1 of
   * the whole job */
  void (*progress) (const char *kernel_id, const char *stage, double fraction,
                    gpointer user_data);
  /* a kernel is done (ok, error or skipped); run is complete for that kernel */
  void (*kernel_finished) (const TlKernelRun *run, gpointer user_data);
  gpointer user_data;
} TlGemmCallbacks;


/* Runs the job; its GPU kernels run on device job->device of gpu (NULL:
 * the thread's default session, the runner worker's; else one opened for
 * this call), and the record's device facts are that device's.
 * Returns the record, or NULL with the error: job-wide failures (bad
 * shape, unreadable file, unknown kernel).  Kernel failures are in the
 * record, one TlKernelRun each.
 *
 * Cancellation takes effect at the next launch boundary (GPU: before
 * every warm-up, timed or instrumented launch, each waited for; CPU:
 * between tiles): no further launch, kernel or reference starts.  When at
 * least one kernel had finished, the record comes back with
 * record->cancelled set, the finished kernels complete and the others
 * TL_RUN_CANCELLED; before that, NULL with G_IO_ERROR_CANCELLED. */
TlRunRecord *tl_gemm_run (const TlJob *job, TlGpuSession *gpu,
                          const TlGemmCallbacks *callbacks,
                          GCancellable *cancellable, GError **error);

G_END_DECLS
