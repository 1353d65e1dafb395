/* test-gui-signals.c — the app stopped from outside, as from the terminal
 * that started it: Ctrl+C (SIGINT), SIGTERM (a logout) or SIGHUP quits it
 * the way its menu does, through its main loop, with exit status 128 +
 * the signal.  (A second signal while the first is honoured quits at once:
 * test-save and test-cli's /cli/interrupt-twice, where the first can be
 * kept from finishing.)  Runs ui/tilelab beside this test's build folder,
 * --new-window (not handed to a Tilelab running on the session bus);
 * exits 77 (skip) without a display. */
#include <glib.h>
#include <gio/gio.h>
#include <signal.h>
#include <string.h>

static char *app_path;
static char *sample;

/* The CPU time process pid has used, in clock ticks (utime + stime). */
static guint64
cpu_ticks (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid), *stat = NULL;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return 0;
  const char *at = strrchr (stat, ')');
  g_auto (GStrv) fields = g_strsplit (at ? at + 2 : "", " ", 0);
  /* after the name: state is field 0, utime 11, stime 12 */
  if (g_strv_length (fields) < 13)
    return 0;
  return g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10);
}

/* Started, the signal handled, and idle (its window up, nothing to do):
 * no CPU used for half a second. */
static void
wait_started (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/status", pid);
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  gboolean handled = FALSE;
  while (!handled && g_get_monotonic_time () < end)
    {
      g_autofree char *status = NULL;
      g_assert_true (g_file_get_contents (path, &status, NULL, NULL));
      const char *line = strstr (status, "SigCgt:");
      handled = line && (g_ascii_strtoull (line + 7, NULL, 16) & (1ull << (SIGTERM - 1)));
      g_usleep (10000);
    }
  g_assert_true (handled);
  guint64 before = cpu_ticks (pid);
  for (;;)
    {
      g_usleep (G_USEC_PER_SEC / 2);
      guint64 now = cpu_ticks (pid);
      if (now == before || g_get_monotonic_time () > end)
        break;
      before = now;
    }
}

static GSubprocess *
start_app (void)
{
  g_autoptr (GError) error = NULL;
  GSubprocess *p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                     | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                     app_path, "--new-window", sample, NULL);
  g_assert_no_error (error);
  wait_started (g_subprocess_get_identifier (p));
  return p;
}

/* Waits for p's end; its exit status, its stderr in *err. */
static int
wait_exit (GSubprocess *p, char **err)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, err, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  return g_subprocess_get_exit_status (p);
}

static void
test_quits (gconstpointer data)
{
  int signum = GPOINTER_TO_INT (data);
  g_autoptr (GSubprocess) p = start_app ();
  g_subprocess_send_signal (p, signum);
  g_autofree char *err = NULL;
  int status = wait_exit (p, &err);
  g_test_message ("signal %d: exit %d, stderr “%s”", signum, status, err);
  g_assert_cmpint (status, ==, 128 + signum);
  g_assert_null (strstr (err, "stopped at once")); /* by its main loop */
  g_assert_null (strstr (err, "CRITICAL"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_printerr ("no display: skipping\n");
      return 77;
    }
  app_path = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "ui", "tilelab", NULL);
  sample = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "resources", "samples",
                             "seed-002-ones-8x8.mtx", NULL);
  g_test_add_data_func ("/gui-signals/sigint", GINT_TO_POINTER (SIGINT), test_quits);
  g_test_add_data_func ("/gui-signals/sigterm", GINT_TO_POINTER (SIGTERM), test_quits);
  g_test_add_data_func ("/gui-signals/sighup", GINT_TO_POINTER (SIGHUP), test_quits);
  return g_test_run ();
}
