// tl-gpu-counters-bandwidth.cu — the roofline's slanted roofs, measured.
//
// A datasheet's memory bandwidth is a lead, not a ceiling anyone reaches;
// the roofline draws what a plain copy kernel gets on this device, in the
// same run as the points under it:
//   DRAM  copy a buffer far larger than L2 (1 GiB, or a quarter of the free
//         memory) into another: every byte comes from and goes to DRAM;
//   L2    copy a buffer of a quarter of L2 into another, many times inside
//         one launch: after the first sweep both stay in L2.
// Bytes counted = bytes read + bytes written; 16-byte loads and stores,
// coalesced, grid-stride, four loads in flight per thread; two warm-ups, then the median of 10 launches
// timed with CUDA events.
#include "tl-gpu-internal.h"

#include <algorithm>
#include <string.h>
#include <vector>

namespace {

// Copies n float4 from src to dst, `sweeps` times.  Each thread has four
// independent 16-byte loads in flight before it stores (one at a time
// leaves DRAM idle between a warp's round trips).  No __restrict__: the
// compiler must not fold the sweeps into one.
constexpr int UNROLL = 4;

__global__ void
copy_kernel (const float4 *src, float4 *dst, size_t n, int sweeps)
{
  const size_t stride = (size_t) gridDim.x * blockDim.x;
  const size_t first = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int s = 0; s < sweeps; s++)
    for (size_t i = first; i < n; i += UNROLL * stride)
      {
        float4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
          if (i + u * stride < n)
            v[u] = src[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
          if (i + u * stride < n)
            dst[i + u * stride] = v[u];
      }
}

struct Buffers
{
  void *src = nullptr, *dst = nullptr;
  ~Buffers ()
  {
    if (!tl_gpu_is_lost ())
      {
        cudaFree (src);
        cudaFree (dst);
      }
  }
};

// The median bytes per second of copying `bytes` (each buffer) `sweeps`
// times per launch.
TlGpuStatus
time_copy (TlGpuDevice *device, size_t bytes, int sweeps, double *out_bytes_per_s)
{
  Buffers b;
  TL_GPU_TRY (cudaMalloc (&b.src, bytes), "allocating a bandwidth buffer");
  TL_GPU_TRY (cudaMalloc (&b.dst, bytes), "allocating a bandwidth buffer");
  // Never time on zeros: fill the source with a pattern.
  TL_GPU_TRY (cudaMemsetAsync (b.src, 0x3C, bytes, device->stream), "filling a bandwidth buffer");
  const size_t n = bytes / sizeof (float4);
  const int threads = 256;
  const int blocks = device->sm_count * 8;
  TlGpuEventPair ev;
  TL_GPU_TRY (ev.create (), "creating CUDA events");
  std::vector<double> ms;
  for (int r = 0; r < 12; r++)
    {
      TL_GPU_TRY (cudaEventRecord (ev.start, device->stream), "recording an event");
      copy_kernel<<<blocks, threads, 0, device->stream>>> ((const float4 *) b.src,
                                                            (float4 *) b.dst, n, sweeps);
      TL_GPU_TRY (cudaGetLastError (), "the bandwidth copy");
      TL_GPU_TRY (cudaEventRecord (ev.stop, device->stream), "recording an event");
      double t = 0.0;
      TL_GPU_TRY (ev.elapsed (&t), "the bandwidth copy");
      if (r >= 2) // two warm-ups
        ms.push_back (t);
    }
  std::sort (ms.begin (), ms.end ());
  const double median = 0.5 * (ms[ms.size () / 2 - 1] + ms[ms.size () / 2]);
  *out_bytes_per_s = 2.0 * (double) n * sizeof (float4) * sweeps / (median * 1e-3);
  return TL_GPU_OK;
}

} // namespace

extern "C" TlGpuStatus
tl_gpu_measure_bandwidth (TlGpuDevice *device, TlGpuBandwidth *out)
{
  if (out == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "tl_gpu_measure_bandwidth: out is NULL");
  memset (out, 0, sizeof *out);
  TlGpuStatus st = tl_gpu_device_usable (device);
  if (st != TL_GPU_OK)
    return st;
  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");

  size_t free_b = 0, total_b = 0;
  TL_GPU_TRY (cudaMemGetInfo (&free_b, &total_b), "reading free GPU memory");
  const size_t l2 = (size_t) std::max (device->l2_bytes, 1 << 20);
  size_t dram = std::min ((size_t) 1 << 30, free_b / 4) & ~(size_t) 4095;
  if (dram < 8 * l2)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY,
                        "measuring DRAM bandwidth needs two buffers of %zu MiB (8 times L2); "
                        "%zu MiB of GPU memory are free",
                        (8 * l2) >> 20, free_b >> 20);
  st = time_copy (device, dram, 1, &out->dram_bytes_per_s);
  if (st != TL_GPU_OK)
    return st;
  const size_t resident = (l2 / 4) & ~(size_t) 4095;
  st = time_copy (device, resident, 50, &out->l2_bytes_per_s);
  if (st != TL_GPU_OK)
    return st;
  out->dram_buffer_bytes = (double) dram;
  out->l2_buffer_bytes = (double) resident;
  tl_gpu_clear_message ();
  return TL_GPU_OK;
}
