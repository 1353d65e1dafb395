/* tl-sheet-grid.c — a table of facts as a grid of labels. */
#include "tl-sheet-grid.h"

/* a label of the grid: wrapping at words, its text selectable with the
 * pointer (to copy a fact) without taking the keyboard's focus */
static GtkWidget *
cell_new (const char *text, gboolean widens)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_can_focus (label, FALSE);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (widens)
    {
      /* asks for a little width and takes what the page has left */
      gtk_label_set_width_chars (GTK_LABEL (label), 12);
      gtk_widget_set_hexpand (label, TRUE);
    }
  else
    /* a fact's name: a long one (Serbian) goes on in a second line */
    gtk_label_set_max_width_chars (GTK_LABEL (label), 26);
  gtk_widget_show (label);
  return label;
}

static void
cell_add_class (GtkWidget *label, const char *name)
{
  gtk_style_context_add_class (gtk_widget_get_style_context (label), name);
}

/* row at line top of grid; after: the row above it (NULL: none) */
static void
attach_row (GtkGrid *grid, const TlSheetRow *row, int top, const TlSheetRow *after, GtkSizeGroup *labels)
{
  GtkWidget *cell;
  switch (row->kind)
    {
    case TL_SHEET_HEADING:
      cell = cell_new (row->label, TRUE);
      cell_add_class (cell, "sheet-heading");
      if (after != NULL)
        gtk_widget_set_margin_top (cell, 12);
      gtk_grid_attach (grid, cell, 0, top, 2, 1);
      break;
    case TL_SHEET_SENTENCE:
      cell = cell_new (row->value, TRUE);
      /* words after a table of facts: apart from its last row */
      if (after != NULL && after->kind != TL_SHEET_SENTENCE)
        gtk_widget_set_margin_top (cell, 6);
      gtk_grid_attach (grid, cell, 0, top, 2, 1);
      break;
    case TL_SHEET_NOTE:
      cell = cell_new (row->value, TRUE);
      cell_add_class (cell, "sheet-note");
      gtk_grid_attach (grid, cell, 1, top, 1, 1);
      break;
    case TL_SHEET_ROW:
      cell = cell_new (row->label, FALSE);
      if (labels != NULL)
        gtk_size_group_add_widget (labels, cell);
      gtk_grid_attach (grid, cell, 0, top, 1, 1);
      cell = cell_new (row->value, TRUE);
      cell_add_class (cell, "readout");
      gtk_grid_attach (grid, cell, 1, top, 1, 1);
      break;
    }
}

void
tl_sheet_grid_fill (GtkGrid *grid, const TlSheet *sheet, guint from_row, GtkSizeGroup *labels)
{
  g_return_if_fail (GTK_IS_GRID (grid) && sheet != NULL);
  GList *old = gtk_container_get_children (GTK_CONTAINER (grid));
  for (GList *l = old; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (old);
  for (guint i = from_row; i < tl_sheet_get_n_rows (sheet); i++)
    attach_row (grid, tl_sheet_get_row (sheet, i), (int) (i - from_row),
                i > from_row ? tl_sheet_get_row (sheet, i - 1) : NULL, labels);
}
