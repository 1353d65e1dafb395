/* tl-user-occupancy.c — blocks per SM and waves, from the limits. */
#include "gemm/tl-user-occupancy.h"

#include <string.h>

/* Per architecture: threads, blocks, registers and shared memory per SM,
 * the most shared memory one block may ask for, what the system keeps
 * per block, and a typical GPU's SMs (CUDA C Programming Guide, "Compute
 * Capabilities", and the vendors' data sheets). */
static const TlUserArchLimits table[] = {
  { 75, 1024, 16, 65536, 64 * 1024, 64 * 1024, 0, 40, "Tesla T4" },
  { 80, 2048, 32, 65536, 164 * 1024, 163 * 1024, 1024, 108, "A100" },
  { 86, 1536, 16, 65536, 100 * 1024, 99 * 1024, 1024, 82, "RTX 3090" },
  { 87, 2048, 16, 65536, 164 * 1024, 163 * 1024, 1024, 16, "Jetson AGX Orin" },
  { 89, 1536, 24, 65536, 100 * 1024, 99 * 1024, 1024, 128, "RTX 4090" },
  { 90, 2048, 32, 65536, 228 * 1024, 227 * 1024, 1024, 132, "H100 SXM, H200" },
  { 100, 2048, 32, 65536, 228 * 1024, 227 * 1024, 1024, 148, "B200" },
  { 103, 2048, 32, 65536, 228 * 1024, 227 * 1024, 1024, 148, "B300" },
  { 120, 1536, 32, 65536, 100 * 1024, 99 * 1024, 1024, 170, "RTX 5090" },
  { 121, 1536, 32, 65536, 100 * 1024, 99 * 1024, 1024, 48, "DGX Spark (GB10)" },
};

gboolean
tl_user_arch_limits (int arch, TlUserArchLimits *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (table[i].arch == arch)
      {
        *out = table[i];
        return TRUE;
      }
  memset (out, 0, sizeof *out);
  return FALSE;
}

void
tl_user_arch_limits_from_facts (const TlGpuFacts *f, TlUserArchLimits *out)
{
  int arch = f->cc_major * 10 + f->cc_minor;
  TlUserArchLimits known;
  gboolean have = tl_user_arch_limits (arch, &known);
  *out = (TlUserArchLimits) {
    .arch = arch,
    .threads_per_sm = f->max_threads_per_sm,
    .blocks_per_sm = f->max_blocks_per_sm,
    .regs_per_sm = f->regs_per_sm,
    .smem_per_sm = f->smem_per_sm_bytes,
    .smem_per_block_optin = f->smem_per_block_optin_bytes,
    /* the runtime does not report it: the architecture's */
    .reserved_smem_per_block = have ? known.reserved_smem_per_block : 1024,
    .sm_count = f->sm_count,
    .example = NULL,
  };
}

static int
round_up (int value, int unit)
{
  return (value + unit - 1) / unit * unit;
}

void
tl_user_occupancy (const TlUserArchLimits *limits, const TlUserResources *resources,
                   const TlUserGeometry *geometry, TlUserOccupancy *out)
{
  memset (out, 0, sizeof *out);
  const int threads = (int) (geometry->block[0] * geometry->block[1] * geometry->block[2]);
  const int warps = (threads + 31) / 32;
  out->max_warps_per_sm = limits->threads_per_sm / 32;
  out->limiter = "blocks";
  int blocks = limits->blocks_per_sm;

  int by_threads = warps > 0 ? out->max_warps_per_sm / warps : 0;
  if (by_threads < blocks)
    {
      blocks = by_threads;
      out->limiter = "threads";
    }
  /* registers: per warp, rounded up to 256 */
  const int regs_per_warp = round_up (MAX (resources->registers, 1) * 32, 256);
  int by_regs = warps > 0 ? (limits->regs_per_sm / regs_per_warp) / warps : 0;
  if (by_regs < blocks)
    {
      blocks = by_regs;
      out->limiter = "registers";
    }
  const int smem = resources->smem_bytes + (int) geometry->dynamic_smem;
  if (smem > limits->smem_per_block_optin)
    {
      blocks = 0;
      out->limiter = "shared memory";
    }
  else if (smem > 0)
    {
      int per_block = round_up (smem + limits->reserved_smem_per_block, 128);
      int by_smem = limits->smem_per_sm / per_block;
      if (by_smem < blocks)
        {
          blocks = by_smem;
          out->limiter = "shared memory";
        }
    }
  out->blocks_per_sm = MAX (blocks, 0);
  out->warps_per_sm = out->blocks_per_sm * warps;
  out->occupancy = out->max_warps_per_sm > 0
                     ? (double) out->warps_per_sm / out->max_warps_per_sm
                     : 0.0;
  double grid = (double) geometry->grid[0] * geometry->grid[1] * geometry->grid[2];
  if (out->blocks_per_sm > 0 && limits->sm_count > 0)
    out->waves = grid / ((double) out->blocks_per_sm * limits->sm_count);
}
