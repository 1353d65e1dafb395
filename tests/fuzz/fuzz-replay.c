/* fuzz-replay.c — runs a fuzz harness over its regression corpus.
 *
 *   fuzz-replay-NAME DIR|FILE…
 *
 * Linked with a harness instead of libFuzzer, so `meson test` replays
 * tests/fuzz/corpus/NAME/ (crashers found so far among them) with any
 * compiler.  A crash, an abort or a sanitizer report fails the test. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <string.h>

/* the harness's entry points (fuzz-common.h defines the second) */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

static int
by_name (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
replay_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr (GError) error = NULL;
  if (!g_file_get_contents (path, &data, &len, &error))
    {
      g_printerr ("fuzz-replay: %s\n", error->message);
      return 1;
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
  return 0;
}

int
main (int argc, char **argv)
{
  LLVMFuzzerInitialize (&argc, &argv);
  int failures = 0, files = 0;
  for (int i = 1; i < argc; i++)
    {
      if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          failures += replay_file (argv[i]);
          files++;
          continue;
        }
      g_autoptr (GDir) dir = g_dir_open (argv[i], 0, NULL);
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;
      while (dir && (name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (argv[i], name, NULL));
      g_ptr_array_sort (names, by_name);
      for (guint k = 0; k < names->len; k++)
        {
          failures += replay_file (names->pdata[k]);
          files++;
        }
    }
  if (files == 0)
    {
      g_printerr ("fuzz-replay: no corpus files given\n");
      return 1;
    }
  g_print ("fuzz-replay: %d inputs, none crashed\n", files);
  return failures ? 1 : 0;
}
