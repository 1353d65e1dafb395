/* test-paint-gauss.c — Gauss frames replay the recorded steps exactly, and a
 * known step marks its known pivot at its known pixel. */
#include <math.h>
#include "core/tl-error.h"
#include "paint/tl-gauss-frame.h"
#include "lu/tl-gfp.h"
#include "lu/tl-lu.h"
#include "paint/tl-paint-gauss.h"
#include "paint-test-util.h"

static const double scales[] = { 1.0, 2.0 };

static TlMatrix *
random_matrix (gsize rows, gsize cols)
{
  return tl_test_random_matrix (TL_DTYPE_FLOAT64, rows, cols, -1.0, 1.0);
}

/* the same record with only the input snapshot kept */
static TlLuRecorder *
only_input (const TlLuRecorder *rec)
{
  g_autoptr (JsonNode) node = tl_lu_recorder_to_json (rec);
  TlLuRecorder *copy = tl_lu_recorder_from_json (node, NULL);
  g_assert_nonnull (copy);
  g_assert_cmpuint (copy->snapshots->len, >=, 2);
  g_array_set_size (copy->snapshots, 1);
  g_assert_cmpuint (g_array_index (copy->snapshots, TlLuSnapshot, 0).after_steps, ==, 0);
  return copy;
}

static void
assert_grid_equals (const TlPooledGrid *g, const double *want, gsize rows, gsize cols, double tol)
{
  g_assert_cmpuint (g->grid_rows, ==, rows);
  g_assert_cmpuint (g->grid_cols, ==, cols);
  for (gsize i = 0; i < rows * cols; i++)
    if (!(fabs (g->values[i] - want[i]) <= tol))
      g_error ("cell (%zu, %zu) is %.17g, expected %.17g", i / cols, i % cols, g->values[i], want[i]);
}

static void
check_replay (const char *kernel, gsize block)
{
  g_autoptr (TlMatrix) a = random_matrix (13, 11);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (1000);
  g_autoptr (TlLuResult) res = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_lu_factor (kernel, a, block, TL_PIVOTING_PARTIAL, rec, NULL, &res, &error));
  g_assert_no_error (error);
  g_autoptr (TlLuRecorder) bare = only_input (rec);
  guint n_steps = rec->steps->len;
  g_assert_cmpuint (n_steps, ==, 11);
  g_assert_cmpuint (tl_gauss_record_n_frames (bare), ==, 12);

  /* every clean snapshot of the full record is what replay gives */
  guint compared = 0;
  for (guint s = 0; s < rec->snapshots->len; s++)
    {
      const TlLuSnapshot *snap = &g_array_index (rec->snapshots, TlLuSnapshot, s);
      gboolean clean = block == 0 || snap->after_steps % block == 0 || snap->after_steps == n_steps;
      if (!clean)
        continue;
      g_autoptr (TlGaussFrame) f = tl_gauss_frame_new (bare, snap->after_steps, &error);
      g_assert_no_error (error);
      g_assert_true (f->exact);
      g_assert_cmpuint (f->matrix_steps, ==, snap->after_steps);
      assert_grid_equals (f->matrix, snap->data, 13, 11, 1e-12);
      compared++;
    }
  g_assert_cmpuint (compared, >=, block ? 3 : 12);

  /* the last frame is the packed L\U, in every element */
  g_autoptr (TlGaussFrame) last = tl_gauss_frame_new (bare, n_steps, &error);
  g_assert_no_error (error);
  g_assert_null (last->current);
  g_assert_cmpint (last->block, ==, -1);
  for (gsize i = 0; i < 13; i++)
    for (gsize j = 0; j < 11; j++)
      g_assert_cmpfloat_with_epsilon (tl_pooled_grid_get (last->matrix, i, j),
                                      tl_matrix_get (res->lu, i, j), 1e-12);
  g_assert_cmpuint (last->swaps_so_far, ==, res->n_swaps);

  /* frames in between: the current step and its block */
  for (guint k = 0; k < n_steps; k++)
    {
      g_autoptr (TlGaussFrame) f = tl_gauss_frame_new (rec, k, NULL);
      g_assert_true (f->current == &g_array_index (rec->steps, TlLuStep, k));
      g_assert_cmpint (f->block, ==, block ? (gint) (k / block) : -1);
      if (block)
        g_assert_cmpuint (tl_gauss_record_block_start (rec, k / block), ==, (k / block) * block);
    }

  g_assert_null (tl_gauss_frame_new (bare, n_steps + 1, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "out of range"));
}

static void
test_replay_unblocked (void)
{
  check_replay ("lu-cpu-unblocked", 0);
}

static void
test_replay_blocked (void)
{
  check_replay ("lu-cpu-blocked", 4);
}

static void
test_replay_gfp (void)
{
  const guint32 p = 7;
  g_autoptr (TlGfpMatrix) a = tl_gfp_matrix_new (6, 6, p, NULL);
  for (gsize i = 0; i < 36; i++)
    a->data[i] = (guint32) g_test_rand_int_range (0, p);
  a->data[0] = 0; /* step 0 must look below the diagonal */
  a->data[6] = 3;
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (1000);
  g_autoptr (TlGfpLu) lu = tl_gfp_lu (a, rec, NULL, NULL);
  g_assert_nonnull (lu);
  g_assert_cmpuint (rec->modulus, ==, p);
  g_autoptr (TlLuRecorder) bare = only_input (rec);

  for (guint s = 0; s < rec->snapshots->len; s++)
    {
      const TlLuSnapshot *snap = &g_array_index (rec->snapshots, TlLuSnapshot, s);
      g_autoptr (TlGaussFrame) f = tl_gauss_frame_new (bare, snap->after_steps, NULL);
      assert_grid_equals (f->matrix, snap->data, 6, 6, 0.0);
    }
  g_autoptr (TlGaussFrame) last = tl_gauss_frame_new (bare, rec->steps->len, NULL);
  for (gsize i = 0; i < 6; i++)
    for (gsize j = 0; j < 6; j++)
      g_assert_cmpfloat (tl_pooled_grid_get (last->matrix, i, j), ==, tl_gfp_get (lu->lu, i, j));

  /* painted: exact integers in the cells, no error */
  TlPaintStyle style;
  tl_paint_style_init (&style, 1);
  TlGaussModel model;
  tl_gauss_model_init (&model);
  g_autoptr (TlGaussFrame) f0 = tl_gauss_frame_new (rec, 0, NULL);
  g_assert_cmpint (f0->current->pivot_row, ==, 1);
  model.frame = f0;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
  cairo_t *cr = cairo_create (s);
  tl_paint_gauss (cr, &model, &style, 1200, 700);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gauss-frame/replay-unblocked", test_replay_unblocked);
  g_test_add_func ("/gauss-frame/replay-blocked", test_replay_blocked);
  g_test_add_func ("/gauss-frame/replay-gfp", test_replay_gfp);
  g_test_add_func ("/paint-gauss/pivot-pixels", test_pivot_pixels);
  g_test_add_func ("/paint-gauss/blocked-timing", test_blocked_timing);
  return g_test_run ();
}
