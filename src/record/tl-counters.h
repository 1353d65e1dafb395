/* tl-counters.h — a kernel run's hardware counters, and what they say.
 *
 * The GPU counts raw events (gpu/tl-gpu-counter-list.h: bytes through DRAM
 * and L2, sectors, wavefronts, warp states); a run record keeps those sums
 * by their stable keys.  A lecture needs what they mean: "sectors per
 * global load", "achieved occupancy", "FLOPs", "arithmetic intensity".
 * Those are the *views* here, each computed from the raw sums (and the
 * device's facts where a peak is needed), formatted with its unit, and
 * compared with another run ("DRAM bytes 16.1× fewer than 02").  A rung's
 * registry row names the views its lesson is about (TlKernelInfo.counters).
 *
 * Counters that were not measured are a sentence, never a zero: see
 * tl_counters_absence.
 */
#pragma once

#include <glib.h>

#include "tl-gpu.h"

G_BEGIN_DECLS

typedef struct
{
  TlGpuCountersState state;
  char *message;                   /* why not measured; NULL when measured */
  char *chip;                      /* CUPTI's chip name ("GH100"); may be NULL */
  int passes;                      /* replay passes it took */
  double value[TL_GPU_N_COUNTERS]; /* sums over the multiply; NAN: not counted */
} TlCounters;

/* A record of state with every value NAN. */
TlCounters *tl_counters_new (TlGpuCountersState state, const char *message);
TlCounters *tl_counters_new_from_gpu (const TlGpuCounters *gpu);
TlCounters *tl_counters_copy (const TlCounters *counters);
void        tl_counters_free (TlCounters *counters);

/* "measured", "unavailable", "not-permitted", "failed" (NOT_ASKED has no
 * name: such runs have no counters member), and back. */
const char *tl_counters_state_name (TlGpuCountersState state);
gboolean    tl_counters_state_from_name (const char *name, TlGpuCountersState *out);

/* ---- views: what the raw sums mean ----------------------------------- */

typedef enum
{
  TL_COUNTER_UNIT_BYTES,
  TL_COUNTER_UNIT_COUNT,
  TL_COUNTER_UNIT_FRACTION,    /* 0…1, shown as a percentage */
  TL_COUNTER_UNIT_PER_REQUEST,
  TL_COUNTER_UNIT_FLOP,
  TL_COUNTER_UNIT_FLOP_PER_BYTE,
} TlCounterUnit;

typedef struct TlCounterView TlCounterView;

guint                tl_counter_view_count (void);
const TlCounterView *tl_counter_view_get (guint index);
/* NULL for a key no view has ("dram_bytes", "gld_sectors_per_request", …) */
const TlCounterView *tl_counter_view_find (const char *key);
const char          *tl_counter_view_key (const TlCounterView *view);
/* translated: "DRAM bytes", "sectors per global load", … */
const char          *tl_counter_view_title (const TlCounterView *view);
/* translated, one line: what it counts and what a good value is */
const char          *tl_counter_view_explanation (const TlCounterView *view);
TlCounterUnit        tl_counter_view_unit (const TlCounterView *view);
/* The view's value for a run (NAN when a raw counter it needs is missing,
 * or, for a ratio, its denominator is zero); device may be NULL (views
 * that need a device fact then give NAN). */
double               tl_counter_view_value (const TlCounterView *view, const TlCounters *counters,
                                            const TlGpuFacts *device);
/* "8.45 GB", "94%", "4.0 per request", "137 GFLOP", "325 FLOP/B", "—" for NAN */
char                *tl_counter_view_format (const TlCounterView *view, double value);
/* One line comparing value with the same view of another run (named
 * other_label, e.g. "02"): "DRAM bytes 16.1× fewer than 02", "bank
 * conflicts 0, was 2.1 per request", "L2 hit rate 94%, was 61%".  NULL
 * when either value is NAN. */
char                *tl_counter_view_compare (const TlCounterView *view, double value,
                                              double other, const char *other_label);

/* ---- derived facts used by several views and the roofline --------------- */

/* FLOPs counted from executed instructions: 2 per FMA, 1 per add or
 * multiply (FP32 and FP64 CUDA cores), plus the tensor cores' operations
 * (which count 2 per multiply-add already).  NAN when none was counted. */
double tl_counters_flops (const TlCounters *counters);
/* DRAM bytes read + written (NAN if either is missing). */
double tl_counters_dram_bytes (const TlCounters *counters);
/* Which math the FLOPs came from: "fp32", "fp64", "fp64-tensor", "tf32",
 * "bf16" (the largest share), or NULL when none were counted. */
const char *tl_counters_math (const TlCounters *counters);

/* The top warp-stall reasons: up to max ids (TlGpuCounterId, the stall_*
 * rows) with their share of all stalled warp-cycles (0…1), largest first.
 * Returns how many were written. */
guint       tl_counters_top_stalls (const TlCounters *counters, guint max, int *out_ids,
                                    double *out_share);
/* translated, short: "long scoreboard (waiting on global memory)" */
const char *tl_counters_stall_title (int counter_id);

/* ---- when there are no counters -------------------------------------- */

/* Why a run has no counters, as a sentence for where they would be shown
 * (translated), or NULL when they were measured.  backend_is_cpu: a CPU
 * run; schema_v1: the record predates counters; asked: the job asked for
 * them. */
const char *tl_counters_absence (const TlCounters *counters, gboolean backend_is_cpu,
                                 gboolean schema_v1, gboolean asked);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlCounters, tl_counters_free)

G_END_DECLS
