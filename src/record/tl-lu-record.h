/* tl-lu-record.h — an LU factorisation as a run record (tilelab-run/2).
 *
 * The run record (tl-record.h) describes jobs; an LU job is kind "lu" with
 * m = rows, k = n = cols of A, one run per kernel (its timing, GFLOP/s at
 * the LU flop count) and the step recording as $.extensions.lu — the
 * {"kind": "lu"} object of docs/gauss-record.md.  B's source is written as
 * an in-memory "matrix" labelled "none": an LU job has one input.
 */
#pragma once

#include "lu/tl-lu.h"
#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

/* A record of one factorisation.  source describes A (copied; may be NULL
 * for "matrix").  rec may be NULL (then no extensions.lu).  A must have at
 * least one row and one column (the run record's rule). */
TlRunRecord  *tl_lu_run_record_new (const TlLuResult *result, const TlMatrix *a,
                                    const TlSource *source, const TlLuRecorder *rec,
                                    GError **error);
/* record (made with rec NULL) saved to path as tl_run_record_save saves
 * it, with rec written as $.extensions.lu straight into the file: a large
 * recording never becomes a tree (tl_lu_run_record_new with rec does). */
gboolean      tl_lu_run_record_save (TlRunRecord *record, const TlLuRecorder *rec,
                                     const char *path, GError **error);
/* The step recording inside a run record ($.extensions.lu). */
TlLuRecorder *tl_lu_recorder_from_run_record (const TlRunRecord *record, GError **error);

G_END_DECLS
