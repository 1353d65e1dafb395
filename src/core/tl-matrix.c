/* tl-matrix.c — dense row-major matrices with checked sizes. */
#include "core/tl-matrix.h"
#include "core/tl-error.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TL_MATRIX_ALIGN 64
#define TL_DEFAULT_CAP (G_GUINT64_CONSTANT (64) << 30)

gsize
tl_dtype_size (TlDtype dtype)
{
  switch (dtype)
    {
    case TL_DTYPE_INT32:   return 4;
    case TL_DTYPE_FLOAT32: return 4;
    case TL_DTYPE_FLOAT64: return 8;
    }
  g_return_val_if_reached (8);
}

static const char *const dtype_names[TL_DTYPE_COUNT] = { "int32", "float32", "float64" };

const char *
tl_dtype_name (TlDtype dtype)
{
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, "invalid");
  return dtype_names[dtype];
}

gboolean
tl_dtype_from_name (const char *name, TlDtype *out_dtype)
{
  static const struct { const char *alias; TlDtype dtype; } aliases[] = {
    { "int32", TL_DTYPE_INT32 },     { "i32", TL_DTYPE_INT32 },   { "int", TL_DTYPE_INT32 },
    { "float32", TL_DTYPE_FLOAT32 }, { "f32", TL_DTYPE_FLOAT32 }, { "float", TL_DTYPE_FLOAT32 },
    { "float64", TL_DTYPE_FLOAT64 }, { "f64", TL_DTYPE_FLOAT64 }, { "double", TL_DTYPE_FLOAT64 },
  };
  for (gsize i = 0; name && i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (name, aliases[i].alias) == 0)
      {
        *out_dtype = aliases[i].dtype;
        return TRUE;
      }
  return FALSE;
}

guint64
tl_matrix_byte_cap (void)
{
  guint64 cap = TL_DEFAULT_CAP;
  const char *env = g_getenv ("TL_MAX_MATRIX_BYTES");
  if (env != NULL)
    {
      guint64 v = g_ascii_strtoull (env, NULL, 10);
      if (v > 0)
        cap = v;
    }
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0)
    {
      guint64 phys = (guint64) pages * (guint64) page_size;
      cap = MIN (cap, phys / 4 * 3);
    }
  return cap;
}

gboolean
tl_matrix_check_size (TlDtype dtype, guint64 rows, guint64 cols, guint64 *out_bytes,
                      GError **error)
{
  guint64 elems, bytes;
  guint64 cap = tl_matrix_byte_cap ();

  if (!g_uint64_checked_mul (&elems, rows, cols)
      || !g_uint64_checked_mul (&bytes, elems, tl_dtype_size (dtype))
      || bytes > cap || rows > G_MAXSIZE || cols > G_MAXSIZE)
    {
      g_autofree char *cap_text = g_format_size_full (cap, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *need_text = NULL;
      if (g_uint64_checked_mul (&elems, rows, cols)
          && g_uint64_checked_mul (&bytes, elems, tl_dtype_size (dtype)))
        need_text = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
      else
        need_text = g_strdup ("more than 2^64 bytes");
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   "a %" G_GUINT64_FORMAT "×%" G_GUINT64_FORMAT " %s matrix needs %s, "
                   "more than the limit of %s",
                   rows, cols, tl_dtype_name (dtype), need_text, cap_text);
      return FALSE;
    }
  if (out_bytes)
    *out_bytes = bytes;
  return TRUE;
}

static TlMatrix *
matrix_alloc (TlDtype dtype, gsize rows, gsize cols, gboolean zeroed, GError **error)
{
  guint64 bytes;
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, NULL);

  if (!tl_matrix_check_size (dtype, rows, cols, &bytes, error))
    return NULL;

  /* aligned_alloc needs a size that is a multiple of the alignment, and
   * never 0 (a 0×n matrix is legal and owns a tiny block). */
  gsize padded = (gsize) ((bytes + TL_MATRIX_ALIGN - 1) / TL_MATRIX_ALIGN * TL_MATRIX_ALIGN);
  if (padded == 0)
    padded = TL_MATRIX_ALIGN;
  gpointer storage = aligned_alloc (TL_MATRIX_ALIGN, padded);
  if (storage == NULL)
    {
      g_autofree char *need = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   "out of memory allocating a %zu×%zu %s matrix (%s)", rows, cols,
                   tl_dtype_name (dtype), need);
      return NULL;
    }
  if (zeroed)
    memset (storage, 0, padded);

  TlMatrix *self = g_new0 (TlMatrix, 1);
  self->dtype = dtype;
  self->rows = rows;
  self->cols = cols;
  self->stride = cols;
  self->data = storage;
  self->storage = storage;
  self->ref_count = 1;
  return self;
}

TlMatrix *
tl_matrix_new (TlDtype dtype, gsize rows, gsize cols, GError **error)
{
  return matrix_alloc (dtype, rows, cols, FALSE, error);
}

TlMatrix *
tl_matrix_new_zeroed (TlDtype dtype, gsize rows, gsize cols, GError **error)
{
  return matrix_alloc (dtype, rows, cols, TRUE, error);
}

TlMatrix *
tl_matrix_ref (TlMatrix *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
tl_matrix_unref (TlMatrix *self)
{
  if (self == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;
  if (self->parent)
    tl_matrix_unref (self->parent);
  else
    free (self->storage);
  g_free (self);
}

TlMatrix *
tl_matrix_view (TlMatrix *self, gsize row0, gsize col0, gsize rows, gsize cols)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (row0 <= self->rows && rows <= self->rows - row0, NULL);
  g_return_val_if_fail (col0 <= self->cols && cols <= self->cols - col0, NULL);

  TlMatrix *view = g_new0 (TlMatrix, 1);
  view->dtype = self->dtype;
  view->rows = rows;
  view->cols = cols;
  view->stride = self->stride;
  view->data = (char *) self->data + (row0 * self->stride + col0) * tl_dtype_size (self->dtype);
  view->ref_count = 1;
  view->parent = tl_matrix_ref (self->parent ? self->parent : self);
  return view;
}

gboolean
tl_matrix_is_contiguous (const TlMatrix *self)
{
  return self->stride == self->cols || self->rows <= 1;
}

gsize
tl_matrix_n_elements (const TlMatrix *self)
{
  return self->rows * self->cols;
}

gsize
tl_matrix_n_bytes (const TlMatrix *self)
{
  return self->rows * self->cols * tl_dtype_size (self->dtype);
}

double
tl_matrix_get (const TlMatrix *self, gsize i, gsize j)
{
  g_assert (i < self->rows && j < self->cols);
  gsize at = i * self->stride + j;
  switch (self->dtype)
    {
    case TL_DTYPE_INT32:   return ((const gint32 *) self->data)[at];
    case TL_DTYPE_FLOAT32: return ((const float *) self->data)[at];
    case TL_DTYPE_FLOAT64: return ((const double *) self->data)[at];
    }
  g_return_val_if_reached (NAN);
}

/* Doubles become int32 by rounding to nearest, saturating at the int32
 * range; NaN becomes 0.  Conversions are explicit, so this is documented
 * behaviour rather than undefined behaviour. */
static inline gint32
to_int32 (double v)
{
  if (isnan (v))
    return 0;
  if (v >= 2147483647.0)
    return G_MAXINT32;
  if (v <= -2147483648.0)
    return G_MININT32;
  return (gint32) lrint (v);
}

void
tl_matrix_set (TlMatrix *self, gsize i, gsize j, double value)
{
  g_assert (i < self->rows && j < self->cols);
  gsize at = i * self->stride + j;
  switch (self->dtype)
    {
    case TL_DTYPE_INT32:   ((gint32 *) self->data)[at] = to_int32 (value); break;
    case TL_DTYPE_FLOAT32: ((float *) self->data)[at] = (float) value; break;
    case TL_DTYPE_FLOAT64: ((double *) self->data)[at] = value; break;
    }
}

void
tl_matrix_fill (TlMatrix *self, double value)
{
  for (gsize i = 0; i < self->rows; i++)
    for (gsize j = 0; j < self->cols; j++)
      tl_matrix_set (self, i, j, value);
}

void
tl_matrix_copy_into (const TlMatrix *src, TlMatrix *dst)
{
  g_return_if_fail (src->rows == dst->rows && src->cols == dst->cols);
  if (src->dtype == dst->dtype)
    {
      gsize row_bytes = src->cols * tl_dtype_size (src->dtype);
      for (gsize i = 0; i < src->rows && row_bytes > 0; i++)
        memcpy (tl_matrix_row (dst, i), tl_matrix_row (src, i), row_bytes);
      return;
    }
  for (gsize i = 0; i < src->rows; i++)
    for (gsize j = 0; j < src->cols; j++)
      tl_matrix_set (dst, i, j, tl_matrix_get (src, i, j));
}

TlMatrix *
tl_matrix_convert (const TlMatrix *self, TlDtype dtype, GError **error)
{
  TlMatrix *out = tl_matrix_new (dtype, self->rows, self->cols, error);
  if (out)
    tl_matrix_copy_into (self, out);
  return out;
}

TlMatrix *
tl_matrix_copy (const TlMatrix *self, GError **error)
{
  return tl_matrix_convert (self, self->dtype, error);
}

void
tl_matrix_stats (const TlMatrix *self, TlMatrixStats *out)
{
  memset (out, 0, sizeof *out);
  double sum = 0.0;
  double lo = INFINITY, hi = -INFINITY;
  for (gsize i = 0; i < self->rows; i++)
    for (gsize j = 0; j < self->cols; j++)
      {
        double v = tl_matrix_get (self, i, j);
        if (isnan (v))
          out->n_nan++;
        else if (isinf (v))
          out->n_inf++;
        else
          {
            out->n_finite++;
            sum += v;
            lo = MIN (lo, v);
            hi = MAX (hi, v);
          }
      }
  if (out->n_finite > 0)
    {
      out->min = lo;
      out->max = hi;
      out->mean = sum / (double) out->n_finite;
    }
}

double
tl_matrix_norm (const TlMatrix *self, TlNorm norm)
{
  double result = 0.0;
  switch (norm)
    {
    case TL_NORM_MAX:
      for (gsize i = 0; i < self->rows; i++)
        for (gsize j = 0; j < self->cols; j++)
          result = fmax (result, fabs (tl_matrix_get (self, i, j)));
      return result;
    case TL_NORM_INF:
      for (gsize i = 0; i < self->rows; i++)
        {
          double row = 0.0;
          for (gsize j = 0; j < self->cols; j++)
            row += fabs (tl_matrix_get (self, i, j));
          result = fmax (result, row);
        }
      return result;
    case TL_NORM_ONE:
      {
        g_autofree double *col = g_new0 (double, MAX (self->cols, 1));
        for (gsize i = 0; i < self->rows; i++)
          for (gsize j = 0; j < self->cols; j++)
            col[j] += fabs (tl_matrix_get (self, i, j));
        for (gsize j = 0; j < self->cols; j++)
          result = fmax (result, col[j]);
        return result;
      }
    case TL_NORM_FROBENIUS:
      {
        /* scaled sum of squares as in LAPACK's dlassq: no overflow for huge entries */
        double scale = 0.0, ssq = 1.0;
        for (gsize i = 0; i < self->rows; i++)
          for (gsize j = 0; j < self->cols; j++)
            {
              double v = fabs (tl_matrix_get (self, i, j));
              if (v == 0.0 || isnan (v))
                {
                  if (isnan (v))
                    return NAN;
                  continue;
                }
              if (scale < v)
                {
                  ssq = 1.0 + ssq * (scale / v) * (scale / v);
                  scale = v;
                }
              else
                ssq += (v / scale) * (v / scale);
            }
        return scale * sqrt (ssq);
      }
    }
  g_return_val_if_reached (NAN);
}

gboolean
tl_matrix_compare (const TlMatrix *a, const TlMatrix *b, TlMatrixDiff *out)
{
  memset (out, 0, sizeof *out);
  if (a->rows != b->rows || a->cols != b->cols)
    return FALSE;

  double diff_sq = 0.0, ref_sq = 0.0;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (a, i, j);
        double y = tl_matrix_get (b, i, j);
        if (isnan (x) || isnan (y))
          {
            if (!(isnan (x) && isnan (y)))
              {
                if (out->n_mismatch_nan == 0 && !isinf (out->max_abs))
                  {
                    out->worst_row = i;
                    out->worst_col = j;
                  }
                out->n_mismatch_nan++;
                out->max_abs = INFINITY;
                out->max_rel = INFINITY;
              }
            continue;
          }
        double d = fabs (x - y);
        if (x == y) /* also equal infinities */
          d = 0.0;
        if (d > out->max_abs)
          {
            out->max_abs = d;
            out->worst_row = i;
            out->worst_col = j;
          }
        double rel = d / fmax (fabs (y), DBL_MIN);
        out->max_rel = fmax (out->max_rel, d == 0.0 ? 0.0 : rel);
        diff_sq += d * d;
        ref_sq += y * y;
      }
  if (out->n_mismatch_nan > 0)
    out->rel_norm = INFINITY;
  else if (ref_sq > 0.0)
    out->rel_norm = sqrt (diff_sq / ref_sq);
  else
    out->rel_norm = diff_sq > 0.0 ? INFINITY : 0.0;
  return TRUE;
}

gboolean
tl_matrix_find_nonfinite (const TlMatrix *self, gsize *out_row, gsize *out_col)
{
  if (self->dtype == TL_DTYPE_INT32)
    return FALSE;
  for (gsize i = 0; i < self->rows; i++)
    for (gsize j = 0; j < self->cols; j++)
      if (!isfinite (tl_matrix_get (self, i, j)))
        {
          if (out_row)
            *out_row = i;
          if (out_col)
            *out_col = j;
          return TRUE;
        }
  return FALSE;
}

gboolean
tl_matrix_equal (const TlMatrix *a, const TlMatrix *b)
{
  if (a->rows != b->rows || a->cols != b->cols)
    return FALSE;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (a, i, j), y = tl_matrix_get (b, i, j);
        if (!(x == y || (isnan (x) && isnan (y))))
          return FALSE;
      }
  return TRUE;
}
