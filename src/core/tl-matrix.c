/* tl-matrix.c — dense row-major matrices with checked sizes. */
#include "core/tl-matrix.h"
#include "core/tl-error.h"
#include "core/tl-memory.h"

#include <inttypes.h>
#include <float.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TL_MATRIX_ALIGN 64
#define TL_HUGE_PAGE ((gsize) 2 << 20)

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

/* ---- the cap ---------------------------------------------------------- */

guint64
tl_matrix_byte_cap (void)
{
  const char *env = g_getenv ("TL_MAX_MATRIX_BYTES");
  guint64 v = env ? g_ascii_strtoull (env, NULL, 10) : 0;
  return v > 0 ? v : G_MAXUINT64;
}

/* ---- the size check --------------------------------------------------- */

gboolean
tl_matrix_check_shape (guint64 rows, guint64 cols, GError **error)
{
  if (rows <= TL_MATRIX_MAX_DIM && cols <= TL_MATRIX_MAX_DIM)
    return TRUE;
  g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
               _("a %" PRIu64 "×%" PRIu64 " matrix has more than %d %s"),
               rows, cols, TL_MATRIX_MAX_DIM, rows > TL_MATRIX_MAX_DIM ? _("rows") : _("columns"));
  return FALSE;
}

gboolean
tl_matrix_check_size (TlDtype dtype, guint64 rows, guint64 cols, guint64 *out_bytes,
                      GError **error)
{
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, FALSE);
  if (!tl_matrix_check_shape (rows, cols, error))
    return FALSE;

  /* both dimensions are below 2³¹, so neither product can overflow */
  guint64 bytes = rows * cols * tl_dtype_size (dtype);
  /* what the longer dimension alone costs as a float64 vector: norms,
   * pivots and column sums need that much even when the matrix is empty */
  guint64 vector = MAX (rows, cols) * sizeof (double);
  guint64 need = MAX (bytes, vector), cap = tl_matrix_byte_cap ();
  g_autofree char *what = bytes >= vector
    /* TRANSLATORS: "a 30000×30000 float64 matrix" */
    ? g_strdup_printf (_("a %" PRIu64 "×%" PRIu64 " %s matrix"), rows, cols, tl_dtype_name (dtype))
    /* TRANSLATORS: "one value per row of a 10000000000×0 matrix" */
    : g_strdup_printf (_("one value per %s of a %" PRIu64 "×%" PRIu64 " matrix"),
                       rows > cols ? _("row") : _("column"), rows, cols);
  if (need > cap)
    {
      g_autofree char *need_text = g_format_size_full (need, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *cap_text = g_format_size_full (cap, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   /* TRANSLATORS: "a 30000×30000 float64 matrix needs 6.7 GiB, more than
                    * TL_MAX_MATRIX_BYTES allows (1.0 GiB)" */
                   _("%s needs %s, more than TL_MAX_MATRIX_BYTES allows (%s)"), what,
                   need_text, cap_text);
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  if (!tl_memory_check (need, what, &local))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_TOO_LARGE, local->message);
      return FALSE;
    }
  if (out_bytes)
    *out_bytes = bytes;
  return TRUE;
}

/* A large matrix is read or written whole at once (a load, a kernel's C,
 * a save): 2 MiB pages take a 512th of the page faults, which dominate
 * the time of a save of a large sparse matrix (4 KiB faults in a virtual
 * machine cost microseconds each).  Lazily zeroed storage keeps its
 * point: the kernel maps one shared huge zero page for what is only read,
 * and the budget already counted the whole matrix for what is written. */
static void
advise_huge_pages (gpointer data, gsize bytes)
{
#ifdef MADV_HUGEPAGE
  if (bytes < TL_HUGE_PAGE * 8)
    return;
  guintptr start = ((guintptr) data + TL_HUGE_PAGE - 1) & ~(guintptr) (TL_HUGE_PAGE - 1);
  guintptr end = ((guintptr) data + bytes) & ~(guintptr) (TL_HUGE_PAGE - 1);
  if (end > start)
    (void) madvise ((void *) start, end - start, MADV_HUGEPAGE);
#else
  (void) data, (void) bytes;
#endif
}

static TlMatrix *
matrix_alloc (TlDtype dtype, gsize rows, gsize cols, gboolean zeroed, GError **error)
{
  guint64 bytes;
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, NULL);

  if (!tl_matrix_check_size (dtype, rows, cols, &bytes, error))
    return NULL;

  /* aligned_alloc needs a size that is a multiple of the alignment, and
   * never 0 (a 0×n matrix is legal and owns a tiny block).  Zeroed
   * storage comes from calloc, whose large blocks are fresh pages the
   * kernel zeroes on first touch: a huge sparse matrix costs no time
   * until its pages are used. */
  gsize padded = (gsize) ((bytes + TL_MATRIX_ALIGN - 1) / TL_MATRIX_ALIGN * TL_MATRIX_ALIGN);
  if (padded == 0)
    padded = TL_MATRIX_ALIGN;
  gpointer storage, data;
  if (zeroed)
    {
      storage = calloc (1, padded + TL_MATRIX_ALIGN);
      data = storage ? (gpointer) (((guintptr) storage + TL_MATRIX_ALIGN - 1)
                                   / TL_MATRIX_ALIGN * TL_MATRIX_ALIGN)
                     : NULL;
    }
  else
    storage = data = aligned_alloc (TL_MATRIX_ALIGN, padded);
  if (storage != NULL)
    advise_huge_pages (data, padded);
  if (storage == NULL)
    {
      g_autofree char *need = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("a %zu×%zu %s matrix needs %s: out of memory"), rows, cols,
                   tl_dtype_name (dtype), need);
      return NULL;
    }

  TlMatrix *self = g_new0 (TlMatrix, 1);
  self->dtype = dtype;
  self->rows = rows;
  self->cols = cols;
  self->stride = cols;
  self->data = data;
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

/* Loops over an empty matrix end before they start: a 2³¹×0 matrix
 * would otherwise cost 2³¹ empty rows. */
static inline gboolean
is_empty (const TlMatrix *self)
{
  return self->rows == 0 || self->cols == 0;
}

void
tl_matrix_fill (TlMatrix *self, double value)
{
  if (is_empty (self))
    return;
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
  if (is_empty (src))
    return;
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

gboolean
tl_matrix_fits_float32 (const TlMatrix *m, GError **error)
{
  if (m->dtype != TL_DTYPE_FLOAT64)
    return TRUE;
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      {
        double v = tl_matrix_get (m, i, j);
        if (isfinite (v) && isinf ((float) v))
          {
            g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                         _("the value at row %zu, column %zu (%.17g) is beyond float32's range "
                           "(±3.4028235e+38): it would become infinite"), i + 1, j + 1, v);
            return FALSE;
          }
      }
  return TRUE;
}

TlMatrix *
tl_matrix_copy (const TlMatrix *self, GError **error)
{
  return tl_matrix_convert (self, self->dtype, error);
}

gboolean
tl_matrix_compare (const TlMatrix *a, const TlMatrix *b, TlMatrixDiff *out)
{
  memset (out, 0, sizeof *out);
  if (a->rows != b->rows || a->cols != b->cols)
    return FALSE;

  if (is_empty (a))
    return TRUE;
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
  if (self->dtype == TL_DTYPE_INT32 || is_empty (self))
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
  if (is_empty (a))
    return TRUE;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double x = tl_matrix_get (a, i, j), y = tl_matrix_get (b, i, j);
        if (!(x == y || (isnan (x) && isnan (y))))
          return FALSE;
      }
  return TRUE;
}
