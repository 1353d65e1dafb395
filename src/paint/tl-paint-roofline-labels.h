/* tl-paint-roofline-labels.h — the roofline's point labels: each as near
 * its marker as it fits, clear of the markers, the roofs and their labels
 * (a roof's label moves along its roof where it is in the way). */
#pragma once

#include <cairo.h>
#include "paint/tl-paint-roofline-ceilings.h"
#include "paint/tl-paint-roofline-layout.h"
#include "paint/tl-paint-roofline-taken.h"
#include "paint/tl-paint-style.h"
#include "view/tl-roofline.h"

G_BEGIN_DECLS

/* Where a point's label ("07", "10 TF32", "cuBLAS BF16", "mine.cu") went:
 * its box, and whether it sits a little away from its marker (joined to
 * it by a leader).  Not placed: the legend alone names the point. */
typedef struct
{
  char text[64];
  double x, y, w, h;
  gboolean placed, far;
  guint reach;             /* how far out it may go, in half lines */
} TlPointLabel;

/* Every point's label placed clear of base (the markers and roof lines)
 * and of the roofs' labels, which it may move; one per point, g_free it. */
TlPointLabel *tl_roofline_place_point_labels (cairo_t *cr, const TlRoofline *m,
                                              const TlRooflineLayout *lay, const TlPaintStyle *style,
                                              const TlTaken *base, TlRoofLabels *roofs);
void          tl_roofline_draw_point_labels  (cairo_t *cr, const TlRoofline *m,
                                              const TlRooflineLayout *lay, const TlPaintStyle *style,
                                              const TlPointLabel *labels);

G_END_DECLS
