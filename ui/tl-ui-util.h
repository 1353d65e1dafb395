/* tl-ui-util.h — small helpers the pages share. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A combo box that may shrink: its entries are ellipsized below their
 * natural width, down to width_chars characters (the popup shows them
 * whole), and the chosen entry's full text is its tooltip. */
void tl_combo_box_allow_shrinking (GtkComboBox *combo, int width_chars);

/* Keeps a paned's divider at ratio (0…1) of its length as the window
 * changes size, until the user drags the divider. */
void tl_paned_keep_ratio (GtkPaned *paned, double ratio);
/* a new ratio for such a paned (the user's position, once dragged, stays) */
void tl_paned_set_ratio (GtkPaned *paned, double ratio);

/* TRUE when the widget's theme draws light text on a dark background */
gboolean tl_widget_has_dark_background (GtkWidget *widget);

/* the app's settings, or NULL when its schema is not installed (a build
 * tree run without GSETTINGS_SCHEMA_DIR) */
GSettings *tl_settings_new_if_installed (void);

G_END_DECLS
