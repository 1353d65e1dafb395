/* test-view-gauss-frame.c — a Gauss frame replays the recorded steps from the
 * nearest clean snapshot exactly: float64 within rounding, GF(p) exactly. */
#include <math.h>
#include "core/tl-error.h"
#include "lu/tl-gfp.h"
#include "lu/tl-lu.h"
#include "lu-test-util.h"
#include "view/tl-gauss-frame.h"
#include "view-test-util.h"
#include "record/tl-gauss-record.h"

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
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (1000);
  g_autoptr (TlGfpLu) lu = gfp_lu_zero_corner (p, rec);
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

  /* step 0 looked below the zero on the diagonal */
  g_autoptr (TlGaussFrame) f0 = tl_gauss_frame_new (rec, 0, NULL);
  g_assert_cmpint (f0->current->pivot_row, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gauss-frame/replay-unblocked", test_replay_unblocked);
  g_test_add_func ("/gauss-frame/replay-blocked", test_replay_blocked);
  g_test_add_func ("/gauss-frame/replay-gfp", test_replay_gfp);
  return g_test_run ();
}
