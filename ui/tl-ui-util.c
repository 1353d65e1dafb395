/* tl-ui-util.c — small helpers the pages share. */
#include "tl-ui-util.h"

#include <stdlib.h>

static void
combo_tooltip_cb (GtkComboBox *combo, gpointer data)
{
  g_autofree char *text = GTK_IS_COMBO_BOX_TEXT (combo)
    ? gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (combo)) : NULL;
  gtk_widget_set_tooltip_text (GTK_WIDGET (combo), text);
}

void
tl_combo_box_allow_shrinking (GtkComboBox *combo, int width_chars)
{
  g_return_if_fail (GTK_IS_COMBO_BOX (combo));
  g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (combo));
  for (GList *l = cells; l; l = l->next)
    if (GTK_IS_CELL_RENDERER_TEXT (l->data))
      g_object_set (l->data, "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", width_chars, NULL);
  g_signal_connect (combo, "changed", G_CALLBACK (combo_tooltip_cb), NULL);
}

/* A paned that keeps its children's sizes in proportion (tl_paned_keep_ratio):
 * the ratio, whether the user moved the divider (then their position stays),
 * and the idle that applies the ratio. */
typedef struct
{
  GtkPaned *paned;
  double ratio;
  gboolean moved;
  guint idle_id;
} PanedRatio;

static void
paned_ratio_free (PanedRatio *r)
{
  if (r->idle_id)
    g_source_remove (r->idle_id);
  g_free (r);
}

static int
paned_ratio_position (const PanedRatio *r)
{
  GtkAllocation a;
  gtk_widget_get_allocation (GTK_WIDGET (r->paned), &a);
  gboolean vertical = gtk_orientable_get_orientation (GTK_ORIENTABLE (r->paned)) == GTK_ORIENTATION_VERTICAL;
  return (int) (r->ratio * (vertical ? a.height : a.width));
}

/* The position is set from an idle callback, after the allocation: a
 * resize queued from inside size-allocate can be dropped, leaving the .ui's
 * position on screen (the Blocks page kept the .ui's height for its tile
 * map, with two timelines below). */
static gboolean
paned_apply_cb (gpointer data)
{
  PanedRatio *r = data;
  r->idle_id = 0;
  int position = paned_ratio_position (r);
  if (!r->moved && abs (position - gtk_paned_get_position (r->paned)) > 1)
    gtk_paned_set_position (r->paned, position);
  return G_SOURCE_REMOVE;
}

static void
paned_ratio_apply_soon (PanedRatio *r)
{
  if (r->moved || r->idle_id != 0
      || abs (paned_ratio_position (r) - gtk_paned_get_position (r->paned)) <= 1)
    return;
  r->idle_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, paned_apply_cb, r, NULL);
}

static void
paned_allocated_cb (GtkWidget *paned, GdkRectangle *allocation, PanedRatio *r)
{
  paned_ratio_apply_soon (r);
}

/* a press on the divider: from now on the user's position stays.  Presses
 * on the children that they leave unhandled (a click on a heatmap) bubble
 * up to the paned as well: only the handle's window counts. */
static gboolean
paned_pressed_cb (GtkWidget *paned, GdkEvent *event, PanedRatio *r)
{
  if (event->any.window == gtk_paned_get_handle_window (GTK_PANED (paned)))
    r->moved = TRUE;
  return FALSE;
}

void
tl_paned_keep_ratio (GtkPaned *paned, double ratio)
{
  g_return_if_fail (GTK_IS_PANED (paned));
  PanedRatio *r = g_new0 (PanedRatio, 1);
  r->paned = paned;
  r->ratio = CLAMP (ratio, 0, 1);
  g_object_set_data_full (G_OBJECT (paned), "tl-paned-ratio", r, (GDestroyNotify) paned_ratio_free);
  g_signal_connect_after (paned, "size-allocate", G_CALLBACK (paned_allocated_cb), r);
  g_signal_connect (paned, "button-press-event", G_CALLBACK (paned_pressed_cb), r);
}

void
tl_paned_set_ratio (GtkPaned *paned, double ratio)
{
  g_return_if_fail (GTK_IS_PANED (paned));
  PanedRatio *r = g_object_get_data (G_OBJECT (paned), "tl-paned-ratio");
  g_return_if_fail (r != NULL);
  r->ratio = CLAMP (ratio, 0, 1);
  if (gtk_widget_get_allocated_width (GTK_WIDGET (paned)) > 1)
    paned_ratio_apply_soon (r);
}

gboolean
tl_widget_has_dark_background (GtkWidget *widget)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
  GdkRGBA fg;
  gtk_style_context_get_color (ctx, gtk_style_context_get_state (ctx), &fg);
  /* light text means a dark background, whatever the theme calls itself */
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

GSettings *
tl_settings_new_if_installed (void)
{
  GSettingsSchemaSource *src = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = src ? g_settings_schema_source_lookup (src, "org.tilelab.Tilelab", TRUE) : NULL;
  return schema ? g_settings_new ("org.tilelab.Tilelab") : NULL;
}
