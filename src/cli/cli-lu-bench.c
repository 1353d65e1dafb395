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
#include "tl-gpu.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  gsize n;
  TlDtype dtype;
  char kernel[32];
  double median_ms, gflops, pct_ref, backward;
  gboolean ok;
  char note[160];
} Row;

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* backward error of solving A x = b through the packed factors (float64 math) */
static double
backward_error (const TlMatrix *a, const TlMatrix *lu, const int *ipiv, guint64 seed)
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

int
tl_cli_lu_bench (int argc, char **argv)
{
  g_autofree char *sizes_s = NULL, *dtypes_s = NULL, *kernels_s = NULL, *output = NULL;
  g_autofree char *block_text = NULL;
  gint repeats = 3, warmups = 1, block = 0, device = 0, max_percolumn = 4096;
  gint64 seed = 7;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_s, "Sizes n (default 1024,2048,4096,8192,16384)", "N[,N…]" },
    { "dtypes", 0, 0, G_OPTION_ARG_STRING, &dtypes_s, "float32,float64 (default both)", "D[,D…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels_s,
      "GPU rungs (default lu-01-percolumn,lu-02-blocked,lu-03-tuned,lu-cusolver)", "K[,K…]" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &repeats, "Timed factorisations per rung (default 3)", "R" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &warmups, "Untimed factorisations first (default 1)", "W" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &block_text, "Block size of blocked rungs (default: theirs)", "B" },
    { "max-percolumn", 0, 0, G_OPTION_ARG_INT, &max_percolumn,
      "Largest n for lu-01-percolumn, which is memory-bound and slow (default 4096)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Generator seed", "S" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &device, "GPU ordinal", "I" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Also write the markdown table to FILE", "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("— the GPU LU ladder against cuSOLVER"));
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tl_cli_parse (ctx, &argc, &argv))
    return TL_CLI_USAGE;
  gint64 block_value = 0;
  if (!tl_cli_option_int ("lu-bench", "--block-size", block_text, 1, TL_MATRIX_MAX_DIM,
                          &block_value))
    return TL_CLI_USAGE;
  block = (gint) block_value;
  if (repeats < 1)
    return tl_cli_usage_error ("lu-bench", _("--repeats must be at least 1, got %d"), repeats);
  if (warmups < 0 || max_percolumn < 0 || device < 0)
    return tl_cli_usage_error ("lu-bench", _("--warmups, --max-percolumn and --device must not "
                                             "be negative"));

  g_auto (GStrv) sizes = g_strsplit (sizes_s ? sizes_s : "1024,2048,4096,8192,16384", ",", -1);
  g_auto (GStrv) dtypes = g_strsplit (dtypes_s ? dtypes_s : "float32,float64", ",", -1);
  g_auto (GStrv) kernels = g_strsplit (kernels_s ? kernels_s : "lu-cusolver,lu-01-percolumn,lu-02-blocked,lu-03-tuned", ",", -1);

  TlGpuFacts facts;
  TlGpuDevice *dev = NULL;
  TlGpuStatus st = tl_gpu_device_facts (device, &facts);
  if (st == TL_GPU_OK)
    st = tl_gpu_device_open (device, &dev);
  if (st != TL_GPU_OK)
    {
      g_printerr ("tilelab-cli lu-bench: %s (%s)\n", tl_gpu_status_name (st), tl_gpu_last_message ());
      return TL_CLI_FAILURE;
    }
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  GString *md = g_string_new (NULL);
  g_string_append_printf (md, "# LU (Gauss ladder) on %s — %s\n\n", facts.name, date);
  g_string_append_printf (md, "`tilelab-cli lu-bench` — random-uniform A (seed %" G_GINT64_FORMAT "), "
                          "%d warm-up(s), median of %d timed factorisations (CUDA events, device time); "
                          "GFLOP/s at 2/3·n³; %% = share of cuSOLVER's rate in the same run; "
                          "check = ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞·n·ε) of a solve with the downloaded factors "
                          "(< 30 passes). %d SMs, CUDA driver %d, runtime %d.\n\n",
                          seed, warmups, repeats, facts.sm_count, facts.driver_version, facts.runtime_version);
  g_string_append (md, "| n | dtype | kernel | median ms | GFLOP/s | % of cuSOLVER | check | phases (lu-02: panel/swap/trsm/gemm ms) |\n");
  g_string_append (md, "|---:|---|---|---:|---:|---:|---:|---|\n");
  int rc = TL_CLI_OK;

  for (guint di = 0; dtypes[di]; di++)
    for (guint si = 0; sizes[si]; si++)
      {
        TlDtype dt;
        guint64 n64 = 0;
        if (!tl_dtype_from_name (dtypes[di], &dt) || dt == TL_DTYPE_INT32
            || !g_ascii_string_to_unsigned (sizes[si], 10, 1, 65536, &n64, NULL))
          {
            g_printerr ("tilelab-cli lu-bench: bad size or dtype “%s”/“%s”\n", sizes[si], dtypes[di]);
            rc = TL_CLI_USAGE;
            goto done;
          }
        gsize n = (gsize) n64;
        g_autoptr (GError) error = NULL;
        g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n, n, (guint64) seed + n, &error);
        g_autoptr (TlMatrix) work = a ? tl_matrix_new (dt, n, n, &error) : NULL;
        if (work == NULL)
          {
            g_printerr ("tilelab-cli lu-bench: %s\n", error->message);
            rc = TL_CLI_FAILURE;
            goto done;
          }
        double flops = 2.0 / 3.0 * (double) n * n * n;
        double ref_gflops = NAN;
        g_autofree int *ipiv = g_new0 (int, n);
        for (guint ki = 0; kernels[ki]; ki++)
          {
            const char *id = kernels[ki];
            if (strcmp (id, "lu-01-percolumn") == 0 && (gint) n > max_percolumn)
              continue;
            memcpy (work->data, a->data, tl_matrix_n_bytes (a));
            TlGpuLuArgs args = { 0 };
            args.dtype = (TlGpuDtype) dt;
            args.m = args.n = (int) n;
            args.a = work->data;
            args.ipiv = ipiv;
            args.block_size = block;
            args.pivoting = 1;
            args.warmups = warmups;
            args.repeats = repeats;
            TlGpuLuResult res = { 0 };
            st = tl_gpu_lu_run (dev, id, &args, &res);
            if (st != TL_GPU_OK)
              {
                printf ("%6zu %-8s %-16s FAILED: %s (%s)\n", n, dtypes[di], id, tl_gpu_status_name (st),
                        tl_gpu_last_message ());
                g_string_append_printf (md, "| %zu | %s | %s | — | — | — | — | failed: %s |\n", n,
                                        dtypes[di], id, tl_gpu_last_message ());
                tl_gpu_lu_result_clear (&res);
                rc = TL_CLI_FAILURE;
                if (st == TL_GPU_DEVICE_LOST)
                  goto done;
                continue;
              }
            qsort (res.times_ms, res.n_times, sizeof (double), cmp_double);
            double med = res.times_ms[res.n_times / 2];
            double gf = flops / (med * 1e-3) / 1e9;
            if (strcmp (id, "lu-cusolver") == 0)
              ref_gflops = gf;
            double be = backward_error (a, work, ipiv, (guint64) seed);
            gboolean ok = isfinite (be) && be < 30.0 && res.info == 0;
            char phases[160] = "";
            if (res.phase_ms[0] + res.phase_ms[3] > 0)
              g_snprintf (phases, sizeof phases, "%.1f / %.1f / %.1f / %.1f", res.phase_ms[0],
                          res.phase_ms[1], res.phase_ms[2], res.phase_ms[3]);
            char pct[32] = "—";
            if (isfinite (ref_gflops) && ref_gflops > 0)
              g_snprintf (pct, sizeof pct, "%.0f%%", 100.0 * gf / ref_gflops);
            printf ("%6zu %-8s %-16s %10.3f ms %9.1f GFLOP/s %6s  check %.3g %s %s\n", n, dtypes[di],
                    id, med, gf, pct, be, ok ? "ok" : "FAIL", phases);
            fflush (stdout);
            g_string_append_printf (md, "| %zu | %s | %s | %.3f | %.1f | %s | %.3g%s | %s |\n", n,
                                    dtypes[di], id, med, gf, pct, be, ok ? "" : " FAIL", phases);
            if (!ok)
              rc = TL_CLI_FAILURE;
            tl_gpu_lu_result_clear (&res);
          }
      }
done:
  tl_gpu_device_close (dev);
  if (output)
    {
      g_autoptr (GError) error = NULL;
      if (!g_file_set_contents (output, md->str, -1, &error))
        rc = tl_cli_fail ("lu-bench", error);
    }
  g_string_free (md, TRUE);
  return rc;
}
