/* tl-record-read-run.c — one kernel's run of a run record from JSON,
 * validated member by member: its outcome, times, rates, verification,
 * launch, plan, block records and counters (docs/run-record.md). */
#include "record/tl-record-private.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-read.h"
#include "core/tl-memory.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* The largest count a counter may hold: far beyond any kernel (10¹⁸ bytes
 * is an exabyte), small enough that sums and ratios stay finite. */
#define MAX_COUNTER_VALUE 1e18

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
  guint n = list ? tl_json_array_length (list) : 0;
  g_autofree char *lp = tl_json_path (path, "mismatches");
  if (n > TL_GEMM_CHECK_KEEP || n > run->n_wrong)
    return tl_json_fail (error, lp, _("%u mismatches (at most %u, and no more than “wrong”)"), n,
                         (guint) TL_GEMM_CHECK_KEEP);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *p = g_strdup_printf ("%s[%u]", lp, i);
      JsonNode *node = tl_json_array_element (list, i);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
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

/* The array name of count integers in 0 … hi, into one field of the
 * blocks (offset and size of the field). */
static gboolean
read_block_column (JsonObject *obj, const char *path, const char *name, gsize count,
                   gint64 hi, TlBlockRecord *blocks, gsize offset, gsize size, GError **error)
{
  JsonArray *array;
  if (!tl_json_get_array (obj, path, name, TRUE, &array, error))
    return FALSE;
  g_autofree char *p = tl_json_path (path, name);
  if (tl_json_array_length (array) != count)
    return tl_json_fail (error, p, _("has %u entries, “count” says %zu"),
                         tl_json_array_length (array), count);
  return tl_json_array_uints_into (array, p, (guint64) hi, (char *) blocks + offset, size,
                                   sizeof *blocks, error);
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

/* The C tile of one block: both sides at least 1, or neither given
 * (not known: the blocks are then bounded only by check_block_grid). */
static gboolean
read_block_tile (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  const char *names[] = { "tile_m", "tile_n" };
  guint *sides[] = { &run->block_tile_m, &run->block_tile_n };
  for (guint i = 0; i < 2; i++)
    {
      gint64 tile = 0;
      if (!tl_json_get_int (obj, path, names[i], FALSE, 0, TL_MATRIX_MAX_DIM, &tile, error))
        return FALSE;
      *sides[i] = (guint) tile;
      g_autofree char *p = tl_json_path (path, names[i]);
      if (json_object_has_member (obj, names[i]) && tile == 0)
        return tl_json_fail (error, p, _("0: a tile has at least one row and one column"));
      if (!json_object_has_member (obj, names[i]) && json_object_has_member (obj, names[1 - i]))
        return tl_json_fail (error, p, _("missing, while “%s” is given"), names[1 - i]);
    }
  return TRUE;
}

static gboolean
read_blocks (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run,
             GError **error)
{
  gint64 count = 0;
  g_autofree char *unit = NULL;
  if (!tl_json_get_int (obj, path, "count", TRUE, 0, 1 << 26, &count, error)
      || !tl_json_get_string (obj, path, "unit", TRUE, &unit, error))
    return FALSE;
  if (strcmp (unit, "sm") != 0 && strcmp (unit, "thread") != 0)
    {
      g_autofree char *p = tl_json_path (path, "unit");
      return tl_json_fail (error, p, _("expected “sm” or “thread”, found “%s”"), unit);
    }
  if (!read_block_tile (obj, path, run, error))
    return FALSE;

  const struct { const char *name; gint64 hi; gsize offset, size; } columns[] = {
#define FIELD(f) G_STRUCT_OFFSET (TlBlockRecord, f), sizeof (((TlBlockRecord *) 0)->f)
    { "block_x", TL_MATRIX_MAX_DIM - 1, FIELD (block_x) },
    { "block_y", TL_MATRIX_MAX_DIM - 1, FIELD (block_y) },
    { unit, TL_RECORD_MAX_UNITS - 1, FIELD (unit) },
    { "launch", G_MAXINT32, FIELD (launch) },
    { "start_ns", G_MAXINT64, FIELD (start_ns) },
    { "end_ns", G_MAXINT64, FIELD (end_ns) },
#undef FIELD
  };
  /* the blocks are as many as the first array has elements: its length
   * is checked before they are allocated, then every array in turn, its
   * length and its elements, read straight into the blocks' field */
  JsonArray *first;
  if (!tl_json_get_array (obj, path, columns[0].name, TRUE, &first, error))
    return FALSE;
  if (tl_json_array_length (first) != (gsize) count)
    {
      g_autofree char *p = tl_json_path (path, columns[0].name);
      return tl_json_fail (error, p, _("has %u entries, “count” says %zu"),
                           tl_json_array_length (first), (gsize) count);
    }
  g_autofree TlBlockRecord *blocks = tl_memory_new0 (TlBlockRecord, MAX (count, 1),
                                                     _("the block records"), error);
  if (blocks == NULL)
    return FALSE;
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    if (!read_block_column (obj, path, columns[c].name, count, columns[c].hi, blocks,
                            columns[c].offset, columns[c].size, error))
      return FALSE;
  for (gint64 i = 0; i < count; i++)
    if (blocks[i].end_ns < blocks[i].start_ns)
      {
        g_autofree char *p = g_strdup_printf ("%s.end_ns[%" G_GINT64_FORMAT "]", path, i);
        return tl_json_fail (error, p, _("a block ends before it starts"));
      }
  if (!check_block_grid (blocks, count, job, path, error))
    return FALSE;
  tl_kernel_run_take_blocks (run, g_steal_pointer (&blocks), count, unit);
  return TRUE;
}

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

/* Times that contradict themselves are refused, not drawn: none below
 * zero, min ≤ median ≤ max, the mean within them, no more samples than
 * the count (non-finite samples are left out when written). */
static gboolean
check_run_time (const char *path, const TlKernelRun *run, GError **error)
{
  const TlTimingStats *t = &run->time;
  const struct { const char *name; double value; } times[] = {
    { "median", t->median }, { "min", t->min }, { "max", t->max }, { "mean", t->mean },
  };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    if (times[i].value < 0)
      {
        g_autofree char *p = tl_json_path (path, times[i].name);
        tl_json_fail (error, p, _("a time below zero (%g ms)"), times[i].value);
        return FALSE;
      }
  if (t->min > t->median || t->median > t->max || t->min > t->mean || t->mean > t->max)
    {
      tl_json_fail (error, path, _("min %g ms, median %g ms, mean %g ms and max %g ms are out of "
                                   "order"), t->min, t->median, t->mean, t->max);
      return FALSE;
    }
  g_autofree char *ps = tl_json_path (path, "samples");
  g_autofree char *pv = tl_json_path (ps, "values");
  if (run->n_samples > t->count)
    {
      tl_json_fail (error, pv, _("%u samples, but “count” says %u"), run->n_samples, t->count);
      return FALSE;
    }
  for (guint i = 0; i < run->n_samples; i++)
    if (run->samples_ms[i] < 0)
      {
        g_autofree char *p = g_strdup_printf ("%s[%u]", pv, i);
        tl_json_fail (error, p, _("a time below zero (%g ms)"), run->samples_ms[i]);
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
      if (!tl_record_get_quantity (time, p, "median", TRUE, "ms", &run->time.median, error)
          || !tl_record_get_quantity (time, p, "min", TRUE, "ms", &run->time.min, error)
          || !tl_record_get_quantity (time, p, "max", TRUE, "ms", &run->time.max, error)
          || !tl_record_get_quantity (time, p, "mean", FALSE, "ms", &run->time.mean, error)
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
      g_autofree char *pv = tl_json_path (ps, "values");
      if (!tl_json_array_numbers (values, pv, &run->samples_ms, &run->n_samples, error)
          || !check_run_time (p, run, error))
        return FALSE;
    }
  return TRUE;
}

/* transfers, throughput, traffic and the comparisons within the job */
static gboolean
read_run_rates (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  double bytes = NAN;
  if (!tl_record_get_quantity (obj, path, "upload", FALSE, "ms", &run->upload_ms, error)
      || !tl_record_get_quantity (obj, path, "download", FALSE, "ms", &run->download_ms, error)
      || !tl_record_get_quantity (obj, path, "throughput", FALSE, "GFLOP/s", &run->gflops, error)
      || !tl_record_get_quantity (obj, path, "bytes", FALSE, "B", &bytes, error)
      || !tl_record_get_quantity (obj, path, "bandwidth", FALSE, "GB/s", &run->gbytes_per_s, error)
      || !tl_json_get_string (obj, path, "reference_kernel", FALSE, &run->reference_id, error)
      || !tl_record_get_quantity (obj, path, "percent_of_reference", FALSE, "%",
                                  &run->percent_of_reference, error)
      || !tl_record_get_quantity (obj, path, "speedup_vs_naive", FALSE, "x", &run->speedup_vs_naive,
                                  error))
    return FALSE;
  run->reference = tl_kernel_find (run->reference_id);
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
        { "const_bytes", &l->const_bytes }, /* absent in older records: stays -1 */
        { "max_threads_per_block", &l->max_threads_per_block },
        { "active_blocks_per_sm", &l->active_blocks_per_sm },
        { "grid_x", &l->grid_x }, { "grid_y", &l->grid_y }, { "grid_z", &l->grid_z },
        { "block_x", &l->block_x }, { "block_y", &l->block_y }, { "block_z", &l->block_z },
        { "launches", &l->launches },
      };
      for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
        if (!tl_record_get_count (launch, p, ints[i].key, FALSE, ints[i].field, error))
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
read_run_plan (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run,
               GError **error)
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
    { "ctas_per_sm", &pl->ctas_per_sm },
    { "waves", &pl->waves }, { "idle_sms", &pl->idle_sms },
    { "idle_sms_default", &pl->idle_sms_default },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!tl_record_get_count (plan, p, ints[i].key, FALSE, ints[i].field, error))
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
  return tl_record_check_plan (plan, p, pl, job, error);
}

/* the instrumented run and its per-block records (own_kernel: not a
 * user's, held to the tile grid) */
static gboolean
read_run_instrumented (JsonObject *obj, const char *path, const TlJob *job, TlKernelRun *run,
                       gboolean own_kernel, GError **error)
{
  JsonObject *instr;
  if (!tl_json_get_object (obj, path, "instrumented", FALSE, &instr, error))
    return FALSE;
  if (instr)
    {
      g_autofree char *p = tl_json_path (path, "instrumented");
      if (!tl_record_get_quantity (instr, p, "median", TRUE, "ms", &run->instrumented_median_ms,
                                   error)
          || !tl_record_get_quantity (instr, p, "overhead", FALSE, "%",
                                      &run->instrument_overhead_pct, error))
        return FALSE;
    }

  JsonObject *blocks;
  if (!tl_json_get_object (obj, path, "blocks", FALSE, &blocks, error))
    return FALSE;
  if (blocks)
    {
      g_autofree char *p = tl_json_path (path, "blocks");
      if (!read_blocks (blocks, p, job, run, error)
          || !tl_record_check_blocks (run, job, p, own_kernel, error))
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
          || !tl_record_get_rel_path (result, p, &run->c_path, error))
        return FALSE;
      if (stats)
        {
          g_autofree char *ps = tl_json_path (p, "stats");
          if (!tl_record_read_stats (stats, ps, &run->c_stats, error))
            return FALSE;
          run->has_c_stats = TRUE;
        }
    }
  return TRUE;
}

TlKernelRun *
tl_record_read_run (JsonObject *obj, const char *path, const TlJob *job,
                    JsonObject *user_kernels, GError **error)
{
  g_autofree char *id = NULL;
  int backend, status;
  if (!tl_json_get_string (obj, path, "kernel", TRUE, &id, error)
      || !tl_record_get_name (obj, path, "backend", &tl_backend_table, &backend, error)
      || !tl_record_get_name (obj, path, "status", &tl_run_status_table, &status, error))
    return NULL;
  if (*id == '\0')
    {
      g_autofree char *p = tl_json_path (path, "kernel");
      tl_json_fail (error, p, _("empty kernel id"));
      return NULL;
    }
  for (const char *c = id; *c; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      {
        /* it is printed and drawn: no line breaks, no terminal escapes */
        g_autofree char *p = tl_json_path (path, "kernel");
        tl_json_fail (error, p, _("a kernel id with a control character (0x%02x)"), (guchar) *c);
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
  /* a user's kernel: named so in the record, or registered here as one */
  gboolean own_kernel = !(user_kernels && json_object_has_member (user_kernels, id))
                        && !(run->info && tl_kernel_get_owner (run->info));
  if (!read_run_time (obj, path, run, error) || !read_run_rates (obj, path, run, error)
      || !read_run_verification (obj, path, job, run, error)
      || !read_run_launch (obj, path, run, error)
      || !read_run_plan (obj, path, job, run, error)
      || !read_run_instrumented (obj, path, job, run, own_kernel, error)
      || !read_run_counters (obj, path, run, error)
      || !read_run_result (obj, path, run, error))
    return NULL;
  return g_steal_pointer (&run);
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
  return tl_record_read_run (json_node_get_object (node), "$", job, NULL, error);
}
