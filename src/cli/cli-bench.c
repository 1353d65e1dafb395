/* tilelab-cli bench — a suite of sizes × kernels → run records, CSV, markdown.
 *
 * Suites:
 *   gemm  sizes 1024, 2048, 4096, 8192 and 4000×3000×5000; every GPU rung
 *         and the cuBLAS references (float32 by default); needs a GPU.
 *   cpu   sizes 256, 512 and 1000×500×1000 (seed 002); cpu-naive,
 *         cpu-blocked, cpu-openblas.
 * Writes DIR/bench-SUITE-MxKxN.json (one run record per size),
 * DIR/bench-SUITE.csv and DIR/bench-SUITE.md.
 */
#include "tl-cli.h"
#include "cli-gemm.h"
#include "cli-gauss.h"

#include "core/tl-error.h"
#include "tl-gpu.h"

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
  g_autoptr (GError) local = NULL;
  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

int
tl_cli_bench (int argc, char **argv)
{
  /* `bench --suite lu` is the Gauss ladder's benchmark: hand the remaining
   * options to it (it has its own: --sizes, --dtypes, --block-size, …). */
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
          return tl_cli_lu_bench ((int) rest->len - 1, (char **) rest->pdata);
        }
    }

  g_autofree char *command_line = tl_cli_command_line (argc, argv);
  g_autofree char *suite_name = NULL, *sizes = NULL, *kernels = NULL, *out_dir = NULL;
  g_autofree char *dtype_name = NULL;
  int repeats = -1, warmups = -1, threads = 0, device = 0;
  gboolean flush_l2 = FALSE;

  GOptionEntry entries[] = {
    { "suite", 0, 0, G_OPTION_ARG_STRING, &suite_name, "gemm, cpu or lu (default: gemm)", "NAME" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes,
      "Sizes, comma-separated, each N or M×K×N (default: the suite's)", "S[,S…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels,
      "Kernels, comma-separated, or all, gpu, cpu (default: the suite's)", "K[,K…]" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
      "Folder for the records, CSV and markdown (default: .)", "DIR" },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &dtype_name, "int32, float32 or float64 (default: float32)",
      "TYPE" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &repeats, "Timed runs (gemm: 10, cpu: 3)", "N" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &warmups, "Untimed runs first (gemm: 2, cpu: 1)", "N" },
    { "flush-l2", 0, 0, G_OPTION_ARG_NONE, &flush_l2, "GPU: flush L2 before each timed run", NULL },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads, "CPU threads (default: all cores)", "N" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &device, "GPU ordinal (default: 0)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("— benchmark a suite of sizes × kernels");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Runs every size of a suite with its kernels (verified, timed, medians) and\n"
    "writes one run record per size, a CSV and a markdown table.\n\n"
    "Suites:\n"
    "  gemm  1024, 2048, 4096, 8192, 4000×3000×5000; all GPU rungs and cuBLAS\n"
    "  cpu   256, 512, 1000×500×1000; cpu-naive, cpu-blocked, cpu-openblas");
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (argc > 1)
    return tl_cli_usage_error ("bench", "unexpected argument “%s”", argv[1]);

  const Suite *suite = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (suites); i++)
    if (g_strcmp0 (suite_name ? suite_name : "gemm", suites[i].name) == 0)
      suite = &suites[i];
  if (suite == NULL)
    return tl_cli_usage_error ("bench", "--suite: unknown suite “%s” (gemm, cpu, lu)", suite_name);

  TlDtype dtype = TL_DTYPE_FLOAT32;
  if (dtype_name && !tl_dtype_from_name (dtype_name, &dtype))
    return tl_cli_usage_error ("bench", "--dtype: unknown type “%s” (int32, float32, float64)",
                               dtype_name);
  g_autofree char *bad = NULL;
  const char *kernel_list = kernels ? kernels : suite->kernels;
  if (!tl_cli_check_kernel_list (kernel_list, &bad))
    return tl_cli_usage_error ("bench", "--kernels: unknown kernel “%s” (see tilelab-cli kernels)",
                               bad);
  if (repeats == -1)
    repeats = suite->repeats;
  if (warmups == -1)
    warmups = suite->warmups;
  if (repeats < 1)
    return tl_cli_usage_error ("bench", "--repeats: needs at least 1, got %d", repeats);
  if (warmups < 0)
    return tl_cli_usage_error ("bench", "--warmups: must not be negative, got %d", warmups);
  if (threads < 0)
    return tl_cli_usage_error ("bench", "--threads: must not be negative, got %d", threads);

  g_auto (GStrv) size_list = g_strsplit (sizes ? sizes : suite->sizes, ",", -1);
  guint n_sizes = g_strv_length (size_list);
  typedef gsize Dims[3];
  Dims *dims = g_new0 (Dims, MAX (n_sizes, 1));
  for (guint i = 0; i < n_sizes; i++)
    if (!tl_cli_parse_size3 (g_strstrip (size_list[i]), &dims[i][0], &dims[i][1], &dims[i][2])
        || dims[i][0] == 0 || dims[i][1] == 0 || dims[i][2] == 0)
      {
        g_free (dims);
        return tl_cli_usage_error ("bench", "--sizes: “%s” is not N or M×K×N", size_list[i]);
      }
  if (n_sizes == 0)
    {
      g_free (dims);
      return tl_cli_usage_error ("bench", "--sizes: no size given");
    }

  if (suite->needs_gpu && !kernels)
    {
      int count = 0;
      if (tl_gpu_device_count (&count) != TL_GPU_OK || count == 0)
        {
          g_printerr ("tilelab-cli bench: the “%s” suite needs a CUDA GPU, and none is usable"
                      " (%s).\nTry “tilelab-cli bench --suite cpu”.\n",
                      suite->name, tl_gpu_last_message ());
          g_free (dims);
          return TL_CLI_FAILURE;
        }
    }

  const char *dir = out_dir ? out_dir : ".";
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_printerr ("tilelab-cli bench: cannot create “%s”: %s\n", dir, g_strerror (errno));
      g_free (dims);
      return TL_CLI_FAILURE;
    }

  g_autoptr (TlRunner) runner = tl_runner_new (device);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  tl_cli_show_progress (runner);
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_run_record_unref);
  gboolean all_passed = TRUE;
  int status = TL_CLI_OK;

  for (guint i = 0; i < n_sizes; i++)
    {
      g_autoptr (TlJob) job = tl_job_new_gemm (dims[i][0], dims[i][1], dims[i][2], dtype);
      g_strfreev (job->kernels);
      job->kernels = g_strsplit (kernel_list, ",", -1);
      job->a.seed = 42;
      job->b.seed = 43;
      job->repeats = repeats;
      job->warmups = warmups;
      job->flush_l2 = flush_l2;
      job->threads = threads;
      job->device = device;

      g_autoptr (GError) error = NULL;
      TlRunRecord *record = tl_cli_run_job (runner, job, cancellable, &error);
      tl_cli_end_progress ();
      if (record == NULL)
        {
          /* what finished is still written below */
          status = tl_cli_fail ("bench", error);
          break;
        }
      record->command_line = g_strdup (command_line);
      tl_cli_print_gemm_table (record, stdout);
      printf ("\n");
      all_passed &= tl_cli_record_all_passed (record);

      g_autofree char *name = g_strdup_printf ("bench-%s-%" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT
                                               "x%" G_GSIZE_FORMAT ".json", suite->name,
                                               record->job->m, record->job->k, record->job->n);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (!tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, &error))
        {
          tl_run_record_unref (record);
          status = tl_cli_fail ("bench", error);
          break;
        }
      g_ptr_array_add (records, record);
    }
  g_free (dims);

  if (records->len > 0)
    {
      const TlRunRecord *first = records->pdata[0];
      GString *csv = g_string_new ("m,k,n,dtype,kernel,backend,status,median_ms,min_ms,max_ms,"
                                   "gflops,reference,percent_of_reference,speedup_vs_naive,"
                                   "rel_error,passed,message\n");
      GString *md = g_string_new (NULL);
      g_string_append_printf (md, "# Tilelab benchmark: suite %s\n\n", suite->name);
      if (first->has_device)
        g_string_append_printf (md, "- Device: %s (compute capability %d.%d, %d SMs)\n",
                                first->device.name, first->device.cc_major,
                                first->device.cc_minor, first->device.sm_count);
      else
        g_string_append (md, "- Device: none (CPU only)\n");
      g_string_append_printf (md, "- CPU: %s, %u logical cores; host %s\n",
                              first->machine.cpu_model, first->machine.cores,
                              first->machine.host_name);
      g_string_append_printf (md, "- Date: %s; Tilelab %s\n", first->created,
                              first->tilelab_version);
      g_string_append_printf (md, "- Command: `%s`\n", command_line);
      g_string_append_printf (md, "- %s, %d timed runs after %d warm-ups (median)%s; inputs "
                                  "from the generator %s, seeds 42 and 43\n\n",
                              tl_dtype_name (dtype), repeats, warmups,
                              flush_l2 ? ", L2 flushed before each run" : "",
                              first->job->a.generator ? first->job->a.generator : "?");
      g_string_append (md, "| size m×k×n | kernel | median ms | GFLOP/s | % of reference | "
                           "error (rel) | check |\n|---|---|---:|---:|---:|---:|---|\n");
      for (guint i = 0; i < records->len; i++)
        {
          const TlRunRecord *r = records->pdata[i];
          for (guint j = 0; j < r->runs->len; j++)
            {
              csv_row (csv, r, r->runs->pdata[j]);
              md_row (md, r, r->runs->pdata[j]);
            }
        }
      g_string_append (md, "\n% of reference: the median time of the reference kernel of the "
                           "same precision (cuBLAS on the GPU, OpenBLAS on the CPU) divided by "
                           "the kernel's, measured in the same run.\n");

      g_autofree char *csv_name = g_strdup_printf ("bench-%s.csv", suite->name);
      g_autofree char *md_name = g_strdup_printf ("bench-%s.md", suite->name);
      g_autofree char *csv_path = g_build_filename (dir, csv_name, NULL);
      g_autofree char *md_path = g_build_filename (dir, md_name, NULL);
      g_autoptr (GError) error = NULL;
      g_autofree char *csv_text = g_string_free (csv, FALSE);
      g_autofree char *md_text = g_string_free (md, FALSE);
      if (!write_file (csv_path, csv_text, &error) || !write_file (md_path, md_text, &error))
        return tl_cli_fail ("bench", error);
      printf ("Wrote %u run record(s), %s and %s\n", records->len, csv_path, md_path);
    }

  if (status != TL_CLI_OK)
    return status;
  return all_passed ? TL_CLI_OK : TL_CLI_FAILURE;
}
