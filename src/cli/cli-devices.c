/* tilelab-cli devices — the CUDA devices and the facts kernels depend on. */
#include "tl-cli.h"
#include "core/tl-error.h"
#include "run/tl-runner.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

int
tl_cli_devices (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— list CUDA devices"));
  g_option_context_set_summary (context,
    N_("Lists each CUDA device with the facts that decide how kernels run:\n"
    "compute capability, SMs, clocks, memory, L2, shared memory, registers."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;

  /* read on the runner's worker, the one thread that touches the GPU */
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) devices = tl_runner_probe_devices (runner, NULL, &error);
  if (devices == NULL && g_error_matches (error, TL_ERROR, TL_ERROR_NO_DEVICE))
    {
      printf (_("No CUDA GPU found — the CPU backend serves every view.\n  (%s)\n"),
              error->message);
      return TL_CLI_OK;
    }
  if (devices == NULL)
    return tl_cli_fail ("devices", error);
  for (guint i = 0; i < devices->len; i++)
    {
      const TlGpuFacts f = g_array_index (devices, TlGpuFacts, i);
      printf ("GPU %d: %s\n", f.ordinal, f.name);
      printf ("  compute capability     %d.%d\n", f.cc_major, f.cc_minor);
      printf ("  multiprocessors (SMs)  %d\n", f.sm_count);
      printf ("  SM clock               %.0f MHz\n", f.clock_khz / 1000.0);
      printf ("  memory clock, bus      %.0f MHz, %d bit\n", f.mem_clock_khz / 1000.0,
              f.mem_bus_width_bits);
      printf ("  memory                 %.1f GiB (%.1f GiB free)\n",
              f.total_mem_bytes / 1073741824.0, f.free_mem_bytes / 1073741824.0);
      printf ("  L2 cache               %.1f MiB\n", f.l2_bytes / 1048576.0);
      printf ("  shared memory          %d KiB per block (%d KiB opt-in), %d KiB per SM\n",
              f.smem_per_block_bytes / 1024, f.smem_per_block_optin_bytes / 1024,
              f.smem_per_sm_bytes / 1024);
      printf ("  registers              %d per SM, %d per block\n", f.regs_per_sm,
              f.regs_per_block);
      printf ("  threads                %d per block, %d per SM, %d blocks per SM\n",
              f.max_threads_per_block, f.max_threads_per_sm, f.max_blocks_per_sm);
      printf ("  driver / runtime       %d.%d / %d.%d\n", f.driver_version / 1000,
              (f.driver_version % 1000) / 10, f.runtime_version / 1000,
              (f.runtime_version % 1000) / 10);
    }
  return TL_CLI_OK;
}
