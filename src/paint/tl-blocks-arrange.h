/* tl-blocks-arrange.h — where the Blocks page puts its tile grids and its timelines.
 *
 * One kernel's grid sits above its timeline while the timeline keeps, in
 * the rest of the page, the height at which every track is readable (its
 * summary, its wave names, its tail's label: tl_paint_timeline_min_height).
 * Where it would not (a short page presented), the grid moves beside it,
 * to the left, if its cells come out bigger there than squeezed into what
 * is left above; where neither leaves cells big enough to read, the grid
 * is not shown rather than as a thumbnail.  Two kernels (rung N beside
 * N−1) get a grid each, side by side above their timelines, the grids
 * half of the height at least.  The page and the export
 * (tl-render-blocks.c) both ask here, so a picture shows what the screen
 * showed.  (Made in tl-render-blocks.c.)
 */
#pragma once

#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-style.h"
#include "paint/tl-render.h"

G_BEGIN_DECLS

/* A kernel's tile grid as the blocks view paints it: the page's hover
 * and arrangement read the same model.  What it owns goes with
 * tl_blocks_grid_clear (after a fill that failed too). */
typedef struct
{
  TlBlocksModel model;
  char *title, *caption;
  TlPlanView *plan;
} TlBlocksGrid;

/* FALSE with error where the blocks view would not draw (no such kernel,
 * no blocks in that launch): the first kernel of o->kernels. */
gboolean tl_blocks_grid_fill (TlBlocksGrid *grid, const TlRenderInput *input, const TlRenderOptions *o,
                              GError **error);
void     tl_blocks_grid_clear (TlBlocksGrid *grid);

/* Two kernels (rung N and N−1) side by side: a grid each, titled by
 * rung number and name ("05 …", as Compare names it), each in its half
 * of the width with C's proportions; where the timelines keep one time
 * scale (!o->own_time_scale) the grids keep one colour scale, and their
 * facts say so. */
#define TL_BLOCKS_MAX_GRIDS 2

/* The grids of o->kernels (one per stacked record), at most
 * TL_BLOCKS_MAX_GRIDS; how many, 0 with error as tl_blocks_grid_fill. */
guint    tl_blocks_grids_fill (TlBlocksGrid grids[TL_BLOCKS_MAX_GRIDS], const TlRenderInput *input,
                               const TlRenderOptions *o, GError **error);
void     tl_blocks_grids_clear (TlBlocksGrid *grids, guint n);
/* grid i of n's column of a width-wide picture: its left edge and width
 * (grids on one scale share one colour bar, right of the last) */
void     tl_blocks_grid_column (const TlBlocksGrid *grids, guint n, guint i, const TlPaintStyle *style,
                                double width, double *x, double *w);
/* grid i of n as painted in a width × height picture, in its coordinates */
void     tl_blocks_grids_layout (const TlBlocksGrid *grids, guint n, guint i, const TlPaintStyle *style,
                                 double width, double height, TlBlocksLayout *out);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TlBlocksGrid, tl_blocks_grid_clear)

typedef struct
{
  gboolean beside;      /* the grid left of the timelines; FALSE: above them */
  gboolean grid_hidden; /* no room for a grid to read: the timelines alone */
  double split;         /* the grid's width (beside) or height (above), in device pixels */
} TlBlocksArrangement;

/* The least share of the height the grid's plot gets in a window where
 * the timelines keep their readable height below it: a lecturer shows
 * which block ran where (a 16×16 grid was 153 px of a 1024×768 window's
 * 467).  Presented, the grid and the timelines get half each (gui-screens
 * checks it), the type bigger. */
#define TL_BLOCKS_GRID_PLOT_SHARE 0.4

/* Two grids side by side in a window: their share of the height.  Each
 * has half the width, and its titles take three lines there (1024×768);
 * at half the height its cells were 122 px of 467, the timelines below
 * then keep their waves and tails, not every summary line. */
#define TL_BLOCKS_TWO_GRIDS_SHARE 0.55

/* The grid's usual share of the height: two fifths beside two timelines
 * in a window (they need the room of two), half for one and presenting
 * (the grid keeps C's proportions, so it needs the height); two grids
 * side by side TL_BLOCKS_TWO_GRIDS_SHARE in a window, half presenting. */
double tl_blocks_grid_share (guint n_tracks, guint n_grids, gboolean presentation);

/* grids: the tile grids as they will be painted (side by side).  Where
 * the timelines keep their readable height anyway, the grids get their
 * usual share of the height (tl_blocks_grid_share), in a window more (up
 * to what they leave) where a plot would come out less than
 * TL_BLOCKS_GRID_PLOT_SHARE of the height.  Two grids stay above the
 * timelines at half the height even where that squeezes the timelines. */
void tl_blocks_arrange (const TlBlocksGrid *grids, guint n_grids, guint n_tracks, const TlPaintStyle *style,
                        gboolean presentation, double width, double height, TlBlocksArrangement *out);

G_END_DECLS
