/* tl-job.h — what a run record says was asked: the job and its sources.
 *
 * A TlJob names the multiplication (shapes, dtype, the two input sources),
 * the kernels asked for and how to time them.  The runner executes jobs;
 * run records (tl-record.h) carry a copy.
 */
#pragma once

#include <glib.h>
#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef enum
{
  TL_SOURCE_GENERATOR, /* generator spec + seed */
  TL_SOURCE_FILE,      /* a matrix file */
  TL_SOURCE_MATRIX,    /* a matrix handed over in memory (GUI edits, tests) */
} TlSourceKind;

typedef struct
{
  TlSourceKind kind;
  char *generator; /* TL_SOURCE_GENERATOR: spec, e.g. "random-uniform:lo=-1,hi=1" */
  guint64 seed;    /* TL_SOURCE_GENERATOR */
  char *path;      /* TL_SOURCE_FILE: as given */
  char *label;     /* TL_SOURCE_MATRIX: free text, may be NULL */
} TlSource;

typedef struct
{
  char *kind;          /* "gemm" (later "lu") */
  gsize m, k, n;       /* C is m×n, A m×k, B k×n */
  TlDtype dtype;
  TlSource a, b;
  GStrv kernels;       /* as asked: ids, or "all", "gpu", "cpu" */
  guint repeats;       /* timed runs, >= 1 */
  guint warmups;       /* untimed runs first */
  gboolean flush_l2;   /* GPU: flush L2 before each timed launch */
  gboolean instrument; /* also an instrumented run with per-block records */
  gboolean counters;   /* GPU: also count hardware events (an untimed, replayed launch) */
  guint threads;       /* CPU threads, 0 = all cores */
  int device;          /* GPU ordinal */
  gboolean keep_matrices; /* keep A, B, reference and every C in the record */
  char *plan;          /* GPU: the plan the planned rungs run, by name ("128x128/s4");
                          NULL: the cost model chooses (gpu/tl-gpu-plan.c) */
  double watchdog_s;   /* user kernels: a launch longer than this is stopped (0: the
                          default, 10 s); how to run, not written to records */

  /* Inputs handed over in memory (not serialised).  When set they are
   * used instead of the sources, which then only describe provenance. */
  TlMatrix *a_matrix, *b_matrix;
} TlJob;

TlJob   *tl_job_new_gemm (gsize m, gsize k, gsize n, TlDtype dtype);
/* deep copy; matrices are ref'd, not copied */
TlJob   *tl_job_copy     (const TlJob *job);
void     tl_job_free     (TlJob *job);
void     tl_source_clear (TlSource *source);
void     tl_source_copy_into (const TlSource *src, TlSource *dst);
/* "generator random-uniform seed 42", "file a.mtx", "matrix" */
char    *tl_source_describe (const TlSource *source);

/* "generator", "file", "matrix" (the JSON names) */
const char *tl_source_kind_name      (TlSourceKind kind);
gboolean    tl_source_kind_from_name (const char *name, TlSourceKind *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlJob, tl_job_free)

G_END_DECLS
