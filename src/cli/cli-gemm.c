/* tilelab-cli gemm — run GEMM kernels on one problem, verified and timed. */
#include "tl-cli.h"
#include "cli-counters.h"
#include "cli-gemm.h"
#include "cli-plan.h"

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"
#include "gemm/tl-user-kernel.h"
#include "core/tl-matrix.h"

#include <glib/gi18n-lib.h>
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
          && tl_kernel_find (w) == NULL && !tl_user_kernel_is_path (w))
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

static const int col_width[] = { 20, 11, 21, 10, 9, 9, 10 };

static void
put_row (FILE *out, const char *const cells[8])
{
  for (guint c = 0; c < G_N_ELEMENTS (col_width); c++)
    {
      tl_cli_put_col (out, cells[c], col_width[c], c == 0);
      fputc (' ', out);
    }
  fprintf (out, " %s\n", cells[7]);
}

/* Under a row that failed its check: how many elements, and where the
 * first ones are. */
static void
print_mismatches (FILE *out, const TlKernelRun *run)
{
  if (!run->verified || run->passed || run->n_mismatches == 0)
    return;
  fprintf (out,
           ngettext ("    %zu element over its bound:\n",
                     "    %zu elements over their bound; the first:\n", run->n_wrong),
           run->n_wrong);
  for (guint i = 0; i < run->n_mismatches; i++)
    {
      const TlGemmMismatch *m = &run->mismatches[i];
      fprintf (out, _("    C[%zu, %zu] = %.9g, want %.9g (within %.3g)\n"), m->row, m->col, m->got,
               m->expected, m->bound);
    }
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
          tl_cli_put_col (out, run->kernel_id, col_width[0], TRUE);
          /* a compiler's message has lines of its own: under the row */
          g_auto (GStrv) lines = g_strsplit (run->message ? run->message : "", "\n", -1);
          fprintf (out, " %-9s %s\n", verdict (run), lines[0] ? lines[0] : "");
          for (guint l = 1; lines[0] && lines[l]; l++)
            fprintf (out, "    %s\n", lines[l]);
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
      print_mismatches (out, run);
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

int
tl_cli_report_cancelled (const char *command, const TlRunRecord *record)
{
  guint finished = 0;
  for (guint i = 0; i < record->runs->len; i++)
    finished += ((const TlKernelRun *) record->runs->pdata[i])->status != TL_RUN_CANCELLED;
  g_printerr (ngettext ("tilelab-cli %s: stopped; %u kernel had finished (the record keeps it)\n",
                        "tilelab-cli %s: stopped; %u kernels had finished (the record keeps them)\n",
                        finished),
              command, finished);
  return TL_CLI_INTERRUPTED;
}

/* A job started on the runner, waited for on the default main context
 * (where tl_cli_catch_interrupts' sources run). */
typedef struct
{
  GMainLoop *loop;
  gpointer (*finish) (TlRunner *runner, GAsyncResult *result, GError **error);
  gpointer result;
  GError *error;
} Wait;

static void
job_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Wait *w = user_data;
  w->result = w->finish (TL_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static gpointer
finish_gemm (TlRunner *runner, GAsyncResult *result, GError **error)
{
  return tl_runner_run_gemm_finish (runner, result, error);
}

static gpointer
finish_gauss (TlRunner *runner, GAsyncResult *result, GError **error)
{
  return tl_runner_run_gauss_finish (runner, result, error);
}

static gpointer
finish_func (TlRunner *runner, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (runner, result, error);
}

static gpointer
wait_for_job (Wait *w, GError **error)
{
  g_main_loop_run (w->loop);
  g_main_loop_unref (w->loop);
  if (w->error)
    g_propagate_error (error, w->error);
  return w->result;
}

TlRunRecord *
tl_cli_run_job (TlRunner *runner, const TlJob *job, GCancellable *cancellable, GError **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), finish_gemm, NULL, NULL };
  tl_runner_run_gemm_async (runner, job, cancellable, job_done_cb, &w);
  return wait_for_job (&w, error);
}

TlGaussResult *
tl_cli_run_gauss (TlRunner *runner, const TlGaussJob *job, GCancellable *cancellable,
                  GError **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), finish_gauss, NULL, NULL };
  tl_runner_run_gauss_async (runner, job, cancellable, job_done_cb, &w);
  return wait_for_job (&w, error);
}

gpointer
tl_cli_run_func (TlRunner *runner, TlRunnerJobFunc func, gpointer job_data,
                 GDestroyNotify job_data_free, GDestroyNotify result_free,
                 GCancellable *cancellable, GError **error)
{
  Wait w = { g_main_loop_new (NULL, FALSE), finish_func, NULL, NULL };
  tl_runner_run_func_async (runner, func, job_data, job_data_free, result_free, cancellable,
                            job_done_cb, &w);
  return wait_for_job (&w, error);
}

gboolean
tl_cli_interrupted (GCancellable *cancellable)
{
  /* the signal sources only run when the default main context iterates:
   * a Ctrl+C that came during work on this thread is dispatched here */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (!g_cancellable_is_cancelled (cancellable))
    return FALSE;
  g_debug ("cli: interrupt seen between steps at %.3f ms (monotonic)",
           g_get_monotonic_time () / 1000.0);
  return TRUE;
}

int
tl_cli_fail_interrupted (const char *command)
{
  g_autoptr (GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "");
  return tl_cli_fail (command, error);
}

/* ---- the command ------------------------------------------------------- */

/* The command line of `gemm`, as parsed. */
typedef struct
{
  char *kernels, *size, *a_path, *b_path, *dtype_name, *gen, *record_path, *plan, *watchdog;
  gint64 seed;
  int repeats, warmups, threads, device;
  gboolean flush_l2, instrument, counters, save_matrices;
  /* checked */
  TlDtype dtype;
  gsize m, k, n;
  double watchdog_s;
} GemmOptions;

static void
gemm_options_clear (GemmOptions *o)
{
  g_free (o->kernels);
  g_free (o->size);
  g_free (o->a_path);
  g_free (o->b_path);
  g_free (o->dtype_name);
  g_free (o->watchdog);
  g_free (o->gen);
  g_free (o->record_path);
  g_free (o->plan);
}

/* A usage error's text, or NULL when the options make a job. */
static char *
check_options (GemmOptions *o)
{
  o->dtype = TL_DTYPE_FLOAT32;
  if (o->dtype_name && !tl_dtype_from_name (o->dtype_name, &o->dtype))
    return g_strdup_printf (_("--dtype: unknown type “%s” (int32, float32, float64)"), o->dtype_name);
  g_autofree char *bad = NULL;
  if (o->kernels && !tl_cli_check_kernel_list (o->kernels, &bad))
    return g_strdup_printf (_("--kernel: unknown kernel “%s” (see tilelab-cli kernels)"), bad);
  if (o->repeats < 1)
    return g_strdup_printf (_("--repeats: needs at least 1, got %d"), o->repeats);
  if (o->warmups < 0)
    return g_strdup_printf (_("--warmups: must not be negative, got %d"), o->warmups);
  if (o->threads < 0)
    return g_strdup_printf (_("--threads: must not be negative, got %d"), o->threads);
  if (o->device < 0)
    return g_strdup_printf (_("--device must not be negative, got %d"), o->device);
  if (o->seed < 0)
    return g_strdup (_("--seed: must not be negative"));
  char *plan_error = tl_cli_check_plan (o->kernels, o->plan);
  if (plan_error)
    return plan_error;
  if (o->save_matrices && !o->record_path)
    return g_strdup (_("--save-matrices needs --record FILE.json"));
  if ((o->a_path != NULL) != (o->b_path != NULL))
    return g_strdup_printf (_("%s needs %s as well"), o->a_path ? "--a" : "--b",
                            o->a_path ? "--b" : "--a");
  if (o->a_path && o->size)
    return g_strdup (_("--size and --a/--b exclude each other"));
  if (o->a_path)
    return NULL;
  if (!o->size)
    return g_strdup (_("give --size MxKxN or --a FILE --b FILE"));
  if (!tl_cli_parse_size3 (o->size, &o->m, &o->k, &o->n) || o->m == 0 || o->k == 0 || o->n == 0)
    return g_strdup_printf (_("--size: “%s” is not M×K×N with positive numbers"), o->size);
  return NULL;
}

static TlJob *
job_from_options (const GemmOptions *o)
{
  TlJob *job = tl_job_new_gemm (o->m, o->k, o->n, o->dtype);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit (o->kernels ? o->kernels : "all", ",", -1);
  if (o->a_path)
    {
      tl_source_clear (&job->a);
      tl_source_clear (&job->b);
      job->a.kind = job->b.kind = TL_SOURCE_FILE;
      job->a.path = g_strdup (o->a_path);
      job->b.path = g_strdup (o->b_path);
    }
  else
    {
      if (o->gen)
        {
          g_free (job->a.generator);
          g_free (job->b.generator);
          job->a.generator = g_strdup (o->gen);
          job->b.generator = g_strdup (o->gen);
        }
      job->a.seed = (guint64) o->seed;
      job->b.seed = (guint64) o->seed + 1;
    }
  job->repeats = o->repeats;
  job->warmups = o->warmups;
  job->flush_l2 = o->flush_l2;
  job->instrument = o->instrument;
  job->counters = o->counters;
  job->threads = o->threads;
  job->device = o->device;
  job->keep_matrices = o->save_matrices;
  job->plan = g_strdup (o->plan);
  job->watchdog_s = o->watchdog_s;
  return job;
}

/* Runs the job on a runner's worker (the device it names), prints the
 * table, writes the record. */
static int
gemm_run (const GemmOptions *o, const char *command_line)
{
  g_autoptr (TlJob) job = job_from_options (o);
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
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
  tl_cli_print_plans (record, stdout);
  if (job->counters)
    tl_cli_print_counters (record, stdout);
  if (o->record_path)
    {
      if (!tl_run_record_save (record, o->record_path,
                               o->save_matrices ? TL_RECORD_SAVE_MATRICES : TL_RECORD_SAVE_DEFAULT,
                               &error))
        return tl_cli_fail ("gemm", error);
      printf (_("\nRun record: %s\n"), o->record_path);
    }
  if (record->cancelled)
    return tl_cli_report_cancelled ("gemm", record);
  return tl_cli_record_all_passed (record) ? TL_CLI_OK : TL_CLI_FAILURE;
}

int
tl_cli_gemm (int argc, char **argv)
{
  g_autofree char *command_line = tl_cli_command_line (argc, argv);
  GemmOptions o = { .seed = 42, .repeats = 10, .warmups = 2 };
  GOptionEntry entries[] = {
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &o.kernels,
      N_("Kernels: ids separated by commas, or all, gpu, cpu (default: all)"), "K[,K…]" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o.size, N_("Problem size m×k×n, or n for a cube"), "MxKxN" },
    { "a", 0, 0, G_OPTION_ARG_FILENAME, &o.a_path, N_("Load A (m×k) from a file"), "FILE" },
    { "b", 0, 0, G_OPTION_ARG_FILENAME, &o.b_path, N_("Load B (k×n) from a file"), "FILE" },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &o.dtype_name,
      N_("int32, float32 or float64 (default: float32)"), "TYPE" },
    { "gen", 'g', 0, G_OPTION_ARG_STRING, &o.gen,
      N_("Generator for A and B (default: random-uniform; random-int for int32)"), "SPEC" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &o.seed, N_("Seed of A; B uses seed + 1 (default: 42)"), "N" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &o.repeats, N_("Timed runs (default: 10)"), "N" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &o.warmups, N_("Untimed runs first (default: 2)"), "N" },
    { "flush-l2", 0, 0, G_OPTION_ARG_NONE, &o.flush_l2, N_("GPU: flush L2 before each timed run"),
      NULL },
    { "instrument", 'i', 0, G_OPTION_ARG_NONE, &o.instrument,
      N_("Also record per-block (GPU) or per-tile (CPU) start, end and SM/thread"), NULL },
    { "counters", 0, 0, G_OPTION_ARG_NONE, &o.counters,
      N_("GPU: also count hardware events (DRAM and L2 bytes, FLOPs, warp stalls) in one more, "
         "untimed launch, and measure the memory bandwidth for the roofline"), NULL },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &o.threads, N_("CPU threads (default: all cores)"), "N" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &o.device, N_("GPU ordinal (default: 0)"), "N" },
    { "record", 'o', 0, G_OPTION_ARG_FILENAME, &o.record_path, N_("Write a run record (JSON)"),
      "FILE.json" },
    { "save-matrices", 0, 0, G_OPTION_ARG_NONE, &o.save_matrices,
      N_("With --record: write A, B, the reference and each C beside it as .npy"), NULL },
    { "plan", 0, 0, G_OPTION_ARG_STRING, &o.plan,
      N_("GPU: run the planned rungs (13, 14, 15, 16, 17) with this plan instead of the cost "
         "model's, e.g. 128x256 or 64x128/s4 (tile, then k in slices)"), "NAME" },
    { "watchdog", 0, 0, G_OPTION_ARG_STRING, &o.watchdog,
      N_("Your kernels (FILE.cu): stop one whose launch runs longer than this (default: 10)"),
      N_("SECONDS") },
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
    "  tilelab-cli gemm --kernel gpu --size 4096 --counters --record ladder.json\n"
    "  tilelab-cli gemm --kernel gemm-17-simt-tma --size 512 --plan 128x256   # a bad plan, pinned\n"
    "  tilelab-cli gemm --kernel all --a A.mtx --b B.npy --dtype float64\n"
    "  tilelab-cli gemm --kernel mine.cu,gemm-03-smem16,cublas-fp32 --size 1000x777x1111"));
  int rc;
  if (!tl_cli_parse (context, &argc, &argv))
    rc = TL_CLI_USAGE;
  else if (!tl_cli_option_double ("gemm", "--watchdog", o.watchdog, 0.1, 86400.0, &o.watchdog_s))
    rc = TL_CLI_USAGE;
  else
    {
      g_autofree char *usage = argc > 1 ? g_strdup_printf (_("unexpected argument “%s”"), argv[1])
                                        : check_options (&o);
      rc = usage ? tl_cli_usage_error ("gemm", "%s", usage) : gemm_run (&o, command_line);
    }
  gemm_options_clear (&o);
  return rc;
}
