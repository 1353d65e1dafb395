/* tilelab-cli kernel — your own kernel: a file to start from, and a check.
 *
 *   tilelab-cli kernel new [--from RUNG] -o mine.cu
 *   tilelab-cli kernel check mine.cu [--arch sm_90] [--size M×K×N] [--dtype D]
 *
 * `check` compiles the file with NVRTC (no GPU needed when an architecture
 * is named) and prints what is wrong at file:line:column, or ptxas's
 * resource report per entry and the occupancy and waves at one size.
 * Running it is `tilelab-cli gemm --kernel mine.cu,…`.
 */
#include "tl-cli.h"
#include "core/tl-save.h"
#include "core/tl-error.h"
#include "gemm/tl-user-kernel.h"
#include "gemm/tl-user-occupancy.h"
#include "gemm/tl-user-templates.h"
#include "run/tl-runner.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

/* ---- kernel new ----------------------------------------------------- */

static int
kernel_new (int argc, char **argv)
{
  g_autofree char *from = NULL, *output = NULL;
  gboolean force = FALSE;
  g_autofree char *from_help = g_strdup_printf (_("The rung to start from (default %s)"),
                                                TL_USER_TEMPLATE_DEFAULT);
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, from_help, N_("RUNG") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The kernel file to write"),
      N_("FILE") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Replace the file if it exists"), NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— write a kernel file to start from"));
  g_autofree const char **ids = tl_user_template_ids ();
  g_autofree char *list = g_strjoinv (", ", (char **) ids);
  g_autofree char *summary = g_strdup_printf (
    _("Writes one of the ladder's rungs as a kernel file of your own: the kernel, the "
      "declarations Tilelab reads beside it, and the timing marks.\nRungs: %s."), list);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (output == NULL)
    return tl_cli_usage_error ("kernel new", _("name the file to write with -o FILE"));
  if (argc > 1)
    return tl_cli_usage_error ("kernel new", _("unexpected “%s”"), argv[1]);
  const char *id = from ? from : TL_USER_TEMPLATE_DEFAULT;
  const char *text = tl_user_template_text (id);
  if (text == NULL)
    return tl_cli_usage_error ("kernel new", _("no kernel file to start from for “%s”; there are: %s"),
                               id, list);
  if (!force && g_file_test (output, G_FILE_TEST_EXISTS))
    {
      g_printerr (_("tilelab-cli kernel new: %s exists; --force replaces it\n"), output);
      return TL_CLI_FAILURE;
    }
  g_autoptr (GError) error = NULL;
  if (!tl_save_contents (output, text, strlen (text), NULL, &error))
    return tl_cli_fail ("kernel new", error);
  printf (_("Wrote %s (from %s). Next: tilelab-cli kernel check %s\n"), output, id, output);
  return TL_CLI_OK;
}

/* ---- kernel check --------------------------------------------------- */

/* "sm_90", "90" or "9.0" → 90; 0 when malformed. */
static int
parse_arch (const char *text)
{
  if (g_str_has_prefix (text, "sm_") || g_str_has_prefix (text, "SM_"))
    text += 3;
  guint64 major = 0, minor = 0;
  char *end = NULL;
  major = g_ascii_strtoull (text, &end, 10);
  if (end != text && *end == '.')
    {
      const char *m = end + 1;
      minor = g_ascii_strtoull (m, &end, 10);
      if (end == m || *end || minor > 9 || major > 20)
        return 0;
      return (int) (major * 10 + minor);
    }
  return end != text && *end == '\0' && major >= 10 && major < 1000 ? (int) major : 0;
}

static void
print_resources (const TlUserKernel *kernel, const TlUserBuild *build)
{
  printf ("%-8s %9s %18s %9s %14s %18s %8s\n", _("entry"), _("registers"), _("shared (static)"),
          _("constant"), _("local (stack)"), _("spills (st / ld)"), _("barriers"));
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    {
      const TlUserResources *r = &build->resources[d];
      if (tl_user_kernel_entry (kernel, d) == NULL)
        continue;
      if (!r->found)
        {
          printf ("%-8s %s\n", tl_dtype_name (d), _("(no report from ptxas)"));
          continue;
        }
      printf ("%-8s %9d %16d B %7d B %12d B %8d / %5d B %8d\n", tl_dtype_name (d), r->registers,
              r->smem_bytes, r->cmem_bytes, r->stack_bytes, r->spill_stores, r->spill_loads,
              r->barriers);
    }
}

static void
print_occupancy (const TlUserKernel *kernel, const TlUserBuild *build, const TlUserArchLimits *lim,
                 gsize m, gsize k, gsize n, TlDtype dtype)
{
  g_autoptr (GError) error = NULL;
  TlUserGeometry g;
  if (!tl_user_kernel_geometry (kernel, m, k, n, dtype, &g, &error))
    {
      printf ("\n%s\n", error->message);
      return;
    }
  printf (_("\nAt %zu×%zu×%zu (%s): grid %u×%u×%u blocks of %u×%u×%u threads, %u B of dynamic "
            "shared memory\n"),
          m, k, n, tl_dtype_name (dtype), g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1],
          g.block[2], g.dynamic_smem);
  TlUserOccupancy o;
  tl_user_occupancy (lim, &build->resources[dtype], &g, &o);
  if (o.blocks_per_sm == 0)
    {
      printf (_("  a block does not fit on an SM of sm_%d (limited by %s)\n"), lim->arch,
              o.limiter);
      return;
    }
  printf (_("  occupancy: %d blocks per SM, %d of %d warps (%.0f%%), limited by %s\n"),
          o.blocks_per_sm, o.warps_per_sm, o.max_warps_per_sm, 100.0 * o.occupancy, o.limiter);
  if (lim->example)
    printf (_("  waves: %.2f on %d SMs (as on an %s)\n"), o.waves, lim->sm_count, lim->example);
  else
    printf (_("  waves: %.2f on this GPU's %d SMs\n"), o.waves, lim->sm_count);
}

/* The ptxas lines of the log, indented: seed 003's report. */
static void
print_ptxas (const char *log)
{
  g_auto (GStrv) lines = g_strsplit (log ? log : "", "\n", -1);
  gboolean any = FALSE;
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "ptxas"))
      {
        if (!any)
          printf (_("\nptxas's report (-Xptxas -v):\n"));
        any = TRUE;
        printf ("  %s\n", lines[i]);
      }
}

typedef struct
{
  TlUserKernel *kernel;
  int arch;
} CompileTask;

static gpointer
compile_on_worker (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  CompileTask *t = data;
  return tl_user_kernel_compile (t->kernel, t->arch, error);
}

/* The entry to report on: dtype_text's, else float32 unless the file
 * has none (then its first). */
static int
pick_dtype (TlUserKernel *kernel, const char *path, const char *dtype_text, TlDtype *out)
{
  TlDtype dtype = TL_DTYPE_FLOAT32;
  if (dtype_text && !tl_dtype_from_name (dtype_text, &dtype))
    return tl_cli_usage_error ("kernel check", _("unknown dtype “%s”"), dtype_text);
  for (int d = 0; !dtype_text && !tl_user_kernel_entry (kernel, dtype) && d < TL_DTYPE_COUNT; d++)
    dtype = (TlDtype) d;
  if (!tl_user_kernel_entry (kernel, dtype))
    return tl_cli_usage_error ("kernel check", _("%s has no %s entry"), path,
                               tl_dtype_name (dtype));
  *out = dtype;
  return TL_CLI_OK;
}

/* The architecture to compile for (arch, or with 0 GPU 0's, else sm_90)
 * and its limits, the device's own when it was asked (on the runner's
 * worker). */
static int
target_arch (TlRunner *runner, int arch, TlUserArchLimits *limits)
{
  *limits = (TlUserArchLimits) { 0 };
  if (arch == 0)
    {
      g_autoptr (GArray) devices = tl_runner_probe_devices (runner, NULL, NULL);
      if (devices && devices->len > 0)
        {
          const TlGpuFacts *f = &g_array_index (devices, TlGpuFacts, 0);
          tl_user_arch_limits_from_facts (f, limits);
          printf (_("GPU 0 is an %s: compiling for sm_%d\n"), f->name, limits->arch);
          return limits->arch;
        }
      arch = 90;
      printf (_("No GPU found: compiling for sm_90 (--arch names another)\n"));
    }
  if (!tl_user_arch_limits (arch, limits))
    limits->arch = arch;
  return arch;
}

static int
kernel_check (int argc, char **argv)
{
  g_autofree char *arch_text = NULL, *size_text = NULL, *dtype_text = NULL;
  GOptionEntry entries[] = {
    { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_text,
      N_("Compile for this architecture, e.g. sm_90 (default: GPU 0's, else sm_90)"), N_("ARCH") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size_text,
      N_("The problem size for occupancy and waves, M×K×N or N (default 4096)"), N_("SIZE") },
    { "dtype", 't', 0, G_OPTION_ARG_STRING, &dtype_text,
      N_("The element type for occupancy and waves (default: the file's first)"), N_("DTYPE") },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("FILE.cu — compile a kernel file and report"));
  g_option_context_set_summary (context,
    N_("Compiles your kernel file with NVRTC, as a run would, and prints its errors at\n"
       "file:line:column, or ptxas's report per entry (registers, shared, constant and\n"
       "local memory, spills) with the occupancy and waves at one size.  No GPU is needed\n"
       "when --arch names the architecture."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (argc != 2)
    return tl_cli_usage_error ("kernel check", _("name one kernel file"));
  gsize m = 4096, k = 4096, n = 4096;
  if (size_text && !tl_cli_parse_size3 (size_text, &m, &k, &n))
    return tl_cli_usage_error ("kernel check", _("--size must be M×K×N or N, not “%s”"), size_text);
  int arch = arch_text ? parse_arch (arch_text) : 0;
  if (arch_text && arch == 0)
    return tl_cli_usage_error ("kernel check", _("--arch must be like sm_90, not “%s”"), arch_text);

  g_autoptr (GError) error = NULL;
  g_autoptr (TlUserKernel) kernel = tl_user_kernel_load (argv[1], &error);
  if (kernel == NULL)
    return tl_cli_fail ("kernel check", error);
  TlDtype dtype = TL_DTYPE_FLOAT32;
  int rc = pick_dtype (kernel, argv[1], dtype_text, &dtype);
  if (rc != TL_CLI_OK)
    return rc;

  /* the GPU's facts (and compiling) on the runner's worker */
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  TlUserArchLimits limits;
  arch = target_arch (runner, arch, &limits);

  CompileTask task = { kernel, arch };
  g_autoptr (TlUserBuild) build = tl_runner_run_func (runner, compile_on_worker, &task, NULL,
                                                      (GDestroyNotify) tl_user_build_unref, NULL,
                                                      &error);
  if (build == NULL)
    return tl_cli_fail ("kernel check", error);
  g_autofree char *diagnostics = tl_user_build_describe_errors (build, kernel, TRUE);
  if (*diagnostics)
    printf ("%s\n\n", diagnostics);
  if (!build->compiled)
    {
      g_printerr (_("tilelab-cli kernel check: %s did not compile for sm_%d\n"), argv[1], arch);
      return TL_CLI_FAILURE;
    }
  printf (_("%s compiled for sm_%d by NVRTC %d.%d in %.2f s (the timed build and the plain one)\n\n"),
          argv[1], arch, build->nvrtc_major, build->nvrtc_minor, build->compile_ms / 1000.0);
  print_resources (kernel, build);
  if (limits.threads_per_sm > 0)
    print_occupancy (kernel, build, &limits, m, k, n, dtype);
  print_ptxas (build->log);
  return TL_CLI_OK;
}

int
tl_cli_kernel (int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "new") == 0)
    return kernel_new (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "check") == 0)
    return kernel_check (argc - 1, argv + 1);
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      printf (_("Usage: tilelab-cli kernel new [--from RUNG] -o FILE.cu\n"
                "       tilelab-cli kernel check FILE.cu [--arch sm_90] [--size M×K×N] [--dtype D]\n\n"
                "Your own GEMM kernel: a file to start from, and the compiler's report.\n"
                "Run it beside the ladder with tilelab-cli gemm --kernel FILE.cu,gemm-03-smem16,…\n"));
      return TL_CLI_OK;
    }
  return tl_cli_usage_error ("kernel", _("expected “new” or “check”"));
}
