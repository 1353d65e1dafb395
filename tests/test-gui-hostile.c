/* test-gui-hostile.c — the app given hostile files the ways a user gives
 * them: on the command line, through GApplication's open (what the file
 * manager does), through the Open dialog, and dropped on the window.
 *
 * Every one must end in an error the window shows (naming the file), and
 * the app must stay usable: afterwards it opens good files and runs.  The
 * test drives the app from outside — command-line arguments, g_application
 * open, the window's actions, a drop, the widget tree — so it does not
 * depend on how the window is built inside.  Exits 77 (skip) without a
 * display.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl-application.h"
#include "tl-export.h"
#include "tl-heatmap-view.h"
#include "tl-matrices-page.h"
#include "tl-sources-panel.h"
#include "tl-window.h"

#include "gui-test-util.h"
#include "test-gui-hostile.h"

static GtkApplication *app;
char *dir;  /* the hostile files */
static int test_status = 1;

/* ---- looking at the app from outside ------------------------------------ */

GtkWindow *
main_window (void)
{
  return gtk_application_get_active_window (app);
}

void
collect_labels (GtkWidget *w, gpointer data)
{
  GString *out = data;
  if (GTK_IS_LABEL (w))
    {
      if (out->len)
        g_string_append_c (out, ' ');
      g_string_append (out, gtk_label_get_text (GTK_LABEL (w)));
    }
  else if (GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), collect_labels, data);
}

static void
find_messages (GtkWidget *w, gpointer data)
{
  if (GTK_IS_INFO_BAR (w))
    {
      GtkMessageType t = gtk_info_bar_get_message_type (GTK_INFO_BAR (w));
      if (gtk_info_bar_get_revealed (GTK_INFO_BAR (w)) && gtk_widget_get_visible (w)
          && (t == GTK_MESSAGE_ERROR || t == GTK_MESSAGE_WARNING))
        collect_labels (w, data);
      return;
    }
  if (GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), find_messages, data);
}

/* The error and warning text the window shows now ("" when none). */
char *
shown_errors (void)
{
  GString *s = g_string_new (NULL);
  GtkWindow *w = main_window ();
  if (w)
    find_messages (GTK_WIDGET (w), s);
  return g_string_free (s, FALSE);
}

/* Waits until the window shows an error naming `name`; the main loop keeps
 * running meanwhile (the window never blocks on a file). */
char *
wait_for_error (const char *name, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  for (;;)
    {
      g_autofree char *text = shown_errors ();
      if (strstr (text, name) != NULL)
        return g_steal_pointer (&text);
      if (g_get_monotonic_time () > end)
        g_error ("no error naming %s was shown within %.0f s (shown: “%s”)", name, seconds, text);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* What the window's progress bar says now. */
const char *
progress_text (void)
{
  GtkWidget *bar = gui_test_find_widget (GTK_WIDGET (main_window ()), GTK_TYPE_PROGRESS_BAR);
  g_assert_nonnull (bar);
  const char *text = gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar));
  return text ? text : "";
}

/* What the sidebar's cards of A and B say now (their labels, in order). */
char *
cards_text (void)
{
  GtkWidget *panel = gui_test_find_widget (GTK_WIDGET (main_window ()), TL_TYPE_SOURCES_PANEL);
  g_assert_nonnull (panel);
  GString *s = g_string_new (NULL);
  collect_labels (panel, s);
  return g_string_free (s, FALSE);
}

/* What A's heatmap on the Matrices page says when it has no matrix. */
const char *
heatmap_a_placeholder (void)
{
  GtkWidget *page = tl_window_get_page (TL_WINDOW (main_window ()), "matrices");
  g_assert_nonnull (page);
  GtkWidget *hm = tl_matrices_page_get_heatmap (TL_MATRICES_PAGE (page), "A");
  const char *text = tl_heatmap_view_get_empty_text (TL_HEATMAP_VIEW (hm));
  return text ? text : "";
}

static gboolean
set_flag_cb (gpointer flag)
{
  *(gboolean *) flag = TRUE;
  return G_SOURCE_REMOVE;
}

/* The main loop answers a 10 ms timeout within 3 s (generous: sanitizer
 * builds on a busy machine are slow; a frozen loop never answers) and the
 * window is still up: nothing froze or closed it. */
void
assert_responsive (void)
{
  gboolean fired = FALSE;
  g_timeout_add (10, set_flag_cb, &fired);
  gint64 end = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (!fired && g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (fired);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (main_window ())));
}

/* ---- the hostile files ---------------------------------------------------- */

char *
write_file (const char *name, const char *data, gssize len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
corpus_file (const char *area, const char *name)
{
  return g_build_filename (g_getenv ("TL_SOURCE_DIR"), "tests", "fuzz", "corpus", area, name,
                           NULL);
}

static void
make_hostile_files (void)
{
  g_autoptr (GError) error = NULL;
  dir = g_dir_make_tmp ("tilelab-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *deep = g_strnfill (100000, '[');
  g_free (write_file ("deep.json", deep, -1));
  g_free (write_file ("zero-rows.txt", "0 1000000000000000000 float64\n", -1));
  g_free (write_file ("tiny-huge.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                       "30000 30000 5\n1 1 2.5\n", -1));
  g_free (write_file ("header-loss.csv", "1,1e999\n2,3\n", -1));
  /* .npy: data cut short, pickled objects, a shape beyond any memory */
  static const char npy_head[] = "\x93NUMPY\x01\x00\x76\x00";
  struct { const char *name, *dict; gsize data; } npys[] = {
    { "truncated.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 1000), }", 64 },
    { "objects.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }", 32 },
    { "huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2000000000, 2000000000), }", 8 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (npys); i++)
    {
      /* numpy's layout: the header padded with spaces to 128 bytes, '\n' last */
      g_autoptr (GString) npy = g_string_new_len (npy_head, 10);
      g_string_append (npy, npys[i].dict);
      while (npy->len < 127)
        g_string_append_c (npy, ' ');
      g_string_append_c (npy, '\n');
      for (gsize k = 0; k < npys[i].data; k++)
        g_string_append_c (npy, (char) k);
      g_free (write_file (npys[i].name, npy->str, (gssize) npy->len));
    }
  g_autofree char *fifo = g_build_filename (dir, "fifo.mtx", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_autofree char *folder = g_build_filename (dir, "folder.csv", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);

  /* records from the fuzz corpus: block coordinates that wrapped the
   * grid, a GF(p) recording with NaN in it */
  struct { const char *area, *name, *as; } records[] = {
    { "run-record", "issue11-block-x-4294967295.json", "blocks-wrap.json" },
    { "run-record", "issue11-block-x-2147483646.json", "blocks-huge.json" },
    { "gauss-record", "issue11-gfp-value-0.json", "gfp-nan.json" },
    { "gauss-record", "issue11-ipiv-fraction.json", "ipiv-fraction.json" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    {
      g_autofree char *src = corpus_file (records[i].area, records[i].name);
      g_autofree char *text = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (src, &text, &len, NULL));
      g_free (write_file (records[i].as, text, (gssize) len));
    }
}

GFile *
hostile (const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  return g_file_new_for_path (path);
}

/* ---- the paths a user takes ----------------------------------------------- */

/* `tilelab deep.json`: started with a hostile record on the command line. */
static void
test_command_line (void)
{
  g_assert_nonnull (main_window ());
  g_autofree char *text = wait_for_error ("deep.json", 30);
  g_test_message ("shown: %s", text);
  g_assert_nonnull (strstr (text, "nested deeper"));
  assert_responsive ();
}

/* What a file manager does: GApplication open, one file at a time. */
static void
test_open (void)
{
  static const char *const names[] = {
    "zero-rows.txt", "tiny-huge.mtx", "header-loss.csv", "fifo.mtx", "folder.csv",
    "blocks-wrap.json", "blocks-huge.json", "gfp-nan.json", "ipiv-fraction.json",
    "truncated.npy", "objects.npy", "huge.npy",
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GFile) f = hostile (names[i]);
      GFile *files[] = { f };
      gint64 t0 = g_get_monotonic_time ();
      g_application_open (G_APPLICATION (app), files, 1, "");
      g_autofree char *text = wait_for_error (names[i], 30);
      g_test_message ("%s → %.0f ms: %s", names[i], (g_get_monotonic_time () - t0) / 1000.0,
                      text);
      assert_responsive ();
    }
}

/* The Open dialog (Ctrl+J: open a run record), answered as a user would.
 * (A's and B's: test_npy_every_way_keeps_shown.) */
static void
test_open_dialog (void)
{
  static const char *const names[][2] = { { "blocks-wrap.json", "open-run" }, { "deep.json", "open-run" } };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GFile) f = hostile (names[i][0]);
      gui_test_open_with_dialog (G_ACTION_GROUP (main_window ()), names[i][1], f);
      g_autofree char *text = wait_for_error (names[i][0], 30);
      g_test_message ("%s: %s", names[i][0], text);
      assert_responsive ();
    }
}

/* A drop of file URIs onto the window, as a file manager sends it. */
static void
test_drop (void)
{
  static const char *const names[] = { "fifo.mtx", "tiny-huge.mtx", "gfp-nan.json", "truncated.npy" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GFile) f = hostile (names[i]);
      if (!gui_test_drop_file (GTK_WIDGET (main_window ()), f))
        {
          g_test_skip ("drops are simulated on X11 only");
          return;
        }
      g_autofree char *text = wait_for_error (names[i], 30);
      g_test_message ("%s: %s", names[i], text);
      assert_responsive ();
    }
}

/* The Open menu's recent files (GtkRecentManager, shared with the
 * desktop): a hostile file there is one more way in. */
static void
test_recent (void)
{
  static const char *const names[] = { "objects.npy", "header-loss.csv", "huge.npy" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GFile) f = hostile (names[i]);
      g_autofree char *uri = g_file_get_uri (f);
      g_action_group_activate_action (G_ACTION_GROUP (main_window ()), "open-recent",
                                      g_variant_new_string (uri));
      g_autofree char *text = wait_for_error (names[i], 30);
      g_test_message ("%s: %s", names[i], text);
      assert_responsive ();
    }
}

/* A recent file removed since the menu listed it: the error says so, and
 * the entry leaves the recent files (the menu does not offer it again). */
static void
test_recent_gone (void)
{
  g_autofree char *path = write_file ("gone.csv", "1,2\n3,4\n", -1);
  g_autoptr (GFile) f = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (f);
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  g_assert_true (gtk_recent_manager_add_item (recent, uri));
  for (int tries = 0; tries < 3000 && !gtk_recent_manager_has_item (recent, uri); tries++)
    gui_test_pump (0.005);
  g_assert_true (gtk_recent_manager_has_item (recent, uri));
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_action_group_activate_action (G_ACTION_GROUP (main_window ()), "open-recent",
                                  g_variant_new_string (uri));
  g_autofree char *text = wait_for_error ("gone.csv", 30);
  g_test_message ("gone.csv: %s", text);
  g_assert_nonnull (strstr (text, g_strerror (ENOENT)));
  g_assert_false (gtk_recent_manager_has_item (recent, uri));
  assert_responsive ();
}

/* Under ulimit -v, a matrix that would leave the window less than its
 * kept room is refused with a sentence (it used to be taken, and the
 * window's next thread or picture aborted the app). */
static void
test_memory_limit (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  TlWindow *win = TL_WINDOW (main_window ());
  wait_until_idle (win, 30);
  /* 4000 × 5000 float64 (153 MiB), its data a hole in a sparse file */
  static const char head[] = "\x93NUMPY\x01\x00\x76\x00";
  g_autoptr (GString) npy = g_string_new_len (head, 10);
  g_string_append (npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (4000, 5000), }");
  while (npy->len < 127)
    g_string_append_c (npy, ' ');
  g_string_append_c (npy, '\n');
  g_autofree char *path = write_file ("wide.npy", npy->str, (gssize) npy->len);
  g_assert_cmpint (truncate (path, 128 + (off_t) 4000 * 5000 * 8), ==, 0);

  g_autofree char *status = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  const char *vm = strstr (status, "VmSize:");
  g_assert_nonnull (vm);
  rlim_t in_use = (rlim_t) g_ascii_strtoull (vm + 7, NULL, 10) << 10;
  struct rlimit old;
  g_assert_cmpint (getrlimit (RLIMIT_AS, &old), ==, 0);
  /* 320 MiB more: the matrix fits, but not beside the 256 MiB kept */
  struct rlimit tight = { in_use + ((rlim_t) 320 << 20), old.rlim_max };
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < tight.rlim_cur)
    {
      g_test_skip ("ulimit -v is already tighter");
      return;
    }
  g_assert_cmpint (setrlimit (RLIMIT_AS, &tight), ==, 0);
  open_as_a (path);
  g_autofree char *text = wait_for_error ("wide.npy", 30);
  wait_until_idle (win, 30);
  g_assert_cmpint (setrlimit (RLIMIT_AS, &old), ==, 0);
  g_test_message ("wide.npy: %s", text);
  g_assert_nonnull (strstr (text, "ulimit -v"));
  g_assert_nonnull (strstr (text, "kept for the program's own work"));
  assert_responsive ();
}

static void
export_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GError **error = data;
  if (tl_export_write_finish (result, error))
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "written");
}

/* An export past ulimit -f: "File too large" in the window, no picture
 * and no temporary left, and the app is not killed by SIGXFSZ. */
static void
test_export_file_size (void)
{
  TlWindow *win = TL_WINDOW (main_window ());
  wait_until_idle (win, 30);
  g_autoptr (GError) error = NULL;
  g_autofree char *out_dir = g_build_filename (dir, "pictures", NULL);
  g_assert_cmpint (g_mkdir (out_dir, 0700), ==, 0);
  g_autofree char *path = g_build_filename (out_dir, "view.png", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  TlExport *export = tl_export_new (tl_window_get_session (win),
                                    TL_PAGE (tl_window_get_page (win, "matrices")), NULL, FALSE);
  /* the recent files' own save (250 ms after a change) goes first: under
   * the limit it would fail too */
  gui_test_pump (1.0);
  struct rlimit old, tight;
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  tight = (struct rlimit) { 2048, old.rlim_max };
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tight), ==, 0);
  tl_export_write_async (export, file, NULL, export_done_cb, &error);
  for (int tries = 0; tries < 6000 && error == NULL; tries++)
    gui_test_pump (0.005);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
  g_assert_nonnull (error);
  g_test_message ("view.png: %s", error->message);
  g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
  g_autofree char *text = wait_for_error ("view.png", 30);
  g_assert_nonnull (strstr (text, g_strerror (EFBIG)));
  g_autoptr (GDir) d = g_dir_open (out_dir, 0, NULL);
  g_assert_null (g_dir_read_name (d));
  g_rmdir (out_dir);
  assert_responsive ();
}

/* After all that: good files open and a run completes. */
static void
test_still_usable (void)
{
  g_autofree char *p1 = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "resources", "samples",
                                          "seed-002-ones-8x8.mtx", NULL);
  g_autoptr (GFile) f1 = g_file_new_for_path (p1);
  GFile *files[] = { f1, f1 };
  g_application_open (G_APPLICATION (app), files, 2, "");
  TlWindow *win = TL_WINDOW (main_window ());
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (tl_window_is_busy (win) && g_get_monotonic_time () < end)
    gui_test_pump (0.01);
  TlMatrix *a = tl_window_get_source (win, TL_TARGET_A);
  g_assert_nonnull (a);
  g_assert_cmpuint (a->rows, ==, 8);
  g_autofree char *after_open = shown_errors ();
  g_assert_cmpstr (after_open, ==, "");

  /* the ticked kernels run on the good matrices: a record with runs */
  const TlRunRecord *before = tl_window_get_record (win);
  g_action_group_activate_action (G_ACTION_GROUP (win), "run", NULL);
  end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  do
    gui_test_pump (0.05);
  while ((tl_window_is_busy (win) || tl_window_get_record (win) == before)
         && g_get_monotonic_time () < end);
  const TlRunRecord *record = tl_window_get_record (win);
  g_assert_nonnull (record);
  g_assert_true (record != before);
  g_assert_cmpuint (record->runs->len, >, 0);
  g_autofree char *after_run = shown_errors ();
  g_assert_cmpstr (after_run, ==, "");
}

/* ---- running the tests inside the app's own main loop --------------------- */

static gboolean
run_tests_cb (gpointer data)
{
  test_status = g_test_run ();
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
opened_cb (GApplication *application, gpointer files, int n_files, const char *hint, gpointer data)
{
  static gboolean started;
  if (!started)
    {
      started = TRUE;
      g_idle_add (run_tests_cb, NULL);
    }
}

int
main (int argc, char **argv)
{
  if (!gui_test_init_check (&argc, &argv))
    return 77;
  make_hostile_files ();

  g_test_add_func ("/gui-hostile/command-line", test_command_line);
  g_test_add_func ("/gui-hostile/open", test_open);
  g_test_add_func ("/gui-hostile/open-dialog", test_open_dialog);
  g_test_add_func ("/gui-hostile/drop", test_drop);
  g_test_add_func ("/gui-hostile/recent", test_recent);
  g_test_add_func ("/gui-hostile/recent-gone", test_recent_gone);
  g_test_add_func ("/gui-hostile/load-live", test_load_live);
  g_test_add_func ("/gui-hostile/load-cancel-and-fail-keep", test_load_cancel_and_fail_keep);
  g_test_add_func ("/gui-hostile/error-outlives-other-load", test_error_outlives_other_load);
  g_test_add_func ("/gui-hostile/two-failures", test_two_failures);
  g_test_add_func ("/gui-hostile/npy-every-way-keeps-shown", test_npy_every_way_keeps_shown);
  g_test_add_func ("/gui-hostile/memory-limit", test_memory_limit);
  g_test_add_func ("/gui-hostile/still-usable", test_still_usable);
  /* (after a run: the Matrices page's picture is of its record) */
  g_test_add_func ("/gui-hostile/export-file-size", test_export_file_size);

  /* `tilelab DIR/deep.json`, as from a shell */
  app = GTK_APPLICATION (tl_application_new ());
  g_signal_connect_after (app, "open", G_CALLBACK (opened_cb), NULL);
  g_autofree char *deep = g_build_filename (dir, "deep.json", NULL);
  char *app_argv[] = { (char *) "tilelab", deep, NULL };
  int rc = g_application_run (G_APPLICATION (app), 2, app_argv);
  g_object_unref (app);

  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        g_rmdir (p);
      else
        g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  gui_hostile_load_cleanup ();
  return rc != 0 ? rc : test_status;
}
