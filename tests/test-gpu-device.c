/* test-gpu-device.c — device facts, handles, and the harness's answers to
 * bad requests: unknown kernels, wrong dtypes, negative, empty and huge
 * shapes, cancellation.  Skips (77) without a device. */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"

#include <math.h>
#include <string.h>

static TlGpuDevice *device;
static TlGpuFacts facts;

static void
test_facts (void)
{
  g_assert_cmpstr (facts.name, !=, "");
  g_assert_cmpint (facts.cc_major, >=, 5);
  g_assert_cmpint (facts.sm_count, >, 0);
  g_assert_cmpint (facts.clock_khz, >, 100000);      /* > 100 MHz */
  g_assert_cmpint (facts.mem_clock_khz, >, 100000);
  g_assert_cmpint (facts.mem_bus_width_bits, >=, 64);
  g_assert_cmpuint (facts.total_mem_bytes, >, (guint64) 1 << 30);
  g_assert_cmpuint (facts.free_mem_bytes, >, 0);
  g_assert_cmpuint (facts.free_mem_bytes, <=, facts.total_mem_bytes);
  g_assert_cmpint (facts.l2_bytes, >, 0);
  g_assert_cmpint (facts.smem_per_block_bytes, >=, 48 * 1024);
  g_assert_cmpint (facts.smem_per_block_optin_bytes, >=, facts.smem_per_block_bytes);
  g_assert_cmpint (facts.smem_per_sm_bytes, >=, facts.smem_per_block_bytes);
  g_assert_cmpint (facts.regs_per_sm, >=, 32768);
  g_assert_cmpint (facts.max_threads_per_block, ==, 1024);
  g_assert_cmpint (facts.max_threads_per_sm, >=, 1024);
  g_assert_cmpint (facts.max_blocks_per_sm, >, 0);
  g_assert_cmpint (facts.warp_size, ==, 32);
  g_assert_cmpint (facts.driver_version, >=, facts.runtime_version / 1000 * 1000);
  g_assert_cmpint (facts.runtime_version, >=, 12000);
  printf ("# %s: cc %d.%d, %d SMs, %.0f MHz, %.1f GiB, L2 %.0f MiB\n", facts.name, facts.cc_major,
          facts.cc_minor, facts.sm_count, facts.clock_khz / 1000.0,
          facts.total_mem_bytes / 1073741824.0, facts.l2_bytes / 1048576.0);

  TlGpuFacts none;
  g_assert_cmpint (tl_gpu_device_facts (9999, &none), ==, TL_GPU_NO_DEVICE);
  g_assert_cmpstr (tl_gpu_last_message (), !=, "");
  g_assert_cmpint (tl_gpu_device_health (device), ==, TL_GPU_OK);
  g_assert_true (tl_gpu_built_with_cuda ());
}

static void
fill_args (TlGpuGemmArgs *args, TlGpuDtype d, int m, int k, int n, const void *a, const void *b, void *c)
{
  memset (args, 0, sizeof *args);
  args->dtype = d;
  args->m = m;
  args->k = k;
  args->n = n;
  args->a = a;
  args->b = b;
  args->c = c;
  args->warmups = 2;
  args->repeats = 3;
}

static void
test_bad_requests (void)
{
  float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, -1, 2, -2, 3, -3 }, c[4];
  TlGpuGemmArgs args;
  TlGpuGemmResult r;

  fill_args (&args, TL_GPU_FLOAT32, 2, 3, 2, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-99-nonsense", &args, &r), ==, TL_GPU_BAD_SHAPE);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "gemm-99-nonsense"));

  /* rung 5 is float32 only */
  fill_args (&args, TL_GPU_INT32, 2, 3, 2, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-05-seed3k", &args, &r), ==, TL_GPU_BAD_SHAPE);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "int32"));

  fill_args (&args, TL_GPU_FLOAT32, -2, 3, 2, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-04-smem32", &args, &r), ==, TL_GPU_BAD_SHAPE);

  fill_args (&args, TL_GPU_FLOAT32, 2, 3, 2, a, b, c);
  args.repeats = 0;
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-04-smem32", &args, &r), ==, TL_GPU_BAD_SHAPE);

  /* Huge: our rungs index with 32-bit ints → bad shape before any memory
   * is touched; cuBLAS would need ~270 GB → out of memory, with numbers.
   * A and B are never read: both answers come before the upload. */
  fill_args (&args, TL_GPU_FLOAT32, 150000, 150000, 150000, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-08-vectorized", &args, &r), ==, TL_GPU_BAD_SHAPE);
  g_assert_cmpint (tl_gpu_gemm_run (device, "cublas-fp32", &args, &r), ==, TL_GPU_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "MiB"));
  printf ("# huge: %s\n", tl_gpu_last_message ());

  /* The device survived all that. */
  g_assert_cmpint (tl_gpu_device_health (device), ==, TL_GPU_OK);
}

static void
test_empty (void)
{
  float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 2, 3, 4, 5, 6 }, c[9];
  TlGpuGemmArgs args;
  TlGpuGemmResult r;
  for (int i = 0; i < 9; i++)
    c[i] = NAN;
  /* k = 0: C is 3×3 zeros, nothing is launched */
  fill_args (&args, TL_GPU_FLOAT32, 3, 0, 3, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-08-vectorized", &args, &r), ==, TL_GPU_OK);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (c[i], ==, 0.0f);
  g_assert_cmpint (r.n_times, ==, 0);
  tl_gpu_gemm_result_clear (&r);
  fill_args (&args, TL_GPU_FLOAT32, 0, 3, 2, a, b, c);
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-01-naive", &args, &r), ==, TL_GPU_OK);
  tl_gpu_gemm_result_clear (&r);
}

static int cancel_after;
static int progress_calls;

static int
cancel_cb (void *user_data)
{
  return --cancel_after < 0;
}

static void
progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  progress_calls++;
}

static void
test_cancel_and_progress (void)
{
  enum { N = 64 };
  float *a = g_new (float, N * N), *b = g_new (float, N * N), *c = g_new (float, N * N);
  for (int i = 0; i < N * N; i++)
    {
      a[i] = (float) g_test_rand_double_range (-1, 1);
      b[i] = (float) g_test_rand_double_range (-1, 1);
    }
  TlGpuGemmArgs args;
  TlGpuGemmResult r;
  fill_args (&args, TL_GPU_FLOAT32, N, N, N, a, b, c);
  args.repeats = 5;
  args.progress = progress_cb;
  args.cancelled = cancel_cb;
  cancel_after = 4; /* two warm-ups, two repeats, then cancel */
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-03-smem16", &args, &r), ==, TL_GPU_CANCELLED);
  g_assert_cmpint (progress_calls, >, 0);
  cancel_after = 1000;
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-03-smem16", &args, &r), ==, TL_GPU_OK);
  g_assert_cmpint (r.n_times, ==, 5);
  g_assert_cmpfloat (r.upload_ms, >, 0.0);
  g_assert_cmpfloat (r.download_ms, >, 0.0);
  g_assert_cmpint (r.launch.block_x * r.launch.block_y, ==, 256);
  g_assert_cmpint (r.launch.grid_x, ==, N / 16);
  g_assert_cmpint (r.launch.regs_per_thread, >, 0);
  g_assert_cmpint (r.launch.static_smem_bytes, ==, 2 * 16 * 16 * 4);
  g_assert_cmpint (r.launch.active_blocks_per_sm, >, 0);
  g_assert_cmpfloat (r.launch.waves, >, 0.0);
  tl_gpu_gemm_result_clear (&r);
  g_free (a);
  g_free (b);
  g_free (c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  if (tl_gpu_device_facts (0, &facts) != TL_GPU_OK || tl_gpu_device_open (0, &device) != TL_GPU_OK)
    g_error ("opening GPU 0: %s", tl_gpu_last_message ());
  g_test_add_func ("/gpu/device/facts", test_facts);
  g_test_add_func ("/gpu/device/bad-requests", test_bad_requests);
  g_test_add_func ("/gpu/device/empty", test_empty);
  g_test_add_func ("/gpu/device/cancel-and-progress", test_cancel_and_progress);
  int ret = g_test_run ();
  tl_gpu_device_close (device);
  return ret;
}
