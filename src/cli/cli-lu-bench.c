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
 * Rungs that split their time also show panel / swap / trsm / gemm from
 * their phase-timing run (every phase on its own, no overlap).
 *
 * Then the solve (getrs) with many right-hand sides (--rhs): from the
 * factors of --solve-kernel, Tilelab's GPU solve and cuSOLVER's getrs on
 * the same B, median device times, GFLOP/s at 2·n²·nrhs, % of getrs, and
 * the backward error of the first and last right-hand side.
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
  TlGpuDevice *dev;
  int warmups, repeats, block, max_percolumn;
  guint64 seed;
  const char *solve_kernel;
  GString *md, *solve_md;
} Bench;

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return v[n / 2];
}

/* ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞ n ε) in float64 math */
static double
backward_error_of (const TlMatrix *a, const double *b, const double *y)
{
  gsize n = a->rows;
  double anorm = 0, rnorm = 0, xnorm = 0;
  for (gsize i = 0; i < n; i++)
    {
      double s = b[i], r = 0;
      for (gsize j = 0; j < n; j++)
        {
          double v = tl_matrix_get (a, i, j);
          s -= v * y[j];
          r += fabs (v);
        }
      anorm = fmax (anorm, r);
      rnorm = fmax (rnorm, fabs (s));
      xnorm = fmax (xnorm, fabs (y[i]));
    }
  double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  return rnorm / (anorm * xnorm * (double) n * eps);
}

/* backward error of solving A x = b through the packed factors */
static double
backward_error (const TlMatrix *a, const TlMatrix *lu, const int *ipiv, guint64 seed)
{
  gsize n = a->rows;
  g_autofree double *x = g_new (double, n), *b = g_new (double, n), *y = g_new (double, n);
  GRand *rng = g_rand_new_with_seed ((guint32) seed);
  for (gsize i = 0; i < n; i++)
    x[i] = g_rand_double_range (rng, -1, 1);
  g_rand_free (rng);
  for (gsize i = 0; i < n; i++)
    {
      double s = 0;
      for (gsize j = 0; j < n; j++)
        s += tl_matrix_get (a, i, j) * x[j];
      b[i] = s;
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
  return backward_error_of (a, b, y);
}

/* One rung at one size: work (a copy of a) is factored in place.  −1: the
 * GPU is lost (stop), else a TL_CLI_ code. */
static int
bench_factor (Bench *bn, const TlMatrix *a, TlMatrix *work, int *ipiv, const char *id,
              double *ref_gflops)
{
  const gsize n = a->rows;
  const char *dtype = tl_dtype_name (a->dtype);
  memcpy (work->data, a->data, tl_matrix_n_bytes (a));
  TlGpuLuArgs args = { 0 };
  args.dtype = (TlGpuDtype) a->dtype;
  args.m = args.n = (int) n;
  args.a = work->data;
  args.ipiv = ipiv;
  args.block_size = bn->block;
  args.pivoting = 1;
  args.warmups = bn->warmups;
  args.repeats = bn->repeats;
  TlGpuLuResult res = { 0 };
  TlGpuStatus st = tl_gpu_lu_run (bn->dev, id, &args, &res);
  if (st != TL_GPU_OK)
    {
      printf ("%6zu %-8s %-16s FAILED: %s (%s)\n", n, dtype, id, tl_gpu_status_name (st), tl_gpu_last_message ());
      g_string_append_printf (bn->md, "| %zu | %s | %s | — | — | — | — | failed: %s |\n", n, dtype, id,
                              tl_gpu_last_message ());
      tl_gpu_lu_result_clear (&res);
      return st == TL_GPU_DEVICE_LOST ? -1 : TL_CLI_FAILURE;
    }
  double med = median (res.times_ms, res.n_times);
  double gf = 2.0 / 3.0 * (double) n * n * n / (med * 1e-3) / 1e9;
  if (strcmp (id, "lu-cusolver") == 0)
    *ref_gflops = gf;
  double be = backward_error (a, work, ipiv, bn->seed);
  gboolean ok = isfinite (be) && be < 30.0 && res.info == 0;
  char phases[160] = "";
  if (res.phase_ms[0] + res.phase_ms[3] > 0)
    g_snprintf (phases, sizeof phases, "%.1f / %.1f / %.1f / %.1f (run %.1f)", res.phase_ms[0],
                res.phase_ms[1], res.phase_ms[2], res.phase_ms[3], res.phase_run_ms);
  char pct[32] = "—";
  if (isfinite (*ref_gflops) && *ref_gflops > 0)
    g_snprintf (pct, sizeof pct, "%.0f%%", 100.0 * gf / *ref_gflops);
  printf ("%6zu %-8s %-16s %10.3f ms %9.1f GFLOP/s %6s  check %.3g %s %s\n", n, dtype, id, med, gf,
          pct, be, ok ? "ok" : "FAIL", phases);
  fflush (stdout);
  g_string_append_printf (bn->md, "| %zu | %s | %s | %.3f | %.1f | %s | %.3g%s | %s |\n", n, dtype, id,
                          med, gf, pct, be, ok ? "" : " FAIL", phases);
  tl_gpu_lu_result_clear (&res);
  return ok ? TL_CLI_OK : TL_CLI_FAILURE;
}

/* The solve from the factors (lu, ipiv) for nrhs right-hand sides: ours
 * and cuSOLVER's getrs on the same B. */
static int
bench_solve (Bench *bn, const TlMatrix *a, const TlMatrix *lu, const int *ipiv, gsize nrhs)
{
  const gsize n = a->rows;
  const char *dtype = tl_dtype_name (a->dtype);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) b = tl_generate ("random-uniform:lo=-1,hi=1", a->dtype, n, nrhs, bn->seed + nrhs, &error);
  g_autoptr (TlMatrix) x = b ? tl_matrix_copy (b, &error) : NULL;
  if (x == NULL)
    {
      g_printerr ("tilelab-cli lu-bench: %s\n", error->message);
      return TL_CLI_FAILURE;
    }
  const char *solvers[] = { "cusolver-getrs", "lu-solve" };
  double ref_ms = NAN;
  int rc = TL_CLI_OK;
  g_autofree double *times = g_new (double, bn->repeats);
  g_autofree double *bc = g_new (double, n), *xc = g_new (double, n);
  for (guint s = 0; s < G_N_ELEMENTS (solvers); s++)
    {
      memcpy (x->data, b->data, tl_matrix_n_bytes (b));
      TlGpuLuSolveArgs args = { (TlGpuDtype) a->dtype, (int) n, (int) nrhs, lu->data, ipiv, x->data };
      TlGpuStatus st = tl_gpu_lu_solve_bench (bn->dev, solvers[s], &args, bn->warmups, bn->repeats, times);
      if (st != TL_GPU_OK)
        {
          printf ("%6zu %-8s nrhs %-5zu %-16s FAILED: %s (%s)\n", n, dtype, nrhs, solvers[s],
                  tl_gpu_status_name (st), tl_gpu_last_message ());
          rc = TL_CLI_FAILURE;
          continue;
        }
      double med = median (times, bn->repeats);
      if (s == 0)
        ref_ms = med;
      /* the first and the last right-hand side (each check is O(n²)) */
      double be = 0;
      for (gsize c = 0; c < nrhs; c += MAX (nrhs - 1, (gsize) 1))
        {
          for (gsize i = 0; i < n; i++)
            {
              bc[i] = tl_matrix_get (b, i, c);
              xc[i] = tl_matrix_get (x, i, c);
            }
          double e = backward_error_of (a, bc, xc);
          be = isnan (e) ? INFINITY : fmax (be, e);
        }
      gboolean ok = be < 30.0;
      double gf = 2.0 * (double) n * n * nrhs / (med * 1e-3) / 1e9;
      char pct[32] = "—";
      if (isfinite (ref_ms))
        g_snprintf (pct, sizeof pct, "%.0f%%", 100.0 * ref_ms / med);
      printf ("%6zu %-8s nrhs %-5zu %-16s %10.3f ms %9.1f GFLOP/s %6s  check %.3g %s\n", n, dtype, nrhs,
              solvers[s], med, gf, pct, be, ok ? "ok" : "FAIL");
      fflush (stdout);
      g_string_append_printf (bn->solve_md, "| %zu | %s | %zu | %s | %.3f | %.1f | %s | %.3g%s |\n", n, dtype,
                              nrhs, solvers[s], med, gf, pct, be, ok ? "" : " FAIL");
      if (!ok)
        rc = TL_CLI_FAILURE;
    }
  return rc;
}

/* Every rung at one size and dtype, then the solves.  −1: the GPU is lost. */
static int
bench_size (Bench *bn, TlDtype dt, gsize n, char **kernels, char **rhs)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n, n, bn->seed + n, &error);
  g_autoptr (TlMatrix) work = a ? tl_matrix_new (dt, n, n, &error) : NULL;
  if (work == NULL)
    {
      g_printerr ("tilelab-cli lu-bench: %s\n", error->message);
      return TL_CLI_FAILURE;
    }
  g_autofree int *ipiv = g_new0 (int, n);
  g_autofree int *solve_ipiv = NULL;
  g_autoptr (TlMatrix) solve_lu = NULL;
  double ref_gflops = NAN;
  int rc = TL_CLI_OK;
  for (guint ki = 0; kernels[ki]; ki++)
    {
      if (strcmp (kernels[ki], "lu-01-percolumn") == 0 && (gint) n > bn->max_percolumn)
        continue;
      int r = bench_factor (bn, a, work, ipiv, kernels[ki], &ref_gflops);
      if (r < 0)
        return r;
      if (r != TL_CLI_OK)
        rc = r;
      else if (strcmp (kernels[ki], bn->solve_kernel) == 0 && rhs[0] != NULL)
        {
          solve_lu = tl_matrix_copy (work, &error);
          solve_ipiv = g_memdup2 (ipiv, sizeof (int) * n);
        }
    }
  for (guint ri = 0; solve_lu && rhs[ri]; ri++)
    {
      guint64 k = 0;
      if (!g_ascii_string_to_unsigned (rhs[ri], 10, 1, 1 << 20, &k, NULL))
        {
          g_printerr ("tilelab-cli lu-bench: bad number of right-hand sides “%s”\n", rhs[ri]);
          return TL_CLI_USAGE;
        }
      int r = bench_solve (bn, a, solve_lu, solve_ipiv, (gsize) k);
      if (r != TL_CLI_OK)
        rc = r;
    }
  return rc;
}

int
tl_cli_lu_bench (int argc, char **argv)
{
  g_autofree char *sizes_s = NULL, *dtypes_s = NULL, *kernels_s = NULL, *output = NULL;
  g_autofree char *rhs_s = NULL, *solve_kernel = NULL;
  gint repeats = 10, warmups = 1, block = 0, device = 0, max_percolumn = 4096;
  gint64 seed = 7;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_s, "Sizes n (default 1024,2048,4096,8192,16384)", "N[,N…]" },
    { "dtypes", 0, 0, G_OPTION_ARG_STRING, &dtypes_s, "float32,float64 (default both)", "D[,D…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels_s,
      "GPU rungs (default lu-cusolver,lu-01-percolumn,lu-02-blocked,lu-03-tuned,lu-04-persistent)", "K[,K…]" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &repeats, "Timed runs per rung and solver (default 10)", "R" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &warmups, "Untimed runs first (default 1)", "W" },
    { "block-size", 'b', 0, G_OPTION_ARG_INT, &block, "Block size of blocked rungs (default: theirs)", "B" },
    { "max-percolumn", 0, 0, G_OPTION_ARG_INT, &max_percolumn,
      "Largest n for lu-01-percolumn, which is memory-bound and slow (default 4096)", "N" },
    { "rhs", 0, 0, G_OPTION_ARG_STRING, &rhs_s,
      "Right-hand sides of the solve benchmark (default 1,16,256,4096; none to skip)", "K[,K…]" },
    { "solve-kernel", 0, 0, G_OPTION_ARG_STRING, &solve_kernel,
      "The rung whose factors the solve benchmark uses (default lu-04-persistent)", "K" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Generator seed", "S" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &device, "GPU ordinal", "I" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Also write the markdown tables to FILE", "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (_("— the GPU LU ladder against cuSOLVER"));
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tl_cli_parse (ctx, &argc, &argv))
    return TL_CLI_USAGE;
  if (repeats < 1 || warmups < 0)
    return tl_cli_usage_error ("lu-bench", "--repeats must be at least 1 and --warmups at least 0");

  g_auto (GStrv) sizes = g_strsplit (sizes_s ? sizes_s : "1024,2048,4096,8192,16384", ",", -1);
  g_auto (GStrv) dtypes = g_strsplit (dtypes_s ? dtypes_s : "float32,float64", ",", -1);
  g_auto (GStrv) kernels = g_strsplit (
    kernels_s ? kernels_s : "lu-cusolver,lu-01-percolumn,lu-02-blocked,lu-03-tuned,lu-04-persistent", ",", -1);
  const char *rhs_text = rhs_s ? rhs_s : "1,16,256,4096";
  g_auto (GStrv) rhs = g_strsplit (strcmp (rhs_text, "none") == 0 ? "" : rhs_text, ",", -1);

  TlGpuFacts facts;
  Bench bn = { NULL, warmups, repeats, block, max_percolumn, (guint64) seed,
               solve_kernel ? solve_kernel : "lu-04-persistent", NULL, NULL };
  TlGpuStatus st = tl_gpu_device_facts (device, &facts);
  if (st == TL_GPU_OK)
    st = tl_gpu_device_open (device, &bn.dev);
  if (st != TL_GPU_OK)
    {
      g_printerr ("tilelab-cli lu-bench: %s (%s)\n", tl_gpu_status_name (st), tl_gpu_last_message ());
      return TL_CLI_FAILURE;
    }
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  bn.md = g_string_new (NULL);
  bn.solve_md = g_string_new (NULL);
  g_string_append_printf (bn.md, "# LU (Gauss ladder) on %s — %s\n\n", facts.name, date);
  g_string_append_printf (bn.md, "`tilelab-cli lu-bench` — random-uniform A (seed %" G_GINT64_FORMAT "), "
                          "%d warm-up(s), median of %d timed factorisations (CUDA events, device time); "
                          "GFLOP/s at 2/3·n³; %% = share of cuSOLVER's rate in the same run; "
                          "check = ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞·n·ε) of a solve with the downloaded factors "
                          "(< 30 passes). %d SMs, CUDA driver %d, runtime %d.\n\n",
                          seed, warmups, repeats, facts.sm_count, facts.driver_version, facts.runtime_version);
  g_string_append (bn.md, "| n | dtype | kernel | median ms | GFLOP/s | % of cuSOLVER | check | phases: panel / swap / trsm / gemm ms (phase-timing run, no overlap) |\n");
  g_string_append (bn.md, "|---:|---|---|---:|---:|---:|---:|---|\n");
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
        int r = bench_size (&bn, dt, (gsize) n64, kernels, rhs);
        if (r < 0 || r == TL_CLI_USAGE)
          {
            rc = r < 0 ? TL_CLI_FAILURE : r;
            goto done;
          }
        if (r != TL_CLI_OK)
          rc = r;
      }
done:
  tl_gpu_device_close (bn.dev);
  if (bn.solve_md->len > 0)
    {
      g_string_append_printf (bn.md, "\n## Solve (getrs) from the factors of %s, against cuSOLVER\n\n"
                              "Median of %d timed solves after %d warm-up(s), B random in [−1, 1); "
                              "GFLOP/s at 2·n²·nrhs; %% = cuSOLVER getrs's time over ours; check = the "
                              "backward error above for the first and the last right-hand side.\n\n",
                              bn.solve_kernel, repeats, warmups);
      g_string_append (bn.md, "| n | dtype | nrhs | solver | median ms | GFLOP/s | % of getrs | check |\n");
      g_string_append (bn.md, "|---:|---|---:|---|---:|---:|---:|---:|\n");
      g_string_append (bn.md, bn.solve_md->str);
    }
  if (output)
    {
      g_autoptr (GError) error = NULL;
      if (!g_file_set_contents (output, bn.md->str, -1, &error))
        rc = tl_cli_fail ("lu-bench", error);
    }
  g_string_free (bn.md, TRUE);
  g_string_free (bn.solve_md, TRUE);
  return rc;
}
