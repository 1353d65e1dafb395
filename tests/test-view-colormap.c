/* test-view-colormap.c — colormap endpoints, scales, defaults. */
#include <math.h>
#include "view/tl-colormap.h"
#include "view-test-util.h"

static void
assert_rgb (TlColormap map, double t, int r, int g, int b)
{
  guint8 rgb[3];
  tl_colormap_rgb (map, t, rgb);
  g_assert_cmpint (abs (rgb[0] - r), <=, 1);
  g_assert_cmpint (abs (rgb[1] - g), <=, 1);
  g_assert_cmpint (abs (rgb[2] - b), <=, 1);
}

static void
test_endpoints (void)
{
  assert_rgb (TL_COLORMAP_VIRIDIS, 0.0, 68, 1, 84);
  assert_rgb (TL_COLORMAP_VIRIDIS, 1.0, 253, 231, 37);
  assert_rgb (TL_COLORMAP_CIVIDIS, 0.0, 0, 34, 78);
  assert_rgb (TL_COLORMAP_CIVIDIS, 1.0, 254, 232, 56);
  assert_rgb (TL_COLORMAP_RDBU, 0.0, 103, 0, 31);
  assert_rgb (TL_COLORMAP_RDBU, 0.5, 247, 247, 247);
  assert_rgb (TL_COLORMAP_RDBU, 1.0, 5, 48, 97);
  assert_rgb (TL_COLORMAP_GRAY, 0.0, 0, 0, 0);
  assert_rgb (TL_COLORMAP_GRAY, 1.0, 255, 255, 255);
  /* out of range clamps */
  assert_rgb (TL_COLORMAP_VIRIDIS, -3.0, 68, 1, 84);
  assert_rgb (TL_COLORMAP_VIRIDIS, 7.0, 253, 231, 37);
}

static void
test_monotone_luminance (void)
{
  /* viridis, cividis and gray get brighter monotonically (roughly) */
  TlColormap maps[] = { TL_COLORMAP_VIRIDIS, TL_COLORMAP_CIVIDIS, TL_COLORMAP_GRAY };
  for (guint m = 0; m < G_N_ELEMENTS (maps); m++)
    {
      double prev = -1;
      for (int i = 0; i <= 32; i++)
        {
          guint8 rgb[3];
          tl_colormap_rgb (maps[m], i / 32.0, rgb);
          double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
          g_assert_cmpfloat (y, >, prev - 1.0);
          prev = y;
        }
    }
}

static void
test_defaults (void)
{
  TlColorScale s;
  double lo = tl_test_random (0.0, 1.0), hi = lo + tl_test_random (1.0, 5.0);

  tl_color_scale_init_auto (&s, lo, hi);
  g_assert_cmpint (s.map, ==, TL_COLORMAP_VIRIDIS);
  g_assert_cmpfloat (s.vmin, ==, lo);
  g_assert_cmpfloat (s.vmax, ==, hi);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, lo), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, hi), 1.0, 1e-12);

  /* signed data: RdBu, symmetric, zero in the middle (white) */
  tl_color_scale_init_auto (&s, -1.5, 3.0);
  g_assert_cmpint (s.map, ==, TL_COLORMAP_RDBU);
  g_assert_cmpfloat (s.vmin, ==, -3.0);
  g_assert_cmpfloat (s.vmax, ==, 3.0);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, 0.0), 0.5, 1e-12);
  g_assert_cmphex (tl_color_scale_argb (&s, 0.0), ==, tl_test_rgb (247, 247, 247));
  g_assert_cmphex (tl_color_scale_argb (&s, -3.0), ==, tl_test_rgb (103, 0, 31));

  /* NaN is magenta, never a map colour */
  g_assert_cmphex (tl_color_scale_argb (&s, NAN), ==, TL_COLOR_NAN_ARGB);
  g_assert_true (isnan (tl_color_scale_normalize (&s, NAN)));
  /* infinities clamp */
  g_assert_cmpfloat (tl_color_scale_normalize (&s, INFINITY), ==, 1.0);
  g_assert_cmpfloat (tl_color_scale_normalize (&s, -INFINITY), ==, 0.0);
}

static void
test_log_and_symlog (void)
{
  TlColorScale s;

  tl_color_scale_init (&s, TL_COLORMAP_VIRIDIS, TL_SCALE_LOG, 1.0, 100.0);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, 10.0), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_value_at (&s, 0.5), 10.0, 1e-9);
  /* LogNorm: −10 and 0 have no logarithm — masked, never log|v| */
  g_assert_true (isnan (tl_color_scale_normalize (&s, -10.0)));
  g_assert_true (isnan (tl_color_scale_normalize (&s, 0.0)));
  g_assert_true (tl_color_scale_masks (&s, -10.0));
  g_assert_true (tl_color_scale_masks (&s, 0.0));
  g_assert_false (tl_color_scale_masks (&s, 10.0));
  guint8 got[3], mask[3];
  tl_color_scale_rgb (&s, -10.0, got);
  tl_colormap_mask_rgb (TL_COLORMAP_VIRIDIS, mask);
  g_assert_cmpmem (got, 3, mask, 3);

  /* log of a range that touches zero picks a positive floor */
  tl_color_scale_init (&s, TL_COLORMAP_VIRIDIS, TL_SCALE_LOG, 0.0, 1e-3);
  g_assert_cmpfloat (s.vmin, >, 0.0);
  g_assert_cmpfloat (s.vmin, <, s.vmax);

  /* from a data range with negatives: the smallest positive value to the largest */
  TlValueRange r;
  tl_value_range_init (&r);
  double lo = tl_test_random (-5.0, -1.0), small = tl_test_random (1e-4, 1e-3), big = tl_test_random (10, 20);
  tl_value_range_add (&r, lo);
  tl_value_range_add (&r, 0.0);
  tl_value_range_add (&r, small);
  tl_value_range_add (&r, big);
  tl_value_range_add (&r, NAN);
  g_assert_cmpuint (r.n_finite, ==, 4);
  g_assert_cmpuint (r.n_nan, ==, 1);
  g_assert_cmpfloat (r.min_positive, ==, small);
  g_assert_cmpfloat (r.max_abs, ==, big);
  tl_color_scale_init_for_range (&s, -1, TL_SCALE_LOG, &r);
  g_assert_cmpfloat (s.vmin, ==, small);
  g_assert_cmpfloat (s.vmax, ==, big);
  g_assert_true (tl_color_scale_masks (&s, lo));
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, small), 0.0, 1e-12);

  tl_color_scale_init (&s, TL_COLORMAP_RDBU, TL_SCALE_SYMLOG, -1000.0, 500.0);
  g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, 0.0), 0.5, 1e-12);
  double a = tl_color_scale_normalize (&s, 10.0), b = tl_color_scale_normalize (&s, -10.0);
  g_assert_cmpfloat_with_epsilon (a - 0.5, 0.5 - b, 1e-12);
  /* symlog spreads small values: 1 % of the range is well past 1 % of the bar */
  g_assert_cmpfloat (tl_color_scale_normalize (&s, 10.0) - 0.5, >, 0.15);
  for (double t = 0.05; t < 1.0; t += 0.1)
    g_assert_cmpfloat_with_epsilon (tl_color_scale_normalize (&s, tl_color_scale_value_at (&s, t)),
                                    t, 1e-9);
}

/* every map's mask colour is far from every colour of the map and from NaN's */
static void
test_mask_colours (void)
{
  for (TlColormap map = 0; map < TL_COLORMAP_COUNT; map++)
    {
      guint8 mask[3];
      tl_colormap_mask_rgb (map, mask);
      guint32 m = tl_test_rgb (mask[0], mask[1], mask[2]);
      g_assert_cmpint (tl_test_pixel_distance (m, TL_COLOR_NAN_ARGB), >, 60);
      for (int i = 0; i <= 1000; i++)
        {
          guint8 rgb[3];
          tl_colormap_rgb (map, i / 1000.0, rgb);
          if (tl_test_pixel_distance (m, tl_test_rgb (rgb[0], rgb[1], rgb[2])) < 25)
            g_error ("%s at t = %.3f is #%02x%02x%02x, too close to its mask colour",
                     tl_colormap_name (map), i / 1000.0, rgb[0], rgb[1], rgb[2]);
        }
    }
}

static void
test_names (void)
{
  TlColormap m;
  TlScale sc;
  for (guint i = 0; i < TL_COLORMAP_COUNT; i++)
    {
      g_assert_true (tl_colormap_from_name (tl_colormap_name (i), &m));
      g_assert_cmpint (m, ==, i);
    }
  for (guint i = 0; i < TL_SCALE_COUNT; i++)
    {
      g_assert_true (tl_scale_from_name (tl_scale_name (i), &sc));
      g_assert_cmpint (sc, ==, i);
    }
  g_assert_false (tl_colormap_from_name ("jet", &m));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/colormap/endpoints", test_endpoints);
  g_test_add_func ("/colormap/luminance", test_monotone_luminance);
  g_test_add_func ("/colormap/defaults", test_defaults);
  g_test_add_func ("/colormap/log-symlog", test_log_and_symlog);
  g_test_add_func ("/colormap/mask-colours", test_mask_colours);
  g_test_add_func ("/colormap/names", test_names);
  return g_test_run ();
}
