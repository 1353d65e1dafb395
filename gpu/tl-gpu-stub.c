/* tl-gpu-stub.c — the door's answers when there is no CUDA to call.
 *
 * Every device call answers TL_GPU_NO_DEVICE; the CPU backend then serves
 * every view.  The registry (tl-gpu-registry.c) is shared with the CUDA
 * build, so the ladder is still listed.  The stub is a backend table
 * (tl-gpu-backend.h): the loader (tl-gpu-loader.c) forwards to it in a build
 * without CUDA, and in a CUDA build when the CUDA module cannot be opened —
 * then tl_gpu_stub_set_reason says why, and every "no device" says so.
 *
 * For tests, TL_GPU_STUB_DEVICES=N pretends N devices (tl-gpu.h says what
 * they do): enough to check which ordinal a job opens and runs on, and
 * what a record names, on a machine without a GPU.  A simulated GEMM is a
 * plain triple loop on the CPU, so its C is the true product.
 */
#include "tl-gpu-backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIMULATED 8
/* marks a string for translation; src/device/tl-gpu-session.c translates
 * the reason when it says there is no device */
#define N_(text) text

#if TL_GPU_LOADS_MODULE
/* a CUDA build: nothing failed until the loader says why the module did not open */
#define TL_GPU_STUB_REASON ""
#else
#define TL_GPU_STUB_REASON N_("Tilelab was built without CUDA (nvcc was not found at build time)")
#endif

/* why there is no device (tl_gpu_stub_set_reason) */
static char reason[1024] = TL_GPU_STUB_REASON;

struct TlGpuDevice
{
  int ordinal;
};

/* Simulated devices: their count (read once), the lost latch and the GEMM
 * counters.  The door is used from one worker thread per runner; a test
 * runs one runner, so plain ints suffice. */
static int simulated = -1;
static int lost;
static int gemm_count[MAX_SIMULATED];
static char message[1024];

static int
simulated_devices (void)
{
  if (simulated < 0)
    {
      const char *env = getenv ("TL_GPU_STUB_DEVICES");
      int n = env ? atoi (env) : 0;
      simulated = n < 0 ? 0 : n > MAX_SIMULATED ? MAX_SIMULATED : n;
    }
  return simulated;
}

static TlGpuStatus
fail (TlGpuStatus status, const char *text)
{
  snprintf (message, sizeof message, "%s", text);
  return status;
}

/* TL_GPU_OK when device is one of the simulated ones and nothing faulted. */
static TlGpuStatus
usable (const TlGpuDevice *device)
{
  if (simulated_devices () == 0)
    return fail (TL_GPU_NO_DEVICE, reason);
  if (lost)
    return fail (TL_GPU_DEVICE_LOST, "the simulated GPU faulted (tl_gpu_debug_fault)");
  if (device == NULL)
    return fail (TL_GPU_NO_DEVICE, "no GPU is open");
  return TL_GPU_OK;
}

static const char *
stub_last_message (void)
{
  if (simulated_devices () == 0)
    return reason;
  return message;
}

static int
stub_kernel_available (const char *id)
{
  return simulated_devices () > 0 && tl_gpu_kernel_find (id) != NULL;
}

static int
stub_is_lost (void)
{
  return lost;
}

static TlGpuStatus
stub_device_count (int *out_count)
{
  *out_count = 0;
  if (simulated_devices () == 0)
    return TL_GPU_NO_DEVICE;
  if (lost)
    return fail (TL_GPU_DEVICE_LOST, "the simulated GPU faulted (tl_gpu_debug_fault)");
  *out_count = simulated_devices ();
  return TL_GPU_OK;
}

static TlGpuStatus
stub_device_facts (int ordinal, TlGpuFacts *out_facts)
{
  memset (out_facts, 0, sizeof *out_facts);
  int count = 0;
  TlGpuStatus status = stub_device_count (&count);
  if (status != TL_GPU_OK)
    return status;
  if (ordinal < 0 || ordinal >= count)
    {
      snprintf (message, sizeof message, "there is no GPU %d (%d found)", ordinal, count);
      return TL_GPU_NO_DEVICE;
    }
  TlGpuFacts *f = out_facts;
  f->ordinal = ordinal;
  snprintf (f->name, sizeof f->name, "Simulated GPU %d", ordinal);
  f->cc_major = 9;
  f->cc_minor = 0;
  f->sm_count = 4 + ordinal;
  f->warp_size = 32;
  f->max_threads_per_block = 1024;
  f->max_threads_per_sm = 2048;
  f->total_mem_bytes = f->free_mem_bytes = (uint64_t) 1 << 30;
  return TL_GPU_OK;
}

static TlGpuStatus
stub_device_open (int ordinal, TlGpuDevice **out_device)
{
  *out_device = NULL;
  TlGpuFacts facts;
  TlGpuStatus status = stub_device_facts (ordinal, &facts);
  if (status != TL_GPU_OK)
    return status;
  TlGpuDevice *device = calloc (1, sizeof *device);
  if (device == NULL)
    return fail (TL_GPU_OUT_OF_MEMORY, "out of host memory");
  device->ordinal = ordinal;
  *out_device = device;
  return TL_GPU_OK;
}

static void
stub_device_close (TlGpuDevice *device)
{
  free (device);
}

static TlGpuStatus
stub_device_health (TlGpuDevice *device)
{
  return usable (device);
}

static TlGpuStatus
stub_debug_fault (TlGpuDevice *device)
{
  TlGpuStatus status = usable (device);
  if (status != TL_GPU_OK)
    return status;
  lost = 1;
  return fail (TL_GPU_DEVICE_LOST, "the simulated GPU faulted (tl_gpu_debug_fault)");
}

static int
stub_debug_gemm_count (int ordinal)
{
  return ordinal >= 0 && ordinal < MAX_SIMULATED ? gemm_count[ordinal] : 0;
}

/* ---- a simulated GEMM: the triple loop, int32 wrapping modulo 2³² ----- */

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void
triple_loop (const TlGpuGemmArgs *args)
{
  const int m = args->m, n = args->n, k = args->k;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      {
        size_t at = (size_t) i * n + j;
        if (args->dtype == TL_GPU_INT32)
          {
            uint32_t acc = 0;
            for (int p = 0; p < k; p++)
              acc += (uint32_t) ((const int32_t *) args->a)[(size_t) i * k + p]
                     * (uint32_t) ((const int32_t *) args->b)[(size_t) p * n + j];
            ((int32_t *) args->c)[at] = (int32_t) acc;
          }
        else if (args->dtype == TL_GPU_FLOAT32)
          {
            float acc = 0.0f;
            for (int p = 0; p < k; p++)
              acc += ((const float *) args->a)[(size_t) i * k + p]
                     * ((const float *) args->b)[(size_t) p * n + j];
            ((float *) args->c)[at] = acc;
          }
        else
          {
            double acc = 0.0;
            for (int p = 0; p < k; p++)
              acc += ((const double *) args->a)[(size_t) i * k + p]
                     * ((const double *) args->b)[(size_t) p * n + j];
            ((double *) args->c)[at] = acc;
          }
      }
}

static void
stub_gemm_result_clear (TlGpuGemmResult *result)
{
  free (result->times_ms);
  memset (result, 0, sizeof *result);
}

static TlGpuStatus
stub_gemm_run (TlGpuDevice *device, const char *kernel_id, const TlGpuGemmArgs *args,
                 TlGpuGemmResult *out_result)
{
  memset (out_result, 0, sizeof *out_result);
  TlGpuStatus status = usable (device);
  if (status != TL_GPU_OK)
    return status;
  const TlGpuKernelInfo *info = tl_gpu_kernel_find (kernel_id);
  if (info == NULL || !(info->dtypes & TL_GPU_DTYPE_BIT (args->dtype)))
    return fail (TL_GPU_BAD_SHAPE, "the simulated GPU does not know this kernel or dtype");
  if (args->m < 0 || args->n < 0 || args->k < 0 || args->repeats < 1)
    return fail (TL_GPU_BAD_SHAPE, "bad shape or repeats");
  /* a planned rung plans as on a GPU (of the simulated one's size), so its
   * record carries a plan for the views to draw */
  TlGpuFacts facts;
  stub_device_facts (device->ordinal, &facts);
  if (tl_gpu_gemm_plan_choose (kernel_id, args->m, args->n, args->k, &facts, args->plan,
                               &out_result->plan)
      != TL_GPU_OK)
    {
      snprintf (message, sizeof message, "%s has no plan \"%s\"", kernel_id,
                args->plan ? args->plan : "");
      return TL_GPU_BAD_SHAPE;
    }
  out_result->times_ms = calloc ((size_t) args->repeats, sizeof (double));
  if (out_result->times_ms == NULL)
    return fail (TL_GPU_OUT_OF_MEMORY, "out of host memory");
  for (int r = 0; r < args->repeats; r++)
    {
      if (args->cancelled && args->cancelled (args->user_data))
        {
          stub_gemm_result_clear (out_result);
          return fail (TL_GPU_CANCELLED, "cancelled");
        }
      if (args->progress)
        args->progress (TL_GPU_STAGE_RUN, r, args->repeats, args->user_data);
      double t0 = now_ms ();
      if (args->c != NULL)
        triple_loop (args);
      out_result->times_ms[r] = now_ms () - t0;
    }
  out_result->n_times = args->repeats;
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    out_result->counters.value[i] = NAN;
  if (args->counters)
    {
      out_result->counters.state = TL_GPU_COUNTERS_UNAVAILABLE;
      snprintf (out_result->counters.message, sizeof out_result->counters.message,
                "a simulated GPU (TL_GPU_STUB_DEVICES) has no hardware counters");
    }
  gemm_count[device->ordinal]++;
  return TL_GPU_OK;
}

/* No device: nothing runs, so a recording's observer (args->observer) is
 * never called either.  The simulated devices run GEMMs only. */
static TlGpuStatus
stub_lu_run (TlGpuDevice *device, const char *kernel_id, const TlGpuLuArgs *args,
               TlGpuLuResult *out_result)
{
  memset (out_result, 0, sizeof *out_result);
  TlGpuStatus status = usable (device);
  return status != TL_GPU_OK ? status
                             : fail (TL_GPU_BAD_SHAPE, "the simulated GPU runs GEMMs only");
}

static void
stub_lu_result_clear (TlGpuLuResult *result)
{
  memset (result, 0, sizeof *result);
}

static TlGpuStatus
stub_lu_solve (TlGpuDevice *device, const TlGpuLuSolveArgs *args, double *out_ms)
{
  if (out_ms)
    *out_ms = 0.0;
  TlGpuStatus status = usable (device);
  return status != TL_GPU_OK ? status
                             : fail (TL_GPU_BAD_SHAPE, "the simulated GPU runs GEMMs only");
}

static TlGpuStatus
stub_rank (TlGpuDevice *device, const TlGpuRankArgs *args, TlGpuRankResult *out)
{
  if (out)
    memset (out, 0, sizeof *out);
  TlGpuStatus status = usable (device);
  return status != TL_GPU_OK ? status
                             : fail (TL_GPU_BAD_SHAPE, "the simulated GPU runs GEMMs only");
}

static void
stub_rank_result_clear (TlGpuRankResult *result)
{
  if (result)
    memset (result, 0, sizeof *result);
}

static TlGpuStatus
stub_lu_solve_bench (TlGpuDevice *device, const char *solver, const TlGpuLuSolveArgs *args,
                       int warmups, int repeats, double *times_ms)
{
  for (int r = 0; times_ms && r < repeats; r++)
    times_ms[r] = 0.0;
  return TL_GPU_NO_DEVICE;
}

static TlGpuStatus
stub_gfp_lu (TlGpuDevice *device, int m, int n, uint32_t p, uint32_t *a, int *ipiv,
               int *out_info, double *out_ms)
{
  if (out_info)
    *out_info = 0;
  if (out_ms)
    *out_ms = 0.0;
  TlGpuStatus status = usable (device);
  return status != TL_GPU_OK ? status
                             : fail (TL_GPU_BAD_SHAPE, "the simulated GPU runs GEMMs only");
}

/* ---- hardware counters: none without CUDA ---- */

static TlGpuStatus
stub_measure_bandwidth (TlGpuDevice *device, TlGpuBandwidth *out)
{
  if (out != NULL)
    memset (out, 0, sizeof *out);
  TlGpuStatus status = usable (device);
  return status != TL_GPU_OK
           ? status
           : fail (TL_GPU_NO_DEVICE, "a simulated GPU has no memory bandwidth to measure");
}

/* ---- user kernels: NVRTC is CUDA's ---- */

static void
stub_user_build_clear (TlGpuUserBuild *build)
{
  if (build == NULL)
    return;
  free (build->log);
  free (build->image);
  for (int d = 0; d < 3; d++)
    free (build->lowered[d]);
  memset (build, 0, sizeof *build);
}

/* With simulated devices (TL_GPU_STUB_DEVICES) compiling is simulated
 * too, so a kernel's whole way through a worker process can be tested
 * without CUDA: every source "compiles", each entry keeps the name it is
 * written with, and the image is a placeholder only the simulated GPU
 * runs (stub_user_gemm_run).  The log says it was simulated. */
static TlGpuStatus
simulate_compile (const TlGpuUserSource *source, TlGpuUserBuild *out)
{
  static const char image[] = "simulated cubin: the simulated GPU computes the product itself";
  out->compiled = 1;
  out->log = strdup ("simulated compile (TL_GPU_STUB_DEVICES): no ptxas report\n");
  out->image = malloc (sizeof image);
  if (out->log == NULL || out->image == NULL)
    {
      stub_user_build_clear (out);
      return fail (TL_GPU_OUT_OF_MEMORY, "out of memory");
    }
  memcpy (out->image, image, sizeof image);
  out->image_size = sizeof image;
  for (int d = 0; d < 3; d++)
    if (source->entries[d] != NULL && (out->lowered[d] = strdup (source->entries[d])) == NULL)
      {
        stub_user_build_clear (out);
        return fail (TL_GPU_OUT_OF_MEMORY, "out of memory");
      }
  return TL_GPU_OK;
}

static TlGpuStatus
stub_user_compile (const TlGpuUserSource *source, TlGpuUserBuild *out)
{
  if (out != NULL)
    memset (out, 0, sizeof *out);
  if (out != NULL && source != NULL && simulated_devices () > 0)
    return simulate_compile (source, out);
  char text[sizeof message];
  snprintf (text, sizeof text, "compiling a kernel needs CUDA's run-time compiler (NVRTC)%s%.900s",
            reason[0] ? ": " : "", reason);
  return fail (TL_GPU_NO_DEVICE, text);
}


static void
sleep_ms (long ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep (&t, NULL);
}

/* A simulated GPU cannot run a cubin: it computes the product with the
 * triple loop, as for a rung, so the worker process and its pipes can be
 * tested without a GPU.  Entry names act out what a kernel does to the
 * process running it: "tilelab_stub_hang" never returns from its first
 * warm-up launch (for the watchdog), "tilelab_stub_crash" aborts the
 * process, and "tilelab_stub_slow_load" takes 1.5 s before its first
 * launch, as a module load on a busy machine may (which is no hang). */
static TlGpuStatus
stub_user_gemm_run (TlGpuDevice *device, const TlGpuUserLaunch *kernel,
                    const TlGpuGemmArgs *args, TlGpuGemmResult *out_result)
{
  if (out_result != NULL)
    memset (out_result, 0, sizeof *out_result);
  TlGpuStatus status = usable (device);
  if (status != TL_GPU_OK)
    return status;
  if (strcmp (kernel->entry, "tilelab_stub_crash") == 0)
    abort ();
  if (strcmp (kernel->entry, "tilelab_stub_slow_load") == 0)
    sleep_ms (1500);
  if (args->progress)
    args->progress (TL_GPU_STAGE_WARMUP, 0, 1, args->user_data);
  while (strcmp (kernel->entry, "tilelab_stub_hang") == 0)
    sleep_ms (1000);
  TlGpuStatus st = stub_gemm_run (device, "gemm-01-naive", args, out_result);
  if (st == TL_GPU_OK)
    {
      out_result->launch.grid_x = (int) kernel->grid[0];
      out_result->launch.grid_y = (int) kernel->grid[1];
      out_result->launch.grid_z = (int) kernel->grid[2];
      out_result->launch.block_x = (int) kernel->block[0];
      out_result->launch.block_y = (int) kernel->block[1];
      out_result->launch.block_z = (int) kernel->block[2];
      out_result->launch.dynamic_smem_bytes = (int) kernel->dynamic_smem;
      out_result->launch.launches = 1;
      out_result->launch.const_bytes = -1; /* a simulation reads no attributes */
    }
  return st;
}

/* ---- the table ---------------------------------------------------------- */

static const TlGpuBackend stub_backend = {
  TL_GPU_BACKEND_HEADER ("stub"),
#define TL_GPU_FN(mode, ret, name, params, args) stub_##name,
#define TL_GPU_VOID_FN(mode, name, params, args) stub_##name,
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
};

const TlGpuBackend *
tl_gpu_stub_backend (void)
{
  return &stub_backend;
}

void
tl_gpu_stub_set_reason (const char *why)
{
  snprintf (reason, sizeof reason, "%s", why ? why : "");
}
