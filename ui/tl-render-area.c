/* tl-render-area.c — hosts tl_render_draw in a widget. */
#include "tl-render-area.h"

#include <glib/gi18n-lib.h>
#include "paint/tl-paint-util.h"
#include "tl-view-style.h"

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
  gboolean gauss_record_range, own_time_scale;
  char *problem;
  TlPaintStyle drawn_style;   /* as last drawn, theme colours included (for hit tests) */
  gboolean drawn;
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
  o->gauss_record_range = self->gauss_record_range;
  o->own_time_scale = self->own_time_scale;
  o->width = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  o->height = gtk_widget_get_allocated_height (GTK_WIDGET (self));
}

/* The sizes the area draws with: the same type as every other view (the
 * heatmaps, the charts), enlarged in presentation mode. */
static void
base_style (TlRenderArea *self, TlPaintStyle *style)
{
  tl_view_style_set_presentation (style, self->presentation ? TL_PAINT_PRESENTATION_SCALE : 1.0,
                                  self->high_contrast);
}

static gboolean
tl_render_area_draw (GtkWidget *widget, cairo_t *cr)
{
  TlRenderArea *self = TL_RENDER_AREA (widget);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  TlRenderOptions o;
  TlPaintStyle base, style;
  g_autoptr (GError) error = NULL;

  base_style (self, &base);
  tl_view_style_begin_draw (&base, widget, cr, &style);
  self->drawn_style = style;
  self->drawn = TRUE;
  g_clear_pointer (&self->problem, g_free);
  if (self->input.record == NULL && self->input.lu == NULL)
    {
      tl_paint_hint (cr, &style, w, h, self->empty_text);
      return FALSE;
    }
  tl_render_area_get_options (self, &o);
  cairo_save (cr);
  if (!tl_render_draw (cr, &self->input, &o, &style, w, h, &error))
    {
      cairo_restore (cr);
      self->problem = g_strdup (error->message);
      gtk_render_background (gtk_widget_get_style_context (widget), cr, 0, 0, w, h);
      g_autofree char *text = g_strdup_printf ("%s\n\n%s", self->empty_text ? self->empty_text : "",
                                               error->message);
      tl_paint_hint (cr, &style, w, h, text);
      return FALSE;
    }
  cairo_restore (cr);
  return FALSE;
}

void
tl_render_area_get_style (TlRenderArea *self, TlPaintStyle *style)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  if (self->drawn)
    *style = self->drawn_style;
  else
    base_style (self, style);
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
  self->drawn = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_render_area_set_gauss_record_range (TlRenderArea *self, gboolean record_range)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  if (self->gauss_record_range == record_range)
    return;
  self->gauss_record_range = record_range;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tl_render_area_get_gauss_record_range (TlRenderArea *self)
{
  g_return_val_if_fail (TL_IS_RENDER_AREA (self), FALSE);
  return self->gauss_record_range;
}

void
tl_render_area_set_own_time_scale (TlRenderArea *self, gboolean own)
{
  g_return_if_fail (TL_IS_RENDER_AREA (self));
  if (self->own_time_scale == own)
    return;
  self->own_time_scale = own;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tl_render_area_get_own_time_scale (TlRenderArea *self)
{
  g_return_val_if_fail (TL_IS_RENDER_AREA (self), FALSE);
  return self->own_time_scale;
}
