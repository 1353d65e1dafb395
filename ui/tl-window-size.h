/* tl-window-size.h — a window's size, kept between launches.
 *
 * The size to remember is the last one the window had while neither
 * maximized nor held (presenting, full screen); a size brought back, or
 * the template's default, is kept inside the monitor's work area.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  int width, height;      /* 0: none seen yet */
  gboolean maximized;
  gboolean held;          /* presenting: the size now is not the one to keep */
} TlWindowSize;

/* follows window's size from now on (size lives as long as window) */
void tl_window_size_track   (TlWindowSize *size, GtkWindow *window);
/* the default size fitted to the monitor */
void tl_window_size_fit     (GtkWindow *window);
/* the size and maximized state saved in settings, fitted to the monitor */
void tl_window_size_restore (GtkWindow *window, GSettings *settings);
void tl_window_size_save    (const TlWindowSize *size, GSettings *settings);

G_END_DECLS
