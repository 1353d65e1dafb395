/* tl-paint-sheet.h — a listing or a table (view/tl-sheet.h) as a picture:
 * its title, then numbered monospace lines in their colours (a line the
 * compiler found wrong on a red band, as the Source page marks it), or
 * headings, label and value columns and sentences.  Text shrinks to fit,
 * never under TL_PAINT_SHEET_LEAST of the style's size (still read from the
 * back of a room); what still does not fit is cut with "…" and the rows
 * left out are counted, never dropped silently. */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "view/tl-sheet.h"

G_BEGIN_DECLS

#define TL_PAINT_SHEET_LEAST 0.8

void tl_paint_sheet (cairo_t *cr, const TlSheet *sheet, const TlPaintStyle *style, double width,
                     double height);

G_END_DECLS
