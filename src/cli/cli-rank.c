/* cli-rank.c — `tilelab-cli rank` and `tilelab-cli nullspace`. */
#include "cli-gauss.h"
#include "core/tl-error.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>

static int
body (TlCliGauss *o, int argc, char **argv)
{
  const gboolean nullspace = g_str_equal (o->command, "nullspace");
  g_autoptr (GError) error = NULL;
  int next = 1, rc = TL_CLI_OK;
  g_autoptr (TlMatrix) a = tl_cli_gauss_input (o, argc, argv, &next, &error);
  if (a == NULL)
    {
      return tl_cli_fail (o->command, error);
    }
  if (next < argc)
    {
      return tl_cli_usage_error (o->command, _("unexpected argument “%s”"), argv[next]);
    }
  printf ("A: %zu×%zu, %s\n", a->rows, a->cols, tl_cli_describe_source (o, o->gen ? NULL : argv[1]));

  if (o->mod)
    {
      guint32 p = (guint32) o->mod;
      g_autoptr (TlGfpMatrix) g = tl_gfp_from_matrix (a, p, &error);
      if (g == NULL)
        {
          return tl_cli_fail (o->command, error);
        }
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
      return rc;
    }

  g_autofree gsize *piv = NULL;
  gsize rank = 0;
  double tol = o->tol >= 0 ? o->tol : tl_rref_default_tol (a);
  g_autoptr (TlMatrix) r = tl_rref (a, tol, &piv, &rank, &error);
  if (r == NULL)
    {
      return tl_cli_fail (o->command, error);
    }
  printf (_("Gauss–Jordan elimination with partial pivoting, tolerance %.3g%s\n"), tol,
          o->tol >= 0 ? "" : _(" (from the singular values: the middle of the gap)"));
  printf (_("  rank       %zu   nullity %zu   (rank + nullity = %zu columns)\n"), rank, a->cols - rank,
          a->cols);
  if (rank)
    {
      printf (_("  pivot columns"));
      for (gsize i = 0; i < MIN (rank, (gsize) 24); i++)
        printf (" %zu", piv[i] + 1);
      printf ("%s\n", rank > 24 ? " …" : "");
    }
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
        {
          return tl_cli_fail (o->command, error);
        }
      save = n;
      if (n->cols == 0)
        printf (_("  null space {0}: the columns are independent\n"));
      else
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
          printf (_("  basis (one vector per column; free variable = 1, the others 0):\n"));
          tl_cli_print_matrix ("    ", n, o->max_print);
          printf (_("  check      max |A·N| = %.3g\n"), worst);
        }
    }
  if (o->output && !tl_matrix_save (save, o->output, TL_FORMAT_AUTO, &error))
    rc = tl_cli_fail (o->command, error);
  return rc;
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
