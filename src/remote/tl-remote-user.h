/* tl-remote-user.h — user kernels in a local worker: `tilelab-cli serve --stdio`.
 *
 * The isolation of a student's kernel (run/tl-user-worker.h) is the
 * remote work's worker on this computer, through the local pipe
 * transport: a kernel is a "user-gemm" job (tl-user-job.h) whose inputs
 * are uploaded as NPY and whose build, compiled here once per version,
 * goes as its cubins (the worker never compiles).  One worker
 * serves the process, started on the first user kernel and kept for the
 * next (a CUDA context costs a second to create); calls are serialised.
 * It keeps the inputs it was sent until it ends, so one that was sent
 * more than 2 GiB is ended after its run and the next run starts afresh.
 *
 * While a job runs, a watch on the connection's own main context polls
 * the caller's cancel (sent as "cancel": the harness stops at its next
 * launch) and is the watchdog: a worker that, in a stage that launches
 * the kernel, says nothing for longer than the watchdog's time is killed
 * (SIGKILL: it may be in a kernel that never ends), and so is one that
 * has not stopped within 2 s
 * of a cancel, or whose GPU faulted.  Either way
 * the error says so in words and the next run starts a new worker.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the local worker as tl-user-worker.h's way to run user kernels
 * (tilelab-cli, the app and the tests call it once at start). */
void tl_remote_user_install (void);

/* The worker's process id, or 0 when none runs (tests). */
GPid tl_remote_user_worker_pid (void);

G_END_DECLS
