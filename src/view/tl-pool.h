/* tl-pool.h — shrinking a large matrix to what a screen can show.
 *
 * A 8192×8192 matrix has 64 M elements and a panel has perhaps 600×600
 * pixels: the heatmap shows one cell per block of factor_r × factor_c
 * elements: their mean, their largest value, or the element of largest
 * magnitude (so a single bad value in a million stays visible: mean
 * pooling would average it away).  NaN anywhere in a block makes the cell
 * NaN for the same reason.
 *
 * Pooling reads every element, so it also gathers the range of the data
 * (TlValueRange, over elements, not cells) for the colour scale: a scale
 * from the whole matrix's range keeps a cell's colour when the view zooms
 * or pools differently.  It runs off the main loop (it honours a
 * GCancellable between rows) and produces an immutable, reference-counted
 * TlPooledGrid that the painters only read.
 */
#pragma once

#include <gio/gio.h>
#include "core/tl-matrix.h"
#include "view/tl-colormap.h"

G_BEGIN_DECLS

typedef enum
{
  TL_POOL_MEAN = 0,
  TL_POOL_MAX_ABS, /* the element of largest |a| in the block, with its sign */
  TL_POOL_MAX,     /* the largest element of the block */
} TlPoolMode;

#define TL_POOL_MODE_COUNT 3

const char *tl_pool_mode_name (TlPoolMode mode); /* "mean", "max |a|", "max" */
gboolean    tl_pool_mode_from_name (const char *name, TlPoolMode *out); /* also "max-abs" */

typedef struct
{
  gsize src_rows, src_cols; /* the whole matrix */
  gsize row0, col0;         /* the pooled region, in source elements */
  gsize rows, cols;
  guint factor_r, factor_c; /* source elements per cell along each axis */
  gsize grid_rows, grid_cols;
  TlPoolMode mode;
  double min, max;          /* over finite cells; 0 when there are none */
  gsize n_nan_cells;
  TlValueRange range;       /* over the elements of the region (the cells for a
                               grid made from values) */
  double *values;           /* grid_rows × grid_cols, row-major */
  guint sample_stride;      /* 1: every element; k: a preview from every k-th row */

  /*< private >*/
  gint ref_count;
} TlPooledGrid;

/* Pools the region [row0, row0+rows) × [col0, col0+cols) of matrix to at
 * most max_rows × max_cols cells (factor 1 when it already fits).  rows or
 * cols 0 mean "to the end".  Returns NULL with G_IO_ERROR_CANCELLED when
 * cancelled. */
TlPooledGrid *tl_pool_matrix (const TlMatrix *matrix,
                              gsize row0, gsize col0, gsize rows, gsize cols,
                              gsize max_rows, gsize max_cols,
                              TlPoolMode mode,
                              GCancellable *cancellable,
                              GError **error);

/* A quick preview: as tl_pool_matrix of the whole matrix, but reading only
 * every stride-th row (so about 1/stride of the work); sample_stride says
 * so, and range is that of the sample, not of the matrix. */
TlPooledGrid *tl_pool_matrix_preview (const TlMatrix *matrix, gsize max_rows, gsize max_cols,
                                      guint stride, TlPoolMode mode, GCancellable *cancellable,
                                      GError **error);

/* The range of every element of matrix (what pooling the whole matrix
 * gathers on its way), for a view that pools only a zoomed region.  FALSE
 * with G_IO_ERROR_CANCELLED when cancelled. */
gboolean      tl_pool_value_range (const TlMatrix *matrix, GCancellable *cancellable,
                                   TlValueRange *out, GError **error);

/* A grid from cells pooled elsewhere (a Gauss record's snapshot): copies
 * grid_rows × grid_cols values, each standing for factor_r × factor_c
 * elements of a src_rows × src_cols matrix; min, max and NaN count are
 * computed. */
TlPooledGrid *tl_pooled_grid_new_from_values (gsize src_rows, gsize src_cols,
                                              gsize grid_rows, gsize grid_cols,
                                              guint factor_r, guint factor_c,
                                              TlPoolMode mode, const double *values);

TlPooledGrid *tl_pooled_grid_ref   (TlPooledGrid *self);
void          tl_pooled_grid_unref (TlPooledGrid *self);

static inline double
tl_pooled_grid_get (const TlPooledGrid *self, gsize r, gsize c)
{
  return self->values[r * self->grid_cols + c];
}

/* What one cell stands for, for the colour bar: "each cell: max |value| of
 * 32×32" (NULL when cells are single elements); free with g_free. */
char            *tl_pooled_grid_describe_cells (const TlPooledGrid *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlPooledGrid, tl_pooled_grid_unref)

G_END_DECLS
