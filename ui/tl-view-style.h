/* tl-view-style.h — the painter style of a drawing widget: the theme's
 * colours and the presentation size. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

/* The normal style at 1×, or the presentation style (everything scale×
 * larger); high contrast as asked (Ctrl+H).  Keeps sizes only: colours
 * come from the theme at each draw. */
void tl_view_style_set_presentation (TlPaintStyle *style, double scale, gboolean high_contrast);
/* At the start of a draw: base with the theme's colours — text, the
 * widget's background, the selection and error colours — into out; high
 * contrast when base asks for it or the theme is a HighContrast one (bold
 * text and thicker lines in pure black or white, nothing shrunk).  Paints
 * the widget's own (CSS) background over its allocation and lets the
 * painter leave it alone. */
void tl_view_style_begin_draw       (const TlPaintStyle *base, GtkWidget *widget, cairo_t *cr,
                                     TlPaintStyle *out);
/* Whether the theme GTK draws widget with is a HighContrast one: the
 * setting's name, or $GTK_THEME, which GTK prefers to the setting. */
gboolean tl_view_style_theme_is_high_contrast (GtkWidget *widget);

G_END_DECLS
