// tl-gpu-gemm.cu — the harness behind tl_gpu_gemm_run.
//
// One multiply, measured like a benchmark:
//   1. check the shape, the dtype and the device (before touching memory);
//   2. check free GPU memory, allocate A, B, C (+ workspace, block records,
//      an L2-flush buffer) — "out of GPU memory" names bytes needed and free;
//   3. upload A and B, timed with events (seed 004 reports "memops" apart);
//   4. at least two warm-ups (module load, cuBLAS heuristics, clocks);
//   5. `repeats` timed launches, CUDA events around each launch — around
//      the whole multiply for multi-launch rungs — with C poisoned before
//      each (NaN for floats) and, optionally, L2 flushed by writing a buffer
//      twice its size, so no launch profits from the previous one's cache;
//   6. optionally the instrumented variant: one warm-up, then timed
//      launches whose blocks write TlGpuBlockRecords; times normalised to
//      the earliest block start;
//   7. launch facts from the runtime: registers, shared and local memory,
//      occupancy, grid, waves;
//   8. download C, timed.
// Cancellation is polled between launches.  Nothing here prints.
#include "tl-gpu-internal.h"
#include "gemm/tl-gemm-rung.h"

#include <algorithm>
#include <limits.h>
#include <new>
#include <stdlib.h>
#include <string.h>
#include <vector>

// ---- the dispatch table -----------------------------------------------------
// Every rung compiled into this build.  The registry (tl-gpu-registry.c) is
// the list users see; a registry row without an entry here answers
// "not built".
extern const TlGemmRung gemm_01_naive_rung;
extern const TlGemmRung gemm_02_coalesced_rung;
extern const TlGemmRung gemm_03_smem16_rung;
extern const TlGemmRung gemm_04_smem32_rung;
extern const TlGemmRung gemm_05_seed3k_rung;
extern const TlGemmRung gemm_06_regtile1d_rung;
extern const TlGemmRung gemm_07_regtile2d_rung;
extern const TlGemmRung gemm_08_vectorized_rung;
extern const TlGemmRung gemm_09_warptile_rung;
extern const TlGemmRung gemm_10_wmma_tf32_rung;
extern const TlGemmRung gemm_10_wmma_bf16_rung;
extern const TlGemmRung gemm_11_wgmma_rung;
extern const TlGemmRung gemm_12_regtile_f64_rung;
extern const TlGemmRung gemm_13_wgmma_tf32_rung;
extern const TlGemmRung gemm_14_wgmma_persistent_rung;
extern const TlGemmRung gemm_15_dmma_f64_rung;
extern const TlGemmRung gemm_16_doublebuf_rung;
extern const TlGemmRung cublas_fp32_rung;
extern const TlGemmRung cublas_tf32_rung;
extern const TlGemmRung cublas_bf16_rung;
extern const TlGemmRung cublas_fp64_rung;

static const TlGemmRung *const dispatch_table[] = {
  &gemm_01_naive_rung,
  &gemm_02_coalesced_rung,
  &gemm_03_smem16_rung,
  &gemm_04_smem32_rung,
  &gemm_05_seed3k_rung,
  &gemm_06_regtile1d_rung,
  &gemm_07_regtile2d_rung,
  &gemm_08_vectorized_rung,
  &gemm_09_warptile_rung,
  &gemm_10_wmma_tf32_rung,
  &gemm_10_wmma_bf16_rung,
  &gemm_11_wgmma_rung,
  &gemm_12_regtile_f64_rung,
  &gemm_13_wgmma_tf32_rung,
  &gemm_14_wgmma_persistent_rung,
  &gemm_15_dmma_f64_rung,
  &gemm_16_doublebuf_rung,
  &cublas_fp32_rung,
  &cublas_tf32_rung,
  &cublas_bf16_rung,
  &cublas_fp64_rung,
};

const TlGemmRung *
tl_gpu_gemm_rung_find (const char *id)
{
  for (const TlGemmRung *r : dispatch_table)
    if (strcmp (r->id, id) == 0)
      return r;
  return nullptr;
}

extern "C" int
tl_gpu_kernel_available (const char *id)
{
  return id != nullptr && tl_gpu_gemm_rung_find (id) != nullptr;
}

// ---- small RAII helpers -------------------------------------------------------

namespace {

struct DeviceBuffer
{
  void *p = nullptr;
  ~DeviceBuffer ()
  {
    if (p != nullptr && !tl_gpu_is_lost ())
      cudaFree (p);
  }
};

size_t
dtype_size (TlGpuDtype dtype)
{
  return dtype == TL_GPU_FLOAT64 ? 8 : 4;
}

const char *
dtype_name (TlGpuDtype dtype)
{
  switch (dtype)
    {
    case TL_GPU_INT32: return "int32";
    case TL_GPU_FLOAT32: return "float32";
    case TL_GPU_FLOAT64: return "float64";
    }
  return "?";
}

double
median_of (std::vector<double> v)
{
  if (v.empty ())
    return 0.0;
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double
mib (size_t bytes)
{
  return bytes / 1048576.0;
}

// Poison C so an element the rung forgot to write is visible: all-ones
// bytes are NaN in float32 and float64; int32 gets 0x80808080 (−2139062144),
// which no test product reaches.
cudaError_t
poison (void *c, size_t bytes, TlGpuDtype dtype, cudaStream_t stream)
{
  return cudaMemsetAsync (c, dtype == TL_GPU_INT32 ? 0x80 : 0xFF, bytes, stream);
}

} // namespace

// ---- the run --------------------------------------------------------------------

struct RunState
{
  TlGpuDevice *device;
  const TlGemmRung *rung;
  const TlGpuGemmArgs *args;
  TlGemmLaunch launch;
  size_t c_bytes;
  DeviceBuffer flush;
  size_t flush_bytes;

  bool cancelled () const
  {
    return args->cancelled != nullptr && args->cancelled (args->user_data) != 0;
  }
  void progress (TlGpuStage stage, int step, int total) const
  {
    if (args->progress != nullptr)
      args->progress (stage, step, total, args->user_data);
  }
  // Everything that happens before one launch and is not timed.
  TlGpuStatus prepare_launch ()
  {
    TL_GPU_TRY (poison (launch.c, c_bytes, launch.dtype, launch.stream), "poisoning C");
    if (flush.p != nullptr)
      TL_GPU_TRY (cudaMemsetAsync (flush.p, 0x5A, flush_bytes, launch.stream), "flushing L2");
    return TL_GPU_OK;
  }
  TlGpuStatus launch_once (TlGpuBlockRecord *records)
  {
    launch.blocks = records;
    cudaError_t err = rung->launch (&launch);
    launch.blocks = nullptr;
    if (err != cudaSuccess)
      return tl_gpu_from_cuda (err, rung->id);
    return TL_GPU_OK;
  }
  // One launch between two events; waits for it.
  TlGpuStatus timed_launch (TlGpuEventPair &ev, TlGpuBlockRecord *records, double *ms)
  {
    TlGpuStatus st = prepare_launch ();
    if (st != TL_GPU_OK)
      return st;
    TL_GPU_TRY (cudaEventRecord (ev.start, launch.stream), "recording an event");
    st = launch_once (records);
    if (st != TL_GPU_OK)
      return st;
    TL_GPU_TRY (cudaEventRecord (ev.stop, launch.stream), "recording an event");
    TL_GPU_TRY (ev.elapsed (ms), rung->id);
    return TL_GPU_OK;
  }
};

static void
fill_launch_facts (const TlGpuDevice *device, const TlGemmShape &shape, TlGpuLaunchFacts *f)
{
  memset (f, 0, sizeof *f);
  f->grid_x = (int) shape.grid.x;
  f->grid_y = (int) shape.grid.y;
  f->grid_z = (int) shape.grid.z;
  f->block_x = (int) shape.block.x;
  f->block_y = (int) shape.block.y;
  f->block_z = (int) shape.block.z;
  f->dynamic_smem_bytes = shape.dynamic_smem;
  f->launches = shape.launches;
  if (shape.kernel == nullptr)
    return; // a library call (cuBLAS): its kernels are not ours to inspect
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes (&attr, shape.kernel) == cudaSuccess)
    {
      f->regs_per_thread = attr.numRegs;
      f->static_smem_bytes = (int) attr.sharedSizeBytes;
      f->local_bytes_per_thread = (int) attr.localSizeBytes;
      f->max_threads_per_block = attr.maxThreadsPerBlock;
    }
  else
    (void) cudaGetLastError ();
  int active = 0;
  int threads = (int) (shape.block.x * shape.block.y * shape.block.z);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&active, shape.kernel, threads,
                                                     (size_t) shape.dynamic_smem) == cudaSuccess)
    f->active_blocks_per_sm = active;
  else
    (void) cudaGetLastError ();
  double blocks = (double) shape.grid.x * shape.grid.y * shape.grid.z;
  if (active > 0 && device->sm_count > 0)
    f->waves = blocks / ((double) active * device->sm_count);
}

static TlGpuStatus
check_args (const TlGpuKernelInfo *info, const TlGpuDevice *device, const TlGpuGemmArgs *args)
{
  if (args->dtype != TL_GPU_INT32 && args->dtype != TL_GPU_FLOAT32 && args->dtype != TL_GPU_FLOAT64)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "unknown element type %d", (int) args->dtype);
  if (args->m < 0 || args->n < 0 || args->k < 0)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "negative matrix size %d×%d×%d (m×k×n: %d×%d times %d×%d)",
                        args->m, args->k, args->n, args->m, args->k, args->k, args->n);
  if (!(info->dtypes & TL_GPU_DTYPE_BIT (args->dtype)))
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s does not take %s matrices", info->id,
                        dtype_name (args->dtype));
  if (info->min_cc > device->cc)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                        "%s needs compute capability %d.%d; this GPU has %d.%d", info->id,
                        info->min_cc / 10, info->min_cc % 10, device->cc / 10, device->cc % 10);
  if (args->repeats < 1)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "repeats must be at least 1 (got %d)", args->repeats);
  if ((args->a == nullptr && (size_t) args->m * args->k > 0)
      || (args->b == nullptr && (size_t) args->k * args->n > 0))
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "A or B is missing");
  // Our kernels index with 32-bit ints (cheaper address arithmetic);
  // cuBLAS takes larger matrices.
  if (info->kind == TL_GPU_KIND_RUNG)
    {
      size_t most = std::max ({ (size_t) args->m * args->k, (size_t) args->k * args->n,
                                (size_t) args->m * args->n });
      if (most > (size_t) INT_MAX)
        return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                            "%s indexes with 32-bit integers: a %d×%d×%d product has a matrix "
                            "of %zu elements, more than 2^31−1",
                            info->id, args->m, args->k, args->n, most);
    }
  return TL_GPU_OK;
}

extern "C" TlGpuStatus
tl_gpu_gemm_run (TlGpuDevice *device, const char *kernel_id, const TlGpuGemmArgs *args,
                 TlGpuGemmResult *out_result)
{
  if (out_result == nullptr || args == nullptr || kernel_id == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "tl_gpu_gemm_run: missing argument");
  memset (out_result, 0, sizeof *out_result);
  if (device == nullptr)
    return tl_gpu_fail (TL_GPU_NO_DEVICE, "no GPU is open");
  if (tl_gpu_is_lost ())
    return tl_gpu_lost_status ();

  const TlGpuKernelInfo *info = tl_gpu_kernel_find (kernel_id);
  if (info == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "unknown kernel \"%s\" (tilelab-cli kernels lists them)",
                        kernel_id);
  const TlGemmRung *rung = tl_gpu_gemm_rung_find (kernel_id);
  if (rung == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s is not built into this Tilelab", kernel_id);
  TlGpuStatus st = check_args (info, device, args);
  if (st != TL_GPU_OK)
    return st;

  const int m = args->m, n = args->n, k = args->k;
  const size_t es = dtype_size (args->dtype);
  const size_t c_bytes = (size_t) m * n * es;

  // Empty products need no launch: C is m×n of zeros when k = 0, and has no
  // elements when m or n is 0.
  if (m == 0 || n == 0 || k == 0)
    {
      if (args->c != nullptr && c_bytes > 0)
        memset (args->c, 0, c_bytes);
      tl_gpu_clear_message ();
      return TL_GPU_OK;
    }

  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");

  RunState rs;
  rs.device = device;
  rs.rung = rung;
  rs.args = args;
  rs.c_bytes = c_bytes;
  rs.flush_bytes = 0;
  memset (&rs.launch, 0, sizeof rs.launch);
  TlGemmLaunch &l = rs.launch;
  l.dtype = args->dtype;
  l.m = m;
  l.n = n;
  l.k = k;
  l.stream = device->stream;
  l.cc = device->cc;
  l.sm_count = device->sm_count;
  if (info->kind == TL_GPU_KIND_REFERENCE)
    {
      cublasHandle_t h;
      st = tl_gpu_device_cublas (device, &h);
      if (st != TL_GPU_OK)
        return st;
      l.cublas = h;
    }
  if (rung->check != nullptr)
    {
      char why[512] = "";
      st = rung->check (&l, why, sizeof why);
      if (st != TL_GPU_OK)
        return tl_gpu_fail (st, "%s cannot take %d×%d×%d: %s", kernel_id, m, k, n, why);
    }

  TlGemmShape shape = {};
  rung->shape (&l, &shape);
  if (shape.launches > 0 && (shape.grid.y > 65535 || shape.grid.z > 65535))
    return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                        "%s cannot take %d×%d×%d: its grid would be %u×%u blocks, more than "
                        "the 65535 a CUDA grid allows in y",
                        kernel_id, m, k, n, shape.grid.x, shape.grid.y);

  // ---- memory: ask first, so the message can say how much is missing.
  const bool instrument = args->instrument && info->instrumentable && shape.total_blocks > 0;
  const size_t a_bytes = (size_t) m * k * es, b_bytes = (size_t) k * n * es;
  const size_t ws_bytes = rung->workspace_bytes ? rung->workspace_bytes (&l) : 0;
  const size_t rec_bytes = instrument ? shape.total_blocks * sizeof (TlGpuBlockRecord) : 0;
  const size_t flush_bytes = args->flush_l2 ? 2 * (size_t) device->l2_bytes : 0;
  const size_t need = a_bytes + b_bytes + c_bytes + ws_bytes + rec_bytes + flush_bytes;
  size_t free_b = 0, total_b = 0;
  TL_GPU_TRY (cudaMemGetInfo (&free_b, &total_b), "reading free GPU memory");
  if (need > free_b)
    return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY,
                        "%s at %d×%d×%d %s needs %.1f MiB of GPU memory; %.1f MiB of %.1f MiB "
                        "are free",
                        kernel_id, m, k, n, dtype_name (args->dtype), mib (need), mib (free_b),
                        mib (total_b));

  DeviceBuffer da, db, dc, dws, drec;
  TL_GPU_TRY (cudaMalloc (&da.p, a_bytes), "allocating A");
  TL_GPU_TRY (cudaMalloc (&db.p, b_bytes), "allocating B");
  TL_GPU_TRY (cudaMalloc (&dc.p, c_bytes), "allocating C");
  if (ws_bytes > 0)
    TL_GPU_TRY (cudaMalloc (&dws.p, ws_bytes), "allocating the workspace");
  if (rec_bytes > 0)
    TL_GPU_TRY (cudaMalloc (&drec.p, rec_bytes), "allocating the block records");
  if (flush_bytes > 0)
    {
      TL_GPU_TRY (cudaMalloc (&rs.flush.p, flush_bytes), "allocating the L2 flush buffer");
      rs.flush_bytes = flush_bytes;
    }
  l.a = da.p;
  l.b = db.p;
  l.c = dc.p;
  l.workspace = dws.p;
  l.workspace_bytes = ws_bytes;

  TlGpuEventPair ev;
  TL_GPU_TRY (ev.create (), "creating CUDA events");

  // ---- upload
  rs.progress (TL_GPU_STAGE_UPLOAD, 0, 1);
  double upload_ms = 0.0;
  TL_GPU_TRY (cudaEventRecord (ev.start, l.stream), "recording an event");
  TL_GPU_TRY (cudaMemcpyAsync (da.p, args->a, a_bytes, cudaMemcpyHostToDevice, l.stream),
              "uploading A");
  TL_GPU_TRY (cudaMemcpyAsync (db.p, args->b, b_bytes, cudaMemcpyHostToDevice, l.stream),
              "uploading B");
  TL_GPU_TRY (cudaEventRecord (ev.stop, l.stream), "recording an event");
  TL_GPU_TRY (ev.elapsed (&upload_ms), "uploading A and B");
  rs.progress (TL_GPU_STAGE_UPLOAD, 1, 1);

  if (rung->prepare != nullptr)
    {
      cudaError_t err = rung->prepare (&l);
      if (err == cudaSuccess)
        err = cudaStreamSynchronize (l.stream);
      if (err != cudaSuccess)
        return tl_gpu_from_cuda (err, "preparing the inputs");
    }

  // ---- warm-ups: the first launch loads the module; clocks ramp up.
  const int warmups = std::max (2, args->warmups);
  for (int w = 0; w < warmups; w++)
    {
      if (rs.cancelled ())
        return tl_gpu_fail (TL_GPU_CANCELLED, "cancelled");
      rs.progress (TL_GPU_STAGE_WARMUP, w, warmups);
      st = rs.prepare_launch ();
      if (st == TL_GPU_OK)
        st = rs.launch_once (nullptr);
      if (st != TL_GPU_OK)
        return st;
    }
  TL_GPU_TRY (cudaStreamSynchronize (l.stream), kernel_id);

  // ---- timed, uninstrumented: the headline numbers.
  std::vector<double> times;
  times.reserve (args->repeats);
  for (int r = 0; r < args->repeats; r++)
    {
      if (rs.cancelled ())
        return tl_gpu_fail (TL_GPU_CANCELLED, "cancelled");
      rs.progress (TL_GPU_STAGE_RUN, r, args->repeats);
      double ms = 0.0;
      st = rs.timed_launch (ev, nullptr, &ms);
      if (st != TL_GPU_OK)
        return st;
      times.push_back (ms);
    }
  rs.progress (TL_GPU_STAGE_RUN, args->repeats, args->repeats);

  // ---- instrumented: same work, every block writes its record.
  double instrumented_median = 0.0;
  std::vector<TlGpuBlockRecord> records;
  if (instrument)
    {
      TlGpuBlockRecord *rec = (TlGpuBlockRecord *) drec.p;
      const int irep = std::max (1, args->instrument_repeats);
      std::vector<double> itimes;
      for (int r = -1; r < irep; r++) // r = −1: the warm-up of the instrumented variant
        {
          if (rs.cancelled ())
            return tl_gpu_fail (TL_GPU_CANCELLED, "cancelled");
          rs.progress (TL_GPU_STAGE_INSTRUMENTED, r + 1, irep + 1);
          // All-ones records: a block that forgot to write shows sm = 0xFFFFFFFF.
          TL_GPU_TRY (cudaMemsetAsync (rec, 0xFF, rec_bytes, l.stream), "clearing block records");
          double ms = 0.0;
          st = rs.timed_launch (ev, rec, &ms);
          if (st != TL_GPU_OK)
            return st;
          if (r >= 0)
            itimes.push_back (ms);
        }
      instrumented_median = median_of (itimes);
      records.resize (shape.total_blocks);
      TL_GPU_TRY (cudaMemcpyAsync (records.data (), rec, rec_bytes, cudaMemcpyDeviceToHost,
                                   l.stream),
                  "downloading block records");
      TL_GPU_TRY (cudaStreamSynchronize (l.stream), "downloading block records");
      // One time origin for all launches: the earliest block start.
      uint64_t t0 = UINT64_MAX;
      for (const TlGpuBlockRecord &b : records)
        t0 = std::min (t0, (uint64_t) b.start_ns);
      for (TlGpuBlockRecord &b : records)
        {
          b.start_ns -= t0;
          b.end_ns -= t0;
        }
    }

  // ---- facts of the main kernel (after the warm-ups: attributes set by
  // the rung, e.g. a raised shared-memory limit, are in place).
  TlGpuLaunchFacts facts;
  fill_launch_facts (device, shape, &facts);

  // ---- download
  double download_ms = 0.0;
  if (args->c != nullptr)
    {
      rs.progress (TL_GPU_STAGE_DOWNLOAD, 0, 1);
      TL_GPU_TRY (cudaEventRecord (ev.start, l.stream), "recording an event");
      TL_GPU_TRY (cudaMemcpyAsync (args->c, dc.p, c_bytes, cudaMemcpyDeviceToHost, l.stream),
                  "downloading C");
      TL_GPU_TRY (cudaEventRecord (ev.stop, l.stream), "recording an event");
      TL_GPU_TRY (ev.elapsed (&download_ms), "downloading C");
      rs.progress (TL_GPU_STAGE_DOWNLOAD, 1, 1);
    }

  // ---- hand the numbers over (malloc'd: the caller frees with
  // tl_gpu_gemm_result_clear, which may be compiled as C).
  double *t = (double *) malloc (times.size () * sizeof (double));
  TlGpuBlockRecord *blocks = nullptr;
  if (!records.empty ())
    blocks = (TlGpuBlockRecord *) malloc (records.size () * sizeof (TlGpuBlockRecord));
  if (t == nullptr || (!records.empty () && blocks == nullptr))
    {
      free (t);
      free (blocks);
      return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY, "out of host memory for the results");
    }
  std::copy (times.begin (), times.end (), t);
  if (blocks != nullptr)
    std::copy (records.begin (), records.end (), blocks);
  out_result->upload_ms = upload_ms;
  out_result->download_ms = download_ms;
  out_result->n_times = (int) times.size ();
  out_result->times_ms = t;
  out_result->instrumented_median_ms = instrumented_median;
  out_result->launch = facts;
  out_result->n_blocks = records.size ();
  out_result->blocks = blocks;
  tl_gpu_clear_message ();
  return TL_GPU_OK;
}

extern "C" void
tl_gpu_gemm_result_clear (TlGpuGemmResult *result)
{
  if (result == nullptr)
    return;
  free (result->times_ms);
  free (result->blocks);
  memset (result, 0, sizeof *result);
}
