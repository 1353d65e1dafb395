/* tl-lesson-page.h — "why is rung N faster than N−1?": a rung beside the rung below.
 *
 * The page draws tl-paint-lesson.h for the rung chosen of a GEMM record
 * of the session whose GPU ladder has two rungs (tl-record-choice.h):
 * the kernels as a diff, the table before → after, the roofline and the
 * timelines.  Page Up / Page Down (a clicker's keys, and ← → presenting)
 * walk the ladder one rung at a time; Enter shows the rung's source.
 * The numbers show at once; the diff of the two kernels is made on a
 * worker and drawn when it is done (a step meanwhile drops it). */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"
#include "view/tl-lesson.h"

G_BEGIN_DECLS

#define TL_TYPE_LESSON_PAGE (tl_lesson_page_get_type ())
G_DECLARE_FINAL_TYPE (TlLessonPage, tl_lesson_page, TL, LESSON_PAGE, GtkBox)

/* Shows kernel_id's lesson (a rung of the record with one below it);
 * FALSE, and nothing changes, for any other kernel. */
gboolean    tl_lesson_page_select_rung (TlLessonPage *self, const char *kernel_id);
/* The rung shown and the one below it, or NULL. */
const char *tl_lesson_page_get_rung   (TlLessonPage *self);
const char *tl_lesson_page_get_rung_below (TlLessonPage *self);
/* What the page draws, or NULL. */
const TlLesson *tl_lesson_page_get_lesson (TlLessonPage *self);
/* The rung's diff is still being made. */
gboolean    tl_lesson_page_is_busy (TlLessonPage *self);

G_END_DECLS
