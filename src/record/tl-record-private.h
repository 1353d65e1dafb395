/* tl-record-private.h — what the record model, its writer and reader share. */
#pragma once

#include "record/tl-record.h"

G_BEGIN_DECLS

/* An empty record: no job, no runs, one reference. */
TlRunRecord *tl_run_record_alloc (void);

typedef struct
{
  const char *const *names;
  guint n;
} TlNameTable;

/* The JSON names of TlRunStatus and TlBackend, in enum order. */
extern const TlNameTable tl_run_status_table;
extern const TlNameTable tl_backend_table;

/* The index of name in the table (FALSE when it is not there). */
gboolean tl_name_table_lookup (const TlNameTable *table, const char *name, int *out);

/* A path relative to the record's directory that never leaves it; the
 * error names the record's JSON path. */
gboolean tl_record_check_relative_path (const char *rel, const char *path, GError **error);

/* The reader's getters, shared by tl-record-read.c (the record, its job)
 * and tl-record-read-run.c (a kernel's run); each names the JSON path in
 * its error.  A count: 0 … G_MAXINT32; a quantity: {value, unit} with
 * the unit it must have; a name: one of table's; a path: relative to the
 * record, never leaving its directory. */
gboolean tl_record_get_count (JsonObject *obj, const char *path, const char *name,
                              gboolean required, int *out, GError **error);
gboolean tl_record_get_quantity (JsonObject *obj, const char *path, const char *name,
                                 gboolean required, const char *unit, double *out, GError **error);
gboolean tl_record_get_name (JsonObject *obj, const char *path, const char *name,
                             const TlNameTable *table, int *out, GError **error);
gboolean tl_record_read_stats (JsonObject *obj, const char *path, TlMatrixStats *out,
                               GError **error);
gboolean tl_record_get_rel_path (JsonObject *obj, const char *path, char **out, GError **error);

/* One run of runs[] (tl-record-read-run.c).  user_kernels: the record's
 * $.extensions.user_kernels (may be NULL): the runs of kernels it names,
 * and of kernels registered as a user's, are not held to the tile grid
 * (tl_record_check_blocks). */
TlKernelRun *tl_record_read_run (JsonObject *obj, const char *path, const TlJob *job,
                                 JsonObject *user_kernels, GError **error);

/* What a run says together (tl-record-check-run.c), each error naming the
 * JSON path and the values.  The plan (the object obj at path, as read
 * into p) against the job's sizes: its tile count, slice of k and work,
 * each filled in from the job where obj lacks it (an older plan). */
gboolean tl_record_check_plan (JsonObject *obj, const char *path, TlGpuGemmPlan *p,
                               const TlJob *job, GError **error);
/* The run's blocks (at path) on the tiles of C its tile size makes (in
 * either orientation), within its plan's tile and slices, and no tile of
 * one launch twice; a user's kernel (own_kernel FALSE) is not checked. */
gboolean tl_record_check_blocks (const TlKernelRun *run, const TlJob *job, const char *path,
                                 gboolean own_kernel, GError **error);

G_END_DECLS
