/* tl-paint-lesson-diff.h — the lesson's two kernels as a diff.
 *
 * A heading ("The kernels, 03 → 04: −12 +15 lines", shorter where the
 * column is narrow), then the kernels' bodies line by line in a monospace
 * type: removed lines tinted red with −, added ones green with +,
 * unchanged stretches folded into one line, the indentation every shown
 * line shares left out, a line too long cut in its middle.  What does not
 * fit is counted at the foot (the Source page shows it).  Without a diff
 * the lesson's note says why, in the text's type.
 */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

/* l's diff in x, y, w × h; line_h: a line of the note where there is no
 * diff. */
void tl_paint_lesson_diff (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double x,
                           double y, double w, double h, double line_h);

G_END_DECLS
