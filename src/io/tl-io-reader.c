/* tl-io-reader.c — what every format's reader shares: locale-free
 * numbers, sizes, the size check and filling a matrix. */
#include "io/tl-io-reader.h"
#include "io/tl-number.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- numbers --------------------------------------------------------- */

static gboolean
word_is (const char *tok, gsize len, const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (tok, word, len) == 0;
}

TlIoNumber
tl_io_parse_number (const char *tok, gsize len, gboolean decimal_comma, gboolean as_float32,
                    double *out, gboolean *out_is_int)
{
  if (out_is_int)
    *out_is_int = FALSE;
  if (len == 0)
    return TL_IO_NUMBER_BAD;
  gboolean negative = tok[0] == '-';
  gsize i = (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  const char *digits = tok + i;
  gsize n = len - i;

  if (n > 0 && (g_ascii_isdigit (digits[0]) || digits[0] == '.'))
    {
      /* the common case first: an integer of at most 9 digits is exact
       * and needs no library */
      gsize k = 0;
      gint64 acc = 0;
      while (k < n && k < 10 && g_ascii_isdigit (digits[k]))
        acc = acc * 10 + (digits[k++] - '0');
      if (k == n && k <= 9)
        {
          /* "-0" is the float −0.0 (an int32 matrix stores 0) */
          *out = negative ? -(double) acc : (double) acc;
          if (out_is_int)
            *out_is_int = TRUE;
          return TL_IO_NUMBER_OK;
        }
      /* the rest is fast_float's, which must use every byte: after a
       * digit or '.' it takes only digits, one point and an exponent, so
       * hex ("0x10"), a second sign or trailing garbage ("1.5x") stop it
       * short.  A decimal comma is the point only where one is written. */
      char point = decimal_comma && memchr (digits, ',', n) ? ',' : '.';
      double v;
      if (tl_number_parse (digits, n, point, as_float32, &v) != n)
        return TL_IO_NUMBER_BAD;
      if (isinf (v))
        return TL_IO_NUMBER_RANGE;
      v = negative ? -v : v;
      *out = v;
      if (out_is_int)
        {
          while (k < n && g_ascii_isdigit (digits[k]))
            k++;
          *out_is_int = k == n && v >= -2147483648.0 && v <= 2147483647.0;
        }
      return TL_IO_NUMBER_OK;
    }

  if (word_is (digits, n, "nan") || word_is (digits, n, "inf") || word_is (digits, n, "infinity"))
    {
      double v = (g_ascii_tolower (digits[0]) == 'n') ? NAN : INFINITY;
      *out = negative ? -v : v;
      return TL_IO_NUMBER_OK;
    }
  return TL_IO_NUMBER_BAD;
}

gboolean
tl_io_source_plain_number (TlIoSource *src, const TlIoByteSet *stop, gboolean as_float32,
                           gboolean want_is_int, double *out, gboolean *out_is_int)
{
  const char *p = src->p, *end = src->end;
  const char *digits = p < end && *p == '-' ? p + 1 : p;
  if (digits >= end || !g_ascii_isdigit (*digits))
    return FALSE;
  /* fast_float takes the sign, digits, one point and an exponent, and
   * stops at the first byte that cannot continue them */
  gsize room = MIN ((gsize) (end - p), TL_IO_MAX_TOKEN + 1);
  double v;
  gsize n = tl_number_parse (p, room, '.', as_float32, &v);
  const char *after = p + n;
  if (n == 0 || n > TL_IO_MAX_TOKEN || isinf (v))
    return FALSE;
  if (after < end ? *after == 0 || !stop->has[(guchar) *after] : !src->at_eof)
    return FALSE;
  if (want_is_int)
    {
      const char *q = digits;
      while (q < after && g_ascii_isdigit (*q))
        q++;
      *out_is_int = q == after && v >= -2147483648.0 && v <= 2147483647.0;
    }
  *out = v;
  src->p = after;
  return TRUE;
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

void
tl_io_number_error (GError **error, const char *path, guint line, guint col, const char *tok,
                    gsize len, TlIoNumber r, TlDtype dtype)
{
  g_autofree char *q = tl_io_quote (tok, len);
  gint64 wide;
  if (r == TL_IO_NUMBER_RANGE)
    tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                     _("the number %s is beyond the range of %s"), q,
                     dtype == TL_DTYPE_FLOAT32 ? "float32" : "float64");
  else if (r == TL_IO_NUMBER_BAD)
    tl_io_set_error (error, TL_ERROR_PARSE, path, line, col, _("expected a number, found %s"),
                     q);
  else if (r == TL_IO_NUMBER_NOT_INT && tl_io_parse_int64 (tok, len, &wide))
    tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                     _("the integer %s does not fit in int32"), q);
  else
    tl_io_set_error (error, TL_ERROR_PARSE, path, line, col,
                     _("expected an integer (int32), found %s"), q);
}

gboolean
tl_io_parse_value (const char *path, guint line, guint col, const char *tok, gsize len,
                   gboolean decimal_comma, TlDtype dtype, double *out, gboolean *all_int,
                   GError **error)
{
  double v = 0;
  gboolean is_int = FALSE;
  TlIoNumber r = tl_io_parse_number (tok, len, decimal_comma, dtype == TL_DTYPE_FLOAT32, &v,
                                     &is_int);
  if (r == TL_IO_NUMBER_OK && dtype == TL_DTYPE_INT32 && !is_int)
    r = TL_IO_NUMBER_NOT_INT;
  if (r != TL_IO_NUMBER_OK)
    {
      tl_io_number_error (error, path, line, col, tok, len, r, dtype);
      return FALSE;
    }
  if (all_int)
    *all_int = *all_int && is_int;
  *out = v;
  return TRUE;
}

static const TlIoByteSet *
token_stop (char comment)
{
  static TlIoByteSet sets[2];
  static gsize once;
  if (g_once_init_enter (&once))
    {
      tl_io_byte_set_init (&sets[0], " \t\v\f\r\n");
      tl_io_byte_set_init (&sets[1], " \t\v\f\r\n#");
      sets[0].has[0] = sets[1].has[0] = TRUE; /* a NUL ends a token, to be reported */
      g_once_init_leave (&once, 1);
    }
  g_assert (comment == 0 || comment == '#');
  return &sets[comment == '#'];
}

int
tl_io_source_token (TlIoSource *src, char comment, const char **tok, gsize *len, GError **error)
{
  tl_io_source_skip (src, tl_io_blanks ());
  int c = tl_io_source_peek (src);
  if (c == TL_IO_EOF)
    return tl_io_source_failed (src, error) ? -1 : 0;
  if (c == '\n' || c == '\r')
    return 0;
  if (comment != 0 && c == comment)
    {
      tl_io_source_skip_to_eol (src);
      return tl_io_source_failed (src, error) ? -1 : 0;
    }
  if (c == 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, src->path, tl_io_source_line (src),
                       tl_io_source_col (src, src->p),
                       _("a NUL byte: expected text (is this a binary file?)"));
      return -1;
    }
  if (!tl_io_source_span (src, token_stop (comment), tok, len))
    return tl_io_source_failed (src, error) ? -1 : 0;
  return 1;
}

int
tl_io_source_sizes (TlIoSource *src, char comment, int n, const char *const *what,
                    guint64 *sizes, GError **error)
{
  for (int k = 0; k < n; k++)
    {
      const char *tok;
      gsize len;
      gboolean negative;
      int got = tl_io_source_token (src, comment, &tok, &len, error);
      if (got <= 0)
        return got < 0 ? -1 : k;
      if (!tl_io_parse_size (tok, len, &sizes[k], &negative))
        {
          g_autofree char *q = tl_io_quote (tok, len);
          tl_io_set_error (error, TL_ERROR_PARSE, src->path, tl_io_source_line (src),
                           tl_io_source_col (src, tok),
                           negative ? _("the %s is negative: %s")
                                    : _("expected the %s (a whole number), found %s"),
                           _(what[k]), q);
          return -1;
        }
    }
  return n;
}

/* ---- filling a matrix -------------------------------------------------- */

void
tl_io_fill_summarize (TlIoFill *fill, TlSummaryPass *pass)
{
  fill->pass = pass;
}

gboolean
tl_io_fill_check_size (const TlIoFill *fill, TlDtype dtype, guint64 rows, guint64 cols,
                       GError **error)
{
  return fill->pass ? tl_matrix_check_shape (rows, cols, error)
                    : tl_matrix_check_size (dtype, rows, cols, NULL, error);
}

gboolean
tl_io_fill_init (TlIoFill *fill, const char *path, guint line, TlDtype dtype, gboolean infer,
                 guint64 rows, guint64 cols, GError **error)
{
  TlSummaryPass *pass = fill->pass;
  *fill = (TlIoFill) { .path = path, .pass = pass, .infer = infer,
                       .dtype = infer ? TL_DTYPE_INT32 : dtype, .rows = rows, .cols = cols };
  if (pass == NULL)
    fill->m = tl_io_matrix_new (path, line, fill->dtype, rows, cols, FALSE, error);
  else
    {
      g_autoptr (GError) local = NULL;
      if (!tl_matrix_check_shape (rows, cols, &local))
        {
          tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, line, 0, "%s", local->message);
          return FALSE;
        }
      /* as tl_matrix_summarize sees a matrix without cells */
      tl_summary_pass_begin (pass, cols == 0 ? 0 : (gsize) rows, rows == 0 ? 0 : (gsize) cols);
    }
  fill->taking = pass != NULL || fill->m != NULL;
  return fill->taking;
}

gboolean
tl_io_fill_widen (TlIoFill *fill, GError **error)
{
  g_assert (fill->infer && fill->dtype == TL_DTYPE_INT32);
  if (fill->pass)
    {
      /* int32 values are exact as doubles: the batch stands */
      fill->dtype = TL_DTYPE_FLOAT64;
      return TRUE;
    }
  TlMatrix *old = fill->m;
  TlMatrix *wide = tl_io_matrix_new (fill->path, 0, TL_DTYPE_FLOAT64, old->rows, old->cols,
                                     FALSE, error);
  if (wide == NULL)
    return FALSE;
  const gint32 *from = old->data;
  double *to = wide->data;
  for (guint64 k = 0; k < fill->n; k++)
    to[k] = from[k];
  fill->m = wide;
  fill->dtype = TL_DTYPE_FLOAT64;
  tl_matrix_unref (old);
  return TRUE;
}

void
tl_io_fill_flush (TlIoFill *fill)
{
  if (fill->pass && fill->n_batch > 0)
    tl_summary_pass_add (fill->pass, fill->batch, fill->n_batch);
  fill->n_batch = 0;
}

TlMatrix *
tl_io_fill_finish (TlIoFill *fill, gsize rows)
{
  g_assert (fill->pass == NULL && rows <= fill->m->rows);
  TlMatrix *m = g_steal_pointer (&fill->m);
  m->rows = rows; /* the storage keeps its size: at most one row more */
  return m;
}

void
tl_io_fill_clear (TlIoFill *fill)
{
  g_clear_pointer (&fill->m, tl_matrix_unref);
  if (fill->pass && fill->taking)
    {
      TlMatrixSummary unused;
      tl_summary_pass_end (fill->pass, &unused); /* frees its column sums */
    }
  fill->taking = FALSE;
}
