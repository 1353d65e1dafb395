/* tl-kernel-colors.c — the stable kernel → colour and marker mapping. */
#include "paint/tl-kernel-colors.h"

#include <math.h>
#include <string.h>
#include "gemm/tl-kernels.h"
#include "lu/tl-lu.h"

/* Okabe–Ito without black and yellow (unreadable as thin lines on white),
 * then four that stay apart from them and from each other */
static const guint8 palette[TL_KERNEL_COLORS][3] = {
  { 0, 114, 178 },   /* blue */
  { 230, 159, 0 },   /* orange */
  { 0, 158, 115 },   /* bluish green */
  { 213, 94, 0 },    /* vermillion */
  { 86, 180, 233 },  /* sky blue */
  { 204, 121, 167 }, /* reddish purple */
  { 117, 112, 179 }, /* violet */
  { 153, 153, 51 },  /* olive */
  { 231, 41, 138 },  /* magenta */
  { 128, 128, 128 }, /* grey */
};

void
tl_kernel_look_at (guint index, TlKernelLook *out)
{
  g_return_if_fail (out != NULL);
  const guint8 *c = palette[index % TL_KERNEL_COLORS];
  guint round = index / TL_KERNEL_COLORS;
  for (int i = 0; i < 3; i++)
    out->rgb[i] = c[i] / 255.0;
  out->marker = (TlMarker) (round % TL_MARKER_COUNT);
  out->hatched = round % 2 == 1;
}

void
tl_kernel_look (const char *kernel_id, TlKernelLook *out)
{
  g_return_if_fail (out != NULL);
  guint n_gemm = tl_kernel_count ();
  for (guint i = 0; kernel_id && i < n_gemm; i++)
    if (strcmp (tl_kernel_get (i)->id, kernel_id) == 0)
      {
        tl_kernel_look_at (i, out);
        return;
      }
  for (guint i = 0; kernel_id && i < tl_lu_kernel_count (); i++)
    if (strcmp (tl_lu_kernel_get (i)->id, kernel_id) == 0)
      {
        tl_kernel_look_at (n_gemm + i, out);
        return;
      }
  /* not in this build's registries (a record from elsewhere): from the name */
  tl_kernel_look_at (kernel_id ? g_str_hash (kernel_id) % (TL_KERNEL_COLORS * TL_MARKER_COUNT) : 0,
                     out);
}

void
tl_paint_marker (cairo_t *cr, TlMarker marker, double x, double y, double r)
{
  switch (marker)
    {
    case TL_MARKER_SQUARE:
      cairo_rectangle (cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
      break;
    case TL_MARKER_TRIANGLE:
      cairo_move_to (cr, x, y - r * 1.15);
      cairo_line_to (cr, x + r * 1.05, y + r * 0.75);
      cairo_line_to (cr, x - r * 1.05, y + r * 0.75);
      cairo_close_path (cr);
      break;
    case TL_MARKER_DIAMOND:
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.2, y);
      cairo_line_to (cr, x, y + r * 1.2);
      cairo_line_to (cr, x - r * 1.2, y);
      cairo_close_path (cr);
      break;
    case TL_MARKER_CIRCLE:
    default:
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
  cairo_fill (cr);
}

void
tl_paint_hatch (cairo_t *cr, double x, double y, double w, double h, double spacing,
                double line_width, const double rgba[4])
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  for (double d = -h; d < w; d += spacing)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3]);
  cairo_set_line_width (cr, line_width);
  cairo_stroke (cr);
  cairo_restore (cr);
}
