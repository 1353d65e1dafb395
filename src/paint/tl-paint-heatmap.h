/* tl-paint-heatmap.h — a matrix as coloured cells, with its axes and legend.
 *
 * The model names what to show (a pooled grid, its colour scale, the
 * visible window in matrix indices for zoom and pan, overlays); the layout
 * says where things landed so a widget can turn a pointer position into
 * (row, column).  Rows grow downwards, as in a matrix.
 *
 * The matrix keeps its proportions (square cells, as matplotlib's imshow
 * draws by default): a 512×512 matrix is drawn square, whatever the
 * panel's shape, so no student reads it as tall.  Filling the panel is an
 * explicit choice (`stretch`, aspect="auto").  The one exception is a
 * vector or a very thin matrix (1×156342), which to scale would be a
 * hairline: its short side is widened to an eighth of the long side.  In
 * a panel taller than wide the colour bar goes under the plot, so the
 * cells get the panel's width.
 *
 * The colour bar names the quantity, says how cells were pooled and shows
 * swatches for masked (≤ 0 on a log scale) and NaN values.  On vector
 * surfaces (SVG, PDF) cells are rectangles, so they stay crisp at any zoom.
 */
#pragma once

#include <cairo.h>
#include "view/tl-pool.h"
#include "view/tl-colormap.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef struct
{
  const TlPooledGrid *grid;     /* NULL draws empty_text */
  cairo_surface_t *image;       /* optional: the grid coloured with scale (a cache) */
  TlColorScale scale;
  TlValueRange range;           /* of all the data (empty: the grid's): swatches, facts */
  const char *title;            /* "C = A·B"; NULL for none */
  const char *caption;          /* appended to the facts line, e.g. "float32" */
  const char *units;            /* colorbar label */
  const char *empty_text;
  /* visible window in matrix indices; view_rows or view_cols ≤ 0: all */
  double view_row0, view_col0, view_rows, view_cols;
  int tile_m, tile_n;           /* tile grid overlay when show_tiles */
  gboolean show_tiles;
  gssize highlight_row;         /* -1: none (linked hover) */
  gssize highlight_col;
  gsize highlight_rows;         /* rows from highlight_row on (0 = 1): the rows of A a tile read */
  gsize highlight_cols;         /* columns from highlight_col on (0 = 1): B's columns */
  gboolean show_axes;           /* FALSE: cells only (thumbnails) */
  gboolean show_colorbar;
  gboolean stretch;             /* fill the panel, cells stretched to its shape */
} TlHeatmapModel;

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h; /* the cells */
  double px_per_row, px_per_col;         /* device pixels per matrix element */
  double view_row0, view_col0, view_rows, view_cols;
  double cb_x, cb_y, cb_w, cb_h;         /* colorbar area (w = 0 when none) */
  gboolean cb_horizontal;                /* the colorbar under the plot */
  gboolean cb_label_beside;              /* under the plot, its label right of the strip */
} TlHeatmapLayout;

/* One opaque ARGB32 pixel per cell, coloured with scale.  Also meant for a
 * worker thread: the heatmap then only scales an image. */
cairo_surface_t *tl_pooled_grid_colorize (const TlPooledGrid *self, const TlColorScale *scale);

void     tl_heatmap_model_init   (TlHeatmapModel *model);
void     tl_paint_heatmap_layout (const TlHeatmapModel *model, const TlPaintStyle *style,
                                  double width, double height, TlHeatmapLayout *out);
/* The matrix element under (x, y), FALSE outside the cells or the matrix. */
gboolean tl_heatmap_layout_cell_at (const TlHeatmapLayout *layout, const TlHeatmapModel *model,
                                    double x, double y, gsize *out_row, gsize *out_col);
void     tl_paint_heatmap        (cairo_t *cr, const TlHeatmapModel *model,
                                  const TlPaintStyle *style, double width, double height);

G_END_DECLS
