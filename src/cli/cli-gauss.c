/* cli-gauss.c — input and printing shared by the Gauss commands. */
#include "cli-gauss.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "lu/tl-lu.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>

/* --kernel's help names every rung of the ladder as it is now (the list
 * went stale once, naming rungs up to lu-03). */
static const char *
kernel_help (void)
{
  static char *help;
  if (help == NULL)
    {
      g_autoptr (GString) ids = g_string_new (NULL);
      for (guint i = 0; i < tl_lu_kernel_count (); i++)
        g_string_append_printf (ids, "%s%s", i ? ", " : "", tl_lu_kernel_get (i)->id);
      /* TRANSLATORS: %s is the list of LU kernel ids, the second the default one */
      help = g_strdup_printf (_("LU kernel: %s, or gpu (the fastest GPU rung); default %s"), ids->str,
                              TL_LU_DEFAULT_KERNEL);
    }
  return help;
}

void
tl_cli_gauss_add_options (GOptionContext *context, TlCliGauss *o, gboolean kernel)
{
  o->seed = 1;
  o->tol = -1.0;
  o->max_print = 12;
  o->block_size = 0;
  GOptionEntry input[] = {
    { "gen", 'g', 0, G_OPTION_ARG_STRING, &o->gen,
      N_("Generate A instead of reading a file (e.g. hilbert, random-uniform, condition:kappa=1e6, rank-deficient:rank=3)"), "SPEC" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o->size, N_("Size of the generated A: N or RxC"), "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &o->seed, N_("Generator seed (default 1)"), "S" },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &o->dtype, N_("float64 (default) or float32"), "DTYPE" },
    { "mod", 'p', 0, G_OPTION_ARG_STRING, &o->mod_text,
      N_("Exact elimination over GF(P): integer matrices modulo a prime P < 2^31"), "P" },
    { "tol", 0, 0, G_OPTION_ARG_STRING, &o->tol_text,
      N_("Entries at or below TOL count as zero (rank, solution space); default from the singular values"), "TOL" },
    { "max-print", 0, 0, G_OPTION_ARG_INT, &o->max_print, N_("Print at most this many rows/columns (default 12)"), "N" },
    { NULL },
  };
  GOptionEntry kern[] = {
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &o->kernel,
      NULL, "ID" },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &o->block_size_text, N_("Block size of blocked kernels (default 64)"), "B" },
    { "pivoting", 0, 0, G_OPTION_ARG_STRING, &o->pivoting, N_("partial (default) or none"), "MODE" },
    { "gemm", 0, 0, G_OPTION_ARG_STRING, &o->gemm,
      N_("Trailing update of lu-cpu-blocked: openblas (default) or cpu-blocked"), "ID" },
    { "device", 'd', 0, G_OPTION_ARG_INT, &o->device, N_("GPU ordinal for the GPU rungs (default 0)"), "I" },
    { NULL },
  };
  kern[0].description = kernel_help ();
  g_option_context_add_main_entries (context, input, GETTEXT_PACKAGE);
  if (kernel)
    g_option_context_add_main_entries (context, kern, GETTEXT_PACKAGE);
}

TlLuOptions
tl_cli_gauss_options (const TlCliGauss *o)
{
  return (TlLuOptions) {
    .kernel_id = o->kernel,
    .block_size = (gsize) o->block_size,
    .pivoting = o->pivoting_value,
    .gemm = o->gemm,
    .gpu_ordinal = o->device,
  };
}

gboolean
tl_cli_gauss_check (TlCliGauss *o)
{
  o->dtype_value = TL_DTYPE_FLOAT64;
  if (o->dtype && (!tl_dtype_from_name (o->dtype, &o->dtype_value) || o->dtype_value == TL_DTYPE_INT32))
    {
      tl_cli_usage_error (o->command, _("--dtype must be float32 or float64 (for integers use --mod P)"));
      return FALSE;
    }
  o->pivoting_value = TL_PIVOTING_PARTIAL;
  if (o->pivoting && !tl_pivoting_from_name (o->pivoting, &o->pivoting_value))
    {
      tl_cli_usage_error (o->command, _("--pivoting must be partial or none, not “%s”"), o->pivoting);
      return FALSE;
    }
  if (o->device < 0)
    {
      tl_cli_usage_error (o->command, _("--device must be 0 or more"));
      return FALSE;
    }
  /* a value given is checked, never taken for "not given" */
  gint64 block = 0;
  if (!tl_cli_option_int (o->command, "--block-size", o->block_size_text, 1, TL_MATRIX_MAX_DIM,
                          &block)
      || !tl_cli_option_double (o->command, "--tol", o->tol_text, 0, G_MAXDOUBLE, &o->tol)
      || !tl_cli_option_int (o->command, "--mod", o->mod_text, 2, TL_GFP_MAX_PRIME, &o->mod))
    return FALSE;
  o->block_size = (gint) block; /* 0: the kernel's default */
  if (o->max_print < 0)
    {
      tl_cli_usage_error (o->command, _("--max-print must not be negative, not %d"), o->max_print);
      return FALSE;
    }
  if (o->mod != 0)
    {
      g_autoptr (GError) error = NULL;
      if (!tl_gfp_check_modulus ((guint64) o->mod, &error))
        {
          tl_cli_usage_error (o->command, _("--mod: %s"), error->message);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
tl_cli_gauss_blas_fits (const TlCliGauss *o)
{
  return o->mod != 0 || tl_cli_blas_fits (o->command);
}

TlMatrix *
tl_cli_gauss_load (TlCliGauss *o, const char *path, GError **error)
{
  g_autoptr (TlMatrix) m = tl_matrix_load (path, TL_FORMAT_AUTO, error);
  if (m == NULL)
    return NULL;
  /* integer files are eliminated in floating point (or exactly with --mod) */
  TlDtype want = o->dtype ? o->dtype_value : (m->dtype == TL_DTYPE_FLOAT32 ? TL_DTYPE_FLOAT32 : TL_DTYPE_FLOAT64);
  if (m->dtype != want)
    {
      if (want == TL_DTYPE_FLOAT32 && !tl_matrix_fits_float32 (m, error))
        {
          g_prefix_error (error, "%s: ", path);
          return NULL;
        }
      TlMatrix *converted = tl_matrix_convert (m, want, error);
      if (converted == NULL)
        return NULL;
      g_clear_pointer (&m, tl_matrix_unref);
      m = converted;
    }
  /* a NaN in B (or A) is named with its file: "The matrix" alone could
   * be either */
  if (!tl_lu_check_finite (m, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  return g_steal_pointer (&m);
}

TlMatrix *
tl_cli_gauss_input (TlCliGauss *o, int argc, char **argv, int *next, GError **error)
{
  if (o->gen)
    {
      gsize rows = 0, cols = 0;
      if (o->size == NULL || !tl_cli_parse_size2 (o->size, &rows, &cols))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("--gen needs --size N (or RxC), e.g. --gen hilbert --size 6"));
          return NULL;
        }
      return tl_generate (o->gen, o->dtype_value, rows, cols, (guint64) o->seed, error);
    }
  if (*next >= argc)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("No matrix: give a file (.mtx, .npy, .csv, .txt) or --gen SPEC --size N"));
      return NULL;
    }
  return tl_cli_gauss_load (o, argv[(*next)++], error);
}

void
tl_cli_gauss_clear (TlCliGauss *o)
{
  g_clear_pointer (&o->gen, g_free);
  g_clear_pointer (&o->size, g_free);
  g_clear_pointer (&o->dtype, g_free);
  g_clear_pointer (&o->kernel, g_free);
  g_clear_pointer (&o->pivoting, g_free);
  g_clear_pointer (&o->gemm, g_free);
  g_clear_pointer (&o->record, g_free);
  g_clear_pointer (&o->output, g_free);
  g_clear_pointer (&o->tol_text, g_free);
  g_clear_pointer (&o->block_size_text, g_free);
  g_clear_pointer (&o->mod_text, g_free);
}

int
tl_cli_gauss_run (GOptionContext *context, TlCliGauss *o, int argc, char **argv,
                  TlCliGaussBody body)
{
  if (!tl_cli_parse (context, &argc, &argv) || !tl_cli_gauss_check (o))
    {
      tl_cli_gauss_clear (o);
      return TL_CLI_USAGE;
    }
  int rc = tl_cli_gauss_blas_fits (o) ? body (o, argc, argv) : TL_CLI_FAILURE;
  tl_cli_gauss_clear (o);
  return rc;
}

const char *
tl_cli_describe_source (TlCliGauss *o, const char *path)
{
  static char buf[512];
  if (o->gen)
    g_snprintf (buf, sizeof buf, "generated %s, seed %" G_GINT64_FORMAT, o->gen, o->seed);
  else
    g_snprintf (buf, sizeof buf, "%s", path ? path : "");
  return buf;
}

static void
print_rows (const char *indent, gsize rows, gsize cols, gint max_print,
            void (*cell) (gconstpointer, gsize, gsize, char *, gsize), gconstpointer data)
{
  gsize mr = MIN (rows, (gsize) MAX (max_print, 1)), mc = MIN (cols, (gsize) MAX (max_print, 1));
  char buf[64];
  for (gsize i = 0; i < mr; i++)
    {
      printf ("%s[", indent);
      for (gsize j = 0; j < mc; j++)
        {
          cell (data, i, j, buf, sizeof buf);
          printf (" %12s", buf);
        }
      printf ("%s ]\n", mc < cols ? "  …" : "");
    }
  if (mr < rows)
    printf ("%s  … (%zu more rows; --max-print shows more, --output saves all)\n", indent, rows - mr);
}

static void
float_cell (gconstpointer data, gsize i, gsize j, char *buf, gsize size)
{
  double v = tl_matrix_get (data, i, j);
  if (v == 0.0)
    v = 0.0; /* no "-0" */
  if (fabs (v) < 1e-300 || (fabs (v) >= 1e-4 && fabs (v) < 1e6))
    g_snprintf (buf, size, "%.6g", v);
  else
    g_snprintf (buf, size, "%.4e", v);
}

void
tl_cli_print_matrix (const char *indent, const TlMatrix *m, gint max_print)
{
  print_rows (indent, m->rows, m->cols, max_print, float_cell, m);
}

static void
gfp_cell (gconstpointer data, gsize i, gsize j, char *buf, gsize size)
{
  g_snprintf (buf, size, "%u", tl_gfp_get (data, i, j));
}

void
tl_cli_print_gfp (const char *indent, const TlGfpMatrix *m, gint max_print)
{
  print_rows (indent, m->rows, m->cols, max_print, gfp_cell, m);
}
