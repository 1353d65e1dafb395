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
 * half the picture's height (40% at the least), names cut where they
 * must but never cut to the same words.
 */
#pragma once

#include "paint/tl-paint-sweep-series.h"

G_BEGIN_DECLS

void     tl_paint_sweep_layout (const TlSweepModel *model, const TlPaintStyle *style,
                                cairo_t *cr, double width, double height, TlSweepLayout *out);
/* The least height that shows the plot and, under it, the legend in as
 * many columns as width takes (names cut to 9 ems at the least; two
 * columns when width is 0), the plot keeping 40% of it: a page gives the
 * chart this much, or shows it alone where it has not that much room. */
double   tl_paint_sweep_min_height (const TlSweepModel *model, const TlPaintStyle *style,
                                    double width);
void     tl_paint_sweep        (cairo_t *cr, const TlSweepModel *model,
                                const TlPaintStyle *style, double width, double height);

G_END_DECLS
