/* tl-user-run.h — a user kernel as one kernel of a GEMM job.
 *
 * What tl-gemm-run.c does for a user kernel's row instead of calling the
 * ladder's harness: compile the file for the job's GPU (NVRTC, once per
 * architecture, in this process), evaluate its geometry at the job's
 * size, and run that build in the worker process (tl-user-worker.h).  The result is then timed,
 * verified and recorded exactly as a rung's.  The record carries each
 * user kernel's file ($.extensions.user_kernels, docs/run-record.md), so
 * a record opened where the file is not still shows its source, and
 * tl_user_run_register_from_record makes its rows known again.
 */
#pragma once

#include "device/tl-gpu-session.h"
#include "gemm/tl-user-kernel.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

/* Runs kernel on device `ordinal` of gpu with args (their dtype and
 * sizes): FALSE with the error when it did not compile (TL_ERROR_PARSE,
 * the diagnostics at file:line:column), its geometry is bad at this size
 * (TL_ERROR_SHAPE) or its run failed (tl-user-worker.h).  geometry
 * receives the launch; out the harness's result, freed with
 * tl_user_worker_result_clear.  It runs in the worker process
 * (tl-user-worker.h); with TILELAB_USER_KERNELS=in-process in the
 * environment it runs in this process (for debuggers and
 * compute-sanitizer: a fault then ends this process's GPU). */
gboolean tl_user_run_gemm (TlUserKernel *kernel, TlGpuSession *gpu, int ordinal,
                           const TlGpuGemmArgs *args, double watchdog_s,
                           TlUserGeometry *geometry, TlGpuGemmResult *out, GError **error);

/* The same in this process, always: build (compiled for the device's
 * architecture; NULL: compiled here, once per kernel) launched through
 * the harness.  What the worker's "user-gemm" job runs with the build it
 * was sent (isolated: this process is the kernel's own, which a fault
 * ends — said so in the fault's words, TL_ERROR_DEVICE_LOST). */
gboolean tl_user_run_here (TlUserKernel *kernel, TlUserBuild *build, TlGpuSession *gpu,
                           int ordinal, const TlGpuGemmArgs *args, gboolean isolated,
                           TlUserGeometry *geometry, TlGpuGemmResult *out, GError **error);

/* Adds $.extensions.user_kernels to record: for every run of a user
 * kernel, its file (path, text), title and the build it ran (architecture,
 * NVRTC, compile time, ptxas's resources per entry, the warnings). */
void     tl_user_run_describe (TlRunRecord *record, int arch);

/* Registers the user kernels a record carries (parsing their text) and
 * returns how many; their ids are the record's when those are free. */
guint    tl_user_run_register_from_record (const TlRunRecord *record);

/* The user kernels among ids as {id: {"path", "title", "source"}} (the
 * record's form, without a build), or NULL when there are none; and
 * registering such an object's kernels (a GEMM job's on another machine). */
JsonObject *tl_user_run_kernels_json  (const char *const *ids);
guint       tl_user_run_register_json (JsonObject *kernels);

G_END_DECLS
