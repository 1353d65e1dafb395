/* tl-gauss-record.c — the Gauss step record read back from JSON, whole or in
 * the parts of a stream, and checked for consistency before it is used. */
#include "record/tl-gauss-record.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-json-read.h"

/* (writing: tl-gauss-record-write.c) */

static const char *const part_lists[TL_LU_N_PARTS] = { "steps", "blocks", "snapshots" };

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

/* The first value of the record that is not a residue mod p: what is
 * wrong, and where (path). */
static const char *
check_gfp_values (const TlLuRecorder *self, char **path)
{
  const guint64 p = self->modulus;
  for (guint k = 0; k < self->steps->len; k++)
    {
      const TlLuStep *st = &g_array_index (self->steps, TlLuStep, k);
      *path = g_strdup_printf ("$.steps[%u]", k);
      if (!residues (st->column.data, st->column.len, p)
          || !residues (st->multipliers.data, st->multipliers.len, p)
          || !residues (st->u_row.data, st->u_row.len, p) || !is_residue (st->pivot_value, p))
        return _("a GF(p) value that is not an integer 0…p−1");
      if (st->det_mod >= p)
        return _("a GF(p) determinant that is not an integer 0…p−1");
      g_clear_pointer (path, g_free);
    }
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *sn = &g_array_index (self->snapshots, TlLuSnapshot, i);
      *path = g_strdup_printf ("$.snapshots[%u].data", i);
      if (!residues (sn->data, (gsize) sn->rows * sn->cols, p))
        return _("a GF(p) snapshot value that is not an integer 0…p−1");
      g_clear_pointer (path, g_free);
    }
  return NULL;
}

/* Whether a recorded vector of n source entries has the length the
 * recorder gives it: whole up to TL_LU_RECORD_WHOLE_MAX, else pooled to
 * at most TL_LU_RECORD_POOLED; empty (not filled) when may_be_empty. */
static gboolean
vector_fits (const TlLuVector *v, guint64 n, gboolean may_be_empty)
{
  if (v->len == 0 && (may_be_empty || n == 0))
    return TRUE;
  guint64 pool = n <= TL_LU_RECORD_WHOLE_MAX ? 1 : (n + TL_LU_RECORD_POOLED - 1) / TL_LU_RECORD_POOLED;
  return v->pool == pool && v->len == (n + pool - 1) / pool;
}

/* What a step says that the matrix contradicts; NULL when nothing. */
static const char *
check_step (const TlLuRecorder *self, guint k, const TlLuStep *st, const char **member)
{
  *member = NULL;
  if (st->k != k)
    return *member = "k", _("steps out of order");
  if (st->pivot_row < k || st->pivot_row >= self->rows)
    return *member = "pivot_row", _("a pivot row outside the matrix");
  /* a swap is the pivot row leaving the step's own (as recorded) */
  if (st->swapped != (st->pivot_row != k))
    return *member = "swapped", st->swapped ? _("a swap, but the pivot row is the step's own")
                                            : _("no swap, but the pivot row is another");
  if (!vector_fits (&st->column, self->rows - k, FALSE))
    return *member = "column", _("a column of another length than the rows below the step");
  if (!vector_fits (&st->multipliers, self->rows - k - (k < self->rows), TRUE))
    return *member = "multipliers", _("multipliers of another length than the rows below the step");
  if (!vector_fits (&st->u_row, self->cols - k, TRUE))
    return *member = "u_row", _("a row of U of another length than the columns from the step");
  if ((guint64) st->upd_row0 + st->upd_rows > self->rows
      || (guint64) st->upd_col0 + st->upd_cols > self->cols)
    return *member = "update", _("an update region outside the matrix");
  return NULL;
}

/* What the result says against the steps: a finished recording without
 * a breakdown has one step and one pivot per column of min(rows, cols). */
static char *
check_result (const TlLuRecorder *self, char **path)
{
  const guint mn = MIN (self->rows, self->cols);
  const guint steps = self->steps->len;
  if (self->finished && !self->breakdown && steps != mn)
    {
      *path = g_strdup ("$.result.finished");
      return g_strdup_printf (_("true, but %u of the %u steps are recorded"), steps, mn);
    }
  if (self->finished && !self->breakdown && self->n_ipiv != mn)
    {
      *path = g_strdup ("$.result.ipiv");
      return g_strdup_printf (_("%u pivots for %u steps"), self->n_ipiv, mn);
    }
  if (self->n_ipiv > steps)
    {
      *path = g_strdup ("$.result.ipiv");
      return g_strdup_printf (_("%u pivots, but %u steps are recorded"), self->n_ipiv, steps);
    }
  if (self->info > mn || self->rank > steps)
    {
      *path = g_strdup (self->info > mn ? "$.result.info" : "$.result.rank");
      return g_strdup_printf (_("beyond the %u steps recorded"), self->info > mn ? mn : steps);
    }
  return NULL;
}

/* Whether step st's pivot is the largest |a| of the column it searched
 * (partial pivoting in floating point): the column's entry of the pivot
 * row (its pooled window's) and |pivot_value| both the column's maximum,
 * to a rounding (a GPU's recording downloads the values it searched). A
 * column with a NaN is not judged. */
static gboolean
pivot_is_largest (const TlLuStep *st, double *entry, double *largest)
{
  const TlLuVector *c = &st->column;
  double most = 0;
  for (guint t = 0; t < c->len; t++)
    {
      if (isnan (c->data[t]))
        return TRUE;
      most = MAX (most, c->data[t]);
    }
  *entry = c->data[(st->pivot_row - st->k) / c->pool];
  *largest = most;
  const double floor = isinf (most) ? most : most - most * 1e-4;
  return *entry >= floor && (isnan (st->pivot_value) || fabs (st->pivot_value) >= floor);
}

/* The pivots against each other: ipiv[k] is step k's pivot row, a zero
 * pivot is one of value 0, no row exchange without pivoting, the pivot
 * the largest of its column with partial pivoting, and info (LAPACK's:
 * the first zero pivot, 1-based) where the steps put it.  Indices are
 * inside the matrix already (check_step). */
static char *
check_pivots (const TlLuRecorder *self, char **path)
{
  guint first_zero = G_MAXUINT;
  for (guint k = 0; k < self->steps->len; k++)
    {
      const TlLuStep *st = &g_array_index (self->steps, TlLuStep, k);
      double entry, largest;
      if (first_zero == G_MAXUINT && st->zero_pivot)
        first_zero = k;
      if (k < self->n_ipiv && self->ipiv[k] != st->pivot_row)
        return *path = g_strdup_printf ("$.result.ipiv[%u]", k),
               g_strdup_printf (_("row %d, but step %u pivoted on row %" PRId64),
                                self->ipiv[k], k, (int64_t) st->pivot_row);
      if (st->zero_pivot != (st->pivot_value == 0))
        return *path = g_strdup_printf ("$.steps[%u].zero_pivot", k),
               g_strdup_printf (_("%s, but the pivot's value is %g"),
                                st->zero_pivot ? "true" : "false", st->pivot_value);
      if (self->pivoting == TL_PIVOTING_NONE && st->pivot_row != k)
        return *path = g_strdup_printf ("$.steps[%u].pivot_row", k),
               g_strdup_printf (_("row %" PRId64 ", but the record's pivoting is "
                                  "“none”: step %u pivots on its own row"), (int64_t) st->pivot_row, k);
      if (self->pivoting == TL_PIVOTING_PARTIAL && self->modulus == 0
          && !pivot_is_largest (st, &entry, &largest))
        return *path = g_strdup_printf ("$.steps[%u].pivot_row", k),
               g_strdup_printf (_("row %" PRId64 " (|a| = %g, pivot %g), but partial "
                                  "pivoting takes the largest of the column, %g"),
                                (int64_t) st->pivot_row, entry, st->pivot_value, largest);
    }
  /* info > 0 says the first zero pivot; a finished record with info 0 has none */
  gboolean info_recorded = self->info > 0 && self->info <= self->steps->len;
  if ((info_recorded && first_zero != self->info - 1)
      || (self->info > self->steps->len && first_zero != G_MAXUINT)
      || (self->info == 0 && self->finished && first_zero != G_MAXUINT))
    {
      *path = g_strdup ("$.result.info");
      if (first_zero == G_MAXUINT)
        return g_strdup_printf (_("%zu, but no step recorded has a zero pivot"), self->info);
      return g_strdup_printf (_("%zu, but the first zero pivot is step %u's (info %u)"),
                              self->info, first_zero, first_zero + 1);
    }
  for (guint i = 1; i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *a = &g_array_index (self->snapshots, TlLuSnapshot, i - 1);
      const TlLuSnapshot *b = &g_array_index (self->snapshots, TlLuSnapshot, i);
      if (b->after_steps <= a->after_steps)
        return *path = g_strdup_printf ("$.snapshots[%u].after_steps", i),
               g_strdup_printf (_("%u, not after the snapshot before it (%u)"), b->after_steps,
                                a->after_steps);
    }
  return NULL;
}

/* The consistency a player relies on: indices inside the matrix, steps in
 * order, vectors as long as the matrix makes them, snapshots and block
 * steps within the steps recorded, a "finished" result with all its steps,
 * and in GF(p) mode residues only.  Errors name the JSON path. */
static gboolean
validate (const TlLuRecorder *self, GError **error)
{
  const guint mn = MIN (self->rows, self->cols);
  g_autofree char *path = NULL, *said = NULL;
  const char *what = NULL;
  if (g_strcmp0 (self->dtype, "float32") != 0 && g_strcmp0 (self->dtype, "float64") != 0
      && g_strcmp0 (self->dtype, "gfp") != 0)
    path = g_strdup ("$.dtype"), what = _("expected “float32”, “float64” or “gfp”");
  else if ((self->modulus > 0) != (g_strcmp0 (self->dtype, "gfp") == 0))
    path = g_strdup ("$.modulus"), what = _("a modulus without the dtype “gfp” (or the other way round)");
  else if (self->steps->len > mn)
    path = g_strdup ("$.steps"), what = _("more steps than min(rows, cols)");
  else if ((said = check_result (self, &path)) != NULL)
    what = said;
  for (guint k = 0; !what && k < self->n_ipiv; k++)
    if (self->ipiv[k] < (gint32) k || self->ipiv[k] >= (gint64) self->rows)
      path = g_strdup_printf ("$.result.ipiv[%u]", k), what = _("a pivot row outside the matrix");
  for (guint k = 0; !what && k < self->steps->len; k++)
    {
      const char *member;
      what = check_step (self, k, &g_array_index (self->steps, TlLuStep, k), &member);
      if (what)
        path = g_strdup_printf ("$.steps[%u].%s", k, member);
    }
  if (!what && (said = check_pivots (self, &path)) != NULL)
    what = said;
  for (guint b = 0; !what && b < self->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (self->blocks, TlLuBlockStep, b);
      if ((guint64) bs->k0 + bs->kb > self->steps->len
          || (guint64) bs->upd_row0 + bs->upd_rows > self->rows
          || (guint64) bs->upd_col0 + bs->upd_cols > self->cols)
        path = g_strdup_printf ("$.blocks[%u]", b),
        what = _("a block step outside the matrix or beyond the steps recorded");
    }
  for (guint i = 0; !what && i < self->snapshots->len; i++)
    {
      const TlLuSnapshot *sn = &g_array_index (self->snapshots, TlLuSnapshot, i);
      if (sn->pool_r == 0 || sn->pool_c == 0 || sn->rows > self->rows || sn->cols > self->cols
          || (guint64) sn->rows * sn->pool_r < self->rows
          || (guint64) sn->cols * sn->pool_c < self->cols)
        path = g_strdup_printf ("$.snapshots[%u]", i),
        what = _("a snapshot that does not fit the matrix");
      else if (sn->after_steps > self->steps->len)
        path = g_strdup_printf ("$.snapshots[%u].after_steps", i),
        what = _("a snapshot after more steps than are recorded");
    }
  if (!what && self->modulus > 0)
    what = check_gfp_values (self, &path);
  if (what)
    return tl_json_fail (error, path, "%s", what);
  return TRUE;
}

/* ---- reading ----------------------------------------------------------------
 *
 * Every number becomes an index, a size or an integer only after its range
 * is checked here (core/tl-json-read.h names the member that is wrong);
 * validate() then checks what the numbers say together (indices inside
 * the matrix, steps in order), and in GF(p) mode that every value is a
 * residue 0…p−1, so replaying a step never casts a NaN, a negative or a
 * huge double to an integer. */

/* A count or an index: 0 … TL_MATRIX_MAX_DIM. */
static gboolean
get_index (JsonObject *o, const char *path, const char *name, guint *out, GError **error)
{
  return tl_json_get_uint (o, path, name, TRUE, TL_MATRIX_MAX_DIM, out, error);
}

/* The values of a stream's part (tl_lu_recorder_take_part_json), as
 * they are used: little-endian float64. */
typedef struct
{
  const guint8 *data;
  gsize size, used;
} Values;

/* n values (n < 0: as many as there are) at path: "data": [values] in o,
 * or, from a stream's part (in), "len": n and that many of in's values.
 * A new block (g_free) in *out, their number in *len. */
static gboolean
get_values (JsonObject *o, const char *path, gint64 n, Values *in, double **out, gsize *len,
            GError **error)
{
  if (in == NULL)
    {
      JsonArray *data;
      if (!tl_json_get_array (o, path, "data", TRUE, &data, error))
        return FALSE;
      g_autofree char *pd = tl_json_path (path, "data");
      *len = n < 0 ? tl_json_array_length (data) : (gsize) n;
      return tl_json_array_values (data, pd, *len, out, error);
    }
  gint64 count = 0;
  if (!tl_json_get_int (o, path, "len", TRUE, 0, G_MAXINT32, &count, error))
    return FALSE;
  if ((n >= 0 && count != n) || (guint64) count * sizeof (double) > in->size - in->used)
    return tl_json_fail (error, path, _("%" PRId64 " values, beyond those that came with it"),
                         count);
  *len = (gsize) count;
  *out = g_new (double, MAX (*len, 1));
  memcpy (*out, in->data + in->used, *len * sizeof (double));
  in->used += *len * sizeof (double);
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  for (gsize i = 0; i < *len; i++)
    {
      guint64 bits;
      memcpy (&bits, &(*out)[i], sizeof bits);
      bits = GUINT64_FROM_LE (bits);
      memcpy (&(*out)[i], &bits, sizeof bits);
    }
#endif
  return TRUE;
}

/* {"pool": P ≥ 1, "data": [values]} (or "len", get_values) */
static gboolean
get_vector (JsonObject *o, const char *path, const char *name, TlLuVector *v, Values *in,
            GError **error)
{
  JsonObject *vo;
  gint64 pool = 0;
  g_autofree char *p = tl_json_path (path, name);
  if (!tl_json_get_object (o, path, name, TRUE, &vo, error)
      || !tl_json_get_int (vo, p, "pool", TRUE, 1, TL_MATRIX_MAX_DIM, &pool, error))
    return FALSE;
  gsize len = 0;
  v->pool = (guint) pool;
  if (!get_values (vo, p, -1, in, &v->data, &len, error))
    return FALSE;
  v->len = (guint) len;
  return TRUE;
}

/* "update": [row0, rows, col0, cols] */
static gboolean
get_region (JsonObject *o, const char *path, guint *r0, guint *rows, guint *c0, guint *cols,
            GError **error)
{
  JsonArray *a;
  if (!tl_json_get_array (o, path, "update", TRUE, &a, error))
    return FALSE;
  g_autofree char *p = tl_json_path (path, "update");
  if (tl_json_array_length (a) != 4)
    return tl_json_fail (error, p, _("expected [row0, rows, col0, cols]"));
  guint64 v[4];
  if (!tl_json_array_uints (a, p, TL_MATRIX_MAX_DIM, v, error))
    return FALSE;
  *r0 = (guint) v[0];
  *rows = (guint) v[1];
  *c0 = (guint) v[2];
  *cols = (guint) v[3];
  return TRUE;
}

static gboolean
read_header (JsonObject *o, TlLuRecorder *self, GError **error)
{
  gint64 modulus = 0;
  self->kernel_id = g_strdup (tl_json_object_get_string (o, "kernel", ""));
  self->dtype = g_strdup (tl_json_object_get_string (o, "dtype", ""));
  if (!tl_json_get_int (o, "$", "modulus", TRUE, 0, TL_LU_RECORD_MAX_MODULUS, &modulus, error)
      || !get_index (o, "$", "rows", &self->rows, error)
      || !get_index (o, "$", "cols", &self->cols, error)
      || !get_index (o, "$", "block_size", &self->block_size, error)
      || !tl_json_get_value (o, "$", "max_abs_a", TRUE, &self->max_abs_a, error))
    return FALSE;
  if (modulus == 1)
    return tl_json_fail (error, "$.modulus", _("1 is no modulus (0, or a prime)"));
  self->modulus = (guint64) modulus;
  if (!tl_pivoting_from_name (tl_json_object_get_string (o, "pivoting", ""), &self->pivoting))
    return tl_json_fail (error, "$.pivoting", _("expected “partial” or “none”"));
  return TRUE;
}

static gboolean
read_result (JsonObject *o, TlLuRecorder *self, GError **error)
{
  JsonObject *res;
  JsonArray *ipiv;
  gint64 info = 0, rank = 0, det_sign = 0;
  if (!tl_json_get_object (o, "$", "result", TRUE, &res, error)
      || !tl_json_get_bool (res, "$.result", "finished", TRUE, &self->finished, error)
      || !tl_json_get_array (res, "$.result", "ipiv", TRUE, &ipiv, error)
      || !tl_json_get_int (res, "$.result", "info", TRUE, 0, TL_MATRIX_MAX_DIM, &info, error)
      || !tl_json_get_bool (res, "$.result", "breakdown", TRUE, &self->breakdown, error)
      || !tl_json_get_int (res, "$.result", "rank", TRUE, 0, TL_MATRIX_MAX_DIM, &rank, error)
      || !tl_json_get_int (res, "$.result", "det_sign", TRUE, -1, 1, &det_sign, error)
      || !tl_json_get_value (res, "$.result", "log_abs_det", TRUE, &self->log_abs_det, error)
      || !tl_json_get_value (res, "$.result", "growth", TRUE, &self->growth, error))
    return FALSE;
  self->info = (gsize) info;
  self->rank = (gsize) rank;
  self->det_sign = (int) det_sign;
  /* indices are checked against the matrix in validate() */
  self->n_ipiv = tl_json_array_length (ipiv);
  g_autofree guint64 *rows = g_new0 (guint64, MAX (self->n_ipiv, 1));
  if (!tl_json_array_uints (ipiv, "$.result.ipiv", G_MAXINT32, rows, error))
    return FALSE;
  self->ipiv = g_new0 (gint32, MAX (self->n_ipiv, 1));
  for (guint k = 0; k < self->n_ipiv; k++)
    self->ipiv[k] = (gint32) rows[k];
  return TRUE;
}

/* Reads one element of an array of the record into self's list of them. */
typedef gboolean (*ReadOne) (JsonObject *element, const char *path, TlLuRecorder *self,
                             Values *in, GError **error);

static gboolean
read_step (JsonObject *so, const char *p, TlLuRecorder *self, Values *in, GError **error)
{
  /* the array frees what a step holds, also when reading it fails */
  g_array_set_size (self->steps, self->steps->len + 1);
  TlLuStep *s = &g_array_index (self->steps, TlLuStep, self->steps->len - 1);
  gint64 pivot_row = 0, det_sign = 0, det_mod = 0;
  if (!get_index (so, p, "k", &s->k, error)
      || !get_index (so, p, "block", &s->block, error)
      || !get_vector (so, p, "column", &s->column, in, error)
      || !tl_json_get_int (so, p, "pivot_row", TRUE, 0, TL_MATRIX_MAX_DIM, &pivot_row, error)
      || !tl_json_get_value (so, p, "pivot_value", TRUE, &s->pivot_value, error)
      || !tl_json_get_bool (so, p, "swapped", TRUE, &s->swapped, error)
      || !tl_json_get_bool (so, p, "zero_pivot", TRUE, &s->zero_pivot, error)
      || !get_vector (so, p, "multipliers", &s->multipliers, in, error)
      || !get_vector (so, p, "u_row", &s->u_row, in, error)
      || !get_region (so, p, &s->upd_row0, &s->upd_rows, &s->upd_col0, &s->upd_cols, error)
      || !tl_json_get_value (so, p, "growth", TRUE, &s->growth, error)
      || !tl_json_get_int (so, p, "det_sign", TRUE, -1, 1, &det_sign, error)
      || !tl_json_get_value (so, p, "log_abs_det", TRUE, &s->log_abs_det, error)
      || (self->modulus && !tl_json_get_int (so, p, "det_mod", TRUE, 0, TL_LU_RECORD_MAX_MODULUS,
                                              &det_mod, error)))
    return FALSE;
  s->pivot_row = pivot_row;
  s->det_sign = (int) det_sign;
  s->det_mod = (guint64) det_mod;
  return TRUE;
}

static gboolean
read_block (JsonObject *bo, const char *p, TlLuRecorder *self, Values *in, GError **error)
{
  TlLuBlockStep block = { 0 }, *s = &block;
  JsonObject *ph;
  if (!get_index (bo, p, "index", &s->index, error)
      || !get_index (bo, p, "k0", &s->k0, error)
      || !get_index (bo, p, "kb", &s->kb, error)
      || !tl_json_get_object (bo, p, "phase_ns", TRUE, &ph, error)
      || !get_region (bo, p, &s->upd_row0, &s->upd_rows, &s->upd_col0, &s->upd_cols, error))
    return FALSE;
  g_autofree char *pp = tl_json_path (p, "phase_ns");
  for (int phase = 0; phase < TL_LU_N_PHASES; phase++)
    if (!tl_json_get_int (ph, pp, tl_lu_phase_name (phase), TRUE, 0, G_MAXINT64,
                          &s->phase_ns[phase], error))
      return FALSE;
  g_array_append_val (self->blocks, block);
  return TRUE;
}

static gboolean
read_snapshot (JsonObject *so, const char *p, TlLuRecorder *self, Values *in, GError **error)
{
  TlLuSnapshot snap = { 0 }, *s = &snap;
  if (!get_index (so, p, "after_steps", &s->after_steps, error)
      || !get_index (so, p, "rows", &s->rows, error)
      || !get_index (so, p, "cols", &s->cols, error)
      || !get_index (so, p, "pool_r", &s->pool_r, error)
      || !get_index (so, p, "pool_c", &s->pool_c, error))
    return FALSE;
  if ((guint64) s->rows * s->cols > (guint64) TL_LU_RECORD_WHOLE_MAX * TL_LU_RECORD_WHOLE_MAX)
    return tl_json_fail (error, p, _("a snapshot of %u×%u cells (at most %u×%u)"), s->rows,
                         s->cols, TL_LU_RECORD_WHOLE_MAX, TL_LU_RECORD_WHOLE_MAX);
  gsize len = 0;
  if (!get_values (so, p, (gint64) s->rows * s->cols, in, &s->data, &len, error))
    return FALSE;
  g_array_append_val (self->snapshots, snap);
  return TRUE;
}

/* Every element of the array $.name, an object, through read_one. */
static gboolean
read_each (JsonObject *o, const char *name, ReadOne read_one, TlLuRecorder *self,
           GError **error)
{
  JsonArray *array;
  if (!tl_json_get_array (o, "$", name, TRUE, &array, error))
    return FALSE;
  g_autofree char *path = tl_json_path ("$", name);
  for (guint i = 0; i < tl_json_array_length (array); i++)
    {
      JsonObject *element;
      if (!tl_json_element_object (array, path, i, &element, error))
        return FALSE;
      g_autofree char *p = g_strdup_printf ("%s[%u]", path, i);
      if (!read_one (element, p, self, NULL, error))
        return FALSE;
    }
  return TRUE;
}

/* A new recorder with the head of the record in o (kind, schema, header
 * and result), its lists still empty. */
static TlLuRecorder *
read_head (JsonNode *node, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  JsonObject *o = json_node_get_object (node);
  if (g_strcmp0 (tl_json_object_get_string (o, "kind", ""), "lu") != 0)
    {
      tl_json_fail (error, "$.kind", _("expected “lu”"));
      return NULL;
    }
  gint64 schema = 0;
  if (!tl_json_get_int (o, "$", "schema", TRUE, G_MININT64, G_MAXINT64, &schema, error))
    return NULL;
  if (schema != TL_LU_RECORD_SCHEMA)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("schema %" PRId64 " is not supported (this build reads %d)"), schema,
                   TL_LU_RECORD_SCHEMA);
      return NULL;
    }
  g_autoptr (TlLuRecorder) self = tl_lu_recorder_new (0);
  if (!read_header (o, self, error) || !read_result (o, self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static const ReadOne part_readers[TL_LU_N_PARTS] = { read_step, read_block, read_snapshot };

/* The record in node, its members read and their ranges checked. */
static TlLuRecorder *
read_record (JsonNode *node, GError **error)
{
  g_autoptr (TlLuRecorder) self = read_head (node, error);
  if (self == NULL)
    return NULL;
  JsonObject *o = json_node_get_object (node);
  for (int part = 0; part < TL_LU_N_PARTS; part++)
    if (!read_each (o, part_lists[part], part_readers[part], self, error))
      return NULL;
  if (!validate (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

TlLuRecorder *
tl_lu_recorder_begin_from_json (JsonNode *head, GError **error)
{
  g_return_val_if_fail (head != NULL, NULL);
  GError *local = NULL;
  TlLuRecorder *self = read_head (head, &local);
  if (self == NULL)
    g_propagate_prefixed_error (error, local, _("LU record: "));
  return self;
}

guint
tl_lu_recorder_n_parts (const TlLuRecorder *self, TlLuRecordPart part)
{
  GArray *lists[TL_LU_N_PARTS] = { self->steps, self->blocks, self->snapshots };
  return lists[part]->len;
}

gboolean
tl_lu_recorder_take_part_json (TlLuRecorder *self, TlLuRecordPart part, JsonNode *node,
                               GBytes *values, gsize *used, GError **error)
{
  g_return_val_if_fail (self != NULL && node != NULL && (guint) part < TL_LU_N_PARTS, FALSE);
  g_return_val_if_fail (values == NULL || used != NULL, FALSE);
  g_autofree char *path = g_strdup_printf ("$.%s[%u]", part_lists[part],
                                           tl_lu_recorder_n_parts (self, part));
  Values in = { 0 };
  if (values)
    {
      in.data = g_bytes_get_data (values, &in.size);
      in.used = MIN (*used, in.size);
    }
  GError *local = NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    tl_json_fail (&local, path, _("expected an object"));
  else
    part_readers[part] (json_node_get_object (node), path, self, values ? &in : NULL, &local);
  if (values)
    *used = in.used;
  if (local == NULL)
    return TRUE;
  g_propagate_prefixed_error (error, local, _("LU record: "));
  return FALSE;
}

gboolean
tl_lu_recorder_end_from_json (TlLuRecorder *self, GError **error)
{
  GError *local = NULL;
  if (validate (self, &local))
    return TRUE;
  g_propagate_prefixed_error (error, local, _("LU record: "));
  return FALSE;
}

TlLuRecorder *
tl_lu_recorder_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  GError *local = NULL;
  TlLuRecorder *self = read_record (node, &local);
  if (self == NULL)
    g_propagate_prefixed_error (error, local, _("LU record: "));
  return self;
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
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (data, length, &local);
  if (doc == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, _("LU record: %s"), local->message);
      return NULL;
    }
  return from_root (tl_json_doc_root (doc), error);
}

TlLuRecorder *
tl_lu_recorder_load (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr (GError) local = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_load_file (path, &local);
  JsonNode *root = doc ? tl_json_doc_root (doc) : NULL;
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
