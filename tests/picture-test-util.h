/* picture-test-util.h — a PNG, SVG or PDF that Tilelab wrote opens: the
 * PNG with the right size and something drawn, the SVG well-formed with
 * an <svg> root, the PDF with a cross-reference table (and, where poppler
 * is installed, one that pdftoppm renders). */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "paint-test-util.h"

static inline void
check_png (const char *path, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, h);
  /* something was drawn: not a blank page */
  guint32 first = tl_test_pixel (s, 0, 0);
  gboolean varied = FALSE;
  for (int y = 0; y < h && !varied; y += 7)
    for (int x = 0; x < w && !varied; x += 7)
      varied = tl_test_pixel (s, x, y) != first;
  g_assert_true (varied);
  cairo_surface_destroy (s);
}

typedef struct
{
  guint elements;
  char *root;
  guint texts;
} SvgCount;

static inline void
svg_start (GMarkupParseContext *ctx, const char *name, const char **an, const char **av,
           gpointer data, GError **error)
{
  SvgCount *c = data;
  if (c->elements++ == 0)
    c->root = g_strdup (name);
}

static inline void
check_svg (const char *path)
{
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  GMarkupParser parser = { .start_element = svg_start };
  SvgCount c = { 0 };
  GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, &c, NULL);
  g_autoptr (GError) error = NULL;
  /* skip the XML declaration, which GMarkup treats as text */
  const char *body = text;
  if (g_str_has_prefix (body, "<?xml"))
    body = strstr (body, "?>") + 2;
  g_assert_true (g_markup_parse_context_parse (ctx, body, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
  g_assert_cmpstr (c.root, ==, "svg");
  g_assert_cmpuint (c.elements, >, 20);
  g_free (c.root);
}

/* the last occurrence of needle in binary data (g_strrstr_len stops at a NUL) */
static inline const char *
find_last (const char *data, gsize len, const char *needle)
{
  gsize n = strlen (needle);
  for (gsize i = len >= n ? len - n + 1 : 0; i > 0; i--)
    if (memcmp (data + i - 1, needle, n) == 0)
      return data + i - 1;
  return NULL;
}

static inline void
check_pdf (const char *path)
{
  g_autofree char *text = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_cmpuint (len, >, 500);
  g_assert_true (g_str_has_prefix (text, "%PDF-1."));
  /* a tiny parse: the trailer points at a cross-reference table that exists */
  const char *sx = find_last (text, len, "startxref");
  g_assert_nonnull (sx);
  guint64 off = g_ascii_strtoull (sx + strlen ("startxref"), NULL, 10);
  g_assert_cmpuint (off, <, len);
  g_assert_true (strncmp (text + off, "xref", 4) == 0);
  g_assert_nonnull (find_last (text, len, "%%EOF"));
  g_assert_nonnull (find_last (text, len, "/Type /Page"));

  /* and if poppler is installed, it reads it */
  g_autofree char *pdftoppm = g_find_program_in_path ("pdftoppm");
  if (pdftoppm)
    {
      g_autofree char *out = g_strconcat (path, "-check", NULL);
      const char *argv[] = { pdftoppm, "-png", "-r", "20", "-singlefile", path, out, NULL };
      int status;
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                   NULL, NULL, &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_autofree char *png = g_strconcat (out, ".png", NULL);
      g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
      g_unlink (png);
    }
}

/* by the extension; PNG of any size */
static inline void
check_picture (const char *path)
{
  if (g_str_has_suffix (path, ".png"))
    {
      cairo_surface_t *s = cairo_image_surface_create_from_png (path);
      g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
      int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
      cairo_surface_destroy (s);
      check_png (path, w, h);
    }
  else if (g_str_has_suffix (path, ".svg"))
    check_svg (path);
  else if (g_str_has_suffix (path, ".pdf"))
    check_pdf (path);
  else
    g_assert_not_reached ();
}
