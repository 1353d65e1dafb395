/* tl-switcher-fit.h — the header bar's view switcher names a view whose
 * page has an icon (the lesson's "Why Faster?") in words where the window
 * has room for them, and shows the icon alone where it has not
 * (1024 px in Italian). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Follows window's width from now on; switcher is in its header bar. */
void tl_switcher_fit_follow (GtkWindow *window, GtkStackSwitcher *switcher);

G_END_DECLS
