/* tl-io-reader.c — what every format's reader shares: a line reader,
 * locale-free numbers, the size check and whole-file reading. */
#include "io/tl-io-reader.h"
#include "core/tl-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <float.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- lines ----------------------------------------------------------- */

void
tl_io_reader_init (TlIoReader *reader, const char *path, const char *buf, gsize len)
{
  reader->path = path;
  reader->buf = buf;
  reader->len = len;
  reader->pos = 0;
  reader->line = 0;
  if (len >= 3 && memcmp (buf, "\xef\xbb\xbf", 3) == 0)
    reader->pos = 3;
}

gboolean
tl_io_reader_next (TlIoReader *reader, TlIoLine *line)
{
  if (reader->pos >= reader->len)
    return FALSE;
  /* a line ends at "\n", "\r\n" or a lone "\r" (classic Mac OS) */
  const char *start = reader->buf + reader->pos;
  gsize rest = reader->len - reader->pos, len = 0;
  while (len < rest && start[len] != '\n' && start[len] != '\r')
    len++;
  gsize ending = 0;
  if (len < rest)
    ending = (start[len] == '\r' && len + 1 < rest && start[len + 1] == '\n') ? 2 : 1;
  reader->pos += len + ending;
  reader->line++;
  line->text = start;
  line->len = len;
  line->number = reader->line;
  return TRUE;
}

guint
tl_io_reader_end_line (const TlIoReader *reader)
{
  /* a file ending in a line end ends on the (empty) line after the last one */
  if (reader->len > 0 && (reader->buf[reader->len - 1] == '\n' || reader->buf[reader->len - 1] == '\r'))
    return reader->line + 1;
  return MAX (reader->line, 1);
}

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

gboolean
tl_io_line_token (const TlIoLine *line, gsize *cursor, const char **tok, gsize *tok_len,
                  guint *col)
{
  gsize i = *cursor;
  while (i < line->len && is_blank (line->text[i]))
    i++;
  if (i >= line->len)
    {
      *cursor = i;
      return FALSE;
    }
  gsize start = i;
  while (i < line->len && !is_blank (line->text[i]))
    i++;
  *tok = line->text + start;
  *tok_len = i - start;
  if (col)
    *col = (guint) start + 1;
  *cursor = i;
  return TRUE;
}

gboolean
tl_io_line_is_blank (const TlIoLine *line)
{
  for (gsize i = 0; i < line->len; i++)
    if (!is_blank (line->text[i]))
      return FALSE;
  return TRUE;
}


/* ---- numbers --------------------------------------------------------- */

static gboolean
word_is (const char *tok, gsize len, const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (tok, word, len) == 0;
}

TlIoNumber
tl_io_parse_number (const char *tok, gsize len, gboolean decimal_comma, double *out,
                    gboolean *out_is_int)
{
  char small[64];
  g_autofree char *big = NULL;
  gboolean is_int = TRUE, seen_digit = FALSE, seen_point = FALSE, seen_comma = FALSE;

  if (out_is_int)
    *out_is_int = FALSE;
  if (len == 0)
    return TL_IO_NUMBER_BAD;

  gsize i = (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  if (word_is (tok + i, len - i, "nan") || word_is (tok + i, len - i, "inf")
      || word_is (tok + i, len - i, "infinity"))
    {
      double v = (g_ascii_tolower (tok[i]) == 'n') ? NAN : INFINITY;
      *out = (tok[0] == '-') ? -v : v;
      return TL_IO_NUMBER_OK;
    }

  /* Only these characters may appear; this keeps out hex ("0x1p3"),
   * spaces and whatever else strtod would quietly accept or skip. */
  for (gsize k = i; k < len; k++)
    {
      char c = tok[k];
      if (g_ascii_isdigit (c))
        seen_digit = TRUE;
      else if (c == '.')
        seen_point = TRUE, is_int = FALSE;
      else if (c == ',' && decimal_comma)
        seen_comma = TRUE, is_int = FALSE;
      else if (c == 'e' || c == 'E' || c == '+' || c == '-')
        is_int = FALSE;
      else
        return TL_IO_NUMBER_BAD;
    }
  if (!seen_digit || (seen_point && seen_comma))
    return TL_IO_NUMBER_BAD;

  char *copy = small;
  if (len >= sizeof small)
    copy = big = g_malloc (len + 1);
  memcpy (copy, tok, len);
  copy[len] = '\0';
  if (seen_comma)
    {
      char *comma = strchr (copy, ',');
      if (strchr (comma + 1, ',') != NULL)
        return TL_IO_NUMBER_BAD;
      *comma = '.';
    }

  char *end = NULL;
  errno = 0;
  double v = g_ascii_strtod (copy, &end);
  if (end != copy + len)
    return TL_IO_NUMBER_BAD;
  if (errno == ERANGE && isinf (v))
    return TL_IO_NUMBER_RANGE;
  *out = v;
  if (out_is_int)
    *out_is_int = is_int && v >= -2147483648.0 && v <= 2147483647.0;
  return TL_IO_NUMBER_OK;
}

gboolean
tl_io_parse_size (const char *tok, gsize len, guint64 *out, gboolean *out_negative)
{
  if (out_negative)
    *out_negative = FALSE;
  if (len > 1 && tok[0] == '-')
    {
      gboolean digits = TRUE;
      for (gsize k = 1; k < len; k++)
        digits = digits && g_ascii_isdigit (tok[k]);
      if (out_negative)
        *out_negative = digits;
      return FALSE;
    }
  gsize i = (len > 0 && tok[0] == '+') ? 1 : 0;
  if (i == len)
    return FALSE;
  guint64 acc = 0;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (tok[i]))
        return FALSE;
      if (!g_uint64_checked_mul (&acc, acc, 10)
          || !g_uint64_checked_add (&acc, acc, (guint64) (tok[i] - '0')))
        return FALSE;
    }
  *out = acc;
  return TRUE;
}

int
tl_io_line_sizes (const char *path, const TlIoLine *line, gsize *cursor, int n,
                  const char *const *what, guint64 *sizes, GError **error)
{
  for (int k = 0; k < n; k++)
    {
      const char *tok;
      gsize tok_len;
      guint col;
      gboolean negative;
      if (!tl_io_line_token (line, cursor, &tok, &tok_len, &col))
        return k;
      if (!tl_io_parse_size (tok, tok_len, &sizes[k], &negative))
        {
          g_autofree char *q = tl_io_quote (tok, tok_len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, col,
                           negative ? _("the %s is negative: %s")
                                    : _("expected the %s (a whole number), found %s"),
                           _(what[k]), q);
          return -1;
        }
    }
  return n;
}

gboolean
tl_io_can_fill (guint64 n_values, guint64 min_bytes, guint64 bytes_left)
{
  /* n values of min_bytes each, the last without its separator */
  guint64 need;
  if (n_values == 0)
    return TRUE;
  if (!g_uint64_checked_mul (&need, n_values, MAX (min_bytes, 1)))
    return FALSE;
  return need - 1 <= bytes_left;
}

TlMatrix *
tl_io_matrix_new (const char *path, guint line, TlDtype dtype, guint64 rows, guint64 cols,
                  gboolean zeroed, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (!tl_matrix_check_size (dtype, rows, cols, NULL, &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, line, 0, "%s", local->message);
      return NULL;
    }
  TlMatrix *m = zeroed ? tl_matrix_new_zeroed (dtype, (gsize) rows, (gsize) cols, &local)
                       : tl_matrix_new (dtype, (gsize) rows, (gsize) cols, &local);
  if (m == NULL)
    tl_io_set_error (error, local->code, path, line, 0, "%s", local->message);
  return m;
}

gboolean
tl_io_parse_int64 (const char *tok, gsize len, gint64 *out)
{
  char buf[32];
  if (len == 0 || len >= sizeof buf)
    return FALSE;
  gsize i = (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  if (i == len)
    return FALSE;
  for (gsize k = i; k < len; k++)
    if (!g_ascii_isdigit (tok[k]))
      return FALSE;
  memcpy (buf, tok, len);
  buf[len] = '\0';
  /* g_ascii_string_to_signed refuses a leading '+' */
  return g_ascii_string_to_signed (buf[0] == '+' ? buf + 1 : buf, 10, G_MININT64, G_MAXINT64,
                                   out, NULL);
}

gboolean
tl_io_fits_float32 (double v)
{
  /* FLT_MAX's shortest text, 3.4028235e38, is above FLT_MAX as a double
   * but rounds to it: what matters is whether the rounding overflows */
  return !isfinite (v) || isfinite ((float) v);
}

gboolean
tl_io_parse_value (const char *path, guint line, guint col, const char *tok, gsize len,
                   gboolean decimal_comma, TlDtype dtype, double *out, gboolean *all_int,
                   GError **error)
{
  double v = 0;
  gboolean is_int = FALSE;
  TlIoNumber r = tl_io_parse_number (tok, len, decimal_comma, &v, &is_int);
  if (r != TL_IO_NUMBER_OK)
    {
      g_autofree char *q = tl_io_quote (tok, len);
      if (r == TL_IO_NUMBER_RANGE)
        tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                         _("the number %s is beyond the range of float64"), q);
      else
        tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                         _("expected a number, found %s"), q);
      return FALSE;
    }
  switch (dtype)
    {
    case TL_DTYPE_INT32:
      if (!is_int)
        {
          g_autofree char *q = tl_io_quote (tok, len);
          gint64 wide;
          if (tl_io_parse_int64 (tok, len, &wide))
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                             _("the integer %s does not fit in int32"), q);
          else
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                             _("expected an integer (int32), found %s"), q);
          return FALSE;
        }
      break;
    case TL_DTYPE_FLOAT32:
      if (!tl_io_fits_float32 (v))
        {
          g_autofree char *q = tl_io_quote (tok, len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                           _("the number %s is beyond the range of float32"), q);
          return FALSE;
        }
      break;
    case TL_DTYPE_FLOAT64:
      break;
    }
  if (all_int)
    *all_int = *all_int && is_int;
  *out = v;
  return TRUE;
}

gboolean
tl_io_store_number (const char *path, guint line, guint col, const char *tok, gsize len,
                    gboolean decimal_comma, TlMatrix *matrix, gsize i, gsize j,
                    gboolean *all_int, GError **error)
{
  double v;
  if (!tl_io_parse_value (path, line, col, tok, len, decimal_comma, matrix->dtype, &v, all_int,
                          error))
    return FALSE;
  tl_matrix_set (matrix, i, j, v);
  return TRUE;
}


/* ---- files ----------------------------------------------------------- */

gboolean
tl_io_read_file (const char *path, char **out_buf, gsize *out_len, GError **error)
{
  guint64 size;
  int fd = tl_file_open_regular (path, &size, error);
  if (fd < 0)
    return FALSE;
  return tl_io_read_opened (fd, path, size, out_buf, out_len, error);
}

gboolean
tl_io_read_opened (int fd, const char *path, guint64 size, char **out_buf, gsize *out_len,
                   GError **error)
{
  TlMemoryCap cap;
  tl_memory_cap_read (&cap);
  if (size > cap.limit)
    {
      g_autofree char *have = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *within = tl_memory_cap_describe (&cap);
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, 0, 0,
                       _("the file is %s, more than %s"), have, within);
      close (fd);
      return FALSE;
    }
  return tl_file_read_fd (fd, path, cap.limit, out_buf, out_len, error);
}
