/* tl-paint-sweep-legend.h — the size sweep's legend: the machines' line
 * styles, then each kernel once, beside the plot or under it. */
#pragma once

#include "paint/tl-paint-sweep-series.h"

G_BEGIN_DECLS

/* The legend's type: the plot's in a window; presenting a fifth smaller
 * (never under the window's 12 px), since the tags at the lines' ends
 * name them in the plot's type. */
void     tl_sweep_legend_style  (const TlPaintStyle *style, TlPaintStyle *out);
/* Under the plot, the legend leaves the plot this share of the
 * picture's height at the least (and 8 ems): at 1024×768 a legend of 26
 * names in a 280 px chart left the plot 90 px, its lines a smear. */
#define TL_SWEEP_PLOT_MIN_SHARE 0.4
/* The plot's least height under a legend in a picture height tall. */
double   tl_sweep_plot_floor    (const TlPaintStyle *style, double height);
/* Lays out the legend in out->legend: beside the plot where the names fit
 * whole in beside_w, else under it, width wide, in as many columns as
 * keep the plot half of height, or at least tl_sweep_plot_floor (names
 * then cut, told apart).  avail_h: the plot's and the legend's height.
 * Returns the height it takes under the plot (0 when beside). */
double   tl_sweep_legend_layout (const TlSweepModel *model, const TlPaintStyle *style, cairo_t *cr,
                                 double width, double beside_w, double avail_h, double height,
                                 TlSweepLayout *out);
/* The legend's height under a plot width wide, in the most columns the
 * width takes (names cut to 9 ems at the least; two columns when width
 * is 0). */
double   tl_sweep_legend_under_height (const TlSweepModel *model, const TlPaintStyle *style,
                                       double width);
/* The legend's entries: the machines' key, then each kernel once. */
guint    tl_sweep_legend_count  (const TlSweepModel *model);
void     tl_sweep_paint_legend  (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                                 const TlPaintStyle *style);

G_END_DECLS
