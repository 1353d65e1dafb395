/* tilelab-cli devices — the CUDA devices and the facts kernels depend on. */
#include "tl-cli.h"
#include "tl-gpu.h"

#include <stdio.h>

int
tl_cli_devices (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("— list CUDA devices");
  g_option_context_set_summary (context,
    "Lists each CUDA device with the facts that decide how kernels run:\n"
    "compute capability, SMs, clocks, memory, L2, shared memory, registers.");
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;

  int count = 0;
  TlGpuStatus status = tl_gpu_device_count (&count);
  if (status != TL_GPU_OK || count == 0)
    {
      printf ("No CUDA GPU found — the CPU backend serves every view.\n  (%s)\n",
              tl_gpu_last_message ());
      return TL_CLI_OK;
    }
  for (int i = 0; i < count; i++)
    {
      TlGpuFacts f;
      if (tl_gpu_device_facts (i, &f) != TL_GPU_OK)
        {
          g_printerr ("tilelab-cli devices: GPU %d: %s\n", i, tl_gpu_last_message ());
          return TL_CLI_FAILURE;
        }
      printf ("GPU %d: %s\n", i, f.name);
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
