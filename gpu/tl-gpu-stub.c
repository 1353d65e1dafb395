/* tl-gpu-stub.c — tl-gpu.h when Tilelab is built without CUDA.
 *
 * Every device call answers TL_GPU_NO_DEVICE; the CPU backend then serves
 * every view.  The registry (tl-gpu-registry.c) is shared with the CUDA
 * build, so the ladder is still listed.
 */
#include "tl-gpu.h"

#include <string.h>

static const char no_cuda_message[] =
  "Tilelab was built without CUDA (nvcc was not found at build time)";

const char *
tl_gpu_last_message (void)
{
  return no_cuda_message;
}

int
tl_gpu_kernel_available (const char *id)
{
  return 0;
}

int
tl_gpu_built_with_cuda (void)
{
  return 0;
}

TlGpuStatus
tl_gpu_device_count (int *out_count)
{
  *out_count = 0;
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_device_facts (int ordinal, TlGpuFacts *out_facts)
{
  memset (out_facts, 0, sizeof *out_facts);
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_device_open (int ordinal, TlGpuDevice **out_device)
{
  *out_device = NULL;
  return TL_GPU_NO_DEVICE;
}

void
tl_gpu_device_close (TlGpuDevice *device)
{
}

TlGpuStatus
tl_gpu_device_health (TlGpuDevice *device)
{
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_debug_fault (TlGpuDevice *device)
{
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_gemm_run (TlGpuDevice *device, const char *kernel_id, const TlGpuGemmArgs *args,
                 TlGpuGemmResult *out_result)
{
  memset (out_result, 0, sizeof *out_result);
  return TL_GPU_NO_DEVICE;
}

void
tl_gpu_gemm_result_clear (TlGpuGemmResult *result)
{
  memset (result, 0, sizeof *result);
}

/* No device: nothing runs, so a recording's observer (args->observer) is
 * never called either. */
TlGpuStatus
tl_gpu_lu_run (TlGpuDevice *device, const char *kernel_id, const TlGpuLuArgs *args,
               TlGpuLuResult *out_result)
{
  memset (out_result, 0, sizeof *out_result);
  return TL_GPU_NO_DEVICE;
}

void
tl_gpu_lu_result_clear (TlGpuLuResult *result)
{
  memset (result, 0, sizeof *result);
}

TlGpuStatus
tl_gpu_lu_solve (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms)
{
  if (out_ms)
    *out_ms = 0.0;
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_lu_solve_bench (TlGpuDevice *device, const char *solver, const TlGpuLuSolveArgs *args,
                       int warmups, int repeats, double *times_ms)
{
  for (int r = 0; times_ms && r < repeats; r++)
    times_ms[r] = 0.0;
  return TL_GPU_NO_DEVICE;
}

TlGpuStatus
tl_gpu_gfp_lu (TlGpuDevice *device, int m, int n, uint32_t p, uint32_t *a, int *ipiv,
               int *out_info, double *out_ms)
{
  if (out_info)
    *out_info = 0;
  if (out_ms)
    *out_ms = 0.0;
  return TL_GPU_NO_DEVICE;
}
