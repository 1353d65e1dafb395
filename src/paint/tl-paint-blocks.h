/* tl-paint-blocks.h — the block-time grid: C's tiles coloured by their block.
 *
 * One cell per tile of C (grid_x tile columns × grid_y tile rows, as
 * blockIdx.x and blockIdx.y number them), coloured by how long its block
 * took or when it started, in microseconds, with a colorbar.  For a
 * multi-launch rung the picture shows one launch, or all merged: a tile's
 * duration is then the sum over the launches that touched it and its start
 * the earliest.  A tile no block ran is left grey.  One tile can be
 * highlighted (linked hover from the SM timeline).
 */
#pragma once

#include <cairo.h>
#include "view/tl-block-stats.h"
#include "view/tl-colormap.h"
#include "view/tl-plan-view.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef enum
{
  TL_BLOCKS_COLOR_DURATION = 0, /* end − start */
  TL_BLOCKS_COLOR_START,        /* start − earliest start */
} TlBlocksColor;

gboolean    tl_blocks_color_from_name (const char *name, TlBlocksColor *out);

typedef struct
{
  const TlBlockRecord *blocks;
  gsize n_blocks;
  gint launch;              /* -1: all launches merged */
  TlBlocksColor color;
  TlColormap colormap;      /* viridis by default */
  guint grid_x, grid_y;     /* 0: from the records */
  guint tile_m, tile_n;     /* C elements per tile (facts line), 0 if unknown */
  const char *title;        /* e.g. the kernel's name; NULL for none */
  const char *caption;      /* appended to the facts line */
  gint highlight_x, highlight_y; /* a tile to outline, -1: none */
  gboolean show_colorbar;
  const TlPlanView *plan;   /* a planned rung's plan: its last wave marked, a legend under
                               the grid (tl-paint-plan.h); the grid without blocks; NULL: none */
  gboolean scale_shared;    /* coloured on [scale_lo, scale_hi] µs, one scale with a grid
                               beside it (the facts say so); FALSE: on its own values */
  double scale_lo, scale_hi;
  double plot_top;          /* the cells start this far down at least (grids side by side
                               line up their plots); 0: under its own titles */
} TlBlocksModel;

typedef struct
{
  double plot_x, plot_y, plot_w, plot_h; /* the cells */
  double cell_w, cell_h;                 /* device pixels per tile */
  guint grid_x, grid_y;
  double cb_x, cb_y, cb_w, cb_h;         /* colorbar (w = 0 when none) */
  TlColorScale scale;                    /* µs */
} TlBlocksLayout;

void     tl_blocks_model_init   (TlBlocksModel *model);
void     tl_paint_blocks_layout (const TlBlocksModel *model, const TlPaintStyle *style,
                                 double width, double height, TlBlocksLayout *out);
/* The tile under (x, y); FALSE outside the cells. */
gboolean tl_blocks_layout_tile_at (const TlBlocksLayout *layout, double x, double y,
                                   guint *out_x, guint *out_y);
/* Centre of a tile in device pixels. */
void     tl_blocks_layout_tile_centre (const TlBlocksLayout *layout, guint tile_x, guint tile_y,
                                       double *out_x, double *out_y);
/* Index of the (first, in the selected launch) block record of a tile, or -1. */
gssize   tl_blocks_model_find  (const TlBlocksModel *model, guint tile_x, guint tile_y);
/* The least and greatest value its tiles are coloured by, in µs (FALSE:
 * no tile ran a block): two grids on one colour scale take both ends. */
gboolean tl_blocks_model_value_range (const TlBlocksModel *model, double *lo, double *hi);
/* The value a tile is coloured by, in µs (NaN when no block ran it). */
double   tl_blocks_model_value (const TlBlocksModel *model, guint tile_x, guint tile_y);
void     tl_paint_blocks        (cairo_t *cr, const TlBlocksModel *model,
                                 const TlPaintStyle *style, double width, double height);

G_END_DECLS
