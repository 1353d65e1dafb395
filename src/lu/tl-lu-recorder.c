/* tl-lu-recorder.c — collects Gauss elimination steps (their JSON form: record/tl-gauss-record.c). */
#include "lu/tl-lu-recorder.h"
#include "core/tl-error.h"
#include "core/tl-matrix.h"

#include <math.h>
#include <string.h>

/* Snapshots hold at most this many cells together (64 MiB of doubles). */
#define SNAPSHOT_CELL_BUDGET (8u * 1024 * 1024)

static void
vector_clear (TlLuVector *v)
{
  g_clear_pointer (&v->data, g_free);
  v->len = 0;
  v->pool = 1;
}

static void
step_clear (gpointer p)
{
  TlLuStep *s = p;
  vector_clear (&s->column);
  vector_clear (&s->multipliers);
  vector_clear (&s->u_row);
}

static void
snapshot_clear (gpointer p)
{
  TlLuSnapshot *s = p;
  g_clear_pointer (&s->data, g_free);
}

static void
recorder_reset (TlLuRecorder *self)
{
  g_clear_pointer (&self->kernel_id, g_free);
  g_clear_pointer (&self->dtype, g_free);
  g_clear_pointer (&self->ipiv, g_free);
  g_array_set_size (self->steps, 0);
  g_array_set_size (self->blocks, 0);
  g_array_set_size (self->snapshots, 0);
  self->finished = FALSE;
  self->n_ipiv = 0;
  self->info = 0;
  self->breakdown = FALSE;
  self->rank = 0;
  self->det_sign = 1;
  self->log_abs_det = 0.0;
  self->growth = 1.0;
  self->max_abs_u = 0.0;
  self->last_snapshot = 0;
  self->det_mod = 1;
}

TlLuRecorder *
tl_lu_recorder_new (guint max_snapshots)
{
  TlLuRecorder *self = g_new0 (TlLuRecorder, 1);
  self->max_snapshots = max_snapshots ? MAX (max_snapshots, 2) : 65;
  self->steps = g_array_new (FALSE, TRUE, sizeof (TlLuStep));
  g_array_set_clear_func (self->steps, step_clear);
  self->blocks = g_array_new (FALSE, TRUE, sizeof (TlLuBlockStep));
  self->snapshots = g_array_new (FALSE, TRUE, sizeof (TlLuSnapshot));
  g_array_set_clear_func (self->snapshots, snapshot_clear);
  recorder_reset (self);
  return self;
}

void
tl_lu_recorder_free (TlLuRecorder *self)
{
  if (self == NULL)
    return;
  recorder_reset (self);
  g_array_unref (self->steps);
  g_array_unref (self->blocks);
  g_array_unref (self->snapshots);
  g_free (self);
}

static guint
steps_total (const TlLuRecorder *self)
{
  return MIN (self->rows, self->cols);
}

void
tl_lu_recorder_begin (TlLuRecorder *self, const char *kernel_id, const char *dtype,
                      guint64 modulus, guint rows, guint cols, guint block_size,
                      TlPivoting pivoting, double max_abs_a)
{
  g_return_if_fail (self != NULL);
  recorder_reset (self);
  self->kernel_id = g_strdup (kernel_id);
  self->dtype = g_strdup (dtype);
  self->modulus = modulus;
  self->rows = rows;
  self->cols = cols;
  self->block_size = block_size;
  self->pivoting = pivoting;
  self->max_abs_a = max_abs_a;

  guint big = MAX (rows, cols);
  guint64 cells = big <= TL_LU_RECORD_WHOLE_MAX
    ? (guint64) rows * cols
    : (guint64) MIN (rows, TL_LU_RECORD_POOLED) * MIN (cols, TL_LU_RECORD_POOLED);
  guint budget = (guint) MIN ((guint64) self->max_snapshots,
                              MAX (2, SNAPSHOT_CELL_BUDGET / MAX (cells, 1)));
  guint inner = budget > 2 ? budget - 2 : 1;
  self->snapshot_interval = MAX (1, (steps_total (self) + inner - 1) / inner);
}

double
tl_lu_recorder_get_matrix (gconstpointer matrix, gsize i, gsize j)
{
  return tl_matrix_get (matrix, i, j);
}

/* Reads n values into v, pooled to ≤ 256 (signed max |·|) above 512. */
static void
vector_fill (TlLuVector *v, gsize n, gboolean absolute, TlLuGetFn get, gconstpointer data,
             gsize i0, gsize j0, gboolean along_column)
{
  vector_clear (v);
  guint pool = n <= TL_LU_RECORD_WHOLE_MAX ? 1 : (guint) ((n + TL_LU_RECORD_POOLED - 1) / TL_LU_RECORD_POOLED);
  guint len = (guint) ((n + pool - 1) / pool);
  v->pool = pool;
  v->len = len;
  v->data = g_new0 (double, MAX (len, 1));
  for (guint s = 0; s < len; s++)
    {
      double best = 0.0;
      for (gsize t = (gsize) s * pool; t < MIN (n, (gsize) (s + 1) * pool); t++)
        {
          double x = along_column ? get (data, i0 + t, j0) : get (data, i0, j0 + t);
          if (absolute)
            x = fabs (x);
          if (fabs (x) > fabs (best) || isnan (x))
            best = x;
        }
      v->data[s] = best;
    }
}

static TlLuStep *
step_at (TlLuRecorder *self, guint k)
{
  g_return_val_if_fail (k < self->steps->len, NULL);
  return &g_array_index (self->steps, TlLuStep, k);
}

void
tl_lu_recorder_step_search (TlLuRecorder *self, guint k, guint block, TlLuGetFn get,
                            gconstpointer data)
{
  g_return_if_fail (self != NULL && k == self->steps->len);
  TlLuStep s = { 0 };
  s.k = k;
  s.block = block;
  s.pivot_row = k;
  s.growth = self->growth;
  s.det_sign = self->det_sign;
  s.log_abs_det = self->log_abs_det;
  vector_fill (&s.column, self->rows - MIN (self->rows, k), TRUE, get, data, k, k, TRUE);
  s.multipliers.pool = 1;
  s.u_row.pool = 1;
  g_array_append_val (self->steps, s);
}

void
tl_lu_recorder_step_pivot (TlLuRecorder *self, guint k, gint64 pivot_row, double pivot_value,
                           gboolean zero_pivot)
{
  TlLuStep *s = step_at (self, k);
  if (s == NULL)
    return;
  s->pivot_row = pivot_row;
  s->pivot_value = pivot_value;
  s->swapped = pivot_row != (gint64) k;
  s->zero_pivot = zero_pivot;
  if (s->swapped)
    self->det_sign = -self->det_sign;
  if (zero_pivot || pivot_value == 0.0)
    {
      self->det_sign = 0;
      self->log_abs_det = -INFINITY;
      self->det_mod = 0;
    }
  else if (self->modulus == 0)
    {
      if (pivot_value < 0)
        self->det_sign = -self->det_sign;
      self->log_abs_det += log (fabs (pivot_value));
    }
  else
    {
      /* exact: det_mod = ±∏ pivots mod p; the values are < p < 2³¹, so
       * the product fits in 64 bits before the reduction */
      guint64 p = self->modulus, v = (guint64) pivot_value % p;
      self->det_mod = (self->det_mod * v) % p;
    }
  s->det_sign = self->det_sign;
  s->log_abs_det = self->log_abs_det;
  s->det_mod = self->det_mod;
  if (self->modulus && self->det_sign < 0 && s->det_mod != 0)
    s->det_mod = self->modulus - s->det_mod;
}

void
tl_lu_recorder_step_eliminated (TlLuRecorder *self, guint k, TlLuGetFn get, gconstpointer data,
                                guint upd_row0, guint upd_rows, guint upd_col0, guint upd_cols)
{
  TlLuStep *s = step_at (self, k);
  if (s == NULL)
    return;
  gsize below = self->rows > k + 1 ? self->rows - k - 1 : 0;
  vector_fill (&s->multipliers, below, FALSE, get, data, k + 1, k, TRUE);
  s->upd_row0 = upd_row0;
  s->upd_rows = upd_rows;
  s->upd_col0 = upd_col0;
  s->upd_cols = upd_cols;
}

void
tl_lu_recorder_step_u_row (TlLuRecorder *self, guint k, TlLuGetFn get, gconstpointer data)
{
  TlLuStep *s = step_at (self, k);
  if (s == NULL)
    return;
  vector_fill (&s->u_row, self->cols - MIN (self->cols, k), FALSE, get, data, k, k, FALSE);
  if (self->modulus == 0)
    {
      for (guint t = 0; t < s->u_row.len; t++)
        self->max_abs_u = fmax (self->max_abs_u, fabs (s->u_row.data[t]));
      self->growth = self->max_abs_a > 0 ? self->max_abs_u / self->max_abs_a : 1.0;
    }
  s->growth = self->growth;
}

void
tl_lu_recorder_block (TlLuRecorder *self, guint index, guint k0, guint kb,
                      const gint64 phase_ns[TL_LU_N_PHASES], guint upd_row0, guint upd_rows,
                      guint upd_col0, guint upd_cols)
{
  g_return_if_fail (self != NULL);
  TlLuBlockStep b = { 0 };
  b.index = index;
  b.k0 = k0;
  b.kb = kb;
  memcpy (b.phase_ns, phase_ns, sizeof b.phase_ns);
  b.upd_row0 = upd_row0;
  b.upd_rows = upd_rows;
  b.upd_col0 = upd_col0;
  b.upd_cols = upd_cols;
  g_array_append_val (self->blocks, b);
}

gboolean
tl_lu_recorder_snapshot_due (const TlLuRecorder *self, guint steps_done)
{
  g_return_val_if_fail (self != NULL, FALSE);
  guint total = steps_total (self);
  steps_done = MIN (steps_done, total);
  return self->snapshots->len == 0 || steps_done >= self->last_snapshot + self->snapshot_interval
         || steps_done >= total;
}

void
tl_lu_recorder_snapshot_pool (const TlLuRecorder *self, guint *pool_r, guint *pool_c)
{
  g_return_if_fail (self != NULL && pool_r != NULL && pool_c != NULL);
  guint big = MAX (self->rows, self->cols);
  *pool_r = big <= TL_LU_RECORD_WHOLE_MAX ? 1 : MAX (1, (self->rows + TL_LU_RECORD_POOLED - 1) / TL_LU_RECORD_POOLED);
  *pool_c = big <= TL_LU_RECORD_WHOLE_MAX ? 1 : MAX (1, (self->cols + TL_LU_RECORD_POOLED - 1) / TL_LU_RECORD_POOLED);
}

/* A new snapshot after steps_done steps in *s (its shape set, data zeroed),
 * replacing a last one of the same step; FALSE when none is due. */
static gboolean
snapshot_start (TlLuRecorder *self, guint steps_done, TlLuSnapshot *s)
{
  if (!tl_lu_recorder_snapshot_due (self, steps_done))
    return FALSE;
  guint total = steps_total (self);
  steps_done = MIN (steps_done, total);
  gboolean first = self->snapshots->len == 0;
  guint after = MIN (steps_done, self->steps->len);
  if (first)
    after = steps_done;
  if (!first)
    {
      TlLuSnapshot *last = &g_array_index (self->snapshots, TlLuSnapshot, self->snapshots->len - 1);
      if (last->after_steps == after)
        g_array_set_size (self->snapshots, self->snapshots->len - 1);
    }
  *s = (TlLuSnapshot) { 0 };
  s->after_steps = after;
  tl_lu_recorder_snapshot_pool (self, &s->pool_r, &s->pool_c);
  s->rows = (self->rows + s->pool_r - 1) / s->pool_r;
  s->cols = (self->cols + s->pool_c - 1) / s->pool_c;
  s->data = g_new0 (double, MAX ((gsize) s->rows * s->cols, 1));
  self->last_snapshot = steps_done;
  return TRUE;
}

void
tl_lu_recorder_snapshot (TlLuRecorder *self, guint steps_done, TlLuGetFn get, gconstpointer data)
{
  g_return_if_fail (self != NULL);
  TlLuSnapshot s;
  if (!snapshot_start (self, steps_done, &s))
    return;
  for (guint i = 0; i < self->rows; i++)
    for (guint j = 0; j < self->cols; j++)
      {
        double x = get (data, i, j);
        double *cell = &s.data[(gsize) (i / s.pool_r) * s.cols + j / s.pool_c];
        if (fabs (x) > fabs (*cell) || isnan (x))
          *cell = x;
      }
  g_array_append_val (self->snapshots, s);
}

/* One row's elements [j0, j1) folded into a cell by the snapshot rule: the
 * element of largest |x| in order, NaN sticky. */
#define FOLD_SEGMENT(type)                                     \
  G_STMT_START {                                               \
    const type *x = (const type *) row;                        \
    for (guint j = j0; j < j1; j++)                            \
      {                                                        \
        double v = x[j];                                       \
        if (fabs (v) > fabs (best) || isnan (v))               \
          best = v;                                            \
      }                                                        \
  } G_STMT_END

gboolean
tl_lu_recorder_snapshot_matrix (TlLuRecorder *self, guint steps_done, const TlMatrix *m,
                                GCancellable *cancellable)
{
  g_return_val_if_fail (self != NULL && m != NULL, TRUE);
  g_return_val_if_fail (m->rows == self->rows && m->cols == self->cols, TRUE);
  g_return_val_if_fail (m->dtype == TL_DTYPE_FLOAT32 || m->dtype == TL_DTYPE_FLOAT64, TRUE);
  TlLuSnapshot s;
  if (!snapshot_start (self, steps_done, &s))
    return TRUE;
  for (guint i = 0; i < self->rows; i++)
    {
      /* a 12000² float32 matrix is 576 MB: a cancel is seen every 64 rows */
      if (i % 64 == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_free (s.data);
          return FALSE;
        }
      const void *row = tl_matrix_row (m, i);
      double *cells = &s.data[(gsize) (i / s.pool_r) * s.cols];
      for (guint c = 0; c < s.cols; c++)
        {
          guint j0 = c * s.pool_c, j1 = MIN (j0 + s.pool_c, self->cols);
          double best = cells[c];
          if (m->dtype == TL_DTYPE_FLOAT32)
            FOLD_SEGMENT (float);
          else
            FOLD_SEGMENT (double);
          cells[c] = best;
        }
    }
  g_array_append_val (self->snapshots, s);
  return TRUE;
}

gboolean
tl_lu_recorder_snapshot_cells (TlLuRecorder *self, guint steps_done, guint pool_r, guint pool_c,
                               guint rows, guint cols, const double *cells)
{
  g_return_val_if_fail (self != NULL && cells != NULL, FALSE);
  guint want_r = 0, want_c = 0;
  tl_lu_recorder_snapshot_pool (self, &want_r, &want_c);
  if (pool_r != want_r || pool_c != want_c || rows != (self->rows + pool_r - 1) / pool_r
      || cols != (self->cols + pool_c - 1) / pool_c)
    return FALSE;
  TlLuSnapshot s;
  if (!snapshot_start (self, steps_done, &s))
    return TRUE;
  memcpy (s.data, cells, sizeof (double) * rows * cols);
  g_array_append_val (self->snapshots, s);
  return TRUE;
}

void
tl_lu_recorder_finish (TlLuRecorder *self, const gint32 *ipiv, guint n_ipiv, gsize info,
                       gboolean breakdown, gsize rank, int det_sign, double log_abs_det,
                       double growth)
{
  g_return_if_fail (self != NULL);
  g_free (self->ipiv);
  self->ipiv = g_memdup2 (ipiv, sizeof (gint32) * MAX (n_ipiv, 1));
  self->n_ipiv = n_ipiv;
  self->info = info;
  self->breakdown = breakdown;
  self->rank = rank;
  self->det_sign = det_sign;
  self->log_abs_det = log_abs_det;
  self->growth = growth;
  self->finished = TRUE;
}
