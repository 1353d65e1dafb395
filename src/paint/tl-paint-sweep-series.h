/* tl-paint-sweep-series.h — one line of the size sweep: its colour,
 * marker and dash, whether it is faded behind a picked kernel, and the
 * plot's frame that places its points (the sweep's plot, legend and
 * line-end tags all read these). */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-kernel-colors.h"
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
  gboolean legend_tags;           /* its kernels by their tags where names do not fit */
  double legend_type;             /* its type, a share of tl_sweep_legend_style's (0: all of it) */
  gboolean square;                /* every problem is a cube */
} TlSweepLayout;

/* Where (n, gflops) lands in the plot of layout (log–log). */
void     tl_sweep_layout_point (const TlSweepLayout *layout, double n, double gflops,
                                double *out_x, double *out_y);

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

G_END_DECLS
