/* tl-gauss-page.h — Gauss elimination of A step by step: Factor A (on the
 * runner's worker) or open a Gauss record, then play, step and scrub. */
#pragma once

#include <gtk/gtk.h>
#include "lu/tl-lu-recorder.h"
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_GAUSS_PAGE (tl_gauss_page_get_type ())
G_DECLARE_FINAL_TYPE (TlGaussPage, tl_gauss_page, TL, GAUSS_PAGE, GtkBox)

/* factors A with the chosen rung and block size */
void         tl_gauss_page_factor   (TlGaussPage *self);
guint        tl_gauss_page_get_step (TlGaussPage *self);
/* each step's colour range (FALSE), or one for the whole record: as the
 * toolbar's "Colours" choice */
void         tl_gauss_page_set_record_range (TlGaussPage *self, gboolean whole_record);
/* whether "Factor A with" offers kernel_id */
gboolean     tl_gauss_page_can_factor_with (TlGaussPage *self, const char *kernel_id);
/* the record the player shows (the session's), or NULL */
TlLuRecorder *tl_gauss_page_get_record (TlGaussPage *self);
/* ← → Page Up/Down (block steps) Home End Space …; TRUE when used */
gboolean     tl_gauss_page_key      (TlGaussPage *self, guint keyval, GdkModifierType state);
GtkWidget   *tl_gauss_page_get_area (TlGaussPage *self);

G_END_DECLS
