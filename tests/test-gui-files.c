/* test-gui-files.c — part of test-gui: malformed files, sizes that do not multiply, run records opened (read once) and side by side. */
#include "test-gui-window.h"

#include <math.h>
#include <glib/gstdio.h>

#include "view/tl-player.h"
#include "tl-compare-page.h"
#include "tl-device-page.h"
#include "tl-heatmap-view.h"
#include "tl-blocks-page.h"
#include "tl-gauss-page.h"
#include "tl-render-area.h"
#include "tl-session.h"
#include "tl-source-page.h"
#include "lu/tl-lu.h"
#include "record/tl-record.h"

void
test_malformed (void)
{
  TlMatrix *a = tl_window_get_source (win, TL_TARGET_A);
  TlMatrix *b = tl_window_get_source (win, TL_TARGET_B);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "malformed.mtx", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  tl_window_load_source (win, TL_TARGET_A, file);
  g_assert_true (wait_until (is_idle, NULL, 20));
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_test_message ("info bar: %s", msg);
  g_assert_nonnull (strstr (msg, "malformed.mtx"));
  g_assert_nonnull (strstr (msg, "Line 5"));
  /* the previous matrices stay */
  g_assert_true (tl_window_get_source (win, TL_TARGET_A) == a);
  g_assert_true (tl_window_get_source (win, TL_TARGET_B) == b);
}

void
test_size_mismatch (void)
{
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 30, 20, TL_DTYPE_FLOAT32, 3);
  tl_window_generate (win, TL_TARGET_B, "random-uniform", 21, 10, TL_DTYPE_FLOAT32, 4);
  g_assert_true (wait_until (is_idle, NULL, 20));
  /* said as B arrives, before anyone presses Run */
  g_assert_nonnull (tl_window_get_info_message (win));
  g_assert_nonnull (strstr (tl_window_get_info_message (win), "21×10"));
  /* and the Matrices page's summary says what to open, not "Press Run" */
  g_autoptr (GString) page_text = g_string_new (NULL);
  gui_test_append_label_texts (GTK_WIDGET (gui_test_matrices (win)), page_text);
  g_test_message ("Matrices page: %s", page_text->str);
  g_assert_null (strstr (page_text->str, "Press Run"));
  g_assert_nonnull (strstr (page_text->str, "B with 20 rows"));
  g_assert_false (tl_window_run (win));
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "30×20"));
  g_assert_nonnull (strstr (msg, "21×10"));
  g_assert_false (tl_window_is_running (win));
}

void
test_open_record (void)
{
  static const char *const ids[] = { "cpu-blocked", "cpu-openblas", NULL };
  g_autoptr (GError) error = NULL;

  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 48, 48, TL_DTYPE_FLOAT32, 8);
  g_assert_true (wait_until (is_idle, NULL, 20));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (is_idle, NULL, 60));
  g_autoptr (TlRunRecord) copy = tl_run_record_copy (tl_window_get_record (win));
  g_autofree char *dir = g_dir_make_tmp ("tilelab-gui-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "run.json", NULL);
  g_assert_true (tl_run_record_save (copy, path, TL_RECORD_SAVE_MATRICES, &error));
  g_assert_no_error (error);

  /* a fresh problem, then the record: it comes back into every view */
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 20, 20, TL_DTYPE_FLOAT32, 9);
  g_assert_true (wait_until (is_idle, NULL, 20));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  guint parses = json_parses_so_far ();
  tl_window_open_files (win, files, 1);
  g_assert_true (wait_until (is_idle, NULL, 20));
  /* read once: one parse gives the record, its kind and its matrices */
  g_assert_cmpuint (json_parses_so_far () - parses, ==, 1);
  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_nonnull (rec->a);
  g_assert_cmpuint (rec->runs->len, ==, 2);
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, 2);
  g_assert_cmpuint (tl_window_get_source (win, TL_TARGET_A)->rows, ==, 48);

  /* a broken record: the info bar, and the shown one stays */
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_assert_true (g_file_set_contents (bad, "{ \"schema\": \"tilelab-run/1\", ", -1, NULL));
  g_autoptr (GFile) bad_file = g_file_new_for_path (bad);
  tl_window_open_record (win, bad_file);
  g_assert_true (wait_until (is_idle, NULL, 20));
  g_assert_nonnull (tl_window_get_info_message (win));
  g_assert_true (tl_window_get_record (win) == rec);

  gui_test_remove_folder (dir);
}

/* `tilelab run.json lu.json`: both records stay open; the LU one shows as LU */
void
test_records_side_by_side (void)
{
  g_autofree char *gemm = record_path ("h200-gemm-1000x500x1000.json");
  g_autofree char *lu = record_path ("h200-lu-02-blocked-96.json");
  g_autoptr (GFile) f1 = g_file_new_for_path (gemm);
  g_autoptr (GFile) f2 = g_file_new_for_path (lu);
  GFile *files[] = { f1, f2 };
  TlSession *session = tl_window_get_session (win);

  g_application_open (G_APPLICATION (app), files, 2, "");
  g_assert_true (wait_until (is_idle, NULL, 60));
  g_assert_null (tl_window_get_info_message (win));
  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_cmpstr (rec->job->kind, ==, "gemm");
  g_assert_cmpuint (rec->job->k, ==, 500);
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, rec->runs->len);
  TlRunRecord *lu_run = tl_session_get_lu_run (session);
  g_assert_nonnull (lu_run);
  g_assert_cmpstr (lu_run->job->kind, ==, "lu");
  g_assert_nonnull (tl_gauss_page_get_record (TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"))));
  /* the size sweep holds the GEMM record only */
  GPtrArray *history = tl_session_get_history (session);
  for (guint i = 0; i < history->len; i++)
    g_assert_cmpstr (((TlRunRecord *) history->pdata[i])->job->kind, !=, "lu");
  /* its matrices were not saved with it: A and B shown are not its inputs */
  g_assert_true (tl_session_results_are_stale (session));
  g_assert_nonnull (tl_session_stale_text (session));
}
