/* tl-gpu-registry.c — the GPU ladders as data.
 *
 * The registry rows of both ladders, read from their one lists
 * (gemm/tl-gemm-ladder.h, lu/tl-lu-ladder.h).  Plain C, compiled with or
 * without CUDA, so a laptop without a GPU still shows the ladders and
 * their sources.
 */
#include "tl-gpu.h"

#include <string.h>

#define I32 TL_GPU_DTYPE_BIT (TL_GPU_INT32)
#define F32 TL_GPU_DTYPE_BIT (TL_GPU_FLOAT32)
#define F64 TL_GPU_DTYPE_BIT (TL_GPU_FLOAT64)
/* marks a string for translation; src/ translates it when it shows it */
#define N_(text) text

static const TlGpuKernelInfo gemm_ladder[] = {
#define TL_GEMM_ROW(symbol, ...) { __VA_ARGS__ },
#include "gemm/tl-gemm-ladder.h"
#undef TL_GEMM_ROW
};

static const TlGpuLuKernelInfo lu_ladder[] = {
#define TL_LU_ROW(symbol, ...) { __VA_ARGS__ },
#include "lu/tl-lu-ladder.h"
#undef TL_LU_ROW
};

int
tl_gpu_kernel_count (void)
{
  return (int) (sizeof gemm_ladder / sizeof gemm_ladder[0]);
}

const TlGpuKernelInfo *
tl_gpu_kernel_info (int index)
{
  if (index < 0 || index >= tl_gpu_kernel_count ())
    return NULL;
  return &gemm_ladder[index];
}

const TlGpuKernelInfo *
tl_gpu_kernel_find (const char *id)
{
  for (int i = 0; id != NULL && i < tl_gpu_kernel_count (); i++)
    if (strcmp (gemm_ladder[i].id, id) == 0)
      return &gemm_ladder[i];
  return NULL;
}

int
tl_gpu_cc_runs (int min_cc, int cc_major, int cc_minor)
{
  return cc_major > 0 && cc_major * 10 + cc_minor >= min_cc;
}

int
tl_gpu_lu_kernel_count (void)
{
  return (int) (sizeof lu_ladder / sizeof lu_ladder[0]);
}

const TlGpuLuKernelInfo *
tl_gpu_lu_kernel_info (int index)
{
  if (index < 0 || index >= tl_gpu_lu_kernel_count ())
    return NULL;
  return &lu_ladder[index];
}

const TlGpuLuKernelInfo *
tl_gpu_lu_kernel_find (const char *id)
{
  for (int i = 0; id != NULL && i < tl_gpu_lu_kernel_count (); i++)
    if (strcmp (lu_ladder[i].id, id) == 0)
      return &lu_ladder[i];
  return NULL;
}

const char *
tl_gpu_status_name (TlGpuStatus status)
{
  switch (status)
    {
    case TL_GPU_OK: return "ok";
    case TL_GPU_NO_DEVICE: return "no device";
    case TL_GPU_OUT_OF_MEMORY: return "out of GPU memory";
    case TL_GPU_BAD_SHAPE: return "bad shape";
    case TL_GPU_LAUNCH_FAILED: return "launch failed";
    case TL_GPU_DEVICE_LOST: return "GPU lost";
    case TL_GPU_CANCELLED: return "cancelled";
    }
  return "unknown";
}
