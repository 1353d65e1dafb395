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
#include "view/tl-compare-bars.h"

G_BEGIN_DECLS

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h; /* the value axis spans plot_x … plot_x + plot_w */
  double row_h, bar_h;
  gboolean log_axis;
  double lo, hi;                         /* axis range in the metric's unit */
  double label_scale;                    /* tick labels show value × this … */
  const char *unit;                      /* … in this unit ("µs", "MFLOP/s") */
} TlCompareLayout;

void     tl_paint_compare_layout (const TlCompareModel *model, const TlPaintStyle *style,
                                  cairo_t *cr, double width, double height, TlCompareLayout *out);
/* The least height at which every row's texts keep their smallest
 * legible type (12 px at scale 1): a page gives the chart this much and
 * scrolls, rather than shrinking the names to specks. */
double   tl_paint_compare_min_height (const TlCompareModel *model, const TlPaintStyle *style);
/* x of a value on the axis */
double   tl_compare_layout_x    (const TlCompareLayout *layout, double value);
/* The bar under (x, y) (anywhere in its row), or -1. */
gint     tl_paint_compare_bar_at (const TlCompareModel *model, const TlPaintStyle *style,
                                  double width, double height, double x, double y);
void     tl_paint_compare        (cairo_t *cr, const TlCompareModel *model,
                                  const TlPaintStyle *style, double width, double height);

G_END_DECLS
