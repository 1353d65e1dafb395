/* tl-paint-lesson.h — "why is rung N faster than N−1?" on one screen.
 *
 * Across the top the question, the answer in numbers and the rung's own
 * words for what changed.  On the left the kernels' bodies as a diff
 * (removed lines tinted red with −, added ones green with +, unchanged
 * stretches folded into one line).  On the right the table, the rung
 * below → the rung, each row with an arrow up or down coloured by whether
 * the change helps; under it both points on the roofline joined by an
 * arrow (with counters) and the two SM timelines on one time scale (with
 * block records).  What the record lacks is said at the bottom.
 */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "record/tl-record.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

/* record: the lesson's record, for the two runs' block records. */
void tl_paint_lesson (cairo_t *cr, const TlLesson *lesson, const TlRunRecord *record,
                      const TlPaintStyle *style, double width, double height);

G_END_DECLS
