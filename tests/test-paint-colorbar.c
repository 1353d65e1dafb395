/* test-paint-colorbar.c — the bar's colours and its ticks. */
#include <math.h>
#include "paint/tl-paint-colorbar.h"
#include "paint-test-util.h"

static void
check_colorbar (TlColormap map, TlScale scale_kind, double lo, double hi, double sc)
{
  TlPaintStyle style;
  TlColorbarModel model = { .label = "value" };
  TlColorbarLayout lay;
  double ticks[16];
  int w = (int) (140 * sc), h = (int) (320 * sc);

  tl_paint_style_init (&style, sc);
  tl_color_scale_init (&model.scale, map, scale_kind, lo, hi);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tl_paint_colorbar (cr, &model, &style, w, h);
  cairo_destroy (cr);

  tl_paint_colorbar_layout (&model, &style, w, h, &lay);
  double cx = lay.bar_x + lay.bar_w / 2;
  guint8 rgb[3];
  tl_colormap_rgb (map, 1.0, rgb);
  tl_assert_pixel_near (s, cx, lay.bar_y + 3 * sc, tl_test_rgb (rgb[0], rgb[1], rgb[2]), 12);
  tl_colormap_rgb (map, 0.0, rgb);
  tl_assert_pixel_near (s, cx, lay.bar_y + lay.bar_h - 3 * sc, tl_test_rgb (rgb[0], rgb[1], rgb[2]), 12);
  tl_colormap_rgb (map, 0.5, rgb);
  tl_assert_pixel_near (s, cx, lay.bar_y + lay.bar_h / 2, tl_test_rgb (rgb[0], rgb[1], rgb[2]), 12);

  /* the ticks drawn: those whose labels keep clear of each other */
  guint n = tl_paint_colorbar_ticks (&model, &style, w, h, ticks, G_N_ELEMENTS (ticks));
  g_assert_cmpuint (n, >=, 2);
  double prev_y = -1;
  for (guint i = 0; i < n; i++)
    {
      double y = round (tl_colorbar_layout_y (&lay, &model.scale, ticks[i]));
      g_assert_cmpfloat (y, >=, lay.bar_y - 1);
      g_assert_cmpfloat (y, <=, lay.bar_y + lay.bar_h + 1);
      /* a dark tick mark right of the bar */
      guint32 p = tl_test_pixel (s, lay.bar_x + lay.bar_w + lay.tick_len * 0.6, y);
      g_assert_cmpint (tl_test_pixel_distance (p, tl_test_rgb (255, 255, 255)), >, 100);
      /* ticks are ordered on the bar (all differ) */
      g_assert_cmpfloat (y, !=, prev_y);
      prev_y = y;
    }
  /* between ticks far from any tick mark: background */
  if (n >= 2)
    {
      double y0 = tl_colorbar_layout_y (&lay, &model.scale, ticks[0]);
      double y1 = tl_colorbar_layout_y (&lay, &model.scale, ticks[1]);
      if (fabs (y1 - y0) > 8 * sc)
        tl_assert_pixel_near (s, lay.bar_x + lay.bar_w + lay.tick_len * 0.6, (y0 + y1) / 2,
                              tl_test_rgb (255, 255, 255), 0);
    }
  cairo_surface_destroy (s);
}

static void
test_linear (void)
{
  check_colorbar (TL_COLORMAP_VIRIDIS, TL_SCALE_LINEAR, 0.0, tl_test_random (5, 50), 1.0);
  check_colorbar (TL_COLORMAP_VIRIDIS, TL_SCALE_LINEAR, 0.0, tl_test_random (5, 50), 2.0);
  check_colorbar (TL_COLORMAP_RDBU, TL_SCALE_LINEAR, -tl_test_random (1, 3), 2.0, 1.0);
  check_colorbar (TL_COLORMAP_GRAY, TL_SCALE_LINEAR, -1.0, 1.0, 2.0);
}

static void
test_log (void)
{
  check_colorbar (TL_COLORMAP_VIRIDIS, TL_SCALE_LOG, 1e-9, 1e-2, 1.0);
  check_colorbar (TL_COLORMAP_CIVIDIS, TL_SCALE_LOG, 1e-9, 1e-2, 2.0);

  /* decades for a log scale */
  TlColorScale s;
  double t[16];
  tl_color_scale_init (&s, TL_COLORMAP_VIRIDIS, TL_SCALE_LOG, 1e-6, 1e-1);
  guint n = tl_colorbar_ticks (&s, t, 16);
  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (log10 (t[i]), round (log10 (t[i])), 1e-9);
}

static void
test_symlog (void)
{
  check_colorbar (TL_COLORMAP_RDBU, TL_SCALE_SYMLOG, -1000.0, 1000.0, 1.0);
  check_colorbar (TL_COLORMAP_RDBU, TL_SCALE_SYMLOG, -1000.0, 1000.0, 2.0);
  TlColorScale s;
  double t[16];
  gboolean zero = FALSE;
  tl_color_scale_init (&s, TL_COLORMAP_RDBU, TL_SCALE_SYMLOG, -1000.0, 1000.0);
  guint n = tl_colorbar_ticks (&s, t, 16);
  for (guint i = 0; i < n; i++)
    zero |= t[i] == 0.0;
  g_assert_true (zero);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/colorbar/linear", test_linear);
  g_test_add_func ("/colorbar/log", test_log);
  g_test_add_func ("/colorbar/symlog", test_symlog);
  return g_test_run ();
}
