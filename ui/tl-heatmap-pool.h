/* tl-heatmap-pool.h — a heatmap's picture made off the main loop.
 *
 * TlHeatmapView snapshots what it shows into a TlHeatmapPoolInput, the
 * task data of a GTask that runs tl_heatmap_pool_thread: the matrix (or
 * the zoomed region with a margin) pooled into at most max_r × max_c
 * cells and coloured on the range of all the data, so a cell keeps its
 * colour whatever the zoom.  A large matrix shown whole first gets a
 * preview pooled from a sample of its rows (preview_ready); a thumbnail
 * is pooled from a sample only.  The task returns a TlHeatmapPoolOutput.
 */
#pragma once

#include <gio/gio.h>
#include "core/tl-matrix.h"
#include "paint/tl-paint-heatmap.h"
#include "view/tl-pool.h"

G_BEGIN_DECLS

/* a matrix this large shown whole starts with a preview */
#define TL_HEATMAP_PREVIEW_ELEMENTS (2048 * 2048)

typedef struct
{
  TlPooledGrid *grid;
  cairo_surface_t *image;
  TlColorScale scale;
  TlValueRange range;
} TlHeatmapPoolOutput;

typedef struct
{
  TlMatrix *matrix;
  gsize row0, col0, rows, cols, max_r, max_c;
  TlPoolMode mode;
  gint colormap;
  TlScale scale_kind;
  gboolean shared;
  double shared_min, shared_max;
  TlValueRange range;   /* known already when have_range */
  gboolean have_range;
  gboolean preview;     /* deliver a quick preview first */
  gboolean thumbnail;   /* a sampled grid is enough */
  /* on the main loop, given the preview (to keep) while the request is not over */
  void (*preview_ready) (gpointer source, GCancellable *cancellable, TlHeatmapPoolOutput *out);
} TlHeatmapPoolInput;

void tl_heatmap_pool_input_free  (TlHeatmapPoolInput *in);
void tl_heatmap_pool_output_free (TlHeatmapPoolOutput *out);
/* the colour scale from range, or from the range shared with other views */
void tl_heatmap_pool_scale       (TlColorScale *scale, gint colormap, TlScale kind, gboolean shared,
                                  double shared_min, double shared_max, const TlValueRange *range);
/* a GTaskThreadFunc: task_data is the TlHeatmapPoolInput */
void tl_heatmap_pool_thread      (GTask *task, gpointer source, gpointer task_data,
                                  GCancellable *cancellable);

G_END_DECLS
