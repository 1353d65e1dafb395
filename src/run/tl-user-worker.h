/* tl-user-worker.h — where a user kernel runs: a process of its own.
 *
 * A student's kernel may write to an illegal address (which ruins the
 * CUDA context of the process it runs in for good) or never end (which a
 * process cannot stop from inside).  So it runs in a worker process: an
 * illegal address ends that process, not the window or the CLI, and the
 * next run starts a fresh one; a watchdog kills a worker that says
 * nothing (no launch finished, no progress) for longer than its time.
 *
 * The worker is the remote work's `tilelab-cli serve --stdio` on this
 * computer, spoken to through the local pipe transport: its "user-gemm"
 * job is sent the kernel's text and the build this process compiled for
 * the device (NVRTC compiles a version once: the worker loads its image
 * and runs it through the ladder's harness, docs/remote.md).  The
 * watchdog counts only the kernel's launches (the stages that launch it),
 * never the compile, the worker's start or the inputs' upload.  This area may not speak to it (the
 * remote area is above it), so the program installs the way there once
 * at start: tl_remote_user_install() (src/remote/tl-remote-user.h) in
 * tilelab-cli, the app and the tests.  Without it, a user kernel's run
 * is an error saying so.
 */
#pragma once

#include <gio/gio.h>

#include "gemm/tl-user-kernel.h"
#include "tl-gpu.h"

G_BEGIN_DECLS

#define TL_USER_WATCHDOG_DEFAULT_S 10.0

/* Runs kernel's entry for args->dtype, as compiled in build (for the
 * device's architecture: build->compiled), on GPU `device` of the worker
 * with args (its sizes, inputs, C, launches; progress and cancelled are
 * called on this thread while it waits): the harness's result (free it
 * with tl_user_worker_result_clear), or FALSE with an error that says
 * what happened to the kernel in words — its geometry or launch was
 * refused, it faulted (its process ended; this one's GPU is unaffected),
 * the watchdog stopped it, or G_IO_ERROR_CANCELLED. */
typedef gboolean (*TlUserWorkerRunFunc) (TlUserKernel *kernel, TlUserBuild *build, int device,
                                         const TlGpuGemmArgs *args, double watchdog_s,
                                         TlGpuGemmResult *out, GError **error);

/* The way to the worker (run) and the end of it (stop: the worker
 * process, if one runs, is ended; the next run starts another). */
void     tl_user_worker_install (TlUserWorkerRunFunc run, void (*stop) (void));

/* The installed run, or TL_ERROR_UNSUPPORTED when none is. */
gboolean tl_user_worker_run (TlUserKernel *kernel, TlUserBuild *build, int device,
                             const TlGpuGemmArgs *args, double watchdog_s, TlGpuGemmResult *out,
                             GError **error);
/* Frees a result of tl_user_worker_run or tl_user_run_here (times and
 * blocks are g_malloc'd). */
void     tl_user_worker_result_clear (TlGpuGemmResult *result);
void     tl_user_worker_stop (void);

G_END_DECLS
