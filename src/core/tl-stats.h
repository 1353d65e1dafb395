/* tl-stats.h — benchmark statistics shared by every backend.
 *
 * Timings are milliseconds.  Headline numbers are medians of repeated,
 * warmed-up runs; min and max show the spread.  Throughput and traffic
 * follow the usual conventions:
 *
 *   GEMM  C = A·B, A m×k, B k×n:  flops = 2·m·n·k (one multiply and one add
 *         per term).  Bytes moved = (m·k + k·n + 2·m·n)·element size: A and
 *         B read once, C read and written once (the BLAS convention for
 *         C = αAB + βC) — the compulsory traffic, not what a kernel really
 *         moves through the memory hierarchy.
 *   LU    of an n×n matrix:        flops = 2/3·n³ (leading term).
 *
 * "Speed-up" and "% of reference" compare medians of the same job:
 * speed-up = baseline / time, % of reference = 100 · reference / time, so
 * both grow when the kernel gets faster.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint count;   /* number of samples; 0 means "not measured" */
  double median; /* middle sample, or the mean of the two middle ones */
  double min, max, mean;
} TlTimingStats;

/* Fills out from n samples (NaNs are ignored).  Returns FALSE and zeroes
 * out when no finite sample is left. */
gboolean tl_timing_stats_compute (const double *samples_ms, gsize n, TlTimingStats *out);

double   tl_stats_gemm_flops (guint64 m, guint64 k, guint64 n);
double   tl_stats_lu_flops   (guint64 n);
/* bytes of the compulsory GEMM traffic, see above */
guint64  tl_stats_gemm_bytes (guint64 m, guint64 k, guint64 n, gsize element_size);

/* flops in time_ms → GFLOP/s; NAN when time_ms is not positive */
double   tl_stats_gflops     (double flops, double time_ms);
/* bytes in time_ms → GB/s (10⁹ bytes per second); NAN when time_ms <= 0 */
double   tl_stats_gbytes_per_s (double bytes, double time_ms);
/* baseline_ms / time_ms; NAN unless both are positive */
double   tl_stats_speedup    (double baseline_ms, double time_ms);
/* 100 · reference_ms / time_ms; NAN unless both are positive */
double   tl_stats_percent_of (double reference_ms, double time_ms);

G_END_DECLS
