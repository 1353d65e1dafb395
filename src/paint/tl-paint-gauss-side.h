/* tl-paint-gauss-side.h — the Gauss view's side, beside its matrix
 * (tl-paint-gauss.h lays the view out and calls these). */
#pragma once

#include <cairo.h>
#include "view/tl-gauss-frame.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

/* Each block step's time split by phase (panel, row swaps, triangular
 * solve, GEMM update), the frame's step marked, in the box. */
void tl_paint_gauss_chart (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                           double box_x, double box_y, double box_w, double box_h);
/* The height of the chart's bars in a box of box_w × box_h, under its
 * title, legend and unit (0 when there are none). */
double tl_paint_gauss_chart_plot_height (const TlGaussFrame *frame, const TlPaintStyle *style,
                                         double box_w, double box_h);
/* The facts: the record's problem and kernel, the frame's step and what
 * it did, in the box. */
void tl_paint_gauss_facts (cairo_t *cr, const TlGaussFrame *frame, const TlPaintStyle *style,
                           double box_x, double box_y, double box_w, double box_h);
/* The height the facts take in box_w (their lines wrapped as drawn). */
double tl_paint_gauss_facts_height (const TlGaussFrame *frame, const TlPaintStyle *style,
                                    double box_w);

G_END_DECLS
