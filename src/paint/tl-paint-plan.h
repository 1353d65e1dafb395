/* tl-paint-plan.h — a planned rung's plan over the block grid.
 *
 * What the Blocks grid adds for a run with a plan (view/tl-plan-view.h):
 * the tiles of the last wave hatched and outlined, every tile's border at
 * the plan's tile size, and under the grid a legend — the hatch, what it
 * marks, the plan's numbers in one line and its sentence of why.
 */
#pragma once

#include <cairo.h>
#include "view/tl-plan-view.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

/* The room the legend takes under a grid `width` wide in a picture
 * `height` tall (at most about three tenths of it), in device pixels (0 for
 * no plan). */
double tl_paint_plan_legend_height (const TlPlanView *plan, const TlPaintStyle *style, double width,
                                    double height);
/* The last wave's tiles over cells of cell_w × cell_h from (plot_x, plot_y). */
void   tl_paint_plan_tiles  (cairo_t *cr, const TlPlanView *plan, const TlPaintStyle *style,
                             double plot_x, double plot_y, double cell_w, double cell_h,
                             guint grid_x, guint grid_y);
/* The legend from (x, y) down, `width` wide, in the room
 * tl_paint_plan_legend_height gave for the same height. */
void   tl_paint_plan_legend (cairo_t *cr, const TlPlanView *plan, const TlPaintStyle *style,
                             double x, double y, double width, double height);

G_END_DECLS
