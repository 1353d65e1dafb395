// tl-gpu-plan-residency.cu — the residency the plan model counts, from the
// occupancy calculator (tl-gpu-plan-residency.h).
//
// The cost model (tl-gpu-plan.c) turns a plan's CTAs into rounds of
// `slots` = CTAs per SM × SMs, so the waves and idle SMs it reports are
// only as true as that count.  It depends on the kernel's registers and
// shared memory as the compiler left them, so it is read here from the
// runtime, never written down: the 64×64 FP64 tile's kernel, for one,
// fits three to an SM.
#include "tl-gpu-plan-residency.h"

#include <string.h>

// CTAs per SM for the kernel of one shape: from the device's cache, else
// asked (and kept).  0 when the runtime cannot answer.
static int
ask_residency (TlGpuDevice *device, const TlGemmShape &shape)
{
  const int threads = (int) (shape.block.x * shape.block.y * shape.block.z);
  for (int i = 0; i < device->n_residency; i++)
    {
      const TlGpuResidencyEntry &e = device->residency[i];
      if (e.kernel == shape.kernel && e.threads == threads && e.smem_bytes == shape.dynamic_smem)
        return e.ctas_per_sm;
    }
  // the limit the rung's prepare raises for its launch, raised here first:
  // the calculator counts none of a kernel whose shared memory is above it
  if (shape.dynamic_smem > 48 * 1024
      && cudaFuncSetAttribute (shape.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               shape.dynamic_smem)
           != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return 0;
    }
  int active = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&active, shape.kernel, threads,
                                                     (size_t) shape.dynamic_smem)
      != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return 0;
    }
  const int capacity = (int) (sizeof device->residency / sizeof device->residency[0]);
  if (active > 0 && device->n_residency < capacity)
    device->residency[device->n_residency++] = { shape.kernel, threads, shape.dynamic_smem, active };
  return active;
}

void
tl_gpu_plan_residency (TlGpuDevice *device, const TlGemmRung *rung, const char *kernel_id,
                       const TlGemmLaunch *base, TlGpuPlanResidency *out)
{
  memset (out, 0, sizeof *out);
  const int count = tl_gpu_gemm_plan_count (kernel_id);
  for (int i = 0; i < count && i < TL_GPU_PLANS_MAX; i++)
    {
      TlGemmLaunch l = *base;
      if (!tl_gpu_gemm_plan_nth (kernel_id, i, base->m, base->n, base->k, &device->facts, &l.plan))
        continue;
      TlGemmShape shape = {};
      rung->shape (&l, &shape);
      if (shape.kernel != nullptr && shape.launches > 0)
        out->ctas_per_sm[i] = ask_residency (device, shape);
    }
}
