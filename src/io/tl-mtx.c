/* tl-mtx.c — Matrix Market (NIST) files, dense and sparse, read into a
 * dense TlMatrix.
 *
 *   %%MatrixMarket matrix coordinate real symmetric    the banner
 *   % comments                                         any number
 *   3 3 4                                              rows cols entries
 *   1 1 2.0                                            i j value, 1-based
 *   ...
 *
 * `array` files list every value, one per line, column by column (for
 * symmetric matrices only the lower triangle).  Symmetric and
 * skew-symmetric files are expanded on reading.  Duplicate coordinates are
 * refused with both line numbers: a well-formed export never repeats one,
 * and summing them silently would hide a broken file.
 */
#include "io/tl-mtx.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

typedef enum { MTX_GENERAL, MTX_SYMMETRIC, MTX_SKEW } MtxSymmetry;
typedef enum { MTX_REAL, MTX_INTEGER, MTX_PATTERN } MtxField;

typedef struct
{
  const char *path;
  gboolean coordinate;
  MtxField field;
  MtxSymmetry symmetry;
  TlDtype dtype;
  gboolean float32_hint;
} MtxHeader;

static gboolean
word_is (const char *tok, gsize len, const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (tok, word, len) == 0;
}

static gboolean
parse_banner (const char *path, const TlIoLine *line, MtxHeader *h, GError **error)
{
  static const char *const expect =
    N_("expected the banner “%%MatrixMarket matrix FORMAT FIELD SYMMETRY”");
  const char *tok;
  gsize len, cursor = 0;
  guint col;

  if (!tl_io_line_token (line, &cursor, &tok, &len, &col) || !word_is (tok, len, "%%MatrixMarket"))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, 1, "%s", _(expect));
      return FALSE;
    }

  /* object */
  if (!tl_io_line_token (line, &cursor, &tok, &len, &col))
    goto missing;
  if (word_is (tok, len, "vector"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, path, line->number, col,
                       _("Matrix Market vectors are not supported, only “matrix”"));
      return FALSE;
    }
  if (!word_is (tok, len, "matrix"))
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected “matrix” after “%%%%MatrixMarket”, found %s"), q);
      return FALSE;
    }

  /* format */
  if (!tl_io_line_token (line, &cursor, &tok, &len, &col))
    goto missing;
  if (word_is (tok, len, "coordinate"))
    h->coordinate = TRUE;
  else if (word_is (tok, len, "array"))
    h->coordinate = FALSE;
  else
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected the format “coordinate” or “array”, found %s"), q);
      return FALSE;
    }

  /* field */
  if (!tl_io_line_token (line, &cursor, &tok, &len, &col))
    goto missing;
  if (word_is (tok, len, "real") || word_is (tok, len, "double"))
    h->field = MTX_REAL;
  else if (word_is (tok, len, "integer"))
    h->field = MTX_INTEGER;
  else if (word_is (tok, len, "pattern"))
    h->field = MTX_PATTERN;
  else if (word_is (tok, len, "complex"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, path, line->number, col,
                       _("complex matrices are not supported: Tilelab works with real "
                         "int32, float32 and float64 matrices"));
      return FALSE;
    }
  else
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected the field “real”, “integer” or “pattern”, found %s"), q);
      return FALSE;
    }
  if (h->field == MTX_PATTERN && !h->coordinate)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("“pattern” needs the “coordinate” format, not “array”"));
      return FALSE;
    }

  /* symmetry */
  if (!tl_io_line_token (line, &cursor, &tok, &len, &col))
    goto missing;
  if (word_is (tok, len, "general"))
    h->symmetry = MTX_GENERAL;
  else if (word_is (tok, len, "symmetric"))
    h->symmetry = MTX_SYMMETRIC;
  else if (word_is (tok, len, "skew-symmetric"))
    h->symmetry = MTX_SKEW;
  else if (word_is (tok, len, "hermitian"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, path, line->number, col,
                       _("hermitian matrices are complex, which Tilelab does not support"));
      return FALSE;
    }
  else
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected the symmetry “general”, “symmetric” or “skew-symmetric”, "
                         "found %s"), q);
      return FALSE;
    }

  if (tl_io_line_token (line, &cursor, &tok, &len, &col))
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected the end of the banner, found %s"), q);
      return FALSE;
    }
  return TRUE;

missing:
  tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, (guint) line->len + 1,
                   _("the banner ends early: %s"), _(expect));
  return FALSE;
}

/* "% tilelab: dtype=float32" — our writer's note, so float32 survives */
static void
read_hint (const TlIoLine *line, MtxHeader *h)
{
  g_autofree char *text = g_strndup (line->text + 1, line->len - 1);
  g_strstrip (text);
  if (g_ascii_strcasecmp (text, "tilelab: dtype=float32") == 0)
    h->float32_hint = TRUE;
}

/* The next line that is not blank; FALSE at the end of the file. */
static gboolean
next_data_line (TlIoReader *reader, TlIoLine *line)
{
  while (tl_io_reader_next (reader, line))
    if (!tl_io_line_is_blank (line))
      return TRUE;
  return FALSE;
}

static gboolean
read_index (const char *path, const TlIoLine *line, gsize *cursor, const char *what,
            guint64 limit, guint64 *out, guint *out_col, GError **error)
{
  const char *tok;
  gsize len;
  guint col;
  if (!tl_io_line_token (line, cursor, &tok, &len, &col))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, (guint) line->len + 1,
                       _("expected an entry “row col …”: the %s index is missing"), what);
      return FALSE;
    }
  if (!tl_io_parse_size (tok, len, out, NULL) || *out < 1 || *out > limit)
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                       _("expected a %s index from 1 to %" PRIu64 ", found %s"),
                       what, limit, q);
      return FALSE;
    }
  *out_col = col;
  return TRUE;
}

/* Finds the line of the first entry at (i, j), for a duplicate's message. */
static guint
find_first (TlIoReader reader, guint64 i, guint64 j)
{
  TlIoLine line;
  while (next_data_line (&reader, &line))
    {
      const char *tok;
      gsize len, cursor = 0;
      guint64 a, b;
      if (tl_io_line_token (&line, &cursor, &tok, &len, NULL) && tl_io_parse_size (tok, len, &a, NULL)
          && tl_io_line_token (&line, &cursor, &tok, &len, NULL)
          && tl_io_parse_size (tok, len, &b, NULL) && a == i && b == j)
        return line.number;
    }
  return 0;
}

static gboolean
negate_into (const char *path, guint line, guint col, TlMatrix *m, gsize i, gsize j, double v,
             GError **error)
{
  if (m->dtype == TL_DTYPE_INT32 && v == (double) G_MININT32)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                       _("−(%d) does not fit in int32, so this skew-symmetric matrix cannot "
                         "be expanded"), G_MININT32);
      return FALSE;
    }
  tl_matrix_set (m, i, j, -v);
  return TRUE;
}

static TlMatrix *
load_coordinate (const MtxHeader *h, TlIoReader *reader, const TlIoLine *size_line,
                 guint64 rows, guint64 cols, guint64 nnz, GError **error)
{
  const char *path = h->path;
  g_autoptr (TlMatrix) m = tl_io_matrix_new (path, size_line->number, h->dtype, rows, cols, error);
  if (m == NULL)
    return NULL;
  tl_matrix_fill (m, 0.0);

  /* one bit per element, to find duplicates */
  g_autofree guint8 *seen = g_try_malloc0 ((gsize) ((rows * cols + 7) / 8) + 1);
  if (seen == NULL)
    {
      tl_io_set_error (error, TL_ERROR_OUT_OF_MEMORY, path, size_line->number, 0,
                       _("out of memory"));
      return NULL;
    }

  TlIoReader start = *reader;
  TlIoLine line;
  guint64 count = 0;
  while (next_data_line (reader, &line))
    {
      gsize cursor = 0;
      guint64 i, j;
      guint icol, jcol, vcol = 0;
      const char *tok;
      gsize len;
      double v = 1.0;

      if (count == nnz)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, 1,
                           _("more entries than the %" PRIu64
                             " the size line declares"), nnz);
          return NULL;
        }
      if (!read_index (path, &line, &cursor, _("row"), rows, &i, &icol, error)
          || !read_index (path, &line, &cursor, _("column"), cols, &j, &jcol, error))
        return NULL;
      if (h->symmetry == MTX_SYMMETRIC && i < j)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, icol,
                           _("entry (%" PRIu64 ", %" PRIu64 ") is above "
                             "the diagonal: a symmetric file stores only the lower triangle"),
                           i, j);
          return NULL;
        }
      if (h->symmetry == MTX_SKEW && i <= j)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, icol,
                           _("entry (%" PRIu64 ", %" PRIu64 ") is on or "
                             "above the diagonal: a skew-symmetric file stores only the "
                             "strictly lower triangle"), i, j);
          return NULL;
        }
      gsize bit = (gsize) ((i - 1) * cols + (j - 1));
      if (seen[bit / 8] & (1u << (bit % 8)))
        {
          guint first = find_first (start, i, j);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, icol,
                           _("duplicate entry (%" PRIu64 ", %" PRIu64
                             "), first given on line %u"), i, j, first);
          return NULL;
        }
      seen[bit / 8] |= (guint8) (1u << (bit % 8));

      if (h->field != MTX_PATTERN)
        {
          if (!tl_io_line_token (&line, &cursor, &tok, &len, &vcol))
            {
              tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, (guint) line.len + 1,
                               _("expected an entry “row col value”: the value is missing"));
              return NULL;
            }
          if (!tl_io_store_number (path, line.number, vcol, tok, len, FALSE, m, i - 1, j - 1,
                                   NULL, error))
            return NULL;
          v = tl_matrix_get (m, i - 1, j - 1);
        }
      else
        tl_matrix_set (m, i - 1, j - 1, 1.0);

      if (tl_io_line_token (&line, &cursor, &tok, &len, &vcol))
        {
          g_autofree char *q = tl_io_quote (tok, len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, vcol,
                           h->field == MTX_PATTERN
                             ? _("expected the end of a pattern entry “row col”, found %s")
                             : _("expected the end of the entry “row col value”, found %s"), q);
          return NULL;
        }

      if (i != j && h->symmetry == MTX_SYMMETRIC)
        tl_matrix_set (m, j - 1, i - 1, v);
      else if (h->symmetry == MTX_SKEW
               && !negate_into (path, line.number, vcol, m, j - 1, i - 1, v, error))
        return NULL;
      count++;
    }
  if (count < nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (reader), 0,
                       _("the file ends early: the size line declares %" PRIu64
                         " entries, found %" PRIu64), nnz, count);
      return NULL;
    }
  return g_steal_pointer (&m);
}

static TlMatrix *
load_array (const MtxHeader *h, TlIoReader *reader, const TlIoLine *size_line, guint64 rows,
            guint64 cols, GError **error)
{
  const char *path = h->path;
  g_autoptr (TlMatrix) m = tl_io_matrix_new (path, size_line->number, h->dtype, rows, cols, error);
  if (m == NULL)
    return NULL;
  if (h->symmetry == MTX_SKEW)
    tl_matrix_fill (m, 0.0); /* the diagonal */

  /* column by column; symmetric files hold i ≥ j, skew-symmetric i > j */
  guint64 first_offset = h->symmetry == MTX_GENERAL ? G_MAXUINT64
                         : h->symmetry == MTX_SYMMETRIC ? 0 : 1;
  guint64 want = 0;
  for (guint64 j = 0; j < cols; j++)
    want += first_offset == G_MAXUINT64 ? rows : (rows > j + first_offset ? rows - j - first_offset : 0);

  TlIoLine line;
  guint64 count = 0;
  for (guint64 j = 0; j < cols; j++)
    for (guint64 i = first_offset == G_MAXUINT64 ? 0 : j + first_offset; i < rows; i++)
      {
        const char *tok;
        gsize len, cursor = 0;
        guint col;
        if (!next_data_line (reader, &line))
          {
            tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (reader), 0,
                             _("the file ends early: expected %" PRIu64 " values, "
                               "found %" PRIu64), want, count);
            return NULL;
          }
        tl_io_line_token (&line, &cursor, &tok, &len, &col);
        if (!tl_io_store_number (path, line.number, col, tok, len, FALSE, m, i, j, NULL, error))
          return NULL;
        if (tl_io_line_token (&line, &cursor, &tok, &len, &col))
          {
            g_autofree char *q = tl_io_quote (tok, len);
            tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, col,
                             _("expected one value per line in an array file, found also %s"),
                             q);
            return NULL;
          }
        double v = tl_matrix_get (m, i, j);
        if (i != j && h->symmetry == MTX_SYMMETRIC)
          tl_matrix_set (m, j, i, v);
        else if (h->symmetry == MTX_SKEW
                 && !negate_into (path, line.number, col, m, j, i, v, error))
          return NULL;
        count++;
      }
  if (next_data_line (reader, &line))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, 1,
                       _("more values than the %" PRIu64 " the size line declares"),
                       want);
      return NULL;
    }
  return g_steal_pointer (&m);
}

TlMatrix *
tl_mtx_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoReader reader;
  TlIoLine line;
  MtxHeader h = { .path = path };

  tl_io_reader_init (&reader, path, buf, len);
  if (!tl_io_reader_next (&reader, &line))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 1, 0,
                       _("the file is empty: expected the banner “%%%%MatrixMarket …”"));
      return NULL;
    }
  if (!parse_banner (path, &line, &h, error))
    return NULL;

  /* comments, then the size line */
  for (;;)
    {
      if (!tl_io_reader_next (&reader, &line))
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (&reader), 0,
                           _("the file ends before the size line “rows cols%s”"),
                           h.coordinate ? " entries" : "");
          return NULL;
        }
      if (line.len > 0 && line.text[0] == '%')
        read_hint (&line, &h);
      else if (!tl_io_line_is_blank (&line))
        break;
    }

  h.dtype = h.field == MTX_INTEGER ? TL_DTYPE_INT32
            : (h.field == MTX_REAL && h.float32_hint) ? TL_DTYPE_FLOAT32 : TL_DTYPE_FLOAT64;

  static const char *const what[3] = { N_("row count"), N_("column count"),
                                       N_("number of entries") };
  guint64 size[3];
  int n_sizes = h.coordinate ? 3 : 2;
  gsize cursor = 0;
  const char *tok;
  gsize tok_len;
  guint col;
  int got = tl_io_line_sizes (path, &line, &cursor, n_sizes, what, size, error);
  if (got < 0)
    return NULL;
  if (got < n_sizes)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, (guint) line.len + 1,
                       _("expected the size line “%s”: the %s is missing"),
                       h.coordinate ? "rows cols entries" : "rows cols", _(what[got]));
      return NULL;
    }
  if (tl_io_line_token (&line, &cursor, &tok, &tok_len, &col))
    {
      g_autofree char *q = tl_io_quote (tok, tok_len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, col,
                       _("expected the end of the size line “%s”, found %s"),
                       h.coordinate ? "rows cols entries" : "rows cols", q);
      return NULL;
    }
  if (h.symmetry != MTX_GENERAL && size[0] != size[1])
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, 1,
                       _("a %s matrix must be square, but the size line says %"
                         PRIu64 "×%" PRIu64),
                       h.symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric",
                       size[0], size[1]);
      return NULL;
    }

  /* the size is checked against the cap before the entry count, so a
   * huge header says how much memory it would take */
  g_autoptr (GError) local = NULL;
  if (!tl_matrix_check_size (h.dtype, size[0], size[1], NULL, &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, line.number, 0, "%s", local->message);
      return NULL;
    }
  if (!h.coordinate)
    return load_array (&h, &reader, &line, size[0], size[1], error);

  guint64 max_nnz = size[0] * size[1];
  if (h.symmetry == MTX_SYMMETRIC)
    max_nnz = size[0] * (size[0] + 1) / 2;
  else if (h.symmetry == MTX_SKEW)
    max_nnz = size[0] > 0 ? size[0] * (size[0] - 1) / 2 : 0;
  if (size[2] > max_nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, 0,
                       _("the size line declares %" PRIu64 " entries, but a %"
                         PRIu64 "×%" PRIu64 " %s matrix has room for "
                         "only %" PRIu64), size[2], size[0], size[1],
                       h.symmetry == MTX_GENERAL ? "general"
                       : h.symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric",
                       max_nnz);
      return NULL;
    }
  return load_coordinate (&h, &reader, &line, size[0], size[1], size[2], error);
}

gboolean
tl_mtx_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);
  fprintf (out, "%%%%MatrixMarket matrix array %s general\n",
           matrix->dtype == TL_DTYPE_INT32 ? "integer" : "real");
  fprintf (out, "%% written by Tilelab %s\n", "(dense, column by column)");
  if (matrix->dtype == TL_DTYPE_FLOAT32)
    fprintf (out, "%% tilelab: dtype=float32\n");
  fprintf (out, "%zu %zu\n", matrix->rows, matrix->cols);
  for (gsize j = 0; j < matrix->cols; j++)
    for (gsize i = 0; i < matrix->rows; i++)
      {
        g_string_truncate (value, 0);
        tl_io_append_element (value, matrix, i, j);
        g_string_append_c (value, '\n');
        fwrite (value->str, 1, value->len, out);
      }
  return TRUE;
}
