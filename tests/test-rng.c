/* test-rng.c — Tilelab's PRNG: the reference streams, ranges, uniformity. */
#include "core/tl-rng.h"

#include <math.h>

/* Reference values computed from the published algorithm definitions
 * (splitmix64 and xoshiro256** by Blackman and Vigna) with an independent
 * implementation; every machine must produce exactly these. */
static void
test_splitmix_reference (void)
{
  guint64 state = 0;
  g_assert_cmphex (tl_splitmix64 (&state), ==, G_GUINT64_CONSTANT (0xe220a8397b1dcdaf));
  g_assert_cmphex (tl_splitmix64 (&state), ==, G_GUINT64_CONSTANT (0x6e789e6aa1b965f4));
  g_assert_cmphex (tl_splitmix64 (&state), ==, G_GUINT64_CONSTANT (0x06c45d188009454f));
}

static void
test_xoshiro_reference (void)
{
  static const guint64 seed0[] = {
    G_GUINT64_CONSTANT (0x99ec5f36cb75f2b4), G_GUINT64_CONSTANT (0xbf6e1f784956452a),
    G_GUINT64_CONSTANT (0x1a5f849d4933e6e0), G_GUINT64_CONSTANT (0x6aa594f1262d2d2c),
    G_GUINT64_CONSTANT (0xbba5ad4a1f842e59),
  };
  static const guint64 seed42[] = {
    G_GUINT64_CONSTANT (0x15780b2e0c2ec716), G_GUINT64_CONSTANT (0x6104d9866d113a7e),
    G_GUINT64_CONSTANT (0xae17533239e499a1), G_GUINT64_CONSTANT (0xecb8ad4703b360a1),
    G_GUINT64_CONSTANT (0xfde6dc7fe2ec5e64),
  };
  TlRng rng;

  tl_rng_init (&rng, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (seed0); i++)
    g_assert_cmphex (tl_rng_next (&rng), ==, seed0[i]);
  tl_rng_init (&rng, 42);
  for (gsize i = 0; i < G_N_ELEMENTS (seed42); i++)
    g_assert_cmphex (tl_rng_next (&rng), ==, seed42[i]);
}

static void
test_jump_reference (void)
{
  static const guint64 jumped42[] = {
    G_GUINT64_CONSTANT (0x50086ef83cbf4f4a), G_GUINT64_CONSTANT (0xba285ec21347d703),
    G_GUINT64_CONSTANT (0x5ea1247b4dc6452a),
  };
  TlRng rng, child, stream;

  tl_rng_init (&rng, 42);
  tl_rng_jump (&rng);
  for (gsize i = 0; i < G_N_ELEMENTS (jumped42); i++)
    g_assert_cmphex (tl_rng_next (&rng), ==, jumped42[i]);

  /* split: the child continues the parent's stream, the parent jumps */
  tl_rng_init (&rng, 42);
  tl_rng_split (&rng, &child);
  g_assert_cmphex (tl_rng_next (&child), ==, G_GUINT64_CONSTANT (0x15780b2e0c2ec716));
  g_assert_cmphex (tl_rng_next (&rng), ==, jumped42[0]);

  tl_rng_init_stream (&stream, 42, 1);
  g_assert_cmphex (tl_rng_next (&stream), ==, jumped42[0]);
  tl_rng_init_stream (&stream, 42, 0);
  g_assert_cmphex (tl_rng_next (&stream), ==, G_GUINT64_CONSTANT (0x15780b2e0c2ec716));

  /* long jump lands somewhere else again */
  TlRng a, b;
  tl_rng_init (&a, 42);
  tl_rng_init (&b, 42);
  tl_rng_long_jump (&b);
  g_assert_cmphex (tl_rng_next (&a), !=, tl_rng_next (&b));
}

static void
test_uniform (void)
{
  TlRng rng, raw;
  tl_rng_init (&rng, 42);
  tl_rng_init (&raw, 42);
  /* exactly the top 53 bits scaled by 2^-53 */
  for (int i = 0; i < 100; i++)
    {
      guint64 bits = tl_rng_next (&raw) >> 11;
      double u = tl_rng_uniform (&rng);
      g_assert_true (u == (double) bits / 9007199254740992.0);
    }
  tl_rng_init (&rng, 42);
  g_assert_cmpfloat (tl_rng_uniform (&rng), ==, 0.08386297105988216); /* reference */
  g_assert_cmpfloat (tl_rng_uniform (&rng), ==, 0.3789802506626686);

  /* range and the moments of U(0,1): mean 1/2, variance 1/12; bins even */
  const int n = 200000;
  int bins[10] = { 0 };
  double sum = 0, sum2 = 0;
  tl_rng_init (&rng, 7);
  for (int i = 0; i < n; i++)
    {
      double u = tl_rng_uniform (&rng);
      g_assert_cmpfloat (u, >=, 0.0);
      g_assert_cmpfloat (u, <, 1.0);
      sum += u;
      sum2 += u * u;
      bins[(int) (u * 10)]++;
    }
  double mean = sum / n, var = sum2 / n - mean * mean;
  g_assert_cmpfloat (fabs (mean - 0.5), <, 0.005);
  g_assert_cmpfloat (fabs (var - 1.0 / 12), <, 0.002);
  /* chi-square with 9 degrees of freedom: 27.9 is the 0.1 % point */
  double chi2 = 0;
  for (int b = 0; b < 10; b++)
    chi2 += (bins[b] - n / 10.0) * (bins[b] - n / 10.0) / (n / 10.0);
  g_assert_cmpfloat (chi2, <, 27.9);

  for (int i = 0; i < 1000; i++)
    {
      double v = tl_rng_uniform_range (&rng, -3.0, 5.0);
      g_assert_cmpfloat (v, >=, -3.0);
      g_assert_cmpfloat (v, <, 5.0);
    }
}

static void
test_int_range (void)
{
  /* the first draws of [0, 4] from seed 2024, by the reference */
  static const gint64 expect[] = { 3, 3, 1, 1, 3, 2, 2, 1, 0, 4 };
  TlRng rng;
  tl_rng_init (&rng, 2024);
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    g_assert_cmpint (tl_rng_int_range (&rng, 0, 4), ==, expect[i]);

  /* inclusive bounds, every value hit, counts even */
  const int n = 100000;
  int counts[7] = { 0 };
  tl_rng_init (&rng, 99);
  for (int i = 0; i < n; i++)
    {
      gint64 v = tl_rng_int_range (&rng, -3, 3);
      g_assert_cmpint (v, >=, -3);
      g_assert_cmpint (v, <=, 3);
      counts[v + 3]++;
    }
  double chi2 = 0;
  for (int b = 0; b < 7; b++)
    chi2 += (counts[b] - n / 7.0) * (counts[b] - n / 7.0) / (n / 7.0);
  g_assert_cmpfloat (chi2, <, 22.5); /* 6 degrees of freedom, 0.1 % */

  /* degenerate and extreme ranges */
  for (int i = 0; i < 100; i++)
    g_assert_cmpint (tl_rng_int_range (&rng, 5, 5), ==, 5);
  gboolean neg = FALSE, pos = FALSE;
  for (int i = 0; i < 100; i++)
    {
      gint64 v = tl_rng_int_range (&rng, G_MININT64, G_MAXINT64);
      neg |= v < 0;
      pos |= v > 0;
    }
  g_assert_true (neg && pos);
  for (int i = 0; i < 1000; i++)
    {
      gint64 v = tl_rng_int_range (&rng, G_MAXINT64 - 2, G_MAXINT64);
      g_assert_cmpint (v, >=, G_MAXINT64 - 2);
    }
  /* a bound just above 2^63 rejects almost half the draws and still works */
  guint64 big = (G_GUINT64_CONSTANT (1) << 63) + 1;
  for (int i = 0; i < 1000; i++)
    g_assert_cmpuint (tl_rng_below (&rng, big), <, big);
}

static void
test_normal (void)
{
  const int n = 200000;
  double sum = 0, sum2 = 0, sum4 = 0;
  int within1 = 0;
  TlRng rng;
  tl_rng_init (&rng, 3);
  for (int i = 0; i < n; i++)
    {
      double z = tl_rng_normal (&rng);
      g_assert_true (isfinite (z));
      sum += z;
      sum2 += z * z;
      sum4 += z * z * z * z;
      within1 += fabs (z) < 1.0;
    }
  double mean = sum / n, var = sum2 / n - mean * mean;
  g_assert_cmpfloat (fabs (mean), <, 0.01);
  g_assert_cmpfloat (fabs (var - 1.0), <, 0.015);
  g_assert_cmpfloat (fabs (sum4 / n - 3.0), <, 0.1); /* kurtosis of N(0,1) */
  g_assert_cmpfloat (fabs ((double) within1 / n - 0.682689), <, 0.005);

  /* the pair is the polar method by its definition: u first, then v,
   * redrawn until inside the unit disc, u·f returned first */
  tl_rng_init (&rng, 42);
  TlRng copy = rng;
  double z0 = tl_rng_normal (&rng), z1 = tl_rng_normal (&rng);
  double u, v, s;
  do
    {
      u = 2.0 * tl_rng_uniform (&copy) - 1.0;
      v = 2.0 * tl_rng_uniform (&copy) - 1.0;
      s = u * u + v * v;
    }
  while (s >= 1.0 || s == 0.0);
  double f = sqrt (-2.0 * log (s) / s);
  g_assert_cmpfloat (z0, ==, u * f);
  g_assert_cmpfloat (z1, ==, v * f);
}

static void
test_reproducible (void)
{
  TlRng a, b, c;
  tl_rng_init (&a, 123456789);
  tl_rng_init (&b, 123456789);
  tl_rng_init (&c, 123456790);
  gboolean differ = FALSE;
  for (int i = 0; i < 1000; i++)
    {
      guint64 x = tl_rng_next (&a);
      g_assert_cmphex (x, ==, tl_rng_next (&b));
      differ |= x != tl_rng_next (&c);
    }
  g_assert_true (differ);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rng/splitmix-reference", test_splitmix_reference);
  g_test_add_func ("/rng/xoshiro-reference", test_xoshiro_reference);
  g_test_add_func ("/rng/jump-reference", test_jump_reference);
  g_test_add_func ("/rng/uniform", test_uniform);
  g_test_add_func ("/rng/int-range", test_int_range);
  g_test_add_func ("/rng/normal", test_normal);
  g_test_add_func ("/rng/reproducible", test_reproducible);
  return g_test_run ();
}
