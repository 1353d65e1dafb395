/* tl-run-text.h — how the app words numbers and runs (one place, so the
 * status bar, the summaries and the details say the same thing). */
#pragma once

#include <glib.h>
#include "record/tl-record.h"

G_BEGIN_DECLS

/* "%.4g" in the C locale, "—" for NaN */
char       *tl_run_text_number (double value);
/* a percentage with the digits that matter: "94", "7.5", "0.48" (no "%") */
char       *tl_run_text_percent (double percent);
/* "512 B"; "— (not in this record)" for a negative count (a fact the
 * record does not hold: constant memory in a record made before it was) */
char       *tl_run_text_bytes_or_missing (int bytes);
/* a duration in a unit that fits: "48.1 ms", "2.91 s", "380 µs", "95 ns" */
char       *tl_run_text_time (double ms);
/* "03 smem 16×16: 2.910 ms, 47.2 GFLOP/s, 94% of cuBLAS, verified" */
void        tl_run_text_describe (const TlKernelRun *run, double flops, GString *out);

/* An LU run record in a few lines: the rung, the matrix and the device,
 * the time, GFLOP/s counted as an LU's m·n² − n³/3 (⅔·n³ when square) and
 * the residual when the record has one.  NULL for other records. */
char       *tl_run_text_lu (const TlRunRecord *lu_run);

G_END_DECLS
