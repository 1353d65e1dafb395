/* tl-block-stats.c — blocks, waves, tail and block-time spread of a run. */
#include "view/tl-block-stats.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include "core/tl-error.h"
#include "view/tl-format.h"

static int
by_unit_start (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const TlBlockRecord *blocks = data;
  const TlBlockRecord *a = &blocks[*(const gsize *) pa];
  const TlBlockRecord *b = &blocks[*(const gsize *) pb];
  if (a->unit != b->unit)
    return a->unit < b->unit ? -1 : 1;
  if (a->start_ns != b->start_ns)
    return a->start_ns < b->start_ns ? -1 : 1;
  return *(const gsize *) pa < *(const gsize *) pb ? -1 : 1;
}

static int
by_launch_start (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const TlBlockRecord *blocks = data;
  const TlBlockRecord *a = &blocks[*(const gsize *) pa];
  const TlBlockRecord *b = &blocks[*(const gsize *) pb];
  if (a->launch != b->launch)
    return a->launch < b->launch ? -1 : 1;
  if (a->start_ns != b->start_ns)
    return a->start_ns < b->start_ns ? -1 : 1;
  return *(const gsize *) pa < *(const gsize *) pb ? -1 : 1;
}

static int
cmp_u64 (const void *pa, const void *pb)
{
  guint64 a = *(const guint64 *) pa, b = *(const guint64 *) pb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Blocks per wave, ≥ 1 and without wrapping (it divides block counts). */
static guint
capacity_of (guint slots, guint units)
{
  guint64 c = (guint64) MAX (slots, 1) * MAX (units, 1);
  return (guint) MIN (c, G_MAXUINT);
}

/* The grid and the launches from every record; into idx the records of
 * the launch asked for (all when launch < 0); returns how many.  Records
 * left out keep wave and slot G_MAXUINT. */
static gsize
select_blocks (TlBlockStats *s, const TlBlockRecord *blocks, gsize n_blocks, gint launch,
               gsize *idx, guint *max_unit, guint *max_launch)
{
  gsize n = 0;
  g_autoptr (GHashTable) launches = g_hash_table_new (NULL, NULL);
  *max_unit = *max_launch = 0;
  for (gsize i = 0; i < n_blocks; i++)
    {
      const TlBlockRecord *b = &blocks[i];
      /* (saturating: the record reader bounds coordinates; memory may not) */
      s->grid_x = MAX (s->grid_x, b->block_x == G_MAXUINT32 ? G_MAXUINT32 : b->block_x + 1);
      s->grid_y = MAX (s->grid_y, b->block_y == G_MAXUINT32 ? G_MAXUINT32 : b->block_y + 1);
      g_hash_table_add (launches, GUINT_TO_POINTER (b->launch + 1));
      s->wave[i] = s->slot[i] = G_MAXUINT;
      if (launch >= 0 && b->launch != (guint32) launch)
        continue;
      idx[n++] = i;
      *max_unit = MAX (*max_unit, b->unit);
      *max_launch = MAX (*max_launch, b->launch);
    }
  s->n_launches = g_hash_table_size (launches);
  return n;
}

/* Slots: greedy interval partitioning per unit, in start order — a block
 * takes the first slot of its unit free at its start.  Also the units
 * used, the busiest unit's block count and the time span.  Returns the
 * most blocks seen running at once on one unit. */
static guint
assign_slots (TlBlockStats *s, const TlBlockRecord *blocks, gsize *idx, gsize n)
{
  g_qsort_with_data (idx, (gint) n, sizeof *idx, by_unit_start, (gpointer) blocks);
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint unit = G_MAXUINT, per_unit = 0, max_concurrent = 1;
  s->t0_ns = G_MAXUINT64;
  for (gsize r = 0; r < n; r++)
    {
      const TlBlockRecord *b = &blocks[idx[r]];
      if (b->unit != unit)
        {
          unit = b->unit;
          g_array_set_size (ends, 0);
          s->units_used++;
          per_unit = 0;
        }
      per_unit++;
      s->max_blocks_per_unit = MAX (s->max_blocks_per_unit, per_unit);
      guint slot = 0, busy = 0;
      for (; slot < ends->len; slot++)
        if (g_array_index (ends, guint64, slot) <= b->start_ns)
          break;
      if (slot == ends->len)
        g_array_append_val (ends, b->end_ns);
      else
        g_array_index (ends, guint64, slot) = b->end_ns;
      for (guint j = 0; j < ends->len; j++)
        if (g_array_index (ends, guint64, j) > b->start_ns)
          busy++;
      max_concurrent = MAX (max_concurrent, busy);
      s->slot[idx[r]] = slot;
      s->max_slot = MAX (s->max_slot, slot + 1);
      s->t0_ns = MIN (s->t0_ns, b->start_ns);
      s->t1_ns = MAX (s->t1_ns, b->end_ns);
    }
  g_array_unref (ends);
  s->span_ns = s->t1_ns - s->t0_ns;
  return max_concurrent;
}

/* Waves: per launch, in start order, capacity blocks each; the last
 * launch's last wave is the tail when it is not full. */
static void
assign_waves (TlBlockStats *s, const TlBlockRecord *blocks, gsize *idx, gsize n,
              guint max_launch)
{
  g_qsort_with_data (idx, (gint) n, sizeof *idx, by_launch_start, (gpointer) blocks);

  guint offset = 0;
  gsize r = 0;
  while (r < n)
    {
      guint32 l = blocks[idx[r]].launch;
      gsize r0 = r;
      while (r < n && blocks[idx[r]].launch == l)
        {
          s->wave[idx[r]] = offset + (guint) ((r - r0) / s->capacity);
          r++;
        }
      gsize count = r - r0;
      guint waves = (guint) ((count + s->capacity - 1) / s->capacity);
      if (l == max_launch)
        {
          s->last_wave_blocks = (guint) (count - (gsize) (waves - 1) * s->capacity);
          s->last_wave_partial = s->last_wave_blocks < s->capacity;
          s->tail_wave = offset + waves - 1;
        }
      offset += waves;
    }
  s->n_waves = offset;
}

/* The tail: from the first start in a partial last wave to the end. */
static void
measure_tail (TlBlockStats *s, const TlBlockRecord *blocks, const gsize *idx, gsize n)
{
  s->tail_start_ns = s->t1_ns;
  if (s->last_wave_partial)
    for (gsize i = 0; i < n; i++)
      if (s->wave[idx[i]] == s->tail_wave)
        s->tail_start_ns = MIN (s->tail_start_ns, blocks[idx[i]].start_ns);
  s->tail_share = s->last_wave_partial && s->span_ns > 0
                    ? (double) (s->t1_ns - s->tail_start_ns) / s->span_ns : 0.0;
}

/* Block durations: min, median, max and mean of the n > 0 selected. */
static void
measure_durations (TlBlockStats *s, const TlBlockRecord *blocks, const gsize *idx, gsize n)
{
  guint64 *d = g_new (guint64, n);
  double sum = 0;
  for (gsize i = 0; i < n; i++)
    {
      const TlBlockRecord *b = &blocks[idx[i]];
      d[i] = b->end_ns > b->start_ns ? b->end_ns - b->start_ns : 0;
      sum += d[i];
    }
  qsort (d, n, sizeof *d, cmp_u64);
  s->min_ns = d[0];
  s->max_ns = d[n - 1];
  s->median_ns = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
  s->mean_ns = sum / n;
  g_free (d);
}

TlBlockStats *
tl_block_stats_new (const TlBlockRecord *blocks, gsize n_blocks,
                    guint n_units, guint slots_per_unit, gint launch)
{
  g_return_val_if_fail (blocks != NULL || n_blocks == 0, NULL);

  TlBlockStats *s = g_new0 (TlBlockStats, 1);
  s->launch = launch;
  s->n_records = n_blocks;
  s->wave = g_new (guint, MAX (n_blocks, 1));
  s->slot = g_new (guint, MAX (n_blocks, 1));
  s->max_slot = 1;

  g_autofree gsize *idx = g_new (gsize, MAX (n_blocks, 1));
  guint max_unit, max_launch;
  gsize n = select_blocks (s, blocks, n_blocks, launch, idx, &max_unit, &max_launch);
  s->n_blocks = n;
  /* (guint64: a unit of G_MAXUINT32 must not wrap to zero units) */
  s->n_units = (guint) MIN (MAX ((guint64) n_units, n > 0 ? (guint64) max_unit + 1 : 1),
                            G_MAXUINT);
  if (n == 0)
    {
      s->slots = MAX (slots_per_unit, 1);
      s->capacity = capacity_of (s->slots, s->n_units);
      return s;
    }

  guint max_concurrent = assign_slots (s, blocks, idx, n);
  s->slots_measured = slots_per_unit == 0;
  s->slots = slots_per_unit > 0 ? slots_per_unit : max_concurrent;
  s->capacity = capacity_of (s->slots, s->n_units);

  assign_waves (s, blocks, idx, n, max_launch);
  measure_tail (s, blocks, idx, n);
  measure_durations (s, blocks, idx, n);
  s->blocks_per_unit = (double) n / s->n_units;
  return s;
}

TlBlockStats *
tl_block_stats_new_for_run (const TlRunRecord *record, const TlKernelRun *run,
                            gint launch, GError **error)
{
  g_return_val_if_fail (run != NULL, NULL);

  if (run->blocks == NULL || run->n_blocks == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("kernel “%s” has no block records (run it with --instrument)"),
                   run->kernel_id ? run->kernel_id : "?");
      return NULL;
    }

  guint units = 0, slots = 0;
  if (g_strcmp0 (run->block_unit, "thread") == 0)
    {
      units = run->threads;
      slots = 1;
    }
  else
    {
      if (record != NULL && record->has_device && record->device.sm_count > 0)
        units = (guint) record->device.sm_count;
      if (run->launch.valid && run->launch.active_blocks_per_sm > 0)
        slots = (guint) run->launch.active_blocks_per_sm;
    }
  return tl_block_stats_new (run->blocks, run->n_blocks, units, slots, launch);
}

void
tl_block_stats_free (TlBlockStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->wave);
  g_free (stats->slot);
  g_free (stats);
}

const char *
tl_block_unit_label (const char *block_unit)
{
  return g_strcmp0 (block_unit, "thread") == 0 ? _("thread") : _("SM");
}

void
tl_block_stats_text (const TlBlockStats *s, TlBlockStatsText *out)
{
  g_return_if_fail (s != NULL && out != NULL);
  tl_format_ms (s->min_ns / 1e6, out->min, sizeof out->min);
  tl_format_ms (s->median_ns / 1e6, out->median, sizeof out->median);
  tl_format_ms (s->max_ns / 1e6, out->max, sizeof out->max);
  tl_format_ms (s->span_ns / 1e6, out->span, sizeof out->span);
  g_ascii_formatd (out->per_unit, sizeof out->per_unit, s->blocks_per_unit >= 10 ? "%.0f" : "%.2f",
                   s->blocks_per_unit);
}

char *
tl_block_count_units (guint n, const char *unit_label)
{
  if (g_strcmp0 (unit_label, _("thread")) == 0)
    return g_strdup_printf (ngettext ("%u thread", "%u threads", n), n);
  return g_strdup_printf (ngettext ("%u SM", "%u SMs", n), n);
}

static char *
tail_text (const TlBlockStats *s)
{
  if (!(s->tail_share > 0))
    return g_strdup (_("no tail: the last wave is full"));
  char pct[32];
  tl_format_percent (100.0 * s->tail_share, pct, sizeof pct);
  return g_strdup_printf (_("tail %s of the time"), pct);
}

char *
tl_block_stats_headline_short (const TlBlockStats *s, const char *unit_label)
{
  g_return_val_if_fail (s != NULL, NULL);

  g_autofree char *units = tl_block_count_units (s->n_units, unit_label ? unit_label : _("SM"));
  g_autofree char *blocks = g_strdup_printf (ngettext ("%zu block", "%zu blocks", s->n_blocks),
                                             s->n_blocks);
  g_autofree char *waves = g_strdup_printf (ngettext ("%u wave", "%u waves", s->n_waves), s->n_waves);
  g_autofree char *tail = tail_text (s);
  /* TRANSLATORS: "256 blocks on 132 SMs · 2 waves · tail 38% of the time" */
  return g_strdup_printf (_("%s on %s · %s · %s"), blocks, units, waves, tail);
}

char *
tl_block_stats_headline (const TlBlockStats *s, const char *unit_label)
{
  g_return_val_if_fail (s != NULL, NULL);

  const char *u = unit_label ? unit_label : _("SM");
  TlBlockStatsText t;
  tl_block_stats_text (s, &t);
  g_autofree char *units = tl_block_count_units (s->n_units, u);
  g_autofree char *blocks = g_strdup_printf (ngettext ("%zu block", "%zu blocks", s->n_blocks),
                                             s->n_blocks);
  g_autofree char *waves = g_strdup_printf (ngettext ("%u wave", "%u waves", s->n_waves), s->n_waves);
  g_autofree char *capacity = g_strdup_printf (ngettext ("up to %u block", "up to %u blocks",
                                                         s->capacity), s->capacity);
  g_autofree char *tail = tail_text (s);

  /* TRANSLATORS: "256 blocks on 132 SMs · 2 waves of up to 264 blocks (2 per SM) ·
   * 1.94 blocks per SM · tail 38% of the time" */
  g_autofree char *head = g_strdup_printf (_("%s on %s · %s of %s (%u per %s) · %s blocks per %s · %s"),
                                           blocks, units, waves, capacity, s->slots, u, t.per_unit,
                                           u, tail);
  if (!tl_block_stats_uneven (s))
    return g_steal_pointer (&head);
  /* TRANSLATORS: added where one unit ran far more blocks than the mean
   * says: "… · the busiest thread ran 64 blocks" */
  g_autofree char *busiest = g_strdup_printf (ngettext ("the busiest %s ran %u block",
                                                        "the busiest %s ran %u blocks",
                                                        s->max_blocks_per_unit),
                                              u, s->max_blocks_per_unit);
  return g_strdup_printf ("%s · %s", head, busiest);
}

gboolean
tl_block_stats_uneven (const TlBlockStats *s)
{
  g_return_val_if_fail (s != NULL, FALSE);
  double mean = s->blocks_per_unit;
  return s->max_blocks_per_unit >= ceil (mean) + 2 && s->max_blocks_per_unit >= 1.25 * mean;
}

char *
tl_block_stats_summary (const TlBlockStats *s, const char *unit_label)
{
  g_return_val_if_fail (s != NULL, NULL);

  TlBlockStatsText t;
  tl_block_stats_text (s, &t);
  g_autofree char *head = tl_block_stats_headline (s, unit_label);
  return g_strdup_printf (_("%s · block time min %s, median %s, max %s · span %s"), head, t.min,
                          t.median, t.max, t.span);
}

void
tl_block_tile_extent (guint block_x, guint block_y, guint tile_m, guint tile_n,
                      gsize m, gsize n, gsize *row0, gsize *rows, gsize *col0, gsize *cols)
{
  gsize r0 = (gsize) block_y * tile_m, c0 = (gsize) block_x * tile_n;
  r0 = MIN (r0, m);
  c0 = MIN (c0, n);
  if (row0)
    *row0 = r0;
  if (rows)
    *rows = MIN ((gsize) tile_m, m - r0);
  if (col0)
    *col0 = c0;
  if (cols)
    *cols = MIN ((gsize) tile_n, n - c0);
}
