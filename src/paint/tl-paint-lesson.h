/* tl-paint-lesson.h — "why is rung N faster than N−1?" on one screen.
 *
 * Across the top the question, the answer in numbers and the rung's own
 * words for what changed.  The pictures get the left half of the page
 * (at least 45%, more where the table needs less), the body's whole
 * height: both points on the roofline joined by an arrow (with counters)
 * above the two SM timelines on one time scale (with block records).  On the right the
 * table, the rung below → the rung, each row with an arrow up or down
 * coloured by whether the change helps (a title longer than its column,
 * on a narrow page, on two or three lines), and under it the kernels' bodies
 * as a diff (removed lines tinted red with −, added ones green with +,
 * unchanged stretches folded into one line).  Without pictures the diff
 * takes the left.  What the record lacks is said at the bottom, or on a
 * page of few lines of type (a 16:9 render presenting) under the table,
 * that the pictures take the whole height.
 */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-timeline.h"
#include "record/tl-record.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

/* Where the parts go, in device pixels (w = 0: not drawn). */
typedef struct
{
  double diff_x, diff_y, diff_w, diff_h;
  double table_x, table_y, table_w, table_h;
  guint table_rows;         /* rows shown (the rest did not fit) */
  double roofline_x, roofline_y, roofline_w, roofline_h;
  double timeline_x, timeline_y, timeline_w, timeline_h;
} TlLessonParts;

void     tl_paint_lesson_layout (cairo_t *cr, const TlLesson *lesson, const TlPaintStyle *style,
                                 double width, double height, TlLessonParts *out);
/* The two SM timelines as tl_paint_lesson draws them (their lanes in the
 * lesson's pixels); FALSE when it draws none. */
gboolean tl_paint_lesson_timeline_layout (cairo_t *cr, const TlLesson *lesson, const TlRunRecord *record,
                                          const TlPaintStyle *style, double width, double height,
                                          TlTimelineLayout *out);

/* record: the lesson's record, for the two runs' block records. */
void tl_paint_lesson (cairo_t *cr, const TlLesson *lesson, const TlRunRecord *record,
                      const TlPaintStyle *style, double width, double height);

G_END_DECLS
