/* tl-paint-sweep.h — the size sweep: GFLOP/s against the problem size.
 *
 * Log–log axes, one line per kernel and machine: a kernel keeps its colour
 * and marker (tl-kernel-colors.h), a machine its line style (solid,
 * dashed, dotted, dash-dot), so a GPU record and this laptop's CPU run are
 * never joined into one line.  Cubes are placed at n; a non-square problem
 * m×k×n at ∛(m·k·n).  The size axis runs from just before the smallest
 * problem to just past the largest, a tick at each problem measured,
 * labelled with the problem itself ("1000×500×1000", "4096").
 *
 * Each line's end carries its tag ("17", "cuBLAS TF32"), right of the
 * plot, so two dozen lines are told apart by more than their colours.
 * The legend keys the machines' line styles first (when there are
 * several) and then names each kernel once: beside the plot where the
 * names fit whole, else under it in as many columns as leave the plot
 * half the picture's height, names cut where they must but never cut to
 * the same words.
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-util.h"
#include "view/tl-compare-bars.h"

G_BEGIN_DECLS

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h;
  double n_lo, n_hi, g_lo, g_hi;  /* axis ranges (log) */
  double legend_x, legend_y;      /* the legend's top left */
  TlLegendGrid legend;            /* its rows and columns */
  gboolean square;                /* every problem is a cube */
} TlSweepLayout;

void     tl_paint_sweep_layout (const TlSweepModel *model, const TlPaintStyle *style,
                                cairo_t *cr, double width, double height, TlSweepLayout *out);
/* The least height that shows the plot and, under it, the legend whole
 * in two columns: a page gives the chart this much and scrolls. */
double   tl_paint_sweep_min_height (const TlSweepModel *model, const TlPaintStyle *style);
void     tl_sweep_layout_point (const TlSweepLayout *layout, double n, double gflops,
                                double *out_x, double *out_y);
void     tl_paint_sweep        (cairo_t *cr, const TlSweepModel *model,
                                const TlPaintStyle *style, double width, double height);

G_END_DECLS
