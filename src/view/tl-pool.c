/* tl-pool.c — block pooling of a matrix region for display. */
#include "view/tl-pool.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "core/tl-error.h"

static const char *const mode_names[TL_POOL_MODE_COUNT] = { "mean", "max |a|", "max" };

const char *
tl_pool_mode_name (TlPoolMode mode)
{
  return (guint) mode < TL_POOL_MODE_COUNT ? mode_names[mode] : "?";
}

gboolean
tl_pool_mode_from_name (const char *name, TlPoolMode *out)
{
  for (guint i = 0; i < TL_POOL_MODE_COUNT; i++)
    if (g_strcmp0 (name, mode_names[i]) == 0)
      {
        *out = (TlPoolMode) i;
        return TRUE;
      }
  if (g_strcmp0 (name, "max-abs") == 0)
    {
      *out = TL_POOL_MAX_ABS;
      return TRUE;
    }
  return FALSE;
}

/* Reads n elements of row i from column j0 on as doubles and adds them to
 * range, in one pass: branch-light for the common case (all finite); one
 * element at a time again when an infinity shows up. */
#define READ_ROW_RANGE(type)                                             \
  G_STMT_START {                                                         \
    const type *src = (const type *) tl_matrix_row (m, i) + j0;          \
    for (gsize j = 0; j < n; j++)                                        \
      {                                                                  \
        double v = src[j];                                               \
        out[j] = v;                                                      \
        nan += v != v;                                                   \
        lo = v < lo ? v : lo; /* NaN compares false: skipped */          \
        hi = v > hi ? v : hi;                                            \
        min_pos = v > 0 && v < min_pos ? v : min_pos;                    \
      }                                                                  \
  } G_STMT_END

static void
read_row_range (const TlMatrix *m, gsize i, gsize j0, gsize n, double *out, TlValueRange *range)
{
  double lo = INFINITY, hi = -INFINITY, min_pos = INFINITY;
  guint64 nan = 0;

  switch (m->dtype)
    {
    case TL_DTYPE_INT32:
      READ_ROW_RANGE (gint32);
      break;
    case TL_DTYPE_FLOAT32:
      READ_ROW_RANGE (float);
      break;
    case TL_DTYPE_FLOAT64:
    default:
      READ_ROW_RANGE (double);
      break;
    }
  if ((isinf (lo) && lo < 0) || (isinf (hi) && hi > 0))
    {
      for (gsize j = 0; j < n; j++)
        tl_value_range_add (range, out[j]);
      return;
    }
  TlValueRange r = { 0 };
  r.n_nan = nan;
  r.n_finite = n - nan;
  if (r.n_finite > 0)
    {
      r.min = lo;
      r.max = hi;
      r.min_positive = isfinite (min_pos) ? min_pos : 0;
      r.max_abs = MAX (fabs (lo), fabs (hi));
    }
  tl_value_range_merge (range, &r);
}

/* Columns of a row read at once while pooling. */
#define POOL_WINDOW ((gsize) 1 << 16)

/* Adds columns w0…w1 − 1 of one row (line[0] is column w0) to the blocks
 * of factor_c columns they fall in: their sums (mean) or extremes. */
static void
pool_window (const double *line, gsize w0, gsize w1, gsize factor_c, TlPoolMode mode,
             double *acc, double *best)
{
  for (gsize gc = w0 / factor_c; gc * factor_c < w1; gc++)
    {
      gsize c_begin = MAX (gc * factor_c, w0) - w0;
      gsize c_end = MIN ((gc + 1) * factor_c, w1) - w0;
      if (mode == TL_POOL_MEAN)
        {
          double s = 0.0;
          for (gsize c = c_begin; c < c_end; c++)
            s += line[c];
          acc[gc] += s; /* NaN propagates through the sum */
        }
      else if (mode == TL_POOL_MAX)
        {
          double b = best[gc];
          for (gsize c = c_begin; c < c_end; c++)
            {
              double v = line[c];
              b = isnan (v) || isnan (b) ? NAN : v > b ? v : b;
            }
          best[gc] = b;
        }
      else
        {
          double b = best[gc];
          for (gsize c = c_begin; c < c_end; c++)
            {
              double v = line[c];
              if (isnan (v) || isnan (b))
                b = NAN;
              else if (fabs (v) > fabs (b))
                b = v;
            }
          best[gc] = b;
        }
    }
}

static TlPooledGrid *pool_region (const TlMatrix *matrix, gsize row0, gsize col0, gsize rows,
                                   gsize cols, gsize max_rows, gsize max_cols, TlPoolMode mode,
                                   guint stride, GCancellable *cancellable, GError **error);

TlPooledGrid *
tl_pool_matrix (const TlMatrix *matrix,
                gsize row0, gsize col0, gsize rows, gsize cols,
                gsize max_rows, gsize max_cols,
                TlPoolMode mode,
                GCancellable *cancellable,
                GError **error)
{
  return pool_region (matrix, row0, col0, rows, cols, max_rows, max_cols, mode, 1, cancellable,
                      error);
}

TlPooledGrid *
tl_pool_matrix_preview (const TlMatrix *matrix, gsize max_rows, gsize max_cols, guint stride,
                        TlPoolMode mode, GCancellable *cancellable, GError **error)
{
  return pool_region (matrix, 0, 0, 0, 0, max_rows, max_cols, mode, MAX (stride, 1), cancellable,
                      error);
}

/* An empty grid of the region (already clipped to the matrix): its cells
 * are factor_r × factor_c blocks of the source, at most max_rows ×
 * max_cols of them. */
static TlPooledGrid *
grid_new (const TlMatrix *matrix, gsize row0, gsize col0, gsize rows, gsize cols,
          gsize max_rows, gsize max_cols, TlPoolMode mode, guint stride)
{
  TlPooledGrid *grid = g_new0 (TlPooledGrid, 1);
  grid->ref_count = 1;
  grid->src_rows = matrix->rows;
  grid->src_cols = matrix->cols;
  grid->row0 = row0;
  grid->col0 = col0;
  grid->rows = rows;
  grid->cols = cols;
  grid->mode = mode;
  grid->sample_stride = stride;
  grid->factor_r = (guint) MAX ((rows + max_rows - 1) / max_rows, 1);
  grid->factor_c = (guint) MAX ((cols + max_cols - 1) / max_cols, 1);
  grid->grid_rows = rows ? (rows + grid->factor_r - 1) / grid->factor_r : 0;
  grid->grid_cols = cols ? (cols + grid->factor_c - 1) / grid->factor_c : 0;
  grid->values = g_new0 (double, MAX (grid->grid_rows * grid->grid_cols, 1));
  return grid;
}

/* Scratch for pooling one row of cells. */
typedef struct
{
  gsize window;     /* columns read at a time */
  double *line;     /* window values of one source row */
  double *acc;      /* per cell: the sum (mean) */
  double *best;     /* per cell: the largest or the largest in magnitude */
} PoolScratch;

/* The cells of grid row gr, from every stride-th source row of its band. */
static void
pool_grid_row (TlPooledGrid *grid, const TlMatrix *matrix, gsize gr, PoolScratch *p)
{
  gsize r_begin = grid->row0 + gr * grid->factor_r;
  gsize r_end = MIN (r_begin + grid->factor_r, grid->row0 + grid->rows);
  for (gsize gc = 0; gc < grid->grid_cols; gc++)
    {
      p->acc[gc] = 0.0;
      p->best[gc] = grid->mode == TL_POOL_MAX ? -INFINITY : 0.0;
    }

  gsize n_rows = 0;
  for (gsize r = r_begin; r < r_end; r += grid->sample_stride, n_rows++)
    for (gsize w0 = 0; w0 < grid->cols; w0 += p->window)
      {
        gsize w1 = MIN (w0 + p->window, grid->cols);
        read_row_range (matrix, r, grid->col0 + w0, w1 - w0, p->line, &grid->range);
        pool_window (p->line, w0, w1, grid->factor_c, grid->mode, p->acc, p->best);
      }

  for (gsize gc = 0; gc < grid->grid_cols; gc++)
    {
      gsize c_begin = gc * grid->factor_c;
      gsize c_end = MIN (c_begin + grid->factor_c, grid->cols);
      grid->values[gr * grid->grid_cols + gc] =
        grid->mode == TL_POOL_MEAN ? p->acc[gc] / (double) (n_rows * (c_end - c_begin))
                                   : p->best[gc];
    }
}

/* The cells' NaNs and their finite range. */
static void
grid_summarise (TlPooledGrid *grid)
{
  gboolean have_finite = FALSE;
  double lo = 0, hi = 0;
  for (gsize i = 0; i < grid->grid_rows * grid->grid_cols; i++)
    {
      double v = grid->values[i];
      if (isnan (v))
        grid->n_nan_cells++;
      else if (isfinite (v))
        {
          if (!have_finite)
            {
              lo = hi = v;
              have_finite = TRUE;
            }
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
    }
  grid->min = lo;
  grid->max = hi;
}

/* Pools the region, reading every stride-th row of each block (all when 1). */
static TlPooledGrid *
pool_region (const TlMatrix *matrix, gsize row0, gsize col0, gsize rows, gsize cols,
             gsize max_rows, gsize max_cols, TlPoolMode mode, guint stride,
             GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (matrix != NULL, NULL);
  g_return_val_if_fail (max_rows > 0 && max_cols > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (row0 > matrix->rows || col0 > matrix->cols)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("Region starts at (%zu, %zu), outside the %zu×%zu matrix"),
                   row0, col0, matrix->rows, matrix->cols);
      return NULL;
    }
  if (rows == 0 || row0 + rows > matrix->rows)
    rows = matrix->rows - row0;
  if (cols == 0 || col0 + cols > matrix->cols)
    cols = matrix->cols - col0;

  g_autoptr (TlPooledGrid) grid = grid_new (matrix, row0, col0, rows, cols, max_rows, max_cols,
                                            mode, stride);
  /* a row is read a window of columns at a time: a 1 × 350,000,000 matrix
   * needs no row of doubles as long as itself */
  gsize window = MIN (MAX (cols, 1), POOL_WINDOW);
  g_autofree double *line = g_new (double, window);
  g_autofree double *acc = g_new (double, MAX (grid->grid_cols, 1));
  g_autofree double *best = g_new (double, MAX (grid->grid_cols, 1));
  PoolScratch scratch = { window, line, acc, best };
  for (gsize gr = 0; gr < grid->grid_rows; gr++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      pool_grid_row (grid, matrix, gr, &scratch);
    }
  grid_summarise (grid);
  return g_steal_pointer (&grid);
}

gboolean
tl_pool_value_range (const TlMatrix *matrix, GCancellable *cancellable, TlValueRange *out,
                     GError **error)
{
  g_return_val_if_fail (matrix != NULL && out != NULL, FALSE);
  gsize window = MIN (MAX (matrix->cols, 1), POOL_WINDOW);
  g_autofree double *line = g_new (double, window);
  tl_value_range_init (out);
  for (gsize r = 0; r < matrix->rows; r++)
    {
      if (r % 64 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      for (gsize w0 = 0; w0 < matrix->cols; w0 += window)
        read_row_range (matrix, r, w0, MIN (window, matrix->cols - w0), line, out);
    }
  return TRUE;
}

TlPooledGrid *
tl_pooled_grid_new_from_values (gsize src_rows, gsize src_cols, gsize grid_rows, gsize grid_cols,
                                guint factor_r, guint factor_c, TlPoolMode mode,
                                const double *values)
{
  g_return_val_if_fail (values != NULL || grid_rows * grid_cols == 0, NULL);
  g_return_val_if_fail (factor_r > 0 && factor_c > 0, NULL);

  TlPooledGrid *grid = g_new0 (TlPooledGrid, 1);
  gboolean have_finite = FALSE;

  grid->ref_count = 1;
  grid->src_rows = src_rows;
  grid->src_cols = src_cols;
  grid->rows = src_rows;
  grid->cols = src_cols;
  grid->factor_r = factor_r;
  grid->factor_c = factor_c;
  grid->sample_stride = 1;
  grid->grid_rows = grid_rows;
  grid->grid_cols = grid_cols;
  grid->mode = mode;
  grid->values = g_new0 (double, MAX (grid_rows * grid_cols, 1));
  for (gsize i = 0; i < grid_rows * grid_cols; i++)
    {
      double v = values[i];
      grid->values[i] = v;
      tl_value_range_add (&grid->range, v);
      if (isnan (v))
        grid->n_nan_cells++;
      else if (isfinite (v))
        {
          grid->min = have_finite ? MIN (grid->min, v) : v;
          grid->max = have_finite ? MAX (grid->max, v) : v;
          have_finite = TRUE;
        }
    }
  return grid;
}

TlPooledGrid *
tl_pooled_grid_ref (TlPooledGrid *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
tl_pooled_grid_unref (TlPooledGrid *self)
{
  if (self == NULL)
    return;
  if (g_atomic_int_dec_and_test (&self->ref_count))
    {
      g_free (self->values);
      g_free (self);
    }
}

char *
tl_pooled_grid_describe_cells (const TlPooledGrid *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (self->factor_r <= 1 && self->factor_c <= 1)
    return NULL;
  switch (self->mode)
    {
    case TL_POOL_MAX_ABS:
      /* TRANSLATORS: a heatmap cell stands for a block of elements; %u×%u is its size */
      return g_strdup_printf (_("each cell: max |value| of %u×%u"), self->factor_r, self->factor_c);
    case TL_POOL_MAX:
      return g_strdup_printf (_("each cell: max of %u×%u"), self->factor_r, self->factor_c);
    case TL_POOL_MEAN:
    default:
      return g_strdup_printf (_("each cell: mean of %u×%u"), self->factor_r, self->factor_c);
    }
}
