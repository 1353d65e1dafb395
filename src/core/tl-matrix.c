/* tl-matrix.c — dense row-major matrices with checked sizes. */
#include "core/tl-matrix.h"
#include "core/tl-error.h"

#include <inttypes.h>
#include <float.h>
#include <glib/gi18n-lib.h>
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

/* ---- the memory cap -------------------------------------------------- */

/* A number of bytes from a "Key:   123 kB" line of /proc/meminfo. */
static gboolean
meminfo_bytes (const char *text, const char *key, guint64 *out)
{
  const char *at = strstr (text, key);
  if (at == NULL)
    return FALSE;
  at += strlen (key);
  while (*at == ' ' || *at == '\t')
    at++;
  char *end = NULL;
  guint64 kib = g_ascii_strtoull (at, &end, 10);
  if (end == at)
    return FALSE;
  *out = kib * 1024;
  return TRUE;
}

/* What this process could still allocate without swapping or being
 * killed: MemAvailable, and within a cgroup (v2) its limit less its use. */
static guint64
read_memory_available (void)
{
  guint64 available = G_MAXUINT64;
  g_autofree char *meminfo = NULL;
  if (g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL))
    meminfo_bytes (meminfo, "MemAvailable:", &available);

  g_autofree char *max = NULL, *current = NULL;
  if (g_file_get_contents ("/sys/fs/cgroup/memory.max", &max, NULL, NULL)
      && g_file_get_contents ("/sys/fs/cgroup/memory.current", &current, NULL, NULL)
      && g_ascii_isdigit (max[0]) && g_ascii_isdigit (current[0]))
    {
      guint64 limit = g_ascii_strtoull (max, NULL, 10);
      guint64 used = g_ascii_strtoull (current, NULL, 10);
      available = MIN (available, limit > used ? limit - used : 0);
    }
  return available;
}

/* read_memory_available, at most every 100 ms: every allocation asks, and
 * reading /proc takes tens of microseconds */
static guint64
memory_available (void)
{
  static GMutex lock;
  static gint64 read_at;
  static gboolean have_read;
  static guint64 cached;
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&lock);
  if (!have_read || now - read_at > 100 * 1000)
    {
      cached = read_memory_available ();
      read_at = now;
      have_read = TRUE;
    }
  guint64 available = cached;
  g_mutex_unlock (&lock);
  return available;
}

void
tl_memory_cap_read (TlMemoryCap *out)
{
  g_return_if_fail (out != NULL);
  guint64 configured = TL_DEFAULT_CAP;
  const char *env = g_getenv ("TL_MAX_MATRIX_BYTES");
  if (env != NULL)
    {
      guint64 v = g_ascii_strtoull (env, NULL, 10);
      if (v > 0)
        configured = v;
    }
  static gsize phys; /* physical memory does not change: asked once */
  if (g_once_init_enter (&phys))
    {
      long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGE_SIZE);
      guint64 bytes = pages > 0 && page_size > 0 ? (guint64) pages * (guint64) page_size : 0;
      g_once_init_leave (&phys, (gsize) MAX (bytes, 1));
    }
  if (phys > 1)
    configured = MIN (configured, (guint64) phys / 4 * 3);
  out->configured = configured;
  out->available = memory_available ();
  out->limit = MIN (out->configured, out->available);
}

guint64
tl_matrix_byte_cap (void)
{
  TlMemoryCap cap;
  tl_memory_cap_read (&cap);
  return cap.limit;
}

char *
tl_memory_cap_describe (const TlMemoryCap *cap)
{
  g_autofree char *limit = g_format_size_full (cap->limit, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *configured = g_format_size_full (cap->configured, G_FORMAT_SIZE_IEC_UNITS);
  if (cap->available < cap->configured)
    /* TRANSLATORS: "the 3.1 GiB of memory available now (the limit is 64 GiB)" */
    return g_strdup_printf (_("the %s of memory available now (the limit is %s)"), limit,
                            configured);
  if (cap->available == G_MAXUINT64)
    return g_strdup_printf (_("the limit of %s"), limit);
  g_autofree char *available = g_format_size_full (cap->available, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: "the limit of 17.7 GiB (22.0 GiB of memory available now)" */
  return g_strdup_printf (_("the limit of %s (%s of memory available now)"), limit, available);
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
  TlMemoryCap cap;
  tl_memory_cap_read (&cap);
  if (bytes <= cap.limit && vector <= cap.limit)
    {
      if (out_bytes)
        *out_bytes = bytes;
      return TRUE;
    }
  g_autofree char *within = tl_memory_cap_describe (&cap);
  g_autofree char *need = g_format_size_full (MAX (bytes, vector), G_FORMAT_SIZE_IEC_UNITS);
  if (bytes >= vector)
    /* TRANSLATORS: "a 30000×30000 float64 matrix needs 6.7 GiB, more than
     * the limit of 4.0 GiB (22.0 GiB of memory available now)" */
    g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                 _("a %" PRIu64 "×%" PRIu64 " %s matrix needs %s, more "
                   "than %s"), rows, cols, tl_dtype_name (dtype), need, within);
  else
    g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                 _("a %" PRIu64 "×%" PRIu64 " matrix needs %s for one "
                   "value per %s, more than %s"), rows, cols, need,
                 rows > cols ? _("row") : _("column"), within);
  return FALSE;
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
  if (storage == NULL)
    {
      g_autofree char *need = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("out of memory allocating a %zu×%zu %s matrix (%s)"), rows, cols,
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

TlMatrix *
tl_matrix_copy (const TlMatrix *self, GError **error)
{
  return tl_matrix_convert (self, self->dtype, error);
}

void
tl_matrix_stats (const TlMatrix *self, TlMatrixStats *out)
{
  memset (out, 0, sizeof *out);
  if (is_empty (self))
    return;
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
  if (is_empty (self))
    return 0.0;
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
