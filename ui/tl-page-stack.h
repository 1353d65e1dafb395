/* tl-page-stack.h — the window's stack of pages, each asked through TlPage.
 *
 * The window hands the stack what every page gets (the session, the
 * settings, the window's action map, presentation mode) and asks it for
 * what involves all of them: the first page with something to show when a
 * record opens, readying a run, a kernel opened.  What a page points at
 * goes to the others here: a block's tile to every page ("tile-hovered"),
 * a kernel to the page named for it ("show-kernel", which may come up).
 *
 * "hover-text" (const char *text): what the pointer is over on any page,
 *   for the status bar; when a page comes up, what it offers to read
 *   (tl_page_get_hint);
 * "records-changed": the page on show is another, or shows other run
 *   records (tl_page_get_shown_records), for the status bar to name.
 */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_PAGE_STACK (tl_page_stack_get_type ())
G_DECLARE_FINAL_TYPE (TlPageStack, tl_page_stack, TL, PAGE_STACK, GtkStack)

/* each page: the session, the actions it brings (added to map) */
void     tl_page_stack_set_session       (TlPageStack *self, TlSession *session, GActionMap *map);
void     tl_page_stack_bind_settings     (TlPageStack *self, GSettings *settings);
void     tl_page_stack_set_presentation  (TlPageStack *self, gboolean on, gboolean high_contrast);
/* the page on show */
TlPage  *tl_page_stack_get_page          (TlPageStack *self);
/* the page whose picture Export draws for a page without one (Source,
 * Device): the first with something to show and a picture of its own */
TlPage  *tl_page_stack_get_export_fallback (TlPageStack *self);
/* a key for the page on show: its own keys, then Page Up / Page Down
 * (and ← → while presenting) to step; TRUE when used */
gboolean tl_page_stack_key               (TlPageStack *self, guint keyval, GdkModifierType state,
                                          gboolean presenting);
/* brings up the first page that has something to show */
void     tl_page_stack_show_first_with_content (TlPageStack *self);
/* every page shows kernel_id (a user's kernel just opened) */
void     tl_page_stack_show_kernel       (TlPageStack *self, const char *kernel_id);
/* every page readies what a run uses; FALSE with error stops the run */
gboolean tl_page_stack_prepare_run       (TlPageStack *self, GError **error);

G_END_DECLS
