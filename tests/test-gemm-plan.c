/* test-gemm-plan.c — the cost model of the planned GEMM rungs
 * (gpu/tl-gpu-plan.c), without a GPU: which rungs are planned, what every
 * plan says about itself, what the model chooses at the two ends of the
 * size range, pinning, what a GPU without clusters is offered, and the
 * plan's way through a run record (written, read back, the same). */
#include "tl-gpu.h"
#include "record/tl-record.h"

#include <glib.h>
#include <string.h>

static const char *const planned[] = {
  "gemm-17-simt-tma", "gemm-13-wgmma-tf32", "gemm-14-wgmma-persistent", "gemm-15-dmma-f64",
};

static TlGpuFacts
h200 (void)
{
  TlGpuFacts f;
  memset (&f, 0, sizeof f);
  f.sm_count = 132;
  f.clock_khz = 1980000;
  f.cc_major = 9;
  return f;
}

static void
test_which (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (planned); i++)
    g_assert_cmpint (tl_gpu_gemm_plan_count (planned[i]), >=, 4);
  g_assert_cmpint (tl_gpu_gemm_plan_count ("gemm-08-vectorized"), ==, 0);
  g_assert_cmpint (tl_gpu_gemm_plan_count ("cublas-fp32"), ==, 0);
  g_assert_cmpint (tl_gpu_gemm_plan_count ("no-such-kernel"), ==, 0);
  g_assert_cmpint (tl_gpu_gemm_plan_count (NULL), ==, 0);
  TlGpuGemmPlan p;
  TlGpuFacts f = h200 ();
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-08-vectorized", 512, 512, 512, &f, NULL, &p), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (p.name, ==, "");
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-08-vectorized", 512, 512, 512, &f, "128x128", &p),
                   ==, TL_GPU_BAD_SHAPE);
}

/* Every plan's numbers agree with each other, at odd and even sizes. */
static void
test_invariants (void)
{
  const int sizes[][3] = { { 1, 1, 1 }, { 512, 512, 512 }, { 1000, 1111, 777 }, { 4096, 128, 4096 },
                           { 128, 4096, 64 }, { 12288, 12288, 12288 } };
  TlGpuFacts f = h200 ();
  for (guint r = 0; r < G_N_ELEMENTS (planned); r++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        const int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
        GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
        TlGpuGemmPlan p[64];
        const int count = tl_gpu_gemm_plan_count (planned[r]);
        g_assert_cmpint (count, <=, 64);
        for (int i = 0; i < count; i++)
          {
            g_assert_true (tl_gpu_gemm_plan_nth (planned[r], i, m, n, k, &f, &p[i]));
            g_assert_false (g_hash_table_contains (names, p[i].name));
            g_hash_table_add (names, p[i].name);
            const int tiles = ((m + p[i].tile_m - 1) / p[i].tile_m) * ((n + p[i].tile_n - 1) / p[i].tile_n);
            g_assert_cmpint (p[i].tiles, ==, tiles);
            g_assert_cmpint (p[i].work, >=, tiles * p[i].splits / MAX (p[i].cluster, 1));
            g_assert_cmpint (p[i].waves, ==, (p[i].work + p[i].slots - 1) / p[i].slots);
            g_assert_cmpfloat (p[i].last_wave_fill, >, 0.0);
            g_assert_cmpfloat (p[i].last_wave_fill, <=, 1.0);
            g_assert_cmpint (p[i].idle_sms, >=, 0);
            g_assert_cmpint (p[i].idle_sms, <, 132);
            g_assert_cmpint (p[i].k_per_split * p[i].splits, >=, k);
            g_assert_cmpfloat (p[i].model_us, >, 0.0);
            g_assert_true (p[i].splits == 1 || p[i].cluster == p[i].splits);
          }
        g_assert_false (tl_gpu_gemm_plan_nth (planned[r], count, m, n, k, &f, &p[0]));
        g_hash_table_destroy (names);
      }
}

/* A large product fills many waves without cutting k finely (at most in
 * two: halves of a 32nd wave that would be almost empty); a small one is
 * cut into more CTAs than the largest tile gives, and idles fewer SMs. */
static void
test_choice (void)
{
  TlGpuFacts f = h200 ();
  for (guint r = 0; r < G_N_ELEMENTS (planned); r++)
    {
      TlGpuGemmPlan big, small, base;
      g_assert_cmpint (tl_gpu_gemm_plan_choose (planned[r], 8192, 8192, 8192, &f, NULL, &big), ==,
                       TL_GPU_OK);
      g_assert_cmpint (big.waves, >=, 8);
      g_assert_cmpint (big.splits, <=, 2);
      g_assert_false (big.pinned);
      g_assert_cmpuint (strlen (big.why), >, 20);
      g_assert_cmpint (tl_gpu_gemm_plan_choose (planned[r], 512, 512, 512, &f, NULL, &small), ==,
                       TL_GPU_OK);
      g_assert_true (tl_gpu_gemm_plan_nth (planned[r], 0, 512, 512, 512, &f, &base));
      g_assert_cmpstr (small.name, !=, base.name);
      g_assert_cmpint (small.work, >, base.work);
      g_assert_cmpint (small.idle_sms, <, base.idle_sms);
      g_assert_cmpint (small.idle_sms_default, ==, base.idle_sms);
      g_assert_cmpfloat (small.model_us, <, base.model_us);
    }
}

/* The CUDA-core rungs' waves: rung 16 takes 64×64 tiles where its
 * 128×128 tiles are fewer than the SMs and keeps 128×128 where they fill
 * them; rung 17 runs 1000×777×1111 as 66 tiles of 96×192 with k in two —
 * 132 CTAs, one full wave — where 72 tiles of 128×128 fit no whole number
 * of waves (docs/perf/gemm-simt-h200-2026-11-29.md measured both). */
static void
test_simt_tiles (void)
{
  TlGpuFacts f = h200 ();
  g_assert_cmpint (tl_gpu_gemm_plan_count ("gemm-16-doublebuf"), ==, 2);
  const struct
  {
    const char *kernel;
    int m, n, k;
    const char *plan;
  } want[] = {
    { "gemm-16-doublebuf", 256, 256, 256, "64x64" },
    { "gemm-16-doublebuf", 1000, 1111, 777, "64x64" },
    { "gemm-16-doublebuf", 1024, 1024, 1024, "64x64" },
    { "gemm-16-doublebuf", 2048, 2048, 2048, "128x128" },
    { "gemm-16-doublebuf", 4096, 4096, 4096, "128x128" },
    { "gemm-17-simt-tma", 1000, 1111, 777, "96x192/s2" },
    { "gemm-17-simt-tma", 4096, 4096, 4096, "128x128" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      TlGpuGemmPlan p;
      g_assert_cmpint (tl_gpu_gemm_plan_choose (want[i].kernel, want[i].m, want[i].n, want[i].k, &f,
                                                NULL, &p),
                       ==, TL_GPU_OK);
      g_assert_cmpstr (p.name, ==, want[i].plan);
    }
  TlGpuGemmPlan odd;
  tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 1000, 1111, 777, &f, NULL, &odd);
  g_assert_cmpint (odd.work, ==, 132);
  g_assert_cmpint (odd.waves, ==, 1);
  g_assert_cmpint (odd.idle_sms, ==, 0);
  /* rung 16 has no cluster epilogue: no plan of it splits k */
  for (int i = 0; i < tl_gpu_gemm_plan_count ("gemm-16-doublebuf"); i++)
    {
      TlGpuGemmPlan p;
      g_assert_true (tl_gpu_gemm_plan_nth ("gemm-16-doublebuf", i, 512, 512, 512, &f, &p));
      g_assert_cmpint (p.splits, ==, 1);
    }
}

static void
test_pinned (void)
{
  TlGpuFacts f = h200 ();
  TlGpuGemmPlan p;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 512, 512, 512, &f, "128x256", &p), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (p.name, ==, "128x256");
  g_assert_true (p.pinned);
  g_assert_cmpint (p.tiles, ==, 8);
  g_assert_cmpint (p.idle_sms, ==, 124);
  g_assert_nonnull (strstr (p.why, "Pinned"));
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 512, 512, 512, &f, "7x7", &p), ==,
                   TL_GPU_BAD_SHAPE);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 512, 512, 512, &f, "64x64/s4", &p),
                   ==, TL_GPU_OK);
  g_assert_cmpint (p.splits, ==, 4);
  g_assert_cmpint (p.cluster, ==, 4);
  g_assert_cmpint (p.k_per_split, ==, 128);
}

/* The wgmma rungs offer five and seven tiles: small products get a smaller
 * tile, large ones keep the largest, unsplit, and rung 14's products of
 * about one round of tiles the three-warpgroup 192×96 (1536³: 128 CTAs
 * against 72 of 128×256 and two rounds of 128×128); an unsplit plan pays for
 * storing C element by element when its rows are not 16-byte aligned
 * (rung 14's epilogue; rung 13's measured no such cost). */
static void
test_wgmma_tiles (void)
{
  TlGpuFacts f = h200 ();
  const char *rungs[] = { "gemm-13-wgmma-tf32", "gemm-14-wgmma-persistent" };
  const char *large[] = { "256x128/c2", "128x256/c2" };
  for (int r = 0; r < 2; r++)
    {
      g_assert_cmpint (tl_gpu_gemm_plan_count (rungs[r]), ==, r == 0 ? 20 : 28);
      TlGpuGemmPlan small, big;
      g_assert_cmpint (tl_gpu_gemm_plan_choose (rungs[r], 512, 512, 512, &f, NULL, &small), ==,
                       TL_GPU_OK);
      g_assert_cmpint (small.tile_m * small.tile_n, <, 256 * 128);
      g_assert_cmpint (tl_gpu_gemm_plan_choose (rungs[r], 4096, 4096, 4096, &f, NULL, &big), ==,
                       TL_GPU_OK);
      g_assert_cmpstr (big.name, ==, large[r]);
    }
  TlGpuGemmPlan round;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 1536, 1536, 1536, &f, NULL,
                                            &round), ==, TL_GPU_OK);
  g_assert_cmpstr (round.name, ==, "192x96/c2");
  g_assert_cmpint (round.work, ==, 128);
  g_assert_cmpint (round.waves, ==, 1);
  /* 1111 and 1112 columns make the same tiles; only the stores differ */
  TlGpuGemmPlan odd, even;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 1000, 1111, 777, &f,
                                            "128x256/c2", &odd), ==, TL_GPU_OK);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 1000, 1112, 777, &f,
                                            "128x256/c2", &even), ==, TL_GPU_OK);
  g_assert_cmpint (odd.work, ==, even.work);
  g_assert_cmpfloat (odd.model_us, >, even.model_us + 1.0);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 1000, 1111, 777, &f,
                                            "128x256/s2", &odd), ==, TL_GPU_OK);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 1000, 1112, 777, &f,
                                            "128x256/s2", &even), ==, TL_GPU_OK);
  g_assert_cmpfloat_with_epsilon (odd.model_us, even.model_us, 1e-9);
}

/* Rung 15 offers five tiles: small products get a smaller one, large
 * ones the largest, unsplit.  Where k or n is odd its copies move one
 * double at a time, which costs the largest tile most: the model charges
 * that tile alone (a split plan stores through the cluster, so only the
 * copies differ between 1000×777×1111 and 1000×778×1112).  The smallest
 * products get the 32×32 tile over all of k, in no cluster: at 256³ its
 * 64 CTAs skip the split's cluster barriers and exchange, which cost
 * more there than the k they would share out (measured the fastest plan
 * at 256³ and 512³ on an H200, 64×64 at 1024³). */
static void
test_dmma_tiles (void)
{
  TlGpuFacts f = h200 ();
  TlGpuGemmPlan small, big, odd, even, tiny, none;
  /* five tiles with k cut in any count from 1 to 8 (its kernel sums any
   * count of slices), and 32×32 unsplit */
  g_assert_cmpint (tl_gpu_gemm_plan_count ("gemm-15-dmma-f64"), ==, 5 * 8 + 1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 256, 256, 256, &f, NULL, &tiny), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (tiny.name, ==, "32x32");
  g_assert_cmpint (tiny.splits, ==, 1);
  g_assert_cmpint (tiny.cluster, ==, 1);
  g_assert_cmpint (tiny.work, ==, 64);
  g_assert_cmpint (tiny.k_per_split, ==, 256);
  /* 512³ too (256 CTAs, two to an SM, against 64×64 with k cut in 2);
   * 1024³'s 1024 of them are eight rounds, where 64×64 reuses more */
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 512, 512, 512, &f, NULL, &tiny), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (tiny.name, ==, "32x32");
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1024, 1024, 1024, &f, NULL, &tiny), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (tiny.name, ==, "64x64");
  /* the 32×32 tile is never split: its kernel's registers and stages are
   * set for one CTA per tile */
  for (int i = 0; i < tl_gpu_gemm_plan_count ("gemm-15-dmma-f64"); i++)
    {
      TlGpuGemmPlan p;
      g_assert_true (tl_gpu_gemm_plan_nth ("gemm-15-dmma-f64", i, 256, 256, 256, &f, &p));
      if (p.tile_m == 32 && p.tile_n == 32)
        g_assert_cmpint (p.splits, ==, 1);
    }
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 256, 256, 256, &f, "32x32/s2", &none),
                   ==, TL_GPU_BAD_SHAPE);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 512, 512, 512, &f, NULL, &small), ==,
                   TL_GPU_OK);
  g_assert_cmpint (small.tile_m * small.tile_n, <, 128 * 128);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 4096, 4096, 4096, &f, NULL, &big), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (big.name, ==, "128x128");
  /* 1536³: 144 tiles of 128×128 make two rounds on 132 SMs, the second of
   * 12; 128 tiles of 192×96 make one */
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1536, 1536, 1536, &f, NULL, &big), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (big.name, ==, "192x96");
  g_assert_cmpint (big.work, ==, 128);
  g_assert_cmpint (big.waves, ==, 1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 2048, 2048, 2048, &f, NULL, &big), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (big.name, ==, "128x128");
  /* k = 64: each 128×128 CTA, alone on its SM, mostly writes its tile of
   * C; smaller tiles, several to an SM, overlap those writes (measured 81
   * against 63 µs on an H200) */
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 4096, 4096, 64, &f, NULL, &small), ==,
                   TL_GPU_OK);
  g_assert_cmpint (small.tile_m * small.tile_n, <, 128 * 128);
  g_assert_cmpint (small.splits, ==, 1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1000, 1111, 777, &f, "128x128/s2",
                                            &odd), ==, TL_GPU_OK);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1000, 1112, 778, &f, "128x128/s2",
                                            &even), ==, TL_GPU_OK);
  g_assert_cmpint (odd.work, ==, even.work);
  g_assert_cmpfloat (odd.model_us, >, even.model_us * 1.1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1000, 1111, 777, &f, "64x64/s2", &odd),
                   ==, TL_GPU_OK);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 1000, 1112, 778, &f, "64x64/s2",
                                            &even), ==, TL_GPU_OK);
  g_assert_cmpfloat (odd.model_us, <, even.model_us * 1.01);
}

/* Rung 14 at n or m = 64 over a long k: the thinnest tile, 64×32 in
 * pairs, needs more operand bytes per FLOP than an SM takes in from L2
 * (BF16 4096×4096×64 on an H200: 64×32/c2 measured 21.7 µs, 64×64/s2
 * 18.6, the fastest of its 28 plans); at 512³, where k is short and
 * the pairs fill the SMs, 64×32/c2 stays the choice. */
static void
test_wgmma_feed (void)
{
  TlGpuFacts f = h200 ();
  const int shapes[][3] = { { 4096, 64, 4096 }, { 64, 4096, 4096 } };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      TlGpuGemmPlan chosen, thin;
      const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
      g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", m, n, k, &f, NULL,
                                                &chosen), ==, TL_GPU_OK);
      g_assert_cmpstr (chosen.name, ==, "64x64/s2");
      g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", m, n, k, &f, "64x32/c2",
                                                &thin), ==, TL_GPU_OK);
      g_assert_cmpfloat (thin.model_us, >, chosen.model_us);
    }
  TlGpuGemmPlan small;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-14-wgmma-persistent", 512, 512, 512, &f, NULL,
                                            &small), ==, TL_GPU_OK);
  g_assert_cmpstr (small.name, ==, "64x32/c2");
}

/* The index of kernel_id's plan `name`, or −1. */
static int
plan_index (const char *kernel_id, const char *name)
{
  TlGpuFacts f = h200 ();
  for (int i = 0; i < tl_gpu_gemm_plan_count (kernel_id); i++)
    {
      TlGpuGemmPlan p;
      if (tl_gpu_gemm_plan_nth (kernel_id, i, 1024, 1024, 1024, &f, &p) && strcmp (p.name, name) == 0)
        return i;
    }
  return -1;
}

/* Skinny products whose small tiles are about one per SM: a CTA alone on
 * its SM covers none of its own k-loop's latencies, so rung 15 splits k
 * in two and puts two CTAs on each SM (FP64 4096×4096×128 on an H200:
 * 64×64 measured 110 µs, 64×64/s2 98 µs, the fastest of its 21 plans).
 * Long k, few tiles: n = 128 and m = 128 alike, and m = 8192 with n = 64.
 * A tile whose SM holds one CTA at a time keeps its estimate: the term
 * is the company that tiles meant to share an SM lack. */
static void
test_dmma_skinny (void)
{
  TlGpuFacts f = h200 ();
  const int shapes[][3] = { { 4096, 128, 4096 }, { 128, 4096, 4096 }, { 8192, 64, 4096 } };
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      TlGpuGemmPlan chosen, alone;
      const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
      g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", m, n, k, &f, NULL, &chosen), ==,
                       TL_GPU_OK);
      g_assert_cmpstr (chosen.name, ==, "64x64/s2");
      g_assert_cmpint (chosen.work, >, f.sm_count);
      g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", m, n, k, &f, "64x64", &alone), ==,
                       TL_GPU_OK);
      g_assert_cmpint (alone.work, <=, f.sm_count);
      g_assert_cmpfloat (alone.model_us, >, chosen.model_us * 1.05);
    }
  /* the term is the company a tile meant to share its SM lacks: a
   * device that holds one 64×64 CTA an SM (the occupancy calculator's
   * count) gets the tile's plain rate, one that holds three pays for
   * the lone CTA */
  const int index = plan_index ("gemm-15-dmma-f64", "64x64");
  g_assert_cmpint (index, >=, 0);
  TlGpuPlanResidency one, three;
  memset (&one, 0, sizeof one);
  memset (&three, 0, sizeof three);
  one.ctas_per_sm[index] = 1;
  three.ctas_per_sm[index] = 3;
  TlGpuGemmPlan shared, lone;
  g_assert_true (tl_gpu_gemm_plan_nth_resident ("gemm-15-dmma-f64", index, 4096, 128, 4096, &f, &one,
                                                &lone));
  g_assert_true (tl_gpu_gemm_plan_nth_resident ("gemm-15-dmma-f64", index, 4096, 128, 4096, &f,
                                                &three, &shared));
  g_assert_cmpfloat (shared.model_us, >, lone.model_us * 1.1);
}

/* Rung 15 cuts k in any count of slices.  At n = 64 over a long k
 * (FP64 4096×4096×64 on an H200, 2026-11-30) 64×64 tiles with k in 5 make
 * 320 CTAs, three to an SM at most (measured 59 µs, the fastest of its 41
 * plans), where the powers of two give 128 (one to an SM, 71 µs) or 256
 * (two, 70 µs).  A cluster sits in one GPC: 16 clusters of seven 128×128
 * CTAs (2048×4096×128) do not fit at once on an H200 (two rounds, 104 µs
 * measured, where 64×64 with k in 5 took 57). */
static void
test_dmma_split_counts (void)
{
  TlGpuFacts f = h200 ();
  TlGpuGemmPlan p, pow2;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 4096, 64, 4096, &f, NULL, &p), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (p.name, ==, "64x64/s5");
  g_assert_cmpint (p.work, ==, 320);
  g_assert_cmpint (p.waves, ==, 1);
  g_assert_cmpint (p.k_per_split, ==, 820);
  g_assert_nonnull (strstr (p.why, "k cut in 5"));
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 4096, 64, 4096, &f, "64x64/s2",
                                            &pow2), ==, TL_GPU_OK);
  g_assert_cmpfloat (pow2.model_us, >, p.model_us);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 2048, 128, 4096, &f, "128x128/s7",
                                            &p), ==, TL_GPU_OK);
  g_assert_cmpint (p.work, ==, 112);
  g_assert_cmpint (p.slots, ==, 105);
  g_assert_cmpint (p.waves, ==, 2);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 2048, 128, 4096, &f, NULL, &p), ==,
                   TL_GPU_OK);
  g_assert_cmpint (p.tile_m, ==, 64);
  /* the other rungs' kernels are measured at 2, 4 and 8 slices only */
  for (int i = 0; i < tl_gpu_gemm_plan_count ("gemm-14-wgmma-persistent"); i++)
    {
      g_assert_true (tl_gpu_gemm_plan_nth ("gemm-14-wgmma-persistent", i, 512, 512, 512, &f, &p));
      g_assert_cmpint (p.splits & (p.splits - 1), ==, 0);
    }
}

/* The CTAs per SM the device reports for a plan's kernel are the ones the
 * model counts: its slots, waves and idle SMs follow them, and without a
 * report the tile list's expectation stands in. */
static void
test_residency (void)
{
  const char *const rungs[] = { "gemm-16-doublebuf", "gemm-17-simt-tma", "gemm-13-wgmma-tf32",
                                "gemm-14-wgmma-persistent", "gemm-15-dmma-f64" };
  for (guint r = 0; r < G_N_ELEMENTS (rungs); r++)
    g_assert_cmpint (tl_gpu_gemm_plan_count (rungs[r]), <=, TL_GPU_PLANS_MAX);
  TlGpuFacts f = h200 ();
  const int i = plan_index ("gemm-15-dmma-f64", "64x64");
  g_assert_cmpint (i, >=, 0);
  TlGpuPlanResidency three = { { 0 } }, one = { { 0 } };
  three.ctas_per_sm[i] = 3;
  one.ctas_per_sm[i] = 1;
  TlGpuGemmPlan p, q, listed;
  /* 1024³: 256 tiles of 64×64 */
  g_assert_true (tl_gpu_gemm_plan_nth_resident ("gemm-15-dmma-f64", i, 1024, 1024, 1024, &f, &three, &p));
  g_assert_cmpint (p.ctas_per_sm, ==, 3);
  g_assert_cmpint (p.slots, ==, 3 * 132);
  g_assert_cmpint (p.waves, ==, 1);
  g_assert_cmpint (p.idle_sms, ==, 0);
  g_assert_true (tl_gpu_gemm_plan_nth_resident ("gemm-15-dmma-f64", i, 1024, 1024, 1024, &f, &one, &q));
  g_assert_cmpint (q.ctas_per_sm, ==, 1);
  g_assert_cmpint (q.slots, ==, 132);
  g_assert_cmpint (q.waves, ==, 2);
  g_assert_cmpint (q.idle_sms, ==, 132 - (256 - 132));
  /* one CTA at a time on the busiest SM takes as long as two rounds of them */
  g_assert_cmpfloat (q.model_us, >, p.model_us);
  g_assert_true (tl_gpu_gemm_plan_nth ("gemm-15-dmma-f64", i, 1024, 1024, 1024, &f, &listed));
  g_assert_cmpint (listed.ctas_per_sm, >=, 1);
  g_assert_cmpint (listed.slots, ==, listed.ctas_per_sm * 132);
  /* the choice and a pinned plan count the same residency */
  g_assert_cmpint (tl_gpu_gemm_plan_choose_resident ("gemm-15-dmma-f64", 1024, 1024, 1024, &f, &three,
                                                     "64x64", &q), ==, TL_GPU_OK);
  g_assert_cmpint (q.ctas_per_sm, ==, 3);
  g_assert_cmpint (q.waves, ==, 1);
}

/* Split-k runs in clusters: a GPU before compute capability 9.0 is
 * offered the unsplit plans only. */
static void
test_no_clusters (void)
{
  TlGpuFacts f = h200 ();
  f.cc_major = 8;
  TlGpuGemmPlan p;
  for (int i = 0; i < tl_gpu_gemm_plan_count ("gemm-15-dmma-f64"); i++)
    if (tl_gpu_gemm_plan_nth ("gemm-15-dmma-f64", i, 512, 512, 512, &f, &p))
      g_assert_cmpint (p.splits, ==, 1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 512, 512, 512, &f, NULL, &p), ==,
                   TL_GPU_OK);
  g_assert_cmpint (p.splits, ==, 1);
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-15-dmma-f64", 512, 512, 512, &f, "64x64/s4", &p),
                   ==, TL_GPU_BAD_SHAPE);
}

/* A run record keeps the job's pinned plan and each run's plan. */
static void
test_record (void)
{
  TlGpuFacts f = h200 ();
  g_autoptr (TlJob) job = tl_job_new_gemm (512, 512, 512, TL_DTYPE_FLOAT32);
  job->plan = g_strdup ("64x64/s2");
  g_autoptr (TlRunRecord) record = tl_run_record_new (job);
  TlKernelRun *run = tl_kernel_run_new ("gemm-17-simt-tma", TL_BACKEND_GPU);
  const double samples[] = { 0.014, 0.015, 0.016 };
  tl_kernel_run_set_samples (run, samples, 3);
  run->has_plan = TRUE;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 512, 512, 512, &f, "64x64/s2",
                                            &run->plan), ==, TL_GPU_OK);
  g_ptr_array_add (record->runs, run);
  g_autofree char *text = tl_run_record_to_string (record, TRUE);
  g_assert_nonnull (strstr (text, "\"plan\""));
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->job->plan, ==, "64x64/s2");
  const TlKernelRun *b = back->runs->pdata[0];
  g_assert_true (b->has_plan);
  const TlGpuGemmPlan *p = &run->plan, *q = &b->plan;
  g_assert_cmpstr (q->name, ==, p->name);
  g_assert_cmpstr (q->why, ==, p->why);
  g_assert_cmpint (q->tile_m, ==, 64);
  g_assert_cmpint (q->splits, ==, 2);
  g_assert_cmpint (q->cluster, ==, p->cluster);
  g_assert_cmpint (q->k_per_split, ==, p->k_per_split);
  g_assert_cmpint (q->raster, ==, p->raster);
  g_assert_cmpint (q->tiles, ==, p->tiles);
  g_assert_cmpint (q->work, ==, p->work);
  g_assert_cmpint (q->slots, ==, p->slots);
  g_assert_cmpint (q->ctas_per_sm, ==, p->ctas_per_sm);
  g_assert_cmpint (q->waves, ==, p->waves);
  g_assert_cmpint (q->idle_sms, ==, p->idle_sms);
  g_assert_cmpint (q->idle_sms_default, ==, p->idle_sms_default);
  g_assert_cmpfloat_with_epsilon (q->last_wave_fill, p->last_wave_fill, 1e-12);
  g_assert_cmpfloat_with_epsilon (q->model_us, p->model_us, 1e-9);
  g_assert_true (q->pinned);
  /* a run without a plan writes none and reads none */
  TlKernelRun *plain = tl_kernel_run_new ("gemm-08-vectorized", TL_BACKEND_GPU);
  tl_kernel_run_set_samples (plain, samples, 3);
  g_ptr_array_add (record->runs, plain);
  g_autofree char *text2 = tl_run_record_to_string (record, FALSE);
  g_autoptr (TlRunRecord) back2 = tl_run_record_from_data (text2, -1, &error);
  g_assert_no_error (error);
  g_assert_false (((const TlKernelRun *) back2->runs->pdata[1])->has_plan);
}

/* Without CUDA, a simulated GPU (TL_GPU_STUB_DEVICES) plans the planned
 * rungs as a GPU of its size would: the views can draw a plan without a
 * GPU; a name that is not a plan is refused there too. */
static void
test_simulated (void)
{
  if (tl_gpu_built_with_cuda ())
    {
      g_test_skip ("a CUDA build does not simulate GPUs");
      return;
    }
  TlGpuDevice *dev = NULL;
  g_assert_cmpint (tl_gpu_device_open (0, &dev), ==, TL_GPU_OK);
  TlGpuFacts facts;
  g_assert_cmpint (tl_gpu_device_facts (0, &facts), ==, TL_GPU_OK);
  float a[8 * 8], b[8 * 8], c[8 * 8];
  for (int i = 0; i < 64; i++)
    a[i] = b[i] = 1.0f + (float) (i % 7);
  TlGpuGemmArgs args;
  memset (&args, 0, sizeof args);
  args.dtype = TL_GPU_FLOAT32;
  args.m = args.n = args.k = 8;
  args.a = a;
  args.b = b;
  args.c = c;
  args.repeats = 1;
  TlGpuGemmResult r;
  g_assert_cmpint (tl_gpu_gemm_run (dev, "gemm-17-simt-tma", &args, &r), ==, TL_GPU_OK);
  TlGpuGemmPlan want;
  g_assert_cmpint (tl_gpu_gemm_plan_choose ("gemm-17-simt-tma", 8, 8, 8, &facts, NULL, &want), ==,
                   TL_GPU_OK);
  g_assert_cmpstr (r.plan.name, ==, want.name);
  g_assert_cmpint (r.plan.slots, >, 0);
  tl_gpu_gemm_result_clear (&r);
  g_assert_cmpint (tl_gpu_gemm_run (dev, "gemm-08-vectorized", &args, &r), ==, TL_GPU_OK);
  g_assert_cmpstr (r.plan.name, ==, "");
  tl_gpu_gemm_result_clear (&r);
  args.plan = "7x7";
  g_assert_cmpint (tl_gpu_gemm_run (dev, "gemm-17-simt-tma", &args, &r), ==, TL_GPU_BAD_SHAPE);
  g_assert_nonnull (strstr (tl_gpu_last_message (), "7x7"));
  tl_gpu_gemm_result_clear (&r);
  tl_gpu_device_close (dev);
}

int
main (int argc, char **argv)
{
  g_setenv ("TL_GPU_STUB_DEVICES", "1", TRUE);   /* before the first door call */
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gemm-plan/which", test_which);
  g_test_add_func ("/gemm-plan/invariants", test_invariants);
  g_test_add_func ("/gemm-plan/choice", test_choice);
  g_test_add_func ("/gemm-plan/pinned", test_pinned);
  g_test_add_func ("/gemm-plan/simt-tiles", test_simt_tiles);
  g_test_add_func ("/gemm-plan/wgmma-tiles", test_wgmma_tiles);
  g_test_add_func ("/gemm-plan/dmma-tiles", test_dmma_tiles);
  g_test_add_func ("/gemm-plan/dmma-skinny", test_dmma_skinny);
  g_test_add_func ("/gemm-plan/dmma-split-counts", test_dmma_split_counts);
  g_test_add_func ("/gemm-plan/wgmma-feed", test_wgmma_feed);
  g_test_add_func ("/gemm-plan/residency", test_residency);
  g_test_add_func ("/gemm-plan/no-clusters", test_no_clusters);
  g_test_add_func ("/gemm-plan/record", test_record);
  g_test_add_func ("/gemm-plan/simulated", test_simulated);
  return g_test_run ();
}
