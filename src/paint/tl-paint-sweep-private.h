/* tl-paint-sweep-private.h — what the sweep's plot, its legend and its
 * line-end tags share (tl-paint-sweep.c, -legend.c, -tags.c). */
#pragma once

#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-sweep.h"

G_BEGIN_DECLS

/* Point i of se has a size and a positive, finite value. */
gboolean tl_sweep_point_ok    (const TlSweepSeries *se, guint i);
/* Series s's colour and marker: its kernel's, or by its index. */
void     tl_sweep_series_look (const TlSweepModel *model, guint s, TlKernelLook *look);
/* Whether series s is not the picked kernel's while one is picked. */
gboolean tl_sweep_series_faded (const TlSweepModel *model, guint s);
/* The colour series s is drawn in: its look's, or faded most of the way
 * to the background when another kernel is picked. */
void     tl_sweep_series_rgb  (const TlSweepModel *model, guint s, const TlPaintStyle *style,
                               double rgb[3]);
/* The line style of machine: solid, dashed, dotted, dash-dot. */
void     tl_sweep_set_dash    (cairo_t *cr, const TlPaintStyle *style, guint machine);

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
/* The legend's entries: the machines' key, then each kernel once. */
guint    tl_sweep_legend_count  (const TlSweepModel *model);
void     tl_sweep_paint_legend  (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                                 const TlPaintStyle *style);

/* The width of the column right of the plot that holds the tags; 0 when
 * no series has one. */
double   tl_sweep_tags_width    (cairo_t *cr, const TlSweepModel *model, const TlPaintStyle *style);
/* The tag ("17", "cuBLAS TF32") of each kernel whose line reaches the
 * largest size, right of the plot at the height of the line's end (or as
 * near as the other tags allow), joined to it by a thin line of its
 * colour; where the tags do not all fit, the references' and the fastest
 * lines' are kept. */
void     tl_sweep_paint_tags    (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                                 const TlPaintStyle *style);

G_END_DECLS
