/* tl-colormap.h — from numbers to colours: colormaps and value scales.
 *
 * A TlColorScale maps a value to t ∈ [0, 1] (linear, log or symlog between
 * vmin and vmax) and t to a colour of one colormap.  Viridis is the
 * default for non-negative data, RdBu centred at zero for signed data.
 * NaN gets a colour outside every map (magenta) so it is never mistaken
 * for data; ±Inf clamp to the ends.
 *
 * A log scale is matplotlib's LogNorm: values ≤ 0 have no logarithm, so
 * they are masked — drawn in the map's mask colour, which no value has —
 * and the colour bar says so.  It never plots log|a| as if it were a.
 *
 * The range should come from all the data (TlValueRange, gathered while
 * pooling reads every element), not from what happens to be on screen:
 * then a cell keeps its colour under zoom and pooling.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum
{
  TL_COLORMAP_VIRIDIS = 0,
  TL_COLORMAP_CIVIDIS,
  TL_COLORMAP_RDBU,      /* diverging: red for negative, white at zero, blue for positive */
  TL_COLORMAP_GRAY,
} TlColormap;

#define TL_COLORMAP_COUNT 4

typedef enum
{
  TL_SCALE_LINEAR = 0,
  TL_SCALE_LOG,     /* of v; values ≤ 0 are masked */
  TL_SCALE_SYMLOG,  /* sign(v)·log10(1 + |v|/linthresh): linear near 0, log beyond */
} TlScale;

#define TL_SCALE_COUNT 3

typedef struct
{
  TlColormap map;
  TlScale scale;
  double vmin, vmax;  /* for LOG both > 0 */
  double linthresh;   /* SYMLOG only, > 0 */
} TlColorScale;

/* What the data holds, over every element (not over pooled cells). */
typedef struct
{
  double min, max;      /* over finite values; 0 when there are none */
  double min_positive;  /* smallest value > 0; 0 when there is none */
  double max_abs;       /* over finite values */
  guint64 n_finite, n_nan, n_inf;
} TlValueRange;

void        tl_value_range_init  (TlValueRange *self);
void        tl_value_range_add   (TlValueRange *self, double v);
void        tl_value_range_merge (TlValueRange *self, const TlValueRange *other);
/* Nothing was added. */
gboolean    tl_value_range_is_empty (const TlValueRange *self);

const char *tl_colormap_name      (TlColormap map);   /* "viridis", … */
gboolean    tl_colormap_from_name (const char *name, TlColormap *out_map);
gboolean    tl_colormap_is_diverging (TlColormap map);
const char *tl_scale_name         (TlScale scale);    /* "linear", "log", "symlog" */
gboolean    tl_scale_from_name    (const char *name, TlScale *out_scale);

/* Colour of t ∈ [0, 1] (clamped) as 8-bit RGB. */
void        tl_colormap_rgb       (TlColormap map, double t, guint8 out_rgb[3]);

/* Default scale for data in [min, max]: viridis/linear when min ≥ 0,
 * RdBu/linear symmetric about zero otherwise. */
void        tl_color_scale_init_auto (TlColorScale *self, double min, double max);
/* Sets map and scale kind and makes the range valid for them (log needs a
 * positive range; a diverging map is made symmetric about zero). */
void        tl_color_scale_init   (TlColorScale *self, TlColormap map, TlScale scale,
                                   double min, double max);

/* A colour scale for data with range: map as given (-1: viridis for
 * non-negative data and for log scales, RdBu about zero otherwise), kind as given; a log
 * scale spans the smallest positive value to the largest (at most 12
 * decades below it: smaller positive values take the low end). */
void        tl_color_scale_init_for_range (TlColorScale *self, gint map, TlScale scale,
                                           const TlValueRange *range);

/* Is v drawn in the mask colour (≤ 0 on a log scale)? */
gboolean    tl_color_scale_masks (const TlColorScale *self, double v);
/* The mask colour of a map: a colour the map itself never takes. */
void        tl_colormap_mask_rgb (TlColormap map, guint8 out_rgb[3]);

/* t ∈ [0, 1] for value v, NaN for NaN and masked values. */
double      tl_color_scale_normalize (const TlColorScale *self, double v);
/* The inverse: the value at t (for colorbar ticks and labels). */
double      tl_color_scale_value_at  (const TlColorScale *self, double t);
/* Opaque cairo ARGB32 pixel for v. */
guint32     tl_color_scale_argb   (const TlColorScale *self, double v);
void        tl_color_scale_rgb    (const TlColorScale *self, double v, guint8 out_rgb[3]);

#define TL_COLOR_NAN_ARGB 0xffff00ffu

G_END_DECLS
