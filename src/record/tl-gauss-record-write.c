/* tl-gauss-record-write.c — the Gauss step record as JSON (and as a file): whole, or in
 * parts for a stream. */
#include "record/tl-gauss-record.h"

#include <math.h>
#include <string.h>

#include "core/tl-json.h"
#include "core/tl-json-write.h"
#include "core/tl-save.h"

/* ---- writing ---------------------------------------------------------------- */

/* JSON has no Inf or NaN: they are written as the strings "inf", "-inf",
 * "nan" (tl_json_add_value).  In GF(p) mode values are written as integers. */
static void
add_value (TlJsonOut *b, const TlLuRecorder *self, double x)
{
  if (self->modulus && isfinite (x))
    tl_json_out_int (b, (gint64) x);
  else
    tl_json_out_double (b, x);
}

/* n values as the member "data": [values], or, with a sink (a stream's
 * part), appended to it as little-endian float64 and said as "len": n. */
static void
member_values (TlJsonOut *b, const TlLuRecorder *self, const double *x, gsize n,
               GByteArray *sink)
{
  if (sink)
    {
      tl_json_out_member_int (b, "len", (gint64) n);
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      g_byte_array_append (sink, (const guint8 *) x, n * sizeof *x);
#else
      for (gsize i = 0; i < n; i++)
        {
          guint64 bits;
          memcpy (&bits, &x[i], sizeof bits);
          bits = GUINT64_TO_LE (bits);
          g_byte_array_append (sink, (const guint8 *) &bits, sizeof bits);
        }
#endif
      return;
    }
  tl_json_out_member (b, "data");
  tl_json_out_begin_array (b);
  for (gsize i = 0; i < n; i++)
    add_value (b, self, x[i]);
  tl_json_out_end_array (b);
}

static void
member_vector (TlJsonOut *b, const TlLuRecorder *self, const char *name, const TlLuVector *v,
               GByteArray *sink)
{
  tl_json_out_member (b, name);
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "pool", v->pool);
  member_values (b, self, v->data, v->len, sink);
  tl_json_out_end_object (b);
}

static void
member_region (TlJsonOut *b, const char *name, guint r0, guint rows, guint c0, guint cols)
{
  tl_json_out_member (b, name);
  tl_json_out_begin_array (b);
  tl_json_out_int (b, r0);
  tl_json_out_int (b, rows);
  tl_json_out_int (b, c0);
  tl_json_out_int (b, cols);
  tl_json_out_end_array (b);
}

static void
add_step (TlJsonOut *b, const TlLuRecorder *self, const TlLuStep *s, GByteArray *sink)
{
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "k", s->k);
  tl_json_out_member_int (b, "block", s->block);
  member_vector (b, self, "column", &s->column, sink);
  tl_json_out_member_int (b, "pivot_row", s->pivot_row);
  tl_json_out_member (b, "pivot_value");
  add_value (b, self, s->pivot_value);
  tl_json_out_member_bool (b, "swapped", s->swapped);
  tl_json_out_member_bool (b, "zero_pivot", s->zero_pivot);
  member_vector (b, self, "multipliers", &s->multipliers, sink);
  member_vector (b, self, "u_row", &s->u_row, sink);
  member_region (b, "update", s->upd_row0, s->upd_rows, s->upd_col0, s->upd_cols);
  tl_json_out_member_double (b, "growth", s->growth);
  tl_json_out_member_int (b, "det_sign", s->det_sign);
  tl_json_out_member_double (b, "log_abs_det", s->log_abs_det);
  if (self->modulus)
    tl_json_out_member_int (b, "det_mod", (gint64) s->det_mod);
  tl_json_out_end_object (b);
}

static void
add_block (TlJsonOut *b, const TlLuBlockStep *s)
{
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "index", s->index);
  tl_json_out_member_int (b, "k0", s->k0);
  tl_json_out_member_int (b, "kb", s->kb);
  tl_json_out_member (b, "phase_ns");
  tl_json_out_begin_object (b);
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    tl_json_out_member_int (b, tl_lu_phase_name (ph), s->phase_ns[ph]);
  tl_json_out_end_object (b);
  member_region (b, "update", s->upd_row0, s->upd_rows, s->upd_col0, s->upd_cols);
  tl_json_out_end_object (b);
}

static void
add_snapshot (TlJsonOut *b, const TlLuRecorder *self, const TlLuSnapshot *s, GByteArray *sink)
{
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "after_steps", s->after_steps);
  tl_json_out_member_int (b, "rows", s->rows);
  tl_json_out_member_int (b, "cols", s->cols);
  tl_json_out_member_int (b, "pool_r", s->pool_r);
  tl_json_out_member_int (b, "pool_c", s->pool_c);
  member_values (b, self, s->data, (gsize) s->rows * s->cols, sink);
  tl_json_out_end_object (b);
}

/* Everything but the three lists, into an object begun in b. */
static void
add_head (TlJsonOut *b, const TlLuRecorder *self)
{
  tl_json_out_member_string (b, "kind", "lu");
  tl_json_out_member_int (b, "schema", TL_LU_RECORD_SCHEMA);
  tl_json_out_member_string (b, "kernel", self->kernel_id ? self->kernel_id : "");
  tl_json_out_member_string (b, "dtype", self->dtype ? self->dtype : "");
  tl_json_out_member_int (b, "modulus", (gint64) self->modulus);
  tl_json_out_member_int (b, "rows", self->rows);
  tl_json_out_member_int (b, "cols", self->cols);
  tl_json_out_member_int (b, "block_size", self->block_size);
  tl_json_out_member_string (b, "pivoting", tl_pivoting_name (self->pivoting));
  tl_json_out_member_double (b, "max_abs_a", self->max_abs_a);

  tl_json_out_member (b, "result");
  tl_json_out_begin_object (b);
  tl_json_out_member_bool (b, "finished", self->finished);
  tl_json_out_member (b, "ipiv");
  tl_json_out_begin_array (b);
  for (guint k = 0; k < self->n_ipiv; k++)
    tl_json_out_int (b, self->ipiv[k]);
  tl_json_out_end_array (b);
  tl_json_out_member_int (b, "info", (gint64) self->info);
  tl_json_out_member_bool (b, "breakdown", self->breakdown);
  tl_json_out_member_int (b, "rank", (gint64) self->rank);
  tl_json_out_member_int (b, "det_sign", self->det_sign);
  tl_json_out_member_double (b, "log_abs_det", self->log_abs_det);
  tl_json_out_member_double (b, "growth", self->growth);
  tl_json_out_end_object (b);
}

static const char *const list_names[TL_LU_N_PARTS] = { "steps", "blocks", "snapshots" };

static void
add_part (TlJsonOut *b, const TlLuRecorder *self, TlLuRecordPart part, guint i,
          GByteArray *sink)
{
  if (part == TL_LU_PART_STEP)
    add_step (b, self, &g_array_index (self->steps, TlLuStep, i), sink);
  else if (part == TL_LU_PART_BLOCK)
    add_block (b, &g_array_index (self->blocks, TlLuBlockStep, i));
  else
    add_snapshot (b, self, &g_array_index (self->snapshots, TlLuSnapshot, i), sink);
}

void
tl_lu_recorder_write (const TlLuRecorder *self, TlJsonOut *b)
{
  g_return_if_fail (self != NULL && b != NULL);
  tl_json_out_begin_object (b);
  add_head (b, self);
  for (int part = 0; part < TL_LU_N_PARTS; part++)
    {
      tl_json_out_member (b, list_names[part]);
      tl_json_out_begin_array (b);
      for (guint i = 0; i < tl_lu_recorder_n_parts (self, part); i++)
        add_part (b, self, part, i, NULL);
      tl_json_out_end_array (b);
    }
  tl_json_out_end_object (b);
}

JsonNode *
tl_lu_recorder_to_json (const TlLuRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  tl_lu_recorder_write (self, b);
  return json_builder_get_root (builder);
}

JsonNode *
tl_lu_recorder_head_to_json (const TlLuRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  tl_json_out_begin_object (b);
  add_head (b, self);
  tl_json_out_end_object (b);
  return json_builder_get_root (builder);
}

gboolean
tl_lu_recorder_save (const TlLuRecorder *self, const char *path, GError **error)
{
  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  /* written to the save's temporary as it is produced, never whole */
  TlSave *save = tl_save_begin (path, NULL, error);
  if (save == NULL)
    return FALSE;
  TlJsonOut *b = tl_json_out_new_file (tl_save_stream (save), FALSE);
  tl_lu_recorder_write (self, b);
  tl_json_out_free (b);
  return tl_save_commit (save, error);
}

gsize
tl_lu_recorder_part_values (const TlLuRecorder *self, TlLuRecordPart part, guint i)
{
  if (part == TL_LU_PART_STEP)
    {
      const TlLuStep *s = &g_array_index (self->steps, TlLuStep, i);
      return (gsize) s->column.len + s->multipliers.len + s->u_row.len;
    }
  if (part == TL_LU_PART_SNAPSHOT)
    {
      const TlLuSnapshot *s = &g_array_index (self->snapshots, TlLuSnapshot, i);
      return (gsize) s->rows * s->cols;
    }
  return 0;
}

void
tl_lu_recorder_add_part (JsonBuilder *builder, const TlLuRecorder *self, TlLuRecordPart part,
                         guint index, GByteArray *values)
{
  g_return_if_fail (index < tl_lu_recorder_n_parts (self, part));
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  add_part (b, self, part, index, values);
}
