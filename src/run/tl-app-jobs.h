/* tl-app-jobs.h — the desktop app's small jobs on the runner's worker.
 *
 * Besides GEMM runs the app asks the worker for two things: a recorded LU
 * factorisation (the Gauss player's input) and the list of GPUs.  Both run
 * on the worker thread, the one thread that may touch the GPU, so CUDA is
 * never initialised on the main loop or on a pool thread.
 */
#pragma once

#include "lu/tl-lu-recorder.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

/* Factors a (not modified) with the LU rung kernel_id and block size,
 * recording every step.  Finishes with the TlLuRecorder. */
void          tl_app_jobs_record_lu_async  (TlRunner           *runner,
                                            const char         *kernel_id,
                                            TlMatrix           *a,
                                            gsize               block_size,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
TlLuRecorder *tl_app_jobs_record_lu_finish (TlRunner     *runner,
                                            GAsyncResult *result,
                                            GError      **error);

/* The facts of every CUDA device (a GArray of TlGpuFacts, empty without a
 * device or without CUDA in the build): the runner's probe, run on its
 * worker.  Fails only when cancelled. */
void          tl_app_jobs_probe_devices_async  (TlRunner           *runner,
                                                GCancellable       *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer            user_data);
GArray       *tl_app_jobs_probe_devices_finish (TlRunner     *runner,
                                                GAsyncResult *result,
                                                GError      **error);
/* Whether this build has CUDA at all (answers without touching a device). */
gboolean      tl_app_jobs_built_with_cuda (void);

G_END_DECLS
