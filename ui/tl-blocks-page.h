/* tl-blocks-page.h — per-block timing: the block-time grid over C's tiles
 * and the SM (or CPU thread) timeline, a second kernel beside it.
 *
 * The block under the pointer is "tile-hovered" (tl-page.h): it computed
 * C[row0 … row0+rows−1, col0 … col0+cols−1]; kernel NULL when the pointer
 * left. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-paint-blocks.h"
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_BLOCKS_PAGE (tl_blocks_page_get_type ())
G_DECLARE_FINAL_TYPE (TlBlocksPage, tl_blocks_page, TL, BLOCKS_PAGE, GtkBox)

/* selects the kernel (and optionally a second one beside it, NULL: none) */
void       tl_blocks_page_show_kernels (TlBlocksPage *self, const char *kernel_id, const char *beside_id);
/* two timelines on one shared time scale (FALSE), or each on its own: as
 * the toolbar's "Time scale" choice */
void       tl_blocks_page_set_own_time_scale (TlBlocksPage *self, gboolean own);
/* whether that choice can be seen and used now */
gboolean   tl_blocks_page_time_scale_shown (TlBlocksPage *self);
/* the grid, or the timeline */
GtkWidget *tl_blocks_page_get_area (TlBlocksPage *self, gboolean timeline);
/* tile grid which (0: the kernel's, 1: the one beside it) as painted
 * now, in the grid area's pixels; FALSE when it is not shown */
gboolean   tl_blocks_page_get_grid_layout (TlBlocksPage *self, guint which, TlBlocksLayout *out);
/* as if the pointer were over tile (x, y) of the grid; −1 clears */
void       tl_blocks_page_hover_tile (TlBlocksPage *self, gint tile_x, gint tile_y);

G_END_DECLS
