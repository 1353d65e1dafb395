/* tl-io-reader.h — what every format's reader shares.
 *
 * Text formats are parsed from one in-memory buffer: a line reader keeps
 * the line number (1-based) and hands out lines without their "\n",
 * "\r\n" or lone "\r"; a UTF-8 byte order mark at the start is skipped.
 * Columns in messages are 1-based byte offsets within the line.  Numbers go through
 * g_ascii_strtod, never strtod, so the user's locale cannot change them.
 */
#pragma once

#include "core/tl-matrix.h"
#include "io/tl-io-error.h"

G_BEGIN_DECLS

/* ---- lines ----------------------------------------------------------- */

typedef struct
{
  const char *path;  /* as the user named it, for messages */
  const char *buf;
  gsize len;
  gsize pos;         /* next unread byte */
  guint line;        /* number of the line last returned (0 before the first) */
} TlIoReader;

typedef struct
{
  const char *text;  /* not NUL-terminated */
  gsize len;         /* without the line end */
  guint number;      /* 1-based */
} TlIoLine;

void      tl_io_reader_init    (TlIoReader *reader, const char *path, const char *buf, gsize len);
gboolean  tl_io_reader_next    (TlIoReader *reader, TlIoLine *line);
/* The number the line after the last one would have (for "ends early"). */
guint     tl_io_reader_end_line (const TlIoReader *reader);

/* Splits the next whitespace-separated token off a line from *cursor;
 * returns FALSE at the end of the line.  *col is the token's 1-based column. */
gboolean  tl_io_line_token     (const TlIoLine *line, gsize *cursor, const char **tok,
                                gsize *tok_len, guint *col);
gboolean  tl_io_line_is_blank  (const TlIoLine *line);

/* ---- numbers --------------------------------------------------------- */

typedef enum
{
  TL_IO_NUMBER_OK,
  TL_IO_NUMBER_BAD,    /* not a number at all */
  TL_IO_NUMBER_RANGE,  /* a number, but beyond double's range */
} TlIoNumber;

/* Parses a whole token as a double: digits, sign, '.', exponent, or the
 * words nan, inf, infinity (any case, with a sign).  With decimal_comma,
 * one ',' stands for the decimal point (then a '.' as well is refused).
 * *out_is_int says the token was written as an integer that fits int32. */
TlIoNumber tl_io_parse_number  (const char *tok, gsize len, gboolean decimal_comma,
                                double *out, gboolean *out_is_int);
/* A whole token as a non-negative integer ([+]digits), for sizes: returns
 * FALSE for anything else; *out_negative tells "-5" apart from "abc". */
gboolean  tl_io_parse_size     (const char *tok, gsize len, guint64 *out,
                                gboolean *out_negative);
/* Reads n sizes off a line from *cursor (what[k], marked for translation, names
 * size k in messages).  Returns how many were there before the line ended
 * (n when all were), or -1 with error set for one that is not a size. */
int       tl_io_line_sizes     (const char *path, const TlIoLine *line, gsize *cursor, int n,
                                const char *const *what, guint64 *sizes, GError **error);
/* A whole token as an int64 ([+-]digits). */
gboolean  tl_io_parse_int64    (const char *tok, gsize len, gint64 *out);

/* Whether a double becomes a float32 without overflowing (NaN and the
 * infinities do). */
gboolean  tl_io_fits_float32   (double v);
/* Parses a token as a value of dtype (an int32 matrix takes only integers
 * in range, float32 only numbers within its range); *all_int (if given)
 * is cleared by any token not written as an int32 integer.  Errors name
 * path, line and col. */
gboolean  tl_io_parse_value    (const char *path, guint line, guint col, const char *tok,
                                gsize len, gboolean decimal_comma, TlDtype dtype, double *out,
                                gboolean *all_int, GError **error);
/* tl_io_parse_value, stored at (i, j) of matrix. */
gboolean  tl_io_store_number   (const char *path, guint line, guint col, const char *tok,
                                gsize len, gboolean decimal_comma, TlMatrix *matrix,
                                gsize i, gsize j, gboolean *all_int, GError **error);

/* Whether bytes_left unread bytes can hold n_values values of at least
 * min_bytes each (a digit and a separator; the last needs no separator).
 * Readers allocate a matrix only after tl_matrix_check_size (each
 * dimension, the element count, the memory cap) and this: a header that
 * promises more than its file holds is read without storing (to say
 * where it ends early), however large the matrix it declares. */
gboolean  tl_io_can_fill       (guint64 n_values, guint64 min_bytes, guint64 bytes_left);
/* tl_matrix_check_size, then the matrix (zeroed lazily when asked);
 * errors name the file and the line of the sizes. */
TlMatrix *tl_io_matrix_new     (const char *path, guint line, TlDtype dtype, guint64 rows,
                                guint64 cols, gboolean zeroed, GError **error);

/* ---- files ----------------------------------------------------------- */

/* Reads a whole regular file, opened without blocking (core/tl-file.h);
 * TL_ERROR_IO naming the file on failure, and TL_ERROR_TOO_LARGE when it
 * is larger than the memory cap. */
gboolean  tl_io_read_file      (const char *path, char **out_buf, gsize *out_len, GError **error);
/* The same for a descriptor from tl_file_open_regular (closed in every case). */
gboolean  tl_io_read_opened    (int fd, const char *path, guint64 size, char **out_buf,
                                gsize *out_len, GError **error);

G_END_DECLS
