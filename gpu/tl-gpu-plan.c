/* tl-gpu-plan.c — the cost model of the planned GEMM rungs.
 *
 * Plain C, compiled with or without CUDA: the CLI and the app can list
 * and cost the plans of a record's problem on a laptop.  What a plan is:
 * tl-gpu.h (TlGpuGemmPlan); the tiles each rung offers:
 * gemm/tl-gemm-plans.h.
 *
 * The model, all of it.  A CTA's work is one C tile over one slice of k.
 * There are `work` = tiles × splits such CTAs (a multicast pair's lone
 * last tile still takes a pair); the GPU runs `slots` of them at once, and
 * the busiest SM works through `load` of them, `per_sm` at a time sharing
 * its rate.  The multiply takes
 *
 *     waves = ⌈work / slots⌉                                  rounds
 *     load  = ⌈work / (slots / per_sm)⌉                       CTAs on the busiest SM
 *     T     = LAUNCH + waves × (FILL · a^β + SPLIT) + BUSY + load × STORE + WRITE   µs
 *     BUSY  = max(load × MAIN, ⌈load / per_sm⌉ × MAIN / SOLO, load × FEED)
 *     MAIN  = 2 · tile_m · tile_n · k_slice / (R · eff)
 *     SOLO  = per_sm > 1 : the rung's SOLO, else 1
 *             (eff of a tile an SM holds several of is its rate with
 *             company: each k-tile's wait for its stage, its barrier and
 *             its fragment loads are a chain of latencies that the other
 *             CTAs on the SM fill.  A round of CTAs side by side on the
 *             busiest SM — one alone, or fewer than fill it — takes at
 *             least one CTA's k-loop alone, MAIN / SOLO.  FP64
 *             4096×4096×128: 64×64 tiles make 128 CTAs, one to an SM,
 *             measured 110 µs where their arithmetic at eff takes 82;
 *             with k cut in 2, two CTAs to an SM, 98 µs.  The rung's
 *             own, 1 where not fitted)
 *     FEED  = (tile_m + tile_n) · k_slice / (FEED_ELEMS · clock)
 *             (an SM takes in only so many operand elements a cycle from
 *             L2; a thin tile needs more of them per FLOP than the tensor
 *             cores can use — BF16 4096×4096×64: 64×32 tiles in pairs,
 *             192 bytes per k for 4096 FLOP, measured 21.7 µs, where 64×64
 *             with k cut in 2 took 18.6.  The rung's own, 0 where not
 *             fitted)
 *     SPLIT = splits > 1 : SPLIT_US · a^β (two cluster barriers and the
 *             partial tiles' exchange through distributed shared memory,
 *             which a smaller tile's fewer bytes shorten)
 *     STORE = unsplit, n not a multiple of 4 : tile_m · tile_n · SCALAR_NS
 *             (C's rows do not start on 16-byte boundaries, and the
 *             rung's own epilogue stores them element by element)
 *     WRITE = waves × min(work, slots) · tile_m · tile_n · C_PS / per_sm
 *             (a wave's tiles of C written to DRAM, C_PS the picoseconds
 *             one element takes at the copy bandwidth: an SM with one CTA
 *             has nothing to do while its tile drains, one with per_sm
 *             overlaps the rest with its other CTAs' loads and multiplies;
 *             only where k is small is this a visible part of the time —
 *             FP64 4096×64×4096: 128×128 measured 81 µs, one CTA an SM,
 *             64×128 and 64×64 63 µs, two and three — and it is the
 *             rung's own, 0 where not fitted)
 *     and where k or n is odd, the largest tile's eff × ODD_EFF (a rung
 *     whose copies then move one element at a time, and whose largest
 *     tile issues the most of them per thread: rung 15)
 *
 *   R      the SM's peak rate for the precision: FLOP per cycle (FFMA and
 *          DMMA: 256, TF32: 2048, BF16: 4096) × the SM clock;
 *   eff    the fraction of R the tile sustains (gemm/tl-gemm-plans.h: a
 *          larger tile reuses each operand more);
 *   per_sm CTAs of the plan's kernel an SM holds at once: the occupancy
 *          calculator's count on the device that runs it (the harness
 *          passes it in a TlGpuPlanResidency), else the tile list's;
 *   slots  per_sm × the SMs a launch can fill: all of them for CTAs
 *          alone or in pairs, but a cluster of 3 … 8 must sit inside one
 *          GPC, and each GPC takes only whole clusters (an H200 holds 31
 *          clusters of 4 = 124 SMs, 15 of 8 = 120, 15 of 7 = 105:
 *          clusters_that_fit).  With one CTA per SM
 *          `load` is `waves`; with three, a last round that gives some SMs
 *          one more CTA than others costs one CTA's share, not a round;
 *   FILL   a wave's start and finish that no arithmetic hides: the first
 *          stages' latency from DRAM, the pipeline's drain, the stores —
 *          for the rung's largest tile; a smaller one pays a^β of it, a
 *          its area over the largest's (β = 0: every tile alike).  At the
 *          small end this is most of the time: an SM must take in its
 *          tile's rows of A and columns of B before the tensor cores have
 *          anything to do, so a product of one wave runs faster on many
 *          CTAs with thin tiles than on a few with large ones (cuBLAS's
 *          small-product kernels do the same);
 *   LAUNCH the launch and the kernel's end as events see them.
 *
 * LAUNCH, FILL, β, SCALAR_NS and SPLIT_US are the rung's (its pipeline
 * and epilogue set them); they, eff and CLUSTER_FILL were fitted by least
 * squares on the logarithm of the time of every plan of every rung at 11
 * sizes, 256³ to 8192³ with skinny shapes and small k, on an H200, and
 * rungs 13 and 14's LAUNCH, FILL, SPLIT_US, β and smaller tiles' eff on
 * every plan of theirs at 256³ to 3000×2000×2500, and rung 15's on every
 * plan of its own at 256³ to 2048³ with the CTAs per SM the occupancy
 * calculator counts, held to its largest tile from 2048³ up (docs/perf/
 * gemm-plans-h200.md, gemm-tc-small-h200-2026-11-29.md,
 * gemm-lu-h200-2026-11-29-lecture.md: the fits' error and where they
 * miss; SOLO and FEED on every plan at the skinny shapes:
 * gemm-h200-2026-11-30-skinny.md).
 * The plan is the cheapest T; ties (within 1%) go to the plan listed
 * first (larger tile, fewer splits).  Nothing here knows a size by name:
 * 512³ gets a split of k because its 8 large tiles leave 124 of 132 SMs
 * idle, 8192³ keeps the large tile because its 16 waves are full.
 */
#include "tl-gpu.h"
#include "gemm/tl-gemm-plans.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CLUSTER_FILL 0.956  /* SMs that clusters of 3 … 8 CTAs can fill, at most */
#define TIE 0.01            /* a plan must be this much faster to beat an earlier one */
#define MAX_COUNT (1 << 28) /* tiles and CTAs are counted up to this */

typedef struct
{
  int tile_m, tile_n, per_sm;
  double eff;
  int max_splits;
} PlanTile;

typedef struct
{
  const char *id;
  double flop_per_cycle;   /* per SM, the precision's peak */
  double launch_us, fill_us, split_us;   /* LAUNCH, FILL, SPLIT_US of the header */
  double fill_exponent;    /* β: a smaller tile's FILL and SPLIT are FILL, SPLIT_US · (its area /
                              the largest's)^β */
  double scalar_store_ns;  /* SCALAR_NS: per C element an unsplit plan stores one by one */
  double write_ps;         /* C_PS: per C element a wave writes to DRAM (0: not counted) */
  int pair;                /* unsplit plans run as clusters of this many CTAs (multicast) */
  int raster_rows;         /* launch order: bands of this many rows of C (0: row order),
                              or, negative, of −raster_rows tile-rows */
  const PlanTile *tiles;
  int n_tiles;
  double odd_eff;          /* ODD_EFF: the largest tile's eff × this when k or n is odd (0: × 1) */
  double solo;             /* SOLO: the part of a tile's eff one CTA keeps alone on an SM that
                              could hold several (0: all of it) */
  double feed_elems;       /* FEED_ELEMS: operand elements an SM takes in per cycle (0: no limit) */
  int every_split;         /* its kernel sums any count of slices up to the tile's max_splits
                              (1), or only 2, 4 and 8 (0: not yet measured at other counts) */
} PlannedRung;

#define TILE(bm, bn, per_sm, eff, max_splits) { bm, bn, per_sm, eff, max_splits },
static const PlanTile tiles_16[] = { TL_GEMM_16_TILES (TILE) };
static const PlanTile tiles_17[] = { TL_GEMM_17_TILES (TILE) };
static const PlanTile tiles_13[] = { TL_GEMM_13_TILES (TILE) };
static const PlanTile tiles_14[] = { TL_GEMM_14_TILES (TILE) };
static const PlanTile tiles_15[] = { TL_GEMM_15_TILES (TILE) };
#undef TILE

#define N_OF(a) ((int) (sizeof (a) / sizeof (a)[0]))

static const PlannedRung planned[] = {
  { "gemm-16-doublebuf", 256.0, 3.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1, 0, tiles_16, N_OF (tiles_16) },
  { "gemm-17-simt-tma", 256.0, 3.3, 2.4, 2.5, 0.0, 0.0, 0.0, 1, -8, tiles_17, N_OF (tiles_17) },
  { "gemm-13-wgmma-tf32", 2048.0, 2.8, 7.8, 3.4, 0.5, 0.0, 0.0, 2, 2048, tiles_13, N_OF (tiles_13) },
  /* rung 14's FEED_ELEMS: 32 bytes of BF16 per SM cycle, where every plan
   * measured at eleven shapes (256³ … 8192×4096×64, 2026-11-29/30) is best
   * replayed: the term moves 64×32 pairs off the shapes of n or m = 64 */
  { "gemm-14-wgmma-persistent", 4096.0, 3.8, 4.4, 4.1, 0.55, 0.5, 0.0, 2, 2048, tiles_14,
    N_OF (tiles_14), 0.0, 0.0, 16.0 },
  /* rung 15's C_PS: 8 bytes at the H200's 4.3 TB/s copy bandwidth; its
   * SOLO: 64×64 alone on its SM at 4096×4096×128, 81.7 µs of arithmetic
   * at eff measured as 104.7 µs of loop */
  { "gemm-15-dmma-f64", 256.0, 2.6, 2.4, 3.7, 0.0, 0.77, 1.86, 1, -8, tiles_15, N_OF (tiles_15),
    0.72, 0.78, 0.0, 1 },
};

/* k is cut into at most 8 slices: a cluster holds at most 8 CTAs (the
 * portable limit), and one cluster sums one tile.  A rung with
 * every_split takes any count (k in thirds: 3 CTAs to a tile), the others
 * the powers of two. */
#define MAX_SPLITS 8

static const PlannedRung *
planned_find (const char *kernel_id)
{
  for (int i = 0; kernel_id != NULL && i < N_OF (planned); i++)
    if (strcmp (planned[i].id, kernel_id) == 0)
      return &planned[i];
  return NULL;
}

/* Plan `index` of rung r: its tile and split (tiles in list order, each
 * with the splits it allows).  FALSE past the last plan. */
static int
plan_at (const PlannedRung *r, int index, const PlanTile **tile, int *splits)
{
  for (int t = 0; t < r->n_tiles; t++)
    for (int s = 1; s <= r->tiles[t].max_splits && s <= MAX_SPLITS; s++)
      if ((r->every_split || (s & (s - 1)) == 0) && index-- == 0)
        {
          *tile = &r->tiles[t];
          *splits = s;
          return 1;
        }
  return 0;
}

int
tl_gpu_gemm_plan_count (const char *kernel_id)
{
  const PlannedRung *r = planned_find (kernel_id);
  int count = 0;
  const PlanTile *t;
  int s;
  while (r != NULL && plan_at (r, count, &t, &s))
    count++;
  return count;
}

static int
ceil_div (long a, long b)
{
  return (int) ((a + b - 1) / b);
}

/* Clusters of `cluster` CTAs, `per_sm` to an SM, that a GPU holds at
 * once.  A cluster sits inside one GPC, so each GPC takes ⌊its SMs ·
 * per_sm / cluster⌋ and the SMs left over in it stay idle.  An H100/H200's
 * 132 SMs are taken as GPCs of 18, 18, 18, 18, 16, 16, 16 and 12: the
 * layout that gives the 31 clusters of 4 and 15 of 8 the occupancy
 * calculator counts on an H200 with one CTA an SM, and 15 of 7 (FP64
 * 2048×4096×128: 16 clusters of 7 128×128 CTAs measured 104 µs, two
 * rounds, where 16 of 6 took 62).  Counted also the older way, CLUSTER_FILL
 * of the SMs, and the fewer taken; another SM count has that alone. */
static int
clusters_that_fit (int sms, int cluster, int per_sm)
{
  static const int gpc_sms[] = { 18, 18, 18, 18, 16, 16, 16, 12 };
  const int usable = cluster > 2 ? (int) (sms * CLUSTER_FILL) : sms;
  int fit = usable / cluster * per_sm;
  if (cluster > 2 && sms == 132)
    {
      int by_gpc = 0;
      for (int g = 0; g < N_OF (gpc_sms); g++)
        by_gpc += gpc_sms[g] * per_sm / cluster;
      fit = by_gpc < fit ? by_gpc : fit;
    }
  return fit > 0 ? fit : 1;
}

/* Slots, waves, the last wave's fill and its idle SMs for `work` CTAs
 * of which an SM holds `per_sm`; returns the busiest SM's CTAs (load). */
static int
count_waves (TlGpuGemmPlan *p, int sms, int per_sm)
{
  p->ctas_per_sm = per_sm;
  p->slots = clusters_that_fit (sms, p->cluster, per_sm) * p->cluster;
  /* the SMs a full wave fills */
  const int filled = ceil_div (p->slots, per_sm);
  p->waves = ceil_div (p->work, p->slots);
  const int last = p->work - (p->waves - 1) * p->slots;
  p->last_wave_fill = (double) last / p->slots;
  /* the block scheduler spreads a wave over the SMs before it doubles up */
  p->idle_sms = last < sms ? sms - last : 0;
  return ceil_div (p->work, filled);
}

static double
model_us (const PlannedRung *r, const PlanTile *t, const TlGpuGemmPlan *p, int n, int k, int load,
          double clock_ghz)
{
  const double area = (double) t->tile_m * t->tile_n;
  const int odd = r->odd_eff > 0.0 && t == &r->tiles[0] && (n % 2 != 0 || k % 2 != 0);
  const double eff = t->eff * (odd ? r->odd_eff : 1.0);
  const double rate = r->flop_per_cycle * clock_ghz * 1e3 * eff; /* FLOP/µs of an SM */
  const double main_loop = 2.0 * area * (double) p->k_per_split / rate;
  const double largest = (double) r->tiles[0].tile_m * r->tiles[0].tile_n;
  const double shrink = pow (area / largest, r->fill_exponent);   /* a^β */
  const double fill = r->fill_us * shrink;
  const double split = p->splits > 1 ? r->split_us * shrink : 0.0;
  const double store = p->splits == 1 && n % 4 != 0 ? area * r->scalar_store_ns * 1e-3 : 0.0;
  const int per_wave = p->work < p->slots ? p->work : p->slots;
  const int per_sm = p->ctas_per_sm > 0 ? p->ctas_per_sm : 1;
  const double write = p->waves * (double) per_wave * area * r->write_ps * 1e-6 / per_sm;
  /* the busiest SM: its CTAs' arithmetic at the tile's rate, its rounds
   * of CTAs side by side, each no faster than one CTA alone, or the
   * operands it must take in, whichever takes longest */
  const double alone = per_sm > 1 && r->solo > 0.0 ? main_loop / r->solo : main_loop;
  const double feed = r->feed_elems > 0.0 ? (double) (t->tile_m + t->tile_n) * p->k_per_split
                                              / (r->feed_elems * clock_ghz * 1e3)
                                          : 0.0;
  const double busy = fmax (fmax (load * main_loop, ceil_div (load, per_sm) * alone), load * feed);
  return r->launch_us + p->waves * (fill + split) + busy + load * store + write;
}

/* The plan's geometry and cost, without the sentence. */
static void
plan_fill (const PlannedRung *r, const PlanTile *t, int splits, int m, int n, int k, int sms,
           double clock_ghz, int per_sm, TlGpuGemmPlan *p)
{
  memset (p, 0, sizeof *p);
  p->tile_m = t->tile_m;
  p->tile_n = t->tile_n;
  p->splits = splits;
  p->cluster = splits > 1 ? splits : r->pair;
  /* counts beyond what a GPU can run (a hand-made record's sizes) are
   * clamped, not overflowed */
  const long long tiles = (long long) ceil_div (m, t->tile_m) * ceil_div (n, t->tile_n);
  p->tiles = (int) (tiles < MAX_COUNT ? tiles : MAX_COUNT);
  /* a pair computes two neighbouring tiles: a lone last tile still takes a pair */
  const int units = ceil_div (p->tiles, splits > 1 ? 1 : r->pair);
  const long long work = (long long) units * p->cluster;
  p->work = (int) (work < MAX_COUNT ? work : MAX_COUNT);
  p->k_per_split = ceil_div (k, splits);
  if (r->raster_rows > 0)
    {
      const int unit_rows = t->tile_m * (splits > 1 ? 1 : r->pair);
      p->raster = r->raster_rows / unit_rows > 1 ? r->raster_rows / unit_rows : 1;
    }
  else
    p->raster = -r->raster_rows;
  if (splits > 1)
    snprintf (p->name, sizeof p->name, "%dx%d/s%d", t->tile_m, t->tile_n, splits);
  else if (r->pair > 1)
    snprintf (p->name, sizeof p->name, "%dx%d/c%d", t->tile_m, t->tile_n, r->pair);
  else
    snprintf (p->name, sizeof p->name, "%dx%d", t->tile_m, t->tile_n);
  const int load = count_waves (p, sms, per_sm > 0 ? per_sm : t->per_sm);
  p->model_us = model_us (r, t, p, n, k, load, clock_ghz);
}

static void
device_of (const TlGpuFacts *facts, int *sms, double *clock_ghz)
{
  *sms = facts != NULL && facts->sm_count > 0 ? facts->sm_count : 132;
  *clock_ghz = facts != NULL && facts->clock_khz > 0 ? facts->clock_khz / 1e6 : 1.98;
}

/* The residency of plan `index` on the device (0: not known). */
static int
resident (const TlGpuPlanResidency *residency, int index)
{
  return residency != NULL && index < TL_GPU_PLANS_MAX ? residency->ctas_per_sm[index] : 0;
}

int
tl_gpu_gemm_plan_nth_resident (const char *kernel_id, int index, int m, int n, int k,
                               const TlGpuFacts *facts, const TlGpuPlanResidency *residency,
                               TlGpuGemmPlan *out)
{
  const PlannedRung *r = planned_find (kernel_id);
  const PlanTile *tile;
  int splits;
  if (r == NULL || index < 0 || m < 1 || n < 1 || k < 1 || !plan_at (r, index, &tile, &splits))
    return 0;
  int sms;
  double ghz;
  device_of (facts, &sms, &ghz);
  plan_fill (r, tile, splits, m, n, k, sms, ghz, resident (residency, index), out);
  /* clusters, and so split-k, need compute capability 9.0 */
  if (out->splits > 1 && facts != NULL && facts->cc_major > 0 && facts->cc_major < 9)
    return 0;
  /* what the rung's own shape (plan 0) would leave idle */
  TlGpuGemmPlan unplanned;
  plan_fill (r, &r->tiles[0], 1, m, n, k, sms, ghz, resident (residency, 0), &unplanned);
  out->idle_sms_default = unplanned.idle_sms;
  return 1;
}

int
tl_gpu_gemm_plan_nth (const char *kernel_id, int index, int m, int n, int k,
                      const TlGpuFacts *facts, TlGpuGemmPlan *out)
{
  return tl_gpu_gemm_plan_nth_resident (kernel_id, index, m, n, k, facts, NULL, out);
}

/* One sentence: what the largest tile would do, and what this plan does
 * instead (or that it keeps the largest tile). */
static void
plan_explain (TlGpuGemmPlan *p, const TlGpuGemmPlan *base, int m, int n, int k, int sms)
{
  if (p->pinned)
    snprintf (p->why, sizeof p->why,
              "Pinned by hand: %d CTAs in %d wave%s, %d of %d SMs idle in the last; the model "
              "estimates %.1f µs for it and %.1f µs for the largest tile.",
              p->work, p->waves, p->waves == 1 ? "" : "s", p->idle_sms, sms, p->model_us,
              base->model_us);
  else if (strcmp (p->name, base->name) == 0)
    snprintf (p->why, sizeof p->why,
              "%d×%d×%d fills %d wave%s of %d×%d tiles (the last %.0f%% full): smaller tiles or a "
              "split of k would only add work.",
              m, k, n, p->waves, p->waves == 1 ? "" : "s", p->tile_m, p->tile_n,
              100.0 * p->last_wave_fill);
  else
    {
      char cut[32] = "";
      if (p->splits > 1)
        snprintf (cut, sizeof cut, " with k cut in %d", p->splits);
      snprintf (p->why, sizeof p->why,
              "%d×%d tiles would make %d CTAs and leave %d of %d SMs idle; %d×%d tiles%s give %d "
              "CTAs, %d to an SM at once, with %d idle (%.1f µs against %.1f µs by the model).",
              base->tile_m, base->tile_n, base->work, base->idle_sms, sms, p->tile_m, p->tile_n,
              cut, p->work, p->ctas_per_sm, p->idle_sms, p->model_us, base->model_us);
    }
}

TlGpuStatus
tl_gpu_gemm_plan_choose (const char *kernel_id, int m, int n, int k, const TlGpuFacts *facts,
                         const char *pinned, TlGpuGemmPlan *out)
{
  return tl_gpu_gemm_plan_choose_resident (kernel_id, m, n, k, facts, NULL, pinned, out);
}

TlGpuStatus
tl_gpu_gemm_plan_choose_resident (const char *kernel_id, int m, int n, int k,
                                  const TlGpuFacts *facts, const TlGpuPlanResidency *residency,
                                  const char *pinned, TlGpuGemmPlan *out)
{
  memset (out, 0, sizeof *out);
  const int count = tl_gpu_gemm_plan_count (kernel_id);
  const int asked = pinned != NULL && pinned[0] != '\0';
  if (count == 0)
    return asked ? TL_GPU_BAD_SHAPE : TL_GPU_OK;
  if (m < 1 || n < 1 || k < 1)
    return TL_GPU_OK;
  int sms;
  double ghz;
  device_of (facts, &sms, &ghz);
  TlGpuGemmPlan base, best, p;
  tl_gpu_gemm_plan_nth_resident (kernel_id, 0, m, n, k, facts, residency, &base);
  best = base;
  int found = !asked;
  for (int i = 0; i < count; i++)
    {
      if (!tl_gpu_gemm_plan_nth_resident (kernel_id, i, m, n, k, facts, residency, &p))
        continue;
      if (asked)
        {
          if (strcmp (p.name, pinned) == 0)
            {
              best = p;
              best.pinned = 1;
              found = 1;
            }
        }
      else if (p.model_us < best.model_us * (1.0 - TIE))
        best = p;
    }
  if (!found)
    return TL_GPU_BAD_SHAPE;
  plan_explain (&best, &base, m, n, k, sms);
  *out = best;
  return TL_GPU_OK;
}
