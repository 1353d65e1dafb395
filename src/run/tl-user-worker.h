/* tl-user-worker.h — user kernels run in a process of their own.
 *
 * A student's kernel may write to an illegal address (which ruins the
 * CUDA context of the process it runs in for good) or never end (which a
 * process cannot stop from inside).  So it runs in a worker process,
 * `tilelab-cli kernel-worker`, spoken to over pipes (tl-user-wire.h):
 * a fault ends the worker, not the window or the CLI, and the next run
 * starts a fresh one.  A watchdog stops a kernel that never ends: when
 * the worker says nothing (no launch finished, no progress) for longer
 * than the watchdog's time, its process is killed.
 *
 * One worker serves the process, started on the first user kernel and
 * kept for the next (a CUDA context costs a second to create); calls are
 * serialised.  Where the worker program is: $TILELAB_CLI, this program
 * when it is tilelab-cli, tilelab-cli beside this program, the build
 * tree's, the installed one (the last two set by src/meson.build).
 *
 * This is the local transport of the remote worker (issue 24) in its
 * smallest form: the same request, the same answer.
 */
#pragma once

#include <gio/gio.h>

#include "tl-gpu.h"

G_BEGIN_DECLS

#define TL_USER_WATCHDOG_DEFAULT_S 10.0

/* tl_gpu_user_gemm_run in the worker process, on GPU device: the same
 * result (free it with tl_user_worker_result_clear), or FALSE with an
 * error that says what happened to the kernel in words: the harness's
 * statuses as tl_gpu_error_set makes them, a fault that ended the worker
 * (TL_ERROR_LAUNCH_FAILED: this process's GPU is unaffected), the
 * watchdog (TL_ERROR_LAUNCH_FAILED), G_IO_ERROR_CANCELLED.  args->progress
 * and args->cancelled are called on this thread while it waits. */
gboolean tl_user_worker_run (int device, const TlGpuUserLaunch *kernel, const TlGpuGemmArgs *args,
                             double watchdog_s, TlGpuGemmResult *out, GError **error);
void     tl_user_worker_result_clear (TlGpuGemmResult *result);
/* Ends the worker process, if one runs (the next run starts another). */
void     tl_user_worker_stop (void);
/* The worker's process id, or 0 (tests). */
GPid     tl_user_worker_pid (void);

G_END_DECLS
