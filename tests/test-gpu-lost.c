/* test-gpu-lost.c — a device fault ends GPU use for the process.
 *
 * Launches a kernel that writes to an invalid address (tl_gpu_debug_fault)
 * and checks that the fault comes back as TL_GPU_DEVICE_LOST with "GPU
 * lost, restart Tilelab", and that every later call — health, a GEMM, the
 * device count — answers the same instead of touching the dead context.
 * Its own program: the fault ruins the CUDA context of the process.
 * Skips (77) without a device. */
#include "tl-gpu.h"
#include "tl-gpu-test-util.h"

#include <string.h>

static void
test_lost (void)
{
  TlGpuDevice *device = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &device), ==, TL_GPU_OK);
  g_assert_cmpint (tl_gpu_device_health (device), ==, TL_GPU_OK);

  g_assert_cmpint (tl_gpu_debug_fault (device), ==, TL_GPU_DEVICE_LOST);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "GPU lost, restart Tilelab"));
  printf ("# %s\n", tl_gpu_last_message ());

  g_assert_cmpint (tl_gpu_device_health (device), ==, TL_GPU_DEVICE_LOST);
  float a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 0, 0, 1 }, c[4];
  TlGpuGemmArgs args = { 0 };
  args.dtype = TL_GPU_FLOAT32;
  args.m = args.n = args.k = 2;
  args.a = a;
  args.b = b;
  args.c = c;
  args.repeats = 1;
  TlGpuGemmResult r;
  g_assert_cmpint (tl_gpu_gemm_run (device, "gemm-04-smem32", &args, &r), ==, TL_GPU_DEVICE_LOST);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "GPU lost"));
  int count = 0;
  g_assert_cmpint (tl_gpu_device_count (&count), ==, TL_GPU_DEVICE_LOST);
  tl_gpu_device_close (device); /* must not crash or touch the context */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  g_test_add_func ("/gpu/lost", test_lost);
  return g_test_run ();
}
