/* tl-surface-upload.h — a picture copied to the display a band at a time.
 *
 * The first time cairo draws an image surface onto a window of an X11
 * display it uploads all of it to the X server, within that one draw: a
 * 1024 × 1024 heatmap (4 MiB) took 20 ms of the main loop, most of it the
 * kernel faulting in the fresh shared memory the pixels travel through.
 * A TlSurfaceUpload copies the image into a surface like the window's
 * (gdk_window_create_similar_surface: a pixmap on X11) a band of rows per
 * main-loop iteration, each a fraction of a millisecond, and hands the
 * finished copy over; drawing from it is then a copy on the server.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _TlSurfaceUpload TlSurfaceUpload;

/* given the copy of the image (the callee's reference) once every band is there */
typedef void (*TlSurfaceUploadDone) (cairo_surface_t *copy, gpointer data);

/* Starts copying image (an image surface; referenced) into a surface like
 * window's; done is called from the main loop when it is complete.  NULL
 * when window is NULL or not realized (nothing is started). */
TlSurfaceUpload *tl_surface_upload_start (GdkWindow *window, cairo_surface_t *image,
                                          TlSurfaceUploadDone done, gpointer data);
/* Stops an upload before done is called, and frees it; NULL is ignored. */
void             tl_surface_upload_cancel (TlSurfaceUpload *upload);

G_END_DECLS
