/* test-stats.c — medians, spreads, throughput and ratios. */
#include "core/tl-stats.h"

#include <math.h>

static void
test_odd_and_even (void)
{
  TlTimingStats s;
  const double odd[] = { 5.0, 1.0, 3.0, 9.0, 2.0 };
  g_assert_true (tl_timing_stats_compute (odd, G_N_ELEMENTS (odd), &s));
  g_assert_cmpuint (s.count, ==, 5);
  g_assert_cmpfloat (s.median, ==, 3.0);
  g_assert_cmpfloat (s.min, ==, 1.0);
  g_assert_cmpfloat (s.max, ==, 9.0);
  g_assert_cmpfloat_with_epsilon (s.mean, 4.0, 1e-12);

  const double even[] = { 4.0, 1.0, 2.0, 10.0 };
  g_assert_true (tl_timing_stats_compute (even, G_N_ELEMENTS (even), &s));
  g_assert_cmpfloat (s.median, ==, 3.0); /* mean of 2 and 4 */
  g_assert_cmpfloat_with_epsilon (s.mean, 4.25, 1e-12);

  const double one[] = { 0.125 };
  g_assert_true (tl_timing_stats_compute (one, 1, &s));
  g_assert_cmpfloat (s.median, ==, 0.125);
  g_assert_cmpfloat (s.min, ==, s.max);
}

static void
test_nan_and_empty (void)
{
  TlTimingStats s;
  const double with_nan[] = { NAN, 2.0, 6.0, NAN, 4.0 };
  g_assert_true (tl_timing_stats_compute (with_nan, G_N_ELEMENTS (with_nan), &s));
  g_assert_cmpuint (s.count, ==, 3);
  g_assert_cmpfloat (s.median, ==, 4.0);

  const double only_nan[] = { NAN, INFINITY };
  g_assert_false (tl_timing_stats_compute (only_nan, 2, &s));
  g_assert_cmpuint (s.count, ==, 0);
  g_assert_false (tl_timing_stats_compute (NULL, 0, &s));
}

static void
test_random_median (void)
{
  /* the median splits any sample set in halves */
  GRand *rand = g_rand_new_with_seed (7);
  for (int trial = 0; trial < 50; trial++)
    {
      guint n = g_rand_int_range (rand, 1, 40);
      double *x = g_new (double, n);
      for (guint i = 0; i < n; i++)
        x[i] = g_rand_double_range (rand, 0.01, 100.0);
      TlTimingStats s;
      g_assert_true (tl_timing_stats_compute (x, n, &s));
      guint below = 0, above = 0;
      for (guint i = 0; i < n; i++)
        {
          below += x[i] < s.median;
          above += x[i] > s.median;
          g_assert_cmpfloat (x[i], >=, s.min);
          g_assert_cmpfloat (x[i], <=, s.max);
        }
      g_assert_cmpuint (below, <=, n / 2);
      g_assert_cmpuint (above, <=, n / 2);
      g_free (x);
    }
  g_rand_free (rand);
}

static void
test_throughput (void)
{
  /* 1000×500×1000 (seed 002): 10⁹ flops; in 10 ms that is 100 GFLOP/s */
  double flops = tl_stats_gemm_flops (1000, 500, 1000);
  g_assert_cmpfloat (flops, ==, 1e9);
  g_assert_cmpfloat_with_epsilon (tl_stats_gflops (flops, 10.0), 100.0, 1e-9);
  g_assert_true (isnan (tl_stats_gflops (flops, 0.0)));
  g_assert_true (isnan (tl_stats_gflops (flops, -1.0)));

  g_assert_cmpfloat_with_epsilon (tl_stats_lu_flops (3000), 1.8e10, 1e-3);

  /* A and B read, C read and written */
  g_assert_cmpuint (tl_stats_gemm_bytes (2, 3, 4, 4), ==, (6 + 12 + 2 * 8) * 4);
  g_assert_cmpuint (tl_stats_gemm_bytes (8192, 8192, 8192, 8), ==,
                    (guint64) 4 * 8192 * 8192 * 8);
  g_assert_cmpfloat_with_epsilon (tl_stats_gbytes_per_s (1e9, 1000.0), 1.0, 1e-12);
}

static void
test_ratios (void)
{
  g_assert_cmpfloat_with_epsilon (tl_stats_speedup (100.0, 4.0), 25.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (tl_stats_percent_of (3.0, 4.0), 75.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (tl_stats_percent_of (4.0, 4.0), 100.0, 1e-12);
  g_assert_true (isnan (tl_stats_speedup (0.0, 4.0)));
  g_assert_true (isnan (tl_stats_percent_of (NAN, 4.0)));
  g_assert_true (isnan (tl_stats_percent_of (3.0, 0.0)));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/odd-even", test_odd_and_even);
  g_test_add_func ("/stats/nan-empty", test_nan_and_empty);
  g_test_add_func ("/stats/random-median", test_random_median);
  g_test_add_func ("/stats/throughput", test_throughput);
  g_test_add_func ("/stats/ratios", test_ratios);
  return g_test_run ();
}
