/* tl-help-overlay.c — the shortcuts window's words wrapped to its columns. */
#include "tl-help-overlay.h"

/* characters of a shortcut's words a line: two columns and their keys in
 * 1024 px */
#define WORDS_PER_LINE 32

static void
wrap_words_cb (GtkWidget *widget, gpointer data)
{
  /* the words beside the keys, not the keys' own labels */
  if (GTK_IS_LABEL (widget) && gtk_widget_get_ancestor (widget, GTK_TYPE_SHORTCUTS_SHORTCUT) != NULL
      && gtk_widget_get_ancestor (widget, GTK_TYPE_SHORTCUT_LABEL) == NULL)
    {
      gtk_label_set_line_wrap (GTK_LABEL (widget), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (widget), WORDS_PER_LINE);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), wrap_words_cb, data);
}

void
tl_help_overlay_wrap (GtkShortcutsWindow *overlay)
{
  g_return_if_fail (GTK_IS_SHORTCUTS_WINDOW (overlay));
  gtk_container_forall (GTK_CONTAINER (overlay), wrap_words_cb, NULL);
}
