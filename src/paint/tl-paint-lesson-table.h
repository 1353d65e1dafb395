/* tl-paint-lesson-table.h — the lesson's table: the rung below → the rung.
 *
 * A heading row with the two rungs' short names, then one row per
 * difference: its title, the value before and after, an arrow up or down
 * coloured by whether the change helps, and the change in words, as a
 * factor or as the arrow alone, whichever fits.  A title longer than its
 * column (a narrow page, German) goes on two or three lines, broken at
 * spaces and after hyphens, its row as high as it.  The lesson's page
 * (tl-paint-lesson.c) sizes the table with these and places it.
 */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

/* The table's type, as large as lets every row and every title whole
 * (the change by its short form) fit max_w × max_h, down to the least
 * the back row reads: three quarters of the body's type, never under
 * 14 px nor over the body's type). */
double tl_paint_lesson_table_fit          (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double max_w, double max_h);
/* Titles wrapped in a table of table_w: the largest type down to that
 * least at which no title's piece is cut and every row fits max_h, then
 * fits body_h (the diff leaves: the Source page shows the code). */
double tl_paint_lesson_table_fit_wrapped  (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double table_w, double max_h, double body_h);
/* The table's width at font: every title whole and the change in words
 * where that fits between min_w and max_w. */
double tl_paint_lesson_table_width        (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double font, double min_w, double max_w);
/* The table's width at font with its titles whole and the change an
 * arrow alone. */
double tl_paint_lesson_table_least_width  (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double font);
/* How many of l's rows (from the first) fit max_h under the heading row
 * in a table of table_w at font; their height, heading included, in
 * *height. */
guint  tl_paint_lesson_table_rows_in      (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double font, double table_w, double max_h, double *height);

/* The heading row and l's first rows rows at x, y, w wide, in font. */
void   tl_paint_lesson_table              (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double font, double x, double y, double w, guint rows);

G_END_DECLS
