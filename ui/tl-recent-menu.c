/* tl-recent-menu.c — the Open menu's last files this app opened. */
#include "tl-recent-menu.h"

#include <glib/gstdio.h>

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

/* ---- the menu, listed off the main loop --------------------------------------- */

typedef struct
{
  char *uri, *name;
  gint64 modified;
} RecentEntry;

static void
recent_entry_free (RecentEntry *e)
{
  g_free (e->uri);
  g_free (e->name);
  g_free (e);
}

static int
newest_first (gconstpointer a, gconstpointer b)
{
  gint64 x = (*(RecentEntry *const *) a)->modified, y = (*(RecentEntry *const *) b)->modified;
  return (x < y) - (x > y);
}

/* A local file that is gone is left out (a remote one is kept, as
 * gtk_recent_info_exists does). */
static gboolean
entry_exists (const char *uri)
{
  g_autofree char *path = g_filename_from_uri (uri, NULL, NULL);
  return path == NULL || g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The menu's entries: recently-used.xbel read and its files checked here,
 * where GtkRecentManager's list (a GtkRecentInfo for every entry) and a
 * stat of each file took 8 ms of the main loop for 700 entries. */
static void
list_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  guint max = GPOINTER_TO_UINT (data);
  g_autofree char *path = recent_files_path ();
  g_autoptr (GBookmarkFile) recent = g_bookmark_file_new ();
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) recent_entry_free);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) recent_entry_free);
  const char *app = g_get_application_name ();
  if (g_bookmark_file_load_from_file (recent, path, NULL))
    {
      g_auto (GStrv) uris = g_bookmark_file_get_uris (recent, NULL);
      for (guint i = 0; uris[i]; i++)
        if (g_bookmark_file_has_application (recent, uris[i], app, NULL))
          {
            RecentEntry *e = g_new0 (RecentEntry, 1);
            GDateTime *when = g_bookmark_file_get_modified_date_time (recent, uris[i], NULL);
            e->uri = g_strdup (uris[i]);
            e->modified = when ? g_date_time_to_unix (when) : 0;
            g_ptr_array_add (all, e);
          }
    }
  g_ptr_array_sort (all, newest_first);
  for (guint i = 0; i < all->len && out->len < max; i++)
    {
      RecentEntry *e = g_ptr_array_index (all, i);
      if (!entry_exists (e->uri))
        continue;
      g_autoptr (GFile) file = g_file_new_for_uri (e->uri);
      e->name = g_file_get_basename (file);
      g_ptr_array_add (out, g_ptr_array_steal_index (all, i--));
    }
  g_ptr_array_unref (all);
  g_task_return_pointer (task, out, (GDestroyNotify) g_ptr_array_unref);
}

static void
listed_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GMenu *section = G_MENU (source);
  const char *action = data;
  g_autoptr (GPtrArray) entries = g_task_propagate_pointer (G_TASK (result), NULL);
  /* only the newest listing counts */
  if (entries == NULL || g_object_get_data (G_OBJECT (section), "tl-recent-listing") != result)
    return;
  g_object_set_data (G_OBJECT (section), "tl-recent-listing", NULL);
  g_menu_remove_all (section);
  for (guint i = 0; i < entries->len; i++)
    {
      RecentEntry *e = g_ptr_array_index (entries, i);
      g_autofree char *name = g_filename_display_name (e->name ? e->name : e->uri);
      g_autoptr (GMenuItem) item = g_menu_item_new (name, NULL);
      g_menu_item_set_action_and_target_value (item, action, g_variant_new_string (e->uri));
      g_menu_append_item (section, item);
    }
}

void
tl_recent_menu_fill (GMenu *section, const char *action, guint max)
{
  g_return_if_fail (G_IS_MENU (section) && action != NULL);
  /* (action: a static string, as "win.open-recent" is) */
  g_autoptr (GTask) task = g_task_new (section, NULL, listed_cb, (gpointer) action);
  g_task_set_task_data (task, GUINT_TO_POINTER (max), NULL);
  g_object_set_data (G_OBJECT (section), "tl-recent-listing", task);
  g_task_run_in_thread (task, list_thread);
}
