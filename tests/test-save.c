/* test-save.c — saves that are whole or nothing: symbolic links written
 * through, FIFOs and devices refused, "-" for standard output, the
 * temporary removed when a save is cancelled or the file grows past
 * ulimit -f, permissions kept. */
#include "core/tl-error.h"
#include "core/tl-save.h"
#include "core/tl-stop-signals.h"
#include "io/tl-io.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io-test-util.h"

static int
by_name (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The names in dir, sorted, one string ("a b c"): a temporary left
 * behind shows up as ".NAME.tmp-…". */
static char *
dir_listing (const char *dir)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, by_name);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
test_symlink_written_through (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *sub = g_build_filename (dir, "data", NULL);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_autofree char *target = g_build_filename (sub, "a.csv", NULL);
  g_autofree char *link = g_build_filename (dir, "link.csv", NULL);
  g_assert_true (g_file_set_contents (target, "9\n", -1, NULL));
  g_assert_cmpint (symlink ("data/a.csv", link), ==, 0); /* relative, from its own folder */

  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_INT32, 2, 3);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_matrix_save (m, link, TL_FORMAT_AUTO, &error));
  g_assert_no_error (error);

  struct stat st;
  g_assert_cmpint (lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode)); /* still a link */
  g_autoptr (TlMatrix) back = tl_matrix_load (target, TL_FORMAT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_true (tl_matrix_equal (m, back));
  g_autofree char *listing = dir_listing (sub);
  g_assert_cmpstr (listing, ==, "a.csv");
  io_test_rmdir (sub);
  io_test_rmdir (dir);
}

static void
test_non_regular_refused (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *fifo = g_build_filename (dir, "pipe.csv", NULL);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 2, 2);
  g_autoptr (GError) error = NULL;

  /* a FIFO (no reader: opening it to write would block) */
  g_assert_false (tl_matrix_save (m, fifo, TL_FORMAT_AUTO, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  struct stat st;
  g_assert_cmpint (lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  /* a device: as root, renaming over /dev/null would replace it */
  g_assert_false (tl_matrix_save (m, "/dev/null", TL_FORMAT_CSV, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/dev/null: not a regular file"));
  g_clear_error (&error);
  g_assert_cmpint (stat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  /* a folder, and a link to a FIFO */
  g_assert_false (tl_matrix_save (m, dir, TL_FORMAT_CSV, &error));
  g_assert_nonnull (strstr (error->message, "is a folder"));
  g_clear_error (&error);
  g_autofree char *link = g_build_filename (dir, "to-pipe.csv", NULL);
  g_assert_cmpint (symlink ("pipe.csv", link), ==, 0);
  g_assert_false (tl_matrix_save (m, link, TL_FORMAT_AUTO, &error));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);

  g_autofree char *listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "pipe.csv to-pipe.csv");
  io_test_rmdir (dir);
}

static void
test_stdout (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
      tl_matrix_set (m, 0, 0, 1.5);
      tl_matrix_set (m, 0, 1, -2);
      tl_matrix_set (m, 1, 0, 0.1);
      tl_matrix_set (m, 1, 1, 1e300);
      g_assert_true (tl_matrix_save (m, "-", TL_FORMAT_CSV, NULL));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("1.5,-2.0\n0.1,1e+300\n");
}

/* A cancelled save stops at its next buffer, removes the temporary and
 * leaves the old file as it was. */
static void
test_cancelled (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "keep.txt", NULL);
  g_assert_true (g_file_set_contents (path, "1 1 int32\n7\n", -1, NULL));
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 300, 400); /* ~2 MiB of text */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_cancellable_cancel (cancellable);
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_matrix_save_with (m, path, TL_FORMAT_AUTO, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "1 1 int32\n7\n");
  g_autofree char *listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "keep.txt");

  /* a load polls the same way */
  g_clear_error (&error);
  g_autoptr (TlMatrix) none = tl_matrix_load_with (path, TL_FORMAT_AUTO, cancellable, NULL,
                                                   &error);
  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  io_test_rmdir (dir);
}

/* Past ulimit -f, with SIGXFSZ ignored as the programs do: "File too
 * large", the temporary removed. */
static void
test_file_too_large (void)
{
  if (g_test_subprocess ())
    {
      signal (SIGXFSZ, SIG_IGN);
      struct rlimit rl = { 100000, 100000 };
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &rl), ==, 0);
      g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT64, 200, 100); /* 160 KB */
      g_autoptr (GError) error = NULL;
      const char *out = g_getenv ("TL_TEST_SAVE_PATH");
      g_assert_false (tl_matrix_save (m, out, TL_FORMAT_AUTO, &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_IO);
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      return;
    }
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "big.npy", NULL);
  g_setenv ("TL_TEST_SAVE_PATH", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("TL_TEST_SAVE_PATH");
  g_test_trap_assert_passed ();
  g_autofree char *listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "");
  io_test_rmdir (dir);
}

static void
test_permissions (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "m.mtx", NULL);
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_FLOAT32, 3, 3);
  mode_t mask = umask (022);
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, NULL));
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644); /* a new file: 0666 less the umask */
  g_assert_cmpint (chmod (path, 0640), ==, 0);
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, NULL));
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640); /* a replaced one keeps its own */
  umask (mask);

  /* a folder we cannot write in is named */
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_save_contents ("/proc/x.csv", "1\n", 2, NULL, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "cannot write in the folder /proc"));
  io_test_rmdir (dir);
}

static void
first_stop_ignored (int signum, gpointer data)
{
  /* the work goes on, as a step that polls nothing would */
}

/* Runs this test in a subprocess that saves over out.csv ("kept") in a
 * folder of its own and dies meanwhile: afterwards the folder holds
 * out.csv alone, as it was. */
static void
trap_save_killed (const char *stderr_pattern)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  g_assert_true (g_file_set_contents (path, "kept\n", -1, NULL));
  g_setenv ("TL_TEST_SAVE_DIR", dir, TRUE);
  g_test_trap_subprocess (NULL, 15 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr (stderr_pattern);
  g_autofree char *listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "out.csv");
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "kept\n");
  io_test_rmdir (dir);
}

/* A second Ctrl+C while the first is still being honoured: the program
 * exits at once, and the temporary of the save in flight goes with it —
 * the file it would have replaced stays as it was. */
static void
test_abandoned (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = g_build_filename (g_getenv ("TL_TEST_SAVE_DIR"), "out.csv", NULL);
      TlSave *save = tl_save_begin (path, NULL, NULL);
      g_assert_nonnull (save);
      fputs ("1,2\n", tl_save_stream (save));
      fflush (tl_save_stream (save));
      tl_stop_signals_watch (first_stop_ignored, NULL);
      raise (SIGINT);
      for (int tries = 0; tries < 10000 && tl_stop_signals_caught () == 0; tries++)
        g_usleep (1000);
      g_assert_cmpint (tl_stop_signals_caught (), ==, SIGINT);
      raise (SIGINT);
      g_usleep (20 * G_USEC_PER_SEC); /* the watcher exits meanwhile */
      return;
    }
  trap_save_killed ("*stopped at once; no partial file left*");
}

/* A name of 254 bytes is a valid name, though ".NAME.tmp-XXXXXX" beside
 * it would not be: the temporary's name is cut short, and it saves. */
static void
test_long_name (void)
{
  g_autofree char *dir = io_test_tmpdir ();
  g_autofree char *name = g_strnfill (250, 'n');
  g_autofree char *file = g_strconcat (name, ".csv", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (TlMatrix) m = io_test_random (TL_DTYPE_INT32, 2, 3);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_matrix_save (m, path, TL_FORMAT_AUTO, &error));
  g_assert_no_error (error);
  g_autofree char *listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, file);
  io_test_rmdir (dir);
}

/* A signal that ends the program without a clean stop (kill -USR1, a
 * SIGALRM): it still ends it, but the temporary goes first. */
static void
test_fatal_signal (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *path = g_build_filename (g_getenv ("TL_TEST_SAVE_DIR"), "out.csv", NULL);
      tl_stop_signals_watch (first_stop_ignored, NULL);
      TlSave *save = tl_save_begin (path, NULL, NULL);
      g_assert_nonnull (save);
      fputs ("1,2\n", tl_save_stream (save));
      fflush (tl_save_stream (save));
      raise (SIGUSR1);
      g_assert_not_reached ();
    }
  trap_save_killed ("*");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/save/symlink-written-through", test_symlink_written_through);
  g_test_add_func ("/save/non-regular-refused", test_non_regular_refused);
  g_test_add_func ("/save/stdout", test_stdout);
  g_test_add_func ("/save/cancelled", test_cancelled);
  g_test_add_func ("/save/file-too-large", test_file_too_large);
  g_test_add_func ("/save/permissions", test_permissions);
  g_test_add_func ("/save/abandoned", test_abandoned);
  g_test_add_func ("/save/long-name", test_long_name);
  g_test_add_func ("/save/fatal-signal", test_fatal_signal);
  return g_test_run ();
}
