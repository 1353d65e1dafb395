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

/* The whole Compare chart of a job's runs, for the app and `render --view
 * compare`: the bars (as tl_compare_bars_from_runs; returned, keep it
 * alive while model is used), the title — "C = A·B, m×k · k×n (float32)" or
 * "PA = LU, n×n (float64)" —, the kind of work and its flop count (an LU
 * job is timed and rated as LU, never as a multiply), the baseline
 * (cpu-naive).  An LU run shows its residual when the record verified it
 * (normwise).  Strings are added to strings. */
GArray *tl_compare_model_fill (TlCompareModel *model, const TlJob *job, GPtrArray *runs,
                               gboolean by_title, GPtrArray *strings);

/* The size sweep of a session: every GEMM run of records (TlRunRecord *,
 * oldest first; LU records are left out), one series per kernel and
 * machine (the GPU's name for GPU runs, the CPU's for CPU runs), the
 * latest measurement of each problem m×k×n kept.  Labels name the kernel,
 * and the machine when there are several. */
typedef struct
{
  TlSweepModel model;
  /*< private >*/
  GArray *series;
  GPtrArray *keep;
} TlSweepData;

TlSweepData *tl_sweep_data_new  (GPtrArray *records, const char *title);
void         tl_sweep_data_free (TlSweepData *data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSweepData, tl_sweep_data_free)

G_END_DECLS
