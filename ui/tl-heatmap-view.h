/* tl-heatmap-view.h — a drawing area that hosts the heatmap painter.
 *
 * Pooling (and colouring) runs in a GTask off the main loop; draw only
 * scales a cached image.  Scroll zooms about the pointer, dragging pans,
 * a double click fits.  "hover" reports the element under the pointer
 * (row and column −1 when it leaves).
 */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"
#include "paint/tl-paint-heatmap.h"

G_BEGIN_DECLS

#define TL_TYPE_HEATMAP_VIEW (tl_heatmap_view_get_type ())
G_DECLARE_FINAL_TYPE (TlHeatmapView, tl_heatmap_view, TL, HEATMAP_VIEW, GtkDrawingArea)


/* NULL clears; title and caption are copied */
void      tl_heatmap_view_set_matrix   (TlHeatmapView *self, TlMatrix *matrix,
                                        const char *title, const char *caption);
TlMatrix *tl_heatmap_view_get_matrix   (TlHeatmapView *self);
void      tl_heatmap_view_set_empty_text (TlHeatmapView *self, const char *text);
const char *tl_heatmap_view_get_empty_text (TlHeatmapView *self);
void      tl_heatmap_view_set_units    (TlHeatmapView *self, const char *units);
void      tl_heatmap_view_set_thumbnail (TlHeatmapView *self, gboolean thumbnail);

/* Colour: map and scale kind; the range comes from the data unless a
 * shared range is set (min > max clears it). */
void      tl_heatmap_view_set_colormap (TlHeatmapView *self, gint colormap /* -1: auto */,
                                        TlScale scale);
void      tl_heatmap_view_set_shared_range (TlHeatmapView *self, double min, double max);
/* the range of every element of the matrix (FALSE until pooled) */
gboolean  tl_heatmap_view_get_range    (TlHeatmapView *self, double *min, double *max);
void      tl_heatmap_view_set_pool_mode (TlHeatmapView *self, TlPoolMode mode);
void      tl_heatmap_view_set_tiles    (TlHeatmapView *self, int tile_m, int tile_n, gboolean show);
/* Fill the panel, cells stretched to its shape; by default the matrix
 * keeps its proportions (square cells). */
void      tl_heatmap_view_set_stretch  (TlHeatmapView *self, gboolean stretch);
void      tl_heatmap_view_set_highlight (TlHeatmapView *self, gssize row, gssize col);
/* rows [row, row+rows) and columns [col, col+cols): a block's tile */
void      tl_heatmap_view_set_highlight_span (TlHeatmapView *self, gssize row, gsize rows,
                                              gssize col, gsize cols);
void      tl_heatmap_view_fit          (TlHeatmapView *self);
void      tl_heatmap_view_zoom         (TlHeatmapView *self, double factor);
void      tl_heatmap_view_set_presentation (TlHeatmapView *self, double scale, gboolean high_contrast);
/* TRUE while pooling is in flight */
gboolean  tl_heatmap_view_is_busy      (TlHeatmapView *self);
/* the painter's model as it would be drawn now (for export and tests) */
void      tl_heatmap_view_get_model    (TlHeatmapView *self, TlHeatmapModel *out);

G_END_DECLS
