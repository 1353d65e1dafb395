/* tl-cpu-gemm.h — GEMM on the CPU: the seeds' baselines and the reference.
 *
 * C = A·B with A m×k, B k×n, C m×n, all of one dtype (int32 only through
 * the naive and blocked kernels).  The blocked kernel records, per C tile,
 * when it started and ended and on which thread, so the block-timing views
 * work without a GPU.
 */
#pragma once

#include <gio/gio.h>
#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef struct
{
  guint tile_row, tile_col; /* tile index in C */
  guint thread;             /* worker thread 0..n_threads-1 */
  gint64 start_ns, end_ns;  /* monotonic, relative to the call's start */
} TlCpuTileRecord;

typedef struct
{
  const char *id;     /* "cpu-naive", "cpu-blocked", "cpu-openblas" */
  const char *title;
  const char *lesson;
  const char *changed; /* what it does differently from the kernel before it, or NULL */
  const char *seed;
  guint dtypes;       /* TL_DTYPE_BIT mask */
  gboolean reference;
  gboolean records_tiles;
  int tile;           /* tile edge of the blocked kernel, 0 otherwise */
  gboolean single_threaded; /* runs on one core whatever n_threads says */
  gboolean baseline;  /* the speed-ups of a job are against this kernel */
} TlCpuKernel;

guint              tl_cpu_kernel_count (void);
const TlCpuKernel *tl_cpu_kernel_get   (guint index);

/* Runs one CPU kernel.  n_threads 0 means all cores.  tile_records, if
 * non-NULL, is a GArray of TlCpuTileRecord that the blocked kernel fills.
 * Checks shapes and dtypes (TL_ERROR_SHAPE / TL_ERROR_UNSUPPORTED) and
 * honours cancellation between tiles. */
gboolean tl_cpu_gemm (const char   *kernel_id,
                      const TlMatrix *a,
                      const TlMatrix *b,
                      TlMatrix     *c,
                      guint         n_threads,
                      GArray       *tile_records,
                      GCancellable *cancellable,
                      GError      **error);

/* The OpenBLAS behind cpu-openblas: its configuration and the CPU core its
 * kernels were chosen for, e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH … (core
 * SkylakeX)".  Core "Prescott" means OpenBLAS did not recognise the CPU
 * (virtual machines often mask the model) and runs generic kernels several
 * times slower; OPENBLAS_CORETYPE=SkylakeX (or Haswell) in the environment
 * before Tilelab starts fixes that.  Run records should carry this line. */
const char *tl_cpu_openblas_info (void);

G_END_DECLS
