/* tl-lu-recorder.c — collects Gauss elimination steps; JSON in and out. */
#include "lu/tl-lu-recorder.h"
#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-matrix.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
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

/* ---- JSON ------------------------------------------------------------------ */

/* JSON has no Inf or NaN: they are written as the strings "inf", "-inf",
 * "nan".  In GF(p) mode values are written as integers. */
static void
add_double (JsonBuilder *b, double x)
{
  if (isnan (x))
    json_builder_add_string_value (b, "nan");
  else if (isinf (x))
    json_builder_add_string_value (b, x > 0 ? "inf" : "-inf");
  else
    json_builder_add_double_value (b, x);
}

static void
add_value (JsonBuilder *b, const TlLuRecorder *self, double x)
{
  if (self->modulus && isfinite (x))
    json_builder_add_int_value (b, (gint64) x);
  else
    add_double (b, x);
}

static void
member_double (JsonBuilder *b, const char *name, double x)
{
  json_builder_set_member_name (b, name);
  add_double (b, x);
}

static void
member_vector (JsonBuilder *b, const TlLuRecorder *self, const char *name, const TlLuVector *v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  tl_json_member_int (b, "pool", v->pool);
  json_builder_set_member_name (b, "data");
  json_builder_begin_array (b);
  for (guint i = 0; i < v->len; i++)
    add_value (b, self, v->data[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
member_region (JsonBuilder *b, const char *name, guint r0, guint rows, guint c0, guint cols)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  json_builder_add_int_value (b, r0);
  json_builder_add_int_value (b, rows);
  json_builder_add_int_value (b, c0);
  json_builder_add_int_value (b, cols);
  json_builder_end_array (b);
}

JsonNode *
tl_lu_recorder_to_json (const TlLuRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  tl_json_member_string (b, "kind", "lu");
  tl_json_member_int (b, "schema", TL_LU_RECORD_SCHEMA);
  tl_json_member_string (b, "kernel", self->kernel_id ? self->kernel_id : "");
  tl_json_member_string (b, "dtype", self->dtype ? self->dtype : "");
  tl_json_member_int (b, "modulus", (gint64) self->modulus);
  tl_json_member_int (b, "rows", self->rows);
  tl_json_member_int (b, "cols", self->cols);
  tl_json_member_int (b, "block_size", self->block_size);
  tl_json_member_string (b, "pivoting", tl_pivoting_name (self->pivoting));
  member_double (b, "max_abs_a", self->max_abs_a);

  json_builder_set_member_name (b, "result");
  json_builder_begin_object (b);
  tl_json_member_bool (b, "finished", self->finished);
  json_builder_set_member_name (b, "ipiv");
  json_builder_begin_array (b);
  for (guint k = 0; k < self->n_ipiv; k++)
    json_builder_add_int_value (b, self->ipiv[k]);
  json_builder_end_array (b);
  tl_json_member_int (b, "info", (gint64) self->info);
  tl_json_member_bool (b, "breakdown", self->breakdown);
  tl_json_member_int (b, "rank", (gint64) self->rank);
  tl_json_member_int (b, "det_sign", self->det_sign);
  member_double (b, "log_abs_det", self->log_abs_det);
  member_double (b, "growth", self->growth);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->steps->len; i++)
    {
      const TlLuStep *s = &g_array_index (self->steps, TlLuStep, i);
      json_builder_begin_object (b);
      tl_json_member_int (b, "k", s->k);
      tl_json_member_int (b, "block", s->block);
      member_vector (b, self, "column", &s->column);
      tl_json_member_int (b, "pivot_row", s->pivot_row);
      json_builder_set_member_name (b, "pivot_value");
      add_value (b, self, s->pivot_value);
      tl_json_member_bool (b, "swapped", s->swapped);
      tl_json_member_bool (b, "zero_pivot", s->zero_pivot);
      member_vector (b, self, "multipliers", &s->multipliers);
      member_vector (b, self, "u_row", &s->u_row);
      member_region (b, "update", s->upd_row0, s->upd_rows, s->upd_col0, s->upd_cols);
      member_double (b, "growth", s->growth);
      tl_json_member_int (b, "det_sign", s->det_sign);
      member_double (b, "log_abs_det", s->log_abs_det);
      if (self->modulus)
        tl_json_member_int (b, "det_mod", (gint64) s->det_mod);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "blocks");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->blocks->len; i++)
    {
      const TlLuBlockStep *s = &g_array_index (self->blocks, TlLuBlockStep, i);
      json_builder_begin_object (b);
      tl_json_member_int (b, "index", s->index);
      tl_json_member_int (b, "k0", s->k0);
      tl_json_member_int (b, "kb", s->kb);
      json_builder_set_member_name (b, "phase_ns");
      json_builder_begin_object (b);
      for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
        tl_json_member_int (b, tl_lu_phase_name (ph), s->phase_ns[ph]);
      json_builder_end_object (b);
      member_region (b, "update", s->upd_row0, s->upd_rows, s->upd_col0, s->upd_cols);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "snapshots");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *s = &g_array_index (self->snapshots, TlLuSnapshot, i);
      json_builder_begin_object (b);
      tl_json_member_int (b, "after_steps", s->after_steps);
      tl_json_member_int (b, "rows", s->rows);
      tl_json_member_int (b, "cols", s->cols);
      tl_json_member_int (b, "pool_r", s->pool_r);
      tl_json_member_int (b, "pool_c", s->pool_c);
      json_builder_set_member_name (b, "data");
      json_builder_begin_array (b);
      for (gsize t = 0; t < (gsize) s->rows * s->cols; t++)
        add_value (b, self, s->data[t]);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* reading
 *
 * Every number becomes an index, a size or an integer only after its
 * range is checked here; validate() then checks what the numbers say
 * together (indices inside the matrix, steps in order), and in GF(p)
 * mode that every value is a residue 0…p−1, so replaying a step never
 * casts a NaN, a negative or a huge double to an integer. */

static gboolean
read_double (JsonNode *node, double *out)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  GType t = json_node_get_value_type (node);
  if (t == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);
      if (g_strcmp0 (s, "inf") == 0)
        *out = INFINITY;
      else if (g_strcmp0 (s, "-inf") == 0)
        *out = -INFINITY;
      else if (g_strcmp0 (s, "nan") == 0)
        *out = NAN;
      else
        return FALSE;
      return TRUE;
    }
  if (tl_json_node_is_number (node))
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  return FALSE;
}

typedef struct
{
  GError **error;
  const char *where;
  gboolean ok;
} Reader;

static void
bad (Reader *r, const char *what)
{
  if (r->ok)
    g_set_error (r->error, TL_ERROR, TL_ERROR_PARSE, _("LU record: %s%s%s is missing or malformed"),
                 r->where ? r->where : "", r->where ? ": " : "", what);
  r->ok = FALSE;
}

/* An integer in lo…hi (0 and "bad" otherwise). */
static gint64
get_int_in (Reader *r, JsonObject *o, const char *name, gint64 lo, gint64 hi)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (!tl_json_node_is_int (n) || json_node_get_int (n) < lo || json_node_get_int (n) > hi)
    {
      bad (r, name);
      return 0;
    }
  return json_node_get_int (n);
}

/* A count or an index: 0 … TL_MATRIX_MAX_DIM. */
static guint
get_uint (Reader *r, JsonObject *o, const char *name)
{
  return (guint) get_int_in (r, o, name, 0, TL_MATRIX_MAX_DIM);
}

static double
get_double (Reader *r, JsonObject *o, const char *name)
{
  double x = 0.0;
  if (!read_double (o ? json_object_get_member (o, name) : NULL, &x))
    bad (r, name);
  return x;
}

static gboolean
get_bool (Reader *r, JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (!tl_json_node_is_bool (n))
    {
      bad (r, name);
      return FALSE;
    }
  return json_node_get_boolean (n);
}

static JsonArray *
get_array (Reader *r, JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_ARRAY)
    {
      bad (r, name);
      return NULL;
    }
  return json_node_get_array (n);
}

static JsonObject *
get_object (Reader *r, JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_OBJECT)
    {
      bad (r, name);
      return NULL;
    }
  return json_node_get_object (n);
}

/* Element i of an array that must hold objects. */
static JsonObject *
element_object (Reader *r, JsonArray *a, guint i, const char *what)
{
  JsonNode *n = json_array_get_element (a, i);
  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_OBJECT)
    {
      bad (r, what);
      return NULL;
    }
  return json_node_get_object (n);
}

static double *
get_doubles (Reader *r, JsonArray *a, gsize expect)
{
  if (a == NULL)
    return NULL;
  if (json_array_get_length (a) != expect)
    {
      bad (r, "data length");
      return NULL;
    }
  double *out = g_new0 (double, MAX (expect, 1));
  for (guint i = 0; i < expect; i++)
    if (!read_double (json_array_get_element (a, i), &out[i]))
      {
        bad (r, "data value");
        g_free (out);
        return NULL;
      }
  return out;
}

static void
get_vector (Reader *r, JsonObject *o, const char *name, TlLuVector *v)
{
  JsonObject *vo = get_object (r, o, name);
  if (vo == NULL)
    return;
  v->pool = get_uint (r, vo, "pool");
  JsonArray *a = get_array (r, vo, "data");
  if (a == NULL || v->pool == 0)
    {
      bad (r, name);
      return;
    }
  v->len = json_array_get_length (a);
  v->data = get_doubles (r, a, v->len);
}

static void
get_region (Reader *r, JsonObject *o, guint *r0, guint *rows, guint *c0, guint *cols)
{
  JsonArray *a = get_array (r, o, "update");
  if (a == NULL || json_array_get_length (a) != 4)
    {
      bad (r, "update");
      return;
    }
  guint *dst[4] = { r0, rows, c0, cols };
  for (guint i = 0; i < 4; i++)
    {
      JsonNode *n = json_array_get_element (a, i);
      if (!tl_json_node_is_int (n) || json_node_get_int (n) < 0
          || json_node_get_int (n) > TL_MATRIX_MAX_DIM)
        {
          bad (r, "update");
          return;
        }
      *dst[i] = (guint) json_node_get_int (n);
    }
}

/* In GF(p) every value is a residue: an integer in 0 … p−1. */
static gboolean
is_residue (double x, guint64 p)
{
  return x >= 0 && x < (double) p && x == floor (x);
}

static gboolean
residues (const double *v, gsize n, guint64 p)
{
  for (gsize i = 0; i < n; i++)
    if (!is_residue (v[i], p))
      return FALSE;
  return TRUE;
}

static const char *
check_gfp_values (const TlLuRecorder *self, guint *at)
{
  const guint64 p = self->modulus;
  for (guint k = 0; k < self->steps->len; k++)
    {
      const TlLuStep *st = &g_array_index (self->steps, TlLuStep, k);
      *at = k;
      if (!residues (st->column.data, st->column.len, p)
          || !residues (st->multipliers.data, st->multipliers.len, p)
          || !residues (st->u_row.data, st->u_row.len, p) || !is_residue (st->pivot_value, p))
        return "a GF(p) value that is not an integer 0…p−1";
      if (st->det_mod >= p)
        return "a GF(p) determinant that is not an integer 0…p−1";
    }
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *sn = &g_array_index (self->snapshots, TlLuSnapshot, i);
      *at = i;
      if (!residues (sn->data, (gsize) sn->rows * sn->cols, p))
        return "a GF(p) snapshot value that is not an integer 0…p−1";
    }
  return NULL;
}

/* The consistency a player relies on: indices inside the matrix, steps in
 * order, vectors no longer than the matrix, snapshots no larger than it,
 * and in GF(p) mode residues only. */
static gboolean
validate (const TlLuRecorder *self, GError **error)
{
  const guint mn = MIN (self->rows, self->cols);
  const char *what = NULL;
  guint at = 0;
  if ((self->modulus > 0) != (g_strcmp0 (self->dtype, "gfp") == 0))
    what = "a modulus without the dtype “gfp” (or the other way round)";
  else if (self->steps->len > mn)
    what = "more steps than min(rows, cols)";
  else if (self->n_ipiv > mn)
    what = "more pivots than min(rows, cols)";
  else if (self->info > mn || self->rank > mn)
    what = "an info or rank beyond min(rows, cols)";
  for (guint k = 0; !what && k < self->n_ipiv; k++)
    if (self->ipiv[k] < (gint32) k || self->ipiv[k] >= (gint64) self->rows)
      what = "a pivot row outside the matrix", at = k;
  for (guint k = 0; !what && k < self->steps->len; k++)
    {
      const TlLuStep *st = &g_array_index (self->steps, TlLuStep, k);
      at = k;
      if (st->k != k)
        what = "steps out of order";
      else if (st->pivot_row < k || st->pivot_row >= self->rows)
        what = "a pivot row outside the matrix";
      else if (st->column.len > self->rows || st->multipliers.len > self->rows
               || st->u_row.len > self->cols)
        what = "a vector longer than the matrix";
      else if ((guint64) st->upd_row0 + st->upd_rows > self->rows
               || (guint64) st->upd_col0 + st->upd_cols > self->cols)
        what = "an update region outside the matrix";
    }
  for (guint b = 0; !what && b < self->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (self->blocks, TlLuBlockStep, b);
      at = b;
      if ((guint64) bs->k0 + bs->kb > mn
          || (guint64) bs->upd_row0 + bs->upd_rows > self->rows
          || (guint64) bs->upd_col0 + bs->upd_cols > self->cols)
        what = "a block step outside the matrix";
    }
  for (guint i = 0; !what && i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *sn = &g_array_index (self->snapshots, TlLuSnapshot, i);
      at = i;
      if (sn->pool_r == 0 || sn->pool_c == 0 || sn->rows > self->rows || sn->cols > self->cols
          || (guint64) sn->rows * sn->pool_r < self->rows || (guint64) sn->cols * sn->pool_c < self->cols
          || sn->after_steps > mn)
        what = "a snapshot that does not fit the matrix";
    }
  if (!what && self->modulus > 0)
    what = check_gfp_values (self, &at);
  if (what)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("LU record: %s (entry %u)"), what, at);
      return FALSE;
    }
  return TRUE;
}

static void
read_header (Reader *r, JsonObject *o, TlLuRecorder *self)
{
  self->kernel_id = g_strdup (tl_json_object_get_string (o, "kernel", ""));
  self->dtype = g_strdup (tl_json_object_get_string (o, "dtype", ""));
  self->modulus = (guint64) get_int_in (r, o, "modulus", 0, TL_LU_RECORD_MAX_MODULUS);
  if (self->modulus == 1)
    bad (r, "modulus");
  self->rows = get_uint (r, o, "rows");
  self->cols = get_uint (r, o, "cols");
  self->block_size = get_uint (r, o, "block_size");
  if (!tl_pivoting_from_name (tl_json_object_get_string (o, "pivoting", ""), &self->pivoting))
    bad (r, "pivoting");
  self->max_abs_a = get_double (r, o, "max_abs_a");
}

static void
read_result (Reader *r, JsonObject *o, TlLuRecorder *self)
{
  r->where = "result";
  JsonObject *res = get_object (r, o, "result");
  self->finished = get_bool (r, res, "finished");
  JsonArray *ipiv = get_array (r, res, "ipiv");
  if (ipiv)
    {
      /* indices are checked against the matrix in validate() */
      self->n_ipiv = json_array_get_length (ipiv);
      self->ipiv = g_new0 (gint32, MAX (self->n_ipiv, 1));
      for (guint k = 0; k < self->n_ipiv; k++)
        {
          JsonNode *n = json_array_get_element (ipiv, k);
          if (!tl_json_node_is_int (n) || json_node_get_int (n) < 0
              || json_node_get_int (n) > G_MAXINT32)
            {
              bad (r, "ipiv");
              break;
            }
          self->ipiv[k] = (gint32) json_node_get_int (n);
        }
    }
  self->info = (gsize) get_int_in (r, res, "info", 0, TL_MATRIX_MAX_DIM);
  self->breakdown = get_bool (r, res, "breakdown");
  self->rank = (gsize) get_int_in (r, res, "rank", 0, TL_MATRIX_MAX_DIM);
  self->det_sign = (int) get_int_in (r, res, "det_sign", -1, 1);
  self->log_abs_det = get_double (r, res, "log_abs_det");
  self->growth = get_double (r, res, "growth");
}

static void
read_steps (Reader *r, JsonObject *o, TlLuRecorder *self)
{
  r->where = "steps";
  JsonArray *steps = get_array (r, o, "steps");
  for (guint i = 0; r->ok && steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *so = element_object (r, steps, i, "step");
      if (so == NULL)
        break;
      TlLuStep s = { 0 };
      s.k = get_uint (r, so, "k");
      s.block = get_uint (r, so, "block");
      get_vector (r, so, "column", &s.column);
      s.pivot_row = get_int_in (r, so, "pivot_row", 0, TL_MATRIX_MAX_DIM);
      s.pivot_value = get_double (r, so, "pivot_value");
      s.swapped = get_bool (r, so, "swapped");
      s.zero_pivot = get_bool (r, so, "zero_pivot");
      get_vector (r, so, "multipliers", &s.multipliers);
      get_vector (r, so, "u_row", &s.u_row);
      get_region (r, so, &s.upd_row0, &s.upd_rows, &s.upd_col0, &s.upd_cols);
      s.growth = get_double (r, so, "growth");
      s.det_sign = (int) get_int_in (r, so, "det_sign", -1, 1);
      s.log_abs_det = get_double (r, so, "log_abs_det");
      if (self->modulus)
        s.det_mod = (guint64) get_int_in (r, so, "det_mod", 0, TL_LU_RECORD_MAX_MODULUS);
      /* the array frees what a step holds, also on the way out */
      g_array_append_val (self->steps, s);
    }
}

static void
read_blocks (Reader *r, JsonObject *o, TlLuRecorder *self)
{
  r->where = "blocks";
  JsonArray *blocks = get_array (r, o, "blocks");
  for (guint i = 0; r->ok && blocks && i < json_array_get_length (blocks); i++)
    {
      JsonObject *bo = element_object (r, blocks, i, "block");
      if (bo == NULL)
        break;
      TlLuBlockStep s = { 0 };
      s.index = get_uint (r, bo, "index");
      s.k0 = get_uint (r, bo, "k0");
      s.kb = get_uint (r, bo, "kb");
      JsonObject *ph = get_object (r, bo, "phase_ns");
      for (int p = 0; p < TL_LU_N_PHASES; p++)
        s.phase_ns[p] = get_int_in (r, ph, tl_lu_phase_name (p), 0, G_MAXINT64);
      get_region (r, bo, &s.upd_row0, &s.upd_rows, &s.upd_col0, &s.upd_cols);
      g_array_append_val (self->blocks, s);
    }
}

static void
read_snapshots (Reader *r, JsonObject *o, TlLuRecorder *self)
{
  r->where = "snapshots";
  JsonArray *snaps = get_array (r, o, "snapshots");
  for (guint i = 0; r->ok && snaps && i < json_array_get_length (snaps); i++)
    {
      JsonObject *so = element_object (r, snaps, i, "snapshot");
      if (so == NULL)
        break;
      TlLuSnapshot s = { 0 };
      s.after_steps = get_uint (r, so, "after_steps");
      s.rows = get_uint (r, so, "rows");
      s.cols = get_uint (r, so, "cols");
      s.pool_r = get_uint (r, so, "pool_r");
      s.pool_c = get_uint (r, so, "pool_c");
      if (r->ok && (guint64) s.rows * s.cols > (guint64) TL_LU_RECORD_WHOLE_MAX * TL_LU_RECORD_WHOLE_MAX)
        bad (r, "snapshot size");
      if (r->ok)
        s.data = get_doubles (r, get_array (r, so, "data"), (gsize) s.rows * s.cols);
      if (s.data)
        g_array_append_val (self->snapshots, s);
    }
}

TlLuRecorder *
tl_lu_recorder_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  Reader r = { error, NULL, TRUE };
  if (JSON_NODE_TYPE (node) != JSON_NODE_OBJECT)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("LU record: not a JSON object"));
      return NULL;
    }
  JsonObject *o = json_node_get_object (node);
  if (g_strcmp0 (tl_json_object_get_string (o, "kind", ""), "lu") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("LU record: “kind” is not “lu”"));
      return NULL;
    }
  JsonNode *schema = json_object_get_member (o, "schema");
  if (!tl_json_node_is_int (schema))
    bad (&r, "schema");
  else if (json_node_get_int (schema) != TL_LU_RECORD_SCHEMA)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("LU record: schema %" PRId64 " is not supported (this build reads %d)"),
                   json_node_get_int (schema), TL_LU_RECORD_SCHEMA);
      return NULL;
    }

  g_autoptr (TlLuRecorder) self = tl_lu_recorder_new (0);
  read_header (&r, o, self);
  read_result (&r, o, self);
  read_steps (&r, o, self);
  read_blocks (&r, o, self);
  read_snapshots (&r, o, self);
  if (!r.ok)
    return NULL;
  if (!validate (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
tl_lu_recorder_save (const TlLuRecorder *self, const char *path, GError **error)
{
  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  g_autoptr (JsonNode) root = tl_lu_recorder_to_json (self);
  gsize len = 0;
  g_autofree char *text = tl_json_to_data (root, FALSE, &len);
  g_autoptr (GError) local = NULL;
  if (!g_file_set_contents (path, text, (gssize) len, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO, _("Cannot write %s: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}

/* A bare {"kind": "lu"} document, or a whole run record (tilelab-run/1, /2)
 * whose recording is $.extensions.lu. */
static TlLuRecorder *
from_root (JsonNode *root, GError **error)
{
  if (root && JSON_NODE_HOLDS_OBJECT (root)
      && json_object_has_member (json_node_get_object (root), "schema")
      && !json_object_has_member (json_node_get_object (root), "kind"))
    {
      JsonNode *ext = json_object_get_member (json_node_get_object (root), "extensions");
      JsonNode *lu = ext && JSON_NODE_HOLDS_OBJECT (ext)
                       ? json_object_get_member (json_node_get_object (ext), "lu") : NULL;
      if (lu == NULL)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_PARSE,
                       _("a run record without a Gauss step recording ($.extensions.lu)"));
          return NULL;
        }
      return tl_lu_recorder_from_json (lu, error);
    }
  return tl_lu_recorder_from_json (root, error);
}

TlLuRecorder *
tl_lu_recorder_from_data (const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonNode) root = tl_json_parse (data, length, &local);
  if (root == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, _("LU record: %s"), local->message);
      return NULL;
    }
  return from_root (root, error);
}

TlLuRecorder *
tl_lu_recorder_load (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonNode) root = tl_json_load_file (path, &local);
  TlLuRecorder *rec = root ? from_root (root, &local) : NULL;
  if (rec == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      /* tl_json_load_file's messages already start with the path */
      if (root == NULL)
        g_set_error (error, TL_ERROR, local->code, _("Cannot read %s"), local->message);
      else
        g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
    }
  return rec;
}
