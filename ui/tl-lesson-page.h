/* tl-lesson-page.h — "why is rung N faster than N−1?": a rung beside the rung below.
 *
 * The page draws tl-paint-lesson.h for the rung chosen of a GEMM record
 * of the session whose GPU ladder has two rungs (tl-record-choice.h):
 * the kernels as a diff, the table before → after, the roofline and the
 * timelines.  Page Up / Page Down (a clicker's keys, and ← → presenting)
 * walk the ladder one rung at a time; Enter shows the rung's source. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_LESSON_PAGE (tl_lesson_page_get_type ())
G_DECLARE_FINAL_TYPE (TlLessonPage, tl_lesson_page, TL, LESSON_PAGE, GtkBox)

/* Shows kernel_id's lesson (a rung of the record with one below it);
 * FALSE, and nothing changes, for any other kernel. */
gboolean    tl_lesson_page_select_rung (TlLessonPage *self, const char *kernel_id);
/* The rung shown and the one below it, or NULL. */
const char *tl_lesson_page_get_rung   (TlLessonPage *self);
const char *tl_lesson_page_get_rung_below (TlLessonPage *self);

G_END_DECLS
