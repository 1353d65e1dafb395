/* tl-compare-page.h — the kernels side by side: a bar per kernel (time or
 * GFLOP/s), the clicked run's details, and the size sweep.
 *
 * A clicked bar points at its kernel ("show-kernel", tl-page.h); the page
 * brings win.copy-csv. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_COMPARE_PAGE (tl_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (TlComparePage, tl_compare_page, TL, COMPARE_PAGE, GtkBox)

/* as if bar index were clicked */
void   tl_compare_page_select_bar (TlComparePage *self, gint index);
guint  tl_compare_page_get_n_bars (TlComparePage *self);
/* the table of the runs on show, as CSV (C locale numbers) */
char  *tl_compare_page_get_csv    (TlComparePage *self);

G_END_DECLS
