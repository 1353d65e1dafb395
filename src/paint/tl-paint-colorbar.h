/* tl-paint-colorbar.h — the legend that says what a colour means.
 *
 * A vertical strip of the colormap with tick labels, and along it, read
 * bottom to top, the quantity ("value", "block time (µs)") and a note on
 * how cells were pooled ("each cell: max |value| of 32×32").  Under the
 * strip, swatches for the colours that are not on it: the mask colour of a
 * log scale ("≤ 0") and magenta for NaN.
 *
 * Horizontal (matplotlib's orientation="horizontal"), for a plot in a
 * narrow panel: the strip under the plot, low values left, tick labels
 * under it, then the quantity and the note; the swatches at its right end.
 */
#pragma once

#include <cairo.h>
#include "view/tl-colormap.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef struct
{
  TlColorScale scale;
  const char *label;       /* quantity and unit, drawn along the bar, shorter wordings
                              after it a line each (tl_paint_text_fit_choice); may be NULL */
  const char *note;        /* a second line along the bar; may be NULL */
  gboolean show_mask;      /* a swatch for the values the scale masks */
  const char *mask_label;  /* its text; NULL: "≤ 0" */
  gboolean show_nan;       /* a swatch for NaN */
  gboolean horizontal;     /* the strip across, labels under it */
  gboolean label_beside;   /* horizontal: the label on the strip's line, right of it, rather
                              than a line of its own under the ticks (see
                              tl_paint_colorbar_label_beside_fits) */
} TlColorbarModel;

typedef struct
{
  double bar_x, bar_y, bar_w, bar_h; /* the coloured strip */
  double tick_len;
  double swatch_x, swatch_y;         /* the first swatch: below a vertical bar, right of a
                                        horizontal one */
} TlColorbarLayout;

/* Tick values for the scale (nice linear steps, decades for log, 0 and
 * ±decades for symlog), at most max_out, without regard to their room. */
guint  tl_colorbar_ticks        (const TlColorScale *scale, double *out, guint max_out);
/* The ticks the painter draws on a width × height colorbar: those of
 * tl_colorbar_ticks whose labels keep clear of each other. */
guint  tl_paint_colorbar_ticks  (const TlColorbarModel *model, const TlPaintStyle *style,
                                 double width, double height, double *out, guint max_out);
/* Whether a horizontal bar can put its label right of the strip: one line
 * of text (a label, no note) and no swatches to take that place. */
gboolean tl_paint_colorbar_label_beside_fits (const TlColorbarModel *model);
void   tl_paint_colorbar_layout (const TlColorbarModel *model, const TlPaintStyle *style,
                                 double width, double height, TlColorbarLayout *out);
/* Vertical position of value on the bar (top = vmax). */
double tl_colorbar_layout_y     (const TlColorbarLayout *layout, const TlColorScale *scale,
                                 double value);
/* Horizontal position of value on a horizontal bar (left = vmin). */
double tl_colorbar_layout_x     (const TlColorbarLayout *layout, const TlColorScale *scale,
                                 double value);
/* Width the colorbar wants for its tick labels, label and note, in device pixels:
 * an estimate for any model … */
double tl_paint_colorbar_preferred_width (const TlPaintStyle *style);
/* … and measured for this one (its widest tick label, its swatches, one
 * or two lines along the bar). */
double tl_paint_colorbar_fit_width (const TlColorbarModel *model, const TlPaintStyle *style);
/* The height a horizontal colorbar wants: strip, tick labels, label and note. */
double tl_paint_colorbar_fit_height (const TlColorbarModel *model, const TlPaintStyle *style);
/* The width of a horizontal colorbar whose strip is strip_w long (its end
 * labels' room and its swatches added); the strip starts at *strip_x. */
double tl_paint_colorbar_across_width (const TlColorbarModel *model, const TlPaintStyle *style,
                                       double strip_w, double *strip_x);
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
