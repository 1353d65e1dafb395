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

/* the same file as GtkRecentManager's (GTK 3: the user data folder) */
static char *
recent_files_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "recently-used.xbel", NULL);
}

static void
add_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  static GMutex lock; /* one writer of ours at a time */
  GFile *file = data;
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *path = recent_files_path ();
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);
  const char *type = info ? g_file_info_get_content_type (info) : NULL;
  g_autofree char *mime = type ? g_content_type_get_mime_type (type) : NULL;

  g_mutex_lock (&lock);
  g_autoptr (GBookmarkFile) recent = g_bookmark_file_new ();
  g_autoptr (GError) error = NULL;
  /* a file there that cannot be read is left as it is */
  if (g_bookmark_file_load_from_file (recent, path, &error)
      || g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_bookmark_file_set_mime_type (recent, uri, mime ? mime : "application/octet-stream");
      /* the application's name and "PRGNAME %u", as GtkRecentManager adds it */
      g_bookmark_file_add_application (recent, uri, NULL, NULL);
      g_autofree char *dir = g_path_get_dirname (path);
      g_mkdir_with_parents (dir, 0700);
      g_bookmark_file_to_file (recent, path, NULL);
    }
  g_mutex_unlock (&lock);
  g_task_return_boolean (task, TRUE);
}

void
tl_recent_add (GFile *file)
{
  g_return_if_fail (G_IS_FILE (file));
  gboolean enabled = TRUE;
  GtkSettings *settings = gtk_settings_get_default ();
  if (settings)
    g_object_get (settings, "gtk-recent-files-enabled", &enabled, NULL);
  if (!enabled)
    return;
  /* the manager watches the file from now on, if it did not yet */
  gtk_recent_manager_get_default ();
  g_autoptr (GTask) task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, add_thread);
}
