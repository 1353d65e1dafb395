/* tl-render-file.c — a view as a PNG, SVG or PDF file.
 *
 * The picture is drawn into memory first and written only when it is
 * whole: an error (or a crash) while drawing leaves nothing in the
 * folder, and the file itself is replaced atomically (a temporary file
 * beside it, renamed).
 */
#include "paint/tl-render.h"
#include "core/tl-save.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <unistd.h>

#include "core/tl-error.h"

/* cairo's stream surfaces write here */
static cairo_status_t
bytes_write_cb (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
cairo_failed (GError **error, const char *path, cairo_status_t st)
{
  g_set_error (error, TL_ERROR, TL_ERROR_IO, _("%s: cannot draw the picture: %s"), path,
               cairo_status_to_string (st));
  return FALSE;
}

static cairo_surface_t *
create_surface (TlRenderFormat format, GByteArray *out, double w, double h, double scale)
{
  switch (format)
    {
    case TL_RENDER_SVG:
      return cairo_svg_surface_create_for_stream (bytes_write_cb, out, w, h);
    case TL_RENDER_PDF:
      return cairo_pdf_surface_create_for_stream (bytes_write_cb, out, w, h);
    case TL_RENDER_PNG:
    default:
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * scale), (int) ceil (h * scale));
    }
}

/* The whole picture in memory, or NULL with error. */
static GByteArray *
render_to_memory (const TlRenderInput *input, const TlRenderOptions *options, TlRenderFormat format,
                  double w, double h, double scale, const char *path, TlPaintTextBoxes *text_boxes,
                  GError **error)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  cairo_surface_t *surface = create_surface (format, out, w, h, scale);
  gboolean ok = cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS
                || cairo_failed (error, path, cairo_surface_status (surface));
  if (ok)
    {
      TlPaintStyle style;
      tl_render_style_init (&style, options, w, h, scale);
      cairo_t *cr = cairo_create (surface);
      if (text_boxes)
        tl_paint_text_boxes_attach (cr, text_boxes);
      ok = tl_render_draw (cr, input, options, &style, w * scale, h * scale, error);
      if (ok && cairo_status (cr) != CAIRO_STATUS_SUCCESS)
        ok = cairo_failed (error, path, cairo_status (cr));
      cairo_destroy (cr);
    }
  if (ok && format == TL_RENDER_PNG)
    {
      cairo_status_t st = cairo_surface_write_to_png_stream (surface, bytes_write_cb, out);
      if (st != CAIRO_STATUS_SUCCESS)
        ok = cairo_failed (error, path, st);
    }
  cairo_surface_finish (surface);
  if (ok && cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    ok = cairo_failed (error, path, cairo_surface_status (surface));
  cairo_surface_destroy (surface);
  return ok ? g_steal_pointer (&out) : NULL;
}

gboolean
tl_render_to_file (const TlRenderInput *input, const TlRenderOptions *options,
                   const char *path, GError **error)
{
  return tl_render_to_file_with (input, options, path, NULL, NULL, error);
}

gboolean
tl_render_to_file_with (const TlRenderInput *input, const TlRenderOptions *options,
                        const char *path, TlPaintTextBoxes *text_boxes, GCancellable *cancellable,
                        GError **error)
{
  g_return_val_if_fail (input != NULL && options != NULL && path != NULL, FALSE);

  TlRenderFormat format;
  if (!tl_render_format_for_path (path, &format))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("%s: unknown picture format (use .png, .svg or .pdf)"), path);
      return FALSE;
    }

  double w = options->width > 0 ? options->width : TL_RENDER_DEFAULT_WIDTH;
  double h = options->height > 0 ? options->height : tl_render_default_height (options);
  double scale = format == TL_RENDER_PNG && options->scale > 0 ? options->scale : 1.0;
  if (w * scale > 16384 || h * scale > 16384 || w < 64 || h < 64)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("a picture of %.0f×%.0f units at scale %g is out of range "
                     "(64 … 16384 pixels a side)"), w, h, scale);
      return FALSE;
    }

  /* a folder we may not write in says so before the drawing */
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_access (dir, W_OK) != 0)
    {
      int e = errno;
      g_set_error (error, TL_ERROR, TL_ERROR_IO, _("%s: cannot write in the folder %s: %s"), path,
                   dir, g_strerror (e));
      return FALSE;
    }

  g_autoptr (GByteArray) picture = render_to_memory (input, options, format, w, h, scale, path,
                                                     text_boxes, error);
  if (picture == NULL)
    return FALSE;
  /* one save (core/tl-save.h): a link written through, a FIFO or device
   * refused, the temporary removed when cancelled or failing */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return tl_save_contents (path, picture->data, picture->len, cancellable, error);
}
