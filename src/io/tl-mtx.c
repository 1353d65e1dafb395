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

/* Where the values go: a load's matrix, or `info`'s summary pass (each
 * value as the matrix would hold it, in the file's order; no matrix).  A
 * file too short for what its size line declares is read through without
 * taking anything, to say where it ends. */
typedef struct
{
  const MtxHeader *h;
  TlSummaryPass *pass;  /* info; NULL for a load */
  TlMatrix *m;          /* a load's matrix, once taking */
  gboolean taking;
  guint64 given;        /* the summary's cells given (the rest are zeros) */
  gboolean zeros_after; /* one of the rest lies after the last zero given */
} MtxSink;

/* Starts taking: the load's matrix (zeroed: what the file leaves out is
 * zero), or the summary's sums per row and per column. */
static gboolean
sink_take (MtxSink *s, guint size_line, guint64 rows, guint64 cols, gboolean zeroed,
           GError **error)
{
  if (s->pass == NULL)
    s->m = tl_io_matrix_new (s->h->path, size_line, s->h->dtype, rows, cols, zeroed, error);
  else
    {
      g_autoptr (GError) local = NULL;
      if (!tl_summary_pass_begin_cells (s->pass, (gsize) rows, (gsize) cols, &local))
        {
          tl_io_set_error (error, local->code, s->h->path, size_line, 0, "%s", local->message);
          return FALSE;
        }
    }
  s->taking = s->pass != NULL || s->m != NULL;
  return s->taking;
}

static void
sink_put (MtxSink *s, gsize i, gsize j, double v)
{
  if (s->m != NULL)
    tl_matrix_set (s->m, i, j, v);
  else
    {
      tl_summary_pass_add_cell (s->pass, i, j, v);
      s->given++;
    }
}

/* Takes v at (i, j) and its mirror for symmetric and skew-symmetric
 * files (v as stored: an int32 or float32 value, rounded once). */
static gboolean
sink_store (MtxSink *s, gsize i, gsize j, double v, guint line, guint col, GError **error)
{
  const MtxHeader *h = s->h;
  if (!s->taking)
    return TRUE;
  v = tl_io_as_stored (h->dtype, v);
  sink_put (s, i, j, v);
  if (i != j && h->symmetry == MTX_SYMMETRIC)
    sink_put (s, j, i, v);
  else if (h->symmetry == MTX_SKEW)
    {
      if (h->dtype == TL_DTYPE_INT32 && v == (double) G_MININT32)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, h->path, line, col,
                           _("−(%d) does not fit in int32, so this skew-symmetric matrix cannot "
                             "be expanded"), G_MININT32);
          return FALSE;
        }
      sink_put (s, j, i, tl_io_as_stored (h->dtype, -v));
    }
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

/* Whether the entries so far came in strictly increasing order, row
 * after row or column after column: then none repeats a position, and no
 * map of the cells seen is needed (what Tilelab, MATLAB and most
 * exporters write). */
typedef struct
{
  gboolean by_row, by_col;
  guint64 last_by_row, last_by_col;
} MtxOrder;

static gboolean
order_holds (MtxOrder *o, guint64 count, guint64 rows, guint64 cols, const MtxEntry *e)
{
  guint64 by_row = e->i * cols + e->j, by_col = e->j * rows + e->i;
  if (count > 0)
    {
      o->by_row = o->by_row && by_row > o->last_by_row;
      o->by_col = o->by_col && by_col > o->last_by_col;
    }
  o->last_by_row = by_row;
  o->last_by_col = by_col;
  return o->by_row || o->by_col;
}

/* Whether the bit of cell (i, j) was set before; sets it. */
static gboolean
seen_before (guint8 *seen, guint64 cols, const MtxEntry *e)
{
  guint64 bit = e->i * cols + e->j;
  gboolean was = (seen[bit / 8] & (1u << (bit % 8))) != 0;
  seen[bit / 8] |= (guint8) (1u << (bit % 8));
  return was;
}

/* The next entry of a file read again (it was read well before: if it
 * is not now, the file changed meanwhile). */
static gboolean
reread_entry (const MtxHeader *h, TlIoSource *src, guint64 rows, guint64 cols, MtxEntry *e,
              GError **error)
{
  if (tl_io_source_next_content (src, 0) && read_entry (h, src, rows, cols, e, NULL))
    return TRUE;
  if (!tl_io_source_failed (src, error))
    tl_io_set_error (error, TL_ERROR_IO, h->path, 0, 0,
                     _("the file changed while it was read: read it again"));
  return FALSE;
}

/* The map of cells seen (one bit per cell), begun where the entries leave
 * their order: the count entries before are read again into it (they
 * came in order, so none repeats) and src is left before the entry that
 * broke the order. */
static guint8 *
start_seen_map (const MtxHeader *h, TlIoSource *src, const TlIoMark *entries, guint size_line,
                guint64 rows, guint64 cols, guint64 count, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree guint8 *seen = tl_memory_new0 (guint8, (rows * cols + 7) / 8,
                                            _("the map of entries seen"), &local);
  if (seen == NULL)
    {
      tl_io_set_error (error, local->code, h->path, size_line, 0, "%s", local->message);
      return NULL;
    }
  tl_io_source_seek (src, entries);
  for (guint64 k = 0; k < count; k++)
    {
      MtxEntry e;
      if (!reread_entry (h, src, rows, cols, &e, error))
        return NULL;
      seen_before (seen, cols, &e);
    }
  return g_steal_pointer (&seen);
}

/* The next entry (count before it) into e, checked against those seen:
 * a repeated position is an error naming both lines. */
static gboolean
next_entry (const MtxHeader *h, TlIoSource *src, const TlIoMark *entries, guint size_line,
            guint64 rows, guint64 cols, guint64 count, MtxOrder *order, guint8 **seen,
            MtxEntry *e, GError **error)
{
  TlIoMark at;
  tl_io_source_mark (src, &at);
  if (!read_entry (h, src, rows, cols, e, error))
    return FALSE;
  if (*seen == NULL && !order_holds (order, count, rows, cols, e))
    {
      if ((*seen = start_seen_map (h, src, entries, size_line, rows, cols, count, error)) == NULL)
        return FALSE;
      tl_io_source_seek (src, &at);
      if (!read_entry (h, src, rows, cols, e, error))
        return FALSE;
    }
  if (*seen != NULL && seen_before (*seen, cols, e))
    return duplicate_error (h, src, entries, rows, cols, e, error);
  return TRUE;
}

/* Whether a cell the file leaves out (a zero) lies after the given cell
 * at row-major index `index`: fewer cells than lie after it are given
 * after it (the entries read again, each with its mirror). */
static gboolean
zero_after (const MtxHeader *h, TlIoSource *src, const TlIoMark *entries, guint64 rows,
            guint64 cols, guint64 nnz, guint64 index, gboolean *after, GError **error)
{
  guint64 given_after = 0;
  tl_io_source_seek (src, entries);
  for (guint64 k = 0; k < nnz; k++)
    {
      MtxEntry e;
      if (!reread_entry (h, src, rows, cols, &e, error))
        return FALSE;
      given_after += e.i * cols + e.j > index;
      if (h->symmetry != MTX_GENERAL && e.i != e.j)
        given_after += e.j * cols + e.i > index;
    }
  *after = rows * cols - 1 - index > given_after;
  return TRUE;
}

/* Coordinate files list entries; the rest is zero.  The values are taken
 * (the matrix allocated, zeroed lazily: a sparse file costs only the
 * pages it touches) when the file is long enough for the entries it
 * declares; entries out of order start a map of one bit per cell, which
 * finds a repeated position as it is read. */
static gboolean
read_coordinate (MtxSink *sink, TlIoSource *src, guint size_line, guint64 rows, guint64 cols,
                 guint64 nnz, GError **error)
{
  const MtxHeader *h = sink->h;
  /* the shortest entry is "1 1" and a line end */
  if (tl_io_can_fill (nnz, 4, tl_io_source_left (src))
      && !sink_take (sink, size_line, rows, cols, TRUE, error))
    return FALSE;
  g_autofree guint8 *seen = NULL;
  MtxOrder order = { TRUE, TRUE, 0, 0 };
  TlIoMark entries;
  tl_io_source_mark (src, &entries);
  guint64 count = 0;
  while (tl_io_source_next_content (src, 0))
    {
      if (count == nnz)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, h->path, tl_io_source_line (src), 1,
                           _("more entries than the %" PRIu64 " the size line declares"), nnz);
          return FALSE;
        }
      MtxEntry e;
      if (sink->taking
            ? !next_entry (h, src, &entries, size_line, rows, cols, count, &order, &seen, &e,
                           error)
            : !read_entry (h, src, rows, cols, &e, error))
        return FALSE;
      count++;
      if (!sink_store (sink, (gsize) e.i, (gsize) e.j, e.v, e.line, e.col, error))
        return FALSE;
    }
  if (tl_io_source_failed (src, error))
    return FALSE;
  if (count < nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, h->path, tl_io_source_end_line (src), 0,
                       _("the file ends early: the size line declares %" PRIu64
                         " entries, found %" PRIu64), nnz, count);
      return FALSE;
    }
  g_assert (sink->taking); /* a file that held all entries passed tl_io_can_fill */
  guint64 last_zero;
  if (sink->pass != NULL && tl_summary_pass_zero_sign_open (sink->pass, &last_zero))
    return zero_after (h, src, &entries, rows, cols, nnz, last_zero, &sink->zeros_after, error);
  return TRUE;
}

/* The value of an array file's next line (count read before, of want),
 * and where it was written. */
static gboolean
array_value (const MtxSink *sink, TlIoSource *src, const TlIoByteSet *line_end, guint64 want,
             guint64 count, double *v, guint *line, guint *col, GError **error)
{
  const MtxHeader *h = sink->h;
  gboolean is_int = FALSE;
  const char *at = src->p;
  if (sink->taking
      && tl_io_source_plain_number (src, line_end, h->dtype == TL_DTYPE_FLOAT32,
                                    h->dtype == TL_DTYPE_INT32, v, &is_int))
    {
      if (h->dtype != TL_DTYPE_INT32 || is_int)
        {
          *line = tl_io_source_line (src);
          *col = tl_io_source_col (src, at);
          tl_io_source_newline (src);
          return TRUE;
        }
      src->p = at; /* for the general path to say so */
    }
  if (!tl_io_source_next_content (src, 0))
    {
      if (!tl_io_source_failed (src, error))
        tl_io_set_error (error, TL_ERROR_PARSE, h->path, tl_io_source_end_line (src), 0,
                         _("the file ends early: expected %" PRIu64 " values, "
                           "found %" PRIu64), want, count);
      return FALSE;
    }
  *line = tl_io_source_line (src);
  return read_value (src, h, "", v, col, error)
         && end_of_line (src, _("expected one value per line in an array file, found "
                                "also %s"), error);
}

static gboolean
read_array (MtxSink *sink, TlIoSource *src, guint size_line, guint64 rows, guint64 cols,
            GError **error)
{
  const MtxHeader *h = sink->h;
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
  if (tl_io_can_fill (want, 2, tl_io_source_left (src))
      && !sink_take (sink, size_line, rows, cols, h->symmetry == MTX_SKEW /* the zero diagonal */,
                     error))
    return FALSE;

  guint64 count = 0;
  /* the common line: a plain number and its line end */
  TlIoByteSet line_end;
  tl_io_byte_set_init (&line_end, "\r\n");
  /* (an empty column holds nothing to read: with no rows, skip them all) */
  for (guint64 j = 0; rows > 0 && j < cols; j++)
    for (guint64 i = first_offset == G_MAXUINT64 ? 0 : j + first_offset; i < rows; i++)
      {
        double v;
        guint line, col;
        if (!array_value (sink, src, &line_end, want, count, &v, &line, &col, error))
          return FALSE;
        count++;
        if (!sink_store (sink, (gsize) i, (gsize) j, v, line, col, error))
          return FALSE;
      }
  if (tl_io_source_next_content (src, 0))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src), 1,
                       _("more values than the %" PRIu64 " the size line declares"), want);
      return FALSE;
    }
  if (tl_io_source_failed (src, error))
    return FALSE;
  g_assert (sink->taking); /* a file that held all values passed tl_io_can_fill */
  return TRUE;
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

/* The banner and the size line, checked: the shape against the memory
 * budget for a load (for_matrix), only as a shape for a summary; a
 * coordinate file's entry count against the room its shape has. */
static gboolean
read_head (TlIoSource *src, MtxHeader *h, gboolean for_matrix, guint64 size[3],
           guint *size_line, GError **error)
{
  const char *path = src->path;
  if (tl_io_source_peek (src) == TL_IO_EOF)
    {
      if (!tl_io_source_failed (src, error))
        tl_io_set_error (error, TL_ERROR_PARSE, path, 1, 0,
                         _("the file is empty: expected the banner “%%%%MatrixMarket …”"));
      return FALSE;
    }
  if (!parse_banner (src, h, error) || !read_sizes (h, src, size, size_line, error))
    return FALSE;
  const char *symmetry = h->symmetry == MTX_GENERAL     ? "general"
                         : h->symmetry == MTX_SYMMETRIC ? "symmetric"
                                                        : "skew-symmetric";
  if (h->symmetry != MTX_GENERAL && size[0] != size[1])
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, *size_line, 1,
                       _("a %s matrix must be square, but the size line says %"
                         PRIu64 "×%" PRIu64), symmetry, size[0], size[1]);
      return FALSE;
    }

  /* the size is checked against the budget before the entry count, so a
   * huge header says how much memory it would take */
  g_autoptr (GError) local = NULL;
  if (for_matrix ? !tl_matrix_check_size (h->dtype, size[0], size[1], NULL, &local)
                 : !tl_matrix_check_shape (size[0], size[1], &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, *size_line, 0, "%s", local->message);
      return FALSE;
    }
  /* from here both sizes are below 2³¹: their products cannot overflow */
  if (!h->coordinate)
    return TRUE;
  guint64 max_nnz = size[0] * size[1];
  if (h->symmetry == MTX_SYMMETRIC)
    max_nnz = size[0] * (size[0] + 1) / 2;
  else if (h->symmetry == MTX_SKEW)
    max_nnz = size[0] > 0 ? size[0] * (size[0] - 1) / 2 : 0;
  if (size[2] > max_nnz)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, *size_line, 0,
                       _("the size line declares %" PRIu64 " entries, but a %"
                         PRIu64 "×%" PRIu64 " %s matrix has room for "
                         "only %" PRIu64), size[2], size[0], size[1], symmetry, max_nnz);
      return FALSE;
    }
  return TRUE;
}

/* The whole file into sink (see tl_mtx_load and tl_mtx_summarize). */
static gboolean
read_file (TlIoSource *src, MtxSink *sink, MtxHeader *h, guint64 size[3], GError **error)
{
  guint size_line;
  if (!read_head (src, h, sink->pass == NULL, size, &size_line, error))
    return FALSE;
  return h->coordinate ? read_coordinate (sink, src, size_line, size[0], size[1], size[2], error)
                       : read_array (sink, src, size_line, size[0], size[1], error);
}

TlMatrix *
tl_mtx_load (TlIoSource *src, GError **error)
{
  MtxHeader h = { .path = src->path };
  MtxSink sink = { .h = &h };
  guint64 size[3];
  if (read_file (src, &sink, &h, size, error))
    return sink.m;
  g_clear_pointer (&sink.m, tl_matrix_unref);
  return NULL;
}

gboolean
tl_mtx_summarize (TlIoSource *src, TlSummaryPass *pass, TlDtype *dtype, guint64 *rows,
                  guint64 *cols, GError **error)
{
  MtxHeader h = { .path = src->path };
  MtxSink sink = { .h = &h, .pass = pass };
  guint64 size[3] = { 0, 0, 0 };
  memset (pass, 0, sizeof *pass);
  gboolean ok = read_file (src, &sink, &h, size, error);
  if (ok)
    {
      *dtype = h.dtype;
      *rows = size[0];
      *cols = size[1];
      /* (a skew-symmetric array file leaves out the diagonal: its last
       * cell is last in row-major order) */
      gboolean after = h.coordinate ? sink.zeros_after : h.symmetry == MTX_SKEW;
      tl_summary_pass_add_zeros (pass, size[0] * size[1] - sink.given, after);
    }
  else
    {
      TlMatrixSummary unused;
      tl_summary_pass_end (pass, &unused); /* frees the sums */
    }
  return ok;
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
