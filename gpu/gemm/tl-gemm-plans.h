/* tl-gemm-plans.h — the tiles of the planned rungs, one list per rung.
 *
 * Read by the cost model (gpu/tl-gpu-plan.c, plain C: it enumerates and
 * costs the plans) and by each planned rung's dispatch (gemm-NN-*.cu:
 * one kernel instantiation per tile), so every plan the model can choose
 * has its kernel, and no kernel is built that no plan runs.
 *
 *   TL_GEMM_NN_TILES (X)  expands to
 *       X (TILE_M, TILE_N, CTAS_PER_SM, EFFICIENCY, MAX_SPLITS)
 *
 * CTAS_PER_SM is how many of the rung's CTAs of that tile an SM of an
 * H100 or H200 holds at once (shared memory and registers).  On a GPU the
 * harness asks the occupancy calculator for the kernel each plan runs and
 * the model counts that (gpu/tl-gpu-plan-residency.cu); this number stands
 * in where there is no GPU to ask (a record's plans on a laptop), and the
 * GPU test checks a run's count against the calculator's; EFFICIENCY is
 * the fraction of the SM's peak rate the tile sustains in its main loop,
 * fitted to the H200 sweep (docs/perf/gemm-plans-h200.md).  Largest tile
 * first: it is the rung's unplanned shape, the one the model compares
 * every plan against.  MAX_SPLITS (1, 2, 4 or 8) bounds the slices of k
 * a plan with that tile may cut: 1 where the tile's kernel is built
 * without the split-k epilogue (rung 17's largest: its registers are all
 * taken by the main loop).
 */

/* rung 16, FP32 on the CUDA cores, double-buffered: 128 × 128 (two blocks
 * of 256 threads per SM) and, for products whose 128 × 128 tiles are
 * fewer than the SMs, 64 × 64 (four blocks of 128 threads per SM: four
 * times the blocks, each with half the work per operand loaded).  No
 * split of k: the rung has no cluster epilogue. */
#define TL_GEMM_16_TILES(X) \
  X (128, 128, 2, 0.64, 1)     \
  X (64, 64, 4, 0.54, 1)

/* rung 17, FP32 on the CUDA cores: 256 FFMA threads, 8 × 16 … 4 × 4
 * outputs each.  128 × 256 was left out of the fit (the build of it then
 * ran slower than before the plans: docs/perf/gemm-plans-h200.md); its
 * efficiency is set just below 128 × 128's, which measured a little faster
 * than it at large sizes, so the model prefers 128 × 128 at every size.
 * 96 × 192 (6 × 12 per thread: as many FFMAs per shared load as 128 × 128)
 * is there for the mid-size products whose 128-wide tiles quantise badly:
 * 1000×777×1111 is 72 tiles of 128 × 128 (288 CTAs in three waves with k
 * cut in 4) but 66 of 96 × 192, which k cut in 2 makes exactly 132 CTAs —
 * one full wave.  Its efficiency is set a little under 128 × 128's, so it
 * wins on waves, never on a tie. */
#define TL_GEMM_17_TILES(X) \
  X (128, 256, 1, 0.66, 1)     \
  X (128, 128, 1, 0.68, 8)     \
  X (96, 192, 1, 0.66, 8)      \
  X (64, 128, 1, 0.62, 8)      \
  X (64, 64, 1, 0.58, 8)

/* rung 13, TF32 wgmma: tile_m is the wgmma's n (256 … 32; A from
 * shared memory), tile_n one consumer warpgroup per 64 columns (two or
 * one).  The smaller tiles give small problems CTAs for more SMs, each
 * with less to load before its first wgmma. */
#define TL_GEMM_13_TILES(X) \
  X (256, 128, 1, 0.78, 8)     \
  X (128, 128, 1, 0.42, 8)     \
  X (128, 64, 1, 0.36, 8)      \
  X (64, 64, 1, 0.20, 8)       \
  X (32, 64, 1, 0.10, 8)

/* rung 14, BF16 wgmma: one consumer warpgroup per 64 rows (three, two or
 * one), wgmma n = tile_n (256 … 32).  192 × 96 reuses an operand byte as
 * often as 128 × 128 and is there for products of about one round of
 * tiles (1536³: 128 of them, against 144 of 128 × 128); its efficiency is
 * set a little under 128 × 128's, so it wins on waves, never on a tie. */
#define TL_GEMM_14_TILES(X) \
  X (128, 256, 1, 0.79, 8)     \
  X (192, 96, 1, 0.64, 8)      \
  X (128, 128, 1, 0.66, 8)     \
  X (64, 128, 1, 0.50, 8)      \
  X (128, 64, 1, 0.43, 8)      \
  X (64, 64, 1, 0.27, 8)       \
  X (64, 32, 2, 0.27, 8)

/* rung 15, FP64 DMMA: 8 warps of 32 × 64 outputs (m16n8k8) in the
 * largest tile; 192 × 96 (12 warps of 32 × 48, m16n8k4) for products of
 * about one round of tiles (1536³: 128 CTAs in one round against 144 of
 * 128 × 128 in two; its efficiency, 0.84, puts the model's 1536³ within
 * 3% of the measured 141 µs and a little under 128 × 128's, so it wins
 * on waves, never on a tie); 4 warps of 32 × 64, 4 and 2 warps of 32 × 32 (m16n8k4) in
 * the smaller ones, which give small products CTAs for more SMs; and
 * 32 × 32 (4 warps of 16 × 16, m16n8k16, cuBLAS's small-product shape),
 * never split, so the smallest products run every tile over all of k
 * with no cluster barrier.  Its efficiency is fitted to its own times at
 * 256³, 512³ and 1024³ (odd k runs its copies a double at a time, which
 * the model charges the largest tile alone).  An SM
 * holds three CTAs of 64 × 64 (142 registers a thread, 74 KB of shared
 * memory a CTA).  At 1000×777×1111 its 288 tiles are one round of three
 * CTAs per SM on 24 SMs and two on the rest: the busiest SM's three full
 * k-loops take longer than five half ones with k cut in 2, which is why
 * the model counts the busiest SM's CTAs rather than rounds. */
#define TL_GEMM_15_TILES(X) \
  X (128, 128, 1, 0.87, 8)     \
  X (192, 96, 1, 0.84, 8)      \
  X (64, 128, 2, 0.74, 8)      \
  X (64, 64, 3, 0.81, 8)       \
  X (32, 64, 4, 0.41, 8)       \
  X (32, 32, 2, 0.49, 1)
