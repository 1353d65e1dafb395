/* tl-block-stats.h — what the per-block records of one kernel run say.
 *
 * From the blocks (GPU thread blocks or CPU tiles) of an instrumented run
 * and the number of units that ran them (SMs, or CPU threads): how many
 * blocks, how they fell into waves, how many per unit, how long the tail
 * of the last, partial wave was, and the spread of block times.
 *
 * Waves: a GPU runs at most `slots` blocks per SM at once (the occupancy
 * calculator's active blocks per SM), so capacity = slots × SMs blocks
 * run together.  Blocks are taken in the order they started: the first
 * `capacity` form wave 0, the next wave 1, and so on — the textbook
 * ceil(blocks / capacity).  When the occupancy is unknown, the capacity
 * is what the records show: the most blocks that ever ran at once.  A
 * multi-launch kernel gets its waves per launch, numbered on.
 *
 * The tail: when the last wave is partial (fewer blocks than capacity),
 * most units idle while it runs; tail share = (end of the kernel − start
 * of the last wave) / span.  A full last wave has no tail (share 0).
 *
 * Every block also gets a slot: a sub-lane of its unit in which it did
 * not overlap another block (the timeline draws concurrent blocks of one
 * SM one above the other).
 */
#pragma once

#include <glib.h>
#include "record/tl-record.h"

G_BEGIN_DECLS

typedef struct
{
  gsize n_blocks;          /* blocks selected (launch filter) */
  guint n_launches;        /* distinct launches among all records */
  gint launch;             /* the selection: -1 = every launch */
  guint n_units;           /* SMs or threads (lanes); ≥ max unit + 1 */
  guint units_used;        /* units that ran at least one selected block */
  guint slots;             /* blocks per unit at once (occupancy) */
  gboolean slots_measured; /* slots came from the records, not the launch facts */
  guint capacity;          /* blocks per wave = slots × n_units (per launch) */
  guint n_waves;
  guint last_wave_blocks;  /* blocks of the last wave */
  gboolean last_wave_partial;
  guint tail_wave;         /* the last wave's index (valid when partial) */
  double blocks_per_unit;  /* n_blocks / n_units */
  guint max_blocks_per_unit;
  guint64 t0_ns, t1_ns;    /* earliest start, latest end of the selection */
  guint64 span_ns;         /* t1 − t0 */
  guint64 tail_start_ns;   /* start of the last partial wave (t1 when none) */
  double tail_share;       /* (t1 − tail_start) / span, 0 when no partial wave */
  guint64 min_ns, median_ns, max_ns; /* block durations */
  double mean_ns;
  guint grid_x, grid_y;    /* tiles: max block_x + 1, max block_y + 1 (all launches) */
  guint max_slot;          /* sub-lanes needed per unit (≥ 1) */

  /* per record (indexed like the input array); G_MAXUINT when not selected */
  guint *wave;
  guint *slot;
  gsize n_records;
} TlBlockStats;

/* n_units: SMs on the device or CPU threads (0: from the records).
 * slots_per_unit: resident blocks per unit (0: measured from the records).
 * launch: -1 for all launches, else only that launch's blocks. */
TlBlockStats *tl_block_stats_new  (const TlBlockRecord *blocks, gsize n_blocks,
                                   guint n_units, guint slots_per_unit, gint launch);
/* Units and slots from the record: the device's SM count and the launch
 * facts' active blocks per SM for GPU runs, the run's threads (1 slot) for
 * CPU runs.  NULL with TL_ERROR_INVALID when the run has no block records. */
TlBlockStats *tl_block_stats_new_for_run (const TlRunRecord *record, const TlKernelRun *run,
                                          gint launch, GError **error);
void          tl_block_stats_free (TlBlockStats *stats);

/* Is record i in the selection? */
static inline gboolean
tl_block_stats_selected (const TlBlockStats *stats, gsize i)
{
  return i < stats->n_records && stats->wave[i] != G_MAXUINT;
}

/* "sm" runs are labelled "SM", "thread" runs "thread". */
const char   *tl_block_unit_label (const char *block_unit);
/* "1 thread", "16 threads", "132 SMs" (plural forms through ngettext);
 * unit_label as tl_block_unit_label gives it. */
char         *tl_block_count_units (guint n, const char *unit_label);
/* The first summary line: "256 blocks on 132 SMs · 2 waves of up to 264
 * blocks (2 per SM) · 1.94 blocks per SM · tail 38% of the time". */
char         *tl_block_stats_headline (const TlBlockStats *stats, const char *unit_label);
/* TRUE where the busiest unit ran clearly more blocks than the mean (a CPU
 * thread that took every tile while the other waited): the headline says so */
gboolean      tl_block_stats_uneven   (const TlBlockStats *stats);
/* Its short form, where the whole line would be cut: "256 blocks on 132
 * SMs · 2 waves · tail 38% of the time". */
char         *tl_block_stats_headline_short (const TlBlockStats *stats, const char *unit_label);

/* A short summary for a caption or the terminal:
 * "256 blocks on 132 SMs · 2 waves (264 per wave) · 1.94 blocks/SM · tail 38% ·
 *  block time min 41.0 µs, median 52.1 µs, max 60.3 µs · span 120 µs" */
char         *tl_block_stats_summary (const TlBlockStats *stats, const char *unit_label);

/* The times of a summary with their units ("2.91 ms") and blocks per unit
 * ("%.0f" from 10 on, else "%.2f"), for the summary and the timeline. */
typedef struct
{
  char min[32], median[32], max[32], span[32];
  char per_unit[G_ASCII_DTOSTR_BUF_SIZE];
} TlBlockStatsText;
void          tl_block_stats_text (const TlBlockStats *stats, TlBlockStatsText *out);

/* The C elements a block's tile covers (for the linked highlight of the
 * rows of A and columns of B it read): rows [row0, row0+rows), columns
 * [col0, col0+cols), clipped to m×n. */
void          tl_block_tile_extent (guint block_x, guint block_y, guint tile_m, guint tile_n,
                                    gsize m, gsize n, gsize *row0, gsize *rows,
                                    gsize *col0, gsize *cols);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlBlockStats, tl_block_stats_free)

G_END_DECLS
