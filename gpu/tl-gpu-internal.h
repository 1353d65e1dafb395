// tl-gpu-internal.h — shared pieces behind tl-gpu.h (CUDA C++, internal).
//
// The thread-local last message, the mapping from cudaError_t to
// TlGpuStatus, the process-wide "device lost" latch and the device handle.
// Nothing here prints or exits.
#pragma once

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <stddef.h>
#include "tl-gpu.h"

// CTAs of one kernel an SM of the device holds at once, for a block and
// dynamic shared memory (the occupancy calculator's answer, asked once).
struct TlGpuResidencyEntry
{
  const void *kernel;
  int threads, smem_bytes;
  int ctas_per_sm;
};

// The open device.  One worker thread owns it (tl-gpu.h).
struct TlGpuDevice
{
  int ordinal;
  int cc;                     // compute capability as 10×major + minor
  int sm_count;
  int l2_bytes;
  cudaStream_t stream;        // every launch goes here, never the legacy stream
  cublasHandle_t cublas;      // created on first use of a cuBLAS rung
  TlGpuFacts facts;           // as read at open (the planner reads SMs and clock)
  TlGpuResidencyEntry residency[128]; // the planned rungs' kernels asked so far
  int n_residency;                    // (tl-gpu-plan-residency.cu)
};

// printf-style; stores the message for tl_gpu_last_message() and returns
// `status` so callers can write `return tl_gpu_fail (TL_GPU_BAD_SHAPE, ...)`.
TlGpuStatus tl_gpu_fail (TlGpuStatus status, const char *format, ...)
  __attribute__ ((format (printf, 2, 3)));
void tl_gpu_clear_message (void);

// Maps a CUDA error to a status and records a message naming `what`.
// Sticky errors (illegal address, launch failure, ...) latch the process
// into TL_GPU_DEVICE_LOST: the context is corrupt, and every later call
// answers "GPU lost, restart Tilelab".
TlGpuStatus tl_gpu_from_cuda (cudaError_t err, const char *what);
TlGpuStatus tl_gpu_from_cublas (cublasStatus_t st, const char *what);
TlGpuStatus tl_gpu_lost_status (void);

// The cuBLAS handle of the device, created on first use, bound to its stream.
TlGpuStatus tl_gpu_device_cublas (TlGpuDevice *device, cublasHandle_t *out);

// TL_GPU_OK when device is open and the GPU not lost; else the status
// (and message) to return.
TlGpuStatus tl_gpu_device_usable (TlGpuDevice *device);
// Asks before allocating, so the message can say how much is missing:
// TL_GPU_OUT_OF_MEMORY, "WHO needs N MiB of GPU memory, F MiB are free",
// when need bytes are more than the free GPU memory.
TlGpuStatus tl_gpu_check_free (size_t need, const char *who);

// A start/stop pair of events, destroyed with it (unless the GPU is lost:
// a corrupt context is not touched again; tl-gpu-device.cu, beside the
// lost latch).
struct TlGpuEventPair
{
  cudaEvent_t start = nullptr, stop = nullptr;
  ~TlGpuEventPair ();
  cudaError_t create ()
  {
    cudaError_t err = cudaEventCreate (&start);
    if (err == cudaSuccess)
      err = cudaEventCreate (&stop);
    return err;
  }
  // Waits for `stop`; the milliseconds between the two events.
  cudaError_t elapsed (double *ms)
  {
    cudaError_t err = cudaEventSynchronize (stop);
    if (err != cudaSuccess)
      return err;
    float f = 0.0f;
    err = cudaEventElapsedTime (&f, start, stop);
    *ms = f;
    return err;
  }
};

// The counters pass (tl-gpu-counters.cu).  `launch` enqueues the work to
// count on `stream` (a multiply: all its kernels); `before` enqueues what
// must happen before each pass and is not counted (poisoning C, flushing
// L2).  Both run once per replay pass; `name` is the NVTX range around
// them.  A failed launch is returned; a failure to count is a state and a
// sentence in *out.  tl_gpu_counters_mark runs the work once inside the
// NVTX range and counts nothing (an outside profiler counts).
struct TlGpuCountedWork
{
  TlGpuStatus (*before) (void *user);
  TlGpuStatus (*launch) (void *user);
  void *user;
  cudaStream_t stream;
  const char *name;
};
void tl_gpu_counters_reset (TlGpuCounters *out, TlGpuCountersState state);
// For `before`: reads `bytes` (at least 2 × L2) of `buffer` on the device's
// stream, so L2 holds only clean lines when the counted launch starts.
TlGpuStatus tl_gpu_counters_clean_l2 (const TlGpuDevice *device, void *buffer, size_t bytes);
TlGpuStatus tl_gpu_counters_collect (TlGpuDevice *device, const TlGpuCountedWork *work,
                                     TlGpuCounters *out);
TlGpuStatus tl_gpu_counters_mark (const TlGpuCountedWork *work);

// The harness (tl-gpu-gemm.cu) for any rung, with its row: tl_gpu_gemm_run
// after the look-up.
struct TlGemmRung;
// A rung made at run time (a user's kernel, tl-gpu-user.cu) passes its
// data, which every hook sees as l->user, and asks to be guarded: the
// memory around C and the inputs are checked after the runs.
TlGpuStatus tl_gpu_gemm_run_rung (TlGpuDevice *device, const TlGpuKernelInfo *info,
                                  const TlGemmRung *rung, const void *user, bool guarded,
                                  const TlGpuGemmArgs *args, TlGpuGemmResult *out_result);

#define TL_GPU_TRY(expr, what)                               \
  do                                                         \
    {                                                        \
      cudaError_t tl_err_ = (expr);                          \
      if (tl_err_ != cudaSuccess)                            \
        return tl_gpu_from_cuda (tl_err_, (what));           \
    }                                                        \
  while (0)
