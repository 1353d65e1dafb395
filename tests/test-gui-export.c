/* test-gui-export.c — Export from the window itself, driven by the keys a
 * user presses: every view (Alt+1…8) in every format (PNG, SVG, PDF), with
 * and without a selection (a clicker's Page Down picks the next kernel,
 * point or step), Ctrl+E, the file's name typed into the file chooser over
 * the one it offers (view, kernel, size), Enter; each file opens.  Nothing
 * else is left in the folder, and the window keeps drawing while a file is
 * written.  Exits 77 (skip) without a display.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tl-compare-page.h"
#include "tl-page.h"
#include "tl-roofline-page.h"
#include "tl-window.h"

#include "gui-test-util.h"
#include "picture-test-util.h"

static TlWindow *win;
static char *dir;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

static void
open_record (const char *name)
{
  gui_test_open_doc_record (win, name);
}

typedef struct
{
  gboolean done, ok;
  char *message;
} Outcome;

static void
export_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Outcome *o = data;
  g_autoptr (GError) error = NULL;
  o->ok = tl_window_export_finish (TL_WINDOW (source), result, &error);
  o->message = error ? g_strdup (error->message) : NULL;
  o->done = TRUE;
}

static gboolean
outcome_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

/* only the files exported so far are in the folder: no temporary ones */
static void
assert_folder_holds (guint n_expected)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  for (const char *name; (name = g_dir_read_name (d));)
    {
      if (g_str_has_suffix (name, "-check.png")) /* pdftoppm's, from check_pdf */
        continue;
      g_assert_false (g_str_has_prefix (name, "."));
      n++;
    }
  g_assert_cmpuint (n, ==, n_expected);
}

/* pdftotext (poppler, where installed) finds these words in the PDF, or
 * (says FALSE) does not */
static void
assert_pdf_says_if (const char *path, const char *words, gboolean says)
{
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  if (pdftotext == NULL)
    return;
  const char *argv[] = { pdftotext, path, "-", NULL };
  g_autofree char *text = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &text,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  if ((strstr (text, words) != NULL) != says)
    g_error ("%s %s “%s”", path, says ? "does not say" : "says", words);
}

static void
assert_pdf_says (const char *path, const char *words)
{
  assert_pdf_says_if (path, words, TRUE);
}

static guint n_exported;
static const char *scenario;

static const char *const all_views[] = { "matrices", "compare", "blocks", "gauss", "source", "device",
                                         "roofline", "lesson" };

static GtkWidget *
export_dialog (void)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
export_dialog_shown (gpointer data)
{
  return export_dialog () != NULL;
}

static gboolean
file_written (gpointer path)
{
  return (g_file_test (path, G_FILE_TEST_EXISTS) && !tl_session_is_exporting (tl_window_get_session (win)))
         || tl_window_get_info_message (win) != NULL;
}

static const char *
shown_view (void)
{
  GtkWidget *stack = gtk_widget_get_parent (tl_window_get_page (win, "matrices"));
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

/* The name the dialog offers says what is drawn: the view, then its
 * kernel, its size (or a Gauss step) — never "tilelab-view.png". */
static void
assert_suggested_name (const char *view, const char *name)
{
  static const char *const prefixes[][2] = { { "matrices", "matrix-" }, { "compare", "compare-" },
                                             { "blocks", "blocks-" },   { "gauss", "gauss-" },
                                             { "roofline", "roofline-" }, { "lesson", "lesson-" },
                                             { "source", "source-" },   { "device", "device-" } };
  g_test_message ("%s offers %s", view, name);
  g_assert_true (g_str_has_suffix (name, ".png"));
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_strcmp0 (view, prefixes[i][0]) == 0)
      g_assert_true (g_str_has_prefix (name, prefixes[i][1]));
  g_assert_true (g_regex_match_simple ("[0-9]+x[0-9]+", name, 0, 0));
}

/* As a user exports: Ctrl+E, the name typed into the file chooser over
 * the one offered, Enter; the format is the name's extension. */
static void
export_by_keys (const char *view, const char *path)
{
  gui_test_press_key (win, GDK_KEY_e, GDK_CONTROL_MASK);
  g_assert_true (gui_test_wait_until (export_dialog_shown, NULL, 30));
  GtkWidget *dialog = export_dialog ();
  g_autofree char *offered = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
  assert_suggested_name (view, offered);
  gui_test_press_key_on (dialog, GDK_KEY_a, GDK_CONTROL_MASK);
  gui_test_type_on (dialog, path);
  gui_test_press_key_on (dialog, GDK_KEY_Return, 0);
  g_assert_true (gui_test_wait_until (file_written, (gpointer) path, 60));
  if (tl_window_get_info_message (win))
    g_error ("exporting %s: %s", path, tl_window_get_info_message (win));
  g_assert_null (export_dialog ());
}

/* Exports the view, shown by its key (Alt+1…8), in each format and opens
 * what was written. */
static void
export_view (const char *view, const char *selection)
{
  static const char *const formats[] = { "png", "svg", "pdf" };
  guint n = 0;
  while (g_strcmp0 (all_views[n], view) != 0)
    n++;
  gui_test_press_key (win, GDK_KEY_1 + n, GDK_MOD1_MASK);
  g_assert_cmpstr (shown_view (), ==, view);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s-%s.%s", scenario, view, selection, formats[f]);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      export_by_keys (view, path);
      g_test_message ("exported %s", name);
      check_picture (path);
      n_exported++;
      assert_folder_holds (n_exported);
    }
}

/* Every page of the window, without and then with a selection: a
 * clicker's Page Down, twice. */
static void
export_every_view (const char *const *views, guint n_views)
{
  for (guint i = 0; i < n_views; i++)
    {
      export_view (views[i], "none");
      gui_test_press_key (win, GDK_KEY_Page_Down, 0);
      gui_test_press_key (win, GDK_KEY_Page_Down, 0);
      export_view (views[i], "selected");
    }
}

/* the list above is every page of the window */
static void
test_every_page_listed (void)
{
  GtkWidget *stack = gtk_widget_get_parent (tl_window_get_page (win, "matrices"));
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (stack));
  g_assert_cmpuint (g_list_length (children), ==, G_N_ELEMENTS (all_views));
  for (guint i = 0; i < G_N_ELEMENTS (all_views); i++)
    g_assert_nonnull (tl_window_get_page (win, all_views[i]));
}

/* every page's options start initialised, whatever the caller's struct held */
static void
assert_options_initialised (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (all_views); i++)
    {
      TlRenderOptions o;
      memset (&o, 0xa5, sizeof o);
      if (!tl_page_export_options (TL_PAGE (tl_window_get_page (win, all_views[i])), &o))
        continue;
      g_assert_cmpfloat (o.scale, >, 0);
      g_assert_cmpint (o.launch, >=, -1);
      g_assert_cmpint (o.launch, <, 64);
    }
}

/* a CPU run on generated matrices: C, its bars and its tiles */
static void
test_live_run (void)
{
  static const char *const ids[] = { "cpu-naive", "cpu-blocked", NULL };
  static const char *const views[] = { "matrices", "compare", "blocks", "source", "device" };
  scenario = "live";
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 96, 96, TL_DTYPE_FLOAT32, 5);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (gui_test_wait_until (is_idle, NULL, 120));
  const TlRunRecord *record = tl_window_get_record (win);
  g_assert_nonnull (record);
  /* cpu-blocked took every core, as its lesson says and the CLI does */
  const TlKernelRun *blocked = tl_run_record_find_run (record, "cpu-blocked");
  g_assert_nonnull (blocked);
  g_assert_cmpuint (blocked->threads, ==, g_get_num_processors ());
  assert_options_initialised ();
  export_every_view (views, G_N_ELEMENTS (views));
  /* Source and Device export their own text: the listing, the facts */
  g_autofree char *source_pdf = g_build_filename (dir, "live-source-none.pdf", NULL);
  assert_pdf_says (source_pdf, "naive triple loop");
  assert_pdf_says (source_pdf, "tl-cpu-gemm.c — three CPU GEMMs");
  g_autofree char *device_pdf = g_build_filename (dir, "live-device-none.pdf", NULL);
  assert_pdf_says (device_pdf, "Device and launch facts");
  assert_pdf_says (device_pdf, "ran on the CPU");
}

/* records made on a GPU: the Gauss steps, the roofline with its counters,
 * the block records of the ladder */
static void
test_records (void)
{
  static const char *const gauss[] = { "gauss" };
  static const char *const counters[] = { "compare", "roofline", "lesson", "source", "device" };
  static const char *const blocks[] = { "blocks", "lesson" };

  scenario = "records";
  open_record ("h200-lu-02-blocked-96.json");
  export_every_view (gauss, G_N_ELEMENTS (gauss));
  open_record ("h200-gemm-4096-fp32-counters.json");
  TlRooflinePage *roofline = TL_ROOFLINE_PAGE (tl_window_get_page (win, "roofline"));
  g_assert_cmpuint (tl_roofline_page_get_n_points (roofline), >, 10);
  assert_options_initialised ();
  export_every_view (counters, G_N_ELEMENTS (counters));
  g_assert_nonnull (tl_roofline_page_get_selected (roofline));
  /* Compare as on show: times (its default) and the rungs' titles */
  g_autofree char *compare_pdf = g_build_filename (dir, "records-compare-selected.pdf", NULL);
  assert_pdf_says (compare_pdf, "time per multiply");
  assert_pdf_says (compare_pdf, "02 coalesced");
  /* a GPU's facts and a rung's constant and local memory, as a table */
  g_autofree char *device_pdf = g_build_filename (dir, "records-device-selected.pdf", NULL);
  assert_pdf_says (device_pdf, "compute capability");
  assert_pdf_says (device_pdf, "constant memory");
  assert_pdf_says (device_pdf, "local memory");
  g_autofree char *source_pdf = g_build_filename (dir, "records-source-none.pdf", NULL);
  assert_pdf_says (source_pdf, "lines 1–");
  open_record ("h200-gemm-1000x500x1000.json");
  scenario = "blocks";
  export_every_view (blocks, G_N_ELEMENTS (blocks));
  /* the Blocks page as it is: the tile grid over the SM timeline */
  g_autofree char *blocks_pdf = g_build_filename (dir, "blocks-blocks-selected.pdf", NULL);
  assert_pdf_says (blocks_pdf, "blockIdx");
  assert_pdf_says (blocks_pdf, "SM");
  /* the record on show has no counters: the roofline stays on the one that
   * has them, and exports that */
  g_assert_cmpuint (tl_window_get_record (win)->job->m, ==, 1000);
  g_assert_cmpuint (tl_roofline_page_get_n_points (roofline), >, 10);
  scenario = "ladder-beside";
  static const char *const roof[] = { "roofline" };
  export_every_view (roof, G_N_ELEMENTS (roof));
}

/* the child of a page's template with this id */
static void
find_id_cb (GtkWidget *widget, gpointer data)
{
  gpointer *found = data;
  if (found[1] == NULL && GTK_IS_BUILDABLE (widget)
      && g_strcmp0 (gtk_buildable_get_name (GTK_BUILDABLE (widget)), found[0]) == 0)
    found[1] = widget;
  else if (found[1] == NULL && GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_id_cb, data);
}

static GtkWidget *
template_child (GtkWidget *page, const char *id)
{
  gpointer found[2] = { (gpointer) id, NULL };
  gtk_container_forall (GTK_CONTAINER (page), find_id_cb, found);
  g_assert_nonnull (found[1]);
  return found[1];
}

/* Compare exported by keys as a PDF named name: it says says, not lacks;
 * returns its path. */
static char *
export_compare_pdf (const char *name, const char *says, const char *lacks)
{
  char *path = g_build_filename (dir, name, NULL);
  export_by_keys ("compare", path);
  check_picture (path);
  n_exported++;
  assert_pdf_says (path, says);
  assert_pdf_says_if (path, lacks, FALSE);
  return path;
}

/* Compare with the two sizes of the records open, as on the screen: in a
 * 1024×768 window, one chart at a time, the bars (coloured by a counter,
 * with its legend) or the sweep as its switch shows them — it exported
 * both whatever it showed; presenting, past the last bar, the sweep alone.
 * (Both charts where both are on screen: test-gui-compare.) */
static void
test_compare_sweep (void)
{
  open_record ("h200-gemm-1000x500x1000.json");
  open_record ("h200-gemm-4096-fp32-counters.json");
  GtkWidget *page = tl_window_get_page (win, "compare");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (template_child (page, "color_combo")), "dram_bytes");
  tl_window_show_view (win, "compare");
  gui_test_fill_screen (win, 1024, 768);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  gui_test_pump (0.5);
  /* PDF alone: the pictures are 1600×900, slow to write under the sanitizers */
  g_autofree char *bars = export_compare_pdf ("sweep-compare-bars.pdf", "time per multiply",
                                              "Size sweep: GFLOP/s");
  assert_pdf_says (bars, "Colour: DRAM bytes");
  gtk_button_clicked (GTK_BUTTON (template_child (page, "sweep_shown")));
  gui_test_pump (0.3);
  g_autofree char *sweep = export_compare_pdf ("sweep-compare-sweep.pdf", "1000×500×1000",
                                               "time per multiply");
  assert_pdf_says (sweep, "Size sweep: GFLOP/s");
  gtk_button_clicked (GTK_BUTTON (template_child (page, "bars_shown")));

  tl_window_set_presentation (win, TRUE);
  for (guint i = 0; i <= tl_compare_page_get_n_bars (TL_COMPARE_PAGE (page)); i++)
    gui_test_press_key (win, GDK_KEY_Page_Down, 0);
  g_autofree char *slide = export_compare_pdf ("sweep-presenting.pdf", "Size sweep: GFLOP/s",
                                               "time per multiply");
  assert_folder_holds (n_exported);
  tl_window_set_presentation (win, FALSE);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (template_child (page, "color_combo")), "kernel");
}

static void
remember (char **where, const char *text)
{
  g_free (*where);
  *where = g_strdup (text);
}

static void
progress_cb (TlSession *session, const char *text, double fraction, char **where)
{
  remember (where, text);
}

static void
status_cb (TlSession *session, const char *text, char **where)
{
  remember (where, text);
}

static gboolean
cancel_enabled (void)
{
  GAction *cancel = g_action_map_lookup_action (G_ACTION_MAP (win), "cancel");
  return g_action_get_enabled (cancel);
}

/* Export is busy work like a run: the progress bar says what is drawn,
 * Escape (win.cancel) stops it, nothing is written and the status line
 * says so; the next export goes through. */
static void
test_cancel (void)
{
  TlSession *session = tl_window_get_session (win);
  g_autofree char *progress = NULL, *status = NULL;
  gulong p = g_signal_connect (session, "progress", G_CALLBACK (progress_cb), &progress);
  gulong s = g_signal_connect (session, "status", G_CALLBACK (status_cb), &status);
  g_autofree char *path = g_build_filename (dir, "cancelled-roofline.png", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  Outcome o = { 0 };

  tl_window_show_view (win, "roofline");
  g_assert_true (gui_test_wait_until (is_idle, NULL, 30));
  g_assert_false (cancel_enabled ());
  tl_window_export_async (win, file, NULL, export_done_cb, &o);
  g_assert_true (tl_session_is_exporting (session));
  g_assert_true (cancel_enabled ());
  g_assert_nonnull (strstr (progress, "cancelled-roofline.png"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL);
  g_assert_true (gui_test_wait_until (outcome_done, &o, 60));
  g_assert_false (o.ok);
  g_assert_nonnull (o.message);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (status, "cancelled-roofline.png"));
  g_assert_null (tl_window_get_info_message (win)); /* cancelling is no error */
  g_assert_false (tl_session_is_exporting (session));
  g_assert_false (cancel_enabled ());
  assert_folder_holds (n_exported);
  g_free (o.message);

  /* the next one is written */
  Outcome again = { 0 };
  tl_window_export_async (win, file, NULL, export_done_cb, &again);
  g_assert_true (gui_test_wait_until (outcome_done, &again, 60));
  g_assert_true (again.ok);
  check_picture (path);
  g_assert_nonnull (strstr (status, "cancelled-roofline.png"));
  g_assert_cmpstr (progress, ==, "idle");
  n_exported++;
  assert_folder_holds (n_exported);
  g_signal_handler_disconnect (session, p);
  g_signal_handler_disconnect (session, s);
}

/* a file that cannot be written: the message bar says so, nothing is left */
static void
test_unwritable (void)
{
  g_autofree char *path = g_build_filename (dir, "no-such-folder", "x.png", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  Outcome o = { 0 };
  tl_window_show_view (win, "compare");
  tl_window_export_async (win, file, NULL, export_done_cb, &o);
  g_assert_true (gui_test_wait_until (outcome_done, &o, 60));
  g_assert_false (o.ok);
  g_assert_nonnull (strstr (o.message, "no-such-folder"));
  g_assert_nonnull (tl_window_get_info_message (win));
  g_free (o.message);
  assert_folder_holds (n_exported);
}

static void
add_tests (void)
{
  g_autoptr (GError) error = NULL;
  dir = g_dir_make_tmp ("tilelab-export-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/gui-export/every-page-listed", test_every_page_listed);
  g_test_add_func ("/gui-export/live-run", test_live_run);
  g_test_add_func ("/gui-export/records", test_records);
  g_test_add_func ("/gui-export/compare-sweep", test_compare_sweep);
  g_test_add_func ("/gui-export/cancel", test_cancel);
  g_test_add_func ("/gui-export/unwritable", test_unwritable);
}

/* TL_TEST_KEEP_EXPORTS=1: the pictures stay, to be looked at */
static void
after_tests (void)
{
  if (g_getenv ("TL_TEST_KEEP_EXPORTS") == NULL)
    gui_test_remove_folder (dir);
  else
    g_printerr ("exports kept in %s\n", dir);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .add_tests = add_tests, .after_tests = after_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
