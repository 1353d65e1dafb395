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
#include "core/tl-memory.h"

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

/* The next banner word (0 when the line ends), checked at once: a token
 * lives only until the next is read. */
static int
banner_word (TlIoSource *src, const char **tok, gsize *len, guint *col, GError **error)
{
  int got = tl_io_source_token (src, 0, tok, len, error);
  if (got > 0)
    *col = tl_io_source_col (src, *tok);
  return got;
}

/* One word of the banner at line:col of src's file, read into h; FALSE
 * with the error set when the word is not one of those the standard
 * allows or one Tilelab does not read. */
typedef gboolean (*BannerWordFunc) (TlIoSource *src, guint line, guint col, const char *tok,
                                    gsize len, MtxHeader *h, GError **error);

/* "matrix" (a "vector" is refused) */
static gboolean
banner_object (TlIoSource *src, guint line, guint col, const char *tok, gsize len, MtxHeader *h,
               GError **error)
{
  if (word_is (tok, len, "matrix"))
    return TRUE;
  if (word_is (tok, len, "vector"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, src->path, line, col,
                       _("Matrix Market vectors are not supported, only “matrix”"));
      return FALSE;
    }
  g_autofree char *q = tl_io_quote (tok, len);
  tl_io_set_error (error, TL_ERROR_PARSE, src->path, line, col,
                   _("expected “matrix” after “%%%%MatrixMarket”, found %s"), q);
  return FALSE;
}

/* "coordinate" or "array" */
static gboolean
banner_format (TlIoSource *src, guint line, guint col, const char *tok, gsize len, MtxHeader *h,
               GError **error)
{
  if (word_is (tok, len, "coordinate") || word_is (tok, len, "array"))
    {
      h->coordinate = word_is (tok, len, "coordinate");
      return TRUE;
    }
  g_autofree char *q = tl_io_quote (tok, len);
  tl_io_set_error (error, TL_ERROR_PARSE, src->path, line, col,
                   _("expected the format “coordinate” or “array”, found %s"), q);
  return FALSE;
}

/* "real" (or "double"), "integer" or "pattern" (coordinate only);
 * "complex" is refused */
static gboolean
banner_field (TlIoSource *src, guint line, guint col, const char *tok, gsize len, MtxHeader *h,
              GError **error)
{
  if (word_is (tok, len, "real") || word_is (tok, len, "double"))
    h->field = MTX_REAL;
  else if (word_is (tok, len, "integer"))
    h->field = MTX_INTEGER;
  else if (word_is (tok, len, "pattern"))
    h->field = MTX_PATTERN;
  else if (word_is (tok, len, "complex"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, src->path, line, col,
                       _("complex matrices are not supported: Tilelab works with real "
                         "int32, float32 and float64 matrices"));
      return FALSE;
    }
  else
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, line, col,
                       _("expected the field “real”, “integer” or “pattern”, found %s"), q);
      return FALSE;
    }
  if (h->field == MTX_PATTERN && !h->coordinate)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, line, col,
                       _("“pattern” needs the “coordinate” format, not “array”"));
      return FALSE;
    }
  return TRUE;
}

/* "general", "symmetric" or "skew-symmetric"; "hermitian" is refused */
static gboolean
banner_symmetry (TlIoSource *src, guint line, guint col, const char *tok, gsize len,
                 MtxHeader *h, GError **error)
{
  if (word_is (tok, len, "general"))
    h->symmetry = MTX_GENERAL;
  else if (word_is (tok, len, "symmetric"))
    h->symmetry = MTX_SYMMETRIC;
  else if (word_is (tok, len, "skew-symmetric"))
    h->symmetry = MTX_SKEW;
  else if (word_is (tok, len, "hermitian"))
    {
      tl_io_set_error (error, TL_ERROR_UNSUPPORTED, src->path, line, col,
                       _("hermitian matrices are complex, which Tilelab does not support"));
      return FALSE;
    }
  else
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, line, col,
                       _("expected the symmetry “general”, “symmetric” or “skew-symmetric”, "
                         "found %s"), q);
      return FALSE;
    }
  return TRUE;
}

/* "%%MatrixMarket matrix FORMAT FIELD SYMMETRY", the words in this order
 * and nothing after them. */
static gboolean
parse_banner (TlIoSource *src, MtxHeader *h, GError **error)
{
  static const char *const expect =
    N_("expected the banner “%%MatrixMarket matrix FORMAT FIELD SYMMETRY”");
  static const BannerWordFunc words[] = { banner_object, banner_format, banner_field,
                                          banner_symmetry };
  const char *path = src->path, *tok;
  gsize len;
  guint col = 1, line = tl_io_source_line (src);
  int got;

  if ((got = banner_word (src, &tok, &len, &col, error)) < 0)
    return FALSE;
  if (got == 0 || !word_is (tok, len, "%%MatrixMarket"))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line, 1, "%s", _(expect));
      return FALSE;
    }
  for (guint w = 0; w < G_N_ELEMENTS (words); w++)
    {
      if ((got = banner_word (src, &tok, &len, &col, error)) <= 0)
        {
          if (got == 0)
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, tl_io_source_col (src, src->p),
                             _("the banner ends early: %s"), _(expect));
          return FALSE;
        }
      if (!words[w] (src, line, col, tok, len, h, error))
        return FALSE;
    }

  if ((got = banner_word (src, &tok, &len, &col, error)) != 0)
    {
      if (got < 0)
        return FALSE;
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                       _("expected the end of the banner, found %s"), q);
      return FALSE;
    }
  tl_io_source_newline (src);
  return TRUE;
}

/* "% tilelab: dtype=float32" — our writer's note, so float32 survives
 * (checked on the comment's first bytes: a comment may be long) */
static void
read_hint (TlIoSource *src, MtxHeader *h)
{
  static const char note[] = "tilelab: dtype=float32";
  char head[64];
  gsize n = 0;
  int c;
  tl_io_source_advance (src); /* the '%' */
  while (n < sizeof head && (c = tl_io_source_peek (src)) != TL_IO_EOF && c != '\n' && c != '\r')
    head[n++] = (char) c, tl_io_source_advance (src);
  if (n == sizeof head)
    return; /* longer than the note: not it */
  g_autofree char *text = g_strndup (head, n);
  g_strstrip (text);
  if (g_ascii_strcasecmp (text, note) == 0)
    h->float32_hint = TRUE;
}

/* The entry's next token; when the line has ended, the error says so
 * (missing: a format with one %s, for what). */
static gboolean
entry_token (TlIoSource *src, const char *missing, const char *what, const char **tok,
             gsize *len, guint *col, GError **error)
{
  int got = tl_io_source_token (src, 0, tok, len, error);
  if (got == 0)
    tl_io_set_error (error, TL_ERROR_PARSE, src->path, tl_io_source_line (src),
                     tl_io_source_col (src, src->p), missing, what);
  if (got <= 0)
    return FALSE;
  *col = tl_io_source_col (src, *tok);
  return TRUE;
}

static gboolean
read_index (TlIoSource *src, const char *what, guint64 limit, guint64 *out, guint *out_col,
            GError **error)
{
  const char *tok;
  gsize len;
  if (!entry_token (src, _("expected an entry “row col …”: the %s index is missing"), what,
                    &tok, &len, out_col, error))
    return FALSE;
  if (!tl_io_parse_size (tok, len, out, NULL) || *out < 1 || *out > limit)
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, tl_io_source_line (src), *out_col,
                       _("expected a %s index from 1 to %" PRIu64 ", found %s"),
                       what, limit, q);
      return FALSE;
    }
  return TRUE;
}

/* The one value of an array line, or the value of an entry. */
static gboolean
read_value (TlIoSource *src, const MtxHeader *h, const char *missing, double *v, guint *out_col,
            GError **error)
{
  const char *tok;
  gsize len;
  return entry_token (src, "%s", missing, &tok, &len, out_col, error)
         && tl_io_parse_value (src->path, tl_io_source_line (src), *out_col, tok, len, FALSE,
                               h->dtype, v, NULL, error);
}

/* The end of the line; anything else on it is an error (message names it). */
static gboolean
end_of_line (TlIoSource *src, const char *message, GError **error)
{
  const char *tok;
  gsize len;
  int got = tl_io_source_token (src, 0, &tok, &len, error);
  if (got < 0)
    return FALSE;
  if (got > 0)
    {
      g_autofree char *q = tl_io_quote (tok, len);
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, tl_io_source_line (src),
                       tl_io_source_col (src, tok), message, q);
      return FALSE;
    }
  tl_io_source_newline (src);
  return TRUE;
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

/* Stores v at (i, j) and its mirror for symmetric and skew-symmetric
 * files (v as stored: an int32 or float32 value, rounded once). */
static gboolean
store_entry (const MtxHeader *h, TlMatrix *m, gsize i, gsize j, double v, guint line,
             guint col, GError **error)
{
  tl_matrix_set (m, i, j, v);
  v = tl_matrix_get (m, i, j);
  if (i != j && h->symmetry == MTX_SYMMETRIC)
    tl_matrix_set (m, j, i, v);
  else if (h->symmetry == MTX_SKEW && !negate_into (h->path, line, col, m, j, i, v, error))
    return FALSE;
  return TRUE;
}

/* One entry of a coordinate file, 0-based, with where it was written. */
typedef struct
{
  guint64 i, j;
  guint line, col;
  double v;
} MtxEntry;

/* Reads one line "i j [value]" into e, checking indices and symmetry. */
static gboolean
read_entry (const MtxHeader *h, TlIoSource *src, guint64 rows, guint64 cols, MtxEntry *e,
            GError **error)
{
  const char *path = h->path;
  guint64 i, j;
  guint icol, jcol, vcol;
  guint line = tl_io_source_line (src);

  if (!read_index (src, _("row"), rows, &i, &icol, error)
      || !read_index (src, _("column"), cols, &j, &jcol, error))
    return FALSE;
  if (h->symmetry == MTX_SYMMETRIC && i < j)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line, icol,
                       _("entry (%" PRIu64 ", %" PRIu64 ") is above "
                         "the diagonal: a symmetric file stores only the lower triangle"),
                       i, j);
      return FALSE;
    }
  if (h->symmetry == MTX_SKEW && i <= j)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line, icol,
                       _("entry (%" PRIu64 ", %" PRIu64 ") is on or "
                         "above the diagonal: a skew-symmetric file stores only the "
                         "strictly lower triangle"), i, j);
      return FALSE;
    }
  *e = (MtxEntry) { i - 1, j - 1, line, icol, 1.0 };
  if (h->field != MTX_PATTERN)
    {
      if (!read_value (src, h, _("expected an entry “row col value”: the value is missing"),
                       &e->v, &vcol, error))
        return FALSE;
      e->col = vcol;
    }
  return end_of_line (src, h->field == MTX_PATTERN
                             ? _("expected the end of a pattern entry “row col”, found %s")
                             : _("expected the end of the entry “row col value”, found %s"),
                      error);
}

/* A duplicate found at (e->i, e->j): the line that gave it first, read
 * again from the first entry (this happens once, on the way to an error). */
static gboolean
duplicate_error (const MtxHeader *h, TlIoSource *src, const TlIoMark *entries, guint64 rows,
                 guint64 cols, const MtxEntry *dup, GError **error)
{
  guint first = 0;
  tl_io_source_seek (src, entries);
  while (first == 0 && tl_io_source_next_content (src, 0))
    {
      MtxEntry e;
      if (!read_entry (h, src, rows, cols, &e, NULL))
        break;
      if (e.i == dup->i && e.j == dup->j)
        first = e.line;
    }
  tl_io_set_error (error, TL_ERROR_PARSE, h->path, dup->line, 1,
                   _("duplicate entry (%" PRIu64 ", %" PRIu64 "), first given on line %u"),
                   dup->i + 1, dup->j + 1, first);
  return FALSE;
}

/* Coordinate files list entries; the rest is zero.  The dense matrix is
 * allocated (zeroed lazily: a sparse file costs only the pages it
 * touches) when the file is long enough for the entries it declares, and
 * a bitmap of one bit per cell finds a repeated position as it is read. */
static TlMatrix *
load_coordinate (const MtxHeader *h, TlIoSource *src, guint size_line, guint64 rows,
                 guint64 cols, guint64 nnz, GError **error)
{
  const char *path = h->path;
  g_autoptr (TlMatrix) m = NULL;
  g_autofree guint8 *seen = NULL;
  /* the shortest entry is "1 1" and a line end */
  if (tl_io_can_fill (nnz, 4, tl_io_source_left (src)))
    {
      m = tl_io_matrix_new (path, size_line, h->dtype, rows, cols, TRUE, error);
      if (m == NULL)
        return NULL;
      g_autoptr (GError) local = NULL;
      seen = tl_memory_new0 (guint8, (rows * cols + 7) / 8, _("the map of entries seen"), &local);
      if (seen == NULL)
        {
          tl_io_set_error (error, local->code, path, size_line, 0, "%s", local->message);
          return NULL;
        }
    }
  TlIoMark entries;
  tl_io_source_mark (src, &entries);
  guint64 count = 0;
  while (tl_io_source_next_content (src, 0))
    {
      if (count == nnz)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src), 1,
                           _("more entries than the %" PRIu64 " the size line declares"), nnz);
          return NULL;
        }
      MtxEntry e;
      if (!read_entry (h, src, rows, cols, &e, error))
        return NULL;
      count++;
      if (m == NULL)
        continue;
      guint64 bit = e.i * cols + e.j;
      if (seen[bit / 8] & (1u << (bit % 8)))
        {
          duplicate_error (h, src, &entries, rows, cols, &e, error);
          return NULL;
        }
      seen[bit / 8] |= (guint8) (1u << (bit % 8));
      if (!store_entry (h, m, (gsize) e.i, (gsize) e.j, e.v, e.line, e.col, error))
        return NULL;
    }
  if (tl_io_source_failed (src, error))
    return NULL;
  if (count < nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                       _("the file ends early: the size line declares %" PRIu64
                         " entries, found %" PRIu64), nnz, count);
      return NULL;
    }
  g_assert (m != NULL); /* a file that held all entries passed tl_io_can_fill */
  return g_steal_pointer (&m);
}

static TlMatrix *
load_array (const MtxHeader *h, TlIoSource *src, guint size_line, guint64 rows, guint64 cols,
            GError **error)
{
  const char *path = h->path;
  /* column by column; symmetric files hold i ≥ j, skew-symmetric i > j
   * (square, so the triangle has n(n±1)/2 values) */
  guint64 first_offset = h->symmetry == MTX_GENERAL ? G_MAXUINT64
                         : h->symmetry == MTX_SYMMETRIC ? 0 : 1;
  guint64 want;
  if (h->symmetry == MTX_GENERAL)
    want = rows * cols;
  else
    want = h->symmetry == MTX_SYMMETRIC ? rows * (rows + 1) / 2
                                        : (rows > 0 ? rows * (rows - 1) / 2 : 0);
  /* one value per line, a digit and a line end: a file too short for
   * them is read without a matrix, to say where it ends */
  g_autoptr (TlMatrix) m = NULL;
  if (tl_io_can_fill (want, 2, tl_io_source_left (src)))
    {
      m = tl_io_matrix_new (path, size_line, h->dtype, rows, cols,
                            h->symmetry == MTX_SKEW /* the zero diagonal */, error);
      if (m == NULL)
        return NULL;
    }

  guint64 count = 0;
  /* the common line: a plain number and its line end */
  TlIoByteSet line_end;
  tl_io_byte_set_init (&line_end, "\r\n");
  /* (an empty column holds nothing to read: with no rows, skip them all) */
  for (guint64 j = 0; rows > 0 && j < cols; j++)
    for (guint64 i = first_offset == G_MAXUINT64 ? 0 : j + first_offset; i < rows; i++)
      {
        double v;
        gboolean is_int = FALSE;
        const char *at = src->p;
        if (m != NULL
            && tl_io_source_plain_number (src, &line_end, h->dtype == TL_DTYPE_FLOAT32,
                                          h->dtype == TL_DTYPE_INT32, &v, &is_int))
          {
            if (h->dtype == TL_DTYPE_INT32 && !is_int)
              src->p = at; /* for the general path to say so */
            else
              {
                guint line = tl_io_source_line (src), col = tl_io_source_col (src, at);
                tl_io_source_newline (src);
                count++;
                if (!store_entry (h, m, (gsize) i, (gsize) j, v, line, col, error))
                  return NULL;
                continue;
              }
          }
        if (!tl_io_source_next_content (src, 0))
          {
            if (!tl_io_source_failed (src, error))
              tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                               _("the file ends early: expected %" PRIu64 " values, "
                                 "found %" PRIu64), want, count);
            return NULL;
          }
        guint col, line = tl_io_source_line (src);
        if (!read_value (src, h, "", &v, &col, error)
            || !end_of_line (src, _("expected one value per line in an array file, found "
                                    "also %s"), error))
          return NULL;
        count++;
        if (m != NULL && !store_entry (h, m, (gsize) i, (gsize) j, v, line, col, error))
          return NULL;
      }
  if (tl_io_source_next_content (src, 0))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src), 1,
                       _("more values than the %" PRIu64 " the size line declares"), want);
      return NULL;
    }
  if (tl_io_source_failed (src, error))
    return NULL;
  g_assert (m != NULL); /* a file that held all values passed tl_io_can_fill */
  return g_steal_pointer (&m);
}

/* Comments ('%' at the start of a line, our float32 note among them) and
 * blank lines, then the size line: its sizes into size[]. */
static gboolean
read_sizes (MtxHeader *h, TlIoSource *src, guint64 size[3], guint *size_line, GError **error)
{
  const char *path = h->path;
  for (;;)
    {
      TlIoLineKind kind = tl_io_source_line_kind (src, 0);
      if (kind == TL_IO_LINE_END)
        {
          if (!tl_io_source_failed (src, error))
            tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                             _("the file ends before the size line “rows cols%s”"),
                             h->coordinate ? " entries" : "");
          return FALSE;
        }
      if (tl_io_source_peek (src) == '%')
        read_hint (src, h);
      else if (kind == TL_IO_LINE_CONTENT)
        break;
      tl_io_source_skip_line (src);
    }
  h->dtype = h->field == MTX_INTEGER ? TL_DTYPE_INT32
             : (h->field == MTX_REAL && h->float32_hint) ? TL_DTYPE_FLOAT32 : TL_DTYPE_FLOAT64;

  static const char *const what[3] = { N_("row count"), N_("column count"),
                                       N_("number of entries") };
  int n_sizes = h->coordinate ? 3 : 2;
  const char *shape = h->coordinate ? "rows cols entries" : "rows cols";
  *size_line = tl_io_source_line (src);
  int got = tl_io_source_sizes (src, 0, n_sizes, what, size, error);
  if (got < 0)
    return FALSE;
  if (got < n_sizes)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, *size_line, tl_io_source_col (src, src->p),
                       _("expected the size line “%s”: the %s is missing"), shape,
                       _(what[got]));
      return FALSE;
    }
  g_autofree char *expected = g_strdup_printf (_("expected the end of the size line “%s”, "
                                                 "found %%s"), shape);
  return end_of_line (src, expected, error);
}

TlMatrix *
tl_mtx_load (TlIoSource *src, GError **error)
{
  const char *path = src->path;
  MtxHeader h = { .path = path };

  if (tl_io_source_peek (src) == TL_IO_EOF)
    {
      if (!tl_io_source_failed (src, error))
        tl_io_set_error (error, TL_ERROR_PARSE, path, 1, 0,
                         _("the file is empty: expected the banner “%%%%MatrixMarket …”"));
      return NULL;
    }
  guint64 size[3];
  guint size_line;
  if (!parse_banner (src, &h, error) || !read_sizes (&h, src, size, &size_line, error))
    return NULL;
  if (h.symmetry != MTX_GENERAL && size[0] != size[1])
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, size_line, 1,
                       _("a %s matrix must be square, but the size line says %"
                         PRIu64 "×%" PRIu64),
                       h.symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric",
                       size[0], size[1]);
      return NULL;
    }

  /* the size is checked against the budget before the entry count, so a
   * huge header says how much memory it would take */
  g_autoptr (GError) local = NULL;
  if (!tl_matrix_check_size (h.dtype, size[0], size[1], NULL, &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, size_line, 0, "%s", local->message);
      return NULL;
    }
  /* from here both sizes are below 2³¹: their products cannot overflow */
  if (!h.coordinate)
    return load_array (&h, src, size_line, size[0], size[1], error);

  guint64 max_nnz = size[0] * size[1];
  if (h.symmetry == MTX_SYMMETRIC)
    max_nnz = size[0] * (size[0] + 1) / 2;
  else if (h.symmetry == MTX_SKEW)
    max_nnz = size[0] > 0 ? size[0] * (size[0] - 1) / 2 : 0;
  if (size[2] > max_nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, size_line, 0,
                       _("the size line declares %" PRIu64 " entries, but a %"
                         PRIu64 "×%" PRIu64 " %s matrix has room for "
                         "only %" PRIu64), size[2], size[0], size[1],
                       h.symmetry == MTX_GENERAL ? "general"
                       : h.symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric",
                       max_nnz);
      return NULL;
    }
  return load_coordinate (&h, src, size_line, size[0], size[1], size[2], error);
}

TlMatrix *
tl_mtx_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoSource src;
  tl_io_source_init_memory (&src, path, buf, len);
  TlMatrix *m = tl_mtx_load (&src, error);
  tl_io_source_clear (&src);
  return m;
}

/* Columns j0 … j0 + n − 1, rows i0 … i0 + take − 1 of m into buf, one
 * column after another: a block of columns is gathered row by row, so
 * each row of the matrix is read once per block instead of once per
 * column (a column-major walk of a row-major matrix misses the cache and
 * the TLB at every element). */
static void
gather_columns (const TlMatrix *m, gsize j0, gsize n, gsize i0, gsize take, void *buf)
{
  for (gsize i = 0; i < take; i++)
    {
      const void *row = tl_matrix_row (m, i0 + i);
      if (m->dtype == TL_DTYPE_FLOAT64)
        for (gsize c = 0; c < n; c++)
          ((double *) buf)[c * take + i] = ((const double *) row)[j0 + c];
      else
        for (gsize c = 0; c < n; c++)
          ((guint32 *) buf)[c * take + i] = ((const guint32 *) row)[j0 + c];
    }
}

#define GATHER_BYTES ((gsize) 4 << 20)

gboolean
tl_mtx_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  TlIoOut o;
  tl_io_out_init (&o, out);
  g_autofree char *head = g_strdup_printf (
    "%%%%MatrixMarket matrix array %s general\n%% written by Tilelab (dense, column by column)\n"
    "%s%zu %zu\n", matrix->dtype == TL_DTYPE_INT32 ? "integer" : "real",
    matrix->dtype == TL_DTYPE_FLOAT32 ? "% tilelab: dtype=float32\n" : "", matrix->rows,
    matrix->cols);
  tl_io_out_text (&o, head, strlen (head));
  if (matrix->rows == 0 || matrix->cols == 0)
    return tl_io_out_finish (&o);

  /* whole columns, as many as fit in the gather buffer; a column longer
   * than the buffer alone, in pieces */
  gsize size = tl_dtype_size (matrix->dtype);
  gsize per_block = MAX (GATHER_BYTES / size / matrix->rows, 1);
  gsize piece = per_block > 1 ? matrix->rows : GATHER_BYTES / size;
  g_autofree void *buf = g_malloc (MIN (per_block * piece, per_block * matrix->rows) * size);
  for (gsize j0 = 0; j0 < matrix->cols && !ferror (out); j0 += per_block)
    {
      gsize n = MIN (per_block, matrix->cols - j0);
      for (gsize i0 = 0; i0 < matrix->rows && !ferror (out); i0 += piece)
        {
          gsize take = MIN (piece, matrix->rows - i0);
          gather_columns (matrix, j0, n, i0, take, buf);
          for (gsize c = 0; c < n; c++)
            {
              tl_io_out_values (&o, matrix->dtype, (char *) buf + c * take * size, take, '\n',
                                FALSE);
              tl_io_out_text (&o, "\n", 1);
            }
        }
    }
  return tl_io_out_finish (&o);
}
