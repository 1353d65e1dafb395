/* tl-matrices-page.h — A, B, C of a chosen kernel, the float64 reference
 * and |C − reference| as heatmaps, with linked hover; a hovered block's
 * tile marks what it read (show_tile, tl-page.h).  The page brings win.fit
 * and remembers its colours, pooling and tile grid. */
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
/* "A", "B", "C", "ref", "err" */
GtkWidget  *tl_matrices_page_get_heatmap (TlMatricesPage *self, const char *name);

G_END_DECLS
