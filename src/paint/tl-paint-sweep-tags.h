/* tl-paint-sweep-tags.h — the tags at the ends of the size sweep's lines. */
#pragma once

#include "paint/tl-paint-sweep-series.h"

G_BEGIN_DECLS

/* The width of the column right of the plot that holds the tags; 0 when
 * no series has one. */
double   tl_sweep_tags_width    (cairo_t *cr, const TlSweepModel *model, const TlPaintStyle *style);
/* The tag ("17", "cuBLAS TF32") of each kernel whose line reaches the
 * largest size, right of the plot at the height of the line's end (or as
 * near as the other tags allow), joined to it by a thin line of its
 * colour; where the tags do not all fit, the references' and the fastest
 * lines' are kept. */
void     tl_sweep_paint_tags    (cairo_t *cr, const TlSweepModel *model, const TlSweepLayout *lay,
                                 const TlPaintStyle *style);

G_END_DECLS
