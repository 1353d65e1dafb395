/* tl-sheet-grid.h — a table of facts (view/tl-sheet.h) as the rows of a
 * GtkGrid: each label in the first column, its value in the second, where
 * a long value wraps within its column instead of under the labels. */
#pragma once

#include <gtk/gtk.h>
#include "view/tl-sheet.h"

G_BEGIN_DECLS

/* grid's children replaced by sheet's rows; from_row: the first row shown
 * (1 leaves out a heading that a widget above already shows); labels: the
 * facts' names join it, so that grids sharing it put their values in one
 * column (NULL: none) */
void tl_sheet_grid_fill (GtkGrid *grid, const TlSheet *sheet, guint from_row, GtkSizeGroup *labels);

G_END_DECLS
