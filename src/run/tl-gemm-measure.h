/* tl-gemm-measure.h — one kernel of a GEMM job, measured and verified;
 * the job's state it reads (tl-gemm-run.c fills it).  Internal to run/. */
#pragma once

#include <gio/gio.h>
#include "device/tl-gpu-session.h"
#include "record/tl-record.h"
#include "gemm/tl-gemm-check.h"
#include "gemm/tl-kernels.h"

G_BEGIN_DECLS

typedef struct
{
  const TlJob *job;
  GCancellable *cancellable;
  TlGpuSession *gpu;
  gsize m, k, n;
  TlMatrix *a, *b;
  TlGemmReference *reference;
  /* the caller's callbacks (tl-gemm-run.h; either may be NULL) */
  void (*progress) (const char *kernel_id, const char *stage, double fraction,
                    gpointer user_data);
  void (*kernel_finished) (const TlKernelRun *run, gpointer user_data);
  gpointer user_data;
  /* progress: one unit for the inputs and the reference, one per kernel */
  double units_total, unit_start, unit_size;
} TlGemmJobState;

/* Progress: within (0…1) of the current unit, for kernel_id (NULL: the
 * job) at stage. */
void     tl_gemm_job_report     (TlGemmJobState *s, const char *kernel_id, const char *stage,
                                 double within);
/* One kernel of the job measured into run on C: warm-ups, timed runs (the
 * median), C poisoned before the run that is verified against the job's
 * reference, and the instrumented run, launch facts and counters where
 * asked.  TRUE with run skipped when the GPU cannot run the kernel;
 * FALSE with error set otherwise. */
gboolean tl_gemm_measure_kernel (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run,
                                 TlMatrix *c, GError **error);

G_END_DECLS
