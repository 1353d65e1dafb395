/* tl-render-area.c — hosts tl_render_draw in a widget. */
#include "tl-render-area.h"

#include <glib/gi18n-lib.h>

struct _TlRenderArea
{
  GtkDrawingArea parent_instance;

  TlRenderView view;
  TlRenderInput input;     /* borrowed pointers */
  char *kernels;
  char *color;
  char *empty_text;
  guint step;
  gint tile_x, tile_y;
  gboolean presentation, high_contrast;
  char *problem;
};

G_DEFINE_FINAL_TYPE (TlRenderArea, tl_render_area, GTK_TYPE_DRAWING_AREA)

void
tl_render_area_get_options (TlRenderArea *self, TlRenderOptions *o)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  tl_render_options_init (o);
  o->view = self->view;
  o->kernels = self->kernels;
  o->color = self->color;
  o->step = self->step;
  o->tile_x = self->tile_x;
  o->tile_y = self->tile_y;
  o->presentation = self->presentation;
  o->high_contrast = self->high_contrast;
  o->width = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  o->height = gtk_widget_get_allocated_height (GTK_WIDGET (self));
}

static void
draw_text (cairo_t *cr, GtkWidget *widget, const char *text, double w, double h)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int tw, th;
  pango_layout_set_width (layout, (int) (w * 0.8) * PANGO_SCALE);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_get_pixel_size (layout, &tw, &th);
  gtk_render_layout (gtk_widget_get_style_context (widget), cr, (w - tw) / 2, (h - th) / 2, layout);
  g_object_unref (layout);
}

static gboolean
tl_render_area_draw (GtkWidget *widget, cairo_t *cr)
{
  TlRenderArea *self = TL_RENDER_AREA (widget);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  TlRenderOptions o;
  TlPaintStyle style;
  g_autoptr (GError) error = NULL;

  gtk_render_background (gtk_widget_get_style_context (widget), cr, 0, 0, w, h);
  g_clear_pointer (&self->problem, g_free);
  if (self->input.record == NULL && self->input.lu == NULL)
    {
      draw_text (cr, widget, self->empty_text ? self->empty_text : "", w, h);
      return FALSE;
    }
  tl_render_area_get_options (self, &o);
  tl_render_area_get_style (self, &style);
  cairo_save (cr);
  if (!tl_render_draw (cr, &self->input, &o, &style, w, h, &error))
    {
      cairo_restore (cr);
      self->problem = g_strdup (error->message);
      gtk_render_background (gtk_widget_get_style_context (widget), cr, 0, 0, w, h);
      g_autofree char *text = g_strdup_printf ("%s\n\n%s", self->empty_text ? self->empty_text : "",
                                               error->message);
      draw_text (cr, widget, text, w, h);
      return FALSE;
    }
  cairo_restore (cr);
  return FALSE;
}

void
tl_render_area_get_style (TlRenderArea *self, TlPaintStyle *style)
{
  TlRenderOptions o;
  double w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  double h = gtk_widget_get_allocated_height (GTK_WIDGET (self));

  tl_render_area_get_options (self, &o);
  tl_render_style_init (style, &o, w, h, 1.0);
  /* tl-render scales type with the canvas; on screen keep it readable */
  style->font_size = MAX (style->font_size, self->presentation ? 20.0 : 13.0);
  style->title_font_size = MAX (style->title_font_size, self->presentation ? 26.0 : 16.0);
}

void
tl_render_area_set_tile (TlRenderArea *self, gint tile_x, gint tile_y)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  if (self->tile_x == tile_x && self->tile_y == tile_y)
    return;
  self->tile_x = tile_x;
  self->tile_y = tile_y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tl_render_area_finalize (GObject *object)
{
  TlRenderArea *self = TL_RENDER_AREA (object);
  g_free (self->kernels);
  g_free (self->color);
  g_free (self->empty_text);
  g_free (self->problem);
  G_OBJECT_CLASS (tl_render_area_parent_class)->finalize (object);
}

static void
tl_render_area_class_init (TlRenderAreaClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tl_render_area_finalize;
  GTK_WIDGET_CLASS (klass)->draw = tl_render_area_draw;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "chart");
}

static void
tl_render_area_init (TlRenderArea *self)
{
  self->tile_x = self->tile_y = -1;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 160);
}

GtkWidget *
tl_render_area_new (TlRenderView view)
{
  TlRenderArea *self = g_object_new (TL_TYPE_RENDER_AREA, NULL);
  self->view = view;
  return GTK_WIDGET (self);
}

void
tl_render_area_set_input (TlRenderArea *self, TlRunRecord *record, TlLuRecorder *lu)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  self->input.record = record;
  self->input.lu = lu;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_kernels (TlRenderArea *self, const char *kernels)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  g_free (self->kernels);
  self->kernels = g_strdup (kernels);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_color (TlRenderArea *self, const char *color)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  g_free (self->color);
  self->color = g_strdup (color);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_step (TlRenderArea *self, guint step)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  self->step = step;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_empty_text (TlRenderArea *self, const char *text)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  g_free (self->empty_text);
  self->empty_text = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_presentation (TlRenderArea *self, gboolean on, gboolean high_contrast)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  self->presentation = on;
  self->high_contrast = high_contrast;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
tl_render_area_get_problem (TlRenderArea *self)
{
  g_return_val_if_fail (TL_IS_RENDER_AREA (self), NULL);
  return self->problem;
}
