/* tilelab-cli bench — a suite of sizes × kernels → run records, CSV, markdown.
 *
 * Suites:
 *   gemm  sizes 1024, 2048, 4096, 8192 and 4000×3000×5000; every GPU rung
 *         and the cuBLAS references (float32 by default); needs a GPU.
 *   cpu   sizes 256, 512 and 1000×500×1000 (seed 002); cpu-naive,
 *         cpu-blocked, cpu-openblas.
 * Writes DIR/bench-SUITE-MxKxN.json (one run record per size),
 * DIR/bench-SUITE.csv and DIR/bench-SUITE.md, which ends with the sweep:
 * per size, the fastest kernel of each precision as % of its reference
 * (cuBLAS) and the plan it ran.  --sizes takes any list; --plan pins a
 * plan of the planned rungs (a lecture's bad plan beside the good one).
 */
#include "tl-cli.h"
#include "core/tl-save.h"
#include "cli-gemm.h"
#include "cli-plan.h"
#include "cli-gauss.h"

#include "core/tl-error.h"
#include "run/tl-runner.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  const char *name;
  const char *sizes;
  const char *kernels;
  int repeats, warmups;
  gboolean needs_gpu;
} Suite;

static const Suite suites[] = {
  { "gemm", "1024,2048,4096,8192,4000x3000x5000", "gpu", 10, 2, TRUE },
  { "cpu", "256,512,1000x500x1000", "cpu-naive,cpu-blocked,cpu-openblas", 3, 1, FALSE },
};

/* numbers in files: C locale, "" when not measured */
static void
put_num (GString *s, double v, const char *format)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isfinite (v))
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, format, v));
}

static void
csv_field (GString *s, const char *text)
{
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\n") == NULL)
    {
      g_string_append (s, text);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static void
csv_row (GString *csv, const TlRunRecord *r, const TlKernelRun *run)
{
  const TlJob *job = r->job;
  g_string_append_printf (csv, "%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT ",%s,",
                          job->m, job->k, job->n, tl_dtype_name (job->dtype));
  csv_field (csv, run->kernel_id);
  g_string_append_printf (csv, ",%s,%s,", tl_backend_name (run->backend),
                          tl_run_status_name (run->status));
  put_num (csv, run->time.count ? run->time.median : NAN, "%.6g");
  g_string_append_c (csv, ',');
  put_num (csv, run->time.count ? run->time.min : NAN, "%.6g");
  g_string_append_c (csv, ',');
  put_num (csv, run->time.count ? run->time.max : NAN, "%.6g");
  g_string_append_c (csv, ',');
  put_num (csv, run->gflops, "%.6g");
  g_string_append_c (csv, ',');
  csv_field (csv, run->reference_id);
  g_string_append_c (csv, ',');
  put_num (csv, run->percent_of_reference, "%.4g");
  g_string_append_c (csv, ',');
  put_num (csv, run->speedup_vs_naive, "%.4g");
  g_string_append_c (csv, ',');
  put_num (csv, run->rel_norm, "%.3e");
  g_string_append_printf (csv, ",%s,", run->status == TL_RUN_OK ? (run->passed ? "true" : "false")
                                                                : "");
  csv_field (csv, run->message);
  g_string_append_c (csv, '\n');
}

static void
md_row (GString *md, const TlRunRecord *r, const TlKernelRun *run)
{
  const TlJob *job = r->job;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append_printf (md, "| %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT
                              " | %s | ", job->m, job->k, job->n, run->kernel_id);
  if (run->status != TL_RUN_OK)
    {
      g_autofree char *msg = g_strdup (run->message ? run->message : "");
      g_strdelimit (msg, "|\n", ' ');
      g_string_append_printf (md, "%s: %s | | | | |\n", tl_run_status_name (run->status), msg);
      return;
    }
  g_string_append_printf (md, "%s | ", g_ascii_formatd (buf, sizeof buf, "%.4g", run->time.median));
  g_string_append_printf (md, "%s | ", g_ascii_formatd (buf, sizeof buf, "%.1f", run->gflops));
  if (isfinite (run->percent_of_reference))
    g_string_append_printf (md, "%s%% | ",
                            g_ascii_formatd (buf, sizeof buf, "%.1f", run->percent_of_reference));
  else
    g_string_append (md, "— | ");
  g_string_append_printf (md, "%s | %s |\n",
                          g_ascii_formatd (buf, sizeof buf, "%.1e", run->rel_norm),
                          run->passed ? "PASS" : "FAIL");
}

static gboolean
write_file (const char *path, const char *text, GError **error)
{
  return tl_save_contents (path, text, strlen (text), NULL, error);
}

/* `bench --suite lu` is the Gauss ladder's benchmark: the remaining
 * options go to it (it has its own: --sizes, --dtypes, --block-size, …).
 * TRUE when argv asked for it; *rc is then its exit code. */
static gboolean
forward_lu_suite (int argc, char **argv, int *rc)
{
  for (int i = 1; i < argc; i++)
    {
      gboolean split = g_strcmp0 (argv[i], "--suite") == 0 && i + 1 < argc;
      if ((split && g_strcmp0 (argv[i + 1], "lu") == 0) || g_strcmp0 (argv[i], "--suite=lu") == 0)
        {
          g_autoptr (GPtrArray) rest = g_ptr_array_new ();
          for (int j = 0; j < argc; j++)
            if (j != i && !(split && j == i + 1))
              g_ptr_array_add (rest, argv[j]);
          g_ptr_array_add (rest, NULL);
          *rc = tl_cli_lu_bench ((int) rest->len - 1, (char **) rest->pdata);
          return TRUE;
        }
    }
  return FALSE;
}

typedef gsize Dims[3];

/* What the command line asked for, checked. */
typedef struct
{
  const Suite *suite;
  TlDtype dtype;
  const char *kernels;     /* the list to run */
  gboolean suite_kernels;  /* the suite's list (not --kernels) */
  int repeats, warmups, threads, device;
  gboolean flush_l2;
  const char *plan;        /* --plan: pinned for the planned rungs, or NULL */
  Dims *dims;              /* n_sizes sizes */
  guint n_sizes;
  const char *dir;
  char *command_line;
} Bench;

static void
bench_clear (Bench *b)
{
  g_free (b->dims);
  g_free (b->command_line);
}

/* The sizes of --sizes (or the suite's): usage error text, or NULL. */
static char *
parse_sizes (Bench *b, const char *sizes)
{
  g_auto (GStrv) list = g_strsplit (sizes ? sizes : b->suite->sizes, ",", -1);
  b->n_sizes = g_strv_length (list);
  if (b->n_sizes == 0)
    return g_strdup (_("--sizes: no size given"));
  b->dims = g_new0 (Dims, b->n_sizes);
  for (guint i = 0; i < b->n_sizes; i++)
    if (!tl_cli_parse_size3 (g_strstrip (list[i]), &b->dims[i][0], &b->dims[i][1], &b->dims[i][2])
        || b->dims[i][0] == 0 || b->dims[i][1] == 0 || b->dims[i][2] == 0)
      return g_strdup_printf (_("--sizes: “%s” is not N or M×K×N"), list[i]);
  return NULL;
}

/* Checks the options into b; a usage error text, or NULL. */
static char *
check_options (Bench *b, const char *suite_name, const char *dtype_name, const char *kernels,
               const char *sizes)
{
  for (guint i = 0; i < G_N_ELEMENTS (suites); i++)
    if (g_strcmp0 (suite_name ? suite_name : "gemm", suites[i].name) == 0)
      b->suite = &suites[i];
  if (b->suite == NULL)
    return g_strdup_printf (_("--suite: unknown suite “%s” (gemm, cpu, lu)"), suite_name);
  b->dtype = TL_DTYPE_FLOAT32;
  if (dtype_name && !tl_dtype_from_name (dtype_name, &b->dtype))
    return g_strdup_printf (_("--dtype: unknown type “%s” (int32, float32, float64)"), dtype_name);
  g_autofree char *bad = NULL;
  b->kernels = kernels ? kernels : b->suite->kernels;
  b->suite_kernels = kernels == NULL;
  if (!tl_cli_check_kernel_list (b->kernels, &bad))
    return g_strdup_printf (_("--kernels: unknown kernel “%s” (see tilelab-cli kernels)"), bad);
  if (b->repeats == -1)
    b->repeats = b->suite->repeats;
  if (b->warmups == -1)
    b->warmups = b->suite->warmups;
  if (b->repeats < 1)
    return g_strdup_printf (_("--repeats: needs at least 1, got %d"), b->repeats);
  if (b->warmups < 0)
    return g_strdup_printf (_("--warmups: must not be negative, got %d"), b->warmups);
  if (b->threads < 0)
    return g_strdup_printf (_("--threads: must not be negative, got %d"), b->threads);
  if (b->device < 0)
    return g_strdup_printf (_("--device must not be negative, got %d"), b->device);
  char *plan_error = tl_cli_check_plan (b->kernels, b->plan);
  if (plan_error)
    return plan_error;
  return parse_sizes (b, sizes);
}

/* A GPU suite needs the device it names: asked on the runner's worker. */
static gboolean
have_device (TlRunner *runner, const Bench *b)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) devices = tl_runner_probe_devices (runner, NULL, &error);
  if (devices != NULL && (guint) b->device < devices->len)
    return TRUE;
  g_printerr (_("tilelab-cli bench: the “%s” suite needs a CUDA GPU, and GPU %d is not usable"
                " (%s).\nTry “tilelab-cli bench --suite cpu”.\n"),
              b->suite->name, b->device, error ? error->message : _("no such device"));
  return FALSE;
}

/* Every size: a job, its table on stdout, its record saved beside the
 * others.  The records that finished are kept even when one fails. */
static int
run_sizes (const Bench *b, TlRunner *runner, GCancellable *cancellable, GPtrArray *records,
           gboolean *all_passed)
{
  for (guint i = 0; i < b->n_sizes; i++)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (b->dims[i][0], b->dims[i][1], b->dims[i][2],
                                               b->dtype);
      g_strfreev (job->kernels);
      job->kernels = g_strsplit (b->kernels, ",", -1);
      job->a.seed = 42;
      job->b.seed = 43;
      job->repeats = b->repeats;
      job->warmups = b->warmups;
      job->flush_l2 = b->flush_l2;
      job->threads = b->threads;
      job->device = b->device;
      job->plan = g_strdup (b->plan);

      g_autoptr (GError) error = NULL;
      TlRunRecord *record = tl_cli_run_job (runner, job, cancellable, &error);
      tl_cli_end_progress ();
      if (record == NULL)
        return tl_cli_fail ("bench", error);
      record->command_line = g_strdup (b->command_line);
      tl_cli_print_gemm_table (record, stdout);
      tl_cli_print_plans (record, stdout);
      printf ("\n");
      *all_passed &= tl_cli_record_all_passed (record);
      g_ptr_array_add (records, record);

      g_autofree char *name = g_strdup_printf ("bench-%s-%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT
                                               "x%" G_GSIZE_FORMAT ".json", b->suite->name,
                                               record->job->m, record->job->k, record->job->n);
      g_autofree char *path = g_build_filename (b->dir, name, NULL);
      if (!tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, &error))
        return tl_cli_fail ("bench", error);
      if (record->cancelled)
        return tl_cli_report_cancelled ("bench", record);
    }
  return TL_CLI_OK;
}

/* The sweep: per size, the fastest of our kernels of each precision as %
 * of its reference (the vendor), with its plan when it is a planned rung. */
static void
sweep_table (GString *md, GPtrArray *records)
{
  static const char *const precisions[] = { "exact", "fp32", "tf32", "bf16", "fp64" };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (md, "\n## Sweep: the fastest kernel of each precision, % of its reference\n\n"
                       "| size m×k×n | exact | FP32 | TF32 | BF16 | FP64 |\n"
                       "|---|---|---|---|---|---|\n");
  for (guint i = 0; i < records->len; i++)
    {
      const TlRunRecord *r = records->pdata[i];
      g_string_append_printf (md, "| %" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT "×%" G_GSIZE_FORMAT " |",
                              r->job->m, r->job->k, r->job->n);
      for (guint p = 0; p < G_N_ELEMENTS (precisions); p++)
        {
          const TlKernelRun *best = NULL;
          for (guint j = 0; j < r->runs->len; j++)
            {
              const TlKernelRun *run = r->runs->pdata[j];
              if (run->status != TL_RUN_OK || !isfinite (run->percent_of_reference)
                  || g_strcmp0 (run->precision, precisions[p]) != 0
                  || g_strcmp0 (run->reference_id, run->kernel_id) == 0)
                continue;
              if (best == NULL || run->percent_of_reference > best->percent_of_reference)
                best = run;
            }
          if (best == NULL)
            g_string_append (md, " — |");
          else
            g_string_append_printf (md, " %s%% %s%s%s |",
                                    g_ascii_formatd (buf, sizeof buf, "%.1f", best->percent_of_reference),
                                    best->kernel_id, best->has_plan ? " " : "",
                                    best->has_plan ? best->plan.name : "");
        }
      g_string_append_c (md, '\n');
    }
}

static char *
markdown_table (const Bench *b, GPtrArray *records)
{
  const TlRunRecord *first = records->pdata[0];
  GString *md = g_string_new (NULL);
  g_string_append_printf (md, "# Tilelab benchmark: suite %s\n\n", b->suite->name);
  if (first->has_device)
    g_string_append_printf (md, "- Device: %s (GPU %d, compute capability %d.%d, %d SMs)\n",
                            first->device.name, first->device.ordinal, first->device.cc_major,
                            first->device.cc_minor, first->device.sm_count);
  else
    g_string_append (md, "- Device: none (CPU only)\n");
  g_string_append_printf (md, "- CPU: %s, %u logical cores; host %s\n", first->machine.cpu_model,
                          first->machine.cores, first->machine.host_name);
  g_string_append_printf (md, "- Date: %s; Tilelab %s\n", first->created, first->tilelab_version);
  g_string_append_printf (md, "- Command: `%s`\n", b->command_line);
  g_string_append_printf (md, "- %s, %d timed runs after %d warm-ups (median)%s; inputs "
                              "from the generator %s, seeds 42 and 43\n\n",
                          tl_dtype_name (b->dtype), b->repeats, b->warmups,
                          b->flush_l2 ? ", L2 flushed before each run" : "",
                          first->job->a.generator ? first->job->a.generator : "?");
  g_string_append (md, "| size m×k×n | kernel | median ms | GFLOP/s | % of reference | "
                       "error (rel) | check |\n|---|---|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i < records->len; i++)
    {
      const TlRunRecord *r = records->pdata[i];
      for (guint j = 0; j < r->runs->len; j++)
        md_row (md, r, r->runs->pdata[j]);
    }
  g_string_append (md, "\n% of reference: the median time of the reference kernel of the "
                       "same precision (cuBLAS on the GPU, OpenBLAS on the CPU) divided by "
                       "the kernel's, measured in the same run.\n");
  sweep_table (md, records);
  return g_string_free (md, FALSE);
}

static char *
csv_table (GPtrArray *records)
{
  GString *csv = g_string_new ("m,k,n,dtype,kernel,backend,status,median_ms,min_ms,max_ms,"
                               "gflops,reference,percent_of_reference,speedup_vs_naive,"
                               "rel_error,passed,message\n");
  for (guint i = 0; i < records->len; i++)
    {
      const TlRunRecord *r = records->pdata[i];
      for (guint j = 0; j < r->runs->len; j++)
        csv_row (csv, r, r->runs->pdata[j]);
    }
  return g_string_free (csv, FALSE);
}

/* DIR/bench-SUITE.csv and DIR/bench-SUITE.md from the records. */
static int
write_tables (const Bench *b, GPtrArray *records)
{
  g_autofree char *csv_name = g_strdup_printf ("bench-%s.csv", b->suite->name);
  g_autofree char *md_name = g_strdup_printf ("bench-%s.md", b->suite->name);
  g_autofree char *csv_path = g_build_filename (b->dir, csv_name, NULL);
  g_autofree char *md_path = g_build_filename (b->dir, md_name, NULL);
  g_autofree char *csv_text = csv_table (records);
  g_autofree char *md_text = markdown_table (b, records);
  g_autoptr (GError) error = NULL;
  if (!write_file (csv_path, csv_text, &error) || !write_file (md_path, md_text, &error))
    return tl_cli_fail ("bench", error);
  printf (ngettext ("Wrote %u run record, %s and %s\n", "Wrote %u run records, %s and %s\n", records->len),
          records->len, csv_path, md_path);
  return TL_CLI_OK;
}

static int
bench_run (Bench *b)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  if (b->suite->needs_gpu && b->suite_kernels && !have_device (runner, b))
    return TL_CLI_FAILURE;
  if (g_mkdir_with_parents (b->dir, 0755) != 0)
    {
      g_printerr (_("tilelab-cli bench: cannot create “%s”: %s\n"), b->dir, g_strerror (errno));
      return TL_CLI_FAILURE;
    }
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  tl_cli_show_progress (runner);
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_unref);
  gboolean all_passed = TRUE;
  int status = run_sizes (b, runner, cancellable, records, &all_passed);
  /* what finished is written, even after a failure */
  if (records->len > 0)
    {
      int written = write_tables (b, records);
      if (written != TL_CLI_OK)
        return written;
    }
  if (status != TL_CLI_OK)
    return status;
  return all_passed ? TL_CLI_OK : TL_CLI_FAILURE;
}

int
tl_cli_bench (int argc, char **argv)
{
  int rc;
  if (forward_lu_suite (argc, argv, &rc))
    return rc;

  g_autofree char *suite_name = NULL, *sizes = NULL, *kernels = NULL, *out_dir = NULL;
  g_autofree char *dtype_name = NULL, *plan = NULL;
  Bench b = { .repeats = -1, .warmups = -1 };
  b.command_line = tl_cli_command_line (argc, argv);
  GOptionEntry entries[] = {
    { "suite", 0, 0, G_OPTION_ARG_STRING, &suite_name, N_("gemm, cpu or lu (default: gemm)"), "NAME" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes,
      N_("Sizes, comma-separated, each N or M×K×N (default: the suite's)"), "S[,S…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels,
      N_("Kernels, comma-separated, or all, gpu, cpu (default: the suite's)"), "K[,K…]" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
      N_("Folder for the records, CSV and markdown (default: .)"), "DIR" },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &dtype_name, N_("int32, float32 or float64 (default: float32)"),
      "TYPE" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &b.repeats, N_("Timed runs (gemm: 10, cpu: 3)"), "N" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &b.warmups, N_("Untimed runs first (gemm: 2, cpu: 1)"), "N" },
    { "flush-l2", 0, 0, G_OPTION_ARG_NONE, &b.flush_l2, N_("GPU: flush L2 before each timed run"), NULL },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &b.threads, N_("CPU threads (default: all cores)"), "N" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &b.device, N_("GPU ordinal (default: 0)"), "N" },
    { "plan", 0, 0, G_OPTION_ARG_STRING, &plan,
      N_("GPU: pin this plan for the planned rungs (13, 14, 15, 16, 17), e.g. 128x256 (default: the "
         "cost model's)"), "NAME" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— benchmark a suite of sizes × kernels"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Runs every size of a suite with its kernels (verified, timed, medians) and\n"
    "writes one run record per size, a CSV and a markdown table.\n\n"
    "Suites:\n"
    "  gemm  1024, 2048, 4096, 8192, 4000×3000×5000; all GPU rungs and cuBLAS\n"
    "  cpu   256, 512, 1000×500×1000; cpu-naive, cpu-blocked, cpu-openblas"));
  if (!tl_cli_parse (context, &argc, &argv))
    {
      bench_clear (&b);
      return TL_CLI_USAGE;
    }
  b.plan = plan;
  g_autofree char *usage = argc > 1 ? g_strdup_printf (_("unexpected argument “%s”"), argv[1])
                                    : check_options (&b, suite_name, dtype_name, kernels, sizes);
  if (usage)
    rc = tl_cli_usage_error ("bench", "%s", usage);
  else
    {
      b.dir = out_dir ? out_dir : ".";
      rc = bench_run (&b);
    }
  bench_clear (&b);
  return rc;
}
