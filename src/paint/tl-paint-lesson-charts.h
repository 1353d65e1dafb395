/* tl-paint-lesson-charts.h — the lesson's pictures of the rung below and
 * the rung.
 *
 * The roofline with both rungs' points (their counters) joined by an
 * arrow from the rung below to the rung; the two rungs' SM timelines
 * (their block records) stacked on one time scale, coloured by wave, the
 * waves and the tail left out where the column is too narrow for their
 * labels.
 */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-roofline.h"
#include "paint/tl-paint-style.h"
#include "paint/tl-paint-timeline.h"
#include "record/tl-record.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

/* l's roofline (l->roofline not NULL) in x, y, w × h. */
void     tl_paint_lesson_roofline         (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double x, double y, double w, double h);
/* Its layout as tl_paint_lesson_roofline draws it, in its w × h. */
void     tl_paint_lesson_roofline_layout  (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                           double w, double h, TlRooflineLayout *out);
/* The two rungs' timelines from record in x, y, w × h; nothing where a
 * rung has no block records. */
void     tl_paint_lesson_timelines        (cairo_t *cr, const TlLesson *l, const TlRunRecord *record,
                                           const TlPaintStyle *style, double x, double y, double w,
                                           double h);
/* Their layout as tl_paint_lesson_timelines draws them (the lanes in the
 * page's pixels); FALSE when it draws none (w ≤ 0, no block records). */
gboolean tl_paint_lesson_timelines_layout (const TlLesson *l, const TlRunRecord *record,
                                           const TlPaintStyle *style, double x, double y, double w,
                                           double h, TlTimelineLayout *out);

G_END_DECLS
