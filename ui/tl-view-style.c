/* tl-view-style.c — the painter style of a drawing widget. */
#include "tl-view-style.h"

#include <string.h>

void
tl_view_style_set_presentation (TlPaintStyle *style, double scale, gboolean high_contrast)
{
  if (scale > 1.0)
    tl_paint_style_init_presentation (style, scale, FALSE);
  else
    tl_paint_style_init (style, 1.0);
  style->high_contrast = high_contrast;
}

static void
rgb_from (double out[3], const GdkRGBA *c)
{
  out[0] = c->red;
  out[1] = c->green;
  out[2] = c->blue;
}

gboolean
tl_view_style_theme_is_high_contrast (GtkWidget *widget)
{
  g_autofree char *name = NULL;
  const char *forced = g_getenv ("GTK_THEME");
  GtkSettings *settings = gtk_widget_get_settings (widget);
  if (forced && *forced)
    name = g_strdup (forced);
  else if (settings)
    g_object_get (settings, "gtk-theme-name", &name, NULL);
  return name && strstr (name, "HighContrast") != NULL;
}

void
tl_view_style_begin_draw (const TlPaintStyle *base, GtkWidget *widget, cairo_t *cr,
                          TlPaintStyle *out)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (widget);
  GdkRGBA c;

  *out = *base;
  gtk_style_context_get_color (ctx, gtk_style_context_get_state (ctx), &c);
  rgb_from (out->fg, &c);
  /* heatmap and chart nodes are drawn on the theme's base colour (tilelab.css) */
  if (gtk_style_context_lookup_color (ctx, "theme_base_color", &c))
    rgb_from (out->bg, &c);
  if (gtk_style_context_lookup_color (ctx, "theme_selected_bg_color", &c))
    rgb_from (out->accent, &c);
  if (gtk_style_context_lookup_color (ctx, "error_color", &c))
    rgb_from (out->error, &c);
  tl_paint_style_set_high_contrast (out, base->high_contrast || tl_view_style_theme_is_high_contrast (widget));
  out->transparent = TRUE;
  gtk_render_background (ctx, cr, 0, 0, gtk_widget_get_allocated_width (widget),
                         gtk_widget_get_allocated_height (widget));
}
