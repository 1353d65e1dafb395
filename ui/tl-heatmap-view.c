/* tl-heatmap-view.c — heatmap widget: its picture made off the main loop (tl-heatmap-pool.c), zoom, pan, hover. */
#include "tl-heatmap-view.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "tl-heatmap-pool.h"
#include "tl-surface-upload.h"
#include "tl-view-style.h"

/* pooled cells along each axis for the whole-matrix overview */
#define OVERVIEW_CELLS 1024
/* a larger picture goes to the display a band at a time (tl-surface-upload.h) */
#define UPLOAD_AT_ONCE_BYTES (256 * 1024)

struct _TlHeatmapView
{
  GtkDrawingArea parent_instance;

  TlMatrix *matrix;
  char *title;
  char *caption;
  char *units;
  char *empty_text;
  gboolean thumbnail;

  TlPooledGrid *grid;          /* current pooled image, immutable */
  cairo_surface_t *image;      /* grid coloured with scale */
  cairo_surface_t *shown;      /* image's copy on the display, or NULL: drawn from image */
  TlSurfaceUpload *upload;     /* the next picture on its way to the display, */
  TlHeatmapPoolOutput *pending; /* and what it is of (shown when it is there) */
  gboolean pending_final;
  TlColorScale scale;
  TlValueRange range;          /* of every element of matrix: the colour scale's source */
  gboolean have_range;
  gint colormap;               /* -1: auto */
  TlScale scale_kind;
  gboolean shared;
  double shared_min, shared_max;
  TlPoolMode pool_mode;

  GCancellable *cancellable;   /* the pooling task in flight */
  guint repool_id;             /* debounce for zoomed re-pooling */

  double view_row0, view_col0, view_rows, view_cols; /* 0 rows: fit */
  int tile_m, tile_n;
  gboolean show_tiles;
  gboolean stretch;          /* fill the panel (an explicit choice) */
  gssize hl_row, hl_col;
  gsize hl_rows, hl_cols;

  TlPaintStyle style;
  TlHeatmapLayout layout;      /* of the last draw, for hit tests */
  gboolean have_layout;

  GtkGesture *drag;
  double drag_row0, drag_col0;
};

G_DEFINE_FINAL_TYPE (TlHeatmapView, tl_heatmap_view, GTK_TYPE_DRAWING_AREA)

enum { SIGNAL_HOVER, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The grid, its picture and scale become the view's; final: also the
 * range of the data (a preview's range is only its sample's); shown: the
 * picture's copy on the display, if made. */
static void
show_output (TlHeatmapView *self, TlHeatmapPoolOutput *out, gboolean final, cairo_surface_t *shown)
{
  g_clear_pointer (&self->grid, tl_pooled_grid_unref);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->shown, cairo_surface_destroy);
  self->grid = g_steal_pointer (&out->grid);
  self->image = g_steal_pointer (&out->image);
  self->shown = shown;
  self->scale = out->scale;
  if (final)
    {
      self->range = out->range;
      self->have_range = TRUE;
    }
  tl_heatmap_pool_output_free (out);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drop_pending (TlHeatmapView *self)
{
  g_clear_pointer (&self->upload, tl_surface_upload_cancel);
  g_clear_pointer (&self->pending, tl_heatmap_pool_output_free);
}

static void
upload_done_cb (cairo_surface_t *copy, gpointer data)
{
  TlHeatmapView *self = data;
  self->upload = NULL;
  show_output (self, g_steal_pointer (&self->pending), self->pending_final, copy);
  if (!tl_heatmap_view_is_busy (self))
    g_object_notify (G_OBJECT (self), "busy");
}

/* out becomes the view's: a large picture once it is on the display (the
 * previous one stays meanwhile), a small one at once. */
static void
install_output (TlHeatmapView *self, TlHeatmapPoolOutput *out, gboolean final)
{
  drop_pending (self);
  if (out->image && cairo_image_surface_get_stride (out->image) * cairo_image_surface_get_height (out->image)
                      > UPLOAD_AT_ONCE_BYTES)
    {
      self->upload = tl_surface_upload_start (gtk_widget_get_window (GTK_WIDGET (self)), out->image,
                                              upload_done_cb, self);
      if (self->upload)
        {
          self->pending = out;
          self->pending_final = final;
          return;
        }
    }
  show_output (self, out, final, NULL);
}

/* a large matrix's preview, while the request it came from is the view's */
static void
preview_ready_cb (gpointer source, GCancellable *cancellable, TlHeatmapPoolOutput *out)
{
  TlHeatmapView *self = source;
  if (self->cancellable == cancellable)
    install_output (self, out, FALSE);
  else
    tl_heatmap_pool_output_free (out);
}

static void
pool_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  TlHeatmapPoolOutput *out = g_task_propagate_pointer (G_TASK (result), &error);

  if (out == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("pooling failed: %s", error->message);
      return; /* cancelled: a newer request (or dispose) replaced it */
    }

  TlHeatmapView *self = TL_HEATMAP_VIEW (source);
  install_output (self, out, TRUE);
  g_clear_object (&self->cancellable);
  g_object_notify (G_OBJECT (self), "busy");
}

/* Starts pooling for the current matrix and view: the whole matrix for the
 * overview, or (zoomed into a large matrix) the visible region finer. */
static void
start_pooling (TlHeatmapView *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  drop_pending (self); /* (of an earlier request) */
  if (self->matrix == NULL)
    return;

  TlHeatmapPoolInput *in = g_new0 (TlHeatmapPoolInput, 1);
  in->matrix = tl_matrix_ref (self->matrix);
  in->max_r = in->max_c = self->thumbnail ? 256 : OVERVIEW_CELLS;
  in->mode = self->pool_mode;
  in->colormap = self->colormap;
  in->scale_kind = self->scale_kind;
  in->shared = self->shared;
  in->shared_min = self->shared_min;
  in->shared_max = self->shared_max;
  in->range = self->range;
  in->have_range = self->have_range;
  in->thumbnail = self->thumbnail;
  in->preview_ready = preview_ready_cb;
  /* a large matrix, shown whole, with nothing of it on screen yet: a preview first */
  in->preview = !self->thumbnail && !self->have_range
                && self->matrix->rows * self->matrix->cols >= TL_HEATMAP_PREVIEW_ELEMENTS
                && (self->view_rows <= 0 || (self->view_rows >= self->matrix->rows
                                             && self->view_cols >= self->matrix->cols));

  if (self->view_rows > 0 && self->view_cols > 0
      && (self->matrix->rows > OVERVIEW_CELLS || self->matrix->cols > OVERVIEW_CELLS)
      && (self->view_rows < self->matrix->rows || self->view_cols < self->matrix->cols))
    {
      /* the visible window plus a margin of half a window on each side */
      double r0 = MAX (0, floor (self->view_row0 - self->view_rows / 2));
      double c0 = MAX (0, floor (self->view_col0 - self->view_cols / 2));
      in->row0 = (gsize) MIN (r0, self->matrix->rows - 1);
      in->col0 = (gsize) MIN (c0, self->matrix->cols - 1);
      in->rows = (gsize) MIN (ceil (self->view_rows * 2) + 1, self->matrix->rows - in->row0);
      in->cols = (gsize) MIN (ceil (self->view_cols * 2) + 1, self->matrix->cols - in->col0);
    }

  self->cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, pool_done_cb, NULL);
  g_task_set_source_tag (task, start_pooling);
  g_task_set_task_data (task, in, (GDestroyNotify) tl_heatmap_pool_input_free);
  g_task_run_in_thread (task, tl_heatmap_pool_thread);
  g_object_notify (G_OBJECT (self), "busy");
}

static gboolean
repool_cb (gpointer user_data)
{
  TlHeatmapView *self = user_data;
  self->repool_id = 0;
  start_pooling (self);
  return G_SOURCE_REMOVE;
}

/* after zooming or panning: a finer image when the current one is coarse */
static void
schedule_repool (TlHeatmapView *self)
{
  if (self->matrix == NULL || self->grid == NULL)
    return;
  if (self->matrix->rows <= OVERVIEW_CELLS && self->matrix->cols <= OVERVIEW_CELLS)
    return;
  if (self->repool_id)
    g_source_remove (self->repool_id);
  self->repool_id = g_timeout_add (150, repool_cb, self);
}

/* the grid in new colours (the one on its way, if any) */
static void
recolor (TlHeatmapView *self)
{
  gboolean final = self->pending != NULL && self->pending_final;
  TlPooledGrid *grid = self->pending ? self->pending->grid : self->grid;
  if (grid == NULL)
    return;
  TlHeatmapPoolOutput *out = g_new0 (TlHeatmapPoolOutput, 1);
  out->grid = tl_pooled_grid_ref (grid);
  out->range = final ? self->pending->range : self->range;
  tl_heatmap_pool_scale (&out->scale, self->colormap, self->scale_kind, self->shared, self->shared_min,
                         self->shared_max, &out->range);
  out->image = tl_pooled_grid_colorize (out->grid, &out->scale);
  install_output (self, out, final);
}

void
tl_heatmap_view_get_model (TlHeatmapView *self, TlHeatmapModel *m)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));

  tl_heatmap_model_init (m);
  m->grid = self->grid;
  m->image = self->image;
  m->scale = self->scale;
  if (self->have_range)
    m->range = self->range;
  m->title = self->thumbnail ? NULL : self->title;
  m->caption = self->caption;
  m->units = self->units;
  m->empty_text = self->empty_text;
  m->view_row0 = self->view_row0;
  m->view_col0 = self->view_col0;
  m->view_rows = self->view_rows;
  m->view_cols = self->view_cols;
  m->tile_m = self->tile_m;
  m->tile_n = self->tile_n;
  m->show_tiles = self->show_tiles;
  m->stretch = self->stretch;
  m->highlight_row = self->hl_row;
  m->highlight_col = self->hl_col;
  m->highlight_rows = MAX (self->hl_rows, 1);
  m->highlight_cols = MAX (self->hl_cols, 1);
  m->show_axes = !self->thumbnail;
  m->show_colorbar = !self->thumbnail;
}

static gboolean
tl_heatmap_view_draw (GtkWidget *widget, cairo_t *cr)
{
  TlHeatmapView *self = TL_HEATMAP_VIEW (widget);
  TlHeatmapModel model;
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);

  TlPaintStyle style;
  tl_view_style_begin_draw (&self->style, widget, cr, &style);

  tl_heatmap_view_get_model (self, &model);
  if (self->shown)
    model.image = self->shown;
  if (model.grid == NULL && self->matrix != NULL)
    model.empty_text = _("Preparing the picture…");
  tl_paint_heatmap (cr, &model, &style, w, h);
  if (model.grid)
    {
      tl_paint_heatmap_layout (&model, &style, w, h, &self->layout);
      self->have_layout = TRUE;
    }
  else
    self->have_layout = FALSE;
  return FALSE;
}

static void
ensure_view (TlHeatmapView *self)
{
  if (self->view_rows <= 0 && self->matrix)
    {
      self->view_row0 = self->view_col0 = 0;
      self->view_rows = self->matrix->rows;
      self->view_cols = self->matrix->cols;
    }
}

static void
clamp_view (TlHeatmapView *self)
{
  if (self->matrix == NULL)
    return;
  double R = self->matrix->rows, C = self->matrix->cols;
  /* at most the whole matrix, at least a 4×4 window */
  double f = MAX (self->view_rows / R, self->view_cols / C);
  if (f > 1)
    {
      self->view_rows /= f;
      self->view_cols /= f;
    }
  if (MIN (self->view_rows, self->view_cols) < 4)
    {
      double g = 4 / MIN (self->view_rows, self->view_cols);
      self->view_rows *= g;
      self->view_cols *= g;
    }
  self->view_row0 = CLAMP (self->view_row0, 0, MAX (R - self->view_rows, 0));
  self->view_col0 = CLAMP (self->view_col0, 0, MAX (C - self->view_cols, 0));
}

void
tl_heatmap_view_zoom (TlHeatmapView *self, double factor)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  if (self->matrix == NULL)
    return;
  ensure_view (self);
  double cr = self->view_row0 + self->view_rows / 2, cc = self->view_col0 + self->view_cols / 2;
  self->view_rows /= factor;
  self->view_cols /= factor;
  self->view_row0 = cr - self->view_rows / 2;
  self->view_col0 = cc - self->view_cols / 2;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  schedule_repool (self);
}

static gboolean
tl_heatmap_view_scroll (GtkWidget *widget, GdkEventScroll *event)
{
  TlHeatmapView *self = TL_HEATMAP_VIEW (widget);
  double dy = 0;

  if (self->thumbnail || self->matrix == NULL || !self->have_layout)
    return FALSE;
  if (event->direction == GDK_SCROLL_UP)
    dy = -1;
  else if (event->direction == GDK_SCROLL_DOWN)
    dy = 1;
  else if (event->direction == GDK_SCROLL_SMOOTH)
    dy = event->delta_y;
  if (dy == 0)
    return FALSE;

  ensure_view (self);
  const TlHeatmapLayout *lay = &self->layout;
  /* the element under the pointer stays under the pointer */
  double pr = lay->view_row0 + (event->y - lay->plot_y) / lay->px_per_row;
  double pc = lay->view_col0 + (event->x - lay->plot_x) / lay->px_per_col;
  double factor = pow (1.25, -dy);
  double fr = (pr - self->view_row0) / self->view_rows;
  double fc = (pc - self->view_col0) / self->view_cols;

  self->view_rows /= factor;
  self->view_cols /= factor;
  self->view_row0 = pr - fr * self->view_rows;
  self->view_col0 = pc - fc * self->view_cols;
  clamp_view (self);
  gtk_widget_queue_draw (widget);
  schedule_repool (self);
  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, TlHeatmapView *self)
{
  ensure_view (self);
  self->drag_row0 = self->view_row0;
  self->drag_col0 = self->view_col0;
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, TlHeatmapView *self)
{
  if (!self->have_layout || self->thumbnail)
    return;
  self->view_row0 = self->drag_row0 - dy / self->layout.px_per_row;
  self->view_col0 = self->drag_col0 - dx / self->layout.px_per_col;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, TlHeatmapView *self)
{
  schedule_repool (self);
}

static gboolean
tl_heatmap_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  if (event->type == GDK_2BUTTON_PRESS && event->button == 1)
    {
      tl_heatmap_view_fit (TL_HEATMAP_VIEW (widget));
      return TRUE;
    }
  return GTK_WIDGET_CLASS (tl_heatmap_view_parent_class)->button_press_event (widget, event);
}

static gboolean
tl_heatmap_view_motion (GtkWidget *widget, GdkEventMotion *event)
{
  TlHeatmapView *self = TL_HEATMAP_VIEW (widget);
  TlHeatmapModel model;
  gsize r, c;

  if (!self->have_layout || self->matrix == NULL)
    return FALSE;
  tl_heatmap_view_get_model (self, &model);
  if (tl_heatmap_layout_cell_at (&self->layout, &model, event->x, event->y, &r, &c)
      && r < self->matrix->rows && c < self->matrix->cols)
    g_signal_emit (self, signals[SIGNAL_HOVER], 0, (gint64) r, (gint64) c,
                   tl_matrix_get (self->matrix, r, c));
  else
    g_signal_emit (self, signals[SIGNAL_HOVER], 0, (gint64) -1, (gint64) -1, NAN);
  return FALSE;
}

static gboolean
tl_heatmap_view_leave (GtkWidget *widget, GdkEventCrossing *event)
{
  g_signal_emit (widget, signals[SIGNAL_HOVER], 0, (gint64) -1, (gint64) -1, NAN);
  return FALSE;
}

enum { PROP_0, PROP_BUSY, N_PROPS };

static void
tl_heatmap_view_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, tl_heatmap_view_is_busy (TL_HEATMAP_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
tl_heatmap_view_dispose (GObject *object)
{
  TlHeatmapView *self = TL_HEATMAP_VIEW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  drop_pending (self);
  if (self->repool_id)
    g_source_remove (self->repool_id);
  self->repool_id = 0;
  g_clear_object (&self->drag);
  G_OBJECT_CLASS (tl_heatmap_view_parent_class)->dispose (object);
}

static void
tl_heatmap_view_finalize (GObject *object)
{
  TlHeatmapView *self = TL_HEATMAP_VIEW (object);

  g_clear_pointer (&self->matrix, tl_matrix_unref);
  g_clear_pointer (&self->grid, tl_pooled_grid_unref);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->shown, cairo_surface_destroy);
  g_free (self->title);
  g_free (self->caption);
  g_free (self->units);
  g_free (self->empty_text);
  G_OBJECT_CLASS (tl_heatmap_view_parent_class)->finalize (object);
}

static void
tl_heatmap_view_class_init (TlHeatmapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tl_heatmap_view_dispose;
  object_class->finalize = tl_heatmap_view_finalize;
  object_class->get_property = tl_heatmap_view_get_property;
  widget_class->draw = tl_heatmap_view_draw;
  widget_class->scroll_event = tl_heatmap_view_scroll;
  widget_class->motion_notify_event = tl_heatmap_view_motion;
  widget_class->leave_notify_event = tl_heatmap_view_leave;
  widget_class->button_press_event = tl_heatmap_view_button_press;

  g_object_class_install_property (object_class, PROP_BUSY,
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  signals[SIGNAL_HOVER] =
    g_signal_new ("hover", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_DOUBLE);
  gtk_widget_class_set_css_name (widget_class, "heatmap");
}

static void
tl_heatmap_view_init (TlHeatmapView *self)
{
  self->colormap = -1;
  self->scale_kind = TL_SCALE_LINEAR;
  self->pool_mode = TL_POOL_MEAN;
  self->hl_row = self->hl_col = -1;
  tl_paint_style_init (&self->style, 1.0);
  tl_color_scale_init_auto (&self->scale, 0, 1);

  gtk_widget_add_events (GTK_WIDGET (self), GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK
                         | GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK
                         | GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_BUTTON1_MOTION_MASK);
  gtk_widget_set_size_request (GTK_WIDGET (self), 120, 100);

  self->drag = gtk_gesture_drag_new (GTK_WIDGET (self));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (self->drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (self->drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (self->drag, "drag-end", G_CALLBACK (drag_end_cb), self);
}

void
tl_heatmap_view_set_matrix (TlHeatmapView *self, TlMatrix *matrix, const char *title,
                            const char *caption)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));

  gboolean same_shape = matrix && self->matrix && matrix->rows == self->matrix->rows
                        && matrix->cols == self->matrix->cols;
  if (matrix)
    tl_matrix_ref (matrix);
  g_clear_pointer (&self->matrix, tl_matrix_unref);
  self->matrix = matrix;
  g_free (self->title);
  self->title = g_strdup (title);
  g_free (self->caption);
  self->caption = g_strdup (caption);
  self->have_range = FALSE; /* new data: its range is read while pooling */
  if (!same_shape)
    {
      /* a new shape: show all of it, and nothing stale meanwhile */
      self->view_rows = self->view_cols = 0;
      g_clear_pointer (&self->grid, tl_pooled_grid_unref);
      g_clear_pointer (&self->image, cairo_surface_destroy);
      g_clear_pointer (&self->shown, cairo_surface_destroy);
    }
  start_pooling (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

TlMatrix *
tl_heatmap_view_get_matrix (TlHeatmapView *self)
{
  g_return_val_if_fail (TL_IS_HEATMAP_VIEW (self), NULL);
  return self->matrix;
}

void
tl_heatmap_view_set_empty_text (TlHeatmapView *self, const char *text)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  g_free (self->empty_text);
  self->empty_text = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
tl_heatmap_view_get_empty_text (TlHeatmapView *self)
{
  g_return_val_if_fail (TL_IS_HEATMAP_VIEW (self), NULL);
  return self->empty_text;
}

void
tl_heatmap_view_set_units (TlHeatmapView *self, const char *units)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  g_free (self->units);
  self->units = g_strdup (units);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_set_thumbnail (TlHeatmapView *self, gboolean thumbnail)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  self->thumbnail = thumbnail;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_set_colormap (TlHeatmapView *self, gint colormap, TlScale scale)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  if (self->colormap == colormap && self->scale_kind == scale)
    return;
  self->colormap = colormap;
  self->scale_kind = scale;
  recolor (self);
}

void
tl_heatmap_view_set_shared_range (TlHeatmapView *self, double min, double max)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  gboolean shared = min <= max;
  if (shared == self->shared && (!shared || (min == self->shared_min && max == self->shared_max)))
    return;
  self->shared = shared;
  self->shared_min = min;
  self->shared_max = max;
  recolor (self);
}

gboolean
tl_heatmap_view_get_range (TlHeatmapView *self, double *min, double *max)
{
  g_return_val_if_fail (TL_IS_HEATMAP_VIEW (self), FALSE);
  if (!self->have_range || self->range.n_finite == 0)
    return FALSE;
  *min = self->range.min;
  *max = self->range.max;
  return TRUE;
}

void
tl_heatmap_view_set_pool_mode (TlHeatmapView *self, TlPoolMode mode)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  if (self->pool_mode == mode)
    return;
  self->pool_mode = mode;
  start_pooling (self);
}

void
tl_heatmap_view_set_tiles (TlHeatmapView *self, int tile_m, int tile_n, gboolean show)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  self->tile_m = tile_m;
  self->tile_n = tile_n;
  self->show_tiles = show;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_set_stretch (TlHeatmapView *self, gboolean stretch)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  self->stretch = stretch;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_set_highlight (TlHeatmapView *self, gssize row, gssize col)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  tl_heatmap_view_set_highlight_span (self, row, 1, col, 1);
}

void
tl_heatmap_view_set_highlight_span (TlHeatmapView *self, gssize row, gsize rows, gssize col, gsize cols)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  if (self->hl_row == row && self->hl_col == col && self->hl_rows == rows && self->hl_cols == cols)
    return;
  self->hl_row = row;
  self->hl_col = col;
  self->hl_rows = rows;
  self->hl_cols = cols;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_fit (TlHeatmapView *self)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  gboolean was_zoomed = self->view_rows > 0 && self->matrix
                        && (self->view_rows < self->matrix->rows || self->view_cols < self->matrix->cols);
  self->view_rows = self->view_cols = 0;
  if (was_zoomed && self->grid && (self->grid->rows < self->grid->src_rows
                                   || self->grid->cols < self->grid->src_cols))
    start_pooling (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tl_heatmap_view_set_presentation (TlHeatmapView *self, double scale, gboolean high_contrast)
{
  g_return_if_fail (TL_IS_HEATMAP_VIEW (self));
  tl_view_style_set_presentation (&self->style, scale, high_contrast);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tl_heatmap_view_is_busy (TlHeatmapView *self)
{
  g_return_val_if_fail (TL_IS_HEATMAP_VIEW (self), FALSE);
  return self->cancellable != NULL || self->upload != NULL;
}
