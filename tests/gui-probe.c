/* gui-probe.c — drives the real window for screenshots and measurements.
 *
 *   gui-probe screens OUTDIR   screenshots of every view (import -window root)
 *   gui-probe gap N            worst main-loop gap during an N³ cpu-blocked run
 *   gui-probe draw N           time to draw a pooled N×N heatmap
 *   gui-probe heatmap N        an N×N pair: time from A's arrival in the window
 *                              to its first (coarse) and its full heatmap, and
 *                              the main loop's worst gap meanwhile
 *   gui-probe load FILE [open|drop|recent|api] [cancel-after-ms]
 *                              FILE loaded as A through the Open dialog, a
 *                              drop, the recent files or the window's call:
 *                              every main-loop gap meanwhile (a 1 ms tick),
 *                              its wall time and the main thread's own CPU,
 *                              as a distribution and the longest gaps with
 *                              their CLOCK_MONOTONIC time (to match with
 *                              `perf record -k CLOCK_MONOTONIC`)
 *
 * Not a test: a tool for docs/screenshots and docs/perf (run under Xvfb).
 */
#include <math.h>
#include <time.h>
#include <gtk/gtk.h>

#include "tl-application.h"
#include "tl-heatmap-view.h"
#include "tl-blocks-page.h"
#include "tl-device-page.h"
#include "tl-gauss-page.h"
#include "tl-roofline-page.h"
#include "tl-source-page.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlWindow *win;
static gint64 last_tick, worst_gap, n_ticks, last_cpu, worst_cpu;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

static void
shoot (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *cmd = g_strdup_printf ("import -window root %s", path);
  gui_test_pump (0.6);
  g_autoptr (GError) error = NULL;
  if (!g_spawn_command_line_sync (cmd, NULL, NULL, NULL, &error))
    g_printerr ("gui-probe: %s\n", error->message);
  g_print ("gui-probe: wrote %s\n", path);
}

static gboolean
tick_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = gui_test_thread_cpu_us ();
  if (last_tick && now - last_tick > worst_gap)
    worst_gap = now - last_tick;
  if (last_tick && cpu - last_cpu > worst_cpu)
    worst_cpu = cpu - last_cpu;
  if (last_tick && now - last_tick > 50000)
    g_print ("gui-probe: gap of %.0f ms (main thread busy %.1f ms of it) at %.1f s\n",
             (now - last_tick) / 1000.0, (cpu - last_cpu) / 1000.0, now / 1e6);
  last_tick = now;
  last_cpu = cpu;
  n_ticks++;
  return G_SOURCE_CONTINUE;
}

static int
do_screens (const char *dir)
{
  static const char *const cpu3[] = { "cpu-naive", "cpu-blocked", "cpu-openblas", NULL };
  g_mkdir_with_parents (dir, 0755);

  tl_window_generate_from_option (win, "random-uniform:512", NULL);
  gui_test_wait_until (is_idle, NULL, 60);
  shoot (dir, "01-start.png");

  gui_test_only_kernels (win, cpu3);
  tl_window_run (win);
  gui_test_wait_until (is_idle, NULL, 300);
  tl_matrices_page_show_c (gui_test_matrices (win), "cpu-blocked");
  tl_matrices_page_set_tile_grid (gui_test_matrices (win), TRUE);
  tl_matrices_page_hover_c (gui_test_matrices (win), 200, 300);
  gui_test_wait_until (is_idle, NULL, 60);
  shoot (dir, "02-matrices.png");

  /* small sizes: cpu-naive is in the sweep */
  g_assert_true (tl_session_set_sweep_sizes (tl_window_get_session (win), "128, 256, 300×200×400", NULL));
  tl_window_run_sweep (win);
  gui_test_wait_until (is_idle, NULL, 600);
  tl_window_show_view (win, "compare");
  tl_compare_page_select_bar (gui_test_compare (win), 1);
  shoot (dir, "03-compare.png");

  tl_window_show_view (win, "device");
  shoot (dir, "04-device.png");

  tl_window_show_view (win, "blocks");
  shoot (dir, "06-blocks.png");

  tl_window_show_view (win, "source");
  tl_source_page_show_kernel (TL_SOURCE_PAGE (tl_window_get_page (win, "source")), "gemm-03-smem16");
  shoot (dir, "07-source.png");

  tl_window_show_view (win, "matrices");
  g_autofree char *bad = g_test_build_filename (G_TEST_DIST, "data", "malformed.mtx", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (bad);
  tl_window_load_source (win, TL_TARGET_B, file);
  gui_test_wait_until (is_idle, NULL, 60);
  shoot (dir, "05-error.png");

  /* Gauss: a small A, factored blocked, stopped mid-way */
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 40, 40, TL_DTYPE_FLOAT64, 4);
  gui_test_wait_until (is_idle, NULL, 60);
  tl_window_show_view (win, "gauss");
  TlGaussPage *gp = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  tl_gauss_page_factor (gp);
  gui_test_wait_until (is_idle, NULL, 60);
  for (int i = 0; i < 2; i++)
    tl_gauss_page_key (gp, GDK_KEY_Page_Down, 0);
  tl_gauss_page_key (gp, GDK_KEY_Right, 0);
  tl_gauss_page_key (gp, GDK_KEY_Right, 0);
  g_print ("gui-probe: gauss step %u\n", tl_gauss_page_get_step (gp));
  shoot (dir, "08-gauss.png");

  tl_window_set_presentation (win, TRUE);
  shoot (dir, "09-presentation-gauss.png");
  tl_window_set_presentation (win, FALSE);
  return 0;
}

/* a run record recorded elsewhere (a GPU server), shown on this machine */
static int
do_record (const char *path, const char *dir)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  g_mkdir_with_parents (dir, 0755);
  tl_window_open_files (win, files, 1);
  gui_test_wait_until (is_idle, NULL, 60);
  if (tl_window_get_info_message (win))
    g_print ("gui-probe: %s\n", tl_window_get_info_message (win));
  tl_window_show_view (win, "compare");
  tl_compare_page_select_bar (gui_test_compare (win), 4);
  shoot (dir, "record-compare.png");
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks")), "gemm-03-smem16", "gemm-07-regtile2d");
  tl_blocks_page_hover_tile (TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks")), 40, 15);
  shoot (dir, "record-blocks.png");
  tl_window_show_view (win, "device");
  shoot (dir, "record-device.png");
  tl_window_show_view (win, "source");
  tl_source_page_show_kernel (TL_SOURCE_PAGE (tl_window_get_page (win, "source")), "gemm-07-regtile2d");
  shoot (dir, "record-source.png");
  /* a record with counters: the roofline, a rung's point explained, and
   * its counters beside its lesson */
  TlRooflinePage *roofline = TL_ROOFLINE_PAGE (tl_window_get_page (win, "roofline"));
  if (tl_roofline_page_get_n_points (roofline) > 0)
    {
      tl_window_show_view (win, "roofline");
      tl_roofline_page_select_kernel (roofline, "gemm-09-warptile");
      shoot (dir, "record-roofline.png");
      tl_window_set_presentation (win, TRUE);
      shoot (dir, "record-roofline-presentation.png");
      tl_window_set_presentation (win, FALSE);
      tl_window_show_view (win, "source");
      tl_source_page_show_kernel (TL_SOURCE_PAGE (tl_window_get_page (win, "source")), "gemm-08-vectorized");
      shoot (dir, "record-source-counters.png");
      tl_window_show_view (win, "device");
      tl_device_page_show_kernel (TL_DEVICE_PAGE (tl_window_get_page (win, "device")), "gemm-08-vectorized");
      shoot (dir, "record-device-counters.png");
    }
  return 0;
}

static int
do_gap (gsize n)
{
  static const char *const ids[] = { "cpu-blocked", NULL };

  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", n, n, TL_DTYPE_FLOAT32, 1);
  gui_test_wait_until (is_idle, NULL, 600);
  gui_test_only_kernels (win, ids);

  guint probe = g_timeout_add (5, tick_cb, NULL);
  last_tick = 0;
  worst_gap = 0;
  worst_cpu = 0;
  n_ticks = 0;
  gint64 t0 = g_get_monotonic_time ();
  tl_window_run (win);
  /* meanwhile a user switches views and zooms */
  for (int i = 0; tl_window_is_running (win); i++)
    {
      tl_window_show_view (win, i % 2 ? "compare" : "matrices");
      tl_heatmap_view_zoom (TL_HEATMAP_VIEW (gui_test_heatmap (win, "A")), i % 4 < 2 ? 1.5 : 1 / 1.5);
      gui_test_pump (0.25);
    }
  gui_test_wait_until (is_idle, NULL, 600);
  gint64 t1 = g_get_monotonic_time ();
  g_source_remove (probe);
  const TlRunRecord *rec = tl_window_get_record (win);
  g_print ("gui-probe: gap n=%zu run_s=%.1f ticks=%" G_GINT64_FORMAT " worst_gap_ms=%.1f "
           "worst_main_thread_busy_between_ticks_ms=%.1f record=%s\n",
           n, (t1 - t0) / 1e6, n_ticks, worst_gap / 1000.0, worst_cpu / 1000.0, rec ? "yes" : "no");
  return 0;
}

static int
do_draw (gsize n)
{
  tl_window_generate (win, TL_TARGET_A, "random-uniform", n, n, TL_DTYPE_FLOAT32, 1);
  gint64 t0 = g_get_monotonic_time ();
  gui_test_wait_until (is_idle, NULL, 600);
  g_print ("gui-probe: generate+stats+pool n=%zu took %.0f ms (off the main loop)\n", n,
           (g_get_monotonic_time () - t0) / 1000.0);

  GtkWidget *hm = gui_test_heatmap (win, "A");
  int w = gtk_widget_get_allocated_width (hm), h = gtk_widget_get_allocated_height (hm);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  double times[30];
  for (int i = 0; i < 30; i++)
    {
      cairo_t *cr = cairo_create (s);
      gint64 a = g_get_monotonic_time ();
      gtk_widget_draw (hm, cr);
      cairo_surface_flush (s);
      times[i] = (g_get_monotonic_time () - a) / 1000.0;
      cairo_destroy (cr);
    }
  double mx = 0, sum = 0;
  for (int i = 0; i < 30; i++)
    {
      mx = MAX (mx, times[i]);
      sum += times[i];
    }
  TlHeatmapModel m;
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (hm), &m);
  g_print ("gui-probe: draw n=%zu widget=%dx%d pooled=%zux%zu factor=%u mean_ms=%.2f max_ms=%.2f\n", n, w, h,
           m.grid ? m.grid->grid_rows : 0, m.grid ? m.grid->grid_cols : 0, m.grid ? m.grid->factor_r : 0,
           sum / 30, mx);

  /* zoomed in: the visible region is re-pooled finer, off the main loop */
  tl_heatmap_view_zoom (TL_HEATMAP_VIEW (hm), 8);
  gui_test_pump (0.3);
  gui_test_wait_until (is_idle, NULL, 60);
  cairo_t *cr = cairo_create (s);
  gint64 a = g_get_monotonic_time ();
  gtk_widget_draw (hm, cr);
  cairo_destroy (cr);
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (hm), &m);
  g_print ("gui-probe: draw zoomed ×8 pooled=%zux%zu factor=%u ms=%.2f\n",
           m.grid ? m.grid->grid_rows : 0, m.grid ? m.grid->grid_cols : 0, m.grid ? m.grid->factor_r : 0,
           (g_get_monotonic_time () - a) / 1000.0);
  cairo_surface_destroy (s);
  return 0;
}

/* when A arrived in the session (the matrix is loaded; what follows is the window's) */
static gint64 a_arrived;

static void
a_arrived_cb (TlSession *session, guint index, gpointer data)
{
  if (index == 0)
    a_arrived = g_get_monotonic_time ();
}

static gboolean
heatmap_drawn (gpointer data)
{
  TlHeatmapModel m;
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (data), &m);
  return a_arrived && m.grid != NULL;
}

static gboolean
heatmap_full (gpointer data)
{
  return heatmap_drawn (data) && !tl_heatmap_view_is_busy (TL_HEATMAP_VIEW (data));
}

static int
do_heatmap (gsize n)
{
  GtkWidget *hm = gui_test_heatmap (win, "A");
  g_signal_connect (tl_window_get_session (win), "source-changed", G_CALLBACK (a_arrived_cb), NULL);
  tl_window_show_view (win, "matrices");
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", n, n, TL_DTYPE_FLOAT32, 1);
  /* generating 8192² takes seconds (threads); the clock starts when A arrives */
  guint probe = g_timeout_add (5, tick_cb, NULL);
  last_tick = worst_gap = worst_cpu = n_ticks = 0;
  gui_test_wait_until (heatmap_drawn, hm, 600);
  gint64 first = g_get_monotonic_time ();
  gui_test_wait_until (heatmap_full, hm, 600);
  gint64 full = g_get_monotonic_time ();
  gui_test_wait_until (is_idle, NULL, 600);
  g_source_remove (probe);
  TlHeatmapModel m;
  tl_heatmap_view_get_model (TL_HEATMAP_VIEW (hm), &m);
  g_print ("gui-probe: heatmap n=%zu first_ms=%.0f full_ms=%.0f pooled=%zux%zu worst_gap_ms=%.1f "
           "worst_main_thread_busy_between_ticks_ms=%.1f\n", n, (first - a_arrived) / 1000.0,
           (full - a_arrived) / 1000.0, m.grid ? m.grid->grid_rows : 0, m.grid ? m.grid->grid_cols : 0,
           worst_gap / 1000.0, worst_cpu / 1000.0);
  return 0;
}

/* ---- every gap of the main loop during a load ---------------------------- */

typedef struct
{
  gint64 at, wall, cpu; /* µs: when the gap ended, how long, the main thread's CPU in it */
} Gap;

static GArray *gaps;

static gboolean
gap_tick_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time (), cpu = gui_test_thread_cpu_us ();
  if (last_tick)
    g_array_append_val (gaps, ((Gap) { now, now - last_tick, cpu - last_cpu }));
  last_tick = now;
  last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static int
by_wall (gconstpointer a, gconstpointer b)
{
  return (((const Gap *) a)->wall < ((const Gap *) b)->wall) - (((const Gap *) a)->wall > ((const Gap *) b)->wall);
}

static int
by_cpu (gconstpointer a, gconstpointer b)
{
  return (((const Gap *) a)->cpu < ((const Gap *) b)->cpu) - (((const Gap *) a)->cpu > ((const Gap *) b)->cpu);
}

/* the distribution of gaps (sorted longest first by compare) in ms */
static void
print_gaps (const char *what, GCompareFunc compare, gsize offset, gint64 t0)
{
  g_array_sort (gaps, compare);
  guint n = gaps->len;
#define FIELD(i) (*(const gint64 *) ((const char *) &g_array_index (gaps, Gap, (i)) + offset) / 1e3)
  g_print ("gui-probe: %s ms: max %.1f p99.9 %.1f p99 %.1f p90 %.1f median %.1f (%u gaps)\n", what,
           FIELD (0), FIELD (n / 1000), FIELD (n / 100), FIELD (n / 10), FIELD (n / 2), n);
#undef FIELD
  for (guint i = 0; i < MIN (n, 6u); i++)
    {
      const Gap *g = &g_array_index (gaps, Gap, i);
      g_print ("gui-probe:   %.1f ms wall, %.1f ms CPU, ended at +%.3f s (monotonic %.6f s)\n",
               g->wall / 1e3, g->cpu / 1e3, (g->at - t0) / 1e6, g->at / 1e6);
    }
}

static gboolean
a_is (gpointer data)
{
  return tl_window_get_source (win, TL_TARGET_A) == data;
}

/* the Open dialog is shown, has listed its folder (as it has by the time
 * a user clicks) and has its file chosen before the clock starts: the
 * clock measures from Open */
static GtkDialog *
prepare_load (const char *how, GFile *file)
{
  if (g_strcmp0 (how, "open") != 0)
    return NULL;
  GtkDialog *dialog = gui_test_choose_in_dialog (G_ACTION_GROUP (win), "open-a", file);
  gui_test_pump (1.0);
  return dialog;
}

static void
start_load (const char *how, GFile *file, GtkDialog *dialog)
{
  if (dialog)
    gtk_dialog_response (dialog, GTK_RESPONSE_ACCEPT);
  else if (g_strcmp0 (how, "drop") == 0)
    gui_test_drop_file (GTK_WIDGET (win), file);
  else if (g_strcmp0 (how, "recent") == 0)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_action_group_activate_action (G_ACTION_GROUP (win), "open-recent", g_variant_new_string (uri));
    }
  else
    tl_window_load_source (win, TL_TARGET_A, file);
}

/* FILE opened over a small A shown before (as A, or as B where the way
 * in picks B when A is there: a drop), the gaps meanwhile; with
 * cancel_ms, Escape that long after the start */
static int
do_load (const char *path, const char *how, double cancel_ms)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  tl_window_show_view (win, "matrices");
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 300, 200, TL_DTYPE_FLOAT64, 1);
  gui_test_wait_until (is_idle, NULL, 60);
  TlMatrix *before = tl_window_get_source (win, TL_TARGET_A);
  GtkDialog *dialog = prepare_load (how, file);
  gaps = g_array_new (FALSE, FALSE, sizeof (Gap));
  last_tick = 0;
  guint probe = g_timeout_add (1, gap_tick_cb, NULL);
  gint64 t0 = g_get_monotonic_time ();
  start_load (how, file, dialog);
  if (cancel_ms > 0)
    {
      gui_test_pump (cancel_ms / 1e3);
      g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL);
    }
  /* until A is new (or the load ended), then its heatmap settles */
  gui_test_wait_until (is_idle, NULL, 600);
  gint64 loaded = g_get_monotonic_time ();
  /* (and the desktop's recent files reloaded: they change after a load) */
  gui_test_pump (2.0);
  gui_test_wait_until (is_idle, NULL, 600);
  gint64 t1 = g_get_monotonic_time ();
  g_source_remove (probe);
  TlMatrix *a = tl_window_get_source (win, TL_TARGET_A), *b = tl_window_get_source (win, TL_TARGET_B);
  g_print ("gui-probe: load %s by %s (monotonic %.6f to %.6f s): A %zux%zu%s, B %zux%zu, idle after %.0f ms, "
           "settled after %.0f ms\n", path, how, t0 / 1e6, t1 / 1e6, a ? a->rows : 0, a ? a->cols : 0, a_is (before) ? " (the previous A)" : "",
           b ? b->rows : 0, b ? b->cols : 0, (loaded - t0) / 1e3, (t1 - t0) / 1e3);
  print_gaps ("wall gap", by_wall, G_STRUCT_OFFSET (Gap, wall), t0);
  print_gaps ("main thread's CPU per gap", by_cpu, G_STRUCT_OFFSET (Gap, cpu), t0);
  g_array_unref (gaps);
  return 0;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc < 3 || !gtk_init_check (&argc, &argv))
    {
      g_printerr ("usage: gui-probe screens DIR | record FILE.json DIR | gap N | draw N | heatmap N | load FILE [open|drop|recent|api] [CANCEL_MS] (needs a display)\n");
      return 2;
    }
  g_autoptr (TlApplication) app = NULL;
  win = gui_test_start_app (&app);
  gui_test_fill_screen (win, 1560, 950);
  if (g_getenv ("TL_PROBE_SIZES"))
    {
      GtkRequisition min, nat;
      gtk_widget_get_preferred_size (GTK_WIDGET (win), &min, &nat);
      g_print ("gui-probe: window %d×%d, minimum %d×%d\n",
               gtk_widget_get_allocated_width (GTK_WIDGET (win)),
               gtk_widget_get_allocated_height (GTK_WIDGET (win)), min.width, min.height);
    }

  int rc = 2;
  if (g_strcmp0 (argv[1], "screens") == 0)
    rc = do_screens (argv[2]);
  else if (g_strcmp0 (argv[1], "gap") == 0)
    rc = do_gap (g_ascii_strtoull (argv[2], NULL, 10));
  else if (g_strcmp0 (argv[1], "record") == 0 && argc > 3)
    rc = do_record (argv[2], argv[3]);
  else if (g_strcmp0 (argv[1], "draw") == 0)
    rc = do_draw (g_ascii_strtoull (argv[2], NULL, 10));
  else if (g_strcmp0 (argv[1], "heatmap") == 0)
    rc = do_heatmap (g_ascii_strtoull (argv[2], NULL, 10));
  else if (g_strcmp0 (argv[1], "load") == 0)
    rc = do_load (argv[2], argc > 3 ? argv[3] : "api", argc > 4 ? g_ascii_strtod (argv[4], NULL) : 0);
  gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  return rc;
}
