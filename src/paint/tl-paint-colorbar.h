/* tl-paint-colorbar.h — the legend that says what a colour means. */
#pragma once

#include <cairo.h>
#include "paint/tl-colormap.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef struct
{
  TlColorScale scale;
  const char *label; /* quantity and unit, drawn along the bar; may be NULL */
} TlColorbarModel;

typedef struct
{
  double bar_x, bar_y, bar_w, bar_h; /* the coloured strip */
  double tick_len;
} TlColorbarLayout;

/* Tick values for the scale (nice linear steps, decades for log, 0 and
 * ±decades for symlog), at most max_out. */
guint  tl_colorbar_ticks        (const TlColorScale *scale, double *out, guint max_out);
void   tl_paint_colorbar_layout (const TlColorbarModel *model, const TlPaintStyle *style,
                                 double width, double height, TlColorbarLayout *out);
/* Vertical position of value on the bar (top = vmax). */
double tl_colorbar_layout_y     (const TlColorbarLayout *layout, const TlColorScale *scale,
                                 double value);
/* Width the colorbar wants for its tick labels and title, in device pixels. */
double tl_paint_colorbar_preferred_width (const TlPaintStyle *style);
/* For a painter that puts a colorbar right of its plot: the bar's width
 * (0 when !show), with that and its gap added to *right. */
double tl_paint_colorbar_reserve (const TlPaintStyle *style, gboolean show, double *right);
/* Where that bar goes once the plot is placed: beside it, as tall as it;
 * all 0 when cb_w is 0. */
void   tl_paint_colorbar_place   (const TlPaintStyle *style, double cb_w, double plot_x,
                                  double plot_y, double plot_w, double plot_h,
                                  double *cb_x, double *cb_y, double *cb_h);

void   tl_paint_colorbar        (cairo_t *cr, const TlColorbarModel *model,
                                 const TlPaintStyle *style, double width, double height);

G_END_DECLS
