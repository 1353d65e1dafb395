/* tl-sweep-sizes.h — the problem sizes of a size sweep, as a reader types them.
 *
 * "256, 512, 1000×777×1111, 1024, 2048": a comma-separated list, each
 * item n (a cube, m = k = n) or m×k×n (x, X, × or * between).  The
 * default is the lecture's: the sizes a heatmap shows and a click
 * answers at once, with one odd shape.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TL_SWEEP_SIZES_DEFAULT "256, 512, 1000×777×1111, 1024, 2048"
/* The largest m, k or n a sweep takes from the app (a click, not a benchmark). */
#define TL_SWEEP_SIZE_MAX 16384
/* At most this many sizes in one sweep. */
#define TL_SWEEP_SIZES_MAX 32

typedef struct
{
  gsize m, k, n;
} TlSweepSize;

/* The sizes of text, in order, duplicates dropped (a GArray of
 * TlSweepSize), or NULL with an error that names the item and what is
 * wrong with it (TL_ERROR_INVALID). */
GArray *tl_sweep_sizes_parse  (const char *text, GError **error);
/* The list back as text ("256, 1000×777×1111"). */
char   *tl_sweep_sizes_format (const GArray *sizes);

G_END_DECLS
