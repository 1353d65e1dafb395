/* tilelab-cli — Tilelab's jobs, headless: on a GPU server, in scripts, in CI.
 *
 * `tilelab-cli COMMAND [OPTIONS]`; each command lives in cli-COMMAND.c and
 * parses its own options with GOptionContext.
 */
#include "tl-cli.h"
#include "cli-gauss.h"
#include "cli-gemm.h"
#include "tl-config.h"
#include "core/tl-locale.h"
#include "core/tl-memory.h"
#include "gemm/tl-blas.h"
#include "remote/tl-remote-user.h"

#include <glib/gi18n-lib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} TlCliCommand;

static const TlCliCommand commands[] = {
  /* devices and kernels */
  { "devices", N_("List CUDA devices and their facts"), tl_cli_devices },
  { "kernels", N_("List every GEMM kernel, CPU and GPU"), tl_cli_kernels },
  { "kernel", N_("Your own kernel: new writes one to start from, check compiles it"), tl_cli_kernel },
  /* not for people: started by Tilelab to run user kernels in a process of their own */

  /* matrices: generate, convert, info */
  { "generate", N_("Write a generated matrix (ones, random, Hilbert, …) to a file"), tl_cli_generate },
  { "convert", N_("Convert a matrix file to another format or dtype"), tl_cli_convert },
  { "info", N_("Describe matrix files: format, shape, dtype, range, norms"), tl_cli_info },

  /* GEMM: gemm, bench */
  { "gemm", N_("Run GEMM kernels on one problem: timed, verified, a table"), tl_cli_gemm },
  { "bench", N_("Benchmark a suite of sizes × kernels: run records, CSV, markdown"), tl_cli_bench },

  /* Gauss: lu, det, solve, rank, nullspace */
  { "lu", N_("Gauss elimination PA = LU: pivots, info, growth, determinant; --record the steps"), tl_cli_lu },
  { "det", N_("Determinant by Gauss elimination (sign, log|det|, value; exact with --mod P)"), tl_cli_det },
  { "solve", N_("Solve AX = B, or give the solution space of a singular system"), tl_cli_solve },
  { "rank", N_("Rank by Gauss–Jordan elimination (exact with --mod P)"), tl_cli_rank },
  { "nullspace", N_("A basis of the null space {x : Ax = 0}"), tl_cli_nullspace },
  { "lu-bench", N_("Benchmark the GPU LU rungs against cuSOLVER (the LU suite)"), tl_cli_lu_bench },

  /* pictures: render */
  { "render", N_("Draw a view of a record (heatmap, blocks, timeline, compare, gauss) as PNG, SVG or PDF"), tl_cli_render },

  /* another machine: serve */
  { "serve", N_("Run jobs for the app or --host on this machine (a worker on standard input and output)"), tl_cli_serve },
};

/* The commands whose work always calls OpenBLAS or LAPACK: refused at
 * once, with the room, when OpenBLAS's work buffer cannot be mapped (it
 * would retry the map forever).  The Gauss commands (lu, det, solve,
 * rank, nullspace) ask the same after their options are read, and only
 * in floating point: exact arithmetic over GF(p) (--mod P) needs no BLAS. */
static const char *const blas_commands[] = {
  "gemm", "bench", "lu-bench",
};

static gboolean
blas_fits (const char *command)
{
  for (gsize i = 0; i < G_N_ELEMENTS (blas_commands); i++)
    if (strcmp (command, blas_commands[i]) == 0)
      return tl_cli_blas_fits (command);
  return TRUE;
}

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: tilelab-cli COMMAND [OPTION…]\n\n"
                  "Tilelab %s — see how GPU matrix kernels work.\n\nCommands:\n"), TL_VERSION);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (commands[i].summary != NULL)
      fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, _("\nRun “tilelab-cli COMMAND --help” for a command's options.\n"));
  fprintf (out, _("\nOn another machine (devices, kernels, kernel, gemm, bench, lu, det, solve,\n"
                  "rank, nullspace, lu-bench), through ssh and that machine's tilelab-cli:\n"
                  "  --host DEST          an ssh destination (user@host, a Host of ~/.ssh/config)\n"
                  "  --launcher 'LINE'    wrapped around the worker, e.g. 'srun --gres=gpu:1 --time=10'\n"
                  "  --remote-cli PATH    the host's tilelab-cli (default: tilelab-cli on its PATH)\n"));
}

int
main (int argc, char **argv)
{
  /* Messages follow the user's locale; numbers in files never do (all
   * parsers and writers use g_ascii_strtod / g_ascii_formatd). */
  /* before anything else: the threads' memory and OpenBLAS's thread pool
   * within ulimit -v */
  tl_memory_fit_malloc ();
  tl_blas_fit_address_space (argv);
  tl_locale_init ();
  /* stdout holds tables a user may pipe on; GLib's log (G_MESSAGES_DEBUG)
   * goes to stderr with the other diagnostics */
  g_log_writer_default_set_use_stderr (TRUE);
  /* a write beyond ulimit -f fails with EFBIG ("File too large"), which
   * a save reports and cleans up after, instead of killing the program */
  signal (SIGXFSZ, SIG_IGN);
  /* user kernels run in a worker process: this program's serve --stdio */
  tl_remote_user_install ();

  /* --host, --launcher, --remote-cli: the command runs on a worker elsewhere */
  g_auto (TlCliRemoteOptions) remote = { 0 };
  g_autoptr (GError) remote_error = NULL;
  if (!tl_cli_take_remote_options (&argc, argv, &remote, &remote_error))
    {
      g_printerr ("tilelab-cli: %s\n", remote_error->message);
      return TL_CLI_USAGE;
    }

  if (argc < 2)
    {
      print_usage (stderr);
      return TL_CLI_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return TL_CLI_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("tilelab-cli %s\n", TL_VERSION);
      return TL_CLI_OK;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        /* GOptionContext names the program after prgname in --help and errors */
        g_autofree char *prgname = g_strdup_printf ("tilelab-cli %s", commands[i].name);
        g_set_prgname (prgname);
        if (remote.host || remote.launcher || remote.remote_cli)
          {
            if (!tl_cli_remote_supports (commands[i].name))
              return tl_cli_usage_error (commands[i].name, "%s", _("--host and --launcher work with "
                                                             "devices, kernels, kernel, gemm, bench, lu, "
                                                             "det, solve, rank, nullspace and "
                                                             "lu-bench"));
            return tl_cli_remote_run (commands[i].name, argc - 1, argv + 1, remote.host,
                                      remote.launcher, remote.remote_cli, remote.command_line);
          }
        if (!blas_fits (commands[i].name))
          return TL_CLI_FAILURE;
        int status = commands[i].run (argc - 1, argv + 1);
        /* stopped by a signal: say which (143 for SIGTERM) */
        return status == TL_CLI_INTERRUPTED ? tl_cli_stopped_status () : status;
      }

  g_printerr (_("tilelab-cli: unknown command “%s”\n"), argv[1]);
  print_usage (stderr);
  return TL_CLI_USAGE;
}
