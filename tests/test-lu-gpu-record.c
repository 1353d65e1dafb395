/* test-lu-gpu-record.c — recording on the GPU (a separate untimed run of
 * lu-01 / lu-02) agrees with the factorisation it came from; cancel stops a
 * factorisation between block steps. */
#include "lu-gpu-test-util.h"

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "lu/tl-lu-recorder.h"
#include "lu/tl-lu.h"
#include "tl-gpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void
assert_vectors_close (const TlLuVector *g, const TlLuVector *c, double tol, const char *what, guint k)
{
  if (g->len != c->len || g->pool != c->pool)
    g_error ("step %u %s: %u×%u entries on the GPU, %u×%u on the CPU", k, what, g->len, g->pool,
             c->len, c->pool);
  for (guint t = 0; t < g->len; t++)
    if (!(fabs (g->data[t] - c->data[t]) <= tol))
      g_error ("step %u %s[%u]: GPU %.17g, CPU %.17g", k, what, t, g->data[t], c->data[t]);
}

/* The recording agrees with the factorisation it came from: one step per
 * column whose pivot is ipiv[k], the last snapshot is the final L\U
 * (pooled like the recorder pools above 512), and the block steps' phase
 * times sum to at most the run they were measured in. */
static void
check_recording (const TlLuRecorder *rec, const TlLuResult *r, const TlMatrix *a)
{
  const guint mn = (guint) MIN (a->rows, a->cols);
  g_assert_true (rec->finished);
  g_assert_cmpuint (rec->steps->len, ==, mn);
  g_assert_cmpuint (rec->n_ipiv, ==, mn);
  g_assert_cmpmem (rec->ipiv, sizeof (gint32) * mn, r->ipiv, sizeof (gint32) * mn);
  double amax = r->max_abs_a;
  for (guint k = 0; k < mn; k++)
    {
      const TlLuStep *s = &g_array_index (rec->steps, TlLuStep, k);
      g_assert_cmpuint (s->k, ==, k);
      g_assert_cmpint (s->pivot_row, ==, r->ipiv[k]);
      g_assert_cmpint (s->swapped, ==, r->ipiv[k] != (gint32) k);
      /* the pivot is U(k,k) of the result, and the largest of the column searched */
      double ukk = tl_matrix_get (r->lu, k, k);
      g_assert_cmpfloat (fabs (s->pivot_value - ukk), <=, 1e-5 * fmax (fabs (ukk), 1e-30));
      g_assert_cmpuint (s->column.len, >, 0);
      double cmax = 0;
      for (guint t = 0; t < s->column.len; t++)
        cmax = fmax (cmax, s->column.data[t]);
      g_assert_cmpfloat (fabs (cmax - fabs (s->pivot_value)), <=, 1e-5 * fmax (cmax, 1e-30));
      g_assert_cmpuint (s->u_row.len, ==, (a->cols - k + s->u_row.pool - 1) / s->u_row.pool);
    }
  /* the last snapshot is the final L\U */
  g_assert_cmpuint (rec->snapshots->len, >=, 2);
  const TlLuSnapshot *last = &g_array_index (rec->snapshots, TlLuSnapshot, rec->snapshots->len - 1);
  g_assert_cmpuint (last->after_steps, ==, mn);
  g_autofree double *pooled = g_new0 (double, (gsize) last->rows * last->cols);
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (r->lu, i, j);
        double *cell = &pooled[(i / last->pool_r) * last->cols + j / last->pool_c];
        if (fabs (x) > fabs (*cell))
          *cell = x;
      }
  double tol = (a->dtype == TL_DTYPE_FLOAT32 ? 1e-5 : 1e-12) * fmax (amax * r->growth, 1.0);
  for (gsize c = 0; c < (gsize) last->rows * last->cols; c++)
    g_assert_cmpfloat (fabs (last->data[c] - pooled[c]), <=, tol);
  /* the first is the input */
  const TlLuSnapshot *first = &g_array_index (rec->snapshots, TlLuSnapshot, 0);
  g_assert_cmpuint (first->after_steps, ==, 0);
  if (first->pool_r == 1 && first->pool_c == 1)
    for (gsize i = 0; i < a->rows; i++)
      for (gsize j = 0; j < a->cols; j++)
        g_assert_cmpfloat (first->data[i * first->cols + j], ==, tl_matrix_get (a, i, j));

  if (r->block_size == 0)
    {
      g_assert_cmpuint (rec->blocks->len, ==, 0);
      return;
    }
  guint nblocks = (mn + (guint) r->block_size - 1) / (guint) r->block_size;
  g_assert_cmpuint (rec->blocks->len, ==, nblocks);
  /* a rung without a phase split (lu-06: one kernel) records its block
   * steps with no phase times, and says none */
  const TlLuKernelInfo *info = tl_lu_kernel_find (rec->kernel_id);
  g_assert_nonnull (info);
  if (!info->phases)
    {
      for (guint b = 0; b < nblocks; b++)
        {
          const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
          g_assert_cmpuint (bs->index, ==, b);
          g_assert_cmpuint (bs->k0, ==, b * r->block_size);
          g_assert_cmpuint (bs->k0 + bs->kb, ==, MIN (mn, (b + 1) * r->block_size));
          for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
            g_assert_cmpint (bs->phase_ns[ph], ==, 0);
        }
      for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
        g_assert_cmpint (r->phase_ns[ph], ==, 0);
      return;
    }
  gint64 sum[TL_LU_N_PHASES] = { 0 }, total = 0;
  for (guint b = 0; b < nblocks; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      g_assert_cmpuint (bs->index, ==, b);
      g_assert_cmpuint (bs->k0, ==, b * r->block_size);
      g_assert_cmpuint (bs->k0 + bs->kb, ==, MIN (mn, (b + 1) * r->block_size));
      g_assert_cmpuint (bs->upd_row0, ==, bs->k0 + bs->kb);
      g_assert_cmpuint (bs->upd_rows, ==, a->rows - bs->upd_row0);
      for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
        {
          g_assert_cmpint (bs->phase_ns[ph], >=, 0);
          sum[ph] += bs->phase_ns[ph];
          total += bs->phase_ns[ph];
        }
      /* every block step has a panel to factor: measured, not left at 0 */
      g_assert_cmpint (bs->phase_ns[TL_LU_PHASE_PANEL], >, 0);
    }
  /* the per-block split adds up to the result's split (ns rounding per block) … */
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    g_assert_cmpint (ABS (sum[ph] - r->phase_ns[ph]), <=, (gint64) nblocks + 2);
  /* … and to at most the run it was measured in (event resolution ~0.5 µs) */
  g_assert_cmpint (r->phase_run_ns, >, 0);
  g_assert_cmpint (total, <=, r->phase_run_ns + 1000);
  g_assert_cmpint (sum[TL_LU_PHASE_GEMM], >, 0);
}

void
test_record (void)
{
  g_autoptr (GError) error = NULL;
  struct { const char *kernel; TlDtype dt; gsize m, n, b; } cases[] = {
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-02-blocked", TL_DTYPE_FLOAT64, 600, 600, 64 }, /* pooled snapshots and vectors */
    { "lu-01-percolumn", TL_DTYPE_FLOAT64, 96, 96, 0 },
    { "lu-01-percolumn", TL_DTYPE_FLOAT32, 53, 40, 0 },
    { "lu-03-tuned", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-03-tuned", TL_DTYPE_FLOAT32, 90, 61, 20 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-04-persistent", TL_DTYPE_FLOAT64, 600, 600, 64 }, /* several blocks per panel */
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT32, 77, 77, 20 },
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 90, 61, 16 },
    { "lu-05-cluster", TL_DTYPE_FLOAT32, 600, 600, 64 }, /* two sub-panels per panel, clusters of 2 */
    { "lu-05-cluster", TL_DTYPE_FLOAT64, 600, 600, 64 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 96, 96, 16 },
    { "lu-06-fused", TL_DTYPE_FLOAT32, 77, 77, 32 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 61, 90, 16 },
    { "lu-06-fused", TL_DTYPE_FLOAT64, 90, 61, 8 },
    { "lu-06-fused", TL_DTYPE_FLOAT32, 600, 600, 32 }, /* two slots per thread, pooled snapshots */
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", cases[c].dt, cases[c].m, cases[c].n, 90 + c, &error);
      g_assert_no_error (error);
      g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) r = NULL;
      if (!tl_lu_factor (cases[c].kernel, a, cases[c].b, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error))
        g_error ("%s %zux%zu: %s", cases[c].kernel, cases[c].m, cases[c].n, error->message);
      g_assert_cmpfloat (factor_ratio (a, r), <, 30);
      g_assert_cmpfloat (r->elapsed_s, >, 0);
      g_assert_cmpfloat (r->record_s, >, 0);
      g_assert_cmpstr (rec->kernel_id, ==, cases[c].kernel);
      check_recording (rec, r, a);

      /* recording does not change the result: the same factorisation without it */
      g_autoptr (TlLuResult) plain = NULL;
      g_assert_true (tl_lu_factor (cases[c].kernel, a, cases[c].b, TL_PIVOTING_PARTIAL, NULL, NULL, &plain, &error));
      g_assert_cmpmem (plain->ipiv, sizeof (gint32) * plain->n_ipiv, r->ipiv, sizeof (gint32) * r->n_ipiv);
      g_assert_cmpfloat (plain->record_s, ==, 0);
    }

  /* step by step the same as the CPU kernel of the same shape (float64,
   * small: the pivots agree), snapshots included */
  const char *pairs[][2] = { { "lu-02-blocked", "lu-cpu-blocked" }, { "lu-01-percolumn", "lu-cpu-unblocked" },
                             { "lu-03-tuned", "lu-cpu-blocked" }, { "lu-04-persistent", "lu-cpu-blocked" },
                             { "lu-05-cluster", "lu-cpu-blocked" }, { "lu-06-fused", "lu-cpu-blocked" } };
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 48, 48, 7, &error);
      g_autoptr (TlLuRecorder) gr = tl_lu_recorder_new (0);
      g_autoptr (TlLuRecorder) cr = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) g = NULL;
      g_autoptr (TlLuResult) c = NULL;
      g_assert_true (tl_lu_factor (pairs[p][0], a, 16, TL_PIVOTING_PARTIAL, gr, NULL, &g, &error));
      g_assert_true (tl_lu_factor (pairs[p][1], a, 16, TL_PIVOTING_PARTIAL, cr, NULL, &c, &error));
      g_assert_cmpmem (g->ipiv, sizeof (gint32) * 48, c->ipiv, sizeof (gint32) * 48);
      g_assert_cmpuint (gr->steps->len, ==, cr->steps->len);
      for (guint k = 0; k < gr->steps->len; k++)
        {
          const TlLuStep *gs = &g_array_index (gr->steps, TlLuStep, k);
          const TlLuStep *cs = &g_array_index (cr->steps, TlLuStep, k);
          g_assert_cmpuint (gs->block, ==, cs->block);
          g_assert_cmpint (gs->pivot_row, ==, cs->pivot_row);
          g_assert_cmpfloat (fabs (gs->pivot_value - cs->pivot_value), <=, 1e-12);
          assert_vectors_close (&gs->column, &cs->column, 1e-12, "column", k);
          assert_vectors_close (&gs->multipliers, &cs->multipliers, 1e-12, "multipliers", k);
          assert_vectors_close (&gs->u_row, &cs->u_row, 1e-12, "u_row", k);
          g_assert_cmpuint (gs->upd_row0, ==, cs->upd_row0);
          g_assert_cmpuint (gs->upd_rows, ==, cs->upd_rows);
          g_assert_cmpuint (gs->upd_col0, ==, cs->upd_col0);
          g_assert_cmpuint (gs->upd_cols, ==, cs->upd_cols);
          g_assert_cmpfloat (fabs (gs->growth - cs->growth), <=, 1e-12 * cs->growth);
          g_assert_cmpint (gs->det_sign, ==, cs->det_sign);
        }
      g_assert_cmpuint (gr->blocks->len, ==, cr->blocks->len);
      g_assert_cmpuint (gr->snapshots->len, ==, cr->snapshots->len);
      g_assert_cmpuint (gr->snapshots->len, >, 2);
      for (guint s = 0; s < gr->snapshots->len; s++)
        {
          const TlLuSnapshot *gs = &g_array_index (gr->snapshots, TlLuSnapshot, s);
          const TlLuSnapshot *cs = &g_array_index (cr->snapshots, TlLuSnapshot, s);
          g_assert_cmpuint (gs->after_steps, ==, cs->after_steps);
          g_assert_cmpuint (gs->rows * gs->cols, ==, cs->rows * cs->cols);
          for (gsize t = 0; t < (gsize) gs->rows * gs->cols; t++)
            if (!(fabs (gs->data[t] - cs->data[t]) <= 1e-12 * fmax (1.0, fabs (cs->data[t]))))
              g_error ("%s snapshot after %u steps, cell %zu: GPU %.17g, CPU %.17g", pairs[p][0],
                       gs->after_steps, t, gs->data[t], cs->data[t]);
        }
    }

  /* above 512 the GPU pools its snapshots on the device (tl-gpu.h): the
   * cells equal the CPU recorder's pooling of the CPU kernel's matrix, up
   * to the rounding in which the two factorisations differ */
  const char *pooled[] = { "lu-02-blocked", "lu-03-tuned" };
  for (guint p = 0; p < G_N_ELEMENTS (pooled); p++)
    {
      g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 613, 587, 8, &error);
      g_autoptr (TlLuRecorder) gr = tl_lu_recorder_new (0);
      g_autoptr (TlLuRecorder) cr = tl_lu_recorder_new (0);
      g_autoptr (TlLuResult) g = NULL;
      g_autoptr (TlLuResult) c = NULL;
      g_assert_true (tl_lu_factor (pooled[p], a, 64, TL_PIVOTING_PARTIAL, gr, NULL, &g, &error));
      g_assert_true (tl_lu_factor ("lu-cpu-blocked", a, 64, TL_PIVOTING_PARTIAL, cr, NULL, &c, &error));
      g_assert_cmpmem (g->ipiv, sizeof (gint32) * g->n_ipiv, c->ipiv, sizeof (gint32) * c->n_ipiv);
      g_assert_cmpuint (gr->snapshots->len, ==, cr->snapshots->len);
      g_assert_cmpuint (gr->snapshots->len, >, 2);
      double tol = 1e-11 * fmax (1.0, g->max_abs_a * g->growth);
      for (guint s = 1; s + 1 < gr->snapshots->len; s++)
        {
          const TlLuSnapshot *gs = &g_array_index (gr->snapshots, TlLuSnapshot, s);
          const TlLuSnapshot *cs = &g_array_index (cr->snapshots, TlLuSnapshot, s);
          g_assert_cmpuint (gs->after_steps, ==, cs->after_steps);
          g_assert_cmpuint (gs->pool_r, ==, 3);
          g_assert_cmpuint (gs->pool_c, ==, 3);
          g_assert_cmpuint (gs->rows, ==, cs->rows);
          g_assert_cmpuint (gs->cols, ==, cs->cols);
          for (gsize t = 0; t < (gsize) gs->rows * gs->cols; t++)
            if (!(fabs (gs->data[t] - cs->data[t]) <= tol))
              g_error ("%s pooled snapshot after %u steps, cell %zu: GPU %.17g, CPU %.17g",
                       pooled[p], gs->after_steps, t, gs->data[t], cs->data[t]);
        }
    }

  /* cuSOLVER refuses with a message naming the rungs that record */
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 40, 40, 3, &error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_autoptr (GError) e = NULL;
  g_assert_false (tl_lu_factor ("lu-cusolver", a, 0, TL_PIVOTING_PARTIAL, rec, NULL, &r, &e));
  g_assert_error (e, TL_ERROR, TL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (e->message, "lu-02-blocked"));
  g_assert_nonnull (strstr (e->message, "lu-04-persistent"));
  g_assert_nonnull (strstr (e->message, "lu-05-cluster"));
}

/* Polls answered until the n-th, which says "cancel". */
typedef struct
{
  int polls, cancel_at;
} LuPolls;

static int
lu_poll_cb (void *user_data)
{
  LuPolls *p = user_data;
  return ++p->polls >= p->cancel_at;
}

/* Cancel stops a GPU factorisation between block steps: the harness
 * answers TL_GPU_CANCELLED at the first poll that says so (no further
 * poll, so no further step), and the device factors the next matrix
 * correctly. */
void
test_cancel (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlMatrix) a = tl_generate ("random-uniform", TL_DTYPE_FLOAT32, 1031, 1031, 11, &error);
  g_assert_no_error (error);
  TlGpuDevice *device = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &device), ==, TL_GPU_OK);
  const char *kernels[] = { "lu-01-percolumn", "lu-02-blocked", "lu-03-tuned", "lu-04-persistent",
                            "lu-06-fused" };
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autoptr (TlMatrix) work = tl_matrix_copy (a, NULL);
      g_autofree int *ipiv = g_new (int, a->rows);
      LuPolls polls = { 0, 5 };
      TlGpuLuArgs args = { .dtype = TL_GPU_FLOAT32, .m = (int) a->rows, .n = (int) a->cols,
                           .a = work->data, .ipiv = ipiv, .pivoting = 1, .warmups = 1,
                           .repeats = 3, .cancelled = lu_poll_cb, .user_data = &polls };
      TlGpuLuResult r;
      TlGpuStatus st = tl_gpu_lu_run (device, kernels[k], &args, &r);
      g_assert_cmpint (st, ==, TL_GPU_CANCELLED);
      g_assert_cmpint (polls.polls, ==, 5);
      tl_gpu_lu_result_clear (&r);

      g_autoptr (TlLuResult) done = factor_checked (kernels[k], a, 0);
      double ratio = factor_ratio (a, done);
      if (!(ratio < 30))
        g_error ("%s after a cancel: ratio %g", kernels[k], ratio);
    }
  tl_gpu_device_close (device);
}
