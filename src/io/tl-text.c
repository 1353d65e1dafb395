/* tl-text.c — Tilelab's plain text format, for the seeds' programs.
 *
 *   # comments run from '#' to the end of a line
 *   3 4 float64          rows, cols and (optionally) the dtype
 *   1 2 3 4              then rows × cols values, row by row, separated
 *   5 6 7 8              by any whitespace or newlines
 *   9 10 11 12
 *
 * Without a dtype word the values decide: int32 when every value is
 * written as an integer that fits, float64 otherwise.  The file is
 * streamed into the matrix allocated after the header (tl_io_fill).
 */
#include "io/tl-text.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* The tokens of the rest of the line (its end taken), or -1 on an error. */
static gssize
count_line_tokens (TlIoSource *src)
{
  gssize n = 0;
  const char *tok;
  gsize len;
  int got;
  while ((got = tl_io_source_token (src, '#', &tok, &len, NULL)) > 0)
    n++;
  if (got < 0)
    return -1;
  tl_io_source_newline (src);
  return n;
}

/* A "rows cols" line without a dtype is a header only when exactly
 * rows × cols values follow, and the lines do not say otherwise: when
 * every line holds two values the file is also a table of two columns,
 * and a header with cols ≠ 2 ("4 1" over "5 6", "7 8") is contradicted by
 * the lines it describes, so the file is that table.  With cols = 2 both
 * readings fit (a 2×2 matrix under "2 2", or numpy.savetxt's "%d" of a
 * 3×2 array); the header wins, and the note says the other. */
static gboolean
sniff_counts (TlIoSource *src, guint64 rows, guint64 cols, char **out_note)
{
  guint64 want, count = 0, lines = 1;
  gboolean two_columns = TRUE;
  if (!g_uint64_checked_mul (&want, rows, cols))
    want = G_MAXUINT64;
  while (tl_io_source_peek (src) != TL_IO_EOF)
    {
      gssize n = count_line_tokens (src);
      if (n < 0)
        return FALSE;
      if (n == 0)
        continue;
      lines++;
      two_columns = two_columns && n == 2;
      count += (guint64) n;
      if (count > want)
        {
          if (out_note)
            *out_note = g_strdup_printf (_("the first line “%" PRIu64 " %" PRIu64 "” is a row "
                                           "of data, not a “rows cols” header: more than %"
                                           PRIu64 " values follow"), rows, cols, want);
          return FALSE;
        }
    }
  if (count != want)
    {
      if (out_note)
        *out_note = g_strdup_printf (_("the first line “%" PRIu64 " %" PRIu64 "” is a row of "
                                       "data, not a “rows cols” header: %" PRIu64 " values "
                                       "follow, not %" PRIu64), rows, cols, count, want);
      return FALSE;
    }
  if (two_columns && cols != 2 && want > 0)
    {
      if (out_note)
        *out_note = g_strdup_printf (_("the first line “%" PRIu64 " %" PRIu64 "” is a row of "
                                       "data, not a “rows cols” header: every line holds two "
                                       "values, not %" PRIu64), rows, cols, cols);
      return FALSE;
    }
  if (out_note)
    *out_note = two_columns && want > 0
      ? g_strdup_printf (_("the first line “%" PRIu64 " %" PRIu64 "” is read as the header "
                           "“rows cols”, as %" PRIu64 " values follow; it could also be the "
                           "first row of a %" PRIu64 "×2 table (--format csv reads it so)"),
                         rows, cols, want, lines)
      : g_strdup_printf (_("the first line “%" PRIu64 " %" PRIu64 "” is read as the header "
                           "“rows cols”, as %" PRIu64 " values follow"), rows, cols, want);
  return TRUE;
}

/* The header line's first tokens, copied (a token lives only until the
 * next is read); how many there were, up to 4, or -1 on an error. */
static int
header_words (TlIoSource *src, char *words[3])
{
  const char *tok;
  gsize len;
  int n = 0, got;
  while (n < 4 && (got = tl_io_source_token (src, '#', &tok, &len, NULL)) > 0)
    {
      if (n < 3)
        words[n] = g_strndup (tok, len);
      n++;
    }
  return got < 0 ? -1 : n;
}

gboolean
tl_text_sniff_source (TlIoSource *src, char **out_note)
{
  if (out_note)
    *out_note = NULL;
  TlIoMark start;
  tl_io_source_mark (src, &start);
  gboolean ours = FALSE;
  char *words[3] = { NULL, NULL, NULL };
  int n = tl_io_source_next_content (src, '#') ? header_words (src, words) : 0;
  guint64 rows, cols;
  gint64 dummy;
  TlDtype dtype;
  if (n == 3)
    /* a dtype word makes it ours, whatever the sizes say */
    ours = tl_dtype_from_name (words[2], &dtype)
           && tl_io_parse_int64 (words[0], strlen (words[0]), &dummy)
           && tl_io_parse_int64 (words[1], strlen (words[1]), &dummy);
  else if (n == 2 && tl_io_parse_size (words[0], strlen (words[0]), &rows, NULL)
           && tl_io_parse_size (words[1], strlen (words[1]), &cols, NULL))
    {
      tl_io_source_newline (src);
      ours = sniff_counts (src, rows, cols, out_note);
    }
  for (int k = 0; k < 3; k++)
    g_free (words[k]);
  tl_io_source_seek (src, &start);
  return ours;
}

gboolean
tl_text_sniff (const char *buf, gsize len)
{
  TlIoSource src;
  tl_io_source_init_memory (&src, "", buf, len);
  gboolean ours = tl_text_sniff_source (&src, NULL);
  tl_io_source_clear (&src);
  return ours;
}

/* The header "rows cols [dtype]": the first line that is not a comment.
 * *infer stays TRUE when no dtype is named. */
static gboolean
read_header (TlIoSource *src, guint64 size[2], TlDtype *dtype, gboolean *infer, guint *line,
             GError **error)
{
  const char *path = src->path;
  if (!tl_io_source_next_content (src, '#'))
    {
      if (!tl_io_source_failed (src, error))
        tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                         _("the file is empty: expected a header “rows cols [dtype]”"));
      return FALSE;
    }
  *line = tl_io_source_line (src);

  static const char *const what[2] = { N_("row count"), N_("column count") };
  int got = tl_io_source_sizes (src, '#', 2, what, size, error);
  if (got < 0)
    return FALSE;
  if (got < 2)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src),
                       tl_io_source_col (src, src->p),
                       _("expected a header “rows cols [dtype]”: the %s is missing"),
                       _(what[got]));
      return FALSE;
    }
  const char *tok;
  gsize tok_len;
  got = tl_io_source_token (src, '#', &tok, &tok_len, error);
  if (got < 0)
    return FALSE;
  if (got == 0)
    {
      tl_io_source_newline (src);
      return TRUE;
    }
  g_autofree char *word = g_strndup (tok, tok_len);
  if (!tl_dtype_from_name (word, dtype))
    {
      g_autofree char *q = tl_io_quote (tok, tok_len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src),
                       tl_io_source_col (src, tok),
                       _("expected a dtype (int32, float32 or float64) after the sizes, "
                         "found %s"), q);
      return FALSE;
    }
  *infer = FALSE;
  got = tl_io_source_token (src, '#', &tok, &tok_len, error);
  if (got < 0)
    return FALSE;
  if (got > 0)
    {
      g_autofree char *q = tl_io_quote (tok, tok_len);
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_line (src),
                       tl_io_source_col (src, tok),
                       _("expected the end of the header “rows cols [dtype]”, found %s"), q);
      return FALSE;
    }
  tl_io_source_newline (src);
  return TRUE;
}

/* The values after the header, into fill when it takes them (a file too
 * short for its header is read without one, to say where it ends). */
static gboolean
read_values (TlIoSource *src, const guint64 size[2], TlDtype dtype, TlIoFill *fill,
             GError **error)
{
  const char *path = src->path;
  guint64 want = size[0] * size[1], count = 0;
  /* a plain number ends at a blank, a line end or a comment */
  TlIoByteSet plain_stop;
  tl_io_byte_set_init (&plain_stop, " \t\v\f\r\n#");
  gboolean as_float32 = dtype == TL_DTYPE_FLOAT32;
  for (;;)
    {
      /* the common case: a plain number, stored where it lies */
      tl_io_source_skip (src, tl_io_blanks ());
      double v = 0;
      gboolean is_int = FALSE;
      const char *at = src->p;
      if (count < want && fill->taking
          && tl_io_source_plain_number (src, &plain_stop, as_float32,
                                        fill->dtype == TL_DTYPE_INT32, &v, &is_int))
        {
          if (fill->dtype == TL_DTYPE_INT32 && !fill->infer && !is_int)
            src->p = at; /* for the general path to say so */
          else
            {
              if (!tl_io_fill_put (fill, v, is_int, error))
                return FALSE;
              count++;
              continue;
            }
        }
      const char *tok;
      gsize len;
      int got = tl_io_source_token (src, '#', &tok, &len, error);
      if (got < 0)
        return FALSE;
      if (got == 0)
        {
          if (!tl_io_source_newline (src))
            break;
          continue;
        }
      guint line = tl_io_source_line (src), col = tl_io_source_col (src, tok);
      if (count == want)
        {
          g_autofree char *q = tl_io_quote (tok, len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                           _("more values than the header's %" PRIu64 "×%" PRIu64 " = %"
                             PRIu64 ": found %s"), size[0], size[1], want, q);
          return FALSE;
        }
      TlIoNumber r = tl_io_parse_number (tok, len, FALSE, as_float32, &v, &is_int);
      if (r == TL_IO_NUMBER_OK && dtype == TL_DTYPE_INT32 && !fill->infer && !is_int)
        r = TL_IO_NUMBER_NOT_INT;
      if (G_UNLIKELY (r != TL_IO_NUMBER_OK))
        {
          tl_io_number_error (error, path, line, col, tok, len, r, dtype);
          return FALSE;
        }
      if (fill->taking && !tl_io_fill_put (fill, v, is_int, error))
        return FALSE;
      count++;
    }
  if (count < want)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                       _("the file ends early: expected %" PRIu64 "×%" PRIu64 " = %" PRIu64
                         " values, found %" PRIu64), size[0], size[1], want, count);
      return FALSE;
    }
  return TRUE;
}

gboolean
tl_text_read (TlIoSource *src, TlIoFill *fill, GError **error)
{
  const char *path = src->path;
  guint64 size[2];
  TlDtype dtype = TL_DTYPE_FLOAT64;
  gboolean infer = TRUE;

  guint header_line = 0;
  if (!read_header (src, size, &dtype, &infer, &header_line, error))
    return FALSE;

  g_autoptr (GError) local = NULL;
  if (!tl_io_fill_check_size (fill, dtype, size[0], size[1], &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, header_line, 0, "%s", local->message);
      return FALSE;
    }
  /* both sizes are below 2³¹ now; values are separated by at least one
   * byte, and a file too short for them is read without a matrix */
  fill->infer = infer;
  if (tl_io_can_fill (size[0] * size[1], 2, tl_io_source_left (src))
      && !tl_io_fill_init (fill, path, header_line, dtype, infer, size[0], size[1], error))
    return FALSE;
  if (!read_values (src, size, dtype, fill, error))
    {
      tl_io_fill_clear (fill);
      return FALSE;
    }
  g_assert (fill->taking); /* a file that held all values passed tl_io_can_fill */
  tl_io_fill_flush (fill);
  return TRUE;
}

TlMatrix *
tl_text_load (TlIoSource *src, GError **error)
{
  TlIoFill fill = { 0 };
  if (!tl_text_read (src, &fill, error))
    return NULL;
  return tl_io_fill_finish (&fill, fill.m->rows);
}

TlMatrix *
tl_text_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoSource src;
  tl_io_source_init_memory (&src, path, buf, len);
  TlMatrix *m = tl_text_load (&src, error);
  tl_io_source_clear (&src);
  return m;
}

gboolean
tl_text_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  TlIoOut o;
  tl_io_out_init (&o, out);
  g_autofree char *header = g_strdup_printf ("%zu %zu %s\n", matrix->rows, matrix->cols,
                                             tl_dtype_name (matrix->dtype));
  tl_io_out_text (&o, header, strlen (header));
  /* rows without values would be empty lines: an N×0 matrix is its header */
  for (gsize i = 0; i < matrix->rows && matrix->cols > 0 && !ferror (out); i++)
    tl_io_out_row (&o, matrix, i, ' ', FALSE);
  return tl_io_out_finish (&o);
}
