/* tl-chart-view.h — a drawing area hosting the comparison painters:
 * the bars per kernel (click a bar: "bar-activated") or the size sweep. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-paint-compare.h"

G_BEGIN_DECLS

#define TL_TYPE_CHART_VIEW (tl_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (TlChartView, tl_chart_view, TL, CHART_VIEW, GtkDrawingArea)

typedef enum
{
  TL_CHART_BARS,
  TL_CHART_SWEEP,
} TlChartKind;

GtkWidget *tl_chart_view_new (TlChartKind kind);

/* Copies the bars (and their strings). */
void tl_chart_view_set_bars  (TlChartView *self, const TlCompareModel *model);
/* Copies the series (and their arrays). */
void tl_chart_view_set_sweep (TlChartView *self, const TlSweepModel *model);
void tl_chart_view_set_metric (TlChartView *self, TlCompareMetric metric);
void tl_chart_view_set_selected (TlChartView *self, gint index);
/* The sweep's picked kernel (kept across set_sweep); NULL: none. */
void tl_chart_view_set_picked (TlChartView *self, const char *kernel_id);
void tl_chart_view_set_presentation (TlChartView *self, double scale, gboolean high_contrast);
guint tl_chart_view_get_n_bars (TlChartView *self);
/* The whole name of the bar drawn at x, y (its tooltip); NULL: none there. */
const char *tl_chart_view_get_bar_label_at (TlChartView *self, double x, double y);

G_END_DECLS
