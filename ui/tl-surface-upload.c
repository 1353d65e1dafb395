/* tl-surface-upload.c — a picture copied to the display a band at a time. */
#include "tl-surface-upload.h"

/* rows copied per main-loop iteration: 64 rows of a 1024-wide picture are
 * 256 KiB, well under a millisecond */
#define BAND_BYTES (256 * 1024)

struct _TlSurfaceUpload
{
  cairo_surface_t *image, *copy;
  int width, height, band_rows, next_row;
  guint source_id;
  TlSurfaceUploadDone done;
  gpointer data;
};

static void
upload_free (TlSurfaceUpload *upload)
{
  cairo_surface_destroy (upload->image);
  g_clear_pointer (&upload->copy, cairo_surface_destroy);
  g_free (upload);
}

static gboolean
copy_band_cb (gpointer data)
{
  TlSurfaceUpload *upload = data;
  int rows = MIN (upload->band_rows, upload->height - upload->next_row);
  cairo_t *cr = cairo_create (upload->copy);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_rectangle (cr, 0, upload->next_row, upload->width, rows);
  cairo_clip (cr);
  cairo_set_source_surface (cr, upload->image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  upload->next_row += rows;
  if (upload->next_row < upload->height)
    return G_SOURCE_CONTINUE;

  upload->source_id = 0;
  TlSurfaceUploadDone done = upload->done;
  gpointer done_data = upload->data;
  cairo_surface_t *copy = g_steal_pointer (&upload->copy);
  upload_free (upload);
  done (copy, done_data);
  return G_SOURCE_REMOVE;
}

TlSurfaceUpload *
tl_surface_upload_start (GdkWindow *window, cairo_surface_t *image, TlSurfaceUploadDone done,
                         gpointer data)
{
  g_return_val_if_fail (image != NULL && done != NULL, NULL);
  if (window == NULL || cairo_surface_get_type (image) != CAIRO_SURFACE_TYPE_IMAGE)
    return NULL;

  TlSurfaceUpload *upload = g_new0 (TlSurfaceUpload, 1);
  upload->image = cairo_surface_reference (image);
  upload->width = cairo_image_surface_get_width (image);
  upload->height = cairo_image_surface_get_height (image);
  upload->band_rows = MAX (1, BAND_BYTES / MAX (cairo_image_surface_get_stride (image), 1));
  upload->copy = gdk_window_create_similar_surface (window, CAIRO_CONTENT_COLOR_ALPHA, upload->width,
                                                    upload->height);
  upload->done = done;
  upload->data = data;
  /* after the frame's own drawing (GDK_PRIORITY_REDRAW), before plain idles */
  upload->source_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 30, copy_band_cb, upload, NULL);
  return upload;
}

void
tl_surface_upload_cancel (TlSurfaceUpload *upload)
{
  if (upload == NULL)
    return;
  g_source_remove (upload->source_id);
  upload_free (upload);
}
