/* tl-gauss-run.h — Gauss elimination as a runner job: LU, solve, GF(p).
 *
 * The Gauss ladder's kernels run on the runner's worker like GEMMs do, so a
 * GPU rung uses the worker's device (the one TlLuOptions.gpu_ordinal
 * names), never one it opens for itself, and its timings never overlap
 * another job's.
 *
 *   factor  A → PA = LU with options (and, given a recorder, every step)
 *   solve   the same, then X = A⁻¹B with the factors (on the GPU for GPU
 *           rungs: getrs there)
 *   exact   A over GF(p) → its exact LU, on the GPU (device
 *           options.gpu_ordinal) when `exact_on_gpu`, else on the CPU
 *
 * Submitting snapshots the job: matrices are ref'd (A and B) or copied (the
 * GF(p) matrix), strings copied.  The recorder is NOT copied: the worker
 * fills it, and the caller leaves it alone until the job has finished.
 */
#pragma once

#include "lu/tl-gfp.h"
#include "lu/tl-lu.h"
#include "lu/tl-lu-recorder.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

typedef enum
{
  TL_GAUSS_FACTOR,
  TL_GAUSS_SOLVE,
  TL_GAUSS_EXACT,
} TlGaussKind;

typedef struct
{
  TlGaussKind kind;
  const TlMatrix *a;          /* factor, solve */
  const TlMatrix *b;          /* solve: the right-hand sides */
  const TlGfpMatrix *exact;   /* exact: A mod p */
  gboolean exact_on_gpu;      /* exact: on device options.gpu_ordinal */
  TlLuOptions options;        /* kernel, block, pivoting, gemm, device, repeats
                                 (options.gpu is ignored: the worker's is used) */
  TlLuRecorder *recorder;     /* factor, exact on the CPU: may be NULL */
} TlGaussJob;

typedef struct
{
  TlLuResult *lu;             /* factor, solve */
  TlMatrix *x;                /* solve */
  TlGfpLu *exact;             /* exact */
} TlGaussResult;

void tl_gauss_result_free (TlGaussResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGaussResult, tl_gauss_result_free)

guint          tl_runner_run_gauss_async  (TlRunner           *self,
                                           const TlGaussJob   *job,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data);
/* The result, or NULL with the error (those of tl_lu_factor_full,
 * tl_lu_solve, tl_gfp_lu and tl_gfp_lu_gpu; G_IO_ERROR_CANCELLED). */
TlGaussResult *tl_runner_run_gauss_finish (TlRunner     *self,
                                           GAsyncResult *result,
                                           GError      **error);

G_END_DECLS
