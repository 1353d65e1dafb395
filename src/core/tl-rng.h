/* tl-rng.h — Tilelab's own pseudo-random numbers, the same on every machine.
 *
 * xoshiro256** (Blackman and Vigna, 2018) seeded through splitmix64: a
 * 64-bit seed gives the same stream of 64-bit integers everywhere, because
 * both algorithms use only 64-bit integer shifts, xors and multiplications.
 *
 * Derived values:
 *  - uniform doubles in [0, 1) take the top 53 bits (exact, no rounding);
 *  - uniform integers in [lo, hi] reject the short last bucket, so there is
 *    no modulo bias;
 *  - normal values use Marsaglia's polar method (no trigonometry): a pair of
 *    uniforms inside the unit disc is scaled by sqrt(-2 ln s / s).  sqrt is
 *    exact in IEEE 754, but log comes from libm; bit-identical normals across
 *    machines therefore assume a libm whose log rounds the same (glibc's
 *    does on every architecture it supports; other libms may differ in the
 *    last bit).
 *
 * Independent streams for threads: tl_rng_jump advances a generator by
 * 2^128 steps, tl_rng_split hands out the current stream and jumps itself.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 s[4];
  /*< private >*/
  double spare_normal;
  gboolean has_spare;
} TlRng;

/* splitmix64: advances *state and returns the next output. */
guint64  tl_splitmix64        (guint64 *state);

void     tl_rng_init          (TlRng *self, guint64 seed);
/* The stream'th independent stream of seed: seed's state jumped stream times. */
void     tl_rng_init_stream   (TlRng *self, guint64 seed, guint stream);
guint64  tl_rng_next          (TlRng *self);
/* Advances by 2^128 outputs (2^64 non-overlapping streams). */
void     tl_rng_jump          (TlRng *self);
/* Advances by 2^192 outputs (2^64 streams of 2^64 jumps each). */
void     tl_rng_long_jump     (TlRng *self);
/* *child gets this generator's current stream; this one jumps ahead. */
void     tl_rng_split         (TlRng *self, TlRng *child);

double   tl_rng_uniform       (TlRng *self);          /* [0, 1) */
double   tl_rng_uniform_range (TlRng *self, double lo, double hi); /* [lo, hi) for lo < hi */
/* Uniform integer in [lo, hi] (inclusive), without modulo bias.  lo <= hi. */
gint64   tl_rng_int_range     (TlRng *self, gint64 lo, gint64 hi);
/* Uniform integer in [0, bound) for bound > 0, without modulo bias. */
guint64  tl_rng_below         (TlRng *self, guint64 bound);
double   tl_rng_normal        (TlRng *self);          /* mean 0, sd 1 */

G_END_DECLS
