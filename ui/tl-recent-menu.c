/* tl-recent-menu.c — the Open menu's last files this app opened. */
#include "tl-recent-menu.h"

static gint
newest_first (gconstpointer a, gconstpointer b)
{
  time_t x = gtk_recent_info_get_modified ((GtkRecentInfo *) a);
  time_t y = gtk_recent_info_get_modified ((GtkRecentInfo *) b);
  return (x < y) - (x > y);
}

void
tl_recent_menu_fill (GMenu *section, GtkRecentManager *manager, const char *action, guint max)
{
  g_return_if_fail (G_IS_MENU (section) && GTK_IS_RECENT_MANAGER (manager) && action != NULL);
  GList *items = g_list_sort (gtk_recent_manager_get_items (manager), newest_first);
  guint n = 0;

  g_menu_remove_all (section);
  for (GList *l = items; l && n < max; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      if (!gtk_recent_info_has_application (info, g_get_application_name ()) || !gtk_recent_info_exists (info))
        continue;
      g_autoptr (GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target_value (item, action, g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_menu_append_item (section, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}
