/* tl-render-views.h — the views tl_render_draw dispatches to, one file per kind:
 * tl-render-heatmap.c (a matrix), tl-render-blocks.c (blocks, timeline and
 * both), tl-render-charts.c (compare, sweep, roofline, lesson, gauss).
 * Each takes what tl_render_draw takes. */
#pragma once

#include "paint/tl-render.h"

G_BEGIN_DECLS

gboolean tl_render_draw_heatmap (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                 const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_blocks (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                  const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_blocks_and_timeline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                             const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_compare (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                 const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_sweep (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                               const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_roofline (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                  const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_lesson (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                                const TlPaintStyle *style, double w, double h, GError **error);
gboolean tl_render_draw_gauss (cairo_t *cr, const TlRenderInput *input, const TlRenderOptions *o,
                               const TlPaintStyle *style, double w, double h, GError **error);

G_END_DECLS
