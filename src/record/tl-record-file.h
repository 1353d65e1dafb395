/* tl-record-file.h — a record file opened: one parse, then the reader its kind asks for.
 *
 * A JSON file Tilelab opens is a run record ("schema": "tilelab-run/2" or
 * /1), a Gauss step record ("kind": "lu", docs/gauss-record.md), or a run
 * record that carries a Gauss record as $.extensions.lu.  The file is read
 * and parsed once (core/tl-json.h: bounded, strict); the tree goes to the
 * run record's reader or the Gauss record's, and a run record keeps the
 * folder it came from so the .npy matrices it names can be loaded from
 * beside it — with the file, or later (tl_run_record_load_matrices).
 *
 * The app's Open, `tilelab-cli render` and the tests all open records here.
 */
#pragma once

#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

typedef enum
{
  TL_RECORD_LOAD_DEFAULT = 0,
  TL_RECORD_LOAD_MATRICES = 1 << 0, /* also load the .npy files it names */
} TlRecordLoadFlags;

/* What one file held: a run record, a Gauss record, or both. */
typedef struct
{
  TlRunRecord *record;   /* NULL for a bare Gauss record */
  TlLuRecorder *lu;      /* the Gauss record, or the run record's $.extensions.lu (which is
                            then taken out of record->extensions); may be NULL */
} TlRecordFile;

/* Reads path into file (which it overwrites).  With TL_RECORD_LOAD_MATRICES
 * a run record's matrices are loaded too, and failing to load one fails
 * the whole.  Errors start with the file's name. */
gboolean tl_record_file_load  (TlRecordFile *file, const char *path, TlRecordLoadFlags flags,
                               GError **error);
void     tl_record_file_clear (TlRecordFile *file);

/* A run record alone (a Gauss record is an error). */
TlRunRecord *tl_run_record_load (const char *path, TlRecordLoadFlags flags, GError **error);

/* Which of the job's matrices a file beside the record holds: its shape
 * must be the job's (A m×k, B k×n, the reference and each C m×n). */
typedef enum
{
  TL_RECORD_MATRIX_A,
  TL_RECORD_MATRIX_B,
  TL_RECORD_MATRIX_C,
} TlRecordMatrix;

/* Loads a matrix the record names (relative_path) from beside it. */
TlMatrix *tl_run_record_load_matrix (const TlRunRecord *record, const char *relative_path,
                                     TlRecordMatrix which, GError **error);
/* Loads the .npy matrices record names (A, B, the reference, each run's C)
 * from its folder; all of them or, on error, none (the record is left as
 * it was). */
gboolean tl_run_record_load_matrices (TlRunRecord *record, GError **error);

G_END_DECLS
