/* view-test-util.h — fresh random values and matrices, and colours as
 * 0xffRRGGBB, block records on a grid, for the tests of views and painters. */
#pragma once

#include <glib.h>
#include <stdlib.h>

#include <math.h>

#include "core/tl-matrix.h"
#include "record/tl-record.h"

/* Fresh random values in [lo, hi), never all zero. */
static inline double
tl_test_random (double lo, double hi)
{
  return g_test_rand_double_range (lo, hi);
}

/* A rows×cols matrix of fresh random values in [lo, hi). */
static inline TlMatrix *
tl_test_random_matrix (TlDtype dtype, gsize rows, gsize cols, double lo, double hi)
{
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, NULL);
  g_assert_nonnull (m);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      tl_matrix_set (m, i, j, tl_test_random (lo, hi));
  return m;
}

/* An opaque colour as cairo's ARGB32 pixels and tl_color_scale_argb give it. */
static inline guint32
tl_test_rgb (int r, int g, int b)
{
  return 0xff000000u | ((guint32) r << 16) | ((guint32) g << 8) | (guint32) b;
}

/* Largest per-channel difference between two opaque pixels. */
static inline int
tl_test_pixel_distance (guint32 a, guint32 b)
{
  int d = 0;
  for (int shift = 0; shift <= 16; shift += 8)
    d = MAX (d, abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)));
  return d;
}

/* gx × gy tiles, one block each, on `units` SMs round robin; durations
 * random and distinct (µs), starts in waves of `units` blocks */
static inline TlBlockRecord *
tl_test_grid_blocks (guint gx, guint gy, guint units, double *dur_us)
{
  TlBlockRecord *b = g_new0 (TlBlockRecord, gx * gy);
  for (guint i = 0; i < gx * gy; i++)
    {
      dur_us[i] = 10.0 + i * 3.0 + tl_test_random (0.0, 1.0);
      b[i].block_x = i % gx;
      b[i].block_y = i / gx;
      b[i].unit = i % units;
      b[i].start_ns = (guint64) (i / units) * 100000;
      b[i].end_ns = b[i].start_ns + (guint64) llround (dur_us[i] * 1e3);
    }
  return b;
}
