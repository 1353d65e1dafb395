/* tl-gpu-test-util.h — what every GPU test does first.
 *
 * GPU tests live in the meson suite 'gpu'.  Without a CUDA device (CI, a
 * laptop, a build without CUDA) they exit 77, which meson reports as
 * SKIP.  Include this once per test program.
 */
#pragma once

#include "tl-gpu.h"
#include "core/tl-matrix.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_TEST_SKIP 77

/* Exits 77 when there is no device; otherwise returns the device count. */
static inline int
tl_gpu_test_require_device (void)
{
  int count = 0;
  if (tl_gpu_device_count (&count) != TL_GPU_OK || count == 0)
    {
      printf ("SKIP: no CUDA device (%s)\n", tl_gpu_last_message ());
      exit (TL_TEST_SKIP);
    }
  return count;
}

/* The random seed for this run: $TL_TEST_SEED, or fresh from the clock.
 * Printed, so a failure can be replayed. */
static inline guint32
tl_gpu_test_seed (void)
{
  const char *env = g_getenv ("TL_TEST_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) : (guint32) g_get_real_time ();
  printf ("# random seed %u (set TL_TEST_SEED to replay)\n", seed);
  return seed;
}

/* Random entries, never all zero: floats uniform in [−1, 1), int32 in
 * [−8, 8] (no product of the test shapes wraps). */
static inline TlMatrix *
tl_gpu_test_random_matrix (GRand *rng, TlDtype dtype, gsize rows, gsize cols)
{
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, NULL);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      tl_matrix_set (m, i, j,
                     dtype == TL_DTYPE_INT32 ? g_rand_int_range (rng, -8, 9)
                                             : g_rand_double_range (rng, -1.0, 1.0));
  return m;
}

/* The harness's arguments for C = A·B: the matrices' data, two warm-ups,
 * L2 flushed; C poisoned (all-ones bytes: NaN for floats, −1 for int32)
 * so an element the kernel forgot fails the check. */
static inline TlGpuGemmArgs
tl_gpu_test_gemm_args (const TlMatrix *a, const TlMatrix *b, TlMatrix *c)
{
  memset (c->data, 0xFF, tl_matrix_n_bytes (c));
  TlGpuGemmArgs args = { 0 };
  args.dtype = (TlGpuDtype) a->dtype;
  args.m = (int) a->rows;
  args.k = (int) a->cols;
  args.n = (int) b->cols;
  args.a = a->data;
  args.b = b->data;
  args.c = c->data;
  args.warmups = 2;
  args.flush_l2 = 1;
  return args;
}
