/* tl-paint-util.h — small helpers the painters share: text, ticks, numbers. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

void  tl_paint_background (cairo_t *cr, const TlPaintStyle *style, double width, double height);
void  tl_paint_set_fg     (cairo_t *cr, const TlPaintStyle *style);
/* Outlines a rectangle in the foreground colour at the style's line width
 * (and leaves both set). */
void  tl_paint_frame      (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w,
                           double h);
/* Selects the style's font at size (style units) */
void  tl_paint_set_font   (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold);
/* Draws text with its anchor at (x, y): halign 0 left … 1 right, valign 0
 * top … 1 bottom (of the ink's font extents).  Returns the advance width. */
double tl_paint_text      (cairo_t *cr, double x, double y, double halign, double valign,
                           const char *text);
double tl_paint_text_width (cairo_t *cr, const char *text);

/* How many decimal digits n has (1 for 0). */
int   tl_paint_digits     (guint64 n);
/* "Nice" values (1, 2, 5 × 10^k) covering [lo, hi], at most max_out. */
guint tl_paint_nice_ticks (double lo, double hi, guint target, double *out, guint max_out);
/* Index ticks for a grid of cells: the whole numbers among nice steps
 * from lo to hi (about target of them), each a tick and a label at its
 * cell's centre, plot_x + (i + 0.5 − origin) · cell_px, along the top edge
 * of the plot.  Draws in the current source and font. */
void  tl_paint_index_ticks_top  (cairo_t *cr, const TlPaintStyle *style, double plot_x,
                                 double plot_y, double origin, double cell_px, double lo,
                                 double hi, guint target);
/* The same down the left edge (rows); returns the left end of the labels
 * (plot_x when none were drawn). */
double tl_paint_index_ticks_left (cairo_t *cr, const TlPaintStyle *style, double plot_x,
                                  double plot_y, double origin, double cell_px, double lo,
                                  double hi, guint target);
/* Compact, locale-independent: 3 significant digits, exponent when needed. */
void  tl_paint_format_value (double v, char *buf, gsize size);
/* Times with a unit: "812 µs", "2.91 ms", "1.20 s". */
void  tl_paint_format_ms  (double ms, char *buf, gsize size);
/* Rates with a unit: "94.1 GFLOP/s", "47.2 TFLOP/s". */
void  tl_paint_format_gflops (double gflops, char *buf, gsize size);

/* Colour-blind-safe qualitative palette (Okabe–Ito), index wraps. */
void  tl_paint_series_rgb (guint index, double out_rgb[3]);

G_END_DECLS
