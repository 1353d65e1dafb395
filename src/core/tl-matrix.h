/* tl-matrix.h — the dense matrix every part of Tilelab passes around.
 *
 * A TlMatrix is row-major: element (i, j) lives at data[i * stride + j].
 * Storage is 64-byte aligned and reference counted; a view shares its
 * parent's storage (and keeps the parent alive) with its own offset and
 * shape, so stride may exceed cols.  Sizes are checked (tl_matrix_check_size)
 * before anything is allocated.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum
{
  TL_DTYPE_INT32 = 0,
  TL_DTYPE_FLOAT32 = 1,
  TL_DTYPE_FLOAT64 = 2,
} TlDtype;

#define TL_DTYPE_COUNT 3
/* One bit per dtype, for masks of the dtypes a kernel takes. */
#define TL_DTYPE_BIT(d) (1u << (d))

typedef struct _TlMatrix TlMatrix;

struct _TlMatrix
{
  TlDtype dtype;
  gsize rows;
  gsize cols;
  gsize stride; /* elements from one row to the next */
  gpointer data;

  /*< private >*/
  gint ref_count;
  TlMatrix *parent;
  gpointer storage;
};

typedef struct
{
  double min, max, mean;  /* over finite elements; 0 when there are none */
  gsize n_nan, n_inf, n_finite;
} TlMatrixStats;

typedef struct
{
  double max_abs;   /* max |a - b| */
  double max_rel;   /* max |a - b| / max(|b|, tiny) */
  double rel_norm;  /* ‖a − b‖_F / ‖b‖_F (0 when both are 0) */
  gsize worst_row, worst_col; /* where max_abs was found */
  gsize n_mismatch_nan; /* positions where exactly one side is NaN */
} TlMatrixDiff;

typedef enum
{
  TL_NORM_ONE,       /* max column sum of |a| */
  TL_NORM_INF,       /* max row sum of |a| */
  TL_NORM_FROBENIUS,
  TL_NORM_MAX,       /* max |a| */
} TlNorm;

/* dtype facts */
gsize        tl_dtype_size       (TlDtype dtype);
const char  *tl_dtype_name       (TlDtype dtype); /* "int32", "float32", "float64" */
gboolean     tl_dtype_from_name  (const char *name, TlDtype *out_dtype);

/* The most rows or columns a matrix may have (BLAS, LAPACK and the GPU
 * kernels index with int). */
#define TL_MATRIX_MAX_DIM G_MAXINT32

/* The most bytes a matrix may take when TL_MAX_MATRIX_BYTES (environment,
 * bytes) is set, else G_MAXUINT64; the memory budget (core/tl-memory.h)
 * limits every matrix besides. */
guint64      tl_matrix_byte_cap  (void);

/* The one size check of every reader, record and allocation: each
 * dimension at most TL_MATRIX_MAX_DIM (check_shape), and (check_size)
 * the bytes of rows × cols elements, and of one float64 per row or per
 * column (work vectors exist even for an empty matrix), within
 * tl_matrix_byte_cap and the memory budget.  TL_ERROR_TOO_LARGE with both
 * numbers otherwise. */
gboolean     tl_matrix_check_shape (guint64 rows, guint64 cols, GError **error);
gboolean     tl_matrix_check_size (TlDtype dtype, guint64 rows, guint64 cols,
                                   guint64 *out_bytes, GError **error);

TlMatrix    *tl_matrix_new       (TlDtype dtype, gsize rows, gsize cols, GError **error);
/* Zeroed lazily: the pages of a large matrix are zeroed by the kernel on
 * first touch, so a mostly empty sparse matrix costs no time up front. */
TlMatrix    *tl_matrix_new_zeroed (TlDtype dtype, gsize rows, gsize cols, GError **error);
TlMatrix    *tl_matrix_ref       (TlMatrix *self);
void         tl_matrix_unref     (TlMatrix *self);

TlMatrix    *tl_matrix_view      (TlMatrix *self, gsize row0, gsize col0,
                                  gsize rows, gsize cols);
TlMatrix    *tl_matrix_copy      (const TlMatrix *self, GError **error);
TlMatrix    *tl_matrix_convert   (const TlMatrix *self, TlDtype dtype, GError **error);
/* Before a conversion to float32: fails naming the first finite value
 * beyond float32's range (it would become ±Inf). */
gboolean     tl_matrix_fits_float32 (const TlMatrix *m, GError **error);
gboolean     tl_matrix_is_contiguous (const TlMatrix *self);
gsize        tl_matrix_n_elements (const TlMatrix *self);
gsize        tl_matrix_n_bytes   (const TlMatrix *self); /* rows × cols × element size */

static inline gpointer
tl_matrix_row (const TlMatrix *self, gsize i)
{
  return (char *) self->data + i * self->stride * tl_dtype_size (self->dtype);
}

double       tl_matrix_get       (const TlMatrix *self, gsize i, gsize j);
void         tl_matrix_set       (TlMatrix *self, gsize i, gsize j, double value);
void         tl_matrix_fill      (TlMatrix *self, double value);
void         tl_matrix_copy_into (const TlMatrix *src, TlMatrix *dst); /* same shape, any dtypes */

void         tl_matrix_stats     (const TlMatrix *self, TlMatrixStats *out);
double       tl_matrix_norm      (const TlMatrix *self, TlNorm norm);
gboolean     tl_matrix_compare   (const TlMatrix *a, const TlMatrix *b, TlMatrixDiff *out);
gboolean     tl_matrix_find_nonfinite (const TlMatrix *self, gsize *out_row, gsize *out_col);
gboolean     tl_matrix_equal     (const TlMatrix *a, const TlMatrix *b); /* same shape and bit-equal values (NaN == NaN) */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlMatrix, tl_matrix_unref)

G_END_DECLS
