/* tl-paint-compare.h — kernels side by side: bars per kernel and a size sweep.
 *
 * Bars: one row per kernel, the median with a min–max whisker, either as
 * time (shorter is better) or as GFLOP/s (longer is better); beside each
 * bar its number, its share of the reference (cuBLAS) and its speed-up over
 * the baseline (CPU naive) — the seeds' headline figure.  When the values
 * span more than ~30× the axis turns logarithmic so the naive kernel stays
 * visible next to cuBLAS.
 *
 * A bar is coloured by its kernel (tl-kernel-colors.h: the same colour in
 * every chart).  An LU record is shown as LU: time per factorisation,
 * GFLOP/s from the LU flop count (⅔·n³ for a square matrix), and the
 * residual where the record has one — never as a multiply.
 *
 * The size sweep has its own header, tl-paint-sweep.h (included here).
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-sweep.h"

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

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h; /* the value axis spans plot_x … plot_x + plot_w */
  double row_h, bar_h;
  gboolean log_axis;
  double lo, hi;                         /* axis range in the metric's unit */
  double label_scale;                    /* tick labels show value × this … */
  const char *unit;                      /* … in this unit ("µs", "MFLOP/s") */
} TlCompareLayout;

void     tl_compare_model_init (TlCompareModel *model);
/* The metric's value for a bar (ms or GFLOP/s); whiskers in lo/hi. */
double   tl_compare_bar_value  (const TlCompareModel *model, guint index,
                                double *out_lo, double *out_hi);
void     tl_paint_compare_layout (const TlCompareModel *model, const TlPaintStyle *style,
                                  cairo_t *cr, double width, double height, TlCompareLayout *out);
/* x of a value on the axis */
double   tl_compare_layout_x    (const TlCompareLayout *layout, double value);
/* The bar under (x, y) (anywhere in its row), or -1. */
gint     tl_paint_compare_bar_at (const TlCompareModel *model, const TlPaintStyle *style,
                                  double width, double height, double x, double y);
void     tl_paint_compare        (cairo_t *cr, const TlCompareModel *model,
                                  const TlPaintStyle *style, double width, double height);

G_END_DECLS
