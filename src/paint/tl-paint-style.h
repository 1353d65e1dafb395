/* tl-paint-style.h — how big, in which colours and how contrasty every painter draws.
 *
 * Painters measure everything in style units: font sizes and line widths
 * are multiplied by `scale`, the presentation-mode enlargement (GTK
 * already scales cairo for HiDPI).  Every length a painter draws — type,
 * lines, ticks, swatches, gaps — goes through TL_PX, so presentation mode
 * enlarges titles, legends, facts and hints alike.
 *
 * Colours come from the style, so a painter looks right on a dark or a
 * high-contrast theme: fg for text and axes, bg for the background and
 * for the patches behind labels, accent for the selection, error for what
 * went wrong or costs time (the tail, a failed kernel).  Marks drawn over
 * data (a hovered row, the chosen pivot) keep TL_PAINT_HIGHLIGHT_RGB: they
 * must stand out from the colormaps, not from the theme.
 * Widgets fill them from the GTK theme (ui/tl-view-style.c); the CLI's
 * renderer and the tests keep the light defaults.
 *
 * High contrast makes lines thicker and text bold, in pure black or white,
 * without enlarging the type: nothing on the screen shrinks to make room.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double scale;            /* device pixels per style unit (presentation enlargement) */
  double font_size;        /* tick labels and annotations, in style units */
  double title_font_size;
  double line_width;       /* axes and grid lines */
  gboolean high_contrast;  /* bold text, thicker lines, no translucency */
  const char *font_family; /* "Sans" when NULL */
  double fg[3];            /* text and axes */
  double bg[3];            /* background, and the patches behind labels */
  double accent[3];        /* the selection (a chosen bar); the theme's selection colour */
  double error[3];         /* failures, the tail */
  gboolean transparent;    /* leave the background alone (bg still backs labels) */
} TlPaintStyle;

/* Orange over data: visible on viridis, RdBu and grey alike — outlines,
 * and a lighter one for the translucent veil over highlighted rows. */
#define TL_PAINT_HIGHLIGHT_RGB 1.0, 0.45, 0.0
#define TL_PAINT_HIGHLIGHT_VEIL_RGB 1.0, 0.55, 0.0

/* How much presentation mode enlarges everything. */
#define TL_PAINT_PRESENTATION_SCALE 1.6

/* Is the background dark (a dark theme)? */
static inline gboolean
tl_paint_style_is_dark (const TlPaintStyle *style)
{
  return 0.299 * style->bg[0] + 0.587 * style->bg[1] + 0.114 * style->bg[2] < 0.5;
}

static inline void
tl_paint_style_set_high_contrast (TlPaintStyle *style, gboolean high_contrast)
{
  style->high_contrast = high_contrast;
  if (!high_contrast)
    return;
  /* pure black on light backgrounds, pure white on dark ones */
  style->fg[0] = style->fg[1] = style->fg[2] = tl_paint_style_is_dark (style) ? 1.0 : 0.0;
}

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
  /* Adwaita's selection blue */
  style->accent[0] = 0.21;
  style->accent[1] = 0.52;
  style->accent[2] = 0.89;
  style->error[0] = 0.75;
  style->error[1] = 0.08;
  style->error[2] = 0.10;
  style->transparent = FALSE;
}

/* Presentation mode: the normal style enlarged by scale, for the back of a
 * lecture hall; high contrast as tl_paint_style_set_high_contrast. */
static inline void
tl_paint_style_init_presentation (TlPaintStyle *style, double scale, gboolean high_contrast)
{
  tl_paint_style_init (style, scale);
  style->line_width = 1.5;
  tl_paint_style_set_high_contrast (style, high_contrast);
}

/* Lengths in device pixels. */
#define TL_PX(style, units) ((units) * (style)->scale)

/* A line width in device pixels: thicker in high contrast. */
#define TL_LINE(style, units) (TL_PX (style, units) * ((style)->high_contrast ? 1.6 : 1.0))

G_END_DECLS
