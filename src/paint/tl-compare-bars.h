/* tl-compare-bars.h — the Compare chart's bars from a job's kernel runs.
 *
 * One place that turns TlKernelRuns into TlCompareBars, for the app's
 * Compare view and for `tilelab-cli render --view compare`.  Each bar's
 * "% of" is against its own yardstick (same backend and precision), as the
 * runner measured it, so a BF16 rung is compared with cuBLAS BF16, never
 * with FP32 cuBLAS.
 */
#pragma once

#include "paint/tl-paint-compare.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

/* runs: TlKernelRun *.  by_title: label bars "03 shared memory 16×16"
 * (translated) instead of by id.  Label and message strings are added to
 * strings, which must outlive the bars.  *out_baseline_index is the
 * baseline kernel's bar (the registry's baseline column: cpu-naive), or -1. */
GArray *tl_compare_bars_from_runs (GPtrArray *runs, double flops, gboolean by_title,
                                   GPtrArray *strings, gint *out_baseline_index);

/* "03 shared memory 16×16" for rungs, the title otherwise, the id if unknown */
char   *tl_kernel_display_name (const char *kernel_id);

G_END_DECLS
