/* tl-window-size.c — a window's size, kept between launches. */
#include "tl-window-size.h"

static void
size_allocate_cb (GtkWidget *widget, GdkRectangle *allocation, TlWindowSize *size)
{
  if (!size->maximized && !size->held)
    gtk_window_get_size (GTK_WINDOW (widget), &size->width, &size->height);
}

static gboolean
window_state_cb (GtkWidget *widget, GdkEventWindowState *event, TlWindowSize *size)
{
  size->maximized = (event->new_window_state & GDK_WINDOW_STATE_MAXIMIZED) != 0;
  return FALSE;
}

void
tl_window_size_track (TlWindowSize *size, GtkWindow *window)
{
  g_signal_connect (window, "size-allocate", G_CALLBACK (size_allocate_cb), size);
  g_signal_connect (window, "window-state-event", G_CALLBACK (window_state_cb), size);
}

/* GTK 3's default size leaves out the header bar and the frame around it:
 * a window remembered as 1280×800 would come up 1290×856 and overhang a
 * 1280×800 projector.  The size is kept inside the monitor's work area,
 * less room for those. */
static void
fit_to_monitor (int *width, int *height)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkMonitor *monitor = display ? gdk_display_get_primary_monitor (display) : NULL;
  if (monitor == NULL && display && gdk_display_get_n_monitors (display) > 0)
    monitor = gdk_display_get_monitor (display, 0);
  if (monitor == NULL)
    return;
  GdkRectangle area;
  gdk_monitor_get_workarea (monitor, &area);
  *width = MAX (MIN (*width, area.width - 24), 1);
  *height = MAX (MIN (*height, area.height - 72), 1);
}

void
tl_window_size_fit (GtkWindow *window)
{
  int width, height;
  gtk_window_get_default_size (window, &width, &height);
  fit_to_monitor (&width, &height);
  gtk_window_set_default_size (window, width, height);
}

void
tl_window_size_restore (GtkWindow *window, GSettings *settings)
{
  int width = g_settings_get_int (settings, "window-width");
  int height = g_settings_get_int (settings, "window-height");

  fit_to_monitor (&width, &height);
  gtk_window_set_default_size (window, width, height);
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
}

void
tl_window_size_save (const TlWindowSize *size, GSettings *settings)
{
  if (size->width > 0)
    {
      g_settings_set_int (settings, "window-width", size->width);
      g_settings_set_int (settings, "window-height", size->height);
    }
  g_settings_set_boolean (settings, "window-maximized", size->maximized);
}
