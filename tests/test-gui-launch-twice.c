/* test-gui-launch-twice.c — `tilelab RECORD.json` while Tilelab runs: the
 * record opens in the running window, beside the records already open
 * there, and the second launch exits; `tilelab --new-window` opens a window
 * of its own.  The running app is this test's (the desktop app's
 * constructor), the second launch is ui/tilelab beside this test's build
 * folder, both on a private session bus (GTestDBus).  Exits 77 (skip)
 * without a display or without dbus-daemon. */
#include "gui-test-util.h"
#include "tl-session.h"

static TlApplication *app;
static TlWindow *win;
static char *app_path;
static char *display; /* GTestDBus unsets DISPLAY: the second launch gets it back */
/* the private session bus; kept to the end (its dispose waits for the
 * connection GTK still holds) */
static GTestDBus *bus;

static char *
record_path (const char *name)
{
  return g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", name, NULL);
}

static void
subprocess_done_cb (GObject *source, GAsyncResult *result, gpointer done)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) done = TRUE;
}

static gboolean
is_true (gpointer flag)
{
  return *(gboolean *) flag;
}

/* Starts ui/tilelab ARGS… and runs this app's main loop (which answers the
 * second launch over D-Bus) until it exits or seconds pass: its exit
 * status, or -1 when it still ran (then it is stopped). */
static int
launch_and_wait (const char *const *args, double seconds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_strv_builder_add (argv, app_path);
  g_strv_builder_addv (argv, (const char **) args);
  g_auto (GStrv) command = g_strv_builder_end (argv);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  if (display != NULL)
    g_subprocess_launcher_setenv (launcher, "DISPLAY", display, TRUE);
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (launcher, (const char *const *) command, &error);
  g_assert_no_error (error);
  gboolean done = FALSE;
  g_subprocess_wait_async (p, NULL, subprocess_done_cb, &done);
  if (!gui_test_wait_until (is_true, &done, seconds))
    {
      g_subprocess_force_exit (p);
      gui_test_wait_until (is_true, &done, 10);
      return -1;
    }
  return g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : -1;
}

static gboolean
has_lu_record (gpointer data)
{
  return tl_session_get_lu_run (tl_window_get_session (win)) != NULL && gui_test_window_settled (win);
}

/* `tilelab lu.json` with a GEMM record open: one window, both records */
static void
test_second_launch_opens_here (void)
{
  g_autofree char *gemm = record_path ("h200-gemm-1000x500x1000.json");
  g_autofree char *lu = record_path ("h200-lu-02-blocked-96.json");
  gui_test_open_doc_record (win, "h200-gemm-1000x500x1000.json");
  g_assert_null (tl_session_get_lu_run (tl_window_get_session (win)));

  const char *args[] = { lu, NULL };
  int status = launch_and_wait (args, 60);
  g_test_message ("second launch: exit %d", status);
  g_assert_cmpint (status, ==, 0); /* -1: it opened a window of its own */
  g_assert_true (gui_test_wait_until (has_lu_record, NULL, 60));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_cmpstr (rec->job->kind, ==, "gemm");
  g_assert_cmpuint (rec->job->k, ==, 500);
  g_assert_null (tl_window_get_info_message (win));
}

/* `tilelab --new-window`: a second process that keeps running on its own */
static void
test_new_window_runs_apart (void)
{
  const char *args[] = { "--new-window", NULL };
  g_assert_cmpint (launch_and_wait (args, 3), ==, -1);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
}

int
main (int argc, char **argv)
{
  if (!gui_test_init_check (&argc, &argv))
    return 77;
  g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
  if (daemon == NULL)
    {
      g_printerr ("no dbus-daemon for a private session bus: skipping\n");
      return 77;
    }
  display = g_strdup (g_getenv ("DISPLAY"));
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  app_path = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "ui", "tilelab", NULL);

  app = tl_application_new_for_desktop ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  g_application_hold (G_APPLICATION (app));
  g_assert_true (g_main_context_acquire (g_main_context_default ()));
  g_application_activate (G_APPLICATION (app));
  win = TL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));

  g_test_add_func ("/gui-launch-twice/opens-in-running-window", test_second_launch_opens_here);
  g_test_add_func ("/gui-launch-twice/new-window-runs-apart", test_new_window_runs_apart);
  int rc = g_test_run ();

  gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  /* stopped, not taken down: GTK keeps a reference to the session bus's
   * connection, which down would wait 30 s for */
  g_test_dbus_stop (bus);
  g_free (app_path);
  g_free (display);
  return rc;
}
