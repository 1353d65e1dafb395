/* test-view-pool.c — pooling by mean and by max |a| on known matrices. */
#include <math.h>
#include <gio/gio.h>
#include "view/tl-pool.h"
#include "view-test-util.h"

static TlMatrix *
random_matrix (TlDtype dtype, gsize rows, gsize cols)
{
  g_autoptr (GError) error = NULL;
  TlMatrix *m = tl_matrix_new (dtype, rows, cols, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < rows; i++)
    for (gsize j = 0; j < cols; j++)
      tl_matrix_set (m, i, j, dtype == TL_DTYPE_INT32 ? (double) g_test_rand_int_range (-50, 50)
                                                     : tl_test_random (-2.0, 2.0));
  return m;
}

/* float64 reference over one block */
static void
reference_block (const TlMatrix *m, gsize r0, gsize r1, gsize c0, gsize c1,
                 double *mean, double *maxabs)
{
  double s = 0, b = 0;
  for (gsize i = r0; i < r1; i++)
    for (gsize j = c0; j < c1; j++)
      {
        double v = tl_matrix_get (m, i, j);
        s += v;
        if (fabs (v) > fabs (b))
          b = v;
      }
  *mean = s / ((r1 - r0) * (c1 - c0));
  *maxabs = b;
}

static void
check_pool (TlDtype dtype, gsize rows, gsize cols, gsize max_r, gsize max_c)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = random_matrix (dtype, rows, cols);
  g_autoptr (TlPooledGrid) mean = tl_pool_matrix (m, 0, 0, 0, 0, max_r, max_c, TL_POOL_MEAN, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (TlPooledGrid) mx = tl_pool_matrix (m, 0, 0, 0, 0, max_r, max_c, TL_POOL_MAX_ABS, NULL, &error);
  g_assert_no_error (error);

  guint fr = (guint) ((rows + max_r - 1) / max_r), fc = (guint) ((cols + max_c - 1) / max_c);
  fr = MAX (fr, 1);
  fc = MAX (fc, 1);
  g_assert_cmpuint (mean->factor_r, ==, fr);
  g_assert_cmpuint (mean->factor_c, ==, fc);
  g_assert_cmpuint (mean->grid_rows, ==, (rows + fr - 1) / fr);
  g_assert_cmpuint (mean->grid_cols, ==, (cols + fc - 1) / fc);
  g_assert_cmpuint (mean->grid_rows, <=, max_r);
  g_assert_cmpuint (mean->grid_cols, <=, max_c);

  double lo = INFINITY, hi = -INFINITY;
  for (gsize r = 0; r < mean->grid_rows; r++)
    for (gsize c = 0; c < mean->grid_cols; c++)
      {
        double e_mean, e_max;
        reference_block (m, r * fr, MIN ((r + 1) * fr, rows), c * fc, MIN ((c + 1) * fc, cols),
                         &e_mean, &e_max);
        g_assert_cmpfloat_with_epsilon (tl_pooled_grid_get (mean, r, c), e_mean, 1e-9);
        g_assert_cmpfloat (tl_pooled_grid_get (mx, r, c), ==, e_max);
        lo = MIN (lo, e_mean);
        hi = MAX (hi, e_mean);
      }
  g_assert_cmpfloat_with_epsilon (mean->min, lo, 1e-9);
  g_assert_cmpfloat_with_epsilon (mean->max, hi, 1e-9);
}

static void
test_known (void)
{
  /* 3×4 pooled to 2×2: factors 2 and 2, partial last row block */
  static const double v[3][4] = {
    { 1, 2, -3, 4 },
    { 5, 6, 7, -8 },
    { 9, -10, 11, 12 },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = tl_matrix_new (TL_DTYPE_FLOAT64, 3, 4, &error);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      tl_matrix_set (m, i, j, v[i][j]);

  g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 2, 2, TL_POOL_MEAN, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g->grid_rows, ==, 2);
  g_assert_cmpuint (g->grid_cols, ==, 2);
  g_assert_cmpfloat (tl_pooled_grid_get (g, 0, 0), ==, (1 + 2 + 5 + 6) / 4.0);
  g_assert_cmpfloat (tl_pooled_grid_get (g, 0, 1), ==, (-3 + 4 + 7 - 8) / 4.0);
  g_assert_cmpfloat (tl_pooled_grid_get (g, 1, 0), ==, (9 - 10) / 2.0);
  g_assert_cmpfloat (tl_pooled_grid_get (g, 1, 1), ==, (11 + 12) / 2.0);

  g_autoptr (TlPooledGrid) x = tl_pool_matrix (m, 0, 0, 0, 0, 2, 2, TL_POOL_MAX_ABS, NULL, &error);
  g_assert_cmpfloat (tl_pooled_grid_get (x, 0, 0), ==, 6);
  g_assert_cmpfloat (tl_pooled_grid_get (x, 0, 1), ==, -8); /* keeps the sign */
  g_assert_cmpfloat (tl_pooled_grid_get (x, 1, 0), ==, -10);
  g_assert_cmpfloat (tl_pooled_grid_get (x, 1, 1), ==, 12);
  g_assert_cmpfloat (x->min, ==, -10);
  g_assert_cmpfloat (x->max, ==, 12);

  /* a region: rows 1–2, cols 1–3, no pooling needed */
  g_autoptr (TlPooledGrid) r = tl_pool_matrix (m, 1, 1, 2, 3, 100, 100, TL_POOL_MEAN, NULL, &error);
  g_assert_cmpuint (r->factor_r, ==, 1);
  g_assert_cmpuint (r->grid_rows, ==, 2);
  g_assert_cmpuint (r->grid_cols, ==, 3);
  g_assert_cmpfloat (tl_pooled_grid_get (r, 1, 2), ==, 12);
  g_assert_cmpfloat (tl_pooled_grid_get (r, 0, 0), ==, 6);
}

static void
test_random_shapes (void)
{
  check_pool (TL_DTYPE_FLOAT64, 37, 53, 5, 7);
  check_pool (TL_DTYPE_FLOAT32, 101, 13, 10, 13);
  check_pool (TL_DTYPE_INT32, 64, 65, 8, 8);
  check_pool (TL_DTYPE_FLOAT64, 9, 11, 100, 100); /* fits: factor 1 */
  check_pool (TL_DTYPE_FLOAT32, 1, 257, 1, 16);
}

/* A row longer than the pooling window (64 Ki columns), blocks across its
 * edges: a 1 × 350,000,000 matrix is pooled a window at a time, never a
 * row of doubles as long as itself. */
static void
test_wide_rows (void)
{
  check_pool (TL_DTYPE_FLOAT32, 1, 3 * 65536 + 17, 1, 900);
  check_pool (TL_DTYPE_FLOAT64, 3, 65536 + 5, 2, 7);
  check_pool (TL_DTYPE_INT32, 2, 2 * 65536 + 1, 2, 1);
  g_autoptr (TlMatrix) m = random_matrix (TL_DTYPE_FLOAT32, 2, 65536 * 2 + 3);
  TlValueRange range, want;
  tl_value_range_init (&want);
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      tl_value_range_add (&want, tl_matrix_get (m, i, j));
  g_assert_true (tl_pool_value_range (m, NULL, &range, NULL));
  g_assert_cmpfloat (range.min, ==, want.min);
  g_assert_cmpfloat (range.max, ==, want.max);
  g_assert_cmpuint (range.n_finite, ==, want.n_finite);
}

static void
test_nan (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = random_matrix (TL_DTYPE_FLOAT32, 40, 40);
  tl_matrix_set (m, 13, 27, NAN);

  for (int mode = TL_POOL_MEAN; mode <= TL_POOL_MAX_ABS; mode++)
    {
      g_autoptr (TlPooledGrid) g = tl_pool_matrix (m, 0, 0, 0, 0, 4, 4, mode, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g->n_nan_cells, ==, 1);
      g_assert_true (isnan (tl_pooled_grid_get (g, 1, 2))); /* 13/10, 27/10 */
      g_assert_false (isnan (tl_pooled_grid_get (g, 1, 1)));
    }
}

static void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) m = random_matrix (TL_DTYPE_FLOAT32, 64, 64);
  g_autoptr (GCancellable) c = g_cancellable_new ();
  g_cancellable_cancel (c);
  TlPooledGrid *g = tl_pool_matrix (m, 0, 0, 0, 0, 8, 8, TL_POOL_MEAN, c, &error);
  g_assert_null (g);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A preview pools every stride-th row only: each cell is the mean (max |a|)
 * of the sampled rows of its block, and says it is a sample. */
static void
test_preview (void)
{
  g_autoptr (TlMatrix) m = random_matrix (TL_DTYPE_FLOAT32, 203, 61);
  for (int mode = TL_POOL_MEAN; mode < TL_POOL_MODE_COUNT; mode++)
    {
      g_autoptr (TlPooledGrid) g = tl_pool_matrix_preview (m, 20, 20, 3, mode, NULL, NULL);
      g_assert_nonnull (g);
      g_assert_cmpuint (g->sample_stride, ==, 3);
      g_assert_cmpuint (g->factor_r, ==, 11);
      g_assert_cmpuint (g->factor_c, ==, 4);
      for (gsize gr = 0; gr < g->grid_rows; gr++)
        for (gsize gc = 0; gc < g->grid_cols; gc++)
          {
            double sum = 0, best = mode == TL_POOL_MAX ? -INFINITY : 0;
            gsize count = 0;
            for (gsize r = gr * 11; r < MIN ((gr + 1) * 11, 203); r += 3)
              for (gsize c = gc * 4; c < MIN ((gc + 1) * 4, 61); c++)
                {
                  double v = tl_matrix_get (m, r, c);
                  sum += v;
                  count++;
                  if (mode == TL_POOL_MAX ? v > best : fabs (v) > fabs (best))
                    best = v;
                }
            double want = mode == TL_POOL_MEAN ? sum / count : best;
            g_assert_cmpfloat_with_epsilon (tl_pooled_grid_get (g, gr, gc), want, 1e-12);
          }
    }
  g_autoptr (TlPooledGrid) full = tl_pool_matrix (m, 0, 0, 0, 0, 20, 20, TL_POOL_MEAN, NULL, NULL);
  g_assert_cmpuint (full->sample_stride, ==, 1);
  g_assert_cmpuint (full->range.n_finite, ==, 203 * 61);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pool/known", test_known);
  g_test_add_func ("/pool/random-shapes", test_random_shapes);
  g_test_add_func ("/pool/wide-rows", test_wide_rows);
  g_test_add_func ("/pool/nan", test_nan);
  g_test_add_func ("/pool/cancel", test_cancel);
  g_test_add_func ("/pool/preview", test_preview);
  return g_test_run ();
}
