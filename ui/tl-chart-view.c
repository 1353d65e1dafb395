/* tl-chart-view.c — owns an immutable copy of a chart model and paints it. */
#include "tl-chart-view.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "paint/tl-paint-util.h"
#include "tl-view-style.h"

struct _TlChartView
{
  GtkDrawingArea parent_instance;

  TlChartKind kind;
  TlCompareModel bars_model;
  GArray *bars;          /* TlCompareBar with owned strings */
  TlSweepModel sweep_model;
  GArray *series;        /* TlSweepSeries with owned arrays */
  GPtrArray *machines;   /* the sweep's machine names (in strings) */
  GStringChunk *strings;
  TlPaintStyle style;       /* sizes, as set for presentation */
  TlPaintStyle drawn_style; /* with the theme's colours, as last drawn (for hit tests) */
};

G_DEFINE_FINAL_TYPE (TlChartView, tl_chart_view, GTK_TYPE_DRAWING_AREA)

enum { SIGNAL_BAR_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const char *
keep (TlChartView *self, const char *s)
{
  return s ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

static void
clear_series (TlChartView *self)
{
  for (guint i = 0; i < self->series->len; i++)
    {
      TlSweepSeries *s = &g_array_index (self->series, TlSweepSeries, i);
      g_free ((double *) s->n);
      g_free ((double *) s->gflops);
      g_free ((gsize *) s->shape);
    }
  g_array_set_size (self->series, 0);
}

void
tl_chart_view_set_bars (TlChartView *self, const TlCompareModel *model)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));

  TlCompareMetric metric = self->bars_model.metric;
  gint selected = self->bars_model.selected_index;

  g_array_set_size (self->bars, 0);
  for (guint i = 0; i < model->n_bars; i++)
    {
      TlCompareBar b = model->bars[i];
      b.label = keep (self, b.label);
      b.kernel_id = keep (self, b.kernel_id);
      b.failed = keep (self, b.failed);
      b.reference_label = keep (self, b.reference_label);
      g_array_append_val (self->bars, b);
    }
  self->bars_model = *model;
  self->bars_model.bars = (const TlCompareBar *) self->bars->data;
  self->bars_model.title = keep (self, model->title);
  self->bars_model.reference_name = keep (self, model->reference_name);
  self->bars_model.baseline_name = keep (self, model->baseline_name);
  self->bars_model.metric = metric;
  self->bars_model.selected_index = selected < (gint) model->n_bars ? selected : -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
tl_chart_view_set_sweep (TlChartView *self, const TlSweepModel *model)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));

  clear_series (self);
  for (guint i = 0; i < model->n_series; i++)
    {
      TlSweepSeries s = model->series[i];
      s.label = keep (self, s.label);
      s.kernel_id = keep (self, s.kernel_id);
      s.tag = keep (self, s.tag);
      s.n = g_memdup2 (s.n, sizeof (double) * MAX (s.count, 1));
      s.gflops = g_memdup2 (s.gflops, sizeof (double) * MAX (s.count, 1));
      if (s.shape)
        s.shape = g_memdup2 (s.shape, sizeof (gsize) * 3 * MAX (s.count, 1));
      g_array_append_val (self->series, s);
    }
  self->sweep_model.series = (const TlSweepSeries *) self->series->data;
  self->sweep_model.n_series = self->series->len;
  self->sweep_model.title = keep (self, model->title);
  if (model->picked != NULL)
    self->sweep_model.picked = keep (self, model->picked);
  self->sweep_model.percent = model->percent;
  g_ptr_array_set_size (self->machines, 0);
  for (guint m = 0; m < model->n_machines; m++)
    g_ptr_array_add (self->machines, (gpointer) keep (self, model->machines[m]));
  self->sweep_model.machines = (const char *const *) self->machines->pdata;
  self->sweep_model.n_machines = self->machines->len;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
tl_chart_view_set_metric (TlChartView *self, TlCompareMetric metric)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));
  self->bars_model.metric = metric;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_chart_view_set_selected (TlChartView *self, gint index)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));
  self->bars_model.selected_index = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_chart_view_set_picked (TlChartView *self, const char *kernel_id)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));
  self->sweep_model.picked = keep (self, kernel_id);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
tl_chart_view_get_n_bars (TlChartView *self)
{
  g_return_val_if_fail (TL_IS_CHART_VIEW (self), 0);
  return self->bars->len;
}

void
tl_chart_view_set_presentation (TlChartView *self, double scale, gboolean high_contrast)
{
  g_return_if_fail (TL_IS_CHART_VIEW (self));
  tl_view_style_set_presentation (&self->style, scale, high_contrast);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static gboolean
tl_chart_view_draw (GtkWidget *widget, cairo_t *cr)
{
  TlChartView *self = TL_CHART_VIEW (widget);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);

  TlPaintStyle style;
  tl_view_style_begin_draw (&self->style, widget, cr, &style);
  self->drawn_style = style;

  if (self->kind == TL_CHART_BARS)
    {
      if (self->bars->len == 0)
        {
          tl_paint_hint (cr, &style, w, h,
                         _("Tick kernels and press Run: their times appear here as they finish."));
          return FALSE;
        }
      tl_paint_compare (cr, &self->bars_model, &style, w, h);
    }
  else
    tl_paint_sweep (cr, &self->sweep_model, &style, w, h);
  return FALSE;
}

/* As tall as the chart needs to stay legible (tl_paint_compare_min_height,
 * tl_paint_sweep_min_height) at width (0: not known yet); the page around
 * it scrolls when the window is shorter. */
static int
min_height_for_width (TlChartView *self, int width)
{
  double h = 200;
  if (self->kind == TL_CHART_BARS && self->bars->len > 0)
    h = MAX (h, tl_paint_compare_min_height (&self->bars_model, &self->style));
  else if (self->kind == TL_CHART_SWEEP)
    h = MAX (h, tl_paint_sweep_min_height (&self->sweep_model, &self->style, MAX (width, 0)));
  return (int) ceil (h);
}

static void
tl_chart_view_get_preferred_height (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = *natural = min_height_for_width (TL_CHART_VIEW (widget), 0);
}

/* the sweep's legend takes as many columns as the width gives it, so a
 * wide chart needs fewer rows of it */
static void
tl_chart_view_get_preferred_height_for_width (GtkWidget *widget, int width, int *minimum, int *natural)
{
  *minimum = *natural = min_height_for_width (TL_CHART_VIEW (widget), width);
}

static GtkSizeRequestMode
tl_chart_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static gboolean
tl_chart_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  TlChartView *self = TL_CHART_VIEW (widget);

  if (self->kind != TL_CHART_BARS || event->button != 1 || event->type != GDK_BUTTON_PRESS)
    return FALSE;
  gint i = tl_paint_compare_bar_at (&self->bars_model, &self->drawn_style,
                                    gtk_widget_get_allocated_width (widget),
                                    gtk_widget_get_allocated_height (widget), event->x, event->y);
  if (i >= 0)
    {
      tl_chart_view_set_selected (self, i);
      g_signal_emit (self, signals[SIGNAL_BAR_ACTIVATED], 0, i);
    }
  return TRUE;
}

const char *
tl_chart_view_get_bar_label_at (TlChartView *self, double x, double y)
{
  g_return_val_if_fail (TL_IS_CHART_VIEW (self), NULL);
  if (self->kind != TL_CHART_BARS)
    return NULL;
  GtkWidget *widget = GTK_WIDGET (self);
  gint i = tl_paint_compare_bar_at (&self->bars_model, &self->drawn_style,
                                    gtk_widget_get_allocated_width (widget),
                                    gtk_widget_get_allocated_height (widget), x, y);
  return i >= 0 ? self->bars_model.bars[i].label : NULL;
}

/* a name cut to fit its column reads whole under the pointer */
static gboolean
tl_chart_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  const char *label = keyboard ? NULL : tl_chart_view_get_bar_label_at (TL_CHART_VIEW (widget), x, y);
  if (label == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, label);
  return TRUE;
}

static void
tl_chart_view_finalize (GObject *object)
{
  TlChartView *self = TL_CHART_VIEW (object);
  clear_series (self);
  g_array_unref (self->series);
  g_ptr_array_unref (self->machines);
  g_array_unref (self->bars);
  g_string_chunk_free (self->strings);
  G_OBJECT_CLASS (tl_chart_view_parent_class)->finalize (object);
}

static void
tl_chart_view_class_init (TlChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tl_chart_view_finalize;
  widget_class->draw = tl_chart_view_draw;
  widget_class->button_press_event = tl_chart_view_button_press;
  widget_class->query_tooltip = tl_chart_view_query_tooltip;
  widget_class->get_preferred_height = tl_chart_view_get_preferred_height;
  widget_class->get_preferred_height_for_width = tl_chart_view_get_preferred_height_for_width;
  widget_class->get_request_mode = tl_chart_view_get_request_mode;
  signals[SIGNAL_BAR_ACTIVATED] =
    g_signal_new ("bar-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_css_name (widget_class, "chart");
}

static void
tl_chart_view_init (TlChartView *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (TlCompareBar));
  self->series = g_array_new (FALSE, TRUE, sizeof (TlSweepSeries));
  self->machines = g_ptr_array_new ();
  self->strings = g_string_chunk_new (256);
  tl_compare_model_init (&self->bars_model);
  tl_paint_style_init (&self->style, 1.0);
  self->drawn_style = self->style;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_BUTTON_PRESS_MASK);
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, -1);
}

GtkWidget *
tl_chart_view_new (TlChartKind kind)
{
  TlChartView *self = g_object_new (TL_TYPE_CHART_VIEW, NULL);
  self->kind = kind;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), kind == TL_CHART_BARS);
  return GTK_WIDGET (self);
}
