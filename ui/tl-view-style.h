/* tl-view-style.h — the painter style of a drawing widget: the theme's
 * colours and the presentation size. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

/* The normal style at 1×, or the presentation style when enlarged or in
 * high contrast. */
void tl_view_style_set_presentation (TlPaintStyle *style, double scale, gboolean high_contrast);
/* At the start of a draw: takes the theme's text colour into style, lets
 * the painter leave the background alone, and paints the widget's own
 * (CSS) background over its whole allocation. */
void tl_view_style_begin_draw       (TlPaintStyle *style, GtkWidget *widget, cairo_t *cr);

G_END_DECLS
