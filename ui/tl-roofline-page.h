/* tl-roofline-page.h — the record's kernels under the device's roofs.
 *
 * One point per GPU kernel with hardware counters (tl-paint-roofline.h).
 * A click selects a point and names what limits it; Page Up / Page Down
 * (and the clicker's ← →) walk the ladder point by point; the buttons,
 * Enter or a double click open the selected rung's source or launch facts.
 *
 * The buttons point at the kernel with the page to show it on, "source"
 * or "device" ("show-kernel", tl-page.h). */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_ROOFLINE_PAGE (tl_roofline_page_get_type ())
G_DECLARE_FINAL_TYPE (TlRooflinePage, tl_roofline_page, TL, ROOFLINE_PAGE, GtkBox)

/* Selects kernel_id's point (NULL or a kernel without one: none). */
void        tl_roofline_page_select_kernel (TlRooflinePage *self, const char *kernel_id);
/* The selected point's kernel, or NULL. */
const char *tl_roofline_page_get_selected (TlRooflinePage *self);
guint       tl_roofline_page_get_n_points (TlRooflinePage *self);

G_END_DECLS
