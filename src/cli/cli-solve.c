/* cli-solve.c — `tilelab-cli solve`: AX = B and its solution space. */
#include "cli-gauss.h"
#include "cli-gemm.h"
#include "run/tl-gauss-run.h"
#include "core/tl-error.h"
#include "io/tl-io.h"
#include "lu/tl-rank.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

/* max over columns of ‖B − AX‖∞ / (‖A‖∞ ‖X‖∞ + ‖B‖∞) */
static double
rel_residual (const TlMatrix *a, const TlMatrix *x, const TlMatrix *b)
{
  double worst = 0;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize c = 0; c < x->cols; c++)
      {
        double s = b ? tl_matrix_get (b, i, c) : 0;
        for (gsize j = 0; j < a->cols; j++)
          s -= tl_matrix_get (a, i, j) * tl_matrix_get (x, j, c);
        worst = fmax (worst, fabs (s));
      }
  double d = tl_matrix_norm (a, TL_NORM_INF) * tl_matrix_norm (x, TL_NORM_INF)
             + (b ? tl_matrix_norm (b, TL_NORM_INF) : 0);
  return d > 0 ? worst / d : worst;
}

static int
solve_exact (TlCliGauss *o, const TlMatrix *a, const TlMatrix *b)
{
  g_autoptr (GError) error = NULL;
  guint32 p = (guint32) o->mod;
  g_autoptr (TlGfpMatrix) ga = tl_gfp_from_matrix (a, p, &error);
  g_autoptr (TlGfpMatrix) gb = ga ? tl_gfp_from_matrix (b, p, &error) : NULL;
  g_autoptr (TlGfpSolution) s = gb ? tl_gfp_solve_space (ga, gb, &error) : NULL;
  if (s == NULL)
    return tl_cli_fail ("solve", error);
  printf (_("Exact Gauss–Jordan elimination over GF(%u)\n"), p);
  printf (_("  rank       %zu of %zu unknowns\n"), s->rank, a->cols);
  switch (s->kind)
    {
    case TL_SOLUTION_NONE:
      printf (_("  NO SOLUTION: right-hand side %zu is not a combination of A's columns\n"
                "             (row reduction leaves an equation 0 = r with r ≠ 0 mod %u)\n"),
              s->inconsistent_column + 1, p);
      break;
    case TL_SOLUTION_UNIQUE:
      printf (_("  UNIQUE SOLUTION (mod %u):\n"), p);
      tl_cli_print_gfp ("    ", s->particular, o->max_print);
      break;
    case TL_SOLUTION_INFINITE:
      if (s->null_basis->cols == 1)
        printf (_("  INFINITELY MANY SOLUTIONS: x = x_p + t·n1 for any t in GF(%u)\n"), p);
      else
        printf (_("  INFINITELY MANY SOLUTIONS: x = x_p + t1·n1 + … + t%zu·n%zu for any t in GF(%u)\n"),
                s->null_basis->cols, s->null_basis->cols, p);
      printf (_("  x_p, a particular solution (free variables 0):\n"));
      tl_cli_print_gfp ("    ", s->particular, o->max_print);
      printf (_("  null-space basis n1 … n%zu (as columns):\n"), s->null_basis->cols);
      tl_cli_print_gfp ("    ", s->null_basis, o->max_print);
      break;
    }
  return TL_CLI_OK;
}

/* The singular values on the runner's worker (its GPU session). */
typedef struct
{
  const TlMatrix *a;
  int ordinal;
} RankJob;

static gpointer
rank_job (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  const RankJob *rj = data;
  return tl_rank_gpu (rj->a, tl_runner_job_get_gpu (job), rj->ordinal, FALSE, cancellable, error);
}

/* A, and B (read, split off A's last column, or made so that the solution
 * is all ones), the system printed: TL_CLI_OK, or the exit code of what
 * went wrong, said. */
static int
read_system (TlCliGauss *o, int argc, char **argv, GCancellable *cancellable, TlMatrix **a_out,
             TlMatrix **b_out)
{
  g_autoptr (GError) error = NULL;
  int next = 1;
  g_autoptr (TlMatrix) a = tl_cli_gauss_input (o, argc, argv, &next, &error);
  g_autoptr (TlMatrix) b = NULL;
  const char *apath = o->gen ? NULL : argv[1];
  if (a == NULL)
    {
      return tl_cli_fail ("solve", error);
    }
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted ("solve");
  if (o->augmented)
    {
      if (a->cols < 2)
        {
          g_printerr (_("tilelab-cli solve: --augmented needs at least two columns (A and b)\n"));
          return TL_CLI_FAILURE;
        }
      g_autoptr (TlMatrix) av = tl_matrix_view (a, 0, 0, a->rows, a->cols - 1);
      g_autoptr (TlMatrix) bv = tl_matrix_view (a, 0, a->cols - 1, a->rows, 1);
      TlMatrix *a2 = tl_matrix_copy (av, &error);
      b = tl_matrix_copy (bv, &error);
      tl_matrix_unref (a);
      a = a2;
    }
  else if (next < argc)
    {
      b = tl_cli_gauss_load (o, argv[next++], &error);
      if (b == NULL)
        {
          return tl_cli_fail ("solve", error);
        }
    }
  else if (o->gen)
    {
      b = tl_matrix_new_zeroed (a->dtype, a->rows, 1, &error);
      for (gsize i = 0; i < a->rows; i++)
        {
          double s = 0;
          for (gsize j = 0; j < a->cols; j++)
            s += tl_matrix_get (a, i, j);
          tl_matrix_set (b, i, 0, s);
        }
    }
  else
    {
      return tl_cli_usage_error ("solve", _("no right-hand side: give B-FILE, or --augmented when b is A's last column"));
    }
  if (next < argc)
    {
      return tl_cli_usage_error ("solve", _("unexpected argument “%s”"), argv[next]);
    }
  if (b->rows != a->rows)
    {
      g_printerr (_("tilelab-cli solve: mismatched right-hand side: A has %zu rows (equations) but B has %zu\n"),
                  a->rows, b->rows);
      return TL_CLI_FAILURE;
    }
  printf (_("System: A %zu×%zu (%s), B %zu×%zu — %zu equations, %zu unknowns, %zu right-hand side%s\n"),
          a->rows, a->cols, tl_cli_describe_source (o, apath), b->rows, b->cols, a->rows, a->cols,
          b->cols, b->cols == 1 ? "" : "s");
  if (o->gen && !o->augmented && next == 1 + (o->gen ? 0 : 1))
    printf (_("        b = A·(1, …, 1)ᵀ: the exact solution is all ones\n"));
  *a_out = g_steal_pointer (&a);
  *b_out = g_steal_pointer (&b);
  return TL_CLI_OK;
}

/* A square system on the GPU: the fastest LU rung factors and solves it
 * first.  When LAPACK's condition estimate from those factors (O(n²) on
 * the host) is clearly above the rank rule's cut (σ_n > max(m,n)·ε·σ₁,
 * with a factor n for the gap between κ₁ and κ₂ and the estimate's
 * slack), A has full rank and that solution is the answer.  Otherwise
 * (a zero pivot, or too close to call) the GPU's singular values decide
 * the rank, and a rank-deficient A goes on to Gauss–Jordan on the CPU for
 * its solution space. */
static int
solve_square_on_gpu (TlCliGauss *o, TlMatrix *a, TlMatrix *b, TlRunner *runner,
                     GCancellable *cancellable, TlGaussResult **solved, TlSolution **s)
{
  g_autoptr (GError) error = NULL;
  TlGaussJob job = { .kind = TL_GAUSS_SOLVE, .a = a, .b = b, .options = tl_cli_gauss_options (o) };
  *solved = tl_cli_run_gauss (runner, &job, cancellable, &error);
  if (*solved == NULL)
    return tl_cli_fail ("solve", error);
  const double n = (double) a->cols;
  const double cut = n * (a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON);
  const double rcond = tl_lu_rcond ((*solved)->lu, tl_matrix_norm (a, TL_NORM_ONE));
  if (rcond / n > cut)
    {
      *s = g_new0 (TlSolution, 1);
      (*s)->kind = TL_SOLUTION_UNIQUE;
      (*s)->rank = a->cols;
      printf (_("LU on GPU %d (%s): condition estimate 1/κ₁ ≈ %.3g, above n·(n·ε) = %.3g: full rank\n"),
              (*solved)->lu->gpu_ordinal, (*solved)->lu->kernel_id, rcond, n * cut);
    }
  else
    {
      g_clear_pointer (solved, tl_gauss_result_free);
      RankJob rj = { a, o->device };
      g_autoptr (TlRankResult) rk = tl_cli_run_func (runner, rank_job, &rj, NULL,
                                                     (GDestroyNotify) tl_rank_result_free,
                                                     cancellable, &error);
      if (rk == NULL)
        return tl_cli_fail ("solve", error);
      if (rk->rank == a->cols)
        {
          *s = g_new0 (TlSolution, 1);
          (*s)->kind = TL_SOLUTION_UNIQUE;
          (*s)->rank = rk->rank;
          (*s)->tol = rk->cut;
          printf (_("Singular values on GPU %d (%s): rank %zu of %zu, σ_n = %.3g > max(m,n)·ε·σ₁ = %.3g\n"),
                  rk->gpu_ordinal, TL_RANK_GPU_METHOD, rk->rank, a->cols,
                  rk->sigma[rk->n_sigma - 1], rk->cut);
        }
      else
        printf (_("Singular values on GPU %d (%s): rank %zu of %zu — the solution space on the CPU:\n"),
                rk->gpu_ordinal, TL_RANK_GPU_METHOD, rk->rank, a->cols);
    }
  return TL_CLI_OK;
}

/* The rank and the kind of solution, with x (the solution, or a particular
 * one) in *x_out; a square nonsingular system is solved by LU here unless
 * the GPU did it already (*solved). */
static int
print_solution (TlCliGauss *o, TlMatrix *a, TlMatrix *b, const TlSolution *s, TlRunner *runner,
                GCancellable *cancellable, TlGaussResult **solved, TlMatrix **x_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) x = NULL;
  printf (_("  rank       %zu of %zu unknowns"), s->rank, a->cols);
  if (s->rank && s->pivot_cols)
    {
      printf (_("; pivot columns"));
      for (gsize i = 0; i < MIN (s->rank, (gsize) 16); i++)
        printf (" %zu", s->pivot_cols[i] + 1);
      printf ("%s", s->rank > 16 ? " …" : "");
    }
  printf ("\n");
  switch (s->kind)
    {
    case TL_SOLUTION_NONE:
      if (s->by_svd)
        printf (_("  NO SOLUTION: right-hand side %zu is not a combination of A's columns —\n"
                  "             its least-squares residual is %.3g of its size, above rounding\n"),
                s->inconsistent_column + 1, s->inconsistency);
      else
        printf (_("  NO SOLUTION: right-hand side %zu is not a combination of A's columns —\n"
                  "             row reduction leaves the contradiction 0 = %.3g (above the tolerance)\n"),
                s->inconsistent_column + 1, s->inconsistency);
      break;
    case TL_SOLUTION_UNIQUE:
      if (a->rows == a->cols)
        {
          /* the accurate route for a square nonsingular system: PA = LU, then
           * two triangular solves (getrs) — on the GPU already done above */
          if (*solved == NULL)
            {
              TlGaussJob job = { .kind = TL_GAUSS_SOLVE, .a = a, .b = b,
                                 .options = tl_cli_gauss_options (o) };
              *solved = tl_cli_run_gauss (runner, &job, cancellable, &error);
              if (*solved == NULL)
                return tl_cli_fail ("solve", error);
            }
          x = g_steal_pointer (&(*solved)->x);
          printf (_("  UNIQUE SOLUTION (by %s and two triangular solves):\n"), (*solved)->lu->kernel_id);
        }
      else
        {
          x = tl_matrix_ref (s->particular);
          printf (_("  UNIQUE SOLUTION (an overdetermined but consistent system):\n"));
        }
      tl_cli_print_matrix ("    ", x, o->max_print);
      printf (_("  residual   ‖B − AX‖∞ / (‖A‖∞‖X‖∞ + ‖B‖∞) = %.3g\n"), rel_residual (a, x, b));
      break;
    case TL_SOLUTION_INFINITE:
      x = tl_matrix_ref (s->particular);
      if (s->null_basis->cols == 1)
        printf (_("  INFINITELY MANY SOLUTIONS: x = x_p + t·n1 for any number t\n"));
      else
        printf (_("  INFINITELY MANY SOLUTIONS: x = x_p + t1·n1 + … + t%zu·n%zu for any numbers t\n"),
                s->null_basis->cols, s->null_basis->cols);
      printf (_("  x_p, a particular solution (free variables set to 0):\n"));
      tl_cli_print_matrix ("    ", x, o->max_print);
      printf (_("  null-space basis n1 … n%zu (as columns; A·n = 0):\n"), s->null_basis->cols);
      tl_cli_print_matrix ("    ", s->null_basis, o->max_print);
      printf (_("  residual   ‖B − A·x_p‖ rel. = %.3g, ‖A·N‖ rel. = %.3g\n"), rel_residual (a, x, b),
              rel_residual (a, s->null_basis, NULL));
      break;
    }
  *x_out = g_steal_pointer (&x);
  return TL_CLI_OK;
}

static int
body (TlCliGauss *o, int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  /* Ctrl+C stops between the steps (input, elimination, the solve on the
   * runner): exit 130, and --output is written only for a finished solve */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  g_autoptr (TlMatrix) a = NULL;
  g_autoptr (TlMatrix) b = NULL;
  int rc = read_system (o, argc, argv, cancellable, &a, &b);
  if (rc != TL_CLI_OK)
    return rc;
  if (o->mod)
    return solve_exact (o, a, b);

  const TlLuKernelInfo *ki = o->kernel && !g_str_equal (o->kernel, "gpu")
                               ? tl_lu_kernel_find (o->kernel) : NULL;
  const gboolean on_gpu = o->kernel && (g_str_equal (o->kernel, "gpu")
                                        || (ki && ki->backend == TL_BACKEND_GPU));
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (TlSolution) s = NULL;
  g_autoptr (TlGaussResult) solved = NULL;
  if (on_gpu && a->rows == a->cols && o->tol < 0
      && (rc = solve_square_on_gpu (o, a, b, runner, cancellable, &solved, &s)) != TL_CLI_OK)
    return rc;
  if (s == NULL)
    {
      s = tl_solve_space (a, b, o->tol, &error);
      if (s == NULL)
        return tl_cli_fail ("solve", error);
      if (s->by_svd)
        printf (_("The singular value decomposition (elimination's rank or its contradiction was "
                  "at rounding level), cut σ₁·max(m,n)·ε = %.3g\n"), s->tol);
      else
        printf (_("Gauss–Jordan elimination (seed 004 §3.2), tolerance %.3g\n"), s->tol);
    }
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted ("solve");
  g_autoptr (TlMatrix) x = NULL;
  rc = print_solution (o, a, b, s, runner, cancellable, &solved, &x);
  if (rc != TL_CLI_OK)
    return rc;
  if (tl_cli_interrupted (cancellable))
    return tl_cli_fail_interrupted ("solve");
  if (o->output && x && !tl_matrix_save (x, o->output, TL_FORMAT_AUTO, &error))
    return tl_cli_fail ("solve", error);
  return TL_CLI_OK;
}

int
tl_cli_solve (int argc, char **argv)
{
  TlCliGauss o = { 0 };
  o.command = "solve";
  g_autoptr (GOptionContext) ctx = g_option_context_new (N_("[A-FILE [B-FILE]] — solve AX = B, or describe all solutions"));
  tl_cli_gauss_add_options (ctx, &o, TRUE);
  GOptionEntry more[] = {
    { "augmented", 'a', 0, G_OPTION_ARG_NONE, &o.augmented, N_("The last column of the matrix is b (an n×(n+1) system, as in seed 004)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Save the (particular) solution X to FILE"), "FILE" },
    { NULL },
  };
  g_option_context_add_main_entries (ctx, more, GETTEXT_PACKAGE);
  g_option_context_set_description (ctx,
    N_("Without B and with --gen, b = A·(1, …, 1)ᵀ, so the exact solution is all ones.\n"
    "Singular or rectangular systems get their solution space: a particular solution\n"
    "plus a null-space basis, or “no solution”.\n\nExamples:\n"
    "  tilelab-cli solve A.mtx b.mtx\n  tilelab-cli solve --augmented system.txt\n"
    "  tilelab-cli solve --gen condition:kappa=1e8 --size 100\n"));
  return tl_cli_gauss_run (ctx, &o, argc, argv, body);
}
