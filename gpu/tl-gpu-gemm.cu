// tl-gpu-gemm.cu — the harness behind tl_gpu_gemm_run.
//
// One multiply, measured like a benchmark:
//   1. check the shape, the dtype and the device (before touching memory);
//   2. check free GPU memory, allocate A, B, C (+ workspace, block records,
//      an L2-flush buffer) — "out of GPU memory" names bytes needed and free;
//   3. upload A and B, timed with events (seed 004 reports "memops" apart),
//      then the rung's `prepare` (untimed: conversions, shared-memory limits);
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
//   8. optionally the hardware counters of one more launch, untimed,
//      replayed by CUPTI (tl-gpu-counters.cu): C poisoned and L2 cleaned
//      before every pass;
//   9. download C, timed.
// A guarded rung (a user's kernel) also gets guard zones before and after
// C, and after step 8 the guards and A and B are compared with what they
// were: a kernel that wrote outside C fails, saying where.
// Cancellation is polled before every launch: each warm-up, timed and
// instrumented launch, and each poison-and-flush before one.  Nothing here
// prints.
#include "tl-gpu-internal.h"
#include "tl-gpu-plan-residency.h"
#include "gemm/tl-gemm-rung.h"

#include <algorithm>
#include <atomic>
#include <limits.h>
#include <new>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <vector>

// ---- the dispatch table -----------------------------------------------------
// Row i of the ladder (gemm/tl-gemm-ladder.h, also the registry's rows) runs
// dispatch_table[i].  A row whose rung file is not built leaves its
// SYMBOL_rung undefined: the link fails, so the two cannot drift apart.
#define TL_GEMM_ROW(symbol, ...) extern const TlGemmRung symbol##_rung;
#include "gemm/tl-gemm-ladder.h"
#undef TL_GEMM_ROW

static const TlGemmRung *const dispatch_table[] = {
#define TL_GEMM_ROW(symbol, ...) &symbol##_rung,
#include "gemm/tl-gemm-ladder.h"
#undef TL_GEMM_ROW
};

// The rung of a registry row (the row resolved once, by the caller).
static const TlGemmRung *
rung_of (const TlGpuKernelInfo *info)
{
  const TlGemmRung *rung = dispatch_table[info - tl_gpu_kernel_info (0)];
  // the rung file names its id too: a row pointing at another file's rung
  // is "not built" rather than the wrong kernel
  return strcmp (rung->id, info->id) == 0 ? rung : nullptr;
}

extern "C" int
tl_gpu_kernel_available (const char *id)
{
  const TlGpuKernelInfo *info = tl_gpu_kernel_find (id);
  return info != nullptr && rung_of (info) != nullptr;
}

// GEMMs completed per device (tl_gpu_debug_gemm_count, for tests).
static constexpr int COUNTED_DEVICES = 64;
static std::atomic<int> gemm_count[COUNTED_DEVICES];

extern "C" int
tl_gpu_debug_gemm_count (int ordinal)
{
  return ordinal >= 0 && ordinal < COUNTED_DEVICES ? gemm_count[ordinal].load () : 0;
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
  f->const_bytes = -1;
  if (shape.kernel == nullptr)
    return; // a library call (cuBLAS): its kernels are not ours to inspect
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes (&attr, shape.kernel) == cudaSuccess)
    {
      f->regs_per_thread = attr.numRegs;
      f->static_smem_bytes = (int) attr.sharedSizeBytes;
      f->local_bytes_per_thread = (int) attr.localSizeBytes;
      f->const_bytes = (int) attr.constSizeBytes;
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
  if (!tl_gpu_cc_runs (info->min_cc, device->cc / 10, device->cc % 10))
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

// One multiply, step by step (the numbered steps of the header).  Every
// method returns TL_GPU_OK or the status (with its message) to hand back.
struct GemmRun
{
  TlGpuDevice *device = nullptr;
  const TlGpuKernelInfo *info = nullptr;
  const TlGemmRung *rung = nullptr;
  const void *user = nullptr; // a run-time rung's data (tl_gpu_gemm_run_rung)
  bool guarded = false;       // guard C and check the inputs after the runs
  const TlGpuGemmArgs *args = nullptr;
  TlGemmLaunch launch = {};
  TlGemmShape shape = {};
  bool instrument = false;
  bool flush_each = false; // flush L2 before each timed launch (args->flush_l2)
  size_t a_bytes = 0, b_bytes = 0, c_bytes = 0, ws_bytes = 0, rec_bytes = 0, flush_bytes = 0;
  size_t guard_bytes = 0; // before and after C (guarded rungs)
  DeviceBuffer da, db, dc, dws, drec, flush;
  TlGpuEventPair ev;
  // results
  double upload_ms = 0.0, download_ms = 0.0, instrumented_median = 0.0;
  std::vector<double> times, itimes; // plain and instrumented launches, ms
  std::vector<TlGpuBlockRecord> records;
  TlGpuCounters counters;

  bool cancelled () const
  {
    return args->cancelled != nullptr && args->cancelled (args->user_data) != 0;
  }
  void progress (TlGpuStage stage, int step, int total) const
  {
    if (args->progress != nullptr)
      args->progress (stage, step, total, args->user_data);
  }
  TlGpuStatus cancel_point () const
  {
    return cancelled () ? tl_gpu_fail (TL_GPU_CANCELLED, "cancelled") : TL_GPU_OK;
  }

  // 1b. on the device (current now): the rung's own check and its shape
  TlGpuStatus check_rung ()
  {
    const char *kernel_id = info->id;
    TlGpuStatus st = TL_GPU_OK;
    launch.user = user;
    launch.dtype = args->dtype;
    launch.m = args->m;
    launch.n = args->n;
    launch.k = args->k;
    launch.stream = device->stream;
    launch.device = device->ordinal;
    launch.cc = device->cc;
    launch.sm_count = device->sm_count;
    if (info->kind == TL_GPU_KIND_REFERENCE)
      {
        cublasHandle_t h;
        st = tl_gpu_device_cublas (device, &h);
        if (st != TL_GPU_OK)
          return st;
        launch.cublas = h;
      }
    const int m = args->m, n = args->n, k = args->k;
    st = choose_plan (kernel_id);
    if (st != TL_GPU_OK)
      return st;
    if (rung->check != nullptr)
      {
        char why[512] = "";
        st = rung->check (&launch, why, sizeof why);
        if (st != TL_GPU_OK)
          return tl_gpu_fail (st, "%s cannot take %d×%d×%d: %s", kernel_id, m, k, n, why);
      }
    rung->shape (&launch, &shape);
    if (shape.launches > 0 && (shape.grid.y > 65535 || shape.grid.z > 65535))
      return tl_gpu_fail (TL_GPU_BAD_SHAPE,
                          "%s cannot take %d×%d×%d: its grid would be %u×%u blocks, more than "
                          "the 65535 a CUDA grid allows in y",
                          kernel_id, m, k, n, shape.grid.x, shape.grid.y);
    return TL_GPU_OK;
  }

  // 1c. a planned rung's plan (gpu/tl-gpu-plan.c): the cost model's
  // choice, or the one the caller pinned by name, costed with the CTAs per
  // SM this device holds of each plan's kernel
  TlGpuStatus choose_plan (const char *kernel_id)
  {
    const char *pinned = args->plan;
    TlGpuPlanResidency residency;
    tl_gpu_plan_residency (device, rung, kernel_id, &launch, &residency);
    if (tl_gpu_gemm_plan_choose_resident (kernel_id, args->m, args->n, args->k, &device->facts,
                                          &residency, pinned, &launch.plan)
        == TL_GPU_OK)
      return TL_GPU_OK;
    const int count = tl_gpu_gemm_plan_count (kernel_id);
    if (count == 0)
      return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s has one shape and no plans (asked for plan \"%s\")",
                          kernel_id, pinned);
    char list[1024] = "";
    size_t used = 0;
    for (int i = 0; i < count && used < sizeof list - 32; i++)
      {
        TlGpuGemmPlan p;
        if (tl_gpu_gemm_plan_nth (kernel_id, i, args->m, args->n, args->k, &device->facts, &p))
          used += (size_t) snprintf (list + used, sizeof list - used, "%s%s", i ? ", " : "", p.name);
      }
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s has no plan \"%s\"; its plans: %s", kernel_id,
                        pinned, list);
  }

  // 2. memory: ask first, so the message can say how much is missing
  TlGpuStatus allocate ()
  {
    const int m = args->m, n = args->n, k = args->k;
    const size_t es = dtype_size (args->dtype);
    instrument = args->instrument && info->instrumentable && shape.total_blocks > 0;
    a_bytes = (size_t) m * k * es;
    b_bytes = (size_t) k * n * es;
    c_bytes = (size_t) m * n * es;
    ws_bytes = rung->workspace_bytes ? rung->workspace_bytes (&launch) : 0;
    rec_bytes = instrument ? shape.total_blocks * sizeof (TlGpuBlockRecord) : 0;
    // the buffer also cleans L2 before every counted pass
    flush_each = args->flush_l2 != 0;
    flush_bytes = args->flush_l2 || args->counters ? 2 * (size_t) device->l2_bytes : 0;
    // a quarter of C on either side (1 MiB … 64 MiB), a multiple of 256
    // bytes so that C keeps the alignment of an allocation
    if (guarded)
      guard_bytes = std::min (std::max (c_bytes / 4, (size_t) 1 << 20), (size_t) 64 << 20) & ~(size_t) 255;
    const size_t need = a_bytes + b_bytes + c_bytes + 2 * guard_bytes + ws_bytes + rec_bytes
                        + flush_bytes;
    size_t free_b = 0, total_b = 0;
    TL_GPU_TRY (cudaMemGetInfo (&free_b, &total_b), "reading free GPU memory");
    if (need > free_b)
      return tl_gpu_fail (TL_GPU_OUT_OF_MEMORY,
                          "%s at %d×%d×%d %s needs %.1f MiB of GPU memory; %.1f MiB of %.1f MiB "
                          "are free",
                          info->id, m, k, n, dtype_name (args->dtype), mib (need), mib (free_b),
                          mib (total_b));
    TL_GPU_TRY (cudaMalloc (&da.p, a_bytes), "allocating A");
    TL_GPU_TRY (cudaMalloc (&db.p, b_bytes), "allocating B");
    TL_GPU_TRY (cudaMalloc (&dc.p, c_bytes + 2 * guard_bytes), "allocating C");
    if (guard_bytes > 0)
      TL_GPU_TRY (cudaMemsetAsync (dc.p, GUARD_BYTE, c_bytes + 2 * guard_bytes, device->stream),
                  "filling C's guard zones");
    if (ws_bytes > 0)
      TL_GPU_TRY (cudaMalloc (&dws.p, ws_bytes), "allocating the workspace");
    if (rec_bytes > 0)
      TL_GPU_TRY (cudaMalloc (&drec.p, rec_bytes), "allocating the block records");
    if (flush_bytes > 0)
      TL_GPU_TRY (cudaMalloc (&flush.p, flush_bytes), "allocating the L2 flush buffer");
    launch.a = da.p;
    launch.b = db.p;
    launch.c = (char *) dc.p + guard_bytes;
    launch.workspace = dws.p;
    launch.workspace_bytes = ws_bytes;
    TL_GPU_TRY (ev.create (), "creating CUDA events");
    return TL_GPU_OK;
  }

  // 3. upload, timed; then the rung's untimed preparation
  TlGpuStatus upload_and_prepare ()
  {
    progress (TL_GPU_STAGE_UPLOAD, 0, 1);
    TL_GPU_TRY (cudaEventRecord (ev.start, launch.stream), "recording an event");
    TL_GPU_TRY (cudaMemcpyAsync (da.p, args->a, a_bytes, cudaMemcpyHostToDevice, launch.stream),
                "uploading A");
    TL_GPU_TRY (cudaMemcpyAsync (db.p, args->b, b_bytes, cudaMemcpyHostToDevice, launch.stream),
                "uploading B");
    TL_GPU_TRY (cudaEventRecord (ev.stop, launch.stream), "recording an event");
    TL_GPU_TRY (ev.elapsed (&upload_ms), "uploading A and B");
    progress (TL_GPU_STAGE_UPLOAD, 1, 1);
    if (rung->prepare != nullptr)
      {
        cudaError_t err = rung->prepare (&launch);
        if (err == cudaSuccess)
          err = cudaStreamSynchronize (launch.stream);
        if (err != cudaSuccess)
          return tl_gpu_from_cuda (err, "preparing the inputs");
        // prepare may have counted facts of this run (a persistent rung's
        // clusters): the grid of the shape follows them.  The record count
        // was sized before and must not change.
        const size_t blocks = shape.total_blocks;
        rung->shape (&launch, &shape);
        if (shape.total_blocks != blocks)
          return tl_gpu_fail (TL_GPU_LAUNCH_FAILED, "%s changed its block count in prepare",
                              rung->id);
      }
    return TL_GPU_OK;
  }

  // Everything that happens before one launch and is not timed: C
  // poisoned, L2 flushed.  Polls cancellation first.
  TlGpuStatus prepare_launch ()
  {
    TlGpuStatus st = cancel_point ();
    if (st != TL_GPU_OK)
      return st;
    TL_GPU_TRY (poison (launch.c, c_bytes, launch.dtype, launch.stream), "poisoning C");
    if (flush_each)
      TL_GPU_TRY (cudaMemsetAsync (flush.p, 0x5A, flush_bytes, launch.stream), "flushing L2");
    return cancel_point ();
  }

  TlGpuStatus launch_once (TlGpuBlockRecord *blocks)
  {
    launch.blocks = blocks;
    cudaError_t err = rung->launch (&launch);
    launch.blocks = nullptr;
    if (err != cudaSuccess)
      return tl_gpu_from_cuda (err, rung->id);
    return TL_GPU_OK;
  }

  // One launch between two events; waits for it.
  TlGpuStatus timed_launch (TlGpuBlockRecord *blocks, double *ms)
  {
    TlGpuStatus st = prepare_launch ();
    if (st != TL_GPU_OK)
      return st;
    TL_GPU_TRY (cudaEventRecord (ev.start, launch.stream), "recording an event");
    st = launch_once (blocks);
    if (st != TL_GPU_OK)
      return st;
    TL_GPU_TRY (cudaEventRecord (ev.stop, launch.stream), "recording an event");
    TL_GPU_TRY (ev.elapsed (ms), rung->id);
    return TL_GPU_OK;
  }

  // 4. warm-ups: the first launch loads the module; clocks ramp up.  Each
  // one is waited for before the next is queued: a cancel then stops the
  // run after at most the launch in flight (queued launches cannot be
  // taken back — with 2 s launches, two queued warm-ups would be 4 s).
  TlGpuStatus warm_up ()
  {
    const int warmups = std::max (2, args->warmups);
    for (int w = 0; w < warmups; w++)
      {
        progress (TL_GPU_STAGE_WARMUP, w, warmups);
        TlGpuStatus st = prepare_launch ();
        if (st == TL_GPU_OK)
          st = launch_once (nullptr);
        if (st != TL_GPU_OK)
          return st;
        TL_GPU_TRY (cudaStreamSynchronize (launch.stream), rung->id);
      }
    return TL_GPU_OK;
  }

  // 5. timed, uninstrumented: the headline numbers.  A benchmark may ask
  // for each plain launch to be followed by an instrumented one
  // (args->interleave_instrumented): a GPU that slows down as it warms over
  // a long run then slows both alike, and the overhead it reports is the
  // instrumentation's, not the order's.
  bool interleaved () const { return instrument && args->interleave_instrumented; }

  TlGpuStatus timed_runs ()
  {
    times.reserve (args->repeats);
    if (interleaved ())
      {
        double ms = 0.0; // the instrumented variant's own warm-up, untimed
        TlGpuStatus st = instrumented_launch (&ms);
        if (st != TL_GPU_OK)
          return st;
      }
    for (int r = 0; r < args->repeats; r++)
      {
        progress (TL_GPU_STAGE_RUN, r, args->repeats);
        double ms = 0.0;
        TlGpuStatus st = timed_launch (nullptr, &ms);
        if (st != TL_GPU_OK)
          return st;
        times.push_back (ms);
        if (interleaved ())
          {
            if ((st = instrumented_launch (&ms)) != TL_GPU_OK)
              return st;
            itimes.push_back (ms);
          }
      }
    progress (TL_GPU_STAGE_RUN, args->repeats, args->repeats);
    return TL_GPU_OK;
  }

  // One timed launch of the instrumented variant.  All-ones records first:
  // a block that forgot to write shows sm = 0xFFFFFFFF.
  TlGpuStatus instrumented_launch (double *ms)
  {
    TL_GPU_TRY (cudaMemsetAsync (drec.p, 0xFF, rec_bytes, launch.stream), "clearing block records");
    return timed_launch ((TlGpuBlockRecord *) drec.p, ms);
  }

  // 6. instrumented: same work, every block writes its record (already
  // done, one after each plain launch, when interleaved)
  TlGpuStatus instrumented_runs ()
  {
    const int irep = interleaved () ? 0 : std::max (1, args->instrument_repeats);
    for (int r = interleaved () ? 0 : -1; r < irep; r++) // r = −1: its warm-up
      {
        progress (TL_GPU_STAGE_INSTRUMENTED, r + 1, irep + 1);
        double ms = 0.0;
        TlGpuStatus st = instrumented_launch (&ms);
        if (st != TL_GPU_OK)
          return st;
        if (r >= 0)
          itimes.push_back (ms);
      }
    instrumented_median = median_of (itimes);
    records.resize (shape.total_blocks);
    TL_GPU_TRY (cudaMemcpyAsync (records.data (), drec.p, rec_bytes, cudaMemcpyDeviceToHost,
                                 launch.stream),
                "downloading block records");
    TL_GPU_TRY (cudaStreamSynchronize (launch.stream), "downloading block records");
    // One time origin for all launches: the earliest block start.
    uint64_t t0 = UINT64_MAX;
    for (const TlGpuBlockRecord &b : records)
      t0 = std::min (t0, (uint64_t) b.start_ns);
    for (TlGpuBlockRecord &b : records)
      {
        b.start_ns -= t0;
        b.end_ns -= t0;
      }
    return TL_GPU_OK;
  }

  // 8. hardware counters: one more launch, untimed, replayed by CUPTI (or
  // only marked for an outside profiler); a failure to count is a state in
  // `counters`, not the run's error
  static TlGpuStatus counted_before (void *user)
  {
    GemmRun *run = (GemmRun *) user;
    TlGpuStatus st = run->cancel_point ();
    if (st != TL_GPU_OK)
      return st;
    // every pass is a sign of life (a watchdog waits for one)
    run->progress (TL_GPU_STAGE_COUNTERS, 0, 1);
    TL_GPU_TRY (poison (run->launch.c, run->c_bytes, run->launch.dtype, run->launch.stream),
                "poisoning C");
    return tl_gpu_counters_clean_l2 (run->device, run->flush.p, run->flush_bytes);
  }
  static TlGpuStatus counted_launch (void *user)
  {
    return ((GemmRun *) user)->launch_once (nullptr);
  }
  TlGpuStatus count ()
  {
    tl_gpu_counters_reset (&counters, TL_GPU_COUNTERS_NOT_ASKED);
    if (args->counters != TL_GPU_GEMM_COUNT && args->counters != TL_GPU_GEMM_MARK)
      return TL_GPU_OK;
    progress (TL_GPU_STAGE_COUNTERS, 0, 1);
    char name[128];
    snprintf (name, sizeof name, "tilelab-counters %s", info->id);
    TlGpuCountedWork work = { counted_before, counted_launch, this, launch.stream, name };
    TlGpuStatus st = args->counters == TL_GPU_GEMM_COUNT
                       ? tl_gpu_counters_collect (device, &work, &counters)
                       : tl_gpu_counters_mark (&work);
    progress (TL_GPU_STAGE_COUNTERS, 1, 1);
    return st;
  }

  // After the runs of a guarded rung: C's guard zones hold their pattern,
  // A and B what was uploaded — or the kernel wrote where it must not.
  static constexpr unsigned char GUARD_BYTE = 0xA5;
  TlGpuStatus check_guards ()
  {
    if (guard_bytes == 0)
      return TL_GPU_OK;
    TL_GPU_TRY (cudaStreamSynchronize (launch.stream), info->id);
    std::vector<unsigned char> host (std::max ({ guard_bytes, a_bytes, b_bytes }));
    const struct { const char *what; const void *dev; size_t bytes; const void *want; } zones[] = {
      { "before C", dc.p, guard_bytes, nullptr },
      { "after C", (const char *) dc.p + guard_bytes + c_bytes, guard_bytes, nullptr },
      { "in A", da.p, a_bytes, args->a },
      { "in B", db.p, b_bytes, args->b },
    };
    for (const auto &z : zones)
      {
        TL_GPU_TRY (cudaMemcpy (host.data (), z.dev, z.bytes, cudaMemcpyDeviceToHost),
                    "checking the memory around C");
        size_t changed = 0, first = 0;
        for (size_t i = 0; i < z.bytes; i++)
          {
            unsigned char want = z.want ? ((const unsigned char *) z.want)[i] : GUARD_BYTE;
            if (host[i] != want && changed++ == 0)
              first = i;
          }
        if (changed > 0)
          return outside_c (z.what, z.dev == dc.p ? (long long) first - (long long) z.bytes
                                                  : (long long) first, changed);
      }
    return TL_GPU_OK;
  }

  // The sentence for a write outside C: where, in elements of the dtype.
  TlGpuStatus outside_c (const char *where, long long first_byte, size_t changed)
  {
    const long long es = (long long) dtype_size (args->dtype);
    if (strcmp (where, "before C") == 0)
      return tl_gpu_fail (TL_GPU_LAUNCH_FAILED,
                          "%s wrote outside C: %zu bytes before C[0, 0] changed, the farthest "
                          "%lld elements before it; check the row and column bounds of its "
                          "stores",
                          info->id, changed, (-first_byte + es - 1) / es);
    if (strcmp (where, "after C") == 0)
      return tl_gpu_fail (TL_GPU_LAUNCH_FAILED,
                          "%s wrote outside C: %zu bytes after C[%d, %d] changed, from element "
                          "%lld past its end on; check the row and column bounds of its stores",
                          info->id, changed, args->m - 1, args->n - 1, first_byte / es + 1);
    const int cols = where[3] == 'A' ? args->k : args->n;
    const long long at = first_byte / es;
    return tl_gpu_fail (TL_GPU_LAUNCH_FAILED,
                        "%s wrote into its input: %zu bytes %s changed, the first at %s[%lld, "
                        "%lld]; a kernel must leave A and B as they are",
                        info->id, changed, where, where + 3, at / cols, at % cols);
  }

  // 9. download C, timed
  TlGpuStatus download ()
  {
    if (args->c == nullptr)
      return TL_GPU_OK;
    progress (TL_GPU_STAGE_DOWNLOAD, 0, 1);
    TL_GPU_TRY (cudaEventRecord (ev.start, launch.stream), "recording an event");
    TL_GPU_TRY (cudaMemcpyAsync (args->c, launch.c, c_bytes, cudaMemcpyDeviceToHost, launch.stream),
                "downloading C");
    TL_GPU_TRY (cudaEventRecord (ev.stop, launch.stream), "recording an event");
    TL_GPU_TRY (ev.elapsed (&download_ms), "downloading C");
    progress (TL_GPU_STAGE_DOWNLOAD, 1, 1);
    return TL_GPU_OK;
  }

  // The numbers, malloc'd: the caller frees them with
  // tl_gpu_gemm_result_clear, which may be compiled as C.
  TlGpuStatus hand_over (TlGpuGemmResult *out)
  {
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
    out->upload_ms = upload_ms;
    out->download_ms = download_ms;
    out->n_times = (int) times.size ();
    out->times_ms = t;
    out->instrumented_median_ms = instrumented_median;
    // 7. facts of the main kernel (after prepare: attributes the rung set,
    // e.g. a raised shared-memory limit, are in place)
    fill_launch_facts (device, shape, &out->launch);
    out->n_blocks = records.size ();
    out->blocks = blocks;
    out->counters = counters;
    out->plan = launch.plan;
    return TL_GPU_OK;
  }
};

TlGpuStatus
tl_gpu_gemm_run_rung (TlGpuDevice *device, const TlGpuKernelInfo *info, const TlGemmRung *rung,
                      const void *user, bool guarded, const TlGpuGemmArgs *args,
                      TlGpuGemmResult *out_result)
{
  GemmRun run;
  run.device = device;
  run.info = info;
  run.rung = rung;
  run.user = user;
  run.guarded = guarded;
  run.args = args;
  TlGpuStatus st = check_args (info, device, args);
  if (st != TL_GPU_OK)
    return st;

  // Empty products need no launch: C is m×n of zeros when k = 0, and has no
  // elements when m or n is 0.
  if (args->m == 0 || args->n == 0 || args->k == 0)
    {
      const size_t c_bytes = (size_t) args->m * args->n * dtype_size (args->dtype);
      if (args->c != nullptr && c_bytes > 0)
        memset (args->c, 0, c_bytes);
      tl_gpu_clear_message ();
      return TL_GPU_OK;
    }

  TL_GPU_TRY (cudaSetDevice (device->ordinal), "cudaSetDevice");
  if ((st = run.check_rung ()) != TL_GPU_OK || (st = run.allocate ()) != TL_GPU_OK
      || (st = run.upload_and_prepare ()) != TL_GPU_OK || (st = run.warm_up ()) != TL_GPU_OK
      || (st = run.timed_runs ()) != TL_GPU_OK
      || (run.instrument && (st = run.instrumented_runs ()) != TL_GPU_OK)
      || (st = run.count ()) != TL_GPU_OK || (st = run.check_guards ()) != TL_GPU_OK
      || (st = run.download ()) != TL_GPU_OK || (st = run.hand_over (out_result)) != TL_GPU_OK)
    return st;
  if (device->ordinal >= 0 && device->ordinal < COUNTED_DEVICES)
    gemm_count[device->ordinal]++;
  tl_gpu_clear_message ();
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
  const TlGemmRung *rung = rung_of (info);
  if (rung == nullptr)
    return tl_gpu_fail (TL_GPU_BAD_SHAPE, "%s is not built into this Tilelab", kernel_id);
  return tl_gpu_gemm_run_rung (device, info, rung, nullptr, false, args, out_result);
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
