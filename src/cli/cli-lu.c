/* cli-lu.c — `tilelab-cli lu` and `tilelab-cli det`: Gauss elimination as
 * PA = LU, its pivots, determinant and growth, optionally recorded. */
#include "cli-gauss.h"
#include "cli-gemm.h"
#include "core/tl-error.h"
#include "io/tl-io.h"
#include "record/tl-lu-record.h"
#include "lu/tl-lu-recorder.h"
#include "run/tl-gauss-run.h"
#include "record/tl-gauss-record.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>

static void
print_det (const TlLuResult *r)
{
  if (r->breakdown)
    {
      printf (_("  det        unknown: without pivoting, elimination stopped at step %zu\n"), r->info);
      return;
    }
  if (r->det_sign == 0)
    {
      printf (_("  det        0   (singular: U(%zu,%zu) is exactly zero)\n"), r->info, r->info);
      return;
    }
  if (r->det_finite)
    printf ("  det        %.10e\n", r->det);
  else
    printf (_("  det        %s10^%.6f   (beyond double range; see the log)\n"),
            r->det_sign < 0 ? "-" : "", r->log_abs_det / log (10.0));
  printf ("  sign       %+d\n", r->det_sign);
  printf ("  ln|det|    %.12g   (log10|det| = %.10g)\n", r->log_abs_det, r->log_abs_det / log (10.0));
  printf (_("             det = (−1)^%zu swaps × ∏ U(k,k)\n"), r->n_swaps);
}

static void
print_exact (TlCliGauss *o, const TlGfpLu *lu, gsize m, gsize n)
{
  guint32 p = (guint32) o->mod;
  gsize rank = 0;
  for (gsize k = 0; k < MIN (m, n); k++)
    rank += tl_gfp_get (lu->lu, k, k) != 0;
  printf (_("  field      GF(%u): every value exact\n"), p);
  printf ("  info       %zu%s\n", lu->info, lu->info ? _("   (first zero pivot, 1-based)") : "");
  printf (_("  rank       %zu over GF(%u) (pivot count)\n"), rank, p);
  if (m == n)
    printf (_("  det        %u (mod %u), symmetric representative %" PRId64 "\n"),
            lu->det, p, tl_gfp_centered (lu->det, p));
}

/* --mod P: exact elimination over GF(P), on the GPU when --kernel names a
 * GPU rung, recorded on the CPU with --record. */
static int
factor_exact (TlCliGauss *o, TlRunner *runner, const TlMatrix *a, GCancellable *cancellable)
{
  g_autoptr (GError) error = NULL;
  const TlLuKernelInfo *ki = o->kernel ? tl_lu_kernel_find (o->kernel) : NULL;
  gboolean on_gpu = ki && ki->backend == TL_BACKEND_GPU;
  if (on_gpu && o->record)
    return tl_cli_usage_error (o->command, _("the GPU does not record steps; drop --kernel to record the exact elimination"));
  g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (a, (guint32) o->mod, &error);
  if (g == NULL)
    return tl_cli_fail (o->command, error);
  g_autoptr (TlLuRecorder) rec = o->record ? tl_lu_recorder_new (0) : NULL;
  TlGaussJob job = { .kind = TL_GAUSS_EXACT, .exact = g, .exact_on_gpu = on_gpu,
                     .recorder = rec };
  job.options.gpu_ordinal = o->device;
  g_autoptr (TlGaussResult) done = tl_cli_run_gauss (runner, &job, cancellable, &error);
  if (done == NULL)
    return tl_cli_fail (o->command, error);
  const TlGfpLu *lu = done->exact;
  printf (_("Exact Gauss elimination modulo %" PRId64 " on the %s (pivot: first nonzero entry)\n"),
          o->mod, on_gpu ? "GPU" : "CPU");
  print_exact (o, lu, a->rows, a->cols);
  if (o->print)
    {
      printf ("  L\\U packed (mod p):\n");
      tl_cli_print_gfp ("    ", lu->lu, o->max_print);
    }
  if (rec && !tl_lu_recorder_save (rec, o->record, &error))
    return tl_cli_fail (o->command, error);
  else if (rec)
    printf (_("  record     %s: %u steps, %u snapshots (exact integers)\n"), o->record,
            rec->steps->len, rec->snapshots->len);
  return TL_CLI_OK;
}

/* info, the swaps, P as the order of A's rows in PA (1-based), rank, growth. */
static void
print_pivots (const TlMatrix *a, const TlLuResult *r)
{
  printf ("  info       %zu%s\n", r->info,
          r->breakdown ? _("   (zero pivot with nonzeros below: no LU without row swaps — try --pivoting partial)")
          : r->info ? _("   (U(info,info) is exactly zero: A is singular; the factorisation is complete, as in LAPACK)")
                    : _("   (every pivot nonzero)"));
  printf (_("  swaps      %zu row exchanges; ipiv (0-based, row k ↔ row ipiv[k]):"), r->n_swaps);
  for (gsize i = 0; i < MIN (r->n_ipiv, (gsize) 16); i++)
    printf (" %d", r->ipiv[i]);
  printf ("%s\n", r->n_ipiv > 16 ? " …" : "");
  g_autofree gsize *perm = g_new (gsize, MAX (a->rows, 1));
  for (gsize i = 0; i < a->rows; i++)
    perm[i] = i;
  for (gsize step = 0; step < r->n_ipiv; step++)
    {
      gsize t = perm[step];
      perm[step] = perm[r->ipiv[step]];
      perm[r->ipiv[step]] = t;
    }
  printf (_("  P          PA takes the rows of A in this order:"));
  for (gsize i = 0; i < MIN (a->rows, (gsize) 16); i++)
    printf (" %zu", perm[i] + 1);
  printf ("%s\n", a->rows > 16 ? " …" : "");
  printf (_("  rank       ≥ %zu (pivots above %.3g; `tilelab-cli rank` decides exactly)\n"), r->rank, r->rank_tol);
  printf (_("  growth     %.4g (max|U| / max|A|; partial pivoting keeps it ≤ 2^(n−1), in practice small)\n"),
          r->growth);
}

static void
print_time_split (const TlLuResult *r)
{
  if (!r->block_size || r->phase_ns[TL_LU_PHASE_GEMM] + r->phase_ns[TL_LU_PHASE_PANEL] <= 0)
    return;
  double total = 0;
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    total += (double) r->phase_ns[ph];
  printf (_("  time split"));
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    printf ("  %s %.0f%%", tl_lu_phase_name (ph), 100.0 * r->phase_ns[ph] / fmax (total, 1));
  printf (_("   (seed 004, Figure 5)\n"));
}

/* LAPACK's test: ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30.  FALSE when it fails. */
static gboolean
print_check (const TlMatrix *a, const TlLuResult *r)
{
  g_autoptr (TlMatrix) pa = tl_matrix_convert (a, TL_DTYPE_FLOAT64, NULL);
  g_autoptr (TlMatrix) lu = tl_lu_reconstruct (r, NULL);
  if (pa == NULL || lu == NULL || r->breakdown)
    return TRUE;
  tl_lu_apply_pivots (pa, r->ipiv, r->n_ipiv, FALSE);
  for (gsize i = 0; i < pa->rows; i++)
    for (gsize j = 0; j < pa->cols; j++)
      tl_matrix_set (pa, i, j, tl_matrix_get (pa, i, j) - tl_matrix_get (lu, i, j));
  double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  double an = tl_matrix_norm (a, TL_NORM_ONE);
  double ratio = an > 0 && a->cols ? tl_matrix_norm (pa, TL_NORM_ONE) / (a->cols * an * eps) : 0;
  printf (_("  check      ‖PA − LU‖₁ / (n ‖A‖₁ ε) = %.3g  %s\n"), ratio,
          ratio < 30 ? _("(< 30: backward stable, LAPACK's test passes)") : _("(≥ 30: FAILS LAPACK's test)"));
  return ratio < 30;
}

static void
print_l_and_u (const TlMatrix *a, const TlLuResult *r, gint max_print)
{
  g_autoptr (TlMatrix) l = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, a->rows, MIN (a->rows, a->cols), NULL);
  g_autoptr (TlMatrix) u = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, MIN (a->rows, a->cols), a->cols, NULL);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double v = tl_matrix_get (r->lu, i, j);
        if (j < i && j < l->cols)
          tl_matrix_set (l, i, j, v);
        else if (i < u->rows)
          tl_matrix_set (u, i, j, v);
        if (i == j && i < l->cols)
          tl_matrix_set (l, i, i, 1.0);
      }
  printf ("  L (unit lower triangular, the multipliers):\n");
  tl_cli_print_matrix ("    ", l, max_print);
  printf ("  U (upper triangular):\n");
  tl_cli_print_matrix ("    ", u, max_print);
}

/* A run record (tilelab-run/2) with the steps as $.extensions.lu. */
static gboolean
save_record (TlCliGauss *o, const char *path, const TlMatrix *a, const TlLuResult *r,
             const TlLuRecorder *rec, GError **error)
{
  TlSource src = { 0 };
  src.kind = o->gen ? TL_SOURCE_GENERATOR : TL_SOURCE_FILE;
  src.generator = o->gen;
  src.seed = (guint64) o->seed;
  src.path = (char *) path;
  /* the recording streamed into the file, never a tree */
  g_autoptr (TlRunRecord) record = a->rows && a->cols ? tl_lu_run_record_new (r, a, &src, NULL, error)
                                                      : NULL;
  gboolean saved = record ? tl_lu_run_record_save (record, rec, o->record, error)
                          : tl_lu_recorder_save (rec, o->record, error);
  if (!saved)
    return FALSE;
  printf (_("  record     %s: %u elimination steps, %u block steps, %u snapshots%s\n"), o->record,
          rec->steps->len, rec->blocks->len, rec->snapshots->len,
          MAX (a->rows, a->cols) > TL_LU_RECORD_WHOLE_MAX ? _(" (pooled to ≤256×256)") : _(" (whole matrix)"));
  printf (_("             each step: pivot column searched, pivot row and value, swap, multipliers, U row, update region\n"));
  return TRUE;
}

/* When the elimination of A overflows (a finite A whose U holds Inf or
 * NaN: [[1e308, 1e308], [−1e308, 1e308]] gives U(2,2) = 2e308), its
 * determinant is taken from D·A instead, each row scaled by a power of two
 * (exact: no digit changes) so its largest entry is below 1: then
 * ln|det A| = Σ ln|u_kk| of D·A − Σ ln d_i, and det A's sign is D·A's.
 * Only the determinant comes from the scaled matrix; PA = LU stays A's. */
static void
det_without_overflow (TlCliGauss *o, TlRunner *runner, const TlMatrix *a, TlLuResult *r,
                      GCancellable *cancellable)
{
  if (a->rows != a->cols || r->breakdown || r->info > 0 || isfinite (r->log_abs_det))
    return;
  g_autoptr (TlMatrix) scaled = tl_matrix_convert (a, TL_DTYPE_FLOAT64, NULL);
  if (scaled == NULL)
    return;
  double log_d = 0.0; /* Σ ln d_i */
  for (gsize i = 0; i < a->rows; i++)
    {
      double *row = tl_matrix_row (scaled, i), big = 0.0;
      for (gsize j = 0; j < a->cols; j++)
        big = fmax (big, fabs (row[j]));
      if (!isfinite (big) || big == 0.0)
        return; /* a zero row is singular, found as such; non-finite input was refused */
      int e;
      frexp (big, &e); /* big < 2^e */
      for (gsize j = 0; j < a->cols; j++)
        row[j] = ldexp (row[j], -e);
      log_d += -e * G_LN2;
    }
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = scaled, .options = tl_cli_gauss_options (o) };
  g_autoptr (TlGaussResult) done = tl_cli_run_gauss (runner, &job, cancellable, NULL);
  if (done == NULL || !isfinite (done->lu->log_abs_det))
    return;
  r->det_sign = done->lu->det_sign;
  r->log_abs_det = done->lu->log_abs_det - log_d;
  double v = exp (r->log_abs_det);
  r->det_finite = isfinite (v) && v > 0.0;
  r->det = r->det_finite ? r->det_sign * v : NAN;
  printf (_("  (the elimination of A overflows; its determinant comes from A with its rows "
            "scaled by powers of two)\n"));
}

static int
factor (TlCliGauss *o, TlRunner *runner, const TlMatrix *a, const char *path,
        GCancellable *cancellable)
{
  const gboolean det_only = g_str_equal (o->command, "det");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlLuRecorder) rec = o->record ? tl_lu_recorder_new (0) : NULL;
  TlGaussJob job = { .kind = TL_GAUSS_FACTOR, .a = a, .options = tl_cli_gauss_options (o),
                     .recorder = rec };
  g_autoptr (TlGaussResult) done = tl_cli_run_gauss (runner, &job, cancellable, &error);
  if (done == NULL)
    return tl_cli_fail (o->command, error);
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted (o->command);
  TlLuResult *r = done->lu;
  const TlLuKernelInfo *k = tl_lu_kernel_find (r->kernel_id);
  printf (_("Gauss elimination with %s pivoting: %s (%s)"), tl_pivoting_name (r->pivoting),
          r->kernel_id, _(k->title));
  if (r->block_size)
    printf (_(", block size %zu"), r->block_size);
  if (rec && k->backend == TL_BACKEND_GPU)
    printf (_(", %.3f ms (timed without recording; the recording run took %.1f ms)\n"),
            r->elapsed_s * 1e3, r->record_s * 1e3);
  else
    printf (_(", %.3f ms%s\n"), r->elapsed_s * 1e3, rec ? _(" while recording") : "");

  det_without_overflow (o, runner, a, r, cancellable);
  if (det_only)
    {
      print_det (r);
      if (r->det_sign != 0)
        printf (_("  growth     %.3g (max|U| / max|A|)\n"), r->growth);
      return TL_CLI_OK;
    }
  print_pivots (a, r);
  if (a->rows == a->cols)
    print_det (r);
  print_time_split (r);
  if ((o->check || a->rows * a->cols <= 512 * 512) && !print_check (a, r) && o->check)
    return TL_CLI_FAILURE;
  if (o->print || (a->rows <= 8 && a->cols <= 8))
    print_l_and_u (a, r, o->max_print);
  if (o->output && !tl_matrix_save (r->lu, o->output, TL_FORMAT_AUTO, &error))
    return tl_cli_fail (o->command, error);
  if (rec && !save_record (o, path, a, r, rec, &error))
    return tl_cli_fail (o->command, error);
  return TL_CLI_OK;
}

static int
body (TlCliGauss *o, int argc, char **argv)
{
  const gboolean det_only = g_str_equal (o->command, "det");
  g_autoptr (GError) error = NULL;
  /* Ctrl+C is caught from here on: making a large input takes seconds, and
   * a signal then is seen as soon as it is made (exit 130, nothing written) */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  int next = 1;
  g_autoptr (TlMatrix) a = tl_cli_gauss_input (o, argc, argv, &next, &error);
  const char *path = next > 1 ? argv[1] : NULL;
  if (a == NULL)
    return tl_cli_fail (o->command, error);
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted (o->command);
  if (next < argc)
    return tl_cli_usage_error (o->command, _("unexpected argument “%s”"), argv[next]);
  if (det_only && a->rows != a->cols)
    {
      g_printerr (_("tilelab-cli det: the determinant needs a square matrix; this one is %zu×%zu\n"),
                  a->rows, a->cols);
      return TL_CLI_FAILURE;
    }
  printf ("A: %zu×%zu %s, %s\n", a->rows, a->cols, o->mod ? "integer" : tl_dtype_name (a->dtype),
          tl_cli_describe_source (o, path));
  /* every kernel runs on a runner's worker, GPU rungs on its device;
   * Ctrl+C stops it between block steps (a half factorisation is no
   * result: nothing is written, exit 130) */
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  return o->mod ? factor_exact (o, runner, a, cancellable)
                : factor (o, runner, a, path, cancellable);
}

static int
run (int argc, char **argv, gboolean det_only)
{
  TlCliGauss o = { 0 };
  gboolean list = FALSE;
  o.command = det_only ? "det" : "lu";
  g_autoptr (GOptionContext) ctx = g_option_context_new (
    det_only ? _("[FILE] — the determinant by Gauss elimination") : _("[FILE] — factor PA = LU"));
  tl_cli_gauss_add_options (ctx, &o, TRUE);
  GOptionEntry more[] = {
    { "record", 'r', 0, G_OPTION_ARG_FILENAME, &o.record, N_("Record every step into FILE.json (for playback)"), "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Save the packed L\\U to FILE"), "FILE" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &o.check, N_("Check ‖PA − LU‖ against LAPACK's threshold"), NULL },
    { "print", 0, 0, G_OPTION_ARG_NONE, &o.print, N_("Print P, L and U"), NULL },
    { "list-kernels", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the Gauss ladder (the kernels --kernel takes)"), NULL },
    { NULL },
  };
  if (!det_only)
    g_option_context_add_main_entries (ctx, more, GETTEXT_PACKAGE);
  g_option_context_set_description (ctx,
    det_only ? "Examples:\n  tilelab-cli det --gen hilbert --size 6\n  tilelab-cli det A.mtx --mod 2147483647\n"
             : "Examples:\n  tilelab-cli lu --gen random-uniform --size 64 --record steps.json\n"
               "  tilelab-cli lu A.mtx --kernel lu-cpu-unblocked --pivoting none --print\n");
  if (!tl_cli_parse (ctx, &argc, &argv) || !tl_cli_gauss_check (&o))
    {
      tl_cli_gauss_clear (&o);
      return TL_CLI_USAGE;
    }
  if (!tl_cli_gauss_blas_fits (&o))
    {
      tl_cli_gauss_clear (&o);
      return TL_CLI_FAILURE;
    }
  if (list)
    {
      printf (_("The Gauss ladder (seed 004 §3):\n"));
      for (guint i = 0; i < tl_lu_kernel_count (); i++)
        {
          const TlLuKernelInfo *k = tl_lu_kernel_get (i);
          printf ("  %-17s %-4s %s%s\n                    %s\n", k->id,
                  k->backend == TL_BACKEND_GPU ? "GPU" : "CPU", _(k->title),
                  k->reference ? _(" (reference)") : "", _(k->lesson));
        }
      tl_cli_gauss_clear (&o);
      return TL_CLI_OK;
    }
  int rc = body (&o, argc, argv);
  tl_cli_gauss_clear (&o);
  return rc;
}

int
tl_cli_lu (int argc, char **argv)
{
  return run (argc, argv, FALSE);
}

int
tl_cli_det (int argc, char **argv)
{
  return run (argc, argv, TRUE);
}
