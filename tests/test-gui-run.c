/* test-gui-run.c — part of test-gui: launch, open files, generate, a CPU run, the lecture views, fresh results, the kernels remembered. */
#include "test-gui-window.h"

#include <math.h>
#include <glib/gstdio.h>

#include "view/tl-player.h"
#include "tl-compare-page.h"
#include "tl-chart-view.h"
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

/* the status bar says what the page on show offers to read: Compare has no
 * heatmap or block to point at */
void
test_status_hint (void)
{
  tl_window_show_view (win, "compare");
  g_assert_nonnull (strstr (tl_window_get_hover_text (win), "bar"));
  g_assert_null (strstr (tl_window_get_hover_text (win), "heatmap"));
  tl_window_show_view (win, "matrices");
  g_assert_nonnull (strstr (tl_window_get_hover_text (win), "heatmap"));
  tl_window_show_view (win, "blocks");
  g_assert_nonnull (strstr (tl_window_get_hover_text (win), "block"));
  tl_window_show_view (win, "source");
  g_assert_cmpstr (tl_window_get_hover_text (win), ==, "");
  tl_window_show_view (win, "matrices");
}

/* a bar's name cut to fit its column reads whole in the bar's tooltip */
void
test_bar_tooltip (void)
{
  static const char name[] = "16 double-buffered, 4×8 warps, planned";
  TlCompareBar bars[] = { { .label = "02 coalesced", .median_ms = 2, .min_ms = 2, .max_ms = 2 },
                          { .label = name, .median_ms = 1, .min_ms = 1, .max_ms = 1 } };
  TlCompareModel model;
  tl_compare_model_init (&model);
  model.bars = bars;
  model.n_bars = G_N_ELEMENTS (bars);
  GtkWidget *window = gtk_offscreen_window_new ();
  GtkWidget *chart = tl_chart_view_new (TL_CHART_BARS);
  tl_chart_view_set_bars (TL_CHART_VIEW (chart), &model);
  gtk_widget_set_size_request (chart, 400, 300);
  gtk_container_add (GTK_CONTAINER (window), chart);
  gtk_widget_show_all (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (gtk_widget_get_has_tooltip (chart));
  g_assert_cmpstr (tl_chart_view_get_bar_label_at (TL_CHART_VIEW (chart), 20, 200), ==, name);
  g_assert_cmpstr (tl_chart_view_get_bar_label_at (TL_CHART_VIEW (chart), 20, 2), ==, NULL);
  gtk_widget_destroy (window);
}

static void
collect_heatmaps (GtkWidget *w, gpointer data)
{
  if (TL_IS_HEATMAP_VIEW (w))
    g_ptr_array_add (data, w);
  else if (GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), collect_heatmaps, data);
}

/* Before a run, presenting, the Matrices page gives A and B the height:
 * the reference and error panels, a line of text each, took half of it
 * (A and B ~150 px in a 335 px panel at 1024×768) */
static void
inputs_get_the_room (void)
{
  tl_window_show_view (win, "matrices");
  tl_window_set_presentation (win, TRUE);
  pump (0.5);
  g_autoptr (GPtrArray) maps = g_ptr_array_new ();
  collect_heatmaps (tl_window_get_page (win, "matrices"), maps);
  g_assert_cmpuint (maps->len, ==, 5); /* A, B, C; the reference and the error under them */
  int a_h = G_MAXINT, ref_h = 0;
  for (guint i = 0; i < maps->len; i++)
    {
      int top, h = gtk_widget_get_allocated_height (maps->pdata[i]);
      gtk_container_child_get (GTK_CONTAINER (gtk_widget_get_parent (maps->pdata[i])), maps->pdata[i],
                               "top-attach", &top, NULL);
      if (top == 0)
        a_h = MIN (a_h, h);
      else
        ref_h = MAX (ref_h, h);
    }
  g_test_message ("presenting before a run: A %d px high, the reference %d px", a_h, ref_h);
  g_assert_cmpint (2 * a_h, >=, 3 * ref_h);
  tl_window_set_presentation (win, FALSE);
  pump (0.3);
}

void
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
  inputs_get_the_room ();
}

/* `tilelab FILE FILE`: the first becomes A, the second B (the bundled samples) */
void
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

void
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

void
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

/* results belong to the inputs shown: new A and B clear C and mark the bars */
void
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

/* the ticked kernels come back in the next window (GSettings) */
void
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
