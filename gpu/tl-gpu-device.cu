// tl-gpu-device.cu — devices, their facts, health and error mapping.
//
// Facts come from cudaDeviceGetAttribute, one attribute at a time:
// cudaDeviceProp::clockRate and memoryClockRate are gone in CUDA 13, and
// the attribute calls also work without creating a context.  Only the free
// memory needs a context (cudaMemGetInfo), so tl_gpu_device_facts briefly
// makes the device current and restores the caller's device afterwards.
#include "tl-gpu-internal.h"

#include <atomic>
#include <stdint.h>
#include <new>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static thread_local char last_message[1024];
static std::atomic<int> device_lost{ 0 };

TlGpuStatus
tl_gpu_fail (TlGpuStatus status, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  vsnprintf (last_message, sizeof last_message, format, ap);
  va_end (ap);
  return status;
}

void
tl_gpu_clear_message (void)
{
  last_message[0] = '\0';
}

extern "C" const char *
tl_gpu_last_message (void)
{
  return last_message;
}

extern "C" int
tl_gpu_built_with_cuda (void)
{
  return 1;
}

extern "C" int
tl_gpu_is_lost (void)
{
  return device_lost.load ();
}

TlGpuEventPair::~TlGpuEventPair ()
{
  if (tl_gpu_is_lost ())
    return;
  if (start)
    cudaEventDestroy (start);
  if (stop)
    cudaEventDestroy (stop);
}

TlGpuStatus
tl_gpu_lost_status (void)
{
  return tl_gpu_fail (TL_GPU_DEVICE_LOST,
                      "GPU lost, restart Tilelab (an earlier kernel faulted and the CUDA "
                      "context cannot be used again in this process)");
}

// Errors after which the CUDA context is unusable for the rest of the
// process (the "sticky" errors of the CUDA runtime documentation).
static bool
is_sticky (cudaError_t err)
{
  switch (err)
    {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
      return true;
    default:
      return false;
    }
}

TlGpuStatus
tl_gpu_from_cuda (cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return TL_GPU_OK;
  const char *name = cudaGetErrorName (err);
  const char *text = cudaGetErrorString (err);
  if (is_sticky (err))
    {
      device_lost.store (1);
      return tl_gpu_fail (TL_GPU_DEVICE_LOST, "GPU lost, restart Tilelab (%s: %s — %s)", what,
                          name, text);
    }
  switch (err)
    {
    case cudaErrorMemoryAllocation:
      {
        // Clear the (non-sticky) error so later calls do not see it again.
        (void) cudaGetLastError ();
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo (&free_b, &total_b);
        return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s: out of GPU memory (%.1f MiB free of %.1f MiB)",
                            what, free_b / 1048576.0, total_b / 1048576.0);
      }
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorCallRequiresNewerDriver:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorDevicesUnavailable:
    case cudaErrorStubLibrary:
      return tl_gpu_fail (TL_GPU_NO_DEVICE, "no usable CUDA device (%s: %s)", what, text);
    default:
      (void) cudaGetLastError ();
      return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "%s failed: %s (%s)", what, text, name);
    }
}

TlGpuStatus
tl_gpu_from_cublas (cublasStatus_t st, const char *what)
{
  if (st == CUBLAS_STATUS_SUCCESS)
    return TL_GPU_OK;
  if (st == CUBLAS_STATUS_ALLOC_FAILED)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s: cuBLAS could not allocate GPU memory", what);
  if (st == CUBLAS_STATUS_EXECUTION_FAILED)
    {
      // The kernel failed; find out whether the context survived.
      cudaError_t err = cudaDeviceSynchronize ();
      if (err != cudaSuccess)
        return tl_gpu_from_cuda (err, what);
    }
  if (st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_ARCH_MISMATCH)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s: not supported on this GPU (%s)", what,
                        cublasGetStatusString (st));
  return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "%s failed: %s", what, cublasGetStatusString (st));
}

TlGpuStatus
tl_gpu_device_usable (TlGpuDevice *device)
{
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();
  if (device == nullptr)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no device open");
  return TL_GPU_OK;
}

TlGpuStatus
tl_gpu_check_free (size_t need, const char *who)
{
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo (&free_b, &total_b);
  if (need > free_b)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "%s needs %zu MiB of GPU memory, %zu MiB are free",
                        who, need >> 20, free_b >> 20);
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_device_count (int *out_count)
{
  if (out_count == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_device_count: out_count is NULL");
  *out_count = 0;
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();
  int count = 0;
  cudaError_t err = cudaGetDeviceCount (&count);
  if (err != cudaSuccess)
    {
      (void) cudaGetLastError ();
      // Without a GPU (or driver) this fails: that is "no device", not a crash.
      return tl_gpu_fail (TL_GPU_NO_DEVICE, "no CUDA device: %s", cudaGetErrorString (err));
    }
  if (count == 0)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no CUDA device found");
  *out_count = count;
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_device_facts (int ordinal, TlGpuFacts *out_facts)
{
  if (out_facts == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_device_facts: out_facts is NULL");
  memset (out_facts, 0, sizeof *out_facts);
  int count = 0;
  TlGpuStatus status = tl_gpu_device_count (&count);
  if (status != TL_GPU_OK)
    return status;
  if (ordinal < 0 || ordinal >= count)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "there is no GPU %d (%d found)", ordinal, count);

  TlGpuFacts *f = out_facts;
  f->ordinal = ordinal;
  struct
  {
    cudaDeviceAttr attr;
    int *dest;
  } attrs[] = {
    { cudaDevAttrComputeCapabilityMajor, &f->cc_major },
    { cudaDevAttrComputeCapabilityMinor, &f->cc_minor },
    { cudaDevAttrMultiProcessorCount, &f->sm_count },
    { cudaDevAttrClockRate, &f->clock_khz },
    { cudaDevAttrMemoryClockRate, &f->mem_clock_khz },
    { cudaDevAttrGlobalMemoryBusWidth, &f->mem_bus_width_bits },
    { cudaDevAttrL2CacheSize, &f->l2_bytes },
    { cudaDevAttrMaxSharedMemoryPerBlock, &f->smem_per_block_bytes },
    { cudaDevAttrMaxSharedMemoryPerBlockOptin, &f->smem_per_block_optin_bytes },
    { cudaDevAttrMaxSharedMemoryPerMultiprocessor, &f->smem_per_sm_bytes },
    { cudaDevAttrMaxRegistersPerMultiprocessor, &f->regs_per_sm },
    { cudaDevAttrMaxRegistersPerBlock, &f->regs_per_block },
    { cudaDevAttrMaxThreadsPerBlock, &f->max_threads_per_block },
    { cudaDevAttrMaxThreadsPerMultiProcessor, &f->max_threads_per_sm },
    { cudaDevAttrMaxBlocksPerMultiprocessor, &f->max_blocks_per_sm },
    { cudaDevAttrWarpSize, &f->warp_size },
  };
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    TL_GPU_TRY (cudaDeviceGetAttribute (attrs[i].dest, attrs[i].attr, ordinal),
                "reading a device attribute");

  cudaDeviceProp prop;
  TL_GPU_TRY (cudaGetDeviceProperties (&prop, ordinal), "reading the device name");
  snprintf (f->name, sizeof f->name, "%s", prop.name);
  f->total_mem_bytes = prop.totalGlobalMem;
  TL_GPU_TRY (cudaDriverGetVersion (&f->driver_version), "reading the driver version");
  TL_GPU_TRY (cudaRuntimeGetVersion (&f->runtime_version), "reading the runtime version");

  // Free memory needs a context on that device: switch, ask, switch back.
  int previous = 0;
  TL_GPU_TRY (cudaGetDevice (&previous), "cudaGetDevice");
  TL_GPU_TRY (cudaSetDevice (ordinal), "cudaSetDevice");
  size_t free_b = 0, total_b = 0;
  cudaError_t err = cudaMemGetInfo (&free_b, &total_b);
  cudaSetDevice (previous);
  if (err != cudaSuccess)
    return tl_gpu_from_cuda (err, "reading free GPU memory");
  f->free_mem_bytes = free_b;
  f->total_mem_bytes = total_b;
  tl_gpu_clear_message ();
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_device_open (int ordinal, TlGpuDevice **out_device)
{
  if (out_device == nullptr)
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "tl_gpu_device_open: out_device is NULL");
  *out_device = nullptr;
  TlGpuFacts facts;
  TlGpuStatus status = tl_gpu_device_facts (ordinal, &facts);
  if (status != TL_GPU_OK)
    return status;
  TL_GPU_TRY (cudaSetDevice (ordinal), "cudaSetDevice");

  TlGpuDevice *d = new (std::nothrow) TlGpuDevice ();
  if (d == nullptr)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "out of host memory opening GPU %d", ordinal);
  d->ordinal = ordinal;
  d->cc = facts.cc_major * 10 + facts.cc_minor;
  d->sm_count = facts.sm_count;
  d->l2_bytes = facts.l2_bytes;
  d->facts = facts;
  d->cublas = nullptr;
  cudaError_t err = cudaStreamCreateWithFlags (&d->stream, cudaStreamNonBlocking);
  if (err != cudaSuccess)
    {
      delete d;
      return tl_gpu_from_cuda (err, "creating a CUDA stream");
    }
  *out_device = d;
  tl_gpu_clear_message ();
  return TL_GPU_OK;
}

extern "C" void
tl_gpu_device_close (TlGpuDevice *device)
{
  if (device == nullptr)
    return;
  // After a sticky fault the context is gone; calling into it again only
  // produces more errors, so just forget the handles.
  if (!tl_gpu_is_lost ())
    {
      cudaSetDevice (device->ordinal);
      if (device->cublas != nullptr)
        cublasDestroy (device->cublas);
      cudaStreamSynchronize (device->stream);
      cudaStreamDestroy (device->stream);
    }
  delete device;
}

extern "C" TlGpuStatus
tl_gpu_device_health (TlGpuDevice *device)
{
  if (device == nullptr)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no GPU is open");
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();
  // A sticky error from an earlier asynchronous launch shows up here.
  cudaError_t err = cudaStreamQuery (device->stream);
  if (err == cudaErrorNotReady)
    return TL_GPU_OK;
  if (err != cudaSuccess)
    return tl_gpu_from_cuda (err, "checking the GPU");
  err = cudaPeekAtLastError ();
  if (err != cudaSuccess && is_sticky (err))
    return tl_gpu_from_cuda (err, "checking the GPU");
  return TL_GPU_OK;
}

TlGpuStatus
tl_gpu_device_cublas (TlGpuDevice *device, cublasHandle_t *out)
{
  if (device->cublas == nullptr)
    {
      cublasHandle_t h = nullptr;
      cublasStatus_t st = cublasCreate (&h);
      if (st != CUBLAS_STATUS_SUCCESS)
        return tl_gpu_from_cublas (st, "creating the cuBLAS handle");
      st = cublasSetStream (h, device->stream);
      if (st != CUBLAS_STATUS_SUCCESS)
        {
          cublasDestroy (h);
          return tl_gpu_from_cublas (st, "binding cuBLAS to the stream");
        }
      device->cublas = h;
    }
  *out = device->cublas;
  return TL_GPU_OK;
}

// A store through a pointer into nowhere: the "illegal address" fault.
__global__ void
tl_gpu_fault_kernel (int *nowhere)
{
  *nowhere = 42;
}

extern "C" TlGpuStatus
tl_gpu_debug_fault (TlGpuDevice *device)
{
  if (device == nullptr)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no GPU is open");
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();
  tl_gpu_fault_kernel<<<1, 1, 0, device->stream>>> ((int *) (uintptr_t) 0x10);
  cudaError_t err = cudaGetLastError ();
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (device->stream);
  return tl_gpu_from_cuda (err, "the deliberate fault");
}
