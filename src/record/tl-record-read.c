/* tl-record-read.c — run records from JSON text and files, validated
 * member by member (docs/run-record.md). */
#include "record/tl-record-private.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-read.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>


/* a count or a size: 0 … G_MAXINT32 */
static gboolean
get_count (JsonObject *obj, const char *path, const char *name, gboolean required, int *out,
           GError **error)
{
  gint64 v = *out;
  if (!tl_json_get_int (obj, path, name, required, 0, G_MAXINT32, &v, error))
    return FALSE;
  *out = (int) v;
  return TRUE;
}

/* "wrong" and the first "mismatches" of a failed verification. */
static gboolean
read_mismatches (JsonObject *ver, const char *path, const TlJob *job, TlKernelRun *run,
                 GError **error)
{
  /* positions inside C (m×n): they may be shown as cells */
  gint64 wrong = 0;
  JsonArray *list = NULL;
  if (!tl_json_get_int (ver, path, "wrong", FALSE, 0, (gint64) (job->m * job->n), &wrong, error)
      || !tl_json_get_array (ver, path, "mismatches", FALSE, &list, error))
    return FALSE;
  run->n_wrong = (guint64) wrong;
  guint n = list ? json_array_get_length (list) : 0;
  g_autofree char *lp = tl_json_path (path, "mismatches");
  if (n > TL_GEMM_CHECK_KEEP || n > run->n_wrong)
    return tl_json_fail (error, lp, _("%u mismatches (at most %u, and no more than “wrong”)"), n,
                         (guint) TL_GEMM_CHECK_KEEP);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *p = g_strdup_printf ("%s[%u]", lp, i);
      JsonNode *node = json_array_get_element (list, i);
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return tl_json_fail (error, p, _("expected an object"));
      JsonObject *o = json_node_get_object (node);
      TlGemmMismatch *m = &run->mismatches[i];
      gint64 row = 0, col = 0;
      if (!tl_json_get_int (o, p, "row", TRUE, 0, (gint64) job->m - 1, &row, error)
          || !tl_json_get_int (o, p, "col", TRUE, 0, (gint64) job->n - 1, &col, error)
          || !tl_json_get_value (o, p, "got", TRUE, &m->got, error)
          || !tl_json_get_value (o, p, "expected", TRUE, &m->expected, error)
          || !tl_json_get_value (o, p, "bound", TRUE, &m->bound, error))
        return FALSE;
      m->row = (gsize) row;
      m->col = (gsize) col;
    }
  run->n_mismatches = n;
  return TRUE;
}

/* {"value": number, "unit": unit}; absent optional quantities read NAN */
static gboolean
get_quantity (JsonObject *obj, const char *path, const char *name, gboolean required,
              const char *unit, double *out, GError **error)
{
  *out = NAN;
  JsonObject *q;
  if (!tl_json_get_object (obj, path, name, required, &q, error))
    return FALSE;
  if (q == NULL)
    return TRUE;
  g_autofree char *p = tl_json_path (path, name);
  g_autofree char *u = NULL;
  if (!tl_json_get_double (q, p, "value", TRUE, out, error)
      || !tl_json_get_string (q, p, "unit", TRUE, &u, error))
    return FALSE;
  if (strcmp (u, unit) != 0)
    {
      g_autofree char *pu = tl_json_path (p, "unit");
      return tl_json_fail (error, pu, _("expected “%s”, found “%s”"), unit, u);
    }
  return TRUE;
}

static gboolean
get_name (JsonObject *obj, const char *path, const char *name, const TlNameTable *table,
          int *out, GError **error)
{
  g_autofree char *s = NULL;
  if (!tl_json_get_string (obj, path, name, TRUE, &s, error))
    return FALSE;
  if (!tl_name_table_lookup (table, s, out))
    {
      g_autofree char *p = tl_json_path (path, name);
      return tl_json_fail (error, p, _("unknown value “%s”"), s);
    }
  return TRUE;
}

static gboolean
read_stats (JsonObject *obj, const char *path, TlMatrixStats *out, GError **error)
{
  gint64 v;
  memset (out, 0, sizeof *out);
  if (!tl_json_get_double (obj, path, "min", FALSE, &out->min, error)
      || !tl_json_get_double (obj, path, "max", FALSE, &out->max, error)
      || !tl_json_get_double (obj, path, "mean", FALSE, &out->mean, error))
    return FALSE;
  v = 0;
  if (!tl_json_get_int (obj, path, "n_nan", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_nan = v;
  if (!tl_json_get_int (obj, path, "n_inf", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_inf = v;
  if (!tl_json_get_int (obj, path, "n_finite", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_finite = v;
  return TRUE;
}

gboolean
tl_record_check_relative_path (const char *rel, const char *path, GError **error)
{
  if (*rel == '\0' || g_path_is_absolute (rel) || strchr (rel, '\\') != NULL)
    return tl_json_fail (error, path, _("“%s” is not a relative path"), rel);
  g_auto (GStrv) parts = g_strsplit (rel, "/", -1);
  for (guint i = 0; parts[i]; i++)
    if (strcmp (parts[i], "..") == 0)
      return tl_json_fail (error, path, _("“%s” leaves the record's folder"), rel);
  return TRUE;
}

static gboolean
get_rel_path (JsonObject *obj, const char *path, char **out, GError **error)
{
  if (!tl_json_get_string (obj, path, "path", FALSE, out, error))
    return FALSE;
  if (*out == NULL)
    return TRUE;
  g_autofree char *p = tl_json_path (path, "path");
  if (!tl_record_check_relative_path (*out, p, error))
    {
      g_clear_pointer (out, g_free);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_source (JsonObject *parent, const char *path, const char *name, TlSource *out,
             GError **error)
{
  JsonObject *obj;
  if (!tl_json_get_object (parent, path, name, TRUE, &obj, error))
    return FALSE;
  g_autofree char *p = tl_json_path (path, name);
  g_autofree char *kind = NULL;
  if (!tl_json_get_string (obj, p, "kind", TRUE, &kind, error))
    return FALSE;
  if (!tl_source_kind_from_name (kind, &out->kind))
    {
      g_autofree char *pk = tl_json_path (p, "kind");
      return tl_json_fail (error, pk, _("unknown value “%s”"), kind);
    }
  switch (out->kind)
    {
    case TL_SOURCE_GENERATOR:
      {
        if (!tl_json_get_string (obj, p, "generator", TRUE, &out->generator, error))
          return FALSE;
        JsonNode *seed = tl_json_get_member (obj, p, "seed", TRUE, error);
        if (seed == NULL)
          return FALSE;
        g_autofree char *ps = tl_json_path (p, "seed");
        if (tl_json_node_is_int (seed) && json_node_get_int (seed) >= 0)
          out->seed = json_node_get_int (seed);
        else if (JSON_NODE_HOLDS_VALUE (seed) && json_node_get_value_type (seed) == G_TYPE_STRING)
          {
            guint64 v;
            if (!g_ascii_string_to_unsigned (json_node_get_string (seed), 10, 0, G_MAXUINT64,
                                             &v, NULL))
              return tl_json_fail (error, ps, _("expected a non-negative integer"));
            out->seed = v;
          }
        else
          return tl_json_fail (error, ps, _("expected a non-negative integer"));
        return TRUE;
      }
    case TL_SOURCE_FILE:
      return tl_json_get_string (obj, p, "path", TRUE, &out->path, error);
    case TL_SOURCE_MATRIX:
      return tl_json_get_string (obj, p, "label", FALSE, &out->label, error);
    }
  return TRUE;
}

static TlJob *
read_job (JsonObject *obj, const char *path, GError **error)
{
  g_autoptr (TlJob) job = g_new0 (TlJob, 1);
  gint64 v;
  /* shapes: positive and within what a matrix may hold (tl_matrix_check_shape) */
  const gint64 max_dim = TL_MATRIX_MAX_DIM;

  if (!tl_json_get_string (obj, path, "kind", TRUE, &job->kind, error))
    return NULL;
  if (!tl_json_get_int (obj, path, "m", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->m = v;
  if (!tl_json_get_int (obj, path, "k", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->k = v;
  if (!tl_json_get_int (obj, path, "n", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->n = v;

  g_autofree char *dtype = NULL;
  if (!tl_json_get_string (obj, path, "dtype", TRUE, &dtype, error))
    return NULL;
  if (!tl_dtype_from_name (dtype, &job->dtype))
    {
      g_autofree char *p = tl_json_path (path, "dtype");
      tl_json_fail (error, p, _("unknown dtype “%s”"), dtype);
      return NULL;
    }
  if (!read_source (obj, path, "a", &job->a, error)
      || !read_source (obj, path, "b", &job->b, error))
    return NULL;

  JsonArray *kernels;
  if (!tl_json_get_array (obj, path, "kernels", TRUE, &kernels, error))
    return NULL;
  guint nk = json_array_get_length (kernels);
  job->kernels = g_new0 (char *, nk + 1);
  for (guint i = 0; i < nk; i++)
    {
      JsonNode *node = json_array_get_element (kernels, i);
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_autofree char *p = g_strdup_printf ("%s.kernels[%u]", path, i);
          tl_json_fail (error, p, _("expected a string"));
          return NULL;
        }
      job->kernels[i] = g_strdup (json_node_get_string (node));
    }

  if (!tl_json_get_int (obj, path, "repeats", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->repeats = v;
  if (!tl_json_get_int (obj, path, "warmups", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->warmups = v;
  if (!tl_json_get_bool (obj, path, "flush_l2", FALSE, &job->flush_l2, error)
      || !tl_json_get_bool (obj, path, "instrument", FALSE, &job->instrument, error)
      || !tl_json_get_bool (obj, path, "counters", FALSE, &job->counters, error))
    return NULL;
  v = 0;
  if (!tl_json_get_int (obj, path, "threads", FALSE, 0, TL_RECORD_MAX_UNITS, &v, error))
    return NULL;
  job->threads = v;
  if (!tl_json_get_string (obj, path, "plan", FALSE, &job->plan, error))
    return NULL;
  if (!get_count (obj, path, "device", FALSE, &job->device, error))
    return NULL;
  return g_steal_pointer (&job);
}

static gboolean
read_device (JsonObject *obj, const char *path, TlGpuFacts *f, GError **error)
{
  memset (f, 0, sizeof *f);
  g_autofree char *name = NULL;
  gint64 total = 0, free_b = 0;
  if (!tl_json_get_string (obj, path, "name", TRUE, &name, error))
    return FALSE;
  g_strlcpy (f->name, name, sizeof f->name);
  struct { const char *key; int *field; gboolean required; } ints[] = {
    { "ordinal", &f->ordinal, FALSE },
    { "cc_major", &f->cc_major, TRUE },
    { "cc_minor", &f->cc_minor, TRUE },
    { "sm_count", &f->sm_count, TRUE },
    { "clock_khz", &f->clock_khz, FALSE },
    { "mem_clock_khz", &f->mem_clock_khz, FALSE },
    { "mem_bus_width_bits", &f->mem_bus_width_bits, FALSE },
    { "l2_bytes", &f->l2_bytes, FALSE },
    { "smem_per_block_bytes", &f->smem_per_block_bytes, FALSE },
    { "smem_per_block_optin_bytes", &f->smem_per_block_optin_bytes, FALSE },
    { "smem_per_sm_bytes", &f->smem_per_sm_bytes, FALSE },
    { "regs_per_sm", &f->regs_per_sm, FALSE },
    { "regs_per_block", &f->regs_per_block, FALSE },
    { "max_threads_per_block", &f->max_threads_per_block, FALSE },
    { "max_threads_per_sm", &f->max_threads_per_sm, FALSE },
    { "max_blocks_per_sm", &f->max_blocks_per_sm, FALSE },
    { "warp_size", &f->warp_size, FALSE },
    { "driver_version", &f->driver_version, FALSE },
    { "runtime_version", &f->runtime_version, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!get_count (obj, path, ints[i].key, ints[i].required, ints[i].field, error))
      return FALSE;
  /* SMs become lanes of the timeline */
  if (f->sm_count > TL_RECORD_MAX_UNITS)
    {
      g_autofree char *p = tl_json_path (path, "sm_count");
      return tl_json_fail (error, p, _("%d is out of range 0…%d"), f->sm_count, TL_RECORD_MAX_UNITS);
    }
  if (!tl_json_get_int (obj, path, "total_mem_bytes", FALSE, 0, G_MAXINT64, &total, error)
      || !tl_json_get_int (obj, path, "free_mem_bytes", FALSE, 0, G_MAXINT64, &free_b, error))
    return FALSE;
  f->total_mem_bytes = total;
  f->free_mem_bytes = free_b;
  return TRUE;
}

static gboolean
read_uint_array (JsonObject *obj, const char *path, const char *name, gsize count,
                 gint64 hi, GArray *out, GError **error)
{
  JsonArray *array;
  if (!tl_json_get_array (obj, path, name, TRUE, &array, error))
    return FALSE;
  if (json_array_get_length (array) != count)
    {
      g_autofree char *p = tl_json_path (path, name);
      return tl_json_fail (error, p, _("has %u entries, “count” says %zu"),
                           json_array_get_length (array), count);
    }
  g_array_set_size (out, count);
  g_autofree char *p = tl_json_path (path, name);
  return tl_json_array_uints (array, p, (guint64) hi, (guint64 *) out->data, error);
}

/* Per-block records become indices into a grid of C's tiles (the Blocks
 * view), lanes of a timeline (one per unit) and a launch filter: each is
 * bounded here, and the grid passes the one size check. */
static gboolean
check_block_grid (const TlBlockRecord *blocks, gsize count, const TlJob *job, const char *path,
                  GError **error)
{
  guint64 gx = 0, gy = 0;
  for (gsize i = 0; i < count; i++)
    {
      gx = MAX (gx, (guint64) blocks[i].block_x + 1);
      gy = MAX (gy, (guint64) blocks[i].block_y + 1);
    }
  g_autoptr (GError) local = NULL;
  if (!tl_matrix_check_size (TL_DTYPE_FLOAT64, gy, gx, NULL, &local))
    return tl_json_fail (error, path, _("a grid of %" PRIu64 "×%" PRIu64
                                        " tiles: %s"), gx, gy, local->message);
  /* A tile covers at least one element of C (in either orientation: some
   * rungs put rows on blockIdx.x), and a grid wider than the blocks it
   * holds is mostly holes: a coordinate beyond both is not a tile of C. */
  guint64 side = MAX (MAX ((guint64) job->m, (guint64) job->n), (guint64) count);
  if (gx > side || gy > side)
    return tl_json_fail (error, path, _("a block at tile %" PRIu64 " lies outside "
                                        "a %zu×%zu C and beyond the %zu blocks recorded"),
                       MAX (gx, gy) - 1, job->m, job->n, count);
  return TRUE;
}

static gboolean
read_blocks (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run,
             GError **error)
{
  gint64 count = 0, tile = 0;
  g_autofree char *unit = NULL;
  if (!tl_json_get_int (obj, path, "count", TRUE, 0, 1 << 26, &count, error)
      || !tl_json_get_string (obj, path, "unit", TRUE, &unit, error))
    return FALSE;
  if (strcmp (unit, "sm") != 0 && strcmp (unit, "thread") != 0)
    {
      g_autofree char *p = tl_json_path (path, "unit");
      return tl_json_fail (error, p, _("expected “sm” or “thread”, found “%s”"), unit);
    }
  if (!tl_json_get_int (obj, path, "tile_m", FALSE, 0, TL_MATRIX_MAX_DIM, &tile, error))
    return FALSE;
  run->block_tile_m = tile;
  tile = 0;
  if (!tl_json_get_int (obj, path, "tile_n", FALSE, 0, TL_MATRIX_MAX_DIM, &tile, error))
    return FALSE;
  run->block_tile_n = tile;

  const char *names[] = { "block_x", "block_y", unit, "launch", "start_ns", "end_ns" };
  const gint64 highest[] = { TL_MATRIX_MAX_DIM - 1, TL_MATRIX_MAX_DIM - 1, TL_RECORD_MAX_UNITS - 1,
                             G_MAXINT32, G_MAXINT64, G_MAXINT64 };
  GArray *columns[G_N_ELEMENTS (names)];
  gboolean ok = TRUE;
  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    columns[c] = g_array_new (FALSE, FALSE, sizeof (guint64)); /* grows with the input, not with "count" */
  for (guint c = 0; ok && c < G_N_ELEMENTS (names); c++)
    ok = read_uint_array (obj, path, names[c], count, highest[c], columns[c], error);
  if (ok)
    {
      TlBlockRecord *blocks = g_new0 (TlBlockRecord, MAX (count, 1));
      for (gint64 i = 0; i < count; i++)
        {
          blocks[i].block_x = g_array_index (columns[0], guint64, i);
          blocks[i].block_y = g_array_index (columns[1], guint64, i);
          blocks[i].unit = g_array_index (columns[2], guint64, i);
          blocks[i].launch = g_array_index (columns[3], guint64, i);
          blocks[i].start_ns = g_array_index (columns[4], guint64, i);
          blocks[i].end_ns = g_array_index (columns[5], guint64, i);
          if (blocks[i].end_ns < blocks[i].start_ns)
            {
              g_autofree char *p = g_strdup_printf ("%s.end_ns[%" G_GINT64_FORMAT "]", path, i);
              ok = tl_json_fail (error, p, _("a block ends before it starts"));
              break;
            }
        }
      ok = ok && check_block_grid (blocks, count, job, path, error);
      if (ok)
        tl_kernel_run_take_blocks (run, blocks, count, unit);
      else
        g_free (blocks);
    }
  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    g_array_unref (columns[c]);
  return ok;
}

/* The largest count a counter may hold: far beyond any kernel (10¹⁸ bytes
 * is an exabyte), small enough that sums and ratios stay finite. */
#define MAX_COUNTER_VALUE 1e18

/* A run's hardware counters (docs/counters.md): a state, and for a
 * measured run the raw sums by key.  Keys this Tilelab does not know
 * (counters a newer one collects) are skipped; missing ones stay NAN. */
static gboolean
read_counters (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  g_autofree char *state = NULL;
  if (!tl_json_get_string (obj, path, "state", TRUE, &state, error))
    return FALSE;
  TlGpuCountersState st;
  if (!tl_counters_state_from_name (state, &st))
    {
      g_autofree char *p = tl_json_path (path, "state");
      return tl_json_fail (error, p, _("expected “measured”, “unavailable”, “not-permitted” or "
                                       "“failed”, found “%s”"), state);
    }
  g_autoptr (TlCounters) c = tl_counters_new (st, NULL);
  gint64 passes = 0;
  if (!tl_json_get_string (obj, path, "message", FALSE, &c->message, error)
      || !tl_json_get_string (obj, path, "chip", FALSE, &c->chip, error)
      || !tl_json_get_int (obj, path, "passes", FALSE, 0, 1000, &passes, error))
    return FALSE;
  c->passes = (int) passes;
  JsonObject *values;
  if (!tl_json_get_object (obj, path, "values", st == TL_GPU_COUNTERS_MEASURED, &values, error))
    return FALSE;
  if (values != NULL)
    {
      g_autofree char *p = tl_json_path (path, "values");
      for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
        {
          const char *key = tl_gpu_counter_info (i)->key;
          if (!tl_json_get_double (values, p, key, FALSE, &c->value[i], error))
            return FALSE;
          if (!isnan (c->value[i]) && !(c->value[i] >= 0 && c->value[i] <= MAX_COUNTER_VALUE))
            {
              g_autofree char *pk = tl_json_path (p, key);
              return tl_json_fail (error, pk, _("%g is out of range 0…%g"), c->value[i],
                                   MAX_COUNTER_VALUE);
            }
        }
    }
  run->counters = g_steal_pointer (&c);
  return TRUE;
}

/* The measured bandwidths of the roofline's slanted roofs. */
static gboolean
read_bandwidth (JsonObject *obj, const char *path, TlGpuBandwidth *bw, GError **error)
{
  double dram = NAN, l2 = NAN;
  gint64 dram_buf = 0, l2_buf = 0;
  if (!get_quantity (obj, path, "dram", TRUE, "GB/s", &dram, error)
      || !get_quantity (obj, path, "l2", TRUE, "GB/s", &l2, error)
      || !tl_json_get_int (obj, path, "dram_buffer_bytes", FALSE, 0, G_MAXINT64, &dram_buf, error)
      || !tl_json_get_int (obj, path, "l2_buffer_bytes", FALSE, 0, G_MAXINT64, &l2_buf, error))
    return FALSE;
  /* 1 PB/s: far beyond any memory, and no bandwidth is zero or negative */
  const double most = 1e6;
  const char *names[] = { "dram", "l2" };
  double values[] = { dram, l2 };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (!(values[i] > 0 && values[i] <= most))
      {
        g_autofree char *p = tl_json_path (path, names[i]);
        return tl_json_fail (error, p, _("%g GB/s is out of range (0, %g]"), values[i], most);
      }
  bw->dram_bytes_per_s = dram * 1e9;
  bw->l2_bytes_per_s = l2 * 1e9;
  bw->dram_buffer_bytes = (double) dram_buf;
  bw->l2_buffer_bytes = (double) l2_buf;
  return TRUE;
}

/* why a run failed or was skipped */
static gboolean
read_run_outcome (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  if (run->status == TL_RUN_ERROR || run->status == TL_RUN_CANCELLED)
    {
      JsonObject *err;
      g_autofree char *p = tl_json_path (path, "error");
      g_autofree char *code = NULL;
      if (!tl_json_get_object (obj, path, "error", TRUE, &err, error)
          || !tl_json_get_string (err, p, "code", TRUE, &code, error)
          || !tl_json_get_string (err, p, "message", TRUE, &run->message, error))
        return FALSE;
      run->error_code = tl_run_error_code_from_name (code);
    }
  else if (run->status == TL_RUN_SKIPPED)
    {
      if (!tl_json_get_string (obj, path, "reason", TRUE, &run->message, error))
        return FALSE;
    }
  return TRUE;
}

/* the uninstrumented timing: median, min, max, mean and every sample */
static gboolean
read_run_time (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  JsonObject *time;
  if (!tl_json_get_object (obj, path, "time", run->status == TL_RUN_OK, &time, error))
    return FALSE;
  if (time)
    {
      g_autofree char *p = tl_json_path (path, "time");
      g_autofree char *ps = tl_json_path (p, "samples");
      JsonObject *samples;
      gint64 count;
      if (!get_quantity (time, p, "median", TRUE, "ms", &run->time.median, error)
          || !get_quantity (time, p, "min", TRUE, "ms", &run->time.min, error)
          || !get_quantity (time, p, "max", TRUE, "ms", &run->time.max, error)
          || !get_quantity (time, p, "mean", FALSE, "ms", &run->time.mean, error)
          || !tl_json_get_int (time, p, "count", TRUE, 1, G_MAXINT32, &count, error)
          || !tl_json_get_object (time, p, "samples", TRUE, &samples, error))
        return FALSE;
      run->time.count = count;
      JsonArray *values;
      g_autofree char *unit = NULL;
      if (!tl_json_get_array (samples, ps, "values", TRUE, &values, error)
          || !tl_json_get_string (samples, ps, "unit", TRUE, &unit, error))
        return FALSE;
      if (strcmp (unit, "ms") != 0)
        {
          g_autofree char *pu = tl_json_path (ps, "unit");
          tl_json_fail (error, pu, _("expected “ms”, found “%s”"), unit);
          return FALSE;
        }
      run->n_samples = json_array_get_length (values);
      run->samples_ms = g_new0 (double, MAX (run->n_samples, 1));
      for (guint i = 0; i < run->n_samples; i++)
        {
          JsonNode *node = json_array_get_element (values, i);
          if (!tl_json_node_is_number (node))
            {
              g_autofree char *pv = g_strdup_printf ("%s.values[%u]", ps, i);
              tl_json_fail (error, pv, _("expected a number"));
              return FALSE;
            }
          run->samples_ms[i] = json_node_get_double (node);
          if (!isfinite (run->samples_ms[i]))
            {
              g_autofree char *pv = g_strdup_printf ("%s.values[%u]", ps, i);
              tl_json_fail (error, pv, _("the number is beyond the range of float64"));
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* transfers, throughput, traffic and the comparisons within the job */
static gboolean
read_run_rates (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  double bytes = NAN;
  if (!get_quantity (obj, path, "upload", FALSE, "ms", &run->upload_ms, error)
      || !get_quantity (obj, path, "download", FALSE, "ms", &run->download_ms, error)
      || !get_quantity (obj, path, "throughput", FALSE, "GFLOP/s", &run->gflops, error)
      || !get_quantity (obj, path, "bytes", FALSE, "B", &bytes, error)
      || !get_quantity (obj, path, "bandwidth", FALSE, "GB/s", &run->gbytes_per_s, error)
      || !tl_json_get_string (obj, path, "reference_kernel", FALSE, &run->reference_id, error)
      || !get_quantity (obj, path, "percent_of_reference", FALSE, "%",
                        &run->percent_of_reference, error)
      || !get_quantity (obj, path, "speedup_vs_naive", FALSE, "x", &run->speedup_vs_naive,
                        error))
    return FALSE;
  run->bytes = bytes >= 0 && bytes < 1.8e19 ? (guint64) bytes : 0;
  return TRUE;
}

/* the check against the float64 reference */
static gboolean
read_run_verification (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run,
                       GError **error)
{
  JsonObject *ver;
  if (!tl_json_get_object (obj, path, "verification", FALSE, &ver, error))
    return FALSE;
  if (ver)
    {
      g_autofree char *p = tl_json_path (path, "verification");
      run->verified = TRUE;
      if (!tl_json_get_double (ver, p, "max_abs", FALSE, &run->max_abs, error)
          || !tl_json_get_double (ver, p, "max_rel", FALSE, &run->max_rel, error)
          || !tl_json_get_double (ver, p, "rel_norm", FALSE, &run->rel_norm, error)
          || !tl_json_get_double (ver, p, "normwise", FALSE, &run->normwise, error)
          || !tl_json_get_double (ver, p, "tolerance", TRUE, &run->tolerance, error)
          || !tl_json_get_double (ver, p, "worst", FALSE, &run->worst, error)
          || !tl_json_get_bool (ver, p, "passed", TRUE, &run->passed, error)
          || !read_mismatches (ver, p, job, run, error))
        return FALSE;
    }
  return TRUE;
}

/* the GPU launch configuration and occupancy */
static gboolean
read_run_launch (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  JsonObject *launch;
  if (!tl_json_get_object (obj, path, "launch", FALSE, &launch, error))
    return FALSE;
  if (launch)
    {
      g_autofree char *p = tl_json_path (path, "launch");
      TlLaunchFacts *l = &run->launch;
      struct { const char *key; int *field; } ints[] = {
        { "regs_per_thread", &l->regs_per_thread },
        { "static_smem_bytes", &l->static_smem_bytes },
        { "dynamic_smem_bytes", &l->dynamic_smem_bytes },
        { "local_bytes_per_thread", &l->local_bytes_per_thread },
        { "max_threads_per_block", &l->max_threads_per_block },
        { "active_blocks_per_sm", &l->active_blocks_per_sm },
        { "grid_x", &l->grid_x }, { "grid_y", &l->grid_y }, { "grid_z", &l->grid_z },
        { "block_x", &l->block_x }, { "block_y", &l->block_y }, { "block_z", &l->block_z },
        { "launches", &l->launches },
      };
      for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
        if (!get_count (launch, p, ints[i].key, FALSE, ints[i].field, error))
          return FALSE;
      /* blocks per SM at once become sub-lanes of the timeline */
      if (l->active_blocks_per_sm > TL_RECORD_MAX_UNITS)
        {
          g_autofree char *pa = tl_json_path (p, "active_blocks_per_sm");
          tl_json_fail (error, pa, _("%d is out of range 0…%d"), l->active_blocks_per_sm,
                        TL_RECORD_MAX_UNITS);
          return FALSE;
        }
      if (!tl_json_get_double (launch, p, "waves", FALSE, &l->waves, error)
          || !tl_json_get_double (launch, p, "occupancy", FALSE, &l->occupancy, error))
        return FALSE;
      l->valid = TRUE;
    }
  return TRUE;
}

/* a planned rung's plan (optional) */
static gboolean
read_run_plan (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  JsonObject *plan;
  if (!tl_json_get_object (obj, path, "plan", FALSE, &plan, error))
    return FALSE;
  if (plan == NULL)
    return TRUE;
  g_autofree char *p = tl_json_path (path, "plan");
  TlGpuGemmPlan *pl = &run->plan;
  g_autofree char *name = NULL, *why = NULL;
  struct { const char *key; int *field; } ints[] = {
    { "tile_m", &pl->tile_m }, { "tile_n", &pl->tile_n }, { "splits", &pl->splits },
    { "k_per_split", &pl->k_per_split }, { "cluster", &pl->cluster }, { "raster", &pl->raster },
    { "tiles", &pl->tiles }, { "work", &pl->work }, { "slots", &pl->slots },
    { "waves", &pl->waves }, { "idle_sms", &pl->idle_sms },
    { "idle_sms_default", &pl->idle_sms_default },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!get_count (plan, p, ints[i].key, FALSE, ints[i].field, error))
      return FALSE;
  if (!tl_json_get_string (plan, p, "name", TRUE, &name, error)
      || !tl_json_get_string (plan, p, "why", FALSE, &why, error)
      || !tl_json_get_double (plan, p, "last_wave_fill", FALSE, &pl->last_wave_fill, error)
      || !tl_json_get_double (plan, p, "model_us", FALSE, &pl->model_us, error)
      || !tl_json_get_bool (plan, p, "pinned", FALSE, &pl->pinned, error))
    return FALSE;
  g_strlcpy (pl->name, name, sizeof pl->name);
  g_strlcpy (pl->why, why ? why : "", sizeof pl->why);
  run->has_plan = TRUE;
  return TRUE;
}

/* the instrumented run and its per-block records */
static gboolean
read_run_instrumented (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run, GError **error)
{
  JsonObject *instr;
  if (!tl_json_get_object (obj, path, "instrumented", FALSE, &instr, error))
    return FALSE;
  if (instr)
    {
      g_autofree char *p = tl_json_path (path, "instrumented");
      if (!get_quantity (instr, p, "median", TRUE, "ms", &run->instrumented_median_ms, error)
          || !get_quantity (instr, p, "overhead", FALSE, "%", &run->instrument_overhead_pct,
                            error))
        return FALSE;
    }

  JsonObject *blocks;
  if (!tl_json_get_object (obj, path, "blocks", FALSE, &blocks, error))
    return FALSE;
  if (blocks)
    {
      g_autofree char *p = tl_json_path (path, "blocks");
      if (!read_blocks (blocks, p, job, run, error))
        return FALSE;
    }
  return TRUE;
}

/* the run's hardware counters */
static gboolean
read_run_counters (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  JsonObject *counters;
  if (!tl_json_get_object (obj, path, "counters", FALSE, &counters, error))
    return FALSE;
  if (counters)
    {
      g_autofree char *p = tl_json_path (path, "counters");
      if (!read_counters (counters, p, run, error))
        return FALSE;
    }
  return TRUE;
}

/* C's summary and where C was saved */
static gboolean
read_run_result (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  JsonObject *result;
  if (!tl_json_get_object (obj, path, "result", FALSE, &result, error))
    return FALSE;
  if (result)
    {
      g_autofree char *p = tl_json_path (path, "result");
      JsonObject *stats;
      if (!tl_json_get_object (result, p, "stats", FALSE, &stats, error)
          || !get_rel_path (result, p, &run->c_path, error))
        return FALSE;
      if (stats)
        {
          g_autofree char *ps = tl_json_path (p, "stats");
          if (!read_stats (stats, ps, &run->c_stats, error))
            return FALSE;
          run->has_c_stats = TRUE;
        }
    }
  return TRUE;
}

static TlKernelRun *
read_run (JsonObject *obj, const char *path, const TlJob *job, GError **error)
{
  g_autofree char *id = NULL;
  int backend, status;
  if (!tl_json_get_string (obj, path, "kernel", TRUE, &id, error)
      || !get_name (obj, path, "backend", &tl_backend_table, &backend, error)
      || !get_name (obj, path, "status", &tl_run_status_table, &status, error))
    return NULL;
  if (*id == '\0')
    {
      g_autofree char *p = tl_json_path (path, "kernel");
      tl_json_fail (error, p, _("empty kernel id"));
      return NULL;
    }

  g_autoptr (TlKernelRun) run = tl_kernel_run_new (id, backend);
  run->status = status;
  gint64 threads = 0;
  if (!tl_json_get_string (obj, path, "precision", FALSE, &run->precision, error)
      || !read_run_outcome (obj, path, run, error)
      || !tl_json_get_int (obj, path, "threads", FALSE, 0, TL_RECORD_MAX_UNITS, &threads, error))
    return NULL;
  run->threads = threads;
  if (!read_run_time (obj, path, run, error) || !read_run_rates (obj, path, run, error)
      || !read_run_verification (obj, path, job, run, error)
      || !read_run_launch (obj, path, run, error)
      || !read_run_plan (obj, path, run, error)
      || !read_run_instrumented (obj, path, job, run, error)
      || !read_run_counters (obj, path, run, error)
      || !read_run_result (obj, path, run, error))
    return NULL;
  return g_steal_pointer (&run);
}

static gboolean
read_input (JsonObject *inputs, const char *name, gboolean *has_stats, TlMatrixStats *stats,
            char **path_out, GError **error)
{
  JsonObject *obj;
  if (!tl_json_get_object (inputs, "$.inputs", name, FALSE, &obj, error))
    return FALSE;
  if (obj == NULL)
    return TRUE;
  g_autofree char *p = g_strdup_printf ("$.inputs.%s", name);
  JsonObject *s;
  if (!tl_json_get_object (obj, p, "stats", FALSE, &s, error) || !get_rel_path (obj, p, path_out, error))
    return FALSE;
  if (s)
    {
      g_autofree char *ps = tl_json_path (p, "stats");
      if (!read_stats (s, ps, stats, error))
        return FALSE;
      *has_stats = TRUE;
    }
  return TRUE;
}

TlJob *
tl_job_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  return read_job (json_node_get_object (node), "$", error);
}

TlKernelRun *
tl_kernel_run_from_json (JsonNode *node, const TlJob *job, GError **error)
{
  g_return_val_if_fail (node != NULL && job != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  return read_run (json_node_get_object (node), "$", job, error);
}

gboolean
tl_gpu_facts_from_json (JsonNode *node, TlGpuFacts *out, GError **error)
{
  g_return_val_if_fail (node != NULL && out != NULL, FALSE);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return tl_json_fail (error, "$", _("expected an object"));
  return read_device (json_node_get_object (node), "$", out, error);
}

static TlRunRecord *
read_record (JsonNode *node, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  JsonObject *root = json_node_get_object (node);
  g_autoptr (TlRunRecord) record = tl_run_record_alloc ();

  if (!tl_json_get_string (root, "$", "schema", TRUE, &record->schema, error))
    return NULL;
  /* the first schema is still read: it is the second without counters */
  if (strcmp (record->schema, TL_RUN_RECORD_SCHEMA) != 0
      && strcmp (record->schema, TL_RUN_RECORD_SCHEMA_V1) != 0)
    {
      tl_json_fail (error, "$.schema", _("“%s” is not a Tilelab run record (expected “%s” or “%s”)"),
                    record->schema, TL_RUN_RECORD_SCHEMA, TL_RUN_RECORD_SCHEMA_V1);
      return NULL;
    }
  if (!tl_json_get_string (root, "$", "tilelab_version", TRUE, &record->tilelab_version, error)
      || !tl_json_get_string (root, "$", "created", TRUE, &record->created, error)
      || !tl_json_get_string (root, "$", "command_line", FALSE, &record->command_line, error)
      || !tl_json_get_string (root, "$", "note", FALSE, &record->note, error)
      || !tl_json_get_bool (root, "$", "cancelled", FALSE, &record->cancelled, error))
    return NULL;

  JsonObject *machine;
  gint64 cores = 0;
  if (!tl_json_get_object (root, "$", "machine", TRUE, &machine, error)
      || !tl_json_get_string (machine, "$.machine", "host_name", TRUE, &record->machine.host_name, error)
      || !tl_json_get_string (machine, "$.machine", "os", TRUE, &record->machine.os, error)
      || !tl_json_get_string (machine, "$.machine", "cpu_model", TRUE, &record->machine.cpu_model, error)
      || !tl_json_get_int (machine, "$.machine", "cores", TRUE, 0, G_MAXINT32, &cores, error))
    return NULL;
  record->machine.cores = cores;

  JsonObject *device;
  if (!tl_json_get_object (root, "$", "device", FALSE, &device, error))
    return NULL;
  if (device)
    {
      if (!read_device (device, "$.device", &record->device, error))
        return NULL;
      record->has_device = TRUE;
    }

  JsonObject *bandwidth;
  if (!tl_json_get_object (root, "$", "bandwidth", FALSE, &bandwidth, error))
    return NULL;
  if (bandwidth)
    {
      if (!read_bandwidth (bandwidth, "$.bandwidth", &record->bandwidth, error))
        return NULL;
      record->has_bandwidth = TRUE;
    }

  JsonObject *job;
  if (!tl_json_get_object (root, "$", "job", TRUE, &job, error))
    return NULL;
  record->job = read_job (job, "$.job", error);
  if (record->job == NULL)
    return NULL;

  JsonObject *inputs;
  if (!tl_json_get_object (root, "$", "inputs", FALSE, &inputs, error))
    return NULL;
  if (inputs)
    {
      gboolean ha = FALSE, hb = FALSE, hr = FALSE;
      if (!read_input (inputs, "a", &ha, &record->a_stats, &record->a_path, error)
          || !read_input (inputs, "b", &hb, &record->b_stats, &record->b_path, error)
          || !read_input (inputs, "reference", &hr, &record->reference_stats,
                          &record->reference_path, error))
        return NULL;
      record->has_input_stats = ha && hb && hr;
    }

  JsonArray *runs;
  if (!tl_json_get_array (root, "$", "runs", TRUE, &runs, error))
    return NULL;
  for (guint i = 0; i < json_array_get_length (runs); i++)
    {
      g_autofree char *p = g_strdup_printf ("$.runs[%u]", i);
      JsonNode *rn = json_array_get_element (runs, i);
      if (!JSON_NODE_HOLDS_OBJECT (rn))
        {
          tl_json_fail (error, p, _("expected an object"));
          return NULL;
        }
      TlKernelRun *run = read_run (json_node_get_object (rn), p, record->job, error);
      if (run == NULL)
        return NULL;
      g_ptr_array_add (record->runs, run);
    }

  JsonObject *ext;
  if (!tl_json_get_object (root, "$", "extensions", FALSE, &ext, error))
    return NULL;
  record->extensions = ext ? json_object_ref (ext) : NULL;
  return g_steal_pointer (&record);
}

TlRunRecord *
tl_run_record_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  GError *local = NULL;
  TlRunRecord *record = read_record (node, &local);
  if (record == NULL)
    g_propagate_prefixed_error (error, local, _("run record: "));
  return record;
}

TlRunRecord *
tl_run_record_from_data (const char *data, gssize length, GError **error)
{
  g_return_val_if_fail (data != NULL, NULL);
  gsize len = length < 0 ? strlen (data) : (gsize) length;
  g_autoptr (GError) local = NULL;
  g_autoptr (JsonNode) root = tl_json_parse (data, len, &local);
  if (root == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, _("run record: %s"), local->message);
      return NULL;
    }
  return tl_run_record_from_json (root, error);
}
