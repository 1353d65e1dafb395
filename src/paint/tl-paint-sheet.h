/* tl-paint-sheet.h — a listing or a table (view/tl-sheet.h) as a picture:
 * its title, then numbered monospace lines in their colours, or label and
 * value columns.  Text shrinks to fit, down to a size still read from the
 * back of a room; what still does not fit is cut with "…" and the rows
 * left out are counted, never dropped silently. */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "view/tl-sheet.h"

G_BEGIN_DECLS

void tl_paint_sheet (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, double width,
                     double height);

G_END_DECLS
