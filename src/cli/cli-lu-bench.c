/* cli-lu-bench.c — `tilelab-cli lu-bench`: the Gauss ladder's GPU rungs
 * against cuSOLVER in one run (the LU suite of the benchmark).
 *
 * For every size n and dtype: one random matrix (random-uniform, seeded),
 * every GPU rung with warm-ups and timed repeats (CUDA events, device time
 * of the factorisation only; the median is reported), GFLOP/s at the LU
 * flop count m·n² − n³/3 (= 2/3·n³ for square), the percentage of cuSOLVER's
 * rate in the same run, and a check of every result: b = A·x for a random
 * x is solved with the downloaded L\U and ipiv, and the backward error
 * ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞ n ε) must stay below 30 — or the row says FAIL.
 */
#include "cli-gauss.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "run/tl-gauss-run.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* backward error of solving A x = b through the packed factors (float64 math) */
static double
backward_error (const TlMatrix *a, const TlMatrix *lu, const gint32 *ipiv, guint64 seed)
{
  gsize n = a->rows;
  g_autofree double *x = g_new (double, n), *b = g_new (double, n), *y = g_new (double, n);
  GRand *rng = g_rand_new_with_seed ((guint32) seed);
  for (gsize i = 0; i < n; i++)
    x[i] = g_rand_double_range (rng, -1, 1);
  g_rand_free (rng);
  double anorm = 0;
  for (gsize i = 0; i < n; i++)
    {
      double s = 0, r = 0;
      for (gsize j = 0; j < n; j++)
        {
          double v = tl_matrix_get (a, i, j);
          s += v * x[j];
          r += fabs (v);
        }
      b[i] = s;
      anorm = fmax (anorm, r);
    }
  memcpy (y, b, n * sizeof (double));
  for (gsize k = 0; k < n; k++)
    if ((gsize) ipiv[k] != k)
      {
        double t = y[k];
        y[k] = y[ipiv[k]];
        y[ipiv[k]] = t;
      }
  for (gsize i = 0; i < n; i++)
    for (gsize j = 0; j < i; j++)
      y[i] -= tl_matrix_get (lu, i, j) * y[j];
  for (gsize i = n; i-- > 0;)
    {
      for (gsize j = i + 1; j < n; j++)
        y[i] -= tl_matrix_get (lu, i, j) * y[j];
      y[i] /= tl_matrix_get (lu, i, i);
    }
  double rnorm = 0, xnorm = 0;
  for (gsize i = 0; i < n; i++)
    {
      double s = b[i];
      for (gsize j = 0; j < n; j++)
        s -= tl_matrix_get (a, i, j) * y[j];
      rnorm = fmax (rnorm, fabs (s));
      xnorm = fmax (xnorm, fabs (y[i]));
    }
  double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  return rnorm / (anorm * xnorm * (double) n * eps);
}

typedef struct
{
  gint repeats, warmups, block, device, max_unblocked;
  gint64 seed;
  GStrv kernels;
  GString *md;
} Bench;

/* The slow teaching rungs (GPU, unblocked, not the reference: one launch
 * per column, memory-bound) run only up to --max-percolumn. */
static gboolean
too_slow (const Bench *bench, const TlLuKernelInfo *k, gsize n)
{
  return k->backend == TL_BACKEND_GPU && !k->blocked && !k->reference
         && (gint64) n > bench->max_unblocked;
}

/* One rung at one size: timed, checked, a line and a table row.  Returns
 * FALSE when the rung failed or its check did; *lost when the GPU is gone. */
static gboolean
bench_one (Bench *bench, TlRunner *runner, const TlMatrix *a, const TlLuKernelInfo *k,
           double *ref_gflops, gboolean *lost)
{
  const gsize n = a->rows;
  const char *dtype = tl_dtype_name (a->dtype);
  g_autoptr (GError) error = NULL;
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a };
  job.options = (TlLuOptions) { .kernel_id = k->id, .block_size = (gsize) bench->block,
                                .pivoting = TL_PIVOTING_PARTIAL, .gpu_ordinal = bench->device,
                                .warmups = (guint) bench->warmups,
                                .repeats = (guint) bench->repeats };
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss (runner, &job, NULL, &error);
  if (done == NULL)
    {
      printf ("%6zu %-8s %-16s FAILED: %s\n", n, dtype, k->id, error->message);
      g_string_append_printf (bench->md, "| %zu | %s | %s | — | — | — | — | failed: %s |\n", n,
                              dtype, k->id, error->message);
      *lost = g_error_matches (error, TL_ERROR, TL_ERROR_DEVICE_LOST);
      return FALSE;
    }
  const TlLuResult *r = done->lu;
  double med = r->elapsed_s * 1e3;
  double gf = 2.0 / 3.0 * (double) n * n * n / (med * 1e-3) / 1e9;
  if (k->reference)
    *ref_gflops = gf;
  double be = backward_error (a, r->lu, r->ipiv, (guint64) bench->seed);
  gboolean ok = isfinite (be) && be < 30.0 && r->info == 0;
  char phases[160] = "";
  if (k->phases && r->phase_ns[TL_LU_PHASE_PANEL] + r->phase_ns[TL_LU_PHASE_GEMM] > 0)
    g_snprintf (phases, sizeof phases, "%.1f / %.1f / %.1f / %.1f", r->phase_ns[0] * 1e-6,
                r->phase_ns[1] * 1e-6, r->phase_ns[2] * 1e-6, r->phase_ns[3] * 1e-6);
  char pct[32] = "—";
  if (isfinite (*ref_gflops) && *ref_gflops > 0)
    g_snprintf (pct, sizeof pct, "%.0f%%", 100.0 * gf / *ref_gflops);
  printf ("%6zu %-8s %-16s %10.3f ms %9.1f GFLOP/s %6s  check %.3g %s %s\n", n, dtype, k->id, med,
          gf, pct, be, ok ? "ok" : "FAIL", phases);
  fflush (stdout);
  g_string_append_printf (bench->md, "| %zu | %s | %s | %.3f | %.1f | %s | %.3g%s | %s |\n", n,
                          dtype, k->id, med, gf, pct, be, ok ? "" : " FAIL", phases);
  return ok;
}

/* The references first, so every other rung's % of cuSOLVER is known. */
static int
bench_size (Bench *bench, TlRunner *runner, const TlMatrix *a, gboolean *lost)
{
  int rc = TL_CLI_OK;
  double ref_gflops = NAN;
  for (int pass = 0; pass < 2; pass++)
    for (guint ki = 0; bench->kernels[ki] && !*lost; ki++)
      {
        const TlLuKernelInfo *k = tl_lu_kernel_find (bench->kernels[ki]);
        if (k->reference != (pass == 0) || too_slow (bench, k, a->rows))
          continue;
        if (!bench_one (bench, runner, a, k, &ref_gflops, lost))
          rc = TL_CLI_FAILURE;
      }
  return rc;
}

static void
bench_header (Bench *bench, const TlGpuFacts *facts)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  GString *md = bench->md;
  g_string_append_printf (md, "# LU (Gauss ladder) on %s — %s\n\n", facts->name, date);
  g_string_append_printf (md, "`tilelab-cli lu-bench` — random-uniform A (seed %" G_GINT64_FORMAT "), "
                          "%d warm-up(s), median of %d timed factorisations (CUDA events, device time); "
                          "GFLOP/s at 2/3·n³; %% = share of cuSOLVER's rate in the same run; "
                          "check = ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞·n·ε) of a solve with the downloaded factors "
                          "(< 30 passes). %d SMs, CUDA driver %d, runtime %d.\n\n",
                          bench->seed, bench->warmups, bench->repeats, facts->sm_count,
                          facts->driver_version, facts->runtime_version);
  g_string_append (md, "| n | dtype | kernel | median ms | GFLOP/s | % of cuSOLVER | check | phases (panel/swap/trsm/gemm ms) |\n");
  g_string_append (md, "|---:|---|---|---:|---:|---:|---:|---|\n");
}

/* The device's facts, read on the runner's worker. */
static gboolean
device_facts (TlRunner *runner, int device, TlGpuFacts *out, GError **error)
{
  g_autoptr (GArray) all = tl_runner_probe_devices (runner, NULL, error);
  if (all == NULL)
    return FALSE;
  if (device < 0 || (guint) device >= all->len)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE, _("There is no GPU %d (%u found)"), device,
                   all->len);
      return FALSE;
    }
  *out = g_array_index (all, TlGpuFacts, device);
  return TRUE;
}

static int
bench_all (Bench *bench, TlRunner *runner, GStrv sizes, GStrv dtypes)
{
  int rc = TL_CLI_OK;
  gboolean lost = FALSE;
  for (guint di = 0; dtypes[di] && !lost; di++)
    for (guint si = 0; sizes[si] && !lost; si++)
      {
        TlDtype dt;
        guint64 n64 = 0;
        if (!tl_dtype_from_name (dtypes[di], &dt) || dt == TL_DTYPE_INT32
            || !g_ascii_string_to_unsigned (sizes[si], 10, 1, 65536, &n64, NULL))
          return tl_cli_usage_error ("lu-bench", _("bad size or dtype “%s”/“%s”"), sizes[si],
                                     dtypes[di]);
        g_autoptr (GError) error = NULL;
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n64, n64,
                                              (guint64) bench->seed + n64, &error);
        if (a == NULL)
          return tl_cli_fail ("lu-bench", error);
        if (bench_size (bench, runner, a, &lost) != TL_CLI_OK)
          rc = TL_CLI_FAILURE;
      }
  return rc;
}

/* Every kernel id in the list is a GPU rung of the Gauss ladder. */
static gboolean
check_kernels (GStrv kernels)
{
  for (guint i = 0; kernels[i]; i++)
    {
      const TlLuKernelInfo *k = tl_lu_kernel_find (kernels[i]);
      if (k == NULL || k->backend != TL_BACKEND_GPU)
        {
          tl_cli_usage_error ("lu-bench", _("“%s” is not a GPU rung of the Gauss ladder"),
                              kernels[i]);
          return FALSE;
        }
    }
  return TRUE;
}

int
tl_cli_lu_bench (int argc, char **argv)
{
  g_autofree char *sizes_s = NULL, *dtypes_s = NULL, *kernels_s = NULL, *output = NULL;
  Bench bench = { .repeats = 3, .warmups = 1, .max_unblocked = 4096, .seed = 7 };
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_s, N_("Sizes n (default 1024,2048,4096,8192,16384)"), "N[,N…]" },
    { "dtypes", 0, 0, G_OPTION_ARG_STRING, &dtypes_s, N_("float32,float64 (default both)"), "D[,D…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels_s,
      N_("GPU rungs (default: every GPU rung of the Gauss ladder)"), "K[,K…]" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &bench.repeats, N_("Timed factorisations per rung (default 3)"), "R" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &bench.warmups, N_("Untimed factorisations first (default 1)"), "W" },
    { "block-size", 'b', 0, G_OPTION_ARG_INT, &bench.block, N_("Block size of blocked rungs (default: theirs)"), "B" },
    { "max-percolumn", 0, 0, G_OPTION_ARG_INT, &bench.max_unblocked,
      N_("Largest n for the unblocked rungs (lu-01-percolumn), which are memory-bound and slow (default 4096)"), "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &bench.seed, N_("Generator seed"), "S" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &bench.device, N_("GPU ordinal"), "I" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Also write the markdown table to FILE"), "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (N_("— the GPU LU ladder against cuSOLVER"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!tl_cli_parse (ctx, &argc, &argv))
    return TL_CLI_USAGE;

  g_auto (GStrv) sizes = g_strsplit (sizes_s ? sizes_s : "1024,2048,4096,8192,16384", ",", -1);
  g_auto (GStrv) dtypes = g_strsplit (dtypes_s ? dtypes_s : "float32,float64", ",", -1);
  g_auto (GStrv) kernels = NULL;
  if (kernels_s)
    kernels = g_strsplit (kernels_s, ",", -1);
  else
    {
      GStrvBuilder *all = g_strv_builder_new ();
      for (guint i = 0; i < tl_lu_kernel_count (); i++)
        if (tl_lu_kernel_get (i)->backend == TL_BACKEND_GPU)
          g_strv_builder_add (all, tl_lu_kernel_get (i)->id);
      kernels = g_strv_builder_end (all);
      g_strv_builder_unref (all);
    }
  if (!check_kernels (kernels))
    return TL_CLI_USAGE;
  bench.kernels = kernels;

  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  TlGpuFacts facts;
  if (!device_facts (runner, bench.device, &facts, &error))
    return tl_cli_fail ("lu-bench", error);
  bench.md = g_string_new (NULL);
  bench_header (&bench, &facts);
  int rc = bench_all (&bench, runner, sizes, dtypes);
  if (output && !g_file_set_contents (output, bench.md->str, -1, &error))
    rc = tl_cli_fail ("lu-bench", error);
  g_string_free (bench.md, TRUE);
  return rc;
}
