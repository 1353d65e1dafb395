/* tl-user-occupancy.h — how many blocks of a compiled kernel fit on an SM.
 *
 * The occupancy calculator's arithmetic, for a kernel compiled for an
 * architecture that may not be in this machine: blocks per SM are limited
 * by threads, registers (allocated per warp in units of 256), shared
 * memory (per block, plus what the system reserves per block) and the
 * blocks an SM can hold.  Waves: the grid's blocks over (blocks per SM ×
 * SMs).  A GPU's own facts give its limits; without one, a table of the
 * architectures' limits and a typical GPU of each for the SM count.  (A
 * run on a GPU reports the runtime's own figures; this is for
 * `tilelab-cli kernel check` and the Source page before a run.)
 */
#pragma once

#include <glib.h>

#include "tl-gpu.h"
#include "gemm/tl-user-kernel.h"

G_BEGIN_DECLS

typedef struct
{
  int arch;                 /* × 10 */
  int threads_per_sm, blocks_per_sm, regs_per_sm;
  int smem_per_sm, smem_per_block_optin, reserved_smem_per_block;
  int sm_count;             /* this GPU's, or the table's typical GPU's */
  const char *example;      /* the typical GPU ("H100 SXM, H200"), NULL for a real GPU */
} TlUserArchLimits;

/* The table's limits for arch (75, 80, 86, 87, 89, 90, 100, 103, 120,
 * 121); FALSE for an architecture it does not know. */
gboolean tl_user_arch_limits (int arch, TlUserArchLimits *out);
void     tl_user_arch_limits_from_facts (const TlGpuFacts *facts, TlUserArchLimits *out);

typedef struct
{
  int blocks_per_sm;        /* 0: a block does not fit at all */
  int warps_per_sm, max_warps_per_sm;
  double occupancy;         /* warps / max warps, 0..1 */
  double waves;             /* blocks / (blocks_per_sm × SMs) */
  const char *limiter;      /* "threads", "registers", "shared memory", "blocks" (untranslated) */
} TlUserOccupancy;

void tl_user_occupancy (const TlUserArchLimits *limits, const TlUserResources *resources,
                        const TlUserGeometry *geometry, TlUserOccupancy *out);

G_END_DECLS
