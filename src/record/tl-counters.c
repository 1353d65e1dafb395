/* tl-counters.c — a run's hardware counters, their views and their words. */
#include "record/tl-counters.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ---- the struct ---------------------------------------------------------- */

TlCounters *
tl_counters_new (TlGpuCountersState state, const char *message)
{
  TlCounters *c = g_new0 (TlCounters, 1);
  c->state = state;
  c->message = g_strdup (message);
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    c->value[i] = NAN;
  return c;
}

TlCounters *
tl_counters_new_from_gpu (const TlGpuCounters *gpu)
{
  g_return_val_if_fail (gpu != NULL, NULL);
  TlCounters *c = tl_counters_new (gpu->state,
                                   gpu->state == TL_GPU_COUNTERS_MEASURED ? NULL : gpu->message);
  c->chip = gpu->chip[0] != '\0' ? g_strdup (gpu->chip) : NULL;
  c->passes = gpu->passes;
  if (gpu->state == TL_GPU_COUNTERS_MEASURED)
    memcpy (c->value, gpu->value, sizeof c->value);
  return c;
}

TlCounters *
tl_counters_copy (const TlCounters *counters)
{
  if (counters == NULL)
    return NULL;
  TlCounters *c = g_memdup2 (counters, sizeof *counters);
  c->message = g_strdup (counters->message);
  c->chip = g_strdup (counters->chip);
  return c;
}

void
tl_counters_free (TlCounters *counters)
{
  if (counters == NULL)
    return;
  g_free (counters->message);
  g_free (counters->chip);
  g_free (counters);
}

static const struct
{
  TlGpuCountersState state;
  const char *name;
} state_names[] = {
  { TL_GPU_COUNTERS_MEASURED, "measured" },
  { TL_GPU_COUNTERS_UNAVAILABLE, "unavailable" },
  { TL_GPU_COUNTERS_NOT_PERMITTED, "not-permitted" },
  { TL_GPU_COUNTERS_FAILED, "failed" },
};

const char *
tl_counters_state_name (TlGpuCountersState state)
{
  for (guint i = 0; i < G_N_ELEMENTS (state_names); i++)
    if (state_names[i].state == state)
      return state_names[i].name;
  return NULL;
}

gboolean
tl_counters_state_from_name (const char *name, TlGpuCountersState *out)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (state_names); i++)
    if (strcmp (state_names[i].name, name) == 0)
      {
        *out = state_names[i].state;
        return TRUE;
      }
  return FALSE;
}

/* ---- derived facts ---------------------------------------------------------- */

#define V(c, ID) ((c)->value[TL_GPU_COUNTER_##ID])

/* a + b where NAN means "not counted": NAN only when both are */
static double
add_counted (double a, double b)
{
  if (isnan (a))
    return b;
  if (isnan (b))
    return a;
  return a + b;
}

/* The FLOPs of each kind of math, in the order of math_names. */
static void
flops_by_math (const TlCounters *c, double out[5])
{
  out[0] = add_counted (2.0 * V (c, FFMA), add_counted (V (c, FADD), V (c, FMUL)));
  out[1] = add_counted (2.0 * V (c, DFMA), add_counted (V (c, DADD), V (c, DMUL)));
  out[2] = V (c, TENSOR_FP64_OPS);
  out[3] = V (c, TENSOR_TF32_OPS);
  out[4] = V (c, TENSOR_BF16_OPS);
}

static const char *const math_names[5] = { "fp32", "fp64", "fp64-tensor", "tf32", "bf16" };

double
tl_counters_flops (const TlCounters *counters)
{
  g_return_val_if_fail (counters != NULL, NAN);
  double f[5];
  flops_by_math (counters, f);
  double sum = NAN;
  for (int i = 0; i < 5; i++)
    sum = add_counted (sum, f[i]);
  return sum > 0 ? sum : NAN;
}

const char *
tl_counters_math (const TlCounters *counters)
{
  g_return_val_if_fail (counters != NULL, NULL);
  double f[5];
  flops_by_math (counters, f);
  int best = -1;
  for (int i = 0; i < 5; i++)
    if (f[i] > 0 && (best < 0 || f[i] > f[best]))
      best = i;
  return best < 0 ? NULL : math_names[best];
}

double
tl_counters_dram_bytes (const TlCounters *counters)
{
  g_return_val_if_fail (counters != NULL, NAN);
  return V (counters, DRAM_READ_BYTES) + V (counters, DRAM_WRITE_BYTES);
}

/* num / den, NAN when den is not positive */
static double
ratio (double num, double den)
{
  return den > 0 ? num / den : NAN;
}

/* ---- views ------------------------------------------------------------------ */

struct TlCounterView
{
  const char *key;
  const char *title;       /* N_() */
  const char *explanation; /* N_() */
  TlCounterUnit unit;
  gboolean fewer_is_better;
  double (*compute) (const TlCounters *c, const TlGpuFacts *device);
};

static double
view_dram_bytes (const TlCounters *c, const TlGpuFacts *d)
{
  return tl_counters_dram_bytes (c);
}

static double
view_l2_bytes (const TlCounters *c, const TlGpuFacts *d)
{
  return V (c, L2_BYTES);
}

static double
view_l2_hit_rate (const TlCounters *c, const TlGpuFacts *d)
{
  return ratio (V (c, L2_HIT_SECTORS), V (c, L2_HIT_SECTORS) + V (c, L2_MISS_SECTORS));
}

static double
view_gld_sectors (const TlCounters *c, const TlGpuFacts *d)
{
  return ratio (V (c, GLD_SECTORS), V (c, GLD_REQUESTS));
}

static double
view_smem_wavefronts (const TlCounters *c, const TlGpuFacts *d)
{
  return V (c, SMEM_WAVEFRONTS);
}

static double
view_bank_conflicts (const TlCounters *c, const TlGpuFacts *d)
{
  return ratio (V (c, SMEM_BANK_CONFLICTS), V (c, SMEM_LOADS) + V (c, SMEM_STORES));
}

/* warps resident per active cycle over the most an SM can hold */
static double
view_occupancy (const TlCounters *c, const TlGpuFacts *d)
{
  if (d == NULL || d->warp_size <= 0 || d->max_threads_per_sm <= 0)
    return NAN;
  double max_warps = (double) d->max_threads_per_sm / d->warp_size;
  return ratio (V (c, WARPS_ACTIVE), V (c, SM_CYCLES_ACTIVE) * max_warps);
}

/* cycles in which a scheduler issued an instruction, of its active cycles */
static double
view_issue_active (const TlCounters *c, const TlGpuFacts *d)
{
  return ratio (V (c, ISSUE_ACTIVE), V (c, SMSP_CYCLES_ACTIVE));
}

static double
view_flops (const TlCounters *c, const TlGpuFacts *d)
{
  return tl_counters_flops (c);
}

static double
view_intensity (const TlCounters *c, const TlGpuFacts *d)
{
  return ratio (tl_counters_flops (c), tl_counters_dram_bytes (c));
}

static const TlCounterView views[] = {
  { "dram_bytes", N_("DRAM bytes"),
    N_("Bytes read from and written to the GPU's main memory; the lower bound is A and B read once and C written once."),
    TL_COUNTER_UNIT_BYTES, TRUE, view_dram_bytes },
  { "l2_bytes", N_("L2 bytes"),
    N_("Bytes the SMs asked of the L2 cache; a tile reused from shared memory or registers is not asked again."),
    TL_COUNTER_UNIT_BYTES, TRUE, view_l2_bytes },
  { "l2_hit_rate", N_("L2 hit rate"),
    N_("Share of L2 sector lookups served by the cache instead of DRAM."),
    TL_COUNTER_UNIT_FRACTION, FALSE, view_l2_hit_rate },
  { "gld_sectors_per_request", N_("sectors per global load"),
    N_("32-byte sectors one warp's global load touches: 4 when 32 neighbouring floats are read (coalesced), up to 32 when every thread reads elsewhere."),
    TL_COUNTER_UNIT_PER_REQUEST, TRUE, view_gld_sectors },
  { "smem_wavefronts", N_("shared-memory wavefronts"),
    N_("Passes the 32 shared-memory banks needed to serve all loads and stores; bank conflicts and wide accesses add passes."),
    TL_COUNTER_UNIT_COUNT, TRUE, view_smem_wavefronts },
  { "bank_conflicts_per_request", N_("bank conflicts"),
    N_("Extra shared-memory passes per load or store instruction because several threads of a warp hit one bank."),
    TL_COUNTER_UNIT_PER_REQUEST, TRUE, view_bank_conflicts },
  { "occupancy", N_("achieved occupancy"),
    N_("Warps resident on an SM on average, of the most it can hold: more warps hide more latency."),
    TL_COUNTER_UNIT_FRACTION, FALSE, view_occupancy },
  { "issue_active", N_("issue slots used"),
    /* xgettext:no-c-format */
    N_("Cycles in which a warp scheduler issued an instruction: near 100% the kernel is issue-bound."),
    TL_COUNTER_UNIT_FRACTION, FALSE, view_issue_active },
  { "flops", N_("FLOPs counted"),
    N_("Floating-point operations the GPU executed (an FMA is two), from its instruction counters."),
    TL_COUNTER_UNIT_FLOP, FALSE, view_flops },
  { "intensity", N_("arithmetic intensity"),
    N_("FLOPs per byte of DRAM traffic: the roofline's x axis."),
    TL_COUNTER_UNIT_FLOP_PER_BYTE, FALSE, view_intensity },
};

guint
tl_counter_view_count (void)
{
  return G_N_ELEMENTS (views);
}

const TlCounterView *
tl_counter_view_get (guint index)
{
  return index < G_N_ELEMENTS (views) ? &views[index] : NULL;
}

const TlCounterView *
tl_counter_view_find (const char *key)
{
  for (guint i = 0; key != NULL && i < G_N_ELEMENTS (views); i++)
    if (strcmp (views[i].key, key) == 0)
      return &views[i];
  return NULL;
}

const char *
tl_counter_view_key (const TlCounterView *view)
{
  return view->key;
}

const char *
tl_counter_view_title (const TlCounterView *view)
{
  return _(view->title);
}

const char *
tl_counter_view_explanation (const TlCounterView *view)
{
  return _(view->explanation);
}

TlCounterUnit
tl_counter_view_unit (const TlCounterView *view)
{
  return view->unit;
}

double
tl_counter_view_value (const TlCounterView *view, const TlCounters *counters,
                       const TlGpuFacts *device)
{
  g_return_val_if_fail (view != NULL, NAN);
  if (counters == NULL || counters->state != TL_GPU_COUNTERS_MEASURED)
    return NAN;
  return view->compute (counters, device);
}

/* v with an SI prefix and unit: "8.45 GB", "137 GFLOP", "2.74 G" */
static char *
format_si (double v, const char *unit)
{
  static const char *const prefix[] = { "", "k", "M", "G", "T", "P" };
  guint p = 0;
  double a = fabs (v);
  while (a >= 999.5 && p + 1 < G_N_ELEMENTS (prefix))
    {
      a /= 1000.0;
      v /= 1000.0;
      p++;
    }
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (num, sizeof num, a >= 99.95 ? "%.0f" : a >= 9.995 ? "%.1f" : "%.2f", v);
  const char *space = (*unit != '\0' || *prefix[p] != '\0') ? " " : "";
  return g_strdup_printf ("%s%s%s%s", num, space, prefix[p], unit);
}

char *
tl_counter_view_format (const TlCounterView *view, double value)
{
  g_return_val_if_fail (view != NULL, NULL);
  if (isnan (value))
    return g_strdup ("—");
  char num[G_ASCII_DTOSTR_BUF_SIZE];
  switch (view->unit)
    {
    case TL_COUNTER_UNIT_BYTES:
      return format_si (value, "B");
    case TL_COUNTER_UNIT_COUNT:
      return format_si (value, "");
    case TL_COUNTER_UNIT_FLOP:
      return format_si (value, "FLOP");
    case TL_COUNTER_UNIT_FRACTION:
      g_ascii_formatd (num, sizeof num, value < 0.095 ? "%.1f" : "%.0f", 100.0 * value);
      /* TRANSLATORS: a percentage, e.g. "94%" */
      return g_strdup_printf (_("%s%%"), num);
    case TL_COUNTER_UNIT_PER_REQUEST:
      g_ascii_formatd (num, sizeof num, value >= 9.95 ? "%.0f" : "%.1f", value);
      /* TRANSLATORS: e.g. "4.0 per request" (sectors or conflicts per load instruction) */
      return g_strdup_printf (_("%s per request"), num);
    case TL_COUNTER_UNIT_FLOP_PER_BYTE:
      g_ascii_formatd (num, sizeof num, value >= 99.5 ? "%.0f" : value >= 9.95 ? "%.1f" : "%.2f",
                       value);
      return g_strdup_printf ("%s FLOP/B", num);
    }
  return g_strdup ("?");
}

char *
tl_counter_view_compare (const TlCounterView *view, double value, double other,
                         const char *other_label)
{
  g_return_val_if_fail (view != NULL && other_label != NULL, NULL);
  if (isnan (value) || isnan (other))
    return NULL;
  const char *title = tl_counter_view_title (view);
  g_autofree char *now = tl_counter_view_format (view, value);
  g_autofree char *was = tl_counter_view_format (view, other);
  gboolean amount = view->unit == TL_COUNTER_UNIT_BYTES || view->unit == TL_COUNTER_UNIT_COUNT
                    || view->unit == TL_COUNTER_UNIT_FLOP;
  if (!amount || value <= 0 || other <= 0)
    {
      if (value == 0)
        /* TRANSLATORS: "bank conflicts 0, was 2.1 per request" */
        return g_strdup_printf (_("%s 0, was %s"), title, was);
      /* TRANSLATORS: "L2 hit rate 94%, was 61% in 03" */
      return g_strdup_printf (_("%s %s, was %s in %s"), title, now, was, other_label);
    }
  char factor[G_ASCII_DTOSTR_BUF_SIZE];
  double r = other / value;
  if (r >= 1.05)
    {
      g_ascii_formatd (factor, sizeof factor, r >= 99.5 ? "%.0f" : "%.1f", r);
      /* TRANSLATORS: "DRAM bytes 16.1× fewer than 02" */
      return g_strdup_printf (_("%s %s× fewer than %s"), title, factor, other_label);
    }
  if (r <= 1.0 / 1.05)
    {
      g_ascii_formatd (factor, sizeof factor, 1.0 / r >= 99.5 ? "%.0f" : "%.1f", 1.0 / r);
      /* TRANSLATORS: "DRAM bytes 2.3× more than 08" */
      return g_strdup_printf (_("%s %s× more than %s"), title, factor, other_label);
    }
  /* TRANSLATORS: "DRAM bytes 345 MB, about the same as 08" */
  return g_strdup_printf (_("%s %s, about the same as %s"), title, now, other_label);
}

/* ---- warp stalls ---------------------------------------------------------- */

static const struct
{
  int id;
  const char *title; /* N_() */
} stall_titles[] = {
  { TL_GPU_COUNTER_STALL_BARRIER, N_("barrier (waiting at __syncthreads)") },
  { TL_GPU_COUNTER_STALL_BRANCH_RESOLVING, N_("branch resolving") },
  { TL_GPU_COUNTER_STALL_DISPATCH, N_("dispatch (operands not ready to issue)") },
  { TL_GPU_COUNTER_STALL_DRAIN, N_("drain (stores finishing at exit)") },
  { TL_GPU_COUNTER_STALL_GMMA, N_("wgmma (waiting for the tensor cores)") },
  { TL_GPU_COUNTER_STALL_IMC_MISS, N_("constant cache miss") },
  { TL_GPU_COUNTER_STALL_LG_THROTTLE, N_("load/store queue full") },
  { TL_GPU_COUNTER_STALL_LONG_SCOREBOARD, N_("long scoreboard (waiting on global memory)") },
  { TL_GPU_COUNTER_STALL_MATH_PIPE_THROTTLE, N_("math pipe busy") },
  { TL_GPU_COUNTER_STALL_MEMBAR, N_("memory barrier") },
  { TL_GPU_COUNTER_STALL_MIO_THROTTLE, N_("shared-memory queue full (MIO)") },
  { TL_GPU_COUNTER_STALL_MISC, N_("miscellaneous") },
  { TL_GPU_COUNTER_STALL_NO_INSTRUCTION, N_("no instruction (instruction cache)") },
  { TL_GPU_COUNTER_STALL_NOT_SELECTED, N_("not selected (another warp issued)") },
  { TL_GPU_COUNTER_STALL_SELECTED, N_("selected (issuing)") },
  { TL_GPU_COUNTER_STALL_SHORT_SCOREBOARD, N_("short scoreboard (waiting on shared memory)") },
  { TL_GPU_COUNTER_STALL_SLEEPING, N_("sleeping") },
  { TL_GPU_COUNTER_STALL_TEX_THROTTLE, N_("texture queue full") },
  { TL_GPU_COUNTER_STALL_WAIT, N_("fixed-latency wait") },
};

const char *
tl_counters_stall_title (int counter_id)
{
  for (guint i = 0; i < G_N_ELEMENTS (stall_titles); i++)
    if (stall_titles[i].id == counter_id)
      return _(stall_titles[i].title);
  return NULL;
}

guint
tl_counters_top_stalls (const TlCounters *counters, guint max, int *out_ids, double *out_share)
{
  g_return_val_if_fail (counters != NULL, 0);
  if (counters->state != TL_GPU_COUNTERS_MEASURED)
    return 0;
  /* "selected" is the warp that issued: not a stall */
  double total = 0;
  for (guint i = 0; i < G_N_ELEMENTS (stall_titles); i++)
    {
      double v = counters->value[stall_titles[i].id];
      if (stall_titles[i].id != TL_GPU_COUNTER_STALL_SELECTED && v > 0)
        total += v;
    }
  if (total <= 0)
    return 0;
  guint n = 0;
  gboolean taken[G_N_ELEMENTS (stall_titles)] = { FALSE };
  while (n < max)
    {
      int best = -1;
      for (guint i = 0; i < G_N_ELEMENTS (stall_titles); i++)
        {
          double v = counters->value[stall_titles[i].id];
          if (!taken[i] && stall_titles[i].id != TL_GPU_COUNTER_STALL_SELECTED && v > 0
              && (best < 0 || v > counters->value[stall_titles[best].id]))
            best = (int) i;
        }
      if (best < 0)
        break;
      taken[best] = TRUE;
      out_ids[n] = stall_titles[best].id;
      out_share[n] = counters->value[stall_titles[best].id] / total;
      n++;
    }
  return n;
}

/* ---- absence ------------------------------------------------------------------ */

const char *
tl_counters_absence (const TlCounters *counters, gboolean backend_is_cpu, gboolean schema_v1,
                     gboolean asked)
{
  if (counters != NULL && counters->state == TL_GPU_COUNTERS_MEASURED)
    return NULL;
  if (counters != NULL && counters->message != NULL && counters->message[0] != '\0')
    return counters->message; /* the GPU side's own sentence (English, from gpu/) */
  if (backend_is_cpu)
    return _("CPU kernels have no GPU hardware counters.");
  if (schema_v1)
    return _("This record was made before Tilelab counted hardware events (tilelab-run/1): it has no counters.");
  if (!asked)
    return _("Hardware counters were not collected: run with --counters, or tick “Count hardware events” in the Run options.");
  return _("No hardware counters were recorded for this run.");
}
