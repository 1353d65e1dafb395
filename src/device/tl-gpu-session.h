/* tl-gpu-session.h — the GPUs as the worker thread sees them.
 *
 * A session belongs to one thread, the runner's worker, which is the only
 * thread that touches the GPU (tl-gpu.h).  It opens devices by ordinal on
 * first use — CUDA is initialised there, never on the main thread — keeps
 * each open until the session is freed, and remembers each device's facts
 * (read once, when it opened).  A worker may hold several devices: every
 * job names the one it runs on.
 *
 * Every TlGpuStatus becomes a GError in one place, tl_gpu_error_set().
 * The "GPU lost" latch is the door's (tl_gpu_is_lost in tl-gpu.h): a
 * sticky fault ruins the CUDA context of the whole process, so the latch
 * is process-wide and set where the fault is seen; src/ only reads it.
 *
 * While a runner's worker runs, its session is the thread-default one
 * (tl_gpu_session_get_thread_default), so code that runs inside a job and
 * was not handed a session — an LU job written as a plain function, a GPU
 * solve after a GPU factorisation — uses the worker's devices.
 */
#pragma once

#include <gio/gio.h>

#include "tl-gpu.h"

G_BEGIN_DECLS

typedef struct _TlGpuSession TlGpuSession;

TlGpuSession *tl_gpu_session_new  (void);
void          tl_gpu_session_free (TlGpuSession *session);

/* Opens device `ordinal` on first call.  NULL with TL_ERROR_NO_DEVICE (no
 * such device, no driver, built without CUDA) or TL_ERROR_DEVICE_LOST. */
TlGpuDevice  *tl_gpu_session_get_device (TlGpuSession *session, int ordinal, GError **error);
/* The facts of an opened device; FALSE when it is not open. */
gboolean      tl_gpu_session_get_facts  (TlGpuSession *session, int ordinal, TlGpuFacts *out);
/* The facts of every device (no device is opened): a GArray of TlGpuFacts,
 * or NULL with TL_ERROR_NO_DEVICE saying why there is none, or
 * TL_ERROR_DEVICE_LOST. */
GArray       *tl_gpu_session_probe (TlGpuSession *session, GError **error);

/* The calling thread's session (set by the runner's worker), or NULL. */
TlGpuSession *tl_gpu_session_get_thread_default (void);
void          tl_gpu_session_set_thread_default (TlGpuSession *session);

/* TlGpuStatus → GError (never TL_GPU_OK), with the door's message of the
 * last failure; `what` names the kernel or step that failed (may be NULL).
 * Always returns FALSE, so callers can `return tl_gpu_error_set (…)`. */
gboolean      tl_gpu_error_set (GError **error, TlGpuStatus status, const char *what);
/* TRUE once any GPU in this process had a sticky fault (the door's latch). */
gboolean      tl_gpu_lost (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGpuSession, tl_gpu_session_free)

G_END_DECLS
