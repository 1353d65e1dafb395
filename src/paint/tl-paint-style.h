/* tl-paint-style.h — how big and how contrasty every painter draws.
 *
 * Painters measure everything in style units: font sizes and line widths
 * are multiplied by `scale`, which is the HiDPI factor times the
 * presentation-mode enlargement.  Widgets fill one of these per draw; the
 * CLI's renderer and the tests fill it for their surfaces.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double scale;            /* device pixels per style unit (HiDPI × presentation) */
  double font_size;        /* tick labels and annotations, in style units */
  double title_font_size;
  double line_width;       /* axes and grid lines */
  gboolean high_contrast;  /* black on white, thicker lines, no translucency */
  const char *font_family; /* "Sans" when NULL */
  double fg[3];            /* text and axes colour */
  double bg[3];            /* background (painters fill it unless transparent) */
  gboolean transparent;    /* leave the background alone */
} TlPaintStyle;

static inline void
tl_paint_style_init (TlPaintStyle *style, double scale)
{
  style->scale = scale > 0 ? scale : 1.0;
  style->font_size = 12.0;
  style->title_font_size = 14.0;
  style->line_width = 1.0;
  style->high_contrast = FALSE;
  style->font_family = "Sans";
  style->fg[0] = style->fg[1] = style->fg[2] = 0.13;
  style->bg[0] = style->bg[1] = style->bg[2] = 1.0;
  style->transparent = FALSE;
}

/* Presentation mode: larger type and lines for the back of a lecture hall. */
static inline void
tl_paint_style_init_presentation (TlPaintStyle *style, double scale, gboolean high_contrast)
{
  tl_paint_style_init (style, scale);
  style->font_size = 18.0;
  style->title_font_size = 24.0;
  style->line_width = 2.0;
  style->high_contrast = high_contrast;
  if (high_contrast)
    {
      style->fg[0] = style->fg[1] = style->fg[2] = 0.0;
      style->line_width = 2.5;
    }
}

/* Lengths in device pixels. */
#define TL_PX(style, units) ((units) * (style)->scale)

G_END_DECLS
