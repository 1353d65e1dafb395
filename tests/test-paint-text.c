/* test-paint-text.c — the painters' text boxes: recorded where the text is,
 * and the checker finds overlaps, clipped text and text off the picture. */
#include <math.h>
#include <string.h>
#include "paint/tl-paint-labels.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-paint-util.h"
#include "paint-test-util.h"

static cairo_t *
new_context (int w, int h, cairo_surface_t **out_surface)
{
  *out_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  return cairo_create (*out_surface);
}

/* A box covers the ink that was drawn, in device pixels, also when the
 * text is translated and rotated; nothing is recorded without a collector. */
static void
test_record (void)
{
  cairo_surface_t *s;
  cairo_t *cr = new_context (300, 200, &s);
  TlPaintStyle style;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();

  tl_paint_style_init (&style, 1.0);
  tl_paint_set_font (cr, &style, 20, FALSE);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);

  tl_paint_text (cr, 10, 10, 0, 0, "unseen");
  g_assert_null (tl_paint_text_boxes_get (cr));
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);

  tl_paint_text_boxes_attach (cr, boxes);
  g_assert_true (tl_paint_text_boxes_get (cr) == boxes);
  cairo_save (cr);
  cairo_translate (cr, 50, 20);
  tl_paint_text (cr, 0, 0, 0, 0, "Hello");
  cairo_restore (cr);
  cairo_save (cr);
  cairo_translate (cr, 250, 150);
  cairo_rotate (cr, -G_PI / 2);
  tl_paint_text (cr, 0, 0, 0.5, 0.5, "rotated");
  cairo_restore (cr);
  g_assert_cmpuint (tl_paint_text_boxes_len (boxes), ==, 2);

  const TlPaintTextBox *hello = tl_paint_text_boxes_index (boxes, 0);
  g_assert_cmpstr (hello->text, ==, "Hello");
  g_assert_cmpfloat (hello->x, >=, 49);
  g_assert_cmpfloat (hello->x, <=, 54);
  g_assert_cmpfloat_with_epsilon (hello->y, 20, 1e-9);
  g_assert_cmpfloat (hello->w, >, 30);
  g_assert_cmpfloat (hello->h, >, 18);
  /* the unclipped area is the surface */
  g_assert_cmpfloat_with_epsilon (hello->area_w, 300, 1e-9);
  g_assert_cmpfloat_with_epsilon (hello->area_h, 200, 1e-9);
  /* every dark pixel of the drawing lies inside one of the two boxes */
  const TlPaintTextBox *rot = tl_paint_text_boxes_find (boxes, "rot");
  g_assert_nonnull (rot);
  g_assert_cmpfloat (rot->h, >, rot->w); /* standing up */
  guint dark = 0;
  for (int y = 0; y < 200; y++)
    for (int x = 0; x < 300; x++)
      if (tl_test_pixel_distance (tl_test_pixel (s, x, y), tl_test_rgb (255, 255, 255)) > 100)
        {
          gboolean in = FALSE;
          for (guint i = 0; i < 2; i++)
            {
              const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, i);
              in |= x >= b->x - 1 && x <= b->x + b->w + 1 && y >= b->y - 1 && y <= b->y + b->h + 1;
            }
          if (!in)
            g_error ("ink at %d,%d outside every text box", x, y);
          dark++;
        }
  g_assert_cmpuint (dark, >, 100);
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 300, 200, NULL), ==, 0);

  tl_paint_text_boxes_clear (boxes);
  g_assert_cmpuint (tl_paint_text_boxes_len (boxes), ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* "0 200400": neighbours that touch are found, and so are texts cut by
 * their clip and texts beyond the picture; clean text passes. */
static void
test_check (void)
{
  cairo_surface_t *s;
  cairo_t *cr = new_context (200, 100, &s);
  TlPaintStyle style;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GString) report = g_string_new (NULL);

  tl_paint_style_init (&style, 1.0);
  tl_paint_set_font (cr, &style, 12, FALSE);
  tl_paint_text_boxes_attach (cr, boxes);

  /* tick labels 20 px apart: "200" is wider than that */
  tl_paint_text (cr, 40, 10, 0.5, 0, "0");
  tl_paint_text (cr, 60, 10, 0.5, 0, "200");
  tl_paint_text (cr, 80, 10, 0.5, 0, "400");
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 200, 100, report), ==, 1);
  g_assert_nonnull (strstr (report->str, "overlap: “200”"));
  g_assert_nonnull (strstr (report->str, "“400”"));

  /* far enough apart: fine */
  tl_paint_text_boxes_clear (boxes);
  g_string_truncate (report, 0);
  for (int i = 0; i < 3; i++)
    tl_paint_text (cr, 30 + 60 * i, 10, 0.5, 0, i == 0 ? "0" : i == 1 ? "200" : "400");
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 200, 100, report), ==, 0);
  g_assert_cmpstr (report->str, ==, "");

  /* a clip that cuts the text */
  cairo_save (cr);
  cairo_rectangle (cr, 0, 40, 60, 30);
  cairo_clip (cr);
  tl_paint_text (cr, 5, 45, 0, 0, "a long facts line");
  cairo_restore (cr);
  /* running off the right edge */
  tl_paint_text (cr, 195, 80, 0, 0, "edge");
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 200, 100, report), ==, 2);
  g_assert_nonnull (strstr (report->str, "clipped: “a long facts line”"));
  g_assert_nonnull (strstr (report->str, "off the picture: “edge”"));

  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* A text turned along a slanted line: its upright box is much larger
 * than its words, so a word in the box's empty corner does not overlap
 * it; a word on its letters does. */
static void
test_check_turned (void)
{
  cairo_surface_t *s;
  cairo_t *cr = new_context (400, 400, &s);
  TlPaintStyle style;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  g_autoptr (GString) report = g_string_new (NULL);

  tl_paint_style_init (&style, 1.0);
  tl_paint_set_font (cr, &style, 16, FALSE);
  tl_paint_text_boxes_attach (cr, boxes);
  cairo_save (cr);
  cairo_translate (cr, 200, 200);
  cairo_rotate (cr, -G_PI / 4);
  tl_paint_text (cr, 0, 0, 0.5, 0.5, "DRAM 3.35 TB/s along the roof");
  cairo_restore (cr);
  const TlPaintTextBox *turned = tl_paint_text_boxes_index (boxes, 0);
  g_assert_cmpfloat (turned->w, >, 150);
  /* the upper left corner of its box is empty */
  tl_paint_text (cr, turned->x + 2, turned->y + 2, 0, 0, "07");
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 400, 400, report), ==, 0);
  /* its middle is not */
  tl_paint_text (cr, 200, 200, 0.5, 0.5, "09");
  g_assert_cmpuint (tl_paint_text_boxes_check (boxes, 400, 400, report), ==, 1);
  g_assert_nonnull (strstr (report->str, "overlap: “DRAM 3.35"));

  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* a context in a legend's 12 px type */
static cairo_t *
label_context (cairo_surface_t **s)
{
  cairo_t *cr = new_context (10, 10, s);
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  tl_paint_set_font (cr, &style, 12, FALSE);
  return cr;
}

/* the n names fitted distinct to w, each no wider */
static char **
fit_checked (cairo_t *cr, const char *const *names, guint n, double w)
{
  char **fit = tl_paint_fit_distinct (cr, names, n, w);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (tl_paint_text_width (cr, fit[i]), <=, w + 0.5);
  return fit;
}

/* Names cut to a narrow column stay told apart: those that would read the
 * same keep the part where they differ; every result fits. */
static void
test_fit_distinct (void)
{
  static const char *const names[] = {
    "10 tensor cores (WMMA, TF32)", "10 tensor cores (WMMA, BF16)", "cuBLAS SGEMM (pedantic)",
    "cuBLAS TF32", "cuBLAS BF16", "02 coalesced", "02 coalesced",
  };
  cairo_surface_t *s;
  cairo_t *cr = label_context (&s);
  for (double w = 40; w <= 260; w += 20)
    {
      g_auto (GStrv) fit = fit_checked (cr, names, G_N_ELEMENTS (names), w);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          for (guint j = i + 1; j < G_N_ELEMENTS (names) && w >= 80; j++)
            if (strcmp (names[i], names[j]) != 0 && strcmp (fit[i], fit[j]) == 0)
              g_error ("at %.0f px “%s” and “%s” both read “%s”", w, names[i], names[j], fit[i]);
        }
      /* the same name twice stays the same; a name that fits stays whole */
      g_assert_cmpstr (fit[5], ==, fit[6]);
      if (tl_paint_text_width (cr, names[5]) <= w)
        g_assert_cmpstr (fit[5], ==, names[5]);
    }
  g_auto (GStrv) narrow = tl_paint_fit_distinct (cr, names, 2, 110);
  g_assert_nonnull (strstr (narrow[0], "TF32"));
  g_assert_nonnull (strstr (narrow[1], "BF16"));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* the words after a name's rung number ("Hopper w…" of "11 Hopper w…") */
static const char *
past_rung (const char *text)
{
  const char *p = text;
  while (g_ascii_isdigit (*p))
    p++;
  return p > text && *p == ' ' ? p + 1 : text;
}

/* A legend of the ladder's rungs cut to its column (the roofline's at
 * 1024×768 presenting read "11 Hopper w…", "13 Hopper w…", "14 Hopper w…"):
 * no two names read alike once their rung numbers are set aside, and each
 * keeps its rung number and what sets it apart. */
static void
test_fit_distinct_rungs (void)
{
  static const char *const names[] = {
    "11 Hopper wgmma + TMA", "13 Hopper wgmma, TF32", "14 Hopper wgmma, persistent",
    "03 shared memory 16×16", "04 shared memory 32×32", "02 coalesced", "cuBLAS TF32",
  };
  cairo_surface_t *s;
  cairo_t *cr = label_context (&s);
  for (double w = 90; w <= 200; w += 10)
    {
      g_auto (GStrv) fit = fit_checked (cr, names, G_N_ELEMENTS (names), w);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          for (guint j = i + 1; j < G_N_ELEMENTS (names); j++)
            if (strcmp (past_rung (fit[i]), past_rung (fit[j])) == 0)
              g_error ("at %.0f px “%s” and “%s” read alike", w, fit[i], fit[j]);
        }
      g_assert_true (g_str_has_prefix (fit[0], "11 "));
    }
  g_auto (GStrv) narrow = tl_paint_fit_distinct (cr, names, 5, 110);
  g_assert_nonnull (strstr (narrow[0], "TMA"));
  g_assert_nonnull (strstr (narrow[1], "TF32"));
  g_assert_nonnull (strstr (narrow[2], "persist"));
  g_assert_nonnull (strstr (narrow[3], "16"));
  g_assert_nonnull (strstr (narrow[4], "32"));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/paint/text/record", test_record);
  g_test_add_func ("/paint/text/check", test_check);
  g_test_add_func ("/paint/text/check-turned", test_check_turned);
  g_test_add_func ("/paint/text/fit-distinct", test_fit_distinct);
  g_test_add_func ("/paint/text/fit-distinct-rungs", test_fit_distinct_rungs);
  return g_test_run ();
}
