/* tl-switcher-fit.c — a view's name in the header bar where it fits, its icon where not. */
#include "tl-switcher-fit.h"

/* room beyond the header bar's least width before the names show: the
 * window can still be narrowed (and the icons come back) from there */
#define SLACK_PX 48
#define ICON_PX 16

typedef struct
{
  GtkStackSwitcher *switcher;
  GPtrArray *pages;      /* the stack's children with an icon */
  GPtrArray *icons;      /* their icon names, kept while their titles show */
  gboolean named;        /* the titles show */
  guint idle;
} Fit;

static void
fit_free (gpointer data)
{
  Fit *fit = data;
  g_clear_handle_id (&fit->idle, g_source_remove);
  g_ptr_array_unref (fit->pages);
  g_ptr_array_unref (fit->icons);
  g_free (fit);
}

/* what the titles take beyond the icons, in px */
static int
names_extra_px (Fit *fit)
{
  GtkWidget *stack = GTK_WIDGET (gtk_stack_switcher_get_stack (fit->switcher));
  int extra = 0;
  for (guint i = 0; i < fit->pages->len; i++)
    {
      g_autofree char *title = NULL;
      gtk_container_child_get (GTK_CONTAINER (stack), fit->pages->pdata[i], "title", &title, NULL);
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (fit->switcher), title);
      int width;
      pango_layout_get_pixel_size (layout, &width, NULL);
      extra += width - ICON_PX;
    }
  return extra;
}

static gboolean
apply_cb (gpointer data)
{
  Fit *fit = data;
  fit->idle = 0;
  GtkWidget *stack = GTK_WIDGET (gtk_stack_switcher_get_stack (fit->switcher));
  for (guint i = 0; i < fit->pages->len; i++)
    gtk_container_child_set (GTK_CONTAINER (stack), fit->pages->pdata[i], "icon-name",
                             fit->named ? NULL : fit->icons->pdata[i], NULL);
  return G_SOURCE_REMOVE;
}

static void
window_allocated_cb (GtkWidget *window, GdkRectangle *allocation, Fit *fit)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (window));
  if (header == NULL || !gtk_widget_get_visible (header) || fit->pages->len == 0)
    return;
  int least;
  gtk_widget_get_preferred_width (header, &least, NULL);
  int extra = names_extra_px (fit);
  int least_with_icons = fit->named ? least - extra : least;
  /* the monitor's width too: with the names, the window cannot be
   * narrowed below them in one step (a move to a 1024-px projector) */
  GdkWindow *gdk_window = gtk_widget_get_window (window);
  GdkMonitor *monitor = gdk_window ? gdk_display_get_monitor_at_window (gdk_window_get_display (gdk_window),
                                                                        gdk_window) : NULL;
  GdkRectangle area = { 0, 0, G_MAXINT / 2, 0 };
  if (monitor != NULL)
    gdk_monitor_get_workarea (monitor, &area);
  int wanted = least_with_icons + extra + SLACK_PX;
  gboolean named = allocation->width >= wanted && area.width >= wanted;
  if (named == fit->named)
    return;
  fit->named = named;
  /* not while the window is being laid out */
  if (fit->idle == 0)
    fit->idle = g_idle_add (apply_cb, fit);
}

void
tl_switcher_fit_follow (GtkWindow *window, GtkStackSwitcher *switcher)
{
  g_return_if_fail (GTK_IS_WINDOW (window) && GTK_IS_STACK_SWITCHER (switcher));
  Fit *fit = g_new0 (Fit, 1);
  fit->switcher = switcher;
  fit->pages = g_ptr_array_new ();
  fit->icons = g_ptr_array_new_with_free_func (g_free);
  GtkStack *stack = gtk_stack_switcher_get_stack (switcher);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (stack));
  for (GList *l = children; l; l = l->next)
    {
      char *icon = NULL;
      gtk_container_child_get (GTK_CONTAINER (stack), l->data, "icon-name", &icon, NULL);
      if (icon == NULL)
        continue;
      g_ptr_array_add (fit->pages, l->data);
      g_ptr_array_add (fit->icons, icon);
    }
  g_object_set_data_full (G_OBJECT (window), "tl-switcher-fit", fit, fit_free);
  g_signal_connect_after (window, "size-allocate", G_CALLBACK (window_allocated_cb), fit);
}
