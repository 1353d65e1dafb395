/* tl-generate.h — named, parametrised, reproducible matrix generators.
 *
 * A generator is named by a spec "NAME" or "NAME:key=value,key=value",
 * e.g. "random-uniform:lo=-1,hi=1", "random-int:lo=0,hi=4" (seed 004),
 * "ones" (seed 002), "condition:kappa=1e6", "rank-deficient:rank=3".
 * The same spec, size, dtype and seed give bit-identical matrices on every
 * machine: Tilelab's own PRNG, never rand().
 */
#pragma once

#include "core/tl-matrix.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;        /* "random-uniform" */
  const char *title;       /* translatable label */
  const char *description; /* one line, with its parameters and defaults */
  const char *params;      /* "lo=-1,hi=1" — the defaults, as a spec suffix */
  gboolean square_only;
  gboolean makes_int32;    /* also fills int32 matrices (others refuse int32) */
} TlGeneratorInfo;

guint                  tl_generator_count (void);
const TlGeneratorInfo *tl_generator_get   (guint index);
const TlGeneratorInfo *tl_generator_find  (const char *name);

TlMatrix *tl_generate (const char *spec, TlDtype dtype, gsize rows, gsize cols,
                       guint64 seed, GError **error);

G_END_DECLS
