/* tl-heatmap-pool.c — a heatmap's picture made in a GTask's thread. */
#include "tl-heatmap-pool.h"

/* a matrix this large first shows a preview pooled from a sample of its rows */
#define PREVIEW_CELLS 256
#define PREVIEW_STRIDE 8
/* thumbnails are pooled from every THUMB_STRIDE-th row of a large matrix */
#define THUMB_STRIDE 4

void
tl_heatmap_pool_input_free (TlHeatmapPoolInput *in)
{
  tl_matrix_unref (in->matrix);
  g_free (in);
}

void
tl_heatmap_pool_output_free (TlHeatmapPoolOutput *out)
{
  g_clear_pointer (&out->grid, tl_pooled_grid_unref);
  g_clear_pointer (&out->image, cairo_surface_destroy);
  g_free (out);
}

/* The colour scale from the range of all the data (or the range shared
 * with the other views): the same cell keeps its colour whatever the
 * zoom and the pooling. */
void
tl_heatmap_pool_scale (TlColorScale *scale, gint colormap, TlScale kind, gboolean shared,
            double shared_min, double shared_max, const TlValueRange *range)
{
  TlValueRange r = *range;
  if (shared)
    {
      r.min = shared_min;
      r.max = shared_max;
    }
  tl_color_scale_init_for_range (scale, colormap, kind, &r);
}

typedef struct
{
  GTask *task;
  TlHeatmapPoolOutput *out;
} PreviewDelivery;

static void
preview_delivery_free (PreviewDelivery *d)
{
  g_object_unref (d->task);
  if (d->out)
    tl_heatmap_pool_output_free (d->out);
  g_free (d);
}

/* On the main loop: the preview, unless the request is over. */
static gboolean
preview_ready_cb (gpointer data)
{
  PreviewDelivery *d = data;
  TlHeatmapPoolInput *in = g_task_get_task_data (d->task);
  if (!g_task_get_completed (d->task) && !g_cancellable_is_cancelled (g_task_get_cancellable (d->task)))
    in->preview_ready (g_task_get_source_object (d->task), g_task_get_cancellable (d->task),
                       g_steal_pointer (&d->out));
  return G_SOURCE_REMOVE;
}

/* A first look at a large matrix within a fraction of the full pooling's
 * time: every PREVIEW_STRIDE-th row, on its own (sample's) colour range,
 * labelled as such; the full grid replaces it. */
static void
deliver_preview (GTask *task, TlHeatmapPoolInput *in, GCancellable *cancellable)
{
  TlPooledGrid *g = tl_pool_matrix_preview (in->matrix, PREVIEW_CELLS, PREVIEW_CELLS, PREVIEW_STRIDE,
                                            in->mode, cancellable, NULL);
  if (g == NULL)
    return;
  PreviewDelivery *d = g_new0 (PreviewDelivery, 1);
  d->task = g_object_ref (task);
  d->out = g_new0 (TlHeatmapPoolOutput, 1);
  d->out->grid = g;
  d->out->range = g->range;
  tl_heatmap_pool_scale (&d->out->scale, in->colormap, in->scale_kind, in->shared, in->shared_min,
              in->shared_max, &d->out->range);
  d->out->image = tl_pooled_grid_colorize (g, &d->out->scale);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT, preview_ready_cb, d,
                              (GDestroyNotify) preview_delivery_free);
}

void
tl_heatmap_pool_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  TlHeatmapPoolInput *in = task_data;
  GError *error = NULL;
  TlHeatmapPoolOutput *out = g_new0 (TlHeatmapPoolOutput, 1);

  if (in->thumbnail && in->matrix->rows * in->matrix->cols >= TL_HEATMAP_PREVIEW_ELEMENTS)
    {
      /* a 110-pixel thumbnail: a sample of the rows is enough */
      out->grid = tl_pool_matrix_preview (in->matrix, in->max_r, in->max_c, THUMB_STRIDE, in->mode,
                                          cancellable, &error);
      if (out->grid == NULL)
        {
          tl_heatmap_pool_output_free (out);
          g_task_return_error (task, error);
          return;
        }
      out->range = out->grid->range;
      tl_heatmap_pool_scale (&out->scale, in->colormap, in->scale_kind, in->shared, in->shared_min,
                  in->shared_max, &out->range);
      out->image = tl_pooled_grid_colorize (out->grid, &out->scale);
      g_task_return_pointer (task, out, (GDestroyNotify) tl_heatmap_pool_output_free);
      return;
    }
  if (in->preview)
    deliver_preview (task, in, cancellable);
  gboolean whole = in->row0 == 0 && in->col0 == 0 && (in->rows == 0 || in->rows >= in->matrix->rows)
                   && (in->cols == 0 || in->cols >= in->matrix->cols);

  out->range = in->range;
  /* a zoomed region of a matrix whose range is not known yet: read it all once */
  if (!in->have_range && !whole
      && !tl_pool_value_range (in->matrix, cancellable, &out->range, &error))
    {
      tl_heatmap_pool_output_free (out);
      g_task_return_error (task, error);
      return;
    }
  out->grid = tl_pool_matrix (in->matrix, in->row0, in->col0, in->rows, in->cols,
                              in->max_r, in->max_c, in->mode, cancellable, &error);
  if (out->grid == NULL)
    {
      tl_heatmap_pool_output_free (out);
      g_task_return_error (task, error);
      return;
    }
  if (!in->have_range && whole)
    out->range = out->grid->range;
  tl_heatmap_pool_scale (&out->scale, in->colormap, in->scale_kind, in->shared, in->shared_min,
              in->shared_max, &out->range);
  out->image = tl_pooled_grid_colorize (out->grid, &out->scale);
  g_task_return_pointer (task, out, (GDestroyNotify) tl_heatmap_pool_output_free);
}
