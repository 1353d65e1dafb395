/* tl-paint-sweep-legend.h — the size sweep's legend: the machines' line
 * styles, then each kernel once, beside the plot or under it. */
#pragma once

#include "paint/tl-paint-sweep-series.h"

G_BEGIN_DECLS

/* The legend's type: the plot's in a window; presenting a fifth smaller
 * (never under the window's 12 px), since the tags at the lines' ends
 * name them in the plot's type. */
void     tl_sweep_legend_style  (const TlPaintStyle *style, TlPaintStyle *out);
/* Lays out the legend in out->legend: beside the plot where the names fit
 * whole in beside_w, else under it, width wide, in as many columns as
 * keep the plot plot_min_h tall (names then cut, told apart).  Returns
 * the height it takes under the plot (0 when beside). */
double   tl_sweep_legend_layout (const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr,
                                 double width, double beside_w, double avail_h, double plot_min_h,
                                 TlSweepLayout *out);
/* The most columns the legend's n entries take under a plot width wide
 * in key's type (names cut to 9 ems at the least); 2 when width is 0. */
guint    tl_sweep_legend_columns_under (const TlPaintStyle *key, guint n, double width);
/* The legend's entries: the machines' key, then each kernel once. */
guint    tl_sweep_legend_count  (const TlSweepModel *model);
void     tl_sweep_paint_legend  (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                                 const TlPaintStyle *style);

G_END_DECLS
