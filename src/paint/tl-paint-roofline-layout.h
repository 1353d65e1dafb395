/* tl-paint-roofline-layout.h — where the roofline's plot, axes, legend and
 * caption sit on the picture, and where a point lands on it: shared by the
 * painter (tl-paint-roofline.c), its label placer
 * (tl-paint-roofline-labels.c) and the view's hit test. */
#pragma once

#include <glib.h>
#include <math.h>
#include "paint/tl-paint-util.h"

G_BEGIN_DECLS

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h;
  double x_lo, x_hi;         /* FLOP per byte (log) */
  double y_lo, y_hi;         /* FLOP/s (log) */
  double legend_x, legend_y;
  TlLegendGrid legend;       /* its rows and columns */
  gboolean legend_below;     /* under the plot (a few points on a picture less than
                              * twice as wide as high), not beside it */
  guint title_lines;         /* 1, or 2 where the title is wider than the picture */
  guint limiter_lines;       /* what limits a point: 1 line, 2 or 3 on a narrow page */
  double caption_y;          /* top of the caption lines under the plot */
  double marker_r;           /* device pixels */
} TlRooflineLayout;

/* Where (intensity, flops_per_s) lands on the picture: both axes are
 * logarithmic, FLOP/s grows upwards. */
static inline void
tl_roofline_layout_point (const TlRooflineLayout *lay, double intensity, double flops_per_s,
                          double *out_x, double *out_y)
{
  double tx = log10 (intensity / lay->x_lo) / log10 (lay->x_hi / lay->x_lo);
  double ty = log10 (flops_per_s / lay->y_lo) / log10 (lay->y_hi / lay->y_lo);
  *out_x = lay->plot_x + tx * lay->plot_w;
  *out_y = lay->plot_y + (1.0 - ty) * lay->plot_h;
}

G_END_DECLS
