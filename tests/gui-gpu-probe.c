/* gui-gpu-probe.c — drives the real window on a GPU machine.
 *
 *   gui-gpu-probe OUTDIR
 *
 * Run by tools/gpu-gui-check.sh under Xvfb on the device machine (not a
 * test of the suite: it needs a GPU).  Each check prints one line
 * "gui-gpu: CHECK PASS|FAIL …"; screenshots of each page go to OUTDIR;
 * the exit code is the number of failed checks.
 *
 *   devices    the probe found a GPU; the chooser offers GPU 0 by its
 *              ordinal and has no entry for a missing ordinal
 *   rungs      every GPU rung of every element type at 1000×777×1111,
 *              from the window, each verified (or skipped with its reason)
 *   cancel-2s  Escape in the middle of a ~2 s launch (gemm-01-naive,
 *              8192²): the window is idle within one launch + 0.2 s
 *   cancel-10ms  the same during ~10 ms launches (1344²)
 *   too-big    a product larger than the card's memory: refused by the
 *              GPU-memory check with its message before anything is
 *              allocated (no reference computed); the window then runs a
 *              small job
 *   user-*     your own kernels from the window, each in its worker process
 *              (tilelab-cli serve --stdio): an illegal address, a kernel
 *              that never ends (the watchdog, 10 s), more shared memory
 *              than a block can have — each an error in words — and then
 *              a good kernel (rung 3 in the user form) beside rung 3: both
 *              verified, the window's GPU unharmed
 *   lu-gpu     the Gauss page factors a small A on the GPU (lu-03-tuned)
 *   cancel-lu  Escape while the Gauss page factors a large A on the GPU
 *              (lu-01-percolumn: between columns; lu-03-tuned: between
 *              block steps): idle soon after, the player keeps what it had
 *
 * Screenshots: every page in the light theme and the Compare page in the
 * dark one, at the X screen's size (1280×800 in the check).
 *
 * TL_GPU_PROBE_ONLY=user: devices and your own kernels only (a short
 * device call for the user-* cases).
 */
#include <math.h>
#include <string.h>
#include <gtk/gtk.h>

#include "gemm/tl-kernels.h"
#include "gemm/tl-user-templates.h"
#include "tl-application.h"
#include "tl-blocks-page.h"
#include "tl-gauss-page.h"
#include "tl-source-page.h"
#include "tl-window.h"

#include "gui-test-util.h"

static TlWindow *win;
static const char *out_dir;
static int n_failed;

/* The worker's progress, as the window sees it: the latest stage and
 * when the timed launches began. */
static char last_stage[256];
static gint64 run_started_us[4]; /* "run 1 of" … "run 4 of" */

static gboolean
is_idle (gpointer data)
{
  return !tl_window_is_busy (win);
}

static gboolean
is_factoring_done (gpointer data)
{
  return !tl_session_is_factoring (tl_window_get_session (win));
}

static gboolean
stage_reached (gpointer data)
{
  return strstr (last_stage, data) != NULL;
}

static void
progress_cb (TlRunner *runner, const TlRunProgress *p, gpointer data)
{
  g_strlcpy (last_stage, p->stage ? p->stage : "", sizeof last_stage);
  for (int r = 0; r < (int) G_N_ELEMENTS (run_started_us); r++)
    {
      g_autofree char *prefix = g_strdup_printf ("run %d of", r + 1);
      if (g_str_has_prefix (last_stage, prefix) && run_started_us[r] == 0)
        run_started_us[r] = g_get_monotonic_time ();
    }
}

static void
verdict (const char *check, gboolean passed, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
verdict (const char *check, gboolean passed, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_print ("gui-gpu: %s %s %s\n", check, passed ? "PASS" : "FAIL", text);
  n_failed += !passed;
}

/* The window as it is on screen, read back from the X server. */
static void
shoot (const char *name)
{
  gui_test_pump (0.8);
  GdkWindow *w = gtk_widget_get_window (GTK_WIDGET (win));
  int width = gdk_window_get_width (w), height = gdk_window_get_height (w);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (s);
  gdk_cairo_set_source_window (cr, w, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  g_autofree char *path = g_build_filename (out_dir, name, NULL);
  cairo_status_t st = cairo_surface_write_to_png (s, path);
  cairo_surface_destroy (s);
  g_print ("gui-gpu: screenshot %s (%s)\n", path, cairo_status_to_string (st));
}

/* The header bar's device chooser: the combo box whose entries are
 * "gpuN" and "cpu". */
static void
find_chooser_cb (GtkWidget *widget, gpointer data)
{
  GtkWidget **found = data;
  if (*found)
    return;
  if (GTK_IS_COMBO_BOX (widget) && gtk_combo_box_get_id_column (GTK_COMBO_BOX (widget)) >= 0)
    {
      const char *saved = gtk_combo_box_get_active_id (GTK_COMBO_BOX (widget));
      g_autofree char *keep = g_strdup (saved);
      if (gtk_combo_box_set_active_id (GTK_COMBO_BOX (widget), "cpu"))
        {
          gtk_combo_box_set_active_id (GTK_COMBO_BOX (widget), keep);
          *found = widget;
          return;
        }
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_chooser_cb, data);
}

static GtkComboBox *
device_chooser (void)
{
  GtkWidget *found = NULL;
  find_chooser_cb (gtk_window_get_titlebar (GTK_WINDOW (win)), &found);
  if (found == NULL)
    find_chooser_cb (GTK_WIDGET (win), &found);
  return found ? GTK_COMBO_BOX (found) : NULL;
}

static void
check_devices (void)
{
  GArray *gpus = tl_session_get_gpus (tl_window_get_session (win));
  GtkComboBox *chooser = device_chooser ();
  if (gpus->len == 0 || chooser == NULL)
    {
      verdict ("devices", FALSE, "%u GPU(s) found; chooser %s", gpus->len,
               chooser ? "present" : "missing");
      return;
    }
  g_autofree char *missing = g_strdup_printf ("gpu%u", gpus->len);
  gboolean took_missing = gtk_combo_box_set_active_id (chooser, missing);
  gboolean took_0 = gtk_combo_box_set_active_id (chooser, "gpu0");
  const TlGpuFacts *f = &g_array_index (gpus, TlGpuFacts, 0);
  verdict ("devices", took_0 && !took_missing,
           "%u GPU(s); GPU 0: %s, cc %d.%d, %d SMs, %.1f GiB; chooser took gpu0: %s; offered %s: %s",
           gpus->len, f->name, f->cc_major, f->cc_minor, f->sm_count,
           f->total_mem_bytes / 1073741824.0, took_0 ? "yes" : "no", missing,
           took_missing ? "yes (wrong)" : "no");
}

static void
set_setting (const char *key, GVariant *value)
{
  g_autoptr (GSettings) settings = g_settings_new ("org.tilelab.Tilelab");
  g_settings_set_value (settings, key, value);
}

/* A (m×k) and B (k×n) of dtype from the random generator, and the GPU
 * kernels that take dtype ticked (or only `only`). */
static void
prepare (TlDtype dtype, gsize m, gsize k, gsize n, const char *only, double repeats)
{
  set_setting ("dtype", g_variant_new_string (tl_dtype_name (dtype)));
  set_setting ("repeats", g_variant_new_double (repeats));
  const char *spec = dtype == TL_DTYPE_INT32 ? "random-int" : "random-uniform";
  tl_window_generate (win, TL_TARGET_A, spec, m, k, dtype, 7);
  tl_window_generate (win, TL_TARGET_B, spec, k, n, dtype, 8);
  gui_test_wait_until (is_idle, NULL, 300);
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *info = tl_kernel_get (i);
      if (info->backend == TL_BACKEND_GPU && tl_kernel_supports (info, dtype)
          && (only == NULL || strcmp (only, info->id) == 0))
        g_ptr_array_add (ids, (gpointer) info->id);
    }
  g_ptr_array_add (ids, NULL);
  gui_test_only_kernels (win, (const char *const *) ids->pdata);
}

/* Every GPU kernel that takes dtype, from the window: each ran and
 * passed its check, or was skipped with a reason. */
static void
check_rungs (TlDtype dtype)
{
  prepare (dtype, 1000, 777, 1111, NULL, 3);
  gint64 t0 = g_get_monotonic_time ();
  tl_window_run (win);
  gui_test_wait_until (is_idle, NULL, 600);
  const TlRunRecord *rec = tl_window_get_record (win);
  g_autofree char *check = g_strdup_printf ("rungs-%s", tl_dtype_name (dtype));
  if (rec == NULL)
    {
      verdict (check, FALSE, "no record; the window says: %s",
               tl_window_get_info_message (win) ? tl_window_get_info_message (win) : "nothing");
      return;
    }
  guint ok = 0, skipped = 0, bad = 0;
  for (guint i = 0; i < rec->runs->len; i++)
    {
      const TlKernelRun *run = rec->runs->pdata[i];
      gboolean good = run->status == TL_RUN_OK && run->passed;
      ok += good;
      skipped += run->status == TL_RUN_SKIPPED;
      bad += !good && run->status != TL_RUN_SKIPPED;
      g_print ("gui-gpu:   %-22s %-9s median %10.4f ms  rel err %.2e  %s\n", run->kernel_id,
               tl_run_status_name (run->status), run->time.median, run->rel_norm,
               run->message ? run->message : (good ? "verified" : "CHECK FAILED"));
    }
  verdict (check, bad == 0 && ok > 0 && rec->has_device && rec->device.ordinal == 0,
           "1000×777×1111: %u verified, %u skipped, %u failed, on GPU %d (%s); %.1f s", ok,
           skipped, bad, rec->device.ordinal, rec->device.name,
           (g_get_monotonic_time () - t0) / 1e6);
}

/* Escape as the keyboard sends it (win.cancel is bound to Escape) */
static void
press_escape (void)
{
  gui_test_press_key (win, GDK_KEY_Escape, 0);
}

/* Starts gemm-01-naive at n², waits for the timed launches, lets `into`
 * of a launch pass and presses Escape: the window must be idle within one
 * launch + 0.2 s (the launch measured between two "run k of" stages). */
static void
check_cancel (const char *check, gsize n, double into, const char *shot)
{
  prepare (TL_DTYPE_FLOAT32, n, n, n, "gemm-01-naive", 100);
  memset (run_started_us, 0, sizeof run_started_us);
  last_stage[0] = '\0';
  tl_window_run (win);
  if (!gui_test_wait_until (stage_reached, "run 3 of", 300))
    {
      verdict (check, FALSE, "the timed runs never started (stage: %s)", last_stage);
      return;
    }
  double launch_ms = (run_started_us[2] - run_started_us[1]) / 1000.0;
  gui_test_pump (into * launch_ms / 1000.0);
  gint64 escape = g_get_monotonic_time ();
  g_debug ("gui-gpu: Escape at %.3f ms (monotonic)", escape / 1000.0);
  press_escape ();
  gboolean stopped = gui_test_wait_until (is_idle, NULL, 120);
  gint64 idle = g_get_monotonic_time ();
  g_debug ("gui-gpu: window idle at %.3f ms (monotonic)", idle / 1000.0);
  double latency_ms = (idle - escape) / 1000.0;
  const char *said = tl_window_get_info_message (win);
  if (shot)
    shoot (shot);
  verdict (check, stopped && latency_ms <= launch_ms + 200.0,
           "n=%zu: one launch %.1f ms, Escape → idle %.1f ms (limit %.1f); the window says: %s",
           n, launch_ms, latency_ms, launch_ms + 200.0, said ? said : "nothing");
}

static gboolean
lu_recorded (gpointer data)
{
  return !tl_session_is_factoring (tl_window_get_session (win))
         && tl_gauss_page_get_record (TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"))) != NULL;
}

/* A small A factored on the GPU from the Gauss page, recorded step by step. */
static void
check_lu_gpu (void)
{
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 96, 96, TL_DTYPE_FLOAT64, 5);
  gui_test_wait_until (is_idle, NULL, 60);
  tl_window_show_view (win, "gauss");
  TlSession *session = tl_window_get_session (win);
  gboolean started = tl_session_factor (session, "lu-03-tuned", 16);
  gboolean done = started && gui_test_wait_until (lu_recorded, NULL, 60);
  const char *said = tl_window_get_info_message (win);
  /* two block steps in, as a lecture would show it */
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  tl_gauss_page_key (gauss, GDK_KEY_Page_Down, 0);
  tl_gauss_page_key (gauss, GDK_KEY_Page_Down, 0);
  shoot ("gpu-gauss.png");
  verdict ("lu-gpu", done, "lu-03-tuned, 96² float64, block 16, recorded on the GPU: %s; "
           "the window says: %s", done ? "shown on the Gauss page" : "no record",
           said ? said : "nothing");
}

/* The Gauss page factors a large A on the GPU (recording its steps);
 * Escape stops it at the next step, and the player keeps the record it
 * showed before (a half factorisation is no result). */
static void
check_cancel_lu (const char *kernel, gsize n, double limit_ms)
{
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  const TlLuRecorder *before = tl_gauss_page_get_record (gauss);
  tl_window_generate (win, TL_TARGET_A, "random-uniform", n, n, TL_DTYPE_FLOAT32, 3);
  gui_test_wait_until (is_idle, NULL, 300);
  tl_window_show_view (win, "gauss");
  TlSession *session = tl_window_get_session (win);
  g_autofree char *check = g_strdup_printf ("cancel-%s", kernel);
  if (!tl_session_factor (session, kernel, 0))
    {
      verdict (check, FALSE, "the Gauss page did not start");
      return;
    }
  gui_test_pump (1.5);
  gboolean running = tl_session_is_factoring (session);
  gint64 escape = g_get_monotonic_time ();
  g_debug ("gui-gpu: Escape at %.3f ms (monotonic)", escape / 1000.0);
  press_escape ();
  gboolean stopped = gui_test_wait_until (is_factoring_done, NULL, 60);
  double latency_ms = (g_get_monotonic_time () - escape) / 1000.0;
  gboolean kept = tl_gauss_page_get_record (gauss) == before;
  const char *said = tl_window_get_info_message (win);
  verdict (check, running && stopped && kept && latency_ms <= limit_ms,
           "%s recording %zu² float32: Escape 1.5 s in → idle %.1f ms (limit %.0f); "
           "the player kept its record: %s; the window says: %s",
           kernel, n, latency_ms, limit_ms, kept ? "yes" : "no", said ? said : "nothing");
}

/* C alone larger than the card: m = n with 4·m·n > its memory, k = 1.
 * cuBLAS (our rungs index with 32 bits and refuse the shape first). */
static void
check_too_big (void)
{
  GArray *gpus = tl_session_get_gpus (tl_window_get_session (win));
  guint64 total = g_array_index (gpus, TlGpuFacts, 0).total_mem_bytes;
  gsize n = (gsize) ceil (sqrt (1.15 * total / 4.0));
  prepare (TL_DTYPE_FLOAT32, n, 1, n, "cublas-fp32", 1);
  gint64 t0 = g_get_monotonic_time ();
  tl_window_run (win);
  gboolean done = gui_test_wait_until (is_idle, NULL, 120);
  double took_s = (g_get_monotonic_time () - t0) / 1e6;
  const TlRunRecord *rec = tl_window_get_record (win);
  const TlKernelRun *run = rec ? tl_run_record_find_run (rec, "cublas-fp32") : NULL;
  const char *said = tl_window_get_info_message (win);
  /* the GPU-memory check's own message (gemm run), not the harness's
   * allocation failure nor the host's cap on the reference */
  gboolean refused = run && run->status == TL_RUN_ERROR && run->message
                     && strstr (run->message, "of GPU memory for A, B and C")
                     && strstr (run->message, "Nothing was allocated");
  /* …and the message bar says it, not only the kernel's row */
  gboolean bar = said && strstr (said, "of GPU memory for A, B and C") != NULL;
  shoot ("gpu-too-big.png");
  verdict ("too-big", done && refused && bar, "%zu×1×%zu float32 (C alone %.1f GiB): %s after %.1f s; "
           "the window says: %s", n, n, 4.0 * n * n / 1073741824.0,
           run && run->message ? run->message : "no message", took_s, said ? said : "nothing");

  /* still usable: a small run right after */
  prepare (TL_DTYPE_FLOAT32, 301, 203, 307, "gemm-03-smem16", 3);
  tl_window_run (win);
  gui_test_wait_until (is_idle, NULL, 120);
  rec = tl_window_get_record (win);
  run = rec ? tl_run_record_find_run (rec, "gemm-03-smem16") : NULL;
  verdict ("usable-after", run && run->status == TL_RUN_OK && run->passed,
           "gemm-03-smem16 at 301×203×307 after the refusal: %s",
           run ? tl_run_status_name (run->status) : "no record");
}

/* ---- your own kernels ------------------------------------------------------- */

static gboolean
kernel_known (gpointer id)
{
  return tl_kernel_find (id) != NULL;
}

/* Opens DIR/name holding text as the window does (a dropped file), runs it
 * alone (or beside `also`) at 300×200×100 float32; its run, or NULL. */
static const TlKernelRun *
run_user_kernel (const char *name, const char *text, const char *also, double *took_s)
{
  g_autofree char *path = g_build_filename (out_dir, name, NULL);
  g_file_set_contents (path, text, -1, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  tl_window_open_files (win, &file, 1);
  if (!gui_test_wait_until (kernel_known, (gpointer) name, 20))
    return NULL;
  gui_test_pump (0.3); /* the kernel panel lists it */
  prepare (TL_DTYPE_FLOAT32, 300, 200, 100, also ? also : "none", 3);
  const char *ids[] = { name, also, NULL };
  gui_test_only_kernels (win, ids);
  gint64 t0 = g_get_monotonic_time ();
  tl_window_run (win);
  gui_test_wait_until (is_idle, NULL, 120);
  *took_s = (g_get_monotonic_time () - t0) / 1e6;
  const TlRunRecord *rec = tl_window_get_record (win);
  return rec ? tl_run_record_find_run (rec, name) : NULL;
}

static void
expect_user_error (const char *check, const char *name, const char *body, const char *fragment)
{
  g_autofree char *text = g_strconcat ("// tilelab: float32 = gemm\n"
                                       "// tilelab: block = 16, 16\n"
                                       "// tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)\n",
                                       body, NULL);
  double took_s = 0;
  const TlKernelRun *run = run_user_kernel (name, text, NULL, &took_s);
  gboolean said = run && run->status == TL_RUN_ERROR && run->message
                  && strstr (run->message, fragment) != NULL;
  verdict (check, said, "%s after %.1f s: %s", name, took_s,
           run && run->message ? run->message : "no run");
}

static void
check_user_kernels (void)
{
  static const char *const begin =
    "__global__ void gemm (int m, int n, int k, const float *a, const float *b, float *c)\n"
    "{\n"
    "  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "  if (i >= m || j >= n) return;\n"
    "  float s = 0;\n"
    "  for (int p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];\n";
  g_autofree char *illegal = g_strconcat (begin, "  ((float *) 0x10)[i * n + j] = s;\n}\n", NULL);
  expect_user_error ("user-illegal", "illegal.cu", illegal, "made the GPU fault");
  g_autofree char *hang = g_strconcat (begin, "  while (clock64 () >= 0) { }\n  c[i * n + j] = s;\n}\n",
                                       NULL);
  expect_user_error ("user-hang", "hang.cu", hang, "watchdog");
  g_autofree char *smem = g_strconcat ("// tilelab: shared = 300 * 1024\n", begin,
                                       "  extern __shared__ float t[]; t[0] = s; c[i * n + j] = t[0];\n}\n",
                                       NULL);
  expect_user_error ("user-shared", "shared.cu", smem, "shared memory");

  double took_s = 0;
  const TlKernelRun *mine = run_user_kernel ("good.cu", tl_user_template_text ("gemm-03-smem16"),
                                             "gemm-03-smem16", &took_s);
  const TlRunRecord *rec = tl_window_get_record (win);
  const TlKernelRun *rung = rec ? tl_run_record_find_run (rec, "gemm-03-smem16") : NULL;
  gboolean good = mine && mine->status == TL_RUN_OK && mine->passed && rung
                  && rung->status == TL_RUN_OK && rung->passed;
  shoot ("gpu-user-kernel.png");
  verdict ("user-next", good, "good.cu %s (%.4f ms) beside gemm-03-smem16 %s (%.4f ms), %.1f s",
           mine ? tl_run_status_name (mine->status) : "no run", mine ? mine->time.median : 0,
           rung ? tl_run_status_name (rung->status) : "no run", rung ? rung->time.median : 0,
           took_s);
}

static void
set_dark (gboolean dark)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
}

/* The pages of the float32 ladder's record, light; Compare also dark
 * (the Gauss page is shot by check_lu_gpu). */
static void
shoot_pages (void)
{
  static const char *const pages[] = { "matrices", "compare", "blocks", "source", "device",
                                       "roofline" };
  tl_matrices_page_show_c (gui_test_matrices (win), "gemm-09-warptile");
  tl_blocks_page_show_kernels (TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks")),
                               "gemm-03-smem16", "gemm-11-wgmma");
  tl_source_page_show_kernel (TL_SOURCE_PAGE (tl_window_get_page (win, "source")),
                              "gemm-11-wgmma");
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      tl_window_show_view (win, pages[i]);
      gui_test_wait_until (gui_test_window_settled, win, 60);
      g_autofree char *name = g_strdup_printf ("gpu-%s.png", pages[i]);
      shoot (name);
    }
  set_dark (TRUE);
  tl_window_show_view (win, "compare");
  shoot ("gpu-compare-dark.png");
  set_dark (FALSE);
}

/* The window closed; the exit code: the number of failed checks. */
static int
finish (TlApplication *app)
{
  gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  g_print ("gui-gpu: %d check(s) failed\n", n_failed);
  return MIN (n_failed, 100);
}

int
main (int argc, char **argv)
{
  if (argc < 2 || !gtk_init_check (&argc, &argv))
    {
      g_printerr ("usage: gui-gpu-probe OUTDIR (needs a display and a GPU)\n");
      return 2;
    }
  out_dir = argv[1];
  g_mkdir_with_parents (out_dir, 0755);
  g_autoptr (TlApplication) app = NULL;
  win = gui_test_start_app (&app);
  gui_test_fill_screen (win, 1280, 800);
  g_signal_connect (tl_session_get_runner (tl_window_get_session (win)), "progress",
                    G_CALLBACK (progress_cb), NULL);
  gui_test_wait_until (is_idle, NULL, 60);

  /* TL_GPU_PROBE_SHORT=1: the float32 ladder only, no GEMM cancels (a
   * short device call that re-checks the rest) */
  gboolean all = g_strcmp0 (g_getenv ("TL_GPU_PROBE_SHORT"), "1") != 0;
  check_devices ();
  if (g_strcmp0 (g_getenv ("TL_GPU_PROBE_ONLY"), "user") == 0)
    {
      check_user_kernels ();
      return finish (app);
    }
  check_too_big ();
  check_user_kernels ();
  check_lu_gpu ();
  check_cancel_lu ("lu-01-percolumn", 6000, 200.0);
  if (all)
    {
      check_rungs (TL_DTYPE_FLOAT64);
      check_rungs (TL_DTYPE_INT32);
    }
  check_rungs (TL_DTYPE_FLOAT32);
  shoot_pages ();
  check_cancel_lu ("lu-03-tuned", 12000, 500.0);
  if (all)
    {
      check_cancel ("cancel-2s", 8192, 0.5, "gpu-cancelled.png");
      check_cancel ("cancel-10ms", 1344, 0.5, NULL);
    }
  return finish (app);
}
