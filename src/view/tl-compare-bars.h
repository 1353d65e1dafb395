/* tl-compare-bars.h — the Compare page's two models: bars and the size sweep.
 *
 * A TlCompareModel is what the bar chart shows (tl-paint-compare.h draws
 * it): one bar per kernel run, its median with a min–max whisker, its
 * share of its own yardstick (same backend and precision, as the runner
 * measured it, so a BF16 rung is compared with cuBLAS BF16, never with
 * FP32 cuBLAS) and the baseline for speed-ups.  A TlSweepModel is the size
 * sweep (tl-paint-sweep.h): GFLOP/s against the problem size, one series
 * per kernel and machine.  Both are filled here from run records, for the
 * app's Compare page and for `tilelab-cli render --view compare|sweep`.
 */
#pragma once

#include <glib.h>
#include <math.h>

#include "record/tl-job.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

typedef enum
{
  TL_COMPARE_TIME = 0,
  TL_COMPARE_GFLOPS,
} TlCompareMetric;

/* what the kernels did: it names the time axis and the flop count */
typedef enum
{
  TL_COMPARE_WORK_GEMM = 0, /* C = A·B, 2·m·n·k flops */
  TL_COMPARE_WORK_LU,       /* PA = LU, m·n² − n³/3 flops (m ≥ n) */
} TlCompareWork;

typedef enum
{
  TL_COMPARE_AXIS_AUTO = 0,
  TL_COMPARE_AXIS_LINEAR,
  TL_COMPARE_AXIS_LOG,
} TlCompareAxis;

typedef struct
{
  const char *label;              /* kernel title */
  const char *kernel_id;          /* its colour (tl-kernel-colors.h); NULL: GPU blue,
                                     references orange, CPU grey */
  double median_ms, min_ms, max_ms;
  double flops;                   /* 2·m·n·k (LU: its flop count), for GFLOP/s */
  double residual;                /* LU: the backward error ratio the record gives;
                                     NAN or 0: none shown */
  gboolean reference;             /* cuBLAS / OpenBLAS */
  gboolean cpu;
  const char *failed;             /* non-NULL: why there is no bar */
  /* This bar's share of its own yardstick — the reference of the same
   * backend and precision (cuBLAS BF16 for a BF16 rung, OpenBLAS for a CPU
   * kernel), as the run measured it.  When reference_label is NULL the
   * model-wide reference_index is used instead. */
  double percent_of_reference;
  const char *reference_label;    /* e.g. "cuBLAS BF16" */
  gboolean has_rgb;               /* drawn in rgb instead of its kernel's colour (bars
                                     coloured by a counter, tl-compare-counters.h) */
  double rgb[3];
} TlCompareBar;

typedef struct
{
  const TlCompareBar *bars;
  guint n_bars;
  TlCompareMetric metric;
  TlCompareWork work;
  TlCompareAxis axis;
  gint reference_index;  /* "% of" this bar; -1 for none */
  gint baseline_index;   /* "× faster than" this bar; -1 for none */
  gint selected_index;   /* -1 for none */
  const char *title;
  const char *reference_name; /* "cuBLAS" */
  const char *baseline_name;  /* "CPU naive" */
} TlCompareModel;

/* Does the bar have a time to draw (it ran, and its median is a positive number)? */
static inline gboolean
tl_compare_bar_is_timed (const TlCompareBar *b)
{
  return b->failed == NULL && b->median_ms > 0 && isfinite (b->median_ms);
}

void     tl_compare_model_init (TlCompareModel *model);
/* The metric's value for a bar (ms or GFLOP/s); whiskers in lo/hi. */
double   tl_compare_bar_value  (const TlCompareModel *model, guint index,
                                double *out_lo, double *out_hi);

/* The size sweep's model: one series per kernel and machine. */
typedef struct
{
  const char *label;
  const char *kernel_id; /* colour and marker; NULL: by the series' index */
  guint machine;         /* line style: 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
  const double *n;       /* size per point: n for a cube, ∛(m·k·n) otherwise */
  const double *gflops;  /* one per size; ≤ 0 or NaN: no point */
  const gsize *shape;    /* m, k, n per point (3·count values); NULL: cubes of n */
  guint count;
  gboolean reference;    /* a yardstick (cuBLAS, OpenBLAS): a thicker line */
  const char *tag;       /* the short name at the line's end: the rung "07" ("10 TF32"
                            where two rungs share 10), "cuBLAS TF32"; NULL: none */
} TlSweepSeries;

typedef struct
{
  const TlSweepSeries *series;
  guint n_series;
  const char *title;     /* shorter wordings may follow, one a line, for a narrow
                            picture (tl_paint_text_fit_choice) */
  gboolean percent;      /* the values are % of the vendor in the same run, not GFLOP/s */
  /* the machines' names, by TlSweepSeries.machine; with more than one the
   * legend keys them by line style, and a series' label is its kernel's */
  const char *const *machines;
  guint n_machines;
  /* the kernel picked on the bars (its id): its lines drawn bold over the
   * others, which fade; NULL: none */
  const char *picked;
} TlSweepModel;

/* runs: TlKernelRun *.  by_title: label bars "03 shared memory 16×16"
 * (translated) instead of by id.  Label and message strings are added to
 * strings, which must outlive the bars.  *out_baseline_index is the
 * baseline kernel's bar (the registry's baseline column: cpu-naive), or -1. */
GArray *tl_compare_bars_from_runs (GPtrArray *runs, double flops, gboolean by_title,
                                   GPtrArray *strings, gint *out_baseline_index);

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
/* percent: each point is the run's % of its vendor (cuBLAS, OpenBLAS) in
 * the same record (a run without one has no point); the vendor's own line
 * is 100%. */
TlSweepData *tl_sweep_data_new_metric (GPtrArray *records, const char *title, gboolean percent);
void         tl_sweep_data_free (TlSweepData *data);
/* The Compare page's sweep, as it titles it: GFLOP/s (or, percent, % of
 * the vendor) of every run of the session's records — the page and its
 * exported picture draw this one (`render` titles by its records:
 * tl_sweep_data_new_records). */
TlSweepData *tl_sweep_data_new_session (GPtrArray *records, gboolean percent);
/* The sweep of records as `tilelab-cli render` draws them, titled by
 * what it holds: "Size sweep: GFLOP/s of 2 records on NVIDIA H200" (the
 * sizes are the axis's ticks, the machines the legend's key when several). */
TlSweepData *tl_sweep_data_new_records (GPtrArray *records, gboolean percent);
/* Whether the sweep has at least two problem sizes: one size is a single
 * column of points, and Compare then shows (and exports) the bars alone. */
gboolean     tl_sweep_model_has_sizes (const TlSweepModel *model);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSweepData, tl_sweep_data_free)

G_END_DECLS
