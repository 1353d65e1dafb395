/* tl-text.c — Tilelab's plain text format, for the seeds' programs.
 *
 *   # comments run from '#' to the end of a line
 *   3 4 float64          rows, cols and (optionally) the dtype
 *   1 2 3 4              then rows × cols values, row by row, separated
 *   5 6 7 8              by any whitespace or newlines
 *   9 10 11 12
 *
 * Without a dtype word the values decide: int32 when every value is
 * written as an integer that fits, float64 otherwise.
 */
#include "io/tl-text.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* The line without its comment. */
static TlIoLine
strip_comment (const TlIoLine *line)
{
  TlIoLine l = *line;
  const char *hash = memchr (l.text, '#', l.len);
  if (hash)
    l.len = (gsize) (hash - l.text);
  return l;
}

/* Finds the header line: the first with anything but comments on it. */
static gboolean
next_content_line (TlIoReader *reader, TlIoLine *out)
{
  TlIoLine line;
  while (tl_io_reader_next (reader, &line))
    {
      *out = strip_comment (&line);
      if (!tl_io_line_is_blank (out))
        return TRUE;
    }
  return FALSE;
}

gboolean
tl_text_sniff (const char *buf, gsize len)
{
  TlIoReader reader;
  TlIoLine line;
  const char *tok[4];
  gsize tok_len[4], cursor = 0;
  int n = 0;
  guint64 rows, cols, want, count = 0;
  TlDtype dtype;

  tl_io_reader_init (&reader, "", buf, len);
  if (!next_content_line (&reader, &line))
    return FALSE;
  while (n < 4 && tl_io_line_token (&line, &cursor, &tok[n], &tok_len[n], NULL))
    n++;
  if (n < 2 || n > 3)
    return FALSE;

  if (n == 3)
    {
      /* a dtype word makes it ours, whatever the sizes say */
      g_autofree char *word = g_strndup (tok[2], tok_len[2]);
      gint64 dummy;
      return tl_dtype_from_name (word, &dtype)
             && tl_io_parse_int64 (tok[0], tok_len[0], &dummy)
             && tl_io_parse_int64 (tok[1], tok_len[1], &dummy);
    }
  if (!tl_io_parse_size (tok[0], tok_len[0], &rows, NULL)
      || !tl_io_parse_size (tok[1], tok_len[1], &cols, NULL)
      || !g_uint64_checked_mul (&want, rows, cols))
    return FALSE;

  /* "3 4" could be the first row of a two-column table: it is our header
   * only when exactly rows × cols values follow */
  while (tl_io_reader_next (&reader, &line))
    {
      TlIoLine l = strip_comment (&line);
      const char *t;
      gsize tl;
      cursor = 0;
      while (tl_io_line_token (&l, &cursor, &t, &tl, NULL))
        if (++count > want)
          return FALSE;
    }
  return count == want;
}

TlMatrix *
tl_text_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoReader reader;
  TlIoLine line;
  const char *tok;
  gsize tok_len, cursor = 0;
  guint col;
  guint64 size[2];
  TlDtype dtype = TL_DTYPE_FLOAT64;
  gboolean infer = TRUE, all_int = TRUE;

  tl_io_reader_init (&reader, path, buf, len);
  if (!next_content_line (&reader, &line))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (&reader), 0,
                       _("the file is empty: expected a header “rows cols [dtype]”"));
      return NULL;
    }

  static const char *const what[2] = { N_("row count"), N_("column count") };
  int got = tl_io_line_sizes (path, &line, &cursor, 2, what, size, error);
  if (got < 0)
    return NULL;
  if (got < 2)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, (guint) line.len + 1,
                       _("expected a header “rows cols [dtype]”: the %s is missing"),
                       _(what[got]));
      return NULL;
    }
  if (tl_io_line_token (&line, &cursor, &tok, &tok_len, &col))
    {
      g_autofree char *word = g_strndup (tok, tok_len);
      if (!tl_dtype_from_name (word, &dtype))
        {
          g_autofree char *q = tl_io_quote (tok, tok_len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, col,
                           _("expected a dtype (int32, float32 or float64) after the sizes, "
                             "found %s"), q);
          return NULL;
        }
      infer = FALSE;
      if (tl_io_line_token (&line, &cursor, &tok, &tok_len, &col))
        {
          g_autofree char *q = tl_io_quote (tok, tok_len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, col,
                           _("expected the end of the header “rows cols [dtype]”, found %s"), q);
          return NULL;
        }
    }

  g_autoptr (TlMatrix) m = tl_io_matrix_new (path, line.number, dtype, size[0], size[1], error);
  if (m == NULL)
    return NULL;

  gsize want = (gsize) (size[0] * size[1]), count = 0;
  while (tl_io_reader_next (&reader, &line))
    {
      TlIoLine l = strip_comment (&line);
      cursor = 0;
      while (tl_io_line_token (&l, &cursor, &tok, &tok_len, &col))
        {
          if (count == want)
            {
              g_autofree char *q = tl_io_quote (tok, tok_len);
              tl_io_set_error (error, TL_ERROR_PARSE, path, l.number, col,
                               _("more values than the header's %" PRIu64 "×%"
                                 PRIu64 " = %zu: found %s"),
                               size[0], size[1], want, q);
              return NULL;
            }
          if (!tl_io_store_number (path, l.number, col, tok, tok_len, FALSE, m,
                                   count / m->cols, count % m->cols, &all_int, error))
            return NULL;
          count++;
        }
    }
  if (count < want)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (&reader), 0,
                       _("the file ends early: expected %" PRIu64 "×%"
                         PRIu64 " = %zu values, found %zu"),
                       size[0], size[1], want, count);
      return NULL;
    }

  if (infer && all_int)
    return tl_matrix_convert (m, TL_DTYPE_INT32, error);
  return g_steal_pointer (&m);
}

gboolean
tl_text_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  g_autoptr (GString) row = g_string_new (NULL);
  fprintf (out, "%zu %zu %s\n", matrix->rows, matrix->cols, tl_dtype_name (matrix->dtype));
  for (gsize i = 0; i < matrix->rows; i++)
    {
      g_string_truncate (row, 0);
      for (gsize j = 0; j < matrix->cols; j++)
        {
          if (j > 0)
            g_string_append_c (row, ' ');
          tl_io_append_element (row, matrix, i, j);
        }
      g_string_append_c (row, '\n');
      fwrite (row->str, 1, row->len, out);
    }
  return TRUE;
}
