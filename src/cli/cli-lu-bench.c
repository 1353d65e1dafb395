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
 *
 * Everything runs on a runner's worker (Gauss jobs and a solve job), on
 * the device --device names: the CLI never touches the GPU itself.
 * Ctrl+C stops the job that runs (between block steps or solves) and ends
 * the benchmark with exit 130; --output then gets the rows that finished,
 * marked as a stopped run (written whole, never half a file).
 */
#include "cli-gauss.h"
#include "cli-gemm.h"
#include "core/tl-error.h"
#include "core/tl-save.h"
#include "gen/tl-generate.h"
#include "lu/tl-rank.h"
#include "lu/tl-lu-gpu.h"
#include "lu/tl-solve.h"
#include "run/tl-gauss-run.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
backward_error (const TlMatrix *a, const TlMatrix *lu, const gint32 *ipiv, guint64 seed)
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

typedef struct
{
  TlRunner *runner;
  GCancellable *cancellable;
  int warmups, repeats, block, device, max_percolumn;
  guint64 seed;
  const char *solve_kernel;   /* NULL: the fastest GPU rung for each size (`gpu`) */
  GStrv solvers;              /* cusolver-getrs (first: the reference), lu-solve */
  GString *md, *solve_md;
  GString *best_md;           /* the fastest rung of each size and dtype */
} Bench;

/* The unblocked GPU rungs (one launch per column, memory-bound) run only
 * up to --max-percolumn. */
static gboolean
too_slow (const Bench *bn, const TlLuKernelInfo *k, gsize n)
{
  return k->backend == TL_BACKEND_GPU && !k->blocked && !k->reference
         && (gint64) n > bn->max_percolumn;
}

/* One rung at one size, as a Gauss job on the runner (the median of its
 * timed factorisations).  *out_lu receives the result when it passed.  −1:
 * the GPU is lost (stop), else a TL_CLI_ code (TL_CLI_INTERRUPTED: stop). */
static int
bench_factor (Bench *bn, const TlMatrix *a, const TlLuKernelInfo *k, double *ref_gflops,
              double *out_ms, TlLuResult **out_lu)
{
  const gsize n = a->rows;
  const char *dtype = tl_dtype_name (a->dtype);
  g_autoptr (GError) error = NULL;
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a };
  job.options = (TlLuOptions) { .kernel_id = k->id, .block_size = (gsize) bn->block,
                                .pivoting = TL_PIVOTING_PARTIAL, .gpu_ordinal = bn->device,
                                .warmups = (guint) bn->warmups, .repeats = (guint) bn->repeats };
  g_autoptr (TlGaussResult) done = tl_cli_run_gauss (bn->runner, &job, bn->cancellable, &error);
  if (done == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TL_CLI_INTERRUPTED;
  if (done == NULL)
    {
      printf ("%6zu %-8s %-16s FAILED: %s\n", n, dtype, k->id, error->message);
      g_string_append_printf (bn->md, "| %zu | %s | %s | — | — | — | — | failed: %s |\n", n, dtype,
                              k->id, error->message);
      return g_error_matches (error, TL_ERROR, TL_ERROR_DEVICE_LOST) ? -1 : TL_CLI_FAILURE;
    }
  const TlLuResult *r = done->lu;
  double med = r->elapsed_s * 1e3;
  double gf = 2.0 / 3.0 * (double) n * n * n / (med * 1e-3) / 1e9;
  if (k->reference)
    *ref_gflops = gf;
  double be = backward_error (a, r->lu, r->ipiv, bn->seed);
  gboolean ok = isfinite (be) && be < 30.0 && r->info == 0;
  char phases[160] = "";
  if (k->phases && r->phase_ns[TL_LU_PHASE_PANEL] + r->phase_ns[TL_LU_PHASE_GEMM] > 0)
    g_snprintf (phases, sizeof phases, "%.1f / %.1f / %.1f / %.1f (run %.1f)",
                r->phase_ns[0] * 1e-6, r->phase_ns[1] * 1e-6, r->phase_ns[2] * 1e-6,
                r->phase_ns[3] * 1e-6, r->phase_run_ns * 1e-6);
  char pct[32] = "—";
  if (isfinite (*ref_gflops) && *ref_gflops > 0)
    g_snprintf (pct, sizeof pct, "%.0f%%", 100.0 * gf / *ref_gflops);
  printf ("%6zu %-8s %-16s %10.3f ms %9.1f GFLOP/s %6s  check %.3g %s %s\n", n, dtype, k->id, med,
          gf, pct, be, ok ? "ok" : "FAIL", phases);
  fflush (stdout);
  g_string_append_printf (bn->md, "| %zu | %s | %s | %.3f | %.1f | %s | %.3g%s | %s |\n", n, dtype,
                          k->id, med, gf, pct, be, ok ? "" : " FAIL", phases);
  if (ok && out_lu)
    *out_lu = g_steal_pointer (&done->lu);
  *out_ms = ok ? med : NAN;
  return ok ? TL_CLI_OK : TL_CLI_FAILURE;
}

/* The solve benchmark of one solver, on the runner's worker. */
typedef struct
{
  const TlLuResult *lu;
  TlMatrix *x;
  const char *solver;
  guint warmups, repeats;
  double *times;
} SolveBench;

static gpointer
solve_bench_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  SolveBench *sb = data;
  return tl_lu_solve_gpu_bench (sb->lu, sb->x, sb->solver, sb->warmups, sb->repeats, sb->times,
                                error)
           ? GINT_TO_POINTER (1)
           : NULL;
}

/* The solve from the factors lu for nrhs right-hand sides: ours and
 * cuSOLVER's getrs on the same B. */
static int
bench_solve (Bench *bn, const TlMatrix *a, const TlLuResult *lu, gsize nrhs)
{
  const gsize n = a->rows;
  const char *dtype = tl_dtype_name (a->dtype);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) b = tl_generate ("random-uniform:lo=-1,hi=1", a->dtype, n, nrhs, bn->seed + nrhs, &error);
  g_autoptr (TlMatrix) x = b ? tl_matrix_copy (b, &error) : NULL;
  if (x == NULL)
    return tl_cli_fail ("lu-bench", error);
  const char *const *solvers = (const char *const *) bn->solvers;
  double ref_ms = NAN;
  int rc = TL_CLI_OK;
  g_autofree double *times = g_new (double, bn->repeats);
  g_autofree double *bc = g_new (double, n), *xc = g_new (double, n);
  for (guint s = 0; solvers[s]; s++)
    {
      memcpy (x->data, b->data, tl_matrix_n_bytes (b));
      SolveBench sb = { lu, x, solvers[s], (guint) bn->warmups, (guint) bn->repeats, times };
      g_clear_error (&error);
      if (tl_cli_run_func (bn->runner, solve_bench_job, &sb, NULL, NULL, bn->cancellable, &error)
          == NULL)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            return TL_CLI_INTERRUPTED;
          printf ("%6zu %-8s nrhs %-5zu %-16s FAILED: %s\n", n, dtype, nrhs, solvers[s],
                  error->message);
          rc = TL_CLI_FAILURE;
          continue;
        }
      double med = median (times, bn->repeats);
      if (g_str_equal (solvers[s], "cusolver-getrs"))
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

/* Every rung at one size and dtype (the references first, so every rung's
 * % of cuSOLVER is known), then the solves.  −1: the GPU is lost. */
static int
bench_size (Bench *bn, TlDtype dt, gsize n, char **kernels, char **rhs)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", dt, n, n, bn->seed + n, &error);
  if (a == NULL)
    return tl_cli_fail ("lu-bench", error);
  if (tl_cli_interrupted (bn->cancellable))
    return TL_CLI_INTERRUPTED;
  g_autoptr (TlLuResult) solve_lu = NULL;
  const char *gpu = tl_lu_fastest_gpu_kernel (n, n);
  const char *solve_kernel = bn->solve_kernel ? bn->solve_kernel : gpu;
  double ref_gflops = NAN, ref_ms = NAN, best_ms = INFINITY;
  const char *best = NULL;
  int rc = TL_CLI_OK;
  for (int pass = 0; pass < 2; pass++)
    for (guint ki = 0; kernels[ki]; ki++)
      {
        const TlLuKernelInfo *k = tl_lu_kernel_find (kernels[ki]);
        if (k->reference != (pass == 0) || too_slow (bn, k, n))
          continue;
        gboolean for_solve = solve_kernel && strcmp (k->id, solve_kernel) == 0 && rhs[0] != NULL;
        double ms = NAN;
        int r = bench_factor (bn, a, k, &ref_gflops, &ms, for_solve ? &solve_lu : NULL);
        if (r < 0 || r == TL_CLI_INTERRUPTED)
          return r;
        if (r != TL_CLI_OK)
          rc = r;
        if (k->reference)
          ref_ms = ms;
        else if (ms < best_ms)
          {
            best_ms = ms;
            best = k->id;
          }
      }
  if (best != NULL)
    g_string_append_printf (bn->best_md, "| %zu | %s | %s | %.3f | %.3f | %.0f%% | %s |\n", n,
                            tl_dtype_name (dt), best, best_ms, ref_ms, 100.0 * ref_ms / best_ms,
                            gpu ? gpu : "—");
  for (guint ri = 0; solve_lu && rhs[ri]; ri++)
    {
      guint64 k = 0;
      if (!g_ascii_string_to_unsigned (rhs[ri], 10, 1, 1 << 20, &k, NULL))
        return tl_cli_usage_error ("lu-bench", _("bad number of right-hand sides “%s”"), rhs[ri]);
      int r = bench_solve (bn, a, solve_lu, (gsize) k);
      if (r == TL_CLI_INTERRUPTED)
        return r;
      if (r != TL_CLI_OK)
        rc = r;
    }
  return rc;
}

/* ---- --suite rank: rank and null space, GPU against the CPU path ------ */

typedef struct
{
  const TlMatrix *a;
  int ordinal;
} RankBenchJob;

static gpointer
rank_bench_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  RankBenchJob *rj = data;
  return tl_rank_gpu (rj->a, tl_runner_job_get_gpu (job), rj->ordinal, TRUE, cancellable, error);
}

/* max over the basis' columns of ‖A·n‖₂ / (‖A‖_F ‖n‖₂ n ε) */
static double
null_ratio (const TlMatrix *a, const TlMatrix *nb)
{
  double af = 0, worst = 0;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      af += tl_matrix_get (a, i, j) * tl_matrix_get (a, i, j);
  af = sqrt (af);
  g_autofree double *col = g_new (double, MAX (a->cols, 1));
  /* the first and the last basis vector (each check is O(mn)) */
  for (gsize k = 0; k < nb->cols; k += MAX (nb->cols - 1, (gsize) 1))
    {
      double nn = 0, r = 0;
      for (gsize j = 0; j < a->cols; j++)
        {
          col[j] = tl_matrix_get (nb, j, k);
          nn += col[j] * col[j];
        }
      for (gsize i = 0; i < a->rows; i++)
        {
          double s = 0;
          for (gsize j = 0; j < a->cols; j++)
            s += tl_matrix_get (a, i, j) * col[j];
          r += s * s;
        }
      double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
      worst = fmax (worst, sqrt (r) / (af * sqrt (nn) * (double) a->cols * eps));
    }
  return worst;
}

/* One size and dtype: A of rank 3n/4 (rank-deficient generator), the GPU
 * (wall time of the job: upload, SVD, download, presentation; and the
 * SVD's device time) against the CPU path (tolerance from LAPACK's SVD,
 * Gauss–Jordan, null space: wall time), once each after a GPU warm-up. */
static int
bench_rank (Bench *bn, TlDtype dt, gsize n, GString *md)
{
  g_autoptr (GError) error = NULL;
  const gsize want = 3 * n / 4;
  g_autofree char *spec = g_strdup_printf ("rank-deficient:rank=%zu", want);
  g_autoptr (TlMatrix) a = tl_generate (spec, dt, n, n, bn->seed + n, &error);
  if (a == NULL)
    return tl_cli_fail ("lu-bench", error);
  RankBenchJob rj = { a, bn->device };
  double gpu_ms[2] = { 0, 0 };
  g_autoptr (TlRankResult) g = NULL;
  for (int rep = 0; rep < 2; rep++) /* the first warms the device and cuSOLVER up */
    {
      g_clear_pointer (&g, tl_rank_result_free);
      gint64 t0 = g_get_monotonic_time ();
      g = tl_cli_run_func (bn->runner, rank_bench_job, &rj, NULL,
                           (GDestroyNotify) tl_rank_result_free, bn->cancellable, &error);
      gpu_ms[rep] = (g_get_monotonic_time () - t0) / 1000.0;
      if (g == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return TL_CLI_INTERRUPTED;
      if (g == NULL)
        return tl_cli_fail ("lu-bench", error);
    }
  if (tl_cli_interrupted (bn->cancellable))
    return TL_CLI_INTERRUPTED;
  gint64 t0 = g_get_monotonic_time ();
  g_autofree gsize *piv = NULL;
  gsize cpu_rank = 0;
  g_autoptr (TlMatrix) rref = tl_rref (a, -1, &piv, &cpu_rank, &error);
  g_autoptr (TlMatrix) cn = rref ? tl_null_space (a, -1, &error) : NULL;
  double cpu_ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (cn == NULL)
    return tl_cli_fail ("lu-bench", error);
  if (tl_cli_interrupted (bn->cancellable))
    return TL_CLI_INTERRUPTED;
  double ratio = null_ratio (a, g->null_basis);
  gboolean same_pivots = g->rank == cpu_rank;
  for (gsize i = 0; same_pivots && i < cpu_rank; i++)
    same_pivots = g->pivot_cols[i] == piv[i];
  gboolean ok = g->rank == want && same_pivots && ratio < 30;
  printf ("%6zu %-8s rank %zu: GPU %.1f ms (gesvdj %.1f ms, %d sweeps, presentation %.1f ms), "
          "CPU %.1f ms, %.1f×, CPU rank %zu%s, ‖A·N‖ ratio %.3g %s\n",
          n, tl_dtype_name (dt), g->rank, gpu_ms[1], g->svd_ms, g->sweeps, g->present_s * 1e3,
          cpu_ms, cpu_ms / gpu_ms[1], cpu_rank, same_pivots ? ", same pivots" : ", OTHER pivots",
          ratio, ok ? "ok" : "FAIL");
  fflush (stdout);
  g_string_append_printf (md, "| %zu | %s | %zu | %zu | %.1f | %.1f | %d | %.1f | %.1f | %.1f× | %s | %.3g%s |\n",
                          n, tl_dtype_name (dt), want, g->rank, gpu_ms[1], g->svd_ms, g->sweeps,
                          g->present_s * 1e3, cpu_ms, cpu_ms / gpu_ms[1],
                          same_pivots ? "same" : "OTHER", ratio, ok ? "" : " FAIL");
  return ok ? TL_CLI_OK : TL_CLI_FAILURE;
}

/* One case of --sizes × --dtypes: n in 1…65536, a float dtype. */
static gboolean
parse_case (const char *size, const char *dtype, TlDtype *out_dtype, guint64 *out_n)
{
  return tl_dtype_from_name (dtype, out_dtype) && *out_dtype != TL_DTYPE_INT32
         && g_ascii_string_to_unsigned (size, 10, 1, 65536, out_n, NULL);
}

static int
bench_rank_all (Bench *bn, GStrv sizes, GStrv dtypes)
{
  g_autoptr (GString) md = g_string_new (NULL);
  int rc = TL_CLI_OK;
  for (guint di = 0; dtypes[di] && rc != TL_CLI_INTERRUPTED; di++)
    for (guint si = 0; sizes[si]; si++)
      {
        TlDtype dt;
        guint64 n64 = 0;
        if (!parse_case (sizes[si], dtypes[di], &dt, &n64))
          return tl_cli_usage_error ("lu-bench", _("bad size or dtype “%s”/“%s”"), sizes[si],
                                     dtypes[di]);
        int r = bench_rank (bn, dt, (gsize) n64, md);
        if (r == TL_CLI_INTERRUPTED)
          {
            rc = r;
            break;
          }
        if (r != TL_CLI_OK)
          rc = r;
      }
  g_string_append_printf (bn->md, "\n## Rank and null space: GPU (%s) against the CPU path\n\n"
                          "A = rank-deficient generator, n×n of rank 3n/4.  GPU: wall time of the "
                          "second of two runs (upload, SVD, download of the null space, free columns "
                          "and echelon basis on the CPU), the SVD's device time, Jacobi sweeps, the "
                          "presentation's CPU time.  CPU: the default path of `tilelab-cli nullspace` "
                          "(LAPACK dgesdd for the tolerance, Gauss–Jordan for the rank, again for the "
                          "null space), one run, wall time.  pivots: the GPU's pivot columns against "
                          "the CPU's.  ratio: ‖A·n‖₂/(‖A‖_F‖n‖₂·n·ε), first and last basis vector "
                          "(< 30 passes).\n\n", TL_RANK_GPU_METHOD);
  g_string_append (bn->md, "| n | dtype | rank built | rank | GPU ms | gesvdj ms | sweeps | presentation ms | CPU ms | CPU/GPU | pivots | ratio |\n");
  g_string_append (bn->md, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  g_string_append (bn->md, md->str);
  return rc;
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

static GStrv
every_gpu_rung (void)
{
  GStrvBuilder *all = g_strv_builder_new ();
  for (guint i = 0; i < tl_lu_kernel_count (); i++)
    if (tl_lu_kernel_get (i)->backend == TL_BACKEND_GPU)
      g_strv_builder_add (all, tl_lu_kernel_get (i)->id);
  GStrv list = g_strv_builder_end (all);
  g_strv_builder_unref (all);
  return list;
}

static void
bench_header (Bench *bn, const TlGpuFacts *facts)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  g_string_append_printf (bn->md, "# LU (Gauss ladder) on %s — %s\n\n", facts->name, date);
  g_string_append_printf (bn->md, "`tilelab-cli lu-bench` — random-uniform A (seed %" G_GUINT64_FORMAT "), "
                          "%d warm-up(s), median of %d timed factorisations (CUDA events, device time); "
                          "GFLOP/s at 2/3·n³; %% = share of cuSOLVER's rate in the same run; "
                          "check = ‖b − A·x̂‖∞ / (‖A‖∞‖x̂‖∞·n·ε) of a solve with the downloaded factors "
                          "(< 30 passes). GPU %d, %d SMs, CUDA driver %d, runtime %d.\n\n",
                          bn->seed, bn->warmups, bn->repeats, bn->device, facts->sm_count,
                          facts->driver_version, facts->runtime_version);
}

static void
lu_table_header (Bench *bn)
{
  g_string_append (bn->md, "| n | dtype | kernel | median ms | GFLOP/s | % of cuSOLVER | check | phases: panel / swap / trsm / gemm ms (phase-timing run, no overlap) |\n");
  g_string_append (bn->md, "|---:|---|---|---:|---:|---:|---:|---|\n");
}

static void
solve_table (Bench *bn)
{
  if (bn->solve_md->len == 0)
    return;
  g_string_append_printf (bn->md, "\n## Solve (getrs) from the factors of %s, against cuSOLVER\n\n"
                          "Median of %d timed solves after %d warm-up(s), B random in [−1, 1); "
                          "GFLOP/s at 2·n²·nrhs; %% = cuSOLVER getrs's time over ours; check = the "
                          "backward error above for the first and the last right-hand side.\n\n",
                          bn->solve_kernel ? bn->solve_kernel
                                           : "the fastest GPU rung of each size (`--kernel gpu`)",
                          bn->repeats, bn->warmups);
  g_string_append (bn->md, "| n | dtype | nrhs | solver | median ms | GFLOP/s | % of getrs | check |\n");
  g_string_append (bn->md, "|---:|---|---:|---|---:|---:|---:|---:|\n");
  g_string_append (bn->md, bn->solve_md->str);
}

/* Per size and dtype: the fastest rung that ran (and passed), against
 * cuSOLVER, and the rung `--kernel gpu` takes for that size. */
static void
best_table (Bench *bn)
{
  if (bn->best_md->len == 0)
    return;
  g_string_append (bn->md, "\n## The fastest rung per size\n\n"
                           "Of the rungs above (failed checks excluded): its median and cuSOLVER's, "
                           "% = cuSOLVER's time over the rung's; `gpu`: the rung that `--kernel gpu` "
                           "(det, solve) takes for this size, from the ladder's fastest_from column.\n\n");
  g_string_append (bn->md, "| n | dtype | fastest rung | its ms | cuSOLVER ms | % of cuSOLVER | `gpu` |\n");
  g_string_append (bn->md, "|---:|---|---|---:|---:|---:|---|\n");
  g_string_append (bn->md, bn->best_md->str);
}

static int
bench_all (Bench *bn, GStrv sizes, GStrv dtypes, GStrv kernels, GStrv rhs)
{
  int rc = TL_CLI_OK;
  for (guint di = 0; dtypes[di]; di++)
    for (guint si = 0; sizes[si]; si++)
      {
        TlDtype dt;
        guint64 n64 = 0;
        if (!parse_case (sizes[si], dtypes[di], &dt, &n64))
          return tl_cli_usage_error ("lu-bench", _("bad size or dtype “%s”/“%s”"), sizes[si],
                                     dtypes[di]);
        int r = bench_size (bn, dt, (gsize) n64, kernels, rhs);
        if (r < 0)
          return TL_CLI_FAILURE;
        if (r == TL_CLI_USAGE || r == TL_CLI_INTERRUPTED)
          return r;
        if (r != TL_CLI_OK)
          rc = r;
      }
  return rc;
}

/* --block-size, --repeats, --warmups, --max-percolumn, --device: a value
 * given is checked, never taken for "not given". */
static int
check_numbers (Bench *bn, const char *block_text)
{
  gint64 block_value = 0;
  if (!tl_cli_option_int ("lu-bench", "--block-size", block_text, 1, TL_MATRIX_MAX_DIM,
                          &block_value))
    return TL_CLI_USAGE;
  bn->block = (int) block_value;
  if (bn->repeats < 1)
    return tl_cli_usage_error ("lu-bench", _("--repeats must be at least 1, got %d"), bn->repeats);
  if (bn->warmups < 0 || bn->max_percolumn < 0 || bn->device < 0)
    return tl_cli_usage_error ("lu-bench", _("--warmups, --max-percolumn and --device must not "
                                             "be negative"));
  return TL_CLI_OK;
}

/* The suite on a runner of its own, its tables written to output (when
 * not NULL) also when Ctrl+C stopped it. */
static int
bench_suite (Bench *bn, gboolean rank_suite, GStrv sizes, GStrv dtypes, GStrv kernels, GStrv rhs,
             const char *output)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  /* caught before the device is first opened (seconds): a Ctrl+C then is
   * seen as soon as the probe returns */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  TlGpuFacts facts;
  if (!device_facts (runner, bn->device, &facts, &error))
    return tl_cli_fail ("lu-bench", error);
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted ("lu-bench");
  bn->runner = runner;
  bn->cancellable = cancellable;
  bn->md = g_string_new (NULL);
  bn->solve_md = g_string_new (NULL);
  bn->best_md = g_string_new (NULL);
  bench_header (bn, &facts);
  int rc;
  if (rank_suite)
    rc = bench_rank_all (bn, sizes, dtypes);
  else
    {
      lu_table_header (bn);
      rc = bench_all (bn, sizes, dtypes, kernels, rhs);
      best_table (bn);
      solve_table (bn);
    }
  if (rc == TL_CLI_INTERRUPTED)
    {
      g_string_append (bn->md, _("\n**Stopped by Ctrl+C**: the rows above are the runs that had "
                                 "finished; the rest of the benchmark did not run.\n"));
      g_printerr (_("tilelab-cli lu-bench: stopped; the tables keep the rows that had finished\n"));
    }
  /* a temporary file renamed into place: never half a file */
  if (output && !tl_save_contents (output, bn->md->str, bn->md->len, NULL, &error))
    rc = tl_cli_fail ("lu-bench", error);
  g_string_free (bn->md, TRUE);
  g_string_free (bn->solve_md, TRUE);
  g_string_free (bn->best_md, TRUE);
  return rc;
}

int
tl_cli_lu_bench (int argc, char **argv)
{
  g_autofree char *sizes_s = NULL, *dtypes_s = NULL, *kernels_s = NULL, *output = NULL;
  g_autofree char *rhs_s = NULL, *solve_kernel = NULL, *block_text = NULL, *suite = NULL;
  g_autofree char *solvers_s = NULL;
  gint64 seed = 7;
  Bench bn = { .warmups = 1, .repeats = 10, .max_percolumn = 4096 };
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_s, N_("Sizes n (default 1024,2048,4096,8192,16384)"), "N[,N…]" },
    { "dtypes", 0, 0, G_OPTION_ARG_STRING, &dtypes_s, N_("float32,float64 (default both)"), "D[,D…]" },
    { "kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels_s,
      N_("GPU rungs (default: every GPU rung of the Gauss ladder)"), "K[,K…]" },
    { "repeats", 'r', 0, G_OPTION_ARG_INT, &bn.repeats, N_("Timed runs per rung and solver (default 10)"), "R" },
    { "warmups", 'w', 0, G_OPTION_ARG_INT, &bn.warmups, N_("Untimed runs first (default 1)"), "W" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &block_text, N_("Block size of blocked rungs (default: theirs)"), "B" },
    { "max-percolumn", 0, 0, G_OPTION_ARG_INT, &bn.max_percolumn,
      N_("Largest n for the unblocked rungs (lu-01-percolumn), which are memory-bound and slow (default 4096)"), "N" },
    { "rhs", 0, 0, G_OPTION_ARG_STRING, &rhs_s,
      N_("Right-hand sides of the solve benchmark (default 1,16,256,4096; none to skip)"), "K[,K…]" },
    { "solve-kernel", 0, 0, G_OPTION_ARG_STRING, &solve_kernel,
      N_("The rung whose factors the solve benchmark uses (default: the fastest GPU rung of each size)"), "K" },
    { "suite", 0, 0, G_OPTION_ARG_STRING, &suite,
      N_("lu (default): the ladder against cuSOLVER; rank: rank and null space, GPU against the CPU path (--sizes default 1024,4096)"), "lu|rank" },
    { "solvers", 0, 0, G_OPTION_ARG_STRING, &solvers_s,
      N_("Solvers of the solve benchmark (default cusolver-getrs,lu-solve; lu-solve alone e.g. under compute-sanitizer, where cuSOLVER's getrs stops the process)"), "S[,S…]" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_("Generator seed"), "S" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &bn.device, N_("GPU ordinal"), "I" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Also write the markdown tables to FILE"), "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new (N_("— the GPU LU ladder against cuSOLVER"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!tl_cli_parse (ctx, &argc, &argv))
    return TL_CLI_USAGE;
  if (check_numbers (&bn, block_text) != TL_CLI_OK)
    return TL_CLI_USAGE;

  const gboolean rank_suite = suite && g_str_equal (suite, "rank");
  if (suite && !rank_suite && !g_str_equal (suite, "lu"))
    return tl_cli_usage_error ("lu-bench", _("--suite takes lu or rank, not “%s”"), suite);
  g_auto (GStrv) sizes = g_strsplit (sizes_s ? sizes_s
                                     : rank_suite ? "1024,4096" : "1024,2048,4096,8192,16384",
                                     ",", -1);
  g_auto (GStrv) dtypes = g_strsplit (dtypes_s ? dtypes_s : "float32,float64", ",", -1);
  g_auto (GStrv) kernels = kernels_s ? g_strsplit (kernels_s, ",", -1) : every_gpu_rung ();
  const char *rhs_text = rhs_s ? rhs_s : "1,16,256,4096";
  g_auto (GStrv) rhs = g_strsplit (strcmp (rhs_text, "none") == 0 ? "" : rhs_text, ",", -1);
  if (!check_kernels (kernels))
    return TL_CLI_USAGE;
  g_auto (GStrv) solvers = g_strsplit (solvers_s ? solvers_s : "cusolver-getrs,lu-solve", ",", -1);
  for (guint i = 0; solvers[i]; i++)
    if (!g_str_equal (solvers[i], "cusolver-getrs") && !g_str_equal (solvers[i], "lu-solve"))
      return tl_cli_usage_error ("lu-bench", _("--solvers takes cusolver-getrs and lu-solve, not “%s”"),
                                 solvers[i]);
  bn.solvers = solvers;
  bn.seed = (guint64) seed;
  bn.solve_kernel = solve_kernel;

  return bench_suite (&bn, rank_suite, sizes, dtypes, kernels, rhs, output);
}
