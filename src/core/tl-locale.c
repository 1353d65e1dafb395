/* tl-locale.c — messages in the user's language, installed or from a build tree. */
#include "core/tl-locale.h"

#include <locale.h>
#include <glib/gi18n-lib.h>

#include "tl-config.h"

/* the build tree's po/ when the running program lies inside the build tree */
static char *
build_tree_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *root = g_strconcat (TL_BUILD_ROOT, G_DIR_SEPARATOR_S, NULL);
  if (exe == NULL || !g_str_has_prefix (exe, root))
    return NULL;
  char *dir = g_build_filename (TL_BUILD_ROOT, "po", NULL);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return dir;
  g_free (dir);
  return NULL;
}

const char *
tl_locale_dir (void)
{
  static char *dir;
  if (g_once_init_enter (&dir))
    {
      const char *env = g_getenv ("TILELAB_LOCALEDIR");
      char *found = env && *env ? g_strdup (env) : build_tree_dir ();
      g_once_init_leave (&dir, found ? found : g_strdup (TL_LOCALEDIR));
    }
  return dir;
}

void
tl_locale_init (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, tl_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
