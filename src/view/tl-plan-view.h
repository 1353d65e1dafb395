/* tl-plan-view.h — a planned rung's plan, laid on C's tiles.
 *
 * The fastest rung of each precision plans its launch per problem (the
 * cost model of gpu/tl-gpu-plan.c; the record keeps the plan,
 * docs/run-record.md "plan").  This is what the Blocks page and
 * `render --view blocks` draw of it: the grid of C tiles at the plan's
 * tile size, which tiles run in the last wave, and the numbers in words.
 *
 * Launch order.  The planned rungs number units of work band by band
 * (gpu/gemm/tl-wgmma.cuh, TlTileSchedule): a band is `raster` unit-rows
 * (0: one, i.e. row order), and inside a band the units go down the rows
 * first, then on to the next column.  A unit is one tile, or for a
 * multicast pair (cluster 2 without a split of k) two tiles stacked along
 * m.  Each unit is `cluster` CTAs (the slices of k of one tile, or the
 * pair), and the GPU runs `slots` CTAs at once: unit u runs in wave
 * ⌊u · cluster / slots⌋.  The last wave is the one the plan's idle SMs
 * belong to.
 */
#pragma once

#include <glib.h>
#include "record/tl-record.h"

G_BEGIN_DECLS

typedef struct
{
  guint tiles_m, tiles_n;       /* C tiles along m (rows) and n (columns) */
  guint tile_m, tile_n;         /* C elements per tile */
  guint splits, k_per_split, cluster;
  guint work, slots, waves;
  guint last_wave_tiles;        /* tiles with a CTA in the last wave */
  guint idle_sms, idle_sms_default, sm_count; /* sm_count 0: unknown */
  double last_wave_fill;        /* 0..1 */
  gboolean pinned;
  gboolean predicted;            /* the model's choice before a run, not a record's */
  guint8 *last_wave;            /* tiles_m × tiles_n, row-major: 1 when in the last wave */
  char *name;                   /* "128x128/s4" */
  char *why;                    /* the record's sentence (English, as the model wrote it) */
  char *summary;                /* the numbers in one line, translated */
  char *legend;                 /* what the marked tiles are, translated */
} TlPlanView;

/* The plan of run (a GEMM run of an m×k×n job) on a GPU of sm_count SMs
 * (0: unknown), or NULL when the run has no plan or the plan does not
 * fit the job (a tile of zero, no tiles). */
TlPlanView *tl_plan_view_new  (const TlKernelRun *run, gsize m, gsize k, gsize n, guint sm_count);
/* The same for a run of a record (its job and device). */
TlPlanView *tl_plan_view_new_for_record (const TlRunRecord *record, const TlKernelRun *run);
/* The plan kernel_id would run for m×k×n on the GPU of facts (NULL: an
 * H200's 132 SMs), as the cost model chooses it before a run; NULL for a
 * rung that is not planned. */
TlPlanView *tl_plan_view_predict (const char *kernel_id, gsize m, gsize k, gsize n,
                                  const TlGpuFacts *facts);
void        tl_plan_view_free (TlPlanView *view);

/* Whether C tile (tile_x along n, tile_y along m) runs in the last wave. */
gboolean    tl_plan_view_in_last_wave (const TlPlanView *view, guint tile_x, guint tile_y);

/* The cost model in words for the planned rung's header (the Source page):
 * what the plan chose for this run and why, several sentences, translated. */
char       *tl_plan_view_explain (const TlPlanView *view, gsize m, gsize k, gsize n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlPlanView, tl_plan_view_free)

G_END_DECLS
