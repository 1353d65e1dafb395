// tl-gpu-counters.cu — hardware counters of one multiply, through CUPTI's
// range profiler (docs/counters.md is the long version).
//
// A GPU counts what its units do — bytes through DRAM and L2, shared-memory
// wavefronts, warp states — in performance monitors that a profiler reads.
// Nsight Compute reads them through CUPTI; so do we, with the same metric
// names (gpu/tl-gpu-counter-list.h), so every number can be checked with
// `ncu --metrics NAME`.
//
// One counting, step by step:
//   1. CUPTI is opened with dlopen the first time counters are asked for
//      (never at start-up: a laptop without CUDA never loads it) and the
//      profiler is initialised once per process;
//   2. the chip's name and its counter-availability image: this is where a
//      driver that keeps the counters to administrators says so
//      (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, NVIDIA's ERR_NVGPUCTRPERM);
//   3. the host side turns our metric names into a configuration image;
//      metrics this chip does not have are left out (they read NaN);
//   4. the range profiler, in user range and user replay: one range around
//      the whole multiply (all its kernels), and we launch the multiply
//      once per pass — the hardware has only so many counters, so ~40
//      metrics need several passes.  Before every pass, outside the range,
//      `before` runs (C poisoned, L2 flushed), so each pass starts from the
//      same cold cache, as Nsight Compute's --cache-control all does;
//   5. decode and evaluate: one value per metric for the range.
// Nothing here prints; a failure to count never fails the run: it is a
// state and a sentence in TlGpuCounters.
#include "tl-gpu-internal.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <math.h>
#include <algorithm>
#include <mutex>
#include <nvtx3/nvToolsExt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

namespace {

// CUPTI's parameter structs: zeroed, with their size (CUPTI's version check).
template <typename T>
T
cupti_params (size_t size)
{
  T p;
  memset (&p, 0, sizeof p);
  p.structSize = size;
  return p;
}
#define TL_CUPTI_PARAMS(T) cupti_params<T> (T##_STRUCT_SIZE)

// ---- CUPTI, loaded on demand ----------------------------------------------

#define TL_CUPTI_FUNCTIONS(X)                                                                      \
  X (cuptiGetResultString)                                                                         \
  X (cuptiProfilerInitialize)                                                                      \
  X (cuptiDeviceGetChipName)                                                                       \
  X (cuptiProfilerGetCounterAvailability)                                                          \
  X (cuptiProfilerHostInitialize)                                                                  \
  X (cuptiProfilerHostDeinitialize)                                                                \
  X (cuptiProfilerHostGetMetricProperties)                                                         \
  X (cuptiProfilerHostConfigAddMetrics)                                                            \
  X (cuptiProfilerHostGetConfigImageSize)                                                          \
  X (cuptiProfilerHostGetConfigImage)                                                              \
  X (cuptiProfilerHostGetNumOfPasses)                                                              \
  X (cuptiProfilerHostEvaluateToGpuValues)                                                         \
  X (cuptiRangeProfilerEnable)                                                                     \
  X (cuptiRangeProfilerDisable)                                                                    \
  X (cuptiRangeProfilerGetCounterDataSize)                                                         \
  X (cuptiRangeProfilerCounterDataImageInitialize)                                                 \
  X (cuptiRangeProfilerSetConfig)                                                                  \
  X (cuptiRangeProfilerStart)                                                                      \
  X (cuptiRangeProfilerStop)                                                                       \
  X (cuptiRangeProfilerPushRange)                                                                  \
  X (cuptiRangeProfilerPopRange)                                                                   \
  X (cuptiRangeProfilerDecodeData)                                                                 \
  X (cuptiRangeProfilerGetCounterDataInfo)

struct Cupti
{
#define TL_CUPTI_POINTER(name) decltype (&::name) name = nullptr;
  TL_CUPTI_FUNCTIONS (TL_CUPTI_POINTER)
#undef TL_CUPTI_POINTER
  bool ready = false;
  char why[384] = ""; // why not ready
};

// Where libcupti may be: the dynamic linker's path first, then the usual
// CUDA installs.  TL_CUPTI_LIBRARY names the one file to use instead (and
// lets a test point at a missing file).
void *
open_cupti (char *tried, size_t tried_size)
{
  const char *forced = getenv ("TL_CUPTI_LIBRARY");
  static const char *const places[] = {
    "libcupti.so.13",
    "libcupti.so",
    "/usr/local/cuda/lib64/libcupti.so.13",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
    "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13",
  };
  if (forced != nullptr && forced[0] != '\0')
    {
      snprintf (tried, tried_size, "%s", forced);
      return dlopen (forced, RTLD_NOW | RTLD_LOCAL);
    }
  snprintf (tried, tried_size, "libcupti.so.13 on the library path and in /usr/local/cuda");
  for (const char *p : places)
    if (void *lib = dlopen (p, RTLD_NOW | RTLD_LOCAL))
      return lib;
  return nullptr;
}

void
load_cupti (Cupti *c)
{
  char tried[256];
  void *lib = open_cupti (tried, sizeof tried);
  if (lib == nullptr)
    {
      snprintf (c->why, sizeof c->why,
                "NVIDIA's CUPTI library (part of the CUDA toolkit) was not found (looked for %s)",
                tried);
      return;
    }
#define TL_CUPTI_LOOKUP(name)                                                                      \
  c->name = (decltype (&::name)) dlsym (lib, #name);                                               \
  if (c->name == nullptr)                                                                          \
    {                                                                                              \
      snprintf (c->why, sizeof c->why,                                                             \
                "the CUPTI library found (%s) is too old: it has no %s (CUDA 12.6 or newer "       \
                "is needed)",                                                                      \
                tried, #name);                                                                     \
      return;                                                                                      \
    }
  TL_CUPTI_FUNCTIONS (TL_CUPTI_LOOKUP)
#undef TL_CUPTI_LOOKUP
  auto init = TL_CUPTI_PARAMS (CUpti_Profiler_Initialize_Params);
  CUptiResult r = c->cuptiProfilerInitialize (&init);
  if (r != CUPTI_SUCCESS)
    {
      const char *text = "?";
      c->cuptiGetResultString (r, &text);
      snprintf (c->why, sizeof c->why, "CUPTI's profiler could not start: %s", text);
      return;
    }
  c->ready = true;
}

// The process's CUPTI, loaded on the first call (the worker thread).
Cupti &
cupti ()
{
  static Cupti c;
  static std::once_flag once;
  std::call_once (once, load_cupti, &c);
  return c;
}

// ---- one counting -------------------------------------------------------------


// Sets out's state and message; returns false so callers can `return fail (…)`.
__attribute__ ((format (printf, 3, 4))) bool
fail (TlGpuCounters *out, TlGpuCountersState state, const char *format, ...)
{
  out->state = state;
  va_list ap;
  va_start (ap, format);
  vsnprintf (out->message, sizeof out->message, format, ap);
  va_end (ap);
  return false;
}

// A CUPTI failure as a sentence: insufficient privileges is its own state.
bool
cupti_fail (TlGpuCounters *out, CUptiResult r, const char *what)
{
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    return fail (out, TL_GPU_COUNTERS_NOT_PERMITTED,
                 "this machine's NVIDIA driver lets only administrators read the GPU's "
                 "performance counters (ERR_NVGPUCTRPERM); an administrator can allow them: "
                 "https://developer.nvidia.com/ERR_NVGPUCTRPERM");
  const char *text = "?";
  cupti ().cuptiGetResultString (r, &text);
  if (r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_NOT_COMPATIBLE
      || r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    return fail (out, TL_GPU_COUNTERS_UNAVAILABLE, "%s: %s", what, text);
  return fail (out, TL_GPU_COUNTERS_FAILED, "CUPTI failed %s: %s", what, text);
}

#define TL_CUPTI_TRY(call, params, what)                                                           \
  do                                                                                               \
    {                                                                                              \
      CUptiResult tl_r_ = cupti ().call (&(params));                                               \
      if (tl_r_ != CUPTI_SUCCESS)                                                                  \
        return cupti_fail (out, tl_r_, (what));                                                    \
    }                                                                                              \
  while (0)

// The CUDA context the runtime made current for the device.
CUcontext
current_context ()
{
  typedef CUresult (*CtxGetCurrent) (CUcontext *);
  static CtxGetCurrent get = nullptr;
  if (get == nullptr)
    {
      void *p = nullptr;
      cudaDriverEntryPointQueryResult q;
      if (cudaGetDriverEntryPointByVersion ("cuCtxGetCurrent", &p, 12000, cudaEnableDefault, &q)
            != cudaSuccess
          || q != cudaDriverEntryPointSuccess)
        return nullptr;
      get = (CtxGetCurrent) p;
    }
  CUcontext ctx = nullptr;
  if (get (&ctx) != CUDA_SUCCESS)
    return nullptr;
  return ctx;
}

// Everything one counting holds; released in the destructor, whatever failed.
struct Session
{
  CUcontext ctx = nullptr;
  std::string chip;
  std::vector<uint8_t> availability, config, counter_data;
  CUpti_Profiler_Host_Object *host = nullptr;
  CUpti_RangeProfiler_Object *profiler = nullptr;
  std::vector<int> ids;            // counters this chip has, in the order of `names`
  std::vector<const char *> names; // their metric names

  ~Session ()
  {
    if (profiler != nullptr && !tl_gpu_is_lost ())
      {
        auto p = TL_CUPTI_PARAMS (CUpti_RangeProfiler_Disable_Params);
        p.pRangeProfilerObject = profiler;
        cupti ().cuptiRangeProfilerDisable (&p);
      }
    if (host != nullptr)
      {
        auto p = TL_CUPTI_PARAMS (CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = host;
        cupti ().cuptiProfilerHostDeinitialize (&p);
      }
  }
};

// Steps 2 and 3: the chip, its availability image, our metrics on it.
bool
build_config (Session &s, int ordinal, TlGpuCounters *out)
{
  auto chip = TL_CUPTI_PARAMS (CUpti_Device_GetChipName_Params);
  chip.deviceIndex = (size_t) ordinal;
  TL_CUPTI_TRY (cuptiDeviceGetChipName, chip, "naming the GPU's chip");
  s.chip = chip.pChipName;
  snprintf (out->chip, sizeof out->chip, "%s", chip.pChipName);

  auto avail = TL_CUPTI_PARAMS (CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = s.ctx;
  TL_CUPTI_TRY (cuptiProfilerGetCounterAvailability, avail, "asking which counters exist");
  s.availability.resize (avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = s.availability.data ();
  TL_CUPTI_TRY (cuptiProfilerGetCounterAvailability, avail, "asking which counters exist");

  auto hi = TL_CUPTI_PARAMS (CUpti_Profiler_Host_Initialize_Params);
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = s.chip.c_str ();
  hi.pCounterAvailabilityImage = s.availability.data ();
  TL_CUPTI_TRY (cuptiProfilerHostInitialize, hi, "preparing the metrics");
  s.host = hi.pHostObject;

  for (int id = 0; id < TL_GPU_N_COUNTERS; id++)
    {
      const char *metric = tl_gpu_counter_info (id)->metric;
      auto mp = TL_CUPTI_PARAMS (CUpti_Profiler_Host_GetMetricProperties_Params);
      mp.pHostObject = s.host;
      mp.pMetricName = metric;
      if (cupti ().cuptiProfilerHostGetMetricProperties (&mp) != CUPTI_SUCCESS)
        continue; // not on this chip: stays NaN
      s.ids.push_back (id);
      s.names.push_back (metric);
    }
  if (s.names.empty ())
    return fail (out, TL_GPU_COUNTERS_UNAVAILABLE, "CUPTI knows none of Tilelab's metrics on %s",
                 s.chip.c_str ());

  auto add = TL_CUPTI_PARAMS (CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = s.host;
  add.ppMetricNames = s.names.data ();
  add.numMetrics = s.names.size ();
  TL_CUPTI_TRY (cuptiProfilerHostConfigAddMetrics, add, "scheduling the metrics");
  auto size = TL_CUPTI_PARAMS (CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = s.host;
  TL_CUPTI_TRY (cuptiProfilerHostGetConfigImageSize, size, "scheduling the metrics");
  s.config.resize (size.configImageSize);
  auto img = TL_CUPTI_PARAMS (CUpti_Profiler_Host_GetConfigImage_Params);
  img.pHostObject = s.host;
  img.configImageSize = s.config.size ();
  img.pConfigImage = s.config.data ();
  TL_CUPTI_TRY (cuptiProfilerHostGetConfigImage, img, "scheduling the metrics");
  auto np = TL_CUPTI_PARAMS (CUpti_Profiler_Host_GetNumOfPasses_Params);
  np.configImageSize = s.config.size ();
  np.pConfigImage = s.config.data ();
  TL_CUPTI_TRY (cuptiProfilerHostGetNumOfPasses, np, "counting the passes");
  out->passes = (int) np.numOfPasses;
  return true;
}

// Step 4's set-up: the profiler on the context, one range, user replay.
bool
enable_profiler (Session &s, TlGpuCounters *out)
{
  auto en = TL_CUPTI_PARAMS (CUpti_RangeProfiler_Enable_Params);
  en.ctx = s.ctx;
  TL_CUPTI_TRY (cuptiRangeProfilerEnable, en, "enabling the range profiler");
  s.profiler = en.pRangeProfilerObject;

  auto ds = TL_CUPTI_PARAMS (CUpti_RangeProfiler_GetCounterDataSize_Params);
  ds.pRangeProfilerObject = s.profiler;
  ds.pMetricNames = s.names.data ();
  ds.numMetrics = s.names.size ();
  ds.maxNumOfRanges = 1;
  ds.maxNumRangeTreeNodes = 1;
  TL_CUPTI_TRY (cuptiRangeProfilerGetCounterDataSize, ds, "sizing the counter data");
  s.counter_data.resize (ds.counterDataSize);
  auto ci = TL_CUPTI_PARAMS (CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  ci.pRangeProfilerObject = s.profiler;
  ci.counterDataSize = s.counter_data.size ();
  ci.pCounterData = s.counter_data.data ();
  TL_CUPTI_TRY (cuptiRangeProfilerCounterDataImageInitialize, ci, "preparing the counter data");

  auto sc = TL_CUPTI_PARAMS (CUpti_RangeProfiler_SetConfig_Params);
  sc.pRangeProfilerObject = s.profiler;
  sc.configSize = s.config.size ();
  sc.pConfig = s.config.data ();
  sc.counterDataImageSize = s.counter_data.size ();
  sc.pCounterDataImage = s.counter_data.data ();
  sc.range = CUPTI_UserRange;
  sc.replayMode = CUPTI_UserReplay;
  sc.maxRangesPerPass = 1;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  TL_CUPTI_TRY (cuptiRangeProfilerSetConfig, sc, "configuring the range profiler");
  return true;
}

// Step 4's passes.  A failed launch is the run's error (returned as a
// status); a CUPTI failure only sets out's state.
TlGpuStatus
replay (Session &s, const TlGpuCountedWork *work, TlGpuCounters *out, bool *counted)
{
  *counted = false;
  const int most = std::max (1, out->passes) + 2; // a safety net, never reached in practice
  bool all_submitted = false;
  for (int pass = 0; pass < most && !all_submitted; pass++)
    {
      TlGpuStatus st = work->before (work->user);
      if (st == TL_GPU_OK)
        st = tl_gpu_from_cuda (cudaStreamSynchronize (work->stream), "preparing a counted launch");
      if (st != TL_GPU_OK)
        return st;
      auto start = TL_CUPTI_PARAMS (CUpti_RangeProfiler_Start_Params);
      start.pRangeProfilerObject = s.profiler;
      auto push = TL_CUPTI_PARAMS (CUpti_RangeProfiler_PushRange_Params);
      push.pRangeProfilerObject = s.profiler;
      push.pRangeName = "multiply";
      CUptiResult r = cupti ().cuptiRangeProfilerStart (&start);
      if (r == CUPTI_SUCCESS)
        r = cupti ().cuptiRangeProfilerPushRange (&push);
      if (r != CUPTI_SUCCESS)
        {
          cupti_fail (out, r, "starting a pass");
          return TL_GPU_OK;
        }
      st = work->launch (work->user);
      if (st == TL_GPU_OK)
        st = tl_gpu_from_cuda (cudaStreamSynchronize (work->stream), "the counted launch");
      auto pop = TL_CUPTI_PARAMS (CUpti_RangeProfiler_PopRange_Params);
      pop.pRangeProfilerObject = s.profiler;
      auto stop = TL_CUPTI_PARAMS (CUpti_RangeProfiler_Stop_Params);
      stop.pRangeProfilerObject = s.profiler;
      if (tl_gpu_is_lost ())
        return st;
      r = cupti ().cuptiRangeProfilerPopRange (&pop);
      CUptiResult r2 = cupti ().cuptiRangeProfilerStop (&stop);
      if (st != TL_GPU_OK)
        return st;
      if (r != CUPTI_SUCCESS || r2 != CUPTI_SUCCESS)
        {
          cupti_fail (out, r != CUPTI_SUCCESS ? r : r2, "ending a pass");
          return TL_GPU_OK;
        }
      all_submitted = stop.isAllPassSubmitted != 0;
      out->passes = pass + 1;
    }
  if (!all_submitted)
    fail (out, TL_GPU_COUNTERS_FAILED, "CUPTI asked for more than %d passes", most);
  else
    *counted = true;
  return TL_GPU_OK;
}

// Step 5: the one range's values.
bool
evaluate (Session &s, TlGpuCounters *out)
{
  auto dd = TL_CUPTI_PARAMS (CUpti_RangeProfiler_DecodeData_Params);
  dd.pRangeProfilerObject = s.profiler;
  TL_CUPTI_TRY (cuptiRangeProfilerDecodeData, dd, "decoding the counters");
  if (dd.numOfRangeDropped > 0)
    return fail (out, TL_GPU_COUNTERS_FAILED, "CUPTI dropped the counted range");
  auto info = TL_CUPTI_PARAMS (CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = s.counter_data.data ();
  info.counterDataImageSize = s.counter_data.size ();
  TL_CUPTI_TRY (cuptiRangeProfilerGetCounterDataInfo, info, "reading the counter data");
  if (info.numTotalRanges != 1)
    return fail (out, TL_GPU_COUNTERS_FAILED, "CUPTI returned %zu ranges instead of one",
                 info.numTotalRanges);
  std::vector<double> values (s.names.size (), NAN);
  auto ev = TL_CUPTI_PARAMS (CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  ev.pHostObject = s.host;
  ev.pCounterDataImage = s.counter_data.data ();
  ev.counterDataImageSize = s.counter_data.size ();
  ev.rangeIndex = 0;
  ev.ppMetricNames = s.names.data ();
  ev.numMetrics = s.names.size ();
  ev.pMetricValues = values.data ();
  TL_CUPTI_TRY (cuptiProfilerHostEvaluateToGpuValues, ev, "evaluating the counters");
  for (size_t i = 0; i < s.ids.size (); i++)
    out->value[s.ids[i]] = values[i];
  return true;
}

} // namespace

// Reads the buffer once.  Reading twice L2's size evicts every line L2
// held — the dirty ones (C's poison, a memset flush) are written back now,
// not during the counted launch — and leaves only clean lines behind, the
// state Nsight Compute's --cache-control all starts each pass from.  The
// store is never taken in practice and would only touch the buffer itself;
// it keeps the compiler from dropping the loads.
__global__ void
clean_l2_kernel (float4 *buffer, size_t n)
{
  float acc = 0.0f;
  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const float4 v = buffer[i];
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == 1.25e-38f)
    buffer[0].x = acc;
}

TlGpuStatus
tl_gpu_counters_clean_l2 (const TlGpuDevice *device, void *buffer, size_t bytes)
{
  clean_l2_kernel<<<device->sm_count * 4, 512, 0, device->stream>>> ((float4 *) buffer,
                                                                      bytes / sizeof (float4));
  return tl_gpu_from_cuda (cudaGetLastError (), "cleaning L2 before a counted launch");
}

void
tl_gpu_counters_reset (TlGpuCounters *out, TlGpuCountersState state)
{
  memset (out, 0, sizeof *out);
  out->state = state;
  for (double &v : out->value)
    v = NAN;
}

TlGpuStatus
tl_gpu_counters_collect (TlGpuDevice *device, const TlGpuCountedWork *work, TlGpuCounters *out)
{
  tl_gpu_counters_reset (out, TL_GPU_COUNTERS_FAILED);
  Cupti &c = cupti ();
  if (!c.ready)
    {
      fail (out, TL_GPU_COUNTERS_UNAVAILABLE, "%s", c.why);
      return TL_GPU_OK;
    }

  // The range is also an NVTX range, so Nsight tools can find the launch.
  nvtxRangePushA (work->name);
  Session s;
  s.ctx = current_context ();
  TlGpuStatus st = TL_GPU_OK;
  bool counted = false;
  if (s.ctx == nullptr)
    fail (out, TL_GPU_COUNTERS_FAILED, "no CUDA context is current on this thread");
  else if (build_config (s, device->ordinal, out) && enable_profiler (s, out))
    {
      st = replay (s, work, out, &counted);
      if (st == TL_GPU_OK && counted && evaluate (s, out))
        {
          out->state = TL_GPU_COUNTERS_MEASURED;
          out->message[0] = '\0';
        }
    }
  nvtxRangePop ();
  return st;
}

TlGpuStatus
tl_gpu_counters_mark (const TlGpuCountedWork *work)
{
  TlGpuStatus st = work->before (work->user);
  if (st == TL_GPU_OK)
    st = tl_gpu_from_cuda (cudaStreamSynchronize (work->stream), "preparing the marked launch");
  if (st != TL_GPU_OK)
    return st;
  nvtxRangePushA (work->name);
  st = work->launch (work->user);
  if (st == TL_GPU_OK)
    st = tl_gpu_from_cuda (cudaStreamSynchronize (work->stream), "the marked launch");
  nvtxRangePop ();
  return st;
}
