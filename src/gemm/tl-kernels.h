/* tl-kernels.h — one registry of every GEMM kernel Tilelab can run.
 *
 * The CPU rows (tl-cpu-gemm.c) and the GPU ladder (gpu/tl-gpu-registry.c)
 * seen as one table.  The GUI's kernel list, `tilelab-cli kernels`, the
 * benchmark and the tests iterate it; nothing switches on kernel names.
 */
#pragma once

#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef enum
{
  TL_BACKEND_CPU,
  TL_BACKEND_GPU,
} TlBackend;

typedef struct
{
  const char *id;          /* "cpu-naive", "gemm-03-smem16", "cublas-fp32", … */
  int number;              /* rung number (GPU ladder), 0 otherwise */
  const char *title;
  const char *lesson;      /* one line */
  const char *changed;     /* one short sentence: what it does differently from the kernel
                              below it on its ladder ("Why faster?"); NULL for none */
  const char *seed;        /* seeds it comes from, "" if none */
  guint dtypes;            /* bit (1 << TlDtype) per supported dtype */
  TlBackend backend;
  gboolean reference;      /* OpenBLAS, cuBLAS: the yardsticks (a kernel's is the reference
                              of its backend computing in its precision) */
  gboolean baseline;       /* the slow start (cpu-naive): speed-ups are against it, and
                              the runner runs it first */
  gboolean single_threaded; /* runs on one core, whatever the job's thread count */
  gboolean records_blocks; /* can record per-block (or per-tile) timings */
  int tile_m, tile_n;      /* C tile per block or task; 0 if none */
  int min_cc;              /* GPU: minimum compute capability × 10 */
  const char *precision;   /* "exact", "fp32", "fp64", "tf32", "bf16" */
  const char *source_path; /* relative to the source tree */
  const char *counters;    /* GPU: the counter views its lesson is about, space-separated keys
                              (src/record/tl-counters.h); NULL for none */
} TlKernelInfo;

guint               tl_kernel_count (void);
const TlKernelInfo *tl_kernel_get   (guint index);
/* The row of id: the CPU kernels, the ladder, then the rows added since
 * (count and get list the built-in rows only). */
const TlKernelInfo *tl_kernel_find  (const char *id);

/* Rows added at run time: a user's kernels (gemm/tl-user-kernel.h), each
 * standing for an owner.  The row is copied and kept for the life of the
 * process (its strings are taken over), so the pointer returned stays
 * valid; NULL when its id is taken.  Thread-safe. */
const TlKernelInfo *tl_kernel_add       (const TlKernelInfo *row, gpointer owner);
/* the owner of an added row; NULL for a built-in row (or NULL) */
gpointer            tl_kernel_get_owner (const TlKernelInfo *info);
/* the added rows, oldest first (a new array of rows) */
GPtrArray          *tl_kernel_list_added (void);
gboolean            tl_kernel_supports (const TlKernelInfo *info, TlDtype dtype);

/* What info computes in at dtype: "exact" (int32), "fp64" (float64), else
 * the row's precision ("fp32", "tf32", "bf16"). */
const char         *tl_kernel_precision (const TlKernelInfo *info, TlDtype dtype);
/* The yardstick of info at dtype: the reference row of the same backend
 * that takes dtype and computes in the same precision; NULL for int32
 * (exact: no reference needed) and when there is none. */
const TlKernelInfo *tl_kernel_reference (const TlKernelInfo *info, TlDtype dtype);
/* The baseline row (cpu-naive), or NULL. */
const TlKernelInfo *tl_kernel_baseline  (void);
/* Whether info runs on a GPU of compute capability major.minor: its
 * min_cc column (CPU rows run anywhere, GPU rows on no GPU at all when
 * major is 0). */
gboolean            tl_kernel_runs_on   (const TlKernelInfo *info, int cc_major, int cc_minor);
/* The name a reader sees of the kernel with this id and row (info: the id's
 * row, resolved once — a run's info; NULL for an id this build does not
 * know, a record from another build): "03 shared memory 16×16" for rungs,
 * the translated title otherwise, the id itself without a row.  g_free. */
char               *tl_kernel_display_name (const TlKernelInfo *info, const char *kernel_id);
/* The translated title of the row, or kernel_id without one. */
const char         *tl_kernel_title         (const TlKernelInfo *info, const char *kernel_id);

G_END_DECLS
