/* tl-view-style.c — the painter style of a drawing widget. */
#include "tl-view-style.h"

void
tl_view_style_set_presentation (TlPaintStyle *style, double scale, gboolean high_contrast)
{
  if (scale > 1.0 || high_contrast)
    tl_paint_style_init_presentation (style, scale, high_contrast);
  else
    tl_paint_style_init (style, 1.0);
}

void
tl_view_style_begin_draw (TlPaintStyle *style, GtkWidget *widget, cairo_t *cr)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
  GdkRGBA fg;

  gtk_style_context_get_color (ctx, gtk_style_context_get_state (ctx), &fg);
  style->fg[0] = fg.red;
  style->fg[1] = fg.green;
  style->fg[2] = fg.blue;
  style->transparent = TRUE;
  gtk_render_background (ctx, cr, 0, 0, gtk_widget_get_allocated_width (widget),
                         gtk_widget_get_allocated_height (widget));
}
