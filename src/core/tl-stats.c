/* tl-stats.c — medians, throughput and ratios for benchmarks. */
#include "core/tl-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

gboolean
tl_timing_stats_compute (const double *samples_ms, gsize n, TlTimingStats *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (samples_ms != NULL || n == 0, FALSE);

  memset (out, 0, sizeof *out);
  g_autofree double *sorted = g_new (double, MAX (n, 1));
  gsize count = 0;
  double sum = 0.0;
  for (gsize i = 0; i < n; i++)
    if (isfinite (samples_ms[i]))
      {
        sorted[count++] = samples_ms[i];
        sum += samples_ms[i];
      }
  if (count == 0)
    return FALSE;

  qsort (sorted, count, sizeof (double), compare_doubles);
  out->count = (guint) count;
  out->min = sorted[0];
  out->max = sorted[count - 1];
  out->mean = sum / count;
  out->median = (count % 2 == 1) ? sorted[count / 2]
                                 : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
  return TRUE;
}

double
tl_stats_gemm_flops (guint64 m, guint64 k, guint64 n)
{
  return 2.0 * (double) m * (double) n * (double) k;
}

double
tl_stats_lu_flops (guint64 n)
{
  return 2.0 / 3.0 * (double) n * (double) n * (double) n;
}

guint64
tl_stats_gemm_bytes (guint64 m, guint64 k, guint64 n, gsize element_size)
{
  return (m * k + k * n + 2 * m * n) * (guint64) element_size;
}

double
tl_stats_gflops (double flops, double time_ms)
{
  if (!(time_ms > 0.0) || !isfinite (flops))
    return NAN;
  return flops / (time_ms * 1e-3) * 1e-9;
}

double
tl_stats_gbytes_per_s (double bytes, double time_ms)
{
  if (!(time_ms > 0.0) || !isfinite (bytes))
    return NAN;
  return bytes / (time_ms * 1e-3) * 1e-9;
}

double
tl_stats_speedup (double baseline_ms, double time_ms)
{
  if (!(baseline_ms > 0.0) || !(time_ms > 0.0))
    return NAN;
  return baseline_ms / time_ms;
}

double
tl_stats_percent_of (double reference_ms, double time_ms)
{
  if (!(reference_ms > 0.0) || !(time_ms > 0.0))
    return NAN;
  return 100.0 * reference_ms / time_ms;
}
