/* test-paint-gauss.c — a known Gauss step marks its known pivot at its known
 * pixel (the frames' replay: test-view-gauss-frame.c); the time chart's
 * "now" keeps clear of its axis; `render -p` of the H200 LU record at the
 * lecture's screens keeps every text whole (its line under the title on
 * two lines where one would cut it), at least 14 px, clear of the others,
 * and its time chart's bars (run with LANGUAGE=de too:
 * test-paint-gauss-de). */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include "core/tl-locale.h"
#include "core/tl-error.h"
#include "view/tl-gauss-frame.h"
#include "lu/tl-gfp.h"
#include "lu/tl-lu.h"
#include "lu-test-util.h"
#include "paint/tl-paint-gauss.h"
#include "paint/tl-paint-gauss-side.h"
#include "paint/tl-paint-text-boxes.h"
#include "paint/tl-render.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

static TlMatrix *
random_matrix (gsize rows, gsize cols)
{
  return tl_test_random_matrix (TL_DTYPE_FLOAT64, rows, cols, -1.0, 1.0);
}

static cairo_surface_t *
paint (const TlGaussModel *model, const TlPaintStyle *style, int w, int h)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  tl_paint_gauss (cr, model, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return s;
}

static gboolean
is_orange (guint32 p)
{
  return tl_test_pixel_distance (p, tl_test_rgb (230, 115, 0)) <= 3;
}

static void
test_pivot_pixels (void)
{
  g_autoptr (TlMatrix) a = random_matrix (6, 6);
  tl_matrix_set (a, 3, 0, 5.0); /* the largest in column 0: the pivot of step 0 */
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  g_assert_cmpint (g_array_index (rec->steps, TlLuStep, 0).pivot_row, ==, 3);

  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      double sc = scales[k];
      int w = (int) (1200 * sc), h = (int) (700 * sc);
      TlPaintStyle style;
      tl_paint_style_init (&style, sc);
      TlGaussModel model;
      tl_gauss_model_init (&model);
      g_autoptr (TlGaussFrame) f0 = tl_gauss_frame_new (rec, 0, NULL);
      model.frame = f0;
      cairo_surface_t *s = paint (&model, &style, w, h);
      TlGaussLayout lay;
      tl_paint_gauss_layout (&model, &style, w, h, &lay);
      double ppc = lay.heat_layout.px_per_col;
      g_assert_cmpfloat (ppc, >, 40 * sc);
      g_assert_cmpfloat_with_epsilon (ppc, lay.heat_layout.px_per_row, 1e-9);

      /* the ring around element (3, 0) */
      double cx, cy;
      tl_gauss_layout_cell_centre (&lay, 3, 0, &cx, &cy);
      g_assert_cmpfloat_with_epsilon (cx, lay.heat_layout.plot_x + 0.5 * ppc, 1e-9);
      g_assert_cmpfloat_with_epsilon (cy, lay.heat_layout.plot_y + 3.5 * ppc, 1e-9);
      double r = MAX (ppc * 0.58, 9 * sc);
      g_assert_true (is_orange (tl_test_pixel (s, cx + r, cy)));
      g_assert_true (is_orange (tl_test_pixel (s, cx, cy - r)));
      gsize row, col;
      g_assert_true (tl_gauss_layout_cell_at (&lay, cx, cy, &row, &col));
      g_assert_cmpuint (row, ==, 3);
      g_assert_cmpuint (col, ==, 0);

      /* the pivot search: row 3's bar is the orange one and the longest */
      g_assert_true (is_orange (tl_test_pixel (s, lay.strip_x + 3 * sc, cy)));
      g_assert_true (is_orange (tl_test_pixel (s, lay.strip_x + lay.strip_w - 2, cy)));
      for (int i = 0; i < 6; i++)
        if (i != 3)
          {
            double x, y;
            tl_gauss_layout_cell_centre (&lay, i, 0, &x, &y);
            g_assert_false (is_orange (tl_test_pixel (s, lay.strip_x + 3 * sc, y)));
            /* |a(i,0)| ≤ 1 < 5: a fifth of the strip at most */
            g_assert_cmpint (tl_test_pixel_distance (tl_test_pixel (s, lay.strip_x + lay.strip_w * 0.3, y),
                                                     tl_test_rgb (255, 255, 255)), ==, 0);
          }
      cairo_surface_destroy (s);

      /* one step on: row 0 holds the pivot 5, and U has one row */
      g_autoptr (TlGaussFrame) f1 = tl_gauss_frame_new (rec, 1, NULL);
      g_assert_cmpuint (f1->swaps_so_far, ==, 1);
      g_assert_cmpfloat (tl_pooled_grid_get (f1->matrix, 0, 0), ==, 5.0);
      model.frame = f1;
      s = paint (&model, &style, w, h);
      tl_paint_gauss_layout (&model, &style, w, h, &lay);
      double x = lay.heat_layout.plot_x + 0.2 * ppc, y = lay.heat_layout.plot_y + 0.2 * ppc;
      tl_assert_pixel_near (s, x, y, tl_color_scale_argb (&lay.heat.scale, 5.0), 1);
      /* the multiplier l(3,0) = a(0,0)/5 sits in row 3, column 0 */
      g_assert_cmpfloat_with_epsilon (tl_pooled_grid_get (f1->matrix, 3, 0),
                                      tl_matrix_get (a, 0, 0) / 5.0, 1e-15);
      cairo_surface_destroy (s);
    }
}

static void
test_blocked_timing (void)
{
  /* a blocked record paints its time split without trouble at any frame */
  g_autoptr (TlMatrix) a = random_matrix (40, 40);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  g_assert_cmpuint (rec->blocks->len, ==, 5);
  TlPaintStyle style;
  tl_paint_style_init_presentation (&style, 1, TRUE);
  for (guint k = 0; k <= rec->steps->len; k += 7)
    {
      g_autoptr (TlGaussFrame) f = tl_gauss_frame_new (rec, k, NULL);
      TlGaussModel model;
      tl_gauss_model_init (&model);
      model.frame = f;
      TlGaussLayout lay;
      tl_paint_gauss_layout (&model, &style, 1600, 900, &lay);
      g_assert_cmpfloat (lay.chart_w, >, 100);
      g_assert_cmpfloat (lay.chart_x, >, lay.strip_x + lay.strip_w);
      cairo_surface_t *s = paint (&model, &style, 1600, 900);
      cairo_surface_destroy (s);
    }
}

/* The first block step outlined as "now" when it took no measurable time
 * (the app's CPU factorisation of 300×300 had one): its label keeps clear
 * of the time axis's labels and of everything else, in window and
 * presentation type. */
static void
test_now_on_first_step (void)
{
  g_autoptr (TlMatrix) a = random_matrix (320, 320);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 8, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  g_assert_cmpuint (rec->blocks->len, ==, 40);
  TlLuBlockStep *first = &g_array_index (rec->blocks, TlLuBlockStep, 0);
  for (guint p = 0; p < TL_LU_N_PHASES; p++)
    first->phase_ns[p] = 0;
  g_autoptr (TlGaussFrame) f = tl_gauss_frame_new (rec, 0, NULL);
  TlGaussModel model;
  tl_gauss_model_init (&model);
  model.frame = f;
  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    {
      TlPaintStyle style;
      tl_paint_style_init (&style, scales[i]);
      int w = 1024 * scales[i], h = 600 * scales[i];
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_t *cr = cairo_create (s);
      g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
      tl_paint_text_boxes_attach (cr, boxes);
      tl_paint_gauss (cr, &model, &style, w, h);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
      g_assert_nonnull (tl_paint_text_boxes_find (boxes, "now"));
      g_autoptr (GString) report = g_string_new (NULL);
      if (tl_paint_text_boxes_check (boxes, w, h, report) > 0)
        g_error ("at scale %.0f: %s", scales[i], report->str);
    }
}

/* rec's step painted on 1200×700 in style, its texts in boxes. */
static cairo_surface_t *
paint_step (TlLuRecorder *rec, guint step, const TlPaintStyle *style, TlPaintTextBoxes *boxes)
{
  TlGaussModel model;
  tl_gauss_model_init (&model);
  g_autoptr (TlGaussFrame) f0 = tl_gauss_frame_new (rec, step, NULL);
  model.frame = f0;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
  cairo_t *cr = cairo_create (s);
  tl_paint_text_boxes_attach (cr, boxes);
  tl_paint_gauss (cr, &model, style, 1200, 700);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* A GF(p) frame paints its exact integers in the cells without an error. */
static void
test_gfp_cells (void)
{
  const guint32 p = 7;
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (1000);
  g_autoptr (TlGfpLu) lu = gfp_lu_zero_corner (p, rec);
  g_assert_nonnull (lu);

  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  cairo_surface_t *s = paint_step (rec, 0, &style, boxes);
  /* the pivot found below the zero, printed as an integer */
  g_autoptr (TlGaussFrame) f0 = tl_gauss_frame_new (rec, 0, NULL);
  char want[16];
  g_snprintf (want, sizeof want, "%u", (guint) tl_pooled_grid_get (f0->matrix, 1, 0));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, want));
  cairo_surface_destroy (s);
}

/* The brightest pixel of the text drawn as text in s (its colour on a
 * dark page). */
static double
lightest_in (cairo_surface_t *s, const TlPaintTextBoxes *boxes, const char *text)
{
  const TlPaintTextBox *b = tl_paint_text_boxes_find (boxes, text);
  g_assert_nonnull (b);
  double lightest = 0;
  for (double y = b->y; y < b->y + b->h; y++)
    for (double x = b->x; x < b->x + b->w; x++)
      {
        guint32 p = tl_test_pixel (s, x, y);
        double lum = (0.299 * ((p >> 16) & 0xff) + 0.587 * ((p >> 8) & 0xff) + 0.114 * (p & 0xff)) / 255;
        lightest = MAX (lightest, lum);
      }
  return lightest;
}

/* On a dark theme the pivot's label and the regions' names are light:
 * the brown of a light page, U's blue and the panel's green read about
 * 2:1 on Adwaita's dark grey. */
static void
test_labels_dark (void)
{
  g_autoptr (TlMatrix) a = random_matrix (6, 6);
  tl_matrix_set (a, 3, 0, 5.0);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) res = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-unblocked", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &res, NULL));
  TlPaintStyle style;
  tl_paint_style_init (&style, 1.0);
  style.bg[0] = style.bg[1] = style.bg[2] = 0.19;
  style.fg[0] = style.fg[1] = style.fg[2] = 0.93;
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  cairo_surface_t *s = paint_step (rec, 0, &style, boxes);
  g_assert_cmpfloat (lightest_in (s, boxes, "pivot 5"), >, 0.6);
  cairo_surface_destroy (s);
  g_autoptr (TlPaintTextBoxes) later = tl_paint_text_boxes_new ();
  s = paint_step (rec, 3, &style, later);
  g_assert_cmpfloat (lightest_in (s, later, "U"), >, 0.6);
  cairo_surface_destroy (s);
}

/* One step of the record as render -p draws it at width × height. */
static void
check_render_step (const TlRenderInput *input, guint step, int width, int height)
{
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_GAUSS;
  o.presentation = TRUE;
  o.step = step;
  TlPaintStyle style;
  tl_render_style_init (&style, &o, width, height, 1.0);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (s);
  g_autoptr (TlPaintTextBoxes) boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_render_draw (cr, input, &o, &style, width, height, &error));
  g_assert_no_error (error);

  g_autoptr (GString) report = g_string_new (NULL);
  if (tl_paint_text_boxes_check (boxes, width, height, report) > 0)
    g_error ("step %u at %d×%d: problems with the text:\n%s", step, width, height, report->str);
  for (guint k = 0; k < tl_paint_text_boxes_len (boxes); k++)
    {
      const TlPaintTextBox *b = tl_paint_text_boxes_index (boxes, k);
      if (g_str_has_suffix (b->text, "…"))
        g_error ("step %u at %d×%d: “%s” is cut", step, width, height, b->text);
      if (b->h < 14 && MIN (b->w, b->h) > 0)
        g_error ("step %u at %d×%d: “%s” is %.1f px high, under 14", step, width, height, b->text,
                 b->h);
    }
  /* the time chart drew its bars: the step now is marked over them */
  if (step < 96 && tl_paint_text_boxes_find (boxes, g_dgettext (GETTEXT_PACKAGE, "now")) == NULL)
    g_error ("step %u at %d×%d: the time chart has no bars", step, width, height);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_render_presenting (void)
{
  static const int sizes[][2] = { { 1024, 768 }, { 1280, 800 }, { 1920, 1080 }, { 1920, 1040 } };
  static const guint steps[] = { 0, 40, 95, 96 };
  TlRenderInput input;
  tl_test_doc_record_load (&input, "h200-lu-02-blocked-96.json");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
      check_render_step (&input, steps[k], sizes[i][0], sizes[i][1]);
  tl_render_input_clear (&input);
}

/* The time chart presenting on a 16:9 (and 4:3) page: its bars get a
 * quarter of the page's height or more at every step (they had 79 px of
 * 1080, 65 of 900 under a legend of one phase per line, a title on two
 * lines and a subtitle's second line for "4 of 6"); German's longer
 * words and high contrast's bold type a fifth. */
static void
test_chart_share_presenting (void)
{
  static const int sizes[][2] = { { 1920, 1080 }, { 1920, 1040 }, { 1600, 900 },
                                  { 1280, 800 }, { 1024, 768 } };
  static const guint steps[] = { 0, 50, 95, 96 };
  gboolean german = g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0;
  TlRenderInput input;
  tl_test_doc_record_load (&input, "h200-lu-02-blocked-96.json");
  TlRenderOptions o;
  tl_render_options_init (&o);
  o.view = TL_RENDER_GAUSS;
  o.presentation = TRUE;
  for (guint n = 0; n < G_N_ELEMENTS (sizes) * G_N_ELEMENTS (steps) * 2; n++)
      {
        guint i = n / (G_N_ELEMENTS (steps) * 2), k = n / 2 % G_N_ELEMENTS (steps);
        o.high_contrast = n % 2; /* its bold type */
        int width = sizes[i][0], height = sizes[i][1];
        TlPaintStyle style;
        tl_render_style_init (&style, &o, width, height, 1.0);
        g_autoptr (TlGaussFrame) frame = tl_gauss_frame_new (input.lu, steps[k], NULL);
        TlGaussModel model;
        tl_gauss_model_init (&model);
        model.frame = frame;
        TlGaussLayout lay;
        tl_paint_gauss_layout (&model, &style, width, height, &lay);
        double bars = tl_paint_gauss_chart_plot_height (frame, &style, lay.chart_w, lay.chart_h);
        g_test_message ("%d×%d step %u%s: bars %.0f px high", width, height, steps[k],
                        o.high_contrast ? " high contrast" : "", bars);
        g_assert_cmpfloat (bars, >=, height * (german || o.high_contrast ? 0.2 : 0.25));
      }
  tl_render_input_clear (&input);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* LANGUAGE=de: the build tree's German catalogue, as the app finds it */
  tl_locale_init ();
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0
      && strcmp (g_dgettext (GETTEXT_PACKAGE, "pivot search"), "pivot search") == 0)
    g_error ("LANGUAGE=de, but no German catalogue in %s", tl_locale_dir ());
  g_test_add_func ("/paint-gauss/render-presenting", test_render_presenting);
  g_test_add_func ("/paint-gauss/labels-dark", test_labels_dark);
  g_test_add_func ("/paint-gauss/pivot-pixels", test_pivot_pixels);
  g_test_add_func ("/paint-gauss/blocked-timing", test_blocked_timing);
  g_test_add_func ("/paint-gauss/gfp-cells", test_gfp_cells);
  g_test_add_func ("/paint-gauss/now-on-first-step", test_now_on_first_step);
  g_test_add_func ("/paint-gauss/chart-share-presenting", test_chart_share_presenting);
  return g_test_run ();
}
