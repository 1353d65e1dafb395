/* cli-rank.c — `tilelab-cli rank` and `tilelab-cli nullspace`.
 *
 * On the CPU: the tolerance from the singular values, then Gauss–Jordan.
 * With --kernel gpu (or any GPU rung of the Gauss ladder, as det and solve
 * choose the GPU) the singular values and the null space come from the GPU
 * (tl-rank.h) and are shown the same way: pivot columns, the basis with
 * free variable = 1, the RREF. */
#include "cli-gauss.h"
#include "cli-gemm.h"
#include "core/tl-error.h"
#include "io/tl-io.h"
#include "lu/tl-rank.h"
#include "run/tl-runner.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>

/* max |A·N| over the basis' columns */
static double
null_check (const TlMatrix *a, const TlMatrix *n)
{
  double worst = 0;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize c = 0; c < n->cols; c++)
      {
        double s = 0;
        for (gsize j = 0; j < a->cols; j++)
          s += tl_matrix_get (a, i, j) * tl_matrix_get (n, j, c);
        worst = fmax (worst, fabs (s));
      }
  return worst;
}

static void
print_pivots (gsize rank, const gsize *piv)
{
  if (rank == 0 || piv == NULL)
    return;
  printf (_("  pivot columns"));
  for (gsize i = 0; i < MIN (rank, (gsize) 24); i++)
    printf (" %zu", piv[i] + 1);
  printf ("%s\n", rank > 24 ? " …" : "");
}

/* The basis of the null space of a, one vector per column. */
static void
print_null_basis (const TlCliGauss *o, const TlMatrix *a, const TlMatrix *basis)
{
  if (basis->cols == 0)
    printf (_("  null space {0}: the columns are independent\n"));
  else
    {
      printf (_("  basis (one vector per column; free variable = 1, the others 0):\n"));
      tl_cli_print_matrix ("    ", basis, o->max_print);
      printf (_("  check      max |A·N| = %.3g\n"), null_check (a, basis));
    }
}

/* The job on the runner's worker (its GPU session). */
typedef struct
{
  const TlMatrix *a;
  int ordinal;
  gboolean with_basis;
} RankJob;

static gpointer
rank_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  RankJob *rj = data;
  return tl_rank_gpu (rj->a, tl_runner_job_get_gpu (job), rj->ordinal, rj->with_basis,
                      cancellable, error);
}

static int
body_gpu (TlCliGauss *o, const TlMatrix *a, GCancellable *cancellable)
{
  const gboolean nullspace = g_str_equal (o->command, "nullspace");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  RankJob rj = { a, o->device, nullspace || o->rref || o->output };
  g_autoptr (TlRankResult) r = tl_cli_run_func (runner, rank_job, &rj, NULL,
                                                (GDestroyNotify) tl_rank_result_free, cancellable,
                                                &error);
  if (r == NULL)
    return tl_cli_fail (o->command, error);
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted (o->command);
  printf (_("Rank from the singular values on GPU %d (%s, %d sweeps, %.1f ms on the device)\n"),
          r->gpu_ordinal, TL_RANK_GPU_METHOD, r->sweeps, r->svd_ms);
  printf (_("  rank       %zu   nullity %zu   (rank + nullity = %zu columns)\n"), r->rank,
          a->cols - r->rank, a->cols);
  printf (_("  decided by σ_k > max(m,n)·ε·σ₁ = %.3g: σ₁ = %.6g"), r->cut,
          r->n_sigma ? r->sigma[0] : 0.0);
  if (r->rank > 0)
    printf (_(", σ_%zu = %.3g"), r->rank, r->sigma[r->rank - 1]);
  if (r->rank < r->n_sigma)
    printf (_(", σ_%zu = %.3g"), r->rank + 1, r->sigma[r->rank]);
  printf ("\n");
  print_pivots (r->rank, r->pivot_cols);
  g_autoptr (TlMatrix) rref = NULL;
  if (o->rref || (o->output && !nullspace))
    {
      rref = tl_rank_rref (r, a->rows, a->cols, &error);
      if (rref == NULL)
        return tl_cli_fail (o->command, error);
    }
  if (o->rref)
    {
      printf (_("  reduced row echelon form (from the null space):\n"));
      tl_cli_print_matrix ("    ", rref, o->max_print);
    }
  if (nullspace)
    print_null_basis (o, a, r->null_basis);
  if (o->output
      && !tl_matrix_save (nullspace ? r->null_basis : rref, o->output, TL_FORMAT_AUTO, &error))
    return tl_cli_fail (o->command, error);
  return TL_CLI_OK;
}

/* Over GF(p): exact, every nonzero residue is a pivot. */
static int
body_gfp (TlCliGauss *o, const TlMatrix *a)
{
  const gboolean nullspace = g_str_equal (o->command, "nullspace");
  g_autoptr (GError) error = NULL;
  guint32 p = (guint32) o->mod;
  g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (a, p, &error);
  if (g == NULL)
    return tl_cli_fail (o->command, error);
  g_autofree gsize *piv = NULL;
  gsize rank = 0;
  g_autoptr (TlGfpMatrix) r = tl_gfp_rref (g, &piv, &rank);
  printf (_("Exact Gauss–Jordan elimination over GF(%u)\n"), p);
  printf (_("  rank       %zu   nullity %zu   (rank + nullity = %zu columns)\n"), rank,
          a->cols - rank, a->cols);
  if (o->rref)
    tl_cli_print_gfp ("    ", r, o->max_print);
  if (nullspace)
    {
      g_autoptr (TlGfpMatrix) n = tl_gfp_null_space (g);
      if (n->cols == 0)
        printf (_("  null space {0}: the columns are independent\n"));
      else
        {
          printf (_("  basis (as columns, mod %u):\n"), p);
          tl_cli_print_gfp ("    ", n, o->max_print);
        }
    }
  return TL_CLI_OK;
}

/* On the CPU: the tolerance (given, or from the singular values), then
 * Gauss–Jordan with partial pivoting. */
static int
body_cpu (TlCliGauss *o, const TlMatrix *a, GCancellable *cancellable)
{
  const gboolean nullspace = g_str_equal (o->command, "nullspace");
  g_autoptr (GError) error = NULL;
  g_autofree gsize *piv = NULL;
  gsize rank = 0;
  double tol = o->tol >= 0 ? o->tol : tl_rref_default_tol (a);
  g_autoptr (TlMatrix) r = tl_rref (a, tol, &piv, &rank, &error);
  if (r == NULL)
    return tl_cli_fail (o->command, error);
  printf (_("Gauss–Jordan elimination with partial pivoting on the CPU, tolerance %.3g%s\n"), tol,
          o->tol >= 0 ? "" : _(" (from the singular values: the middle of the gap)"));
  printf (_("  rank       %zu   nullity %zu   (rank + nullity = %zu columns)\n"), rank, a->cols - rank,
          a->cols);
  print_pivots (rank, piv);
  if (o->rref)
    {
      printf (_("  reduced row echelon form:\n"));
      tl_cli_print_matrix ("    ", r, o->max_print);
    }
  TlMatrix *save = r;
  g_autoptr (TlMatrix) n = NULL;
  if (nullspace)
    {
      n = tl_null_space (a, tol, &error);
      if (n == NULL)
        return tl_cli_fail (o->command, error);
      save = n;
      print_null_basis (o, a, n);
    }
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted (o->command);
  if (o->output && !tl_matrix_save (save, o->output, TL_FORMAT_AUTO, &error))
    return tl_cli_fail (o->command, error);
  return TL_CLI_OK;
}

static int
body (TlCliGauss *o, int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  int next = 1;
  const TlLuKernelInfo *ki = o->kernel && !g_str_equal (o->kernel, "gpu")
                               ? tl_lu_kernel_find (o->kernel) : NULL;
  if (o->kernel && !g_str_equal (o->kernel, "gpu") && !g_str_equal (o->kernel, "cpu") && ki == NULL)
    return tl_cli_usage_error (o->command, _("--kernel takes gpu, cpu or a rung of the Gauss ladder, not “%s”"),
                               o->kernel);
  const gboolean on_gpu = o->kernel && (g_str_equal (o->kernel, "gpu")
                                        || (ki && ki->backend == TL_BACKEND_GPU));
  if (on_gpu && (o->mod || o->tol >= 0))
    return tl_cli_usage_error (o->command, _("the GPU decides the rank by the singular values: "
                                             "drop --mod and --tol, or use --kernel cpu"));
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  g_autoptr (TlMatrix) a = tl_cli_gauss_input (o, argc, argv, &next, &error);
  if (a == NULL)
    return tl_cli_fail (o->command, error);
  if (next < argc)
    return tl_cli_usage_error (o->command, _("unexpected argument “%s”"), argv[next]);
  printf ("A: %zu×%zu, %s\n", a->rows, a->cols, tl_cli_describe_source (o, o->gen ? NULL : argv[1]));
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted (o->command);
  if (on_gpu)
    return body_gpu (o, a, cancellable);
  if (o->mod)
    return body_gfp (o, a);
  return body_cpu (o, a, cancellable);
}

static int
run (int argc, char **argv, gboolean nullspace)
{
  TlCliGauss o = { 0 };
  o.command = nullspace ? "nullspace" : "rank";
  g_autoptr (GOptionContext) ctx = g_option_context_new (
    nullspace ? _("[FILE] — a basis of {x : Ax = 0}") : _("[FILE] — the rank by Gauss–Jordan elimination"));
  tl_cli_gauss_add_options (ctx, &o, FALSE);
  GOptionEntry more[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Save the basis (nullspace) or the RREF (rank) to FILE"), "FILE" },
    { "rref", 0, 0, G_OPTION_ARG_NONE, &o.rref, N_("Print the reduced row echelon form"), NULL },
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &o.kernel,
      N_("gpu: the singular values and the null space on the GPU (cuSOLVER gesvdj); cpu (default): Gauss–Jordan on the CPU"), "gpu|cpu" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &o.device, N_("GPU ordinal for --kernel gpu (default 0)"), "I" },
    { NULL },
  };
  g_option_context_add_main_entries (ctx, more, GETTEXT_PACKAGE);
  return tl_cli_gauss_run (ctx, &o, argc, argv, body);
}

int
tl_cli_rank (int argc, char **argv)
{
  return run (argc, argv, FALSE);
}

int
tl_cli_nullspace (int argc, char **argv)
{
  return run (argc, argv, TRUE);
}
