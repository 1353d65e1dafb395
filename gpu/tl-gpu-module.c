/* tl-gpu-module.c — the entry of the CUDA module, libtilelab-gpu-cuda.so.
 *
 * The module holds everything of gpu/ that calls CUDA (devices, the GEMM and
 * Gauss ladders, cuBLAS, cuSOLVER, the counters) with the libraries it
 * needs; the executables do not link it, so a window starts without mapping
 * hundreds of megabytes of CUDA, and a machine without CUDA still starts.
 * tl-gpu-loader.c opens it on the first call that needs CUDA and asks this
 * one function for the table of the real tl_gpu_* functions.
 *
 * tl-gpu-module.map exports this symbol alone: every tl_gpu_* inside the
 * module binds to the module's own definitions, never to the loader's
 * forwarders of the same name in the executable (which would call back
 * here, forever).
 */
#include "tl-gpu-backend.h"

const TlGpuBackend *tl_gpu_backend_entry (void);

static const TlGpuBackend cuda_backend = {
  TL_GPU_BACKEND_HEADER ("CUDA"),
#define TL_GPU_FN(mode, ret, name, params, args) tl_gpu_##name,
#define TL_GPU_VOID_FN(mode, name, params, args) tl_gpu_##name,
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
};

const TlGpuBackend *
tl_gpu_backend_entry (void)
{
  return &cuda_backend;
}
