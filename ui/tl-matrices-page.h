/* tl-matrices-page.h — A, B, C of a chosen kernel, the float64 reference
 * and |C − reference| as heatmaps, with linked hover.
 *
 * "hover-text" (const char *text): what the pointer is over, for the
 * status bar. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_MATRICES_PAGE (tl_matrices_page_get_type ())
G_DECLARE_FINAL_TYPE (TlMatricesPage, tl_matrices_page, TL, MATRICES_PAGE, GtkBox)

/* which kernel's C is shown */
void        tl_matrices_page_show_c (TlMatricesPage *self, const char *kernel_id);
const char *tl_matrices_page_get_shown_kernel (TlMatricesPage *self);
void        tl_matrices_page_set_tile_grid (TlMatricesPage *self, gboolean show);
void        tl_matrices_page_fit (TlMatricesPage *self);
/* as if the pointer were over C[row, col]; −1 clears */
void        tl_matrices_page_hover_c (TlMatricesPage *self, gssize row, gssize col);
/* marks the rows of A and columns of B a block's tile of C read (and the
 * tile in C when kernel_id's C is shown); rows == 0 clears */
void        tl_matrices_page_highlight_tile (TlMatricesPage *self, const char *kernel_id,
                                             gsize row0, gsize rows, gsize col0, gsize cols);
/* "A", "B", "C", "ref", "err" */
GtkWidget  *tl_matrices_page_get_heatmap (TlMatricesPage *self, const char *name);
/* remembers colours, pooling and the tile grid */
void        tl_matrices_page_bind_settings (TlMatricesPage *self, GSettings *settings);

G_END_DECLS
