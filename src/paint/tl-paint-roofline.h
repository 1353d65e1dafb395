/* tl-paint-roofline.h — the roofline: every kernel under the device's roofs.
 *
 * Log–log axes: arithmetic intensity (FLOP per DRAM byte) across,
 * achieved TFLOP/s up.  Flat roofs for the peaks of each kind of math
 * (FP64, FP32, FP64 tensor, TF32, BF16; roofs of equal height share one
 * line and one label), slanted roofs for the measured DRAM (solid) and L2
 * (dashed) bandwidth, each labelled with its number and unit.  One marker
 * per kernel in its colour and marker (tl-kernel-colors.h), labelled with
 * its rung number where that label fits; a legend names every point.  A
 * selected point gets a ring, and the caption under the plot says what
 * limits it ("memory-bound: 93% of DRAM bandwidth").  What the record
 * lacks (no counters, no bandwidth) is said in words, never drawn as 0.
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-util.h"
#include "paint/tl-paint-roofline-layout.h"
#include "view/tl-roofline.h"

G_BEGIN_DECLS


void     tl_paint_roofline_layout (const TlRoofline *model, const TlPaintStyle *style, cairo_t *cr,
                                   double width, double height, TlRooflineLayout *out);
/* The point under (x, y) — within a marker and a half, the nearest — or -1. */
int      tl_roofline_layout_hit (const TlRooflineLayout *layout, const TlRoofline *model,
                                 double x, double y);

/* selected: a point's index to ring and explain, or -1 (the caption then
 * says how to read the picture). */
void     tl_paint_roofline (cairo_t *cr, const TlRoofline *model, int selected,
                            const TlPaintStyle *style, double width, double height);
/* The same with an arrow from point `from` to point `to` (the rung below
 * to the rung), which every label keeps clear of. */
void     tl_paint_roofline_arrow (cairo_t *cr, const TlRoofline *model, int selected, guint from,
                                  guint to, const TlPaintStyle *style, double width, double height);
/* Where that arrow runs, from the edge of one marker's ring to the
 * other's: x0, y0, x1, y1; FALSE where the points are too near for one. */
gboolean tl_roofline_arrow_segment (const TlRooflineLayout *layout, const TlRoofline *model,
                                    guint from, guint to, double seg[4]);

G_END_DECLS
