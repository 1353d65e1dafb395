/* tl-lu-private.h — what the Gauss ladder's CPU kernels share (internal). */
#pragma once

#include <time.h>
#include "lu/tl-lu.h"
#include "lu/tl-lu-recorder.h"
#include "device/tl-gpu-session.h"

G_BEGIN_DECLS

/* One factorisation in progress: a is the working copy (becomes L\U). */
typedef struct
{
  TlMatrix *a;
  gint32 *ipiv;
  gsize info;
  gboolean breakdown;
  TlPivoting pivoting;
  gsize block_size;           /* GPU rungs: 0 = the rung's default; after the run, what it used */
  const char *gemm;           /* "openblas" or "cpu-blocked" */
  const char *kernel_id;
  TlLuRecorder *rec;          /* NULL: not recording */
  TlGpuSession *gpu;          /* GPU rungs: NULL = the thread's default session */
  int gpu_ordinal;            /* GPU rungs: which device */
  guint warmups, repeats;     /* GPU rungs: untimed and timed factorisations */
  GCancellable *cancellable;
  gint64 phase_ns[TL_LU_N_PHASES];
  gint64 phase_run_ns;        /* GPU: the phase-timing run's device time (0: elapsed) */
  double record_s;            /* GPU: the recording run's wall time */
  double device_s;            /* GPU: the median device time of the timed runs (< 0: none) */
} TlLuWork;

gboolean tl_lu_cpu_unblocked (TlLuWork *w, GError **error);
gboolean tl_lu_cpu_blocked   (TlLuWork *w, GError **error);
gboolean tl_lu_lapack        (TlLuWork *w, GError **error);
/* GPU rungs: w->device_s becomes the median of the timed factorisations. */
gboolean tl_lu_gpu           (TlLuWork *w, GError **error);
/* The device `ordinal` of the given session, else of the thread's (the
 * runner worker's), else of a session opened for this call (*own, which
 * the caller frees after the call). */
TlGpuDevice *tl_lu_gpu_device (TlGpuSession *given, int ordinal, TlGpuSession **own,
                               GError **error);
/* x (n×k, contiguous, the factorisation's dtype) holds B and becomes X. */
gboolean tl_lu_solve_gpu     (const TlLuResult *lu, TlMatrix *x, GError **error);

/* The unblocked elimination of columns [0, ncols) of the sub-matrix that
 * starts at (r0, c0) of w->a and has m − r0 rows: the panel kernel of the
 * blocked LU and the whole of the unblocked one.  Row swaps are applied to
 * columns [swap_c0, swap_c1) only; ipiv entries are global.  block is the
 * block-step index for the recorder.  Returns FALSE only when cancelled. */
gboolean tl_lu_panel (TlLuWork *w, gsize r0, gsize c0, gsize ncols,
                      gsize swap_c0, gsize swap_c1, gsize upd_c1, guint block,
                      GError **error);

static inline gint64
tl_lu_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

G_END_DECLS
