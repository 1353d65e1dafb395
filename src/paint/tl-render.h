/* tl-render.h — Tilelab's pictures without a display: PNG, SVG, PDF.
 *
 * The same painters the app uses draw a run record (or a Gauss step
 * record) onto a cairo image, SVG or PDF surface, as a request
 * (view/tl-render-request.h: the view, its options and its input) asks.
 * `tilelab-cli render` is a thin shell around this; tests call it directly.
 *
 * Type and lines grow with the canvas (a 1600×900 picture uses 18-unit
 * labels), so a picture reads from the back of a lecture hall;
 * presentation mode enlarges type, lines and gaps 1.6 times, as the app's
 * presentation mode does (TL_PAINT_PRESENTATION_SCALE), and high contrast
 * draws black on white.
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-text-boxes.h"
#include "view/tl-render-request.h"

G_BEGIN_DECLS

/* The style render uses for a canvas of width × height units. */
void     tl_render_style_init (TlPaintStyle *style, const TlRenderOptions *options,
                               double width, double height, double scale);

/* Draws the view into cr, on a width × height (device units) canvas.
 * Errors (TL_ERROR_INVALID): the view needs what the input lacks (no run
 * record, no Gauss record, no matrices), an unknown kernel, a kernel
 * without block records, a step out of range. */
gboolean tl_render_draw (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *options,
                         const TlPaintStyle *style, double width, double height, GError **error);

/* Renders to path (format from its extension), atomically: nothing is
 * left behind on error. */
gboolean tl_render_to_file (const TlRenderInput *input, const TlRenderOptions *options,
                            const char *path, GError **error);
/* The same, collecting the texts drawn into text_boxes (NULL: none), and
 * stopped with G_IO_ERROR_CANCELLED (nothing left behind) when cancellable
 * is cancelled before or while the picture is written. */
gboolean tl_render_to_file_with (const TlRenderInput *input, const TlRenderOptions *options,
                                 const char *path, TlPaintTextBoxes *text_boxes,
                                 GCancellable *cancellable, GError **error);

G_END_DECLS
