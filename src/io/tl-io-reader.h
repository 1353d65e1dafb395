/* tl-io-reader.h — what every format's reader shares: numbers and sizes
 * from tokens, the size check, and filling a matrix whose dtype the values
 * decide.
 *
 * A token's syntax is checked here (digits, one sign, '.', an exponent,
 * or the words nan, inf, infinity; no hex, no spaces, no trailing
 * garbage); io/tl-number.h converts it, never the C library's strtod, so
 * the user's locale cannot change a number.
 */
#pragma once

#include "core/tl-matrix.h"
#include "core/tl-matrix-summary.h"
#include "io/tl-io-error.h"
#include "io/tl-io-source.h"

G_BEGIN_DECLS

/* ---- numbers --------------------------------------------------------- */

typedef enum
{
  TL_IO_NUMBER_OK,
  TL_IO_NUMBER_BAD,    /* not a number at all */
  TL_IO_NUMBER_RANGE,  /* a number, but beyond the range of its type */
  TL_IO_NUMBER_NOT_INT, /* a number, but not the int32 integer asked for */
} TlIoNumber;

/* Parses a whole token as a number: to float64, or (as_float32) rounded
 * once, straight to float32.  With decimal_comma, one ',' stands for the
 * decimal point (then a '.' as well is refused).  *out_is_int says the
 * token was written as an integer that fits int32. */
TlIoNumber tl_io_parse_number  (const char *tok, gsize len, gboolean decimal_comma,
                                gboolean as_float32, double *out, gboolean *out_is_int);
/* The common case of every text reader, parsed where it lies: a number
 * written plainly ([-]digit…, '.' as the point, within range) at the
 * source's position, ending inside the window at a byte of stop (a NUL
 * never counts as one).  It is taken (p moves to its stop byte, left
 * unread) and TRUE returned; anything else — a word, a '+', a decimal
 * comma, an over-long token, one cut by the window's end — is left as it
 * was for the general path, which reads it or says what is wrong with it.
 * The value is what tl_io_parse_number gives for the same token;
 * *out_is_int is set only when want_is_int (it costs a look at the
 * digits). */
gboolean  tl_io_source_plain_number (TlIoSource *src, const TlIoByteSet *stop,
                                     gboolean as_float32, gboolean want_is_int, double *out,
                                     gboolean *out_is_int);
/* A whole token as a non-negative integer ([+]digits), for sizes: returns
 * FALSE for anything else; *out_negative tells "-5" apart from "abc". */
gboolean  tl_io_parse_size     (const char *tok, gsize len, guint64 *out,
                                gboolean *out_negative);
/* A whole token as an int64 ([+-]digits). */
gboolean  tl_io_parse_int64    (const char *tok, gsize len, gint64 *out);

/* Parses a token as a value of dtype (an int32 matrix takes only integers
 * in range, float32 only numbers within its range); *all_int (if given)
 * is cleared by any token not written as an int32 integer.  Errors name
 * path, line and col. */
gboolean  tl_io_parse_value    (const char *path, guint line, guint col, const char *tok,
                                gsize len, gboolean decimal_comma, TlDtype dtype, double *out,
                                gboolean *all_int, GError **error);
/* The error for a token tl_io_parse_number refused (r is its answer). */
void      tl_io_number_error   (GError **error, const char *path, guint line, guint col,
                                const char *tok, gsize len, TlIoNumber r, TlDtype dtype);

/* ---- sizes and matrices ---------------------------------------------- */

/* The next token on the line: 1 (tok, len: contiguous until the next
 * call), 0 at the end of the line (its line end left unread; a comment
 * from the comment byte, '#' or 0 for none, skipped) or of the input, -1
 * with error set (a NUL byte, an over-long token, a read error). */
int       tl_io_source_token   (TlIoSource *src, char comment, const char **tok, gsize *len,
                                GError **error);
/* Reads n sizes off the line (what[k], marked for translation, names size
 * k in messages).  Returns how many were there before the line ended (n
 * when all were), or -1 with error set for one that is not a size. */
int       tl_io_source_sizes   (TlIoSource *src, char comment, int n, const char *const *what,
                                guint64 *sizes, GError **error);

/* Whether bytes_left unread bytes can hold n_values values of at least
 * min_bytes each (a digit and a separator; the last needs no separator).
 * Readers allocate a matrix only after tl_matrix_check_size (each
 * dimension, the element count, the memory budget) and this: a header
 * that promises more than its file holds is read without storing (to say
 * where it ends early), however large the matrix it declares. */
gboolean  tl_io_can_fill       (guint64 n_values, guint64 min_bytes, guint64 bytes_left);
/* tl_matrix_check_size, then the matrix (zeroed lazily when asked);
 * errors name the file and the line of the sizes. */
TlMatrix *tl_io_matrix_new     (const char *path, guint line, TlDtype dtype, guint64 rows,
                                guint64 cols, gboolean zeroed, GError **error);

/* A matrix filled in row-major order whose dtype the values may decide:
 * with infer, it starts as int32 and becomes float64 at the first value
 * not written as an int32 integer (the values so far converted), so a
 * load never holds more than the int32 and the float64 matrix at once —
 * 1.5 × the float64 result, never a float64 copy of an int32 one.
 *
 * Or no matrix at all: a fill given a summary pass before its reader runs
 * (tl_io_fill_summarize; `info` does this) hands the values to the pass
 * as they come, a batch at a time, exactly as tl_matrix_summarize would
 * read them from the matrix, and stores nothing — a file of any size is
 * summarized in a few KiB beyond the pass's column sums. */
#define TL_IO_FILL_BATCH 512

typedef struct
{
  const char *path;
  TlMatrix *m;          /* the matrix, NULL while summarizing or not taking */
  TlSummaryPass *pass;  /* summarizing: the values go here */
  TlDtype dtype;        /* the values' dtype so far */
  gboolean infer;
  gboolean taking;      /* values are taken (a file too short for its
                         * header is read without, to say where it ends) */
  guint64 rows, cols;   /* the matrix's shape */
  guint64 n;            /* values taken */
  gsize n_batch;
  double batch[TL_IO_FILL_BATCH];
} TlIoFill;

/* Before the reader runs, on a zeroed fill: summarize into pass (begun
 * by tl_io_fill_init, ended by the caller after tl_io_fill_flush). */
void      tl_io_fill_summarize (TlIoFill *fill, TlSummaryPass *pass);
/* tl_matrix_check_size for a fill that will store a matrix; only the
 * shape for one that summarizes (no matrix: no budget to ask). */
gboolean  tl_io_fill_check_size (const TlIoFill *fill, TlDtype dtype, guint64 rows,
                                 guint64 cols, GError **error);
/* Starts taking values: the matrix allocated (tl_io_matrix_new), or the
 * summary pass begun.  Keeps a pass set by tl_io_fill_summarize. */
gboolean  tl_io_fill_init      (TlIoFill *fill, const char *path, guint line, TlDtype dtype,
                                gboolean infer, guint64 rows, guint64 cols, GError **error);
/* Stores the next value (is_int: written as an int32 integer). */
static inline gboolean tl_io_fill_put (TlIoFill *fill, double v, gboolean is_int,
                                       GError **error);
gboolean  tl_io_fill_widen     (TlIoFill *fill, GError **error);
/* The summarized batch handed to the pass. */
void      tl_io_fill_flush     (TlIoFill *fill);
/* The matrix, with its first `rows` rows (a reader that allocated for a
 * header row it then skipped keeps one row less). */
TlMatrix *tl_io_fill_finish    (TlIoFill *fill, gsize rows);
/* After a failed read: the matrix freed, a begun pass ended. */
void      tl_io_fill_clear     (TlIoFill *fill);

/* v as a matrix of dtype holds it: float32 rounded, int32 exact ("-0" is
 * 0 there: info said min −0 of an integer table). */
static inline double
tl_io_as_stored (TlDtype dtype, double v)
{
  return dtype == TL_DTYPE_FLOAT32 ? (double) (float) v
         : dtype == TL_DTYPE_INT32 ? (double) (gint32) v
                                   : v;
}

static inline gboolean
tl_io_fill_put (TlIoFill *fill, double v, gboolean is_int, GError **error)
{
  if (G_UNLIKELY (fill->dtype == TL_DTYPE_INT32 && !is_int)
      && !tl_io_fill_widen (fill, error))
    return FALSE;
  if (G_UNLIKELY (fill->pass != NULL))
    {
      fill->batch[fill->n_batch++] = tl_io_as_stored (fill->dtype, v);
      fill->n++;
      if (fill->n_batch == TL_IO_FILL_BATCH)
        tl_io_fill_flush (fill);
      return TRUE;
    }
  TlMatrix *m = fill->m;
  switch (fill->dtype)
    {
    case TL_DTYPE_INT32:   ((gint32 *) m->data)[fill->n++] = (gint32) v; break;
    case TL_DTYPE_FLOAT32: ((float *) m->data)[fill->n++] = (float) v; break;
    case TL_DTYPE_FLOAT64: ((double *) m->data)[fill->n++] = v; break;
    }
  return TRUE;
}

G_END_DECLS
