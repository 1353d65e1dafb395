/* tl-blocks-arrange.h — where the Blocks page puts its tile grid and its timelines.
 *
 * The grid sits above the timelines while the timelines keep, in the rest
 * of the page, the height at which every track is readable (its summary,
 * its wave names, its tail's label: tl_paint_timeline_min_height).  Where
 * they would not (two kernels presented on a 1024×768 projector), the
 * grid moves beside them, to the left, if its cells come out bigger there
 * than squeezed into what is left above; the timelines keep their height
 * either way.  Where neither leaves cells big enough to read, the grid is
 * not shown at all rather than as a thumbnail.  The page and the export (tl-render-blocks.c) both ask here,
 * so a picture shows what the screen showed.  (Made in tl-render-blocks.c.)
 */
#pragma once

#include "paint/tl-paint-blocks.h"
#include "paint/tl-paint-style.h"
#include "paint/tl-render.h"

G_BEGIN_DECLS

/* The first kernel's tile grid as the blocks view paints it: the page's
 * hover and arrangement read the same model.  What it owns goes with
 * tl_blocks_grid_clear (after a fill that failed too). */
typedef struct
{
  TlBlocksModel model;
  char *title, *caption;
  TlPlanView *plan;
} TlBlocksGrid;

/* FALSE with error where the blocks view would not draw (no such kernel,
 * no blocks in that launch). */
gboolean tl_blocks_grid_fill (TlBlocksGrid *grid, const TlRenderInput *input, const TlRenderOptions *o,
                              GError **error);
void     tl_blocks_grid_clear (TlBlocksGrid *grid);
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

/* The grid's usual share of the height: two fifths beside two timelines
 * in a window (they need the room of two), half for one and presenting
 * (the grid keeps C's proportions, so it needs the height). */
double tl_blocks_grid_share (guint n_tracks, gboolean presentation);

/* grid: the tile grid as it will be painted.  Where the timelines keep
 * their readable height anyway, the grid gets its usual share of the
 * height (tl_blocks_grid_share), in a window more (up to what they leave)
 * where its plot would come out less than TL_BLOCKS_GRID_PLOT_SHARE of
 * the height. */
void tl_blocks_arrange (const TlBlocksModel *grid, guint n_tracks, const TlPaintStyle *style,
                        gboolean presentation, double width, double height, TlBlocksArrangement *out);

G_END_DECLS
