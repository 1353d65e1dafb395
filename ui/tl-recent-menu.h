/* tl-recent-menu.h — the Open menu's last files this app opened.
 *
 * The desktop's recent files (GtkRecentManager) that this application
 * opened and that still exist, newest first, as items of a menu section
 * whose action gets the file's URI.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* fills section with at most max items calling action ("win.open-recent") */
void tl_recent_menu_fill (GMenu *section, GtkRecentManager *manager, const char *action, guint max);

G_END_DECLS
