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

G_END_DECLS
