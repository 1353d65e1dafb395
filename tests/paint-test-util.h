/* paint-test-util.h — reading pixels back from cairo image surfaces. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <stdlib.h>

#include "core/tl-matrix.h"

static inline guint32
tl_test_pixel (cairo_surface_t *s, double x, double y)
{
  int ix = (int) x, iy = (int) y;
  cairo_surface_flush (s);
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (s));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (s));
  const unsigned char *row = cairo_image_surface_get_data (s) + iy * cairo_image_surface_get_stride (s);
  return ((const guint32 *) row)[ix] | 0xff000000u;
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

static inline guint32
tl_test_rgb (int r, int g, int b)
{
  return 0xff000000u | ((guint32) r << 16) | ((guint32) g << 8) | (guint32) b;
}

#define tl_assert_pixel_near(s, x, y, expected, tol)                                  \
  G_STMT_START {                                                                      \
    guint32 _got = tl_test_pixel ((s), (x), (y));                                     \
    if (tl_test_pixel_distance (_got, (expected)) > (tol))                            \
      g_error ("pixel (%d, %d) is #%06x, expected #%06x", (int) (x), (int) (y),        \
               _got & 0xffffff, (expected) & 0xffffff);                               \
  } G_STMT_END

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
