/* tl-roofline.h — the roofline of a run record: roofs, points, limiters.
 *
 * A kernel can go no faster than its math allows (a flat roof: the peak
 * FLOP/s of the units it uses) nor than memory feeds it (a slanted roof:
 * bandwidth × arithmetic intensity).  Each kernel of a record with
 * counters is one point: x its measured arithmetic intensity (FLOPs
 * counted ÷ DRAM bytes counted), y its achieved FLOP/s (FLOPs counted ÷
 * the median of its timed runs).
 *
 * Flat roofs come from the device's facts: SMs × per-SM rate × SM clock,
 * the per-SM rates for compute capability 8.0, 8.6, 8.9 and 9.0 in
 * tl_roofline_rates (docs/counters.md gives their sources).  Slanted roofs
 * are measured: a copy kernel in the same job (the record's bandwidth).
 *
 * The model is plain data; tl-paint-roofline.h draws it.
 */
#pragma once

#include <glib.h>

#include "record/tl-record.h"

G_BEGIN_DECLS

/* The math a roof or a point belongs to, in the order roofs are listed. */
typedef enum
{
  TL_MATH_FP64,        /* FP64 on the CUDA cores */
  TL_MATH_FP32,        /* FP32 on the CUDA cores */
  TL_MATH_FP64_TENSOR, /* DMMA */
  TL_MATH_TF32,        /* tensor cores, TF32 inputs */
  TL_MATH_BF16,        /* tensor cores, BF16 inputs, FP32 accumulation */
  TL_MATH_COUNT
} TlMath;

/* "FP64", "FP32", "FP64 tensor", "TF32", "BF16": number formats, not translated */
const char *tl_math_label (TlMath math);
/* from tl_counters_math's names ("fp32", "fp64-tensor", …); FALSE if unknown */
gboolean    tl_math_from_name (const char *name, TlMath *out);

/* Peak FLOP per clock per SM (dense) for each math at compute capability
 * major.minor; 0 where the GPU has no such unit.  FALSE for a compute
 * capability Tilelab has no rates for. */
gboolean    tl_roofline_rates (int cc_major, int cc_minor, double out_rates[TL_MATH_COUNT]);

typedef enum
{
  TL_LIMIT_MEMORY,  /* DRAM bandwidth */
  TL_LIMIT_L2,      /* L2 bandwidth */
  TL_LIMIT_COMPUTE, /* a CUDA-core peak */
  TL_LIMIT_TENSOR,  /* a tensor-core peak */
  TL_LIMIT_ISSUE,   /* the warp schedulers issue every cycle */
  TL_LIMIT_LATENCY, /* nothing near its ceiling: warps wait */
} TlLimit;

typedef struct
{
  char *kernel_id;
  const TlKernelInfo *info; /* its registry row (the run's), NULL for an unknown id */
  int number;              /* rung number; 0 for references */
  TlMath math;             /* where most FLOPs came from */
  double flops;            /* counted */
  double dram_bytes;       /* counted */
  double seconds;          /* median of the timed runs */
  double intensity;        /* flops / dram_bytes */
  double flops_per_s;      /* flops / seconds */
  double fraction[5];      /* of each ceiling, in TlLimit order up to ISSUE (NAN: unknown) */
  TlLimit limit;           /* the ceiling it is nearest */
  int top_stall;           /* TlGpuCounterId of the largest stall reason, -1 if none */
  double top_stall_share;  /* its share of stalled warp-cycles */
} TlRooflinePoint;

typedef struct
{
  char *title;                    /* "Roofline — NVIDIA H200" (translated) */
  double peak[TL_MATH_COUNT];     /* FLOP/s; 0: no such unit, or no rates for this GPU */
  double dram_bytes_per_s;        /* measured; NAN when the record has none */
  double l2_bytes_per_s;          /* measured; NAN when the record has none */
  TlRooflinePoint *points;
  guint n_points;
  char *note;                     /* what is missing and why (translated), or NULL */
} TlRoofline;

/* The roofline of a GEMM record: one point per GPU run with counters and
 * a median time.  Never fails: what it cannot draw, `note` explains. */
TlRoofline *tl_roofline_from_record (const TlRunRecord *record);
void        tl_roofline_free (TlRoofline *roofline);

/* A point's limiter in words (translated): "memory-bound: 93% of DRAM
 * bandwidth", "tensor-bound: 69% of the BF16 peak", "issue-bound: an
 * instruction issued in 85% of cycles", "latency-bound: warps wait on
 * long scoreboard (waiting on global memory), 62% of stalls". */
char       *tl_roofline_limiter_text (const TlRoofline *roofline, const TlRooflinePoint *point);

/* The share of a ceiling at which a point counts as bound by it. */
#define TL_ROOFLINE_BOUND 0.6

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRoofline, tl_roofline_free)

G_END_DECLS
