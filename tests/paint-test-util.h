/* paint-test-util.h — reading pixels back from cairo image surfaces, and
 * what a render draws from a record file. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tl-matrix.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint/tl-render.h"
#include "record/tl-record-file.h"
#include "view-test-util.h"

static inline guint32
tl_test_pixel (cairo_surface_t *s, double x, double y)
{
  int ix = (int) x, iy = (int) y;
  cairo_surface_flush (s);
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (s));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (s));
  const unsigned char *row = cairo_image_surface_get_data (s) + iy * cairo_image_surface_get_stride (s);
  return ((const guint32 *) row)[ix] | 0xff000000u;
}

#define tl_assert_pixel_near(s, x, y, expected, tol)                                  \
  G_STMT_START {                                                                      \
    guint32 _got = tl_test_pixel ((s), (x), (y));                                     \
    if (tl_test_pixel_distance (_got, (expected)) > (tol))                            \
      g_error ("pixel (%d, %d) is #%06x, expected #%06x", (int) (x), (int) (y),        \
               _got & 0xffffff, (expected) & 0xffffff);                               \
  } G_STMT_END

/* The style of a window (1:1) or of presentation mode. */
static inline void
tl_test_style_init (TlPaintStyle *style, gboolean presenting)
{
  if (presenting)
    tl_paint_style_init_presentation (style, TL_PAINT_PRESENTATION_SCALE, FALSE);
  else
    tl_paint_style_init (style, 1);
}

/* A render's input from a record file (a run record, a Gauss record or both). */
static inline gboolean
tl_test_render_input_load (TlRenderInput *input, const char *path, GError **error)
{
  TlRecordFile file;
  *input = (TlRenderInput) {0};
  if (!tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, error))
    return FALSE;
  input->record = file.record;
  input->lu = file.lu;
  return TRUE;
}

/* A record of docs/records by its name, loaded as `render --run` loads it. */
static inline void
tl_test_doc_record_load (TlRenderInput *input, const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "records", name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_test_render_input_load (input, path, &error));
  g_assert_no_error (error);
}

/* What a reader of a window sees wrong in options' view of input drawn
 * w × h in the window's style (scale 1): a text shorter than the 12-px
 * line, a text cut to "…", and tl_paint_text_boxes_check's problems, a
 * line each (empty: none).  The texts drawn are added to boxes. */
static inline GString *
tl_test_window_text_problems (const TlRenderInput *input, const TlRenderOptions *options, int w, int h,
                              TlPaintTextBoxes *boxes)
{
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  tl_paint_set_font (cr, &style, style.font_size, FALSE);
  double least = tl_paint_text_height (cr) - 0.01;
  g_autoptr (GError) error = NULL;
  tl_paint_text_boxes_attach (cr, boxes);
  g_assert_true (tl_render_draw (cr, input, options, &style, w, h, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  GString *report = g_string_new (NULL);
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, i);
      double tall = hypot (b->corner_x[3] - b->corner_x[0], b->corner_y[3] - b->corner_y[0]);
      if (tall < least)
        g_string_append_printf (report, "“%s” is %.1f px tall, under %.1f\n", b->text, tall, least);
      if (strstr (b->text, "…"))
        g_string_append_printf (report, "“%s” is cut\n", b->text);
    }
  tl_paint_text_boxes_check (boxes, w, h, report);
  return report;
}
