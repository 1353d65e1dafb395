/* test-gui.c — the window under Xvfb: launch, generate, run, cancel, bad input.
 *
 * One application and one window for all cases, as a user would go
 * through them.  Exits 77 (skip) without a display.
 */
#include <math.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "view/tl-player.h"
#include "tl-application.h"
#include "tl-compare-page.h"
#include "tl-device-page.h"
#include "tl-heatmap-view.h"
#include "tl-blocks-page.h"
#include "tl-gauss-page.h"
#include "tl-render-area.h"
#include "json-parse-count.h"
#include "tl-session.h"
#include "tl-source-page.h"
#include "lu/tl-lu.h"
#include "record/tl-record.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlApplication *app;
static TlWindow *win;

typedef gboolean (*Cond) (gpointer data);

static gboolean
wait_until (Cond cond, gpointer data, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (win));
}

static gboolean
is_idle (gpointer data)
{
  return !tl_window_is_busy (win);
}

static gboolean
heatmaps_pooled (gpointer data)
{
  static const char *const names[] = { "C", "error" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      TlHeatmapView *v = TL_HEATMAP_VIEW (gui_test_heatmap (win, names[i]));
      TlHeatmapModel m;
      tl_heatmap_view_get_model (v, &m);
      if (tl_heatmap_view_is_busy (v) || m.grid == NULL)
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_running (gpointer data)
{
  return tl_window_is_running (win);
}

static void
pump (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
test_launch (void)
{
  gint64 t0 = g_get_monotonic_time ();
  g_application_activate (G_APPLICATION (app));
  win = TL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  g_assert_true (wait_until (is_mapped, NULL, 10));
  g_test_message ("window mapped after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_true (wait_until (is_idle, NULL, 20)); /* the GPU probe ran on its thread */
  g_assert_null (tl_window_get_source (win, TL_TARGET_A));
}

static void
test_generate (void)
{
  g_autoptr (GError) error = NULL;

  /* the README's form: both N×N */
  g_assert_true (tl_window_generate_from_option (win, "random-uniform:64", &error));
  g_assert_no_error (error);
  g_assert_true (wait_until (is_idle, NULL, 20));
  TlMatrix *a = tl_window_get_source (win, TL_TARGET_A);
  TlMatrix *b = tl_window_get_source (win, TL_TARGET_B);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (a->rows, ==, 64);
  g_assert_cmpuint (b->cols, ==, 64);
  g_assert_false (tl_matrix_equal (a, b)); /* different seeds */

  g_assert_false (tl_window_generate_from_option (win, "random-uniform", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* odd shapes through the generator registry */
  tl_window_generate (win, TL_TARGET_A, "random-uniform:lo=-2,hi=3", 97, 61, TL_DTYPE_FLOAT32, 11);
  tl_window_generate (win, TL_TARGET_B, "random-normal", 61, 83, TL_DTYPE_FLOAT32, 12);
  g_assert_true (wait_until (is_idle, NULL, 20));
  a = tl_window_get_source (win, TL_TARGET_A);
  b = tl_window_get_source (win, TL_TARGET_B);
  g_assert_cmpuint (a->rows, ==, 97);
  g_assert_cmpuint (a->cols, ==, 61);
  g_assert_cmpuint (b->rows, ==, 61);
  g_assert_cmpuint (b->cols, ==, 83);
  g_assert_null (tl_window_get_info_message (win));
}

/* `tilelab FILE FILE`: the first becomes A, the second B (the bundled samples) */
static void
test_open_files (void)
{
  g_autofree char *p1 = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "resources", "samples",
                                          "seed-002-ones-8x8.mtx", NULL);
  g_autofree char *p2 = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "resources", "samples",
                                          "seed-004-int-6x6.csv", NULL);
  g_autoptr (GFile) f1 = g_file_new_for_path (p1);
  g_autoptr (GFile) f2 = g_file_new_for_path (p2);
  GFile *files[] = { f1, f2 };

  g_application_open (G_APPLICATION (app), files, 2, "");
  g_assert_true (wait_until (is_idle, NULL, 20));
  /* 8×8 · 6×6 has no product: said as soon as both are in */
  g_assert_nonnull (tl_window_get_info_message (win));
  g_assert_nonnull (strstr (tl_window_get_info_message (win), "8×8"));
  TlMatrix *a = tl_window_get_source (win, TL_TARGET_A);
  TlMatrix *b = tl_window_get_source (win, TL_TARGET_B);
  g_assert_cmpuint (a->rows, ==, 8);
  g_assert_cmpfloat (tl_matrix_get (a, 7, 7), ==, 1.0);
  g_assert_cmpuint (b->rows, ==, 6);
  g_assert_cmpuint (b->cols, ==, 6);
}

static void
test_run_cpu (void)
{
  static const char *const ids[] = { "cpu-naive", "cpu-blocked", "cpu-openblas", NULL };
  gui_test_only_kernels (win, ids);
  g_auto (GStrv) active = tl_window_get_active_kernels (win);
  g_assert_cmpuint (g_strv_length (active), ==, 3);

  g_assert_true (tl_window_run (win));
  g_assert_true (tl_window_is_running (win));
  g_assert_true (wait_until (is_idle, NULL, 120));
  g_assert_null (tl_window_get_info_message (win));

  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_cmpuint (rec->runs->len, ==, 3);
  g_assert_cmpuint (tl_window_get_n_live_results (win), ==, 3); /* arrived one by one */
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, 3);
  for (guint i = 0; i < rec->runs->len; i++)
    {
      const TlKernelRun *r = rec->runs->pdata[i];
      g_assert_cmpint (r->status, ==, TL_RUN_OK);
      g_assert_true (r->verified && r->passed);
      g_assert_nonnull (r->c);
      g_assert_cmpuint (r->c->rows, ==, 97);
      g_assert_cmpuint (r->c->cols, ==, 83);
      g_assert_cmpfloat (r->time.median, >, 0);
    }
  g_assert_nonnull (rec->reference);

  /* the error map keeps each block's largest error whatever the other maps pool by */
  TlHeatmapView *err = TL_HEATMAP_VIEW (gui_test_heatmap (win, "error"));
  TlHeatmapView *hc = TL_HEATMAP_VIEW (gui_test_heatmap (win, "C"));
  g_assert_true (wait_until (heatmaps_pooled, NULL, 30));
  TlHeatmapModel me, mc;
  tl_heatmap_view_get_model (err, &me);
  tl_heatmap_view_get_model (hc, &mc);
  g_assert_nonnull (me.grid);
  g_assert_nonnull (mc.grid);
  g_assert_cmpint (me.grid->mode, ==, TL_POOL_MAX_ABS);
  g_assert_cmpint (mc.grid->mode, ==, TL_POOL_MEAN);

  /* per-tile records of the blocked CPU kernel reached the Blocks view */
  const TlKernelRun *blocked = tl_run_record_find_run (rec, "cpu-blocked");
  g_assert_nonnull (blocked);
  g_assert_cmpuint (blocked->n_blocks, >, 0);

  /* linked hover: a tile of the block grid marks the rows of A and columns of B it read */
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, "cpu-blocked", NULL);
  tl_blocks_page_hover_tile (blocks, 1, 0); /* tile row 0, tile column 1 */
  TlHeatmapModel ma, mb;
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (gui_test_heatmap (win, "A")), &ma);
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (gui_test_heatmap (win, "B")), &mb);
  g_assert_cmpint (ma.highlight_row, ==, 0);
  g_assert_cmpuint (ma.highlight_rows, ==, MIN (blocked->block_tile_m, 97));
  g_assert_cmpint (mb.highlight_col, ==, (gssize) blocked->block_tile_n);
  g_assert_cmpuint (mb.highlight_cols, ==, MIN (blocked->block_tile_n, 83 - blocked->block_tile_n));
  tl_blocks_page_hover_tile (blocks, -1, -1);

  /* the window asks its pages: a clicked bar shows its kernel's launch on
   * the Device page; Compare's win.copy-csv puts the table on the clipboard */
  TlComparePage *compare = gui_test_compare (win);
  TlDevicePage *device = TL_DEVICE_PAGE (tl_window_get_page (win, "device"));
  for (gint i = 0; i < 3; i++)
    {
      tl_compare_page_select_bar (compare, i);
      g_assert_cmpstr (tl_device_page_get_shown_kernel (device), ==,
                       ((const TlKernelRun *) rec->runs->pdata[i])->kernel_id);
    }
  g_action_group_activate_action (G_ACTION_GROUP (win), "copy-csv", NULL);
  g_autofree char *csv = gtk_clipboard_wait_for_text (gtk_widget_get_clipboard (GTK_WIDGET (win),
                                                                                GDK_SELECTION_CLIPBOARD));
  g_assert_nonnull (csv);
  g_assert_true (g_str_has_prefix (csv, "kernel,backend,precision"));
  g_assert_nonnull (strstr (csv, "\ncpu-blocked,cpu,"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (win), "fit"));

  /* presentation: fullscreen, sidebar hidden; Page Down steps through the bars */
  tl_window_show_view (win, "compare");
  tl_window_set_presentation (win, TRUE);
  pump (0.3);
  GdkEvent *ev = gdk_event_new (GDK_KEY_PRESS);
  ev->key.window = g_object_ref (gtk_widget_get_window (GTK_WIDGET (win)));
  ev->key.keyval = GDK_KEY_Page_Down;
  gboolean handled = FALSE;
  g_signal_emit_by_name (win, "key-press-event", ev, &handled);
  g_assert_true (handled);
  gdk_event_free (ev);
  tl_window_set_presentation (win, FALSE);
  pump (0.3);

  /* the views switch while idle, and back */
  tl_window_show_view (win, "compare");
  pump (0.2);
  tl_window_show_view (win, "device");
  pump (0.1);
  tl_window_show_view (win, "matrices");
  pump (0.2);
}

static void
test_lecture_views (void)
{
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  TlSourcePage *source = TL_SOURCE_PAGE (tl_window_get_page (win, "source"));

  /* Source: a GPU rung's CUDA file is bundled and shown even without a GPU */
  tl_window_show_view (win, "source");
  tl_source_page_show_kernel (source, "gemm-03-smem16");
  g_assert_cmpuint (tl_source_page_get_source_length (source), >, 500);
  tl_source_page_show_kernel (source, "cpu-blocked");
  g_assert_cmpuint (tl_source_page_get_source_length (source), >, 500);

  /* Gauss: factor a small A and step with the clicker keys */
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 24, 24, TL_DTYPE_FLOAT64, 21);
  g_assert_true (wait_until (is_idle, NULL, 20));
  tl_window_show_view (win, "gauss");
  tl_gauss_page_factor (gauss);
  g_assert_true (wait_until (is_idle, NULL, 30));
  g_assert_nonnull (tl_gauss_page_get_record (gauss));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 0);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Right, 0));
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Right, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 2);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Left, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 1);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_End, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 24);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Home, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 0);
  /* Page Down / Page Up: a block step (block 8 on the page), as documented */
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Page_Down, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 8);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Page_Down, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 16);
  g_assert_true (tl_gauss_page_key (gauss, GDK_KEY_Page_Up, 0));
  g_assert_cmpuint (tl_gauss_page_get_step (gauss), ==, 8);
  g_assert_false (tl_gauss_page_key (gauss, GDK_KEY_a, 0));

  /* colours: each step's own range, or one for the whole record (exported too) */
  TlRenderArea *area = TL_RENDER_AREA (tl_gauss_page_get_area (gauss));
  TlRenderOptions o;
  g_assert_false (tl_render_area_get_gauss_record_range (area));
  tl_gauss_page_set_record_range (gauss, TRUE);
  g_assert_true (tl_render_area_get_gauss_record_range (area));
  g_assert_true (tl_page_export_options (TL_PAGE (gauss), &o) && o.gauss_record_range);
  tl_gauss_page_set_record_range (gauss, FALSE);
  g_assert_true (tl_page_export_options (TL_PAGE (gauss), &o) && !o.gauss_record_range);

  /* "Factor A with" offers every rung that records its steps, GPU rungs
   * when there is a GPU, and nothing else */
  GArray *gpus = tl_session_get_gpus (tl_window_get_session (win));
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_get (i);
      gboolean runnable = k->backend == TL_BACKEND_CPU || (gpus && gpus->len > 0);
      g_assert_cmpint (tl_gauss_page_can_factor_with (gauss, k->id), ==, k->records_steps && runnable);
    }
  pump (0.2);
  tl_window_show_view (win, "matrices");
}

static void
test_cancel (void)
{
  static const char *const ids[] = { "cpu-naive", NULL };

  /* long enough to still be running when cancelled: naive 1024³, 50 repeats */
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 1024, 1024, TL_DTYPE_FLOAT64, 5);
  g_assert_true (wait_until (is_idle, NULL, 30));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (is_running, NULL, 5));
  pump (0.5);
  /* while it runs, the views switch and the window keeps answering */
  tl_window_show_view (win, "compare");
  pump (0.1);
  tl_window_show_view (win, "matrices");
  g_assert_true (tl_window_is_running (win));
  gint64 t0 = g_get_monotonic_time ();
  tl_window_cancel (win);
  g_assert_true (wait_until (is_idle, NULL, 30));
  g_test_message ("cancelled after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "cancelled"));
  g_assert_null (tl_window_get_record (win));
  /* the inputs are untouched */
  g_assert_cmpuint (tl_window_get_source (win, TL_TARGET_A)->rows, ==, 1024);
}

static gboolean
one_kernel_finished (gpointer data)
{
  return tl_window_get_n_live_results (win) >= 1;
}

/* Cancelled after the first of two kernels finished: the record keeps it,
 * marks the other cancelled, and the window says the run was cancelled
 * (never a partial result shown as whole). */
static void
test_cancel_keeps_finished (void)
{
  /* OpenBLAS runs first (it is naive's yardstick), then naive 1024³ float64
   * (A and B from test_cancel), which is still running when cancelled */
  static const char *const ids[] = { "cpu-naive", "cpu-openblas", NULL };
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (one_kernel_finished, NULL, 60));
  pump (0.3);
  g_assert_true (tl_window_is_running (win));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL); /* what Escape does */
  g_assert_true (wait_until (is_idle, NULL, 30));

  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_true (rec->cancelled);
  g_assert_cmpuint (rec->runs->len, ==, 2);
  const TlKernelRun *blas = tl_run_record_find_run (rec, "cpu-openblas");
  const TlKernelRun *naive = tl_run_record_find_run (rec, "cpu-naive");
  g_assert_cmpint (blas->status, ==, TL_RUN_OK);
  g_assert_true (blas->verified && blas->passed);
  g_assert_cmpint (naive->status, ==, TL_RUN_CANCELLED);
  g_assert_cmpuint (naive->time.count, ==, 0);
  /* Compare: a bar for the finished kernel, a row saying "cancelled" for the other */
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, 2);
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "cancelled"));
  g_assert_nonnull (strstr (msg, "1 of 2"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
}

static gboolean
is_factoring (gpointer data)
{
  return tl_session_is_factoring (tl_window_get_session (win));
}

/* Escape stops Factor A between steps; the player keeps what it had. */
static void
test_cancel_factor (void)
{
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  const TlLuRecorder *before = tl_gauss_page_get_record (gauss);
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 1500, 1500, TL_DTYPE_FLOAT64, 31);
  g_assert_true (wait_until (is_idle, NULL, 30));
  tl_window_show_view (win, "gauss");
  tl_gauss_page_factor (gauss);
  g_assert_true (wait_until (is_factoring, NULL, 5));
  pump (0.3);
  g_assert_true (is_factoring (NULL));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
  gint64 t0 = g_get_monotonic_time ();
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL);
  g_assert_true (wait_until (is_idle, NULL, 10));
  g_test_message ("Factor A cancelled after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_true (tl_gauss_page_get_record (gauss) == before);
  const char *msg = tl_window_get_info_message (win); /* a cancel is no error */
  g_assert_true (msg == NULL || strstr (msg, "Could not factor") == NULL);
  tl_window_show_view (win, "matrices");
}

static void
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

static void
test_size_mismatch (void)
{
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 30, 20, TL_DTYPE_FLOAT32, 3);
  tl_window_generate (win, TL_TARGET_B, "random-uniform", 21, 10, TL_DTYPE_FLOAT32, 4);
  g_assert_true (wait_until (is_idle, NULL, 20));
  /* said as B arrives, before anyone presses Run */
  g_assert_nonnull (tl_window_get_info_message (win));
  g_assert_nonnull (strstr (tl_window_get_info_message (win), "21×10"));
  g_assert_false (tl_window_run (win));
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "30×20"));
  g_assert_nonnull (strstr (msg, "21×10"));
  g_assert_false (tl_window_is_running (win));
}

static void
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
  guint parses = json_parse_count ();
  tl_window_open_files (win, files, 1);
  g_assert_true (wait_until (is_idle, NULL, 20));
  /* read once: one parse gives the record, its kind and its matrices */
  g_assert_cmpuint (json_parse_count () - parses, ==, 1);
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

static char *
record_path (const char *name)
{
  return g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", name, NULL);
}

/* `tilelab run.json lu.json`: both records stay open; the LU one shows as LU */
static void
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

/* Opens the H200 GEMM record and names two of its kernels that kept block
 * records (ids[0], ids[1]). */
static void
open_record_with_two_timed_kernels (const char *ids[2])
{
  g_autofree char *path = record_path ("h200-gemm-1000x500x1000.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (wait_until (is_idle, NULL, 60));
  gui_test_kernels_with_blocks (win, ids);
  g_assert_nonnull (ids[1]);
}

/* Blocks: two timelines on a shared or on their own time scales, a labelled
 * choice that stays usable in presentation and goes into the export */
static gboolean
exported_own_time_scale (TlPage *page)
{
  TlRenderOptions o;
  g_assert_true (tl_page_export_options (page, &o));
  return o.own_time_scale;
}

static void
test_blocks_time_scale (void)
{
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);

  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  TlRenderArea *timeline = TL_RENDER_AREA (tl_blocks_page_get_area (blocks, TRUE));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], NULL);
  pump (0.1);
  g_assert_false (tl_blocks_page_time_scale_shown (blocks)); /* one timeline: nothing to choose */

  tl_blocks_page_show_kernels (blocks, ids[0], ids[1]);
  pump (0.1);
  g_assert_true (tl_blocks_page_time_scale_shown (blocks));
  g_assert_false (tl_render_area_get_own_time_scale (timeline)); /* shared by default */
  tl_blocks_page_set_own_time_scale (blocks, TRUE);
  g_assert_true (tl_render_area_get_own_time_scale (timeline));
  g_assert_true (exported_own_time_scale (TL_PAGE (blocks)));

  /* presentation keeps the choice, and the choice itself */
  tl_window_set_presentation (win, TRUE);
  pump (0.3);
  g_assert_true (tl_blocks_page_time_scale_shown (blocks));
  g_assert_true (tl_render_area_get_own_time_scale (timeline));
  tl_blocks_page_set_own_time_scale (blocks, FALSE);
  g_assert_false (tl_render_area_get_own_time_scale (timeline));
  g_assert_false (exported_own_time_scale (TL_PAGE (blocks)));
  tl_blocks_page_show_kernels (blocks, ids[0], NULL);
  pump (0.1);
  g_assert_false (tl_blocks_page_time_scale_shown (blocks));
  tl_window_set_presentation (win, FALSE);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* results belong to the inputs shown: new A and B clear C and mark the bars */
static void
test_fresh_results (void)
{
  static const char *const ids[] = { "cpu-naive", "cpu-blocked", NULL };
  TlSession *session = tl_window_get_session (win);
  TlHeatmapView *c = TL_HEATMAP_VIEW (gui_test_heatmap (win, "C"));

  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 40, 40, TL_DTYPE_FLOAT32, 30);
  g_assert_true (wait_until (is_idle, NULL, 20));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (is_idle, NULL, 60));
  g_assert_false (tl_session_results_are_stale (session));
  g_assert_nonnull (tl_heatmap_view_get_matrix (c));

  tl_window_generate (win, TL_TARGET_B, "random-normal", 40, 40, TL_DTYPE_FLOAT32, 31);
  g_assert_true (wait_until (is_idle, NULL, 20));
  g_assert_true (tl_session_results_are_stale (session));
  g_assert_null (tl_heatmap_view_get_matrix (c));                 /* C of the old B is gone */
  g_assert_null (tl_heatmap_view_get_matrix (TL_HEATMAP_VIEW (gui_test_heatmap (win, "ref"))));
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, 2);            /* the timings stay, marked */

  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (is_idle, NULL, 60));
  g_assert_false (tl_session_results_are_stale (session));
  g_assert_nonnull (tl_heatmap_view_get_matrix (c));
}

/* F10 opens the main menu; F9 hides and shows the sidebar */
static void
test_menu_and_sidebar_keys (void)
{
  g_auto (GStrv) menu = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "F10");
  g_auto (GStrv) sidebar = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), "F9");
  g_assert_true (menu && g_strv_contains ((const char *const *) menu, "win.menu"));
  g_assert_true (sidebar && g_strv_contains ((const char *const *) sidebar, "win.sidebar"));

  g_action_group_activate_action (G_ACTION_GROUP (win), "sidebar", NULL);
  g_autoptr (GVariant) hidden = g_action_group_get_action_state (G_ACTION_GROUP (win), "sidebar");
  g_assert_false (g_variant_get_boolean (hidden));
  g_action_group_activate_action (G_ACTION_GROUP (win), "sidebar", NULL);
  g_autoptr (GVariant) shown = g_action_group_get_action_state (G_ACTION_GROUP (win), "sidebar");
  g_assert_true (g_variant_get_boolean (shown));
}

/* a key in the shortcuts window that nothing handles, or an accelerator it
 * does not list, fails */
static void
check_listed_key (const char *accel)
{
  guint key;
  GdkModifierType mods;
  g_auto (GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), accel);
  gtk_accelerator_parse (accel, &key, &mods);
  g_assert_cmpuint (key, !=, 0);
  /* an app accelerator, a key of the Gauss player, or a clicker's key the window takes */
  gboolean works = (actions && actions[0]) || tl_player_action_for_key (key, mods) != TL_PLAYER_NONE;
  if (!works)
    g_error ("the shortcuts window lists %s, which does nothing", accel);
}

typedef struct
{
  guint key;
  GdkModifierType mods;
} Accel;

static void
test_shortcuts_window_lists_the_keys (void)
{
  g_autoptr (GBytes) ui = g_resources_lookup_data ("/org/tilelab/Tilelab/gtk/help-overlay.ui", 0, NULL);
  g_assert_nonnull (ui);
  g_autoptr (GString) text = g_string_new_len (g_bytes_get_data (ui, NULL), g_bytes_get_size (ui));
  g_string_replace (text, "&lt;", "<", 0);
  g_string_replace (text, "&gt;", ">", 0);
  g_autoptr (GRegex) re = g_regex_new ("<property name=\"accelerator\">([^<]*(<[A-Za-z]+>[^<]*)*)</property>",
                                       0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GArray) listed = g_array_new (FALSE, FALSE, sizeof (Accel));

  for (g_regex_match (re, text->str, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *accels = g_match_info_fetch (match, 1);
      g_auto (GStrv) keys = g_strsplit (accels, " ", -1);
      for (guint i = 0; keys[i]; i++)
        if (*keys[i])
          {
            Accel a;
            check_listed_key (keys[i]);
            gtk_accelerator_parse (keys[i], &a.key, &a.mods);
            g_array_append_val (listed, a);
          }
    }
  g_assert_cmpuint (listed->len, >, 20);
  /* every accelerator the app sets is listed */
  g_auto (GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i]; i++)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);
      for (guint j = 0; accels[j]; j++)
        {
          Accel a;
          gboolean found = FALSE;
          gtk_accelerator_parse (accels[j], &a.key, &a.mods);
          for (guint k = 0; k < listed->len; k++)
            found |= g_array_index (listed, Accel, k).key == a.key && g_array_index (listed, Accel, k).mods == a.mods;
          if (!found)
            g_error ("%s (%s) is not in the shortcuts window", accels[j], actions[i]);
        }
    }
}

/* Blocks: the toolbar fits in two rows on a 1024×768 projector even in
 * the high-contrast theme (its bigger, bolder controls once took five
 * rows and most of the plot), and the window does not grow past the
 * screen for it */
static void
collect_combos (GtkWidget *widget, gpointer data)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_COMBO_BOX (widget))
    g_ptr_array_add (data, widget);
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_combos, data);
}

static void
find_flow_box (GtkWidget *widget, gpointer data)
{
  GtkWidget **found = data;
  if (*found == NULL && GTK_IS_FLOW_BOX (widget))
    *found = widget;
  else if (*found == NULL && GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_flow_box, data);
}

static void
test_blocks_toolbar_rows (void)
{
  static const struct
  {
    const char *theme;
    int w, h;
  } cases[] = {
    { "HighContrast", 1024, 768 }, { "HighContrastInverse", 1024, 768 },
    { "Adwaita", 1024, 768 },      { "HighContrast", 1280, 800 },
  };
  const char *ids[2];
  open_record_with_two_timed_kernels (ids);

  GtkSettings *settings = gtk_settings_get_default ();
  g_autofree char *theme_was = NULL;
  g_object_get (settings, "gtk-theme-name", &theme_was, NULL);
  int w_was, h_was;
  gtk_window_get_size (GTK_WINDOW (win), &w_was, &h_was);
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, ids[0], ids[1]);
  GtkWidget *toolbar = NULL;
  find_flow_box (GTK_WIDGET (blocks), &toolbar);
  g_assert_nonnull (toolbar);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_object_set (settings, "gtk-theme-name", cases[c].theme, NULL);
      /* the window, its resize border included, as wide as the screen */
      gui_test_fill_screen (win, cases[c].w, cases[c].h);
      int gw, gh;
      GdkWindow *gdk = gtk_widget_get_window (GTK_WIDGET (win));
      gtk_window_get_size (GTK_WINDOW (win), &gw, &gh);
      gtk_window_resize (GTK_WINDOW (win), cases[c].w - (gdk_window_get_width (gdk) - gw),
                         cases[c].h - (gdk_window_get_height (gdk) - gh));
      pump (0.3);
      int min_w;
      gtk_widget_get_preferred_width (GTK_WIDGET (win), &min_w, NULL);
      g_assert_cmpint (min_w, <=, cases[c].w);
      g_assert_cmpint (gdk_window_get_width (gdk), <=, cases[c].w);

      /* every choice is there, and they lie in at most two rows */
      g_autoptr (GPtrArray) combos = g_ptr_array_new ();
      collect_combos (toolbar, combos);
      g_assert_cmpuint (combos->len, ==, 5);
      int rows = 0, last_y = G_MININT;
      int right = gtk_widget_get_allocated_width (toolbar);
      for (guint i = 0; i < combos->len; i++)
        {
          GtkWidget *combo = combos->pdata[i];
          int x, y, h = gtk_widget_get_allocated_height (combo);
          g_assert_true (gtk_widget_translate_coordinates (combo, toolbar, 0, 0, &x, &y));
          g_assert_cmpint (x + gtk_widget_get_allocated_width (combo), <=, right);
          if (y > last_y + h / 2)
            rows++, last_y = y;
        }
      if (rows > 2)
        g_error ("%s at %d×%d: the Blocks toolbar takes %d rows", cases[c].theme, cases[c].w,
                 cases[c].h, rows);
    }

  g_object_set (settings, "gtk-theme-name", theme_was, NULL);
  gtk_window_resize (GTK_WINDOW (win), w_was, h_was);
  pump (0.3);
  tl_window_show_view (win, "matrices");
}

/* the ticked kernels come back in the next window (GSettings) */
static void
test_remembers_kernels (void)
{
  static const char *const ids[] = { "cpu-blocked", "cpu-openblas", NULL };
  gui_test_only_kernels (win, ids);
  TlWindow *second = tl_window_new (GTK_APPLICATION (app));
  gtk_widget_show (GTK_WIDGET (second));
  g_auto (GStrv) active = tl_window_get_active_kernels (second);
  g_assert_cmpuint (g_strv_length (active), ==, 2);
  g_assert_true (g_strv_contains ((const char *const *) active, "cpu-blocked"));
  g_assert_true (g_strv_contains ((const char *const *) active, "cpu-openblas"));
  gtk_widget_destroy (GTK_WIDGET (second));
}

int
main (int argc, char **argv)
{
  json_parse_count_install ();
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check (&argc, &argv))
    {
      g_printerr ("no display: skipping the GUI tests\n");
      return 77;
    }

  /* Own the main context for the whole test, as a running GMainLoop does:
   * the runner's worker then always posts to it instead of calling in. */
  g_assert_true (g_main_context_acquire (g_main_context_default ()));

  app = tl_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/gui/launch", test_launch);
  g_test_add_func ("/gui/open-files", test_open_files);
  g_test_add_func ("/gui/generate", test_generate);
  g_test_add_func ("/gui/run-cpu", test_run_cpu);
  g_test_add_func ("/gui/lecture-views", test_lecture_views);
  g_test_add_func ("/gui/cancel", test_cancel);
  g_test_add_func ("/gui/cancel-keeps-finished", test_cancel_keeps_finished);
  g_test_add_func ("/gui/cancel-factor", test_cancel_factor);
  g_test_add_func ("/gui/malformed-file", test_malformed);
  g_test_add_func ("/gui/size-mismatch", test_size_mismatch);
  g_test_add_func ("/gui/open-record", test_open_record);
  g_test_add_func ("/gui/records-side-by-side", test_records_side_by_side);
  g_test_add_func ("/gui/blocks-time-scale", test_blocks_time_scale);
  g_test_add_func ("/gui/blocks-toolbar-rows", test_blocks_toolbar_rows);
  g_test_add_func ("/gui/fresh-results", test_fresh_results);
  g_test_add_func ("/gui/menu-and-sidebar-keys", test_menu_and_sidebar_keys);
  g_test_add_func ("/gui/shortcuts-window", test_shortcuts_window_lists_the_keys);
  g_test_add_func ("/gui/remembers-kernels", test_remembers_kernels);
  int rc = g_test_run ();

  if (win)
    gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return rc;
}
