/* tl-help-overlay.h — the keyboard shortcuts window fits a 1024-px screen:
 * GTK 3 sets each shortcut's words on one line, and the longest (the
 * views', the Escape key's; longer still in Serbian) made the window
 * wider than the screen, its second column's keys and words cut. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The shortcuts' words in overlay wrap at a width a column can keep. */
void tl_help_overlay_wrap (GtkShortcutsWindow *overlay);

G_END_DECLS
