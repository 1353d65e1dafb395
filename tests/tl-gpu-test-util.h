/* tl-gpu-test-util.h — what every GPU test does first.
 *
 * GPU tests live in the meson suite 'gpu'.  Without a CUDA device (CI, a
 * laptop, a build without CUDA) they exit 77, which meson reports as
 * SKIP.  Include this once per test program.
 */
#pragma once

#include "tl-gpu.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

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
