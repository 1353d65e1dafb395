/* tl-rng.c — xoshiro256** seeded by splitmix64 (see tl-rng.h). */
#include "core/tl-rng.h"

#include <math.h>

/* No fused multiply-add contraction: every value must round the same way
 * on every machine (GCC already does this in -std=c17 mode). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* GCC: -std=c17 already means -ffp-contract=off */
#endif

guint64
tl_splitmix64 (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static inline guint64
rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

void
tl_rng_init (TlRng *self, guint64 seed)
{
  g_return_if_fail (self != NULL);

  guint64 sm = seed;
  for (int i = 0; i < 4; i++)
    self->s[i] = tl_splitmix64 (&sm);
  /* splitmix64 is a bijection of its counter, so four consecutive outputs
   * are never all zero — the one state xoshiro must avoid. */
  self->has_spare = FALSE;
  self->spare_normal = 0.0;
}

void
tl_rng_init_stream (TlRng *self, guint64 seed, guint stream)
{
  tl_rng_init (self, seed);
  for (guint i = 0; i < stream; i++)
    tl_rng_jump (self);
}

guint64
tl_rng_next (TlRng *self)
{
  guint64 *s = self->s;
  const guint64 result = rotl (s[1] * 5, 7) * 9;
  const guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

static void
jump_with (TlRng *self, const guint64 poly[4])
{
  guint64 acc[4] = { 0, 0, 0, 0 };

  for (int i = 0; i < 4; i++)
    for (int b = 0; b < 64; b++)
      {
        if (poly[i] & (G_GUINT64_CONSTANT (1) << b))
          for (int w = 0; w < 4; w++)
            acc[w] ^= self->s[w];
        tl_rng_next (self);
      }
  for (int w = 0; w < 4; w++)
    self->s[w] = acc[w];
  self->has_spare = FALSE;
}

void
tl_rng_jump (TlRng *self)
{
  static const guint64 poly[4] = {
    G_GUINT64_CONSTANT (0x180ec6d33cfd0aba), G_GUINT64_CONSTANT (0xd5a61266f0c9392c),
    G_GUINT64_CONSTANT (0xa9582618e03fc9aa), G_GUINT64_CONSTANT (0x39abdc4529b1661c),
  };
  g_return_if_fail (self != NULL);
  jump_with (self, poly);
}

void
tl_rng_long_jump (TlRng *self)
{
  static const guint64 poly[4] = {
    G_GUINT64_CONSTANT (0x76e15d3efefdcbbf), G_GUINT64_CONSTANT (0xc5004e441c522fb3),
    G_GUINT64_CONSTANT (0x77710069854ee241), G_GUINT64_CONSTANT (0x39109bb02acbe635),
  };
  g_return_if_fail (self != NULL);
  jump_with (self, poly);
}

void
tl_rng_split (TlRng *self, TlRng *child)
{
  g_return_if_fail (self != NULL && child != NULL);
  *child = *self;
  child->has_spare = FALSE;
  tl_rng_jump (self);
}

double
tl_rng_uniform (TlRng *self)
{
  /* 53 random bits times 2^-53: every double k·2^-53 with 0 <= k < 2^53,
   * each equally likely, computed exactly. */
  return (double) (tl_rng_next (self) >> 11) * 0x1.0p-53;
}

double
tl_rng_uniform_range (TlRng *self, double lo, double hi)
{
  double v = lo + (hi - lo) * tl_rng_uniform (self);
  /* (hi - lo)·u can round up to hi - lo; keep the interval half open. */
  if (v >= hi && lo < hi)
    v = nextafter (hi, lo);
  return v;
}

guint64
tl_rng_below (TlRng *self, guint64 bound)
{
  g_return_val_if_fail (bound > 0, 0);

  /* 2^64 mod bound values at the bottom would make the small residues more
   * likely; draws below that threshold are thrown away. */
  const guint64 threshold = (0 - bound) % bound;
  for (;;)
    {
      guint64 r = tl_rng_next (self);
      if (r >= threshold)
        return r % bound;
    }
}

gint64
tl_rng_int_range (TlRng *self, gint64 lo, gint64 hi)
{
  g_return_val_if_fail (lo <= hi, lo);

  guint64 span = (guint64) hi - (guint64) lo;
  guint64 offset = span == G_MAXUINT64 ? tl_rng_next (self) : tl_rng_below (self, span + 1);
  /* Unsigned addition wraps modulo 2^64, then lands inside [lo, hi]. */
  return (gint64) ((guint64) lo + offset);
}

double
tl_rng_normal (TlRng *self)
{
  if (self->has_spare)
    {
      self->has_spare = FALSE;
      return self->spare_normal;
    }

  double u, v, s;
  do
    {
      u = 2.0 * tl_rng_uniform (self) - 1.0;
      v = 2.0 * tl_rng_uniform (self) - 1.0;
      s = u * u + v * v;
    }
  while (s >= 1.0 || s == 0.0);

  double f = sqrt (-2.0 * log (s) / s);
  self->spare_normal = v * f;
  self->has_spare = TRUE;
  return u * f;
}
