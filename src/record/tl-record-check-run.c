/* tl-record-check-run.c — what a kernel's run says together: its plan
 * against the job's sizes, its block records against the tile grid.
 *
 * The reader (tl-record-read-run.c) has checked every number on its own;
 * these checks refuse a run whose numbers contradict each other, which a
 * view would otherwise draw as if they were true: a plan whose tile count
 * is not the tiles of C, a block on a tile C does not have, one tile of
 * one launch recorded twice.  Several records for one C tile are right
 * where they differ in `launch`: a multi-launch rung's launches, or a
 * split-k plan's slices of k (the slice is its block's `launch`).
 *
 * A user's own kernel (gemm/tl-user-kernel.h) names its tiles itself and
 * may launch more blocks than C has tiles, or several blocks per tile:
 * its records are what it wrote, bounded by the reader's size checks only. */
#include "record/tl-record-private.h"

#include "core/tl-json-read.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

/* Plans count tiles and CTAs up to this (gpu/tl-gpu-plan.c clamps to it). */
#define PLAN_MAX_COUNT (1 << 28)

static gint64
ceil_div (gint64 a, gint64 b)
{
  return (a + b - 1) / b;
}

/* Whether the plan's member name was in the record (older plans lack some). */
static gboolean
has (JsonObject *plan, const char *name)
{
  return json_object_has_member (plan, name);
}

gboolean
tl_record_check_plan (JsonObject *obj, const char *path, TlGpuGemmPlan *p, const TlJob *job,
                      GError **error)
{
  const struct { const char *name; int value; } sizes[] = {
    { "tile_m", p->tile_m }, { "tile_n", p->tile_n }, { "splits", p->splits },
  };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (sizes[i].value < 1)
      {
        g_autofree char *pm = tl_json_path (path, sizes[i].name);
        return tl_json_fail (error, pm, _("%d: a plan's tile and splits are at least 1"),
                             sizes[i].value);
      }
  /* an older plan lacks some of the counts the job makes: they are filled
   * in (written back as 0 they would contradict the job when read again) */
  gint64 tiles = MIN (ceil_div (job->m, p->tile_m) * ceil_div (job->n, p->tile_n),
                      PLAN_MAX_COUNT);
  gint64 k_per_split = ceil_div (job->k, p->splits); /* k ≤ G_MAXINT32 */
  if (!has (obj, "tiles"))
    p->tiles = (int) tiles;
  else if (p->tiles != tiles)
    {
      g_autofree char *pt = tl_json_path (path, "tiles");
      return tl_json_fail (error, pt, _("%d, but a %zu×%zu C has %" PRId64 " tiles of %d×%d"),
                           p->tiles, job->m, job->n, tiles, p->tile_m, p->tile_n);
    }
  if (!has (obj, "k_per_split"))
    p->k_per_split = (int) k_per_split;
  else if (p->k_per_split != k_per_split)
    {
      g_autofree char *pk = tl_json_path (path, "k_per_split");
      return tl_json_fail (error, pk, _("%d, but k = %zu cut in %d slices makes %" PRId64),
                           p->k_per_split, job->k, p->splits, k_per_split);
    }
  /* a CTA's work is a tile and a slice of k; a multicast pair (cluster
   * of an unsplit plan) takes a lone last tile as a pair */
  if (has (obj, "cluster") && p->cluster >= 1)
    {
      gint64 units = p->splits > 1 ? tiles : ceil_div (tiles, p->cluster);
      gint64 work = MIN (units * p->cluster, PLAN_MAX_COUNT);
      if (!has (obj, "work"))
        p->work = (int) work;
      else if (p->work != work)
        {
          g_autofree char *pw = tl_json_path (path, "work");
          return tl_json_fail (error, pw, _("%d, but %" PRId64 " tiles in %d slices of k, "
                                            "%d CTAs per cluster, make %" PRId64),
                               p->work, tiles, p->splits, p->cluster, work);
        }
    }
  return TRUE;
}

/* The tile of block i in the form the messages name it. */
static char *
block_path (const char *path, const char *column, gsize i)
{
  return g_strdup_printf ("%s.%s[%zu]", path, column, i);
}

/* Every block on a tile of C: tiles_x × tiles_y tiles of tile_m × tile_n,
 * or the same grid transposed (rung 01 puts C's rows on blockIdx.x). */
static gboolean
check_on_tiles (const TlKernelRun *run, const TlJob *job, const char *path, GError **error)
{
  const guint64 tiles_x = ceil_div (job->n, run->block_tile_n);
  const guint64 tiles_y = ceil_div (job->m, run->block_tile_m);
  guint64 max_x = 0, max_y = 0;
  for (gsize i = 0; i < run->n_blocks; i++)
    {
      max_x = MAX (max_x, run->blocks[i].block_x);
      max_y = MAX (max_y, run->blocks[i].block_y);
    }
  if ((max_x < tiles_x && max_y < tiles_y) || (max_x < tiles_y && max_y < tiles_x))
    return TRUE;
  for (gsize i = 0; i < run->n_blocks; i++)
    {
      const TlBlockRecord *b = &run->blocks[i];
      if (b->block_x < tiles_x && b->block_y < tiles_y)
        continue;
      g_autofree char *p = block_path (path, b->block_x < tiles_x ? "block_y" : "block_x", i);
      return tl_json_fail (error, p, _("tile (%u, %u) lies outside the %" PRIu64 "×%" PRIu64
                                       " tiles of %u×%u that make a %zu×%zu C"),
                           b->block_x, b->block_y, tiles_x, tiles_y, run->block_tile_m,
                           run->block_tile_n, job->m, job->n);
    }
  return TRUE;
}

static int
by_tile (gconstpointer a, gconstpointer b, gpointer data)
{
  const TlBlockRecord *blocks = data;
  const TlBlockRecord *x = &blocks[*(const guint32 *) a], *y = &blocks[*(const guint32 *) b];
  if (x->launch != y->launch)
    return x->launch < y->launch ? -1 : 1;
  if (x->block_y != y->block_y)
    return x->block_y < y->block_y ? -1 : 1;
  if (x->block_x != y->block_x)
    return x->block_x < y->block_x ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

/* No tile of one launch (or slice of k) recorded twice. */
static gboolean
check_each_once (const TlKernelRun *run, const char *path, GError **error)
{
  if (run->n_blocks < 2)
    return TRUE;
  g_autofree guint32 *order = g_new (guint32, run->n_blocks);
  for (gsize i = 0; i < run->n_blocks; i++)
    order[i] = (guint32) i;
  g_qsort_with_data (order, (gint) run->n_blocks, sizeof *order, by_tile, run->blocks);
  for (gsize i = 1; i < run->n_blocks; i++)
    {
      const TlBlockRecord *a = &run->blocks[order[i - 1]], *b = &run->blocks[order[i]];
      if (a->launch == b->launch && a->block_y == b->block_y && a->block_x == b->block_x)
        {
          g_autofree char *p = block_path (path, "block_x", order[i]);
          return tl_json_fail (error, p, _("tile (%u, %u) of launch %u is recorded twice "
                                           "(also at [%u])"),
                               b->block_x, b->block_y, b->launch, order[i - 1]);
        }
    }
  return TRUE;
}

gboolean
tl_record_check_blocks (const TlKernelRun *run, const TlJob *job, const char *path,
                        gboolean own_kernel, GError **error)
{
  if (!own_kernel || run->n_blocks == 0)
    return TRUE;
  if (run->has_plan && run->block_tile_m > 0
      && (run->block_tile_m != (guint) run->plan.tile_m
          || run->block_tile_n != (guint) run->plan.tile_n))
    {
      g_autofree char *p = tl_json_path (path, "tile_m");
      return tl_json_fail (error, p, _("tiles of %u×%u, but the run's plan has %d×%d"),
                           run->block_tile_m, run->block_tile_n, run->plan.tile_m,
                           run->plan.tile_n);
    }
  /* a planned run's blocks name their slice of k in `launch` */
  for (gsize i = 0; run->has_plan && i < run->n_blocks; i++)
    if (run->blocks[i].launch >= (guint) run->plan.splits)
      {
        g_autofree char *p = block_path (path, "launch", i);
        return tl_json_fail (error, p, _("slice %u of k, but the run's plan cuts k in %d"),
                             run->blocks[i].launch, run->plan.splits);
      }
  if (run->block_tile_m > 0 && !check_on_tiles (run, job, path, error))
    return FALSE;
  return check_each_once (run, path, error);
}
