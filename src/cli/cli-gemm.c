/* tilelab-cli gemm — run GEMM kernels on one problem, verified and timed. */
#include "tl-cli.h"
#include "cli-gemm.h"

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
#include "core/tl-matrix.h"

#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- shared with bench ------------------------------------------------- */

gboolean
tl_cli_check_kernel_list (const char *list, char **bad)
{
  g_auto (GStrv) parts = g_strsplit (list, ",", -1);
  gboolean any = FALSE;
  for (guint i = 0; parts[i]; i++)
    {
      const char *w = g_strstrip (parts[i]);
      if (*w == '\0')
        continue;
      any = TRUE;
      if (strcmp (w, "all") != 0 && strcmp (w, "gpu") != 0 && strcmp (w, "cpu") != 0
          && tl_kernel_find (w) == NULL)
        {
          *bad = g_strdup (w);
          return FALSE;
        }
    }
  if (!any)
    *bad = g_strdup (list);
  return any;
}

char *
tl_cli_command_line (int argc, char **argv)
{
  GString *s = g_string_new ("tilelab-cli");
  for (int i = 0; i < argc; i++)
    {
      g_autofree char *q = g_shell_quote (argv[i]);
      g_string_append_c (s, ' ');
      /* plain words stay plain */
      gboolean plain = argv[i][0] != '\0' && strspn (argv[i], "abcdefghijklmnopqrstuvwxyz"
                                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                              "0123456789-_.,/=:×")
                                                 == strlen (argv[i]);
      g_string_append (s, plain ? argv[i] : q);
    }
  return g_string_free (s, FALSE);
}

static const char *
verdict (const TlKernelRun *run)
{
  switch (run->status)
    {
    case TL_RUN_OK: return run->passed ? "PASS" : "FAIL";
    case TL_RUN_ERROR: return "ERROR";
    case TL_RUN_CANCELLED: return "CANCELLED";
    case TL_RUN_SKIPPED: return "SKIPPED";
    }
  return "?";
}

gboolean
tl_cli_record_all_passed (const TlRunRecord *record)
{
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (run->status == TL_RUN_SKIPPED)
        continue;
      if (run->status != TL_RUN_OK || !run->passed)
        return FALSE;
    }
  return TRUE;
}

static char *
fmt_ms (double ms)
{
  if (!isfinite (ms))
    return g_strdup ("—");
  if (ms >= 100)
    return g_strdup_printf ("%.1f", ms);
  if (ms >= 1)
    return g_strdup_printf ("%.3f", ms);
  return g_strdup_printf ("%.4f", ms);
}

/* printf pads by bytes; "–", "×" and "‖" are one column but several bytes */
static void
put_col (FILE *out, const char *text, int width, gboolean left)
{
  int pad = width - (int) g_utf8_strlen (text, -1);
  if (!left)
    for (int i = 0; i < pad; i++)
      fputc (' ', out);
  fputs (text, out);
  if (left)
    for (int i = 0; i < pad; i++)
      fputc (' ', out);
}

static const int col_width[] = { 20, 11, 21, 10, 9, 9, 10 };

static void
put_row (FILE *out, const char *const cells[8])
{
  for (guint c = 0; c < G_N_ELEMENTS (col_width); c++)
    {
      put_col (out, cells[c], col_width[c], c == 0);
      fputc (' ', out);
    }
  fprintf (out, " %s\n", cells[7]);
}

void
tl_cli_print_gemm_table (const TlRunRecord *record, FILE *out)
{
  const TlJob *job = record->job;
  g_autofree char *a = tl_source_describe (&job->a);
  g_autofree char *b = tl_source_describe (&job->b);
  fprintf (out, "GEMM C = A·B, %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT
                " (m×k×n), %s; A: %s; B: %s\n",
           job->m, job->k, job->n, tl_dtype_name (job->dtype), a, b);
  fprintf (out, "%u timed run%s after %u warm-up%s%s; CPU: %s",
           job->repeats, job->repeats == 1 ? "" : "s", job->warmups,
           job->warmups == 1 ? "" : "s", job->flush_l2 ? ", L2 flushed" : "",
           record->machine.cpu_model ? record->machine.cpu_model : "?");
  if (record->has_device)
    fprintf (out, "; GPU %d: %s", record->device.ordinal, record->device.name);
  fprintf (out, "\n");
  if (record->note)
    fprintf (out, "Note: %s\n", record->note);
  fputc ('\n', out);
  const char *header[8] = { "kernel", "median ms", "min–max ms", "GFLOP/s", "% of ref",
                            "vs naive", "error", "check" };
  put_row (out, header);

  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (run->status != TL_RUN_OK)
        {
          put_col (out, run->kernel_id, col_width[0], TRUE);
          fprintf (out, " %-9s %s\n", verdict (run), run->message ? run->message : "");
          continue;
        }
      g_autofree char *med = fmt_ms (run->time.median);
      g_autofree char *lo = fmt_ms (run->time.min);
      g_autofree char *hi = fmt_ms (run->time.max);
      g_autofree char *range = g_strdup_printf ("%s–%s", lo, hi);
      g_autofree char *gf = isfinite (run->gflops) ? g_strdup_printf ("%.1f", run->gflops)
                                                   : g_strdup ("—");
      g_autofree char *pct = isfinite (run->percent_of_reference)
                               ? g_strdup_printf ("%.1f%%", run->percent_of_reference)
                               : g_strdup ("—");
      g_autofree char *spd = isfinite (run->speedup_vs_naive)
                               ? g_strdup_printf ("%.1f×", run->speedup_vs_naive)
                               : g_strdup ("—");
      double err = g_strcmp0 (run->precision, "exact") == 0 ? run->max_abs : run->rel_norm;
      g_autofree char *errs = isfinite (err) ? g_strdup_printf ("%.2e", err) : g_strdup ("NaN");
      const char *cells[8] = { run->kernel_id, med, range, gf, pct, spd, errs, verdict (run) };
      put_row (out, cells);
    }
  fprintf (out, "\nerror: ‖C − ref‖/‖ref‖ against a float64 reference (int32: max |C − ref|);"
                " %% of ref: the reference kernel's time / this kernel's time.\n");
}

static gboolean progress_active;

static void
progress_cb (TlRunner *runner, const TlRunProgress *p, gpointer user_data)
{
  fprintf (stderr, "\r\033[K[%3.0f%%] %s%s%s", 100.0 * p->fraction,
           p->kernel_id ? p->kernel_id : "", p->kernel_id ? ": " : "", p->stage);
  fflush (stderr);
  progress_active = TRUE;
}

gulong
tl_cli_show_progress (TlRunner *runner)
{
  if (!isatty (STDERR_FILENO))
    return 0;
  return g_signal_connect (runner, "progress", G_CALLBACK (progress_cb), NULL);
}

void
tl_cli_end_progress (void)
{
  if (progress_active)
    fprintf (stderr, "\r\033[K");
  progress_active = FALSE;
}

static gboolean
interrupt_cb (gpointer user_data)
{
  GCancellable *cancellable = user_data;
  if (!g_cancellable_is_cancelled (cancellable))
    {
      tl_cli_end_progress ();
      g_printerr ("tilelab-cli: stopping…\n");
    }
  g_cancellable_cancel (cancellable);
  return G_SOURCE_CONTINUE;
}

void
tl_cli_catch_interrupts (GCancellable *cancellable)
{
  g_unix_signal_add_full (G_PRIORITY_HIGH, SIGINT, interrupt_cb, g_object_ref (cancellable),
                          g_object_unref);
  g_unix_signal_add_full (G_PRIORITY_HIGH, SIGTERM, interrupt_cb, g_object_ref (cancellable),
                          g_object_unref);
}

typedef struct
{
  GMainLoop *loop;
  TlRunRecord *record;
  GError *error;
} Wait;

static void
job_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Wait *w = user_data;
  w->record = tl_runner_run_gemm_finish (TL_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

TlRunRecord *
tl_cli_run_job (TlRunner *runner, const TlJob *job, GCancellable *cancellable, GError **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  tl_runner_run_gemm_async (runner, job, cancellable, job_done_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  if (w.error)
    g_propagate_error (error, w.error);
  return w.record;
}

/* ---- the command ------------------------------------------------------- */

int
tl_cli_gemm (int argc, char **argv)
{
  g_autofree char *command_line = tl_cli_command_line (argc, argv);
  g_autofree char *kernels = NULL, *size = NULL, *a_path = NULL, *b_path = NULL;
  g_autofree char *dtype_name = NULL, *gen = NULL, *record_path = NULL;
  gint64 seed = 42;
  int repeats = 10, warmups = 2, threads = 0, device = 0;
  gboolean flush_l2 = FALSE, instrument = FALSE, save_matrices = FALSE;

  GOptionEntry entries[] = {
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &kernels,
      N_("Kernels: ids separated by commas, or all, gpu, cpu (default: all)"), "K[,K…]" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size, N_("Problem size m×k×n, or n for a cube"), "MxKxN" },
    { "a", 0, 0, G_OPTION_ARG_FILENAME, &a_path, N_("Load A (m×k) from a file"), "FILE" },
    { "b", 0, 0, G_OPTION_ARG_FILENAME, &b_path, N_("Load B (k×n) from a file"), "FILE" },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &dtype_name,
      N_("int32, float32 or float64 (default: float32)"), "TYPE" },
    { "gen", 'g', 0, G_OPTION_ARG_STRING, &gen,
      N_("Generator for A and B (default: random-uniform; random-int for int32)"), "SPEC" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_("Seed of A; B uses seed + 1 (default: 42)"), "N" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &repeats, N_("Timed runs (default: 10)"), "N" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &warmups, N_("Untimed runs first (default: 2)"), "N" },
    { "flush-l2", 0, 0, G_OPTION_ARG_NONE, &flush_l2, N_("GPU: flush L2 before each timed run"),
      NULL },
    { "instrument", 'i', 0, G_OPTION_ARG_NONE, &instrument,
      N_("Also record per-block (GPU) or per-tile (CPU) start, end and SM/thread"), NULL },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads, N_("CPU threads (default: all cores)"), "N" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &device, N_("GPU ordinal (default: 0)"), "N" },
    { "record", 'o', 0, G_OPTION_ARG_FILENAME, &record_path, N_("Write a run record (JSON)"),
      "FILE.json" },
    { "save-matrices", 0, 0, G_OPTION_ARG_NONE, &save_matrices,
      N_("With --record: write A, B, the reference and each C beside it as .npy"), NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— run GEMM kernels, timed and verified"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Multiplies C = A·B with each kernel: warm-up runs, timed runs (median),\n"
    "a check against a float64 reference, and a table of the results.\n\n"
    "Examples:\n"
    "  tilelab-cli gemm --kernel cpu-blocked --size 1000x500x1000\n"
    "  tilelab-cli gemm --kernel gpu --size 4096 --record run.json --instrument\n"
    "  tilelab-cli gemm --kernel all --a A.mtx --b B.npy --dtype float64"));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (argc > 1)
    return tl_cli_usage_error ("gemm", _("unexpected argument “%s”"), argv[1]);

  TlDtype dtype = TL_DTYPE_FLOAT32;
  if (dtype_name && !tl_dtype_from_name (dtype_name, &dtype))
    return tl_cli_usage_error ("gemm", _("--dtype: unknown type “%s” (int32, float32, float64)"),
                               dtype_name);
  g_autofree char *bad = NULL;
  if (kernels && !tl_cli_check_kernel_list (kernels, &bad))
    return tl_cli_usage_error ("gemm", _("--kernel: unknown kernel “%s” (see tilelab-cli kernels)"),
                               bad);
  if (repeats < 1)
    return tl_cli_usage_error ("gemm", _("--repeats: needs at least 1, got %d"), repeats);
  if (warmups < 0)
    return tl_cli_usage_error ("gemm", _("--warmups: must not be negative, got %d"), warmups);
  if (threads < 0)
    return tl_cli_usage_error ("gemm", _("--threads: must not be negative, got %d"), threads);
  if (seed < 0)
    return tl_cli_usage_error ("gemm", _("--seed: must not be negative"));
  if (save_matrices && !record_path)
    return tl_cli_usage_error ("gemm", _("--save-matrices needs --record FILE.json"));
  if ((a_path != NULL) != (b_path != NULL))
    return tl_cli_usage_error ("gemm", _("%s needs %s as well"), a_path ? "--a" : "--b",
                               a_path ? "--b" : "--a");
  if (a_path && size)
    return tl_cli_usage_error ("gemm", _("--size and --a/--b exclude each other"));

  gsize m = 0, k = 0, n = 0;
  if (!a_path)
    {
      if (!size)
        return tl_cli_usage_error ("gemm", _("give --size MxKxN or --a FILE --b FILE"));
      if (!tl_cli_parse_size3 (size, &m, &k, &n) || m == 0 || k == 0 || n == 0)
        return tl_cli_usage_error ("gemm", _("--size: “%s” is not M×K×N with positive numbers"),
                                   size);
    }

  g_autoptr (TlJob) job = tl_job_new_gemm (m, k, n, dtype);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit (kernels ? kernels : "all", ",", -1);
  if (a_path)
    {
      tl_source_clear (&job->a);
      tl_source_clear (&job->b);
      job->a.kind = job->b.kind = TL_SOURCE_FILE;
      job->a.path = g_strdup (a_path);
      job->b.path = g_strdup (b_path);
    }
  else
    {
      if (gen)
        {
          g_free (job->a.generator);
          g_free (job->b.generator);
          job->a.generator = g_strdup (gen);
          job->b.generator = g_strdup (gen);
        }
      job->a.seed = (guint64) seed;
      job->b.seed = (guint64) seed + 1;
    }
  job->repeats = repeats;
  job->warmups = warmups;
  job->flush_l2 = flush_l2;
  job->instrument = instrument;
  job->threads = threads;
  job->device = device;
  job->keep_matrices = save_matrices;

  g_autoptr (TlRunner) runner = tl_runner_new (device);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  tl_cli_show_progress (runner);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_cli_run_job (runner, job, cancellable, &error);
  tl_cli_end_progress ();
  if (record == NULL)
    return tl_cli_fail ("gemm", error);
  record->command_line = g_strdup (command_line);

  tl_cli_print_gemm_table (record, stdout);
  if (record_path)
    {
      if (!tl_run_record_save (record, record_path,
                               save_matrices ? TL_RECORD_SAVE_MATRICES : TL_RECORD_SAVE_DEFAULT,
                               &error))
        return tl_cli_fail ("gemm", error);
      printf ("\nRun record: %s\n", record_path);
    }
  return tl_cli_record_all_passed (record) ? TL_CLI_OK : TL_CLI_FAILURE;
}
