/* test-lu-gpu.c — the GPU rungs of the Gauss ladder against LAPACK's
 * ratio ‖PA − LU‖₁ / (n ‖A‖₁ ε) < 30, through tl_lu_factor; LAPACK's info
 * on singular matrices; the shapes that do not fit one launch; recording;
 * the GPU solve against cuSOLVER's getrs.
 * Exits 77 (skip) without a CUDA device.
 * The tests live in test-lu-gpu-{factor,paths,solve,record}.c, the helpers
 * they share in lu-gpu-test-util.c. */
#include "lu-gpu-test-util.h"
#include "tl-gpu.h"

#include <stdio.h>

int
main (int argc, char **argv)
{
  int count = 0;
  if (tl_gpu_device_count (&count) != TL_GPU_OK || count == 0)
    {
      printf ("no CUDA device: skipping the GPU LU tests\n");
      return 77;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lu-gpu/ratios", test_ratios);
  g_test_add_func ("/lu-gpu/singular-and-no-pivoting", test_singular_and_no_pivoting);
  g_test_add_func ("/lu-gpu/singular-steps", test_singular_steps);
  g_test_add_func ("/lu-gpu/nan", test_nan);
  g_test_add_func ("/lu-gpu/fresh", test_fresh);
  g_test_add_func ("/lu-gpu/cluster-paths", test_cluster_paths);
  g_test_add_func ("/lu-gpu/fused-paths", test_fused_paths);
  g_test_add_func ("/lu-gpu/fused-workers", test_fused_workers);
  g_test_add_func ("/lu-gpu/near-singular", test_near_singular);
  g_test_add_func ("/lu-gpu/large", test_large);
  g_test_add_func ("/lu-gpu/solve", test_solve);
  g_test_add_func ("/lu-gpu/solve-bench", test_solve_bench);
  g_test_add_func ("/lu-gpu/gfp", test_gfp);
  g_test_add_func ("/lu-gpu/record", test_record);
  g_test_add_func ("/lu-gpu/cancel", test_cancel);
  g_test_add_func ("/lu-gpu/rank", test_rank);
  return g_test_run ();
}
