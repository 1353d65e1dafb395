/* tl-roofline.c — roofs from the device's facts, points from the counters. */
#include "view/tl-roofline.h"

#include "gemm/tl-kernels.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const char *const math_labels[TL_MATH_COUNT] = { "FP64", "FP32", "FP64 tensor", "TF32", "BF16" };
static const char *const math_names[TL_MATH_COUNT] = { "fp64", "fp32", "fp64-tensor", "tf32", "bf16" };

const char *
tl_math_label (TlMath math)
{
  return math < TL_MATH_COUNT ? math_labels[math] : "?";
}

gboolean
tl_math_from_name (const char *name, TlMath *out)
{
  for (int i = 0; name != NULL && i < TL_MATH_COUNT; i++)
    if (strcmp (math_names[i], name) == 0)
      {
        *out = (TlMath) i;
        return TRUE;
      }
  return FALSE;
}

/* Dense FLOP per clock per SM: FP64, FP32, FP64 tensor, TF32, BF16 (FP32
 * accumulation).  An FMA is two FLOPs.  From NVIDIA's architecture
 * whitepapers, divided by SMs × the boost clock they quote (docs/counters.md):
 *   8.0  A100: 64 FP32 and 32 FP64 FMA lanes; DMMA 19.5 TFLOP/s,
 *        TF32 156, BF16 312 at 108 SMs × 1.41 GHz.
 *   8.6  GA10x: 128 FP32 lanes, FP64 at 1/64; TF32 512 and BF16 1024
 *        (the A-series parts; GeForce halves BF16 with FP32 accumulation).
 *   8.9  AD10x: as 8.6 (the L40S and RTX 6000 Ada rates; the L40 and
 *        GeForce cards reach half for BF16/TF32).
 *   9.0  H100/H200: 128 FP32 and 64 FP64 FMA lanes, DMMA 256, TF32 2048,
 *        BF16 4096 (the datasheet's 989 TFLOP/s BF16 at 1.83 GHz). */
static const struct
{
  int major, minor;
  double rate[TL_MATH_COUNT];
} rates[] = {
  { 8, 0, { 64, 128, 128, 1024, 2048 } },
  { 8, 6, { 4, 256, 0, 512, 1024 } },
  { 8, 9, { 4, 256, 0, 512, 1024 } },
  { 9, 0, { 128, 256, 256, 2048, 4096 } },
};

gboolean
tl_roofline_rates (int cc_major, int cc_minor, double out_rates[TL_MATH_COUNT])
{
  for (guint i = 0; i < G_N_ELEMENTS (rates); i++)
    if (rates[i].major == cc_major && rates[i].minor == cc_minor)
      {
        memcpy (out_rates, rates[i].rate, sizeof rates[i].rate);
        return TRUE;
      }
  for (int m = 0; m < TL_MATH_COUNT; m++)
    out_rates[m] = 0;
  return FALSE;
}

static double
ratio_or_nan (double num, double den)
{
  return isfinite (num) && isfinite (den) && den > 0 ? num / den : NAN;
}

/* How close p is to each ceiling, and the nearest. */
static void
classify (const TlRoofline *r, const TlKernelRun *run, TlRooflinePoint *p)
{
  const TlCounters *c = run->counters;
  double l2_bytes = c->value[TL_GPU_COUNTER_L2_BYTES];
  p->fraction[TL_LIMIT_MEMORY] = ratio_or_nan (p->dram_bytes / p->seconds, r->dram_bytes_per_s);
  p->fraction[TL_LIMIT_L2] = ratio_or_nan (l2_bytes / p->seconds, r->l2_bytes_per_s);
  double compute = ratio_or_nan (p->flops_per_s, r->peak[p->math]);
  gboolean tensor = p->math >= TL_MATH_FP64_TENSOR;
  p->fraction[TL_LIMIT_COMPUTE] = tensor ? NAN : compute;
  p->fraction[TL_LIMIT_TENSOR] = tensor ? compute : NAN;
  p->fraction[TL_LIMIT_ISSUE] = ratio_or_nan (c->value[TL_GPU_COUNTER_ISSUE_ACTIVE],
                                              c->value[TL_GPU_COUNTER_SMSP_CYCLES_ACTIVE]);
  p->limit = TL_LIMIT_LATENCY;
  double best = TL_ROOFLINE_BOUND;
  for (int l = TL_LIMIT_MEMORY; l <= TL_LIMIT_ISSUE; l++)
    if (isfinite (p->fraction[l]) && p->fraction[l] >= best)
      {
        best = p->fraction[l];
        p->limit = (TlLimit) l;
      }
  int id = -1;
  double share = NAN;
  if (tl_counters_top_stalls (c, 1, &id, &share) == 1)
    {
      p->top_stall = id;
      p->top_stall_share = share;
    }
}

/* A point for run, or FALSE when it cannot be placed. */
static gboolean
make_point (const TlRoofline *r, const TlKernelRun *run, TlRooflinePoint *p)
{
  memset (p, 0, sizeof *p);
  p->top_stall = -1;
  p->top_stall_share = NAN;
  if (run->status != TL_RUN_OK || run->counters == NULL
      || run->counters->state != TL_GPU_COUNTERS_MEASURED || run->time.count == 0
      || !(run->time.median > 0))
    return FALSE;
  p->flops = tl_counters_flops (run->counters);
  p->dram_bytes = tl_counters_dram_bytes (run->counters);
  if (!(p->flops > 0) || !(p->dram_bytes > 0)
      || !tl_math_from_name (tl_counters_math (run->counters), &p->math))
    return FALSE;
  p->seconds = run->time.median * 1e-3;
  p->intensity = p->flops / p->dram_bytes;
  p->flops_per_s = p->flops / p->seconds;
  p->info = run->info;
  p->number = run->info != NULL ? run->info->number : 0;
  p->kernel_id = g_strdup (run->kernel_id);
  classify (r, run, p);
  return TRUE;
}

static void
set_peaks (TlRoofline *r, const TlRunRecord *record, GString *note)
{
  const TlGpuFacts *d = &record->device;
  double rate[TL_MATH_COUNT];
  if (!tl_roofline_rates (d->cc_major, d->cc_minor, rate))
    /* TRANSLATORS: %d.%d is a compute capability, e.g. 7.5 */
    g_string_append_printf (note, _("No peak rates for compute capability %d.%d: the flat roofs are not drawn. "),
                            d->cc_major, d->cc_minor);
  for (int m = 0; m < TL_MATH_COUNT; m++)
    r->peak[m] = rate[m] * d->sm_count * d->clock_khz * 1e3;
}

TlRoofline *
tl_roofline_from_record (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  TlRoofline *r = g_new0 (TlRoofline, 1);
  r->dram_bytes_per_s = r->l2_bytes_per_s = NAN;
  g_autoptr (GString) note = g_string_new (NULL);
  if (record->has_device)
    {
      /* TRANSLATORS: the title of the roofline view; %s is the GPU's name */
      r->title = g_strdup_printf (_("Roofline — %s"), record->device.name);
      set_peaks (r, record, note);
    }
  else
    r->title = g_strdup (_("Roofline"));
  if (record->has_bandwidth)
    {
      r->dram_bytes_per_s = record->bandwidth.dram_bytes_per_s;
      r->l2_bytes_per_s = record->bandwidth.l2_bytes_per_s;
    }

  r->points = g_new0 (TlRooflinePoint, MAX (record->runs->len, 1));
  const char *why = NULL;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      if (make_point (r, run, &r->points[r->n_points]))
        r->n_points++;
      else if (why == NULL && run->backend == TL_BACKEND_GPU)
        why = tl_run_record_counters_absence (record, run);
    }
  if (r->n_points == 0)
    g_string_append (note, why != NULL ? why
                                       : _("No GPU kernel of this record has hardware counters: nothing to place on the roofline."));
  else if (!record->has_bandwidth)
    g_string_append (note, _("This record has no measured memory bandwidth: the slanted roofs are not drawn."));
  r->note = note->len > 0 ? g_strdup (g_strstrip (note->str)) : NULL;
  return r;
}

void
tl_roofline_free (TlRoofline *roofline)
{
  if (roofline == NULL)
    return;
  for (guint i = 0; i < roofline->n_points; i++)
    g_free (roofline->points[i].kernel_id);
  g_free (roofline->points);
  g_free (roofline->title);
  g_free (roofline->note);
  g_free (roofline);
}

static char *
percent (double fraction)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, "%.0f", 100.0 * fraction);
  return g_strdup (buf);
}

/* How near a point is to one ceiling: "93% of DRAM bandwidth", "69% of
 * the BF16 peak", "an instruction issued in 75% of cycles"; past the
 * measured L2 roof, "L2 traffic at 126% of the measured copy rate". */
static char *
ceiling_phrase (const TlRooflinePoint *p, TlLimit limit)
{
  g_autofree char *pct = percent (p->fraction[limit]);
  switch (limit)
    {
    case TL_LIMIT_MEMORY:
      /* TRANSLATORS: %s is a whole percentage */
      return g_strdup_printf (_("%s%% of DRAM bandwidth"), pct);
    case TL_LIMIT_L2:
      /* The L2 roof is what a copy reached (half its bytes writes), not
       * L2's peak: a GEMM that mostly reads from L2 can go past it. */
      if (p->fraction[limit] > 1.0)
        /* TRANSLATORS: "L2 traffic at 126% of the measured copy rate" */
        return g_strdup_printf (_("L2 traffic at %s%% of the measured copy rate"), pct);
      return g_strdup_printf (_("%s%% of L2 bandwidth"), pct);
    case TL_LIMIT_COMPUTE:
    case TL_LIMIT_TENSOR:
      /* TRANSLATORS: "77% of the FP32 peak" */
      return g_strdup_printf (_("%s%% of the %s peak"), pct, tl_math_label (p->math));
    case TL_LIMIT_ISSUE:
      return g_strdup_printf (_("an instruction issued in %s%% of cycles"), pct);
    case TL_LIMIT_LATENCY:
      break;
    }
  return g_strdup ("");
}

static const char *
bound_name (TlLimit limit)
{
  switch (limit)
    {
    case TL_LIMIT_MEMORY: return _("memory-bound");
    case TL_LIMIT_L2: return _("L2-bound");
    case TL_LIMIT_COMPUTE: return _("compute-bound");
    case TL_LIMIT_TENSOR: return _("tensor-bound");
    case TL_LIMIT_ISSUE: return _("issue-bound");
    case TL_LIMIT_LATENCY: return _("latency-bound");
    }
  return "";
}

char *
tl_roofline_limiter_text (const TlRoofline *roofline, const TlRooflinePoint *point)
{
  g_return_val_if_fail (roofline != NULL && point != NULL, NULL);
  if (point->limit == TL_LIMIT_LATENCY)
    {
      if (point->top_stall < 0)
        return g_strdup (_("latency-bound: no unit is near its ceiling"));
      g_autofree char *share = percent (point->top_stall_share);
      /* TRANSLATORS: "latency-bound: warps wait on long scoreboard (waiting on
         global memory), 62% of stalls" */
      return g_strdup_printf (_("%s: warps wait on %s, %s%% of stalls"),
                              bound_name (TL_LIMIT_LATENCY),
                              tl_counters_stall_title (point->top_stall), share);
    }
  g_autofree char *main_phrase = ceiling_phrase (point, point->limit);
  /* a second ceiling nearly as close is worth saying: the measured roofs
   * and the clock of the peaks are estimates */
  int second = -1;
  for (int l = TL_LIMIT_MEMORY; l <= TL_LIMIT_ISSUE; l++)
    if (l != (int) point->limit && isfinite (point->fraction[l])
        && point->fraction[l] >= TL_ROOFLINE_BOUND
        && (second < 0 || point->fraction[l] > point->fraction[second]))
      second = l;
  if (second < 0)
    /* TRANSLATORS: "memory-bound: 93% of DRAM bandwidth" */
    return g_strdup_printf (_("%s: %s"), bound_name (point->limit), main_phrase);
  g_autofree char *second_phrase = ceiling_phrase (point, (TlLimit) second);
  /* TRANSLATORS: "L2-bound: 80% of L2 bandwidth, and 69% of the BF16 peak" */
  return g_strdup_printf (_("%s: %s, and %s"), bound_name (point->limit), main_phrase,
                          second_phrase);
}
