/* tl-remote-host.h — a worker elsewhere, seen as a TlRunner.
 *
 * A host owns a TlRunner of its own and a connection (tl-remote-connection.h)
 * that only that runner's worker thread touches.  Its jobs are runner
 * jobs: the GEMM job sends the TlJob to the worker and, while it runs
 * there, reports the worker's progress and each kernel's result through
 * the runner's "progress" and "kernel-finished" signals, as a local run
 * does (a kernel whose C travels is said as soon as its result arrives,
 * and again with its C); it finishes with tl_runner_run_gemm_finish() on the
 * host's runner.  Likewise Gauss (tl_runner_run_gauss_finish) and the
 * device probe.  So the app runs here or there through the same calls,
 * and a view cannot tell the difference, except that records name where
 * they ran ($.extensions.remote, the worker machine's facts).
 *
 * Inputs travel as little as they can: a generated input whose matrix is
 * what its recipe makes travels as the recipe; any other (a file, an
 * edited matrix) is uploaded as NPY, once per connection.  Results come
 * back with their matrices: C after each kernel, the reference after the
 * record, each pooled (means) to at most TL_REMOTE_MAX_SIDE per axis so
 * that a heatmap gets what it can show; the record's note says when.
 *
 * A connection lost during a GEMM job ends it with what finished: the
 * record holds the kernels that came back, is marked cancelled, and its
 * note (tl_remote_record_lost_connection()) says what happened.  The next
 * job connects again.
 */
#pragma once

#include "record/tl-machine.h"
#include "record/tl-record.h"
#include "remote/tl-remote-target.h"
#include "run/tl-gauss-run.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

/* Matrices larger than this along an axis come back pooled. */
#define TL_REMOTE_MAX_SIDE 2048

typedef struct _TlRemoteHost TlRemoteHost;

/* What a host has: its GPUs (TlGpuFacts, maybe none), why none, its machine. */
typedef struct
{
  GArray *gpus;
  char *no_device;
  TlMachineFacts machine;
} TlRemoteDevices;

void tl_remote_devices_free (TlRemoteDevices *devices);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRemoteDevices, tl_remote_devices_free)

TlRemoteHost       *tl_remote_host_new  (const TlRemoteTarget *target);
/* Cancels nothing: cancel the jobs first.  Closes the connection on the
 * runner's thread and waits for it. */
void                tl_remote_host_free (TlRemoteHost *host);

/* Ends the connection after the jobs queued (a launcher's: its Slurm job
 * then ends and frees the GPU); the next job connects again. */
void                tl_remote_host_release (TlRemoteHost *host);

const TlRemoteTarget *tl_remote_host_get_target (TlRemoteHost *host);
TlRunner           *tl_remote_host_get_runner (TlRemoteHost *host);

/* As tl_runner_run_gemm_async on the host's runner; finish with
 * tl_runner_run_gemm_finish (tl_remote_host_get_runner (host), …). */
guint  tl_remote_host_run_gemm_async  (TlRemoteHost *host, const TlJob *job,
                                       GCancellable *cancellable, GAsyncReadyCallback callback,
                                       gpointer user_data);
/* As tl_runner_run_gauss_async (factor only; with a recorder the steps
 * come back into it); finish with tl_runner_run_gauss_finish.  The
 * result's lu has the factorisation's facts, not the packed factors. */
guint  tl_remote_host_run_gauss_async (TlRemoteHost *host, const TlGaussJob *job,
                                       GCancellable *cancellable, GAsyncReadyCallback callback,
                                       gpointer user_data);
guint  tl_remote_host_probe_async     (TlRemoteHost *host, GCancellable *cancellable,
                                       GAsyncReadyCallback callback, gpointer user_data);
TlRemoteDevices *tl_remote_host_probe_finish (TlRemoteHost *host, GAsyncResult *result,
                                              GError **error);

/* The sentence a record whose connection was lost carries (its note), or
 * NULL when it came back whole. */
const char *tl_remote_record_lost_connection (const TlRunRecord *record);

G_END_DECLS
