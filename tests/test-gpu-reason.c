/* test-gpu-reason.c — why there is no GPU is said in the reader's language:
 * the door's reason (gpu/tl-gpu-stub.c marks "Tilelab was built without
 * CUDA …" N_()) goes through gettext where tl_gpu_error_set says "No usable
 * CUDA GPU: %s".  A catalogue made here, with msgfmt, translates whatever
 * reason this build gives; the error must carry its translation.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "core/tl-error.h"
#include "device/tl-gpu-session.h"

#define TRANSLATED "kein CUDA in diesem Build (Test)"

/* a msgid as a .po file quotes it */
static char *
po_quote (const char *text)
{
  GString *s = g_string_new ("\"");
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}

/* dir/de/LC_MESSAGES/tilelab.mo translating msgid to TRANSLATED */
static void
make_catalogue (const char *dir, const char *msgid)
{
  g_autofree char *messages = g_build_filename (dir, "de", "LC_MESSAGES", NULL);
  g_assert_cmpint (g_mkdir_with_parents (messages, 0700), ==, 0);
  g_autofree char *po = g_build_filename (dir, "de.po", NULL);
  g_autofree char *quoted = po_quote (msgid);
  g_autofree char *text = g_strdup_printf ("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
                                           "msgid %s\nmsgstr \"" TRANSLATED "\"\n",
                                           quoted);
  g_assert_true (g_file_set_contents (po, text, -1, NULL));
  g_autofree char *mo = g_build_filename (messages, GETTEXT_PACKAGE ".mo", NULL);
  const char *argv[] = { "msgfmt", "-o", mo, po, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_unlink (po);
}

static void
remove_catalogue (const char *dir)
{
  g_autofree char *mo = g_build_filename (dir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_autofree char *messages = g_path_get_dirname (mo);
  g_autofree char *de = g_path_get_dirname (messages);
  g_unlink (mo);
  g_rmdir (messages);
  g_rmdir (de);
  g_rmdir (dir);
}

static void
test_reason_translated (void)
{
  int count = 0;
  g_assert_cmpint (tl_gpu_device_count (&count), !=, TL_GPU_OK);
  g_autofree char *reason = g_strdup (tl_gpu_last_message ());
  g_assert_true (reason != NULL && *reason != '\0');

  g_autofree char *dir = g_dir_make_tmp ("tilelab-reason-XXXXXX", NULL);
  g_assert_nonnull (dir);
  make_catalogue (dir, reason);
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  g_autoptr (GError) error = NULL;
  g_assert_false (tl_gpu_error_set (&error, TL_GPU_NO_DEVICE, "gemm-01-naive"));
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  if (strstr (error->message, TRANSLATED) == NULL)
    g_error ("the reason “%s” is not translated: “%s”", reason, error->message);
  remove_catalogue (dir);
}

int
main (int argc, char **argv)
{
  /* no device: the stub answers (behind the loader in a CUDA build) */
  g_unsetenv ("TL_GPU_STUB_DEVICES");
  g_setenv ("TILELAB_GPU_BACKEND", "/nonexistent/libtilelab-gpu-cuda.so", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-reason/translated", test_reason_translated);
  return g_test_run ();
}
