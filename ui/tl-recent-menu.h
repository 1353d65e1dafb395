/* tl-recent-menu.h — the Open menu's last files this app opened.
 *
 * The desktop's recent files (recently-used.xbel, GtkRecentManager's)
 * that this application opened and that still exist, newest first, as
 * items of a menu section whose action gets the file's URI.  Both the
 * listing and the adding run off the main loop.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Fills section with at most max items calling action (a static string:
 * "win.open-recent") once the files are listed, on a worker thread; a
 * later call's listing replaces an earlier one's. */
void tl_recent_menu_fill (GMenu *section, const char *action, guint max);

/* Adds file to the desktop's recent files, as gtk_recent_manager_add_item
 * does, but off the main loop: the file (recently-used.xbel) is read,
 * rewritten and fsync'ed on a worker thread — 20 to 60 ms on a busy disk,
 * which GtkRecentManager spends on the main loop — and GtkRecentManager
 * reloads it when its file monitor sees the change. */
void tl_recent_add (GFile *file);

G_END_DECLS
