/* tl-io.c — choosing a format, and what every format shares: error
 * messages with positions, a line reader, locale-free numbers, whole-file
 * reading and atomic writing. */
#include "io/tl-io-private.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- format names ---------------------------------------------------- */

static const struct
{
  TlFormat format;
  const char *name;
  const char *title;
} format_table[] = {
  { TL_FORMAT_AUTO, "auto", N_("automatic") },
  { TL_FORMAT_MTX,  "mtx",  N_("Matrix Market") },
  { TL_FORMAT_NPY,  "npy",  N_("NumPy .npy") },
  { TL_FORMAT_CSV,  "csv",  N_("CSV / delimited text") },
  { TL_FORMAT_TEXT, "text", N_("Tilelab text") },
};

const char *
tl_format_name (TlFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (format_table[i].format == format)
      return format_table[i].name;
  g_return_val_if_reached ("invalid");
}

const char *
tl_format_title (TlFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (format_table[i].format == format)
      return _(format_table[i].title);
  g_return_val_if_reached ("invalid");
}

gboolean
tl_format_from_name (const char *name, TlFormat *out_format)
{
  static const struct { const char *alias; TlFormat format; } aliases[] = {
    { "auto", TL_FORMAT_AUTO },
    { "mtx", TL_FORMAT_MTX }, { "mm", TL_FORMAT_MTX }, { "matrixmarket", TL_FORMAT_MTX },
    { "npy", TL_FORMAT_NPY }, { "numpy", TL_FORMAT_NPY },
    { "csv", TL_FORMAT_CSV }, { "tsv", TL_FORMAT_CSV },
    { "text", TL_FORMAT_TEXT }, { "txt", TL_FORMAT_TEXT }, { "tilelab", TL_FORMAT_TEXT },
  };
  g_return_val_if_fail (out_format != NULL, FALSE);
  for (gsize i = 0; name && i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (name, aliases[i].alias) == 0)
      {
        *out_format = aliases[i].format;
        return TRUE;
      }
  return FALSE;
}

static const char *
path_extension (const char *path)
{
  const char *base = strrchr (path, G_DIR_SEPARATOR);
  base = base ? base + 1 : path;
  const char *dot = strrchr (base, '.');
  return (dot && dot != base) ? dot + 1 : NULL;
}

TlFormat
tl_format_from_path (const char *path)
{
  g_return_val_if_fail (path != NULL, TL_FORMAT_AUTO);
  const char *ext = path_extension (path);
  if (ext == NULL)
    return TL_FORMAT_AUTO;
  if (g_ascii_strcasecmp (ext, "mtx") == 0 || g_ascii_strcasecmp (ext, "mm") == 0)
    return TL_FORMAT_MTX;
  if (g_ascii_strcasecmp (ext, "npy") == 0)
    return TL_FORMAT_NPY;
  if (g_ascii_strcasecmp (ext, "csv") == 0 || g_ascii_strcasecmp (ext, "tsv") == 0)
    return TL_FORMAT_CSV;
  if (g_ascii_strcasecmp (ext, "txt") == 0 || g_ascii_strcasecmp (ext, "mat") == 0)
    return TL_FORMAT_TEXT;
  return TL_FORMAT_AUTO;
}

/* ---- errors ---------------------------------------------------------- */

void
tl_io_set_error (GError **error, TlErrorCode code, const char *path, guint line, guint col,
                 const char *format, ...)
{
  va_list args;
  if (error == NULL)
    return;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *name = g_filename_display_name (path);
  if (line > 0 && col > 0)
    g_set_error (error, TL_ERROR, code, "%s:%u:%u: %s", name, line, col, message);
  else if (line > 0)
    g_set_error (error, TL_ERROR, code, "%s:%u: %s", name, line, message);
  else
    g_set_error (error, TL_ERROR, code, "%s: %s", name, message);
}

char *
tl_io_quote (const char *text, gsize len)
{
  GString *s = g_string_new ("“");
  gsize shown = MIN (len, 40);
  for (gsize i = 0; i < shown; i++)
    {
      guchar c = (guchar) text[i];
      if (c == '\\')
        g_string_append (s, "\\\\");
      else if (c >= 0x20 && c < 0x7f)
        g_string_append_c (s, (char) c);
      else if (c == '\t')
        g_string_append (s, "\\t");
      else
        g_string_append_printf (s, "\\x%02x", c);
    }
  if (shown < len)
    g_string_append (s, "…");
  g_string_append (s, "”");
  return g_string_free (s, FALSE);
}

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
  const char *start = reader->buf + reader->pos;
  gsize rest = reader->len - reader->pos;
  const char *nl = memchr (start, '\n', rest);
  gsize len = nl ? (gsize) (nl - start) : rest;
  reader->pos += nl ? len + 1 : len;
  if (len > 0 && start[len - 1] == '\r')
    len--;
  reader->line++;
  line->text = start;
  line->len = len;
  line->number = reader->line;
  return TRUE;
}

guint
tl_io_reader_end_line (const TlIoReader *reader)
{
  /* a file ending in "\n" ends on the (empty) line after the last one */
  if (reader->len > 0 && reader->buf[reader->len - 1] == '\n')
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

TlMatrix *
tl_io_matrix_new (const char *path, guint line, TlDtype dtype, guint64 rows, guint64 cols,
                  GError **error)
{
  g_autoptr (GError) local = NULL;
  if (!tl_matrix_check_size (dtype, rows, cols, NULL, &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, line, 0, "%s", local->message);
      return NULL;
    }
  TlMatrix *m = tl_matrix_new (dtype, (gsize) rows, (gsize) cols, &local);
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
tl_io_store_number (const char *path, guint line, guint col, const char *tok, gsize len,
                    gboolean decimal_comma, TlMatrix *matrix, gsize i, gsize j,
                    gboolean *all_int, GError **error)
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
  switch (matrix->dtype)
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
      if (isfinite (v) && fabs (v) > FLT_MAX)
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
  tl_matrix_set (matrix, i, j, v);
  return TRUE;
}

void
tl_io_append_value (GString *out, TlDtype dtype, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];

  if (isnan (value))
    {
      g_string_append (out, "nan");
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value < 0 ? "-inf" : "inf");
      return;
    }
  switch (dtype)
    {
    case TL_DTYPE_INT32:
      g_string_append_printf (out, "%" G_GINT32_FORMAT, (gint32) value);
      return;
    case TL_DTYPE_FLOAT32:
      /* the shortest of 6..9 significant digits that reads back exactly */
      for (int p = 6; p <= 9; p++)
        {
          g_snprintf (format, sizeof format, "%%.%dg", p);
          g_ascii_formatd (buf, sizeof buf, format, value);
          if (p == 9 || (float) g_ascii_strtod (buf, NULL) == (float) value)
            break;
        }
      break;
    case TL_DTYPE_FLOAT64:
      for (int p = 15; p <= 17; p++)
        {
          g_snprintf (format, sizeof format, "%%.%dg", p);
          g_ascii_formatd (buf, sizeof buf, format, value);
          if (p == 17 || g_ascii_strtod (buf, NULL) == value)
            break;
        }
      break;
    }
  g_string_append (out, buf);
}

void
tl_io_append_element (GString *out, const TlMatrix *matrix, gsize i, gsize j)
{
  tl_io_append_value (out, matrix->dtype, tl_matrix_get (matrix, i, j));
}

/* ---- files ----------------------------------------------------------- */

gboolean
tl_io_read_file (const char *path, char **out_buf, gsize *out_len, GError **error)
{
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot open: %s"), g_strerror (e));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("not a regular file"));
      close (fd);
      return FALSE;
    }
  guint64 cap = tl_matrix_byte_cap ();
  if ((guint64) st.st_size > cap)
    {
      g_autofree char *size = g_format_size_full (st.st_size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *cap_text = g_format_size_full (cap, G_FORMAT_SIZE_IEC_UNITS);
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, 0, 0,
                       _("the file is %s, more than the limit of %s"), size, cap_text);
      close (fd);
      return FALSE;
    }

  gsize cap_len = (gsize) st.st_size + 1, len = 0;
  char *buf = g_malloc (cap_len);
  for (;;)
    {
      if (len + 1 >= cap_len)
        {
          cap_len *= 2;
          buf = g_realloc (buf, cap_len);
        }
      ssize_t n = read (fd, buf + len, cap_len - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read: %s"), g_strerror (e));
          g_free (buf);
          close (fd);
          return FALSE;
        }
      if (n == 0)
        break;
      len += (gsize) n;
    }
  close (fd);
  buf[len] = '\0';
  *out_buf = buf;
  *out_len = len;
  return TRUE;
}

gboolean
tl_io_write_atomic (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                    gpointer user_data, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s%c.%s.tmp-XXXXXX", dir, G_DIR_SEPARATOR, base);
  struct stat st;
  g_autoptr (GError) local = NULL;

  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0,
                       _("cannot create a temporary file in %s: %s"), dir, g_strerror (e));
      return FALSE;
    }
  /* keep the permissions of a file we replace */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    (void) fchmod (fd, st.st_mode & 07777);

  FILE *out = fdopen (fd, "wb");
  if (out == NULL)
    {
      int e = errno;
      close (fd);
      g_unlink (tmp);
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot write: %s"), g_strerror (e));
      return FALSE;
    }

  gboolean ok = func (out, matrix, user_data, &local);
  int e = 0;
  if (ok && (fflush (out) != 0 || ferror (out)))
    ok = FALSE, e = errno ? errno : EIO;
  if (ok && fsync (fileno (out)) != 0)
    ok = FALSE, e = errno;
  if (fclose (out) != 0 && ok)
    ok = FALSE, e = errno;
  if (ok && g_rename (tmp, path) != 0)
    ok = FALSE, e = errno;

  if (!ok)
    {
      g_unlink (tmp);
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot write: %s"),
                         g_strerror (e ? e : EIO));
      return FALSE;
    }

  /* make the rename itself durable */
  int dfd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dfd >= 0)
    {
      (void) fsync (dfd);
      close (dfd);
    }
  return TRUE;
}

/* ---- load and save --------------------------------------------------- */

static gboolean
starts_with_mtx_banner (const char *buf, gsize len)
{
  static const char banner[] = "%%MatrixMarket";
  if (len >= 3 && memcmp (buf, "\xef\xbb\xbf", 3) == 0)
    buf += 3, len -= 3;
  return len >= sizeof banner - 1 && g_ascii_strncasecmp (buf, banner, sizeof banner - 1) == 0;
}

static gboolean
file_has_npy_magic (const char *path)
{
  char magic[6];
  FILE *f = g_fopen (path, "rb");
  if (f == NULL)
    return FALSE;
  gsize n = fread (magic, 1, sizeof magic, f);
  fclose (f);
  return n == sizeof magic && memcmp (magic, "\x93NUMPY", 6) == 0;
}

TlMatrix *
tl_matrix_load_full (const char *path, TlFormat format, TlFormat *out_format, GError **error)
{
  g_autofree char *buf = NULL;
  gsize len = 0;
  TlMatrix *m = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* content first: the magic of .npy and the banner of Matrix Market are
   * unambiguous; then the extension; then text-or-CSV by a look inside */
  if (format == TL_FORMAT_AUTO && file_has_npy_magic (path))
    format = TL_FORMAT_NPY;
  if (format == TL_FORMAT_NPY)
    {
      m = tl_npy_load (path, error);
      if (m && out_format)
        *out_format = TL_FORMAT_NPY;
      return m;
    }

  if (!tl_io_read_file (path, &buf, &len, error))
    return NULL;
  if (format == TL_FORMAT_AUTO)
    {
      if (starts_with_mtx_banner (buf, len))
        format = TL_FORMAT_MTX;
      else
        format = tl_format_from_path (path);
      if (format == TL_FORMAT_NPY)
        {
          /* named .npy, but without the magic */
          tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                           _("byte 0: expected the .npy magic “\\x93NUMPY”"));
          return NULL;
        }
      if (format == TL_FORMAT_TEXT || format == TL_FORMAT_AUTO)
        format = tl_text_sniff (buf, len) ? TL_FORMAT_TEXT : TL_FORMAT_CSV;
    }

  switch (format)
    {
    case TL_FORMAT_MTX:  m = tl_mtx_load_data (path, buf, len, error); break;
    case TL_FORMAT_CSV:  m = tl_csv_load_data (path, buf, len, error); break;
    case TL_FORMAT_TEXT: m = tl_text_load_data (path, buf, len, error); break;
    case TL_FORMAT_AUTO:
    case TL_FORMAT_NPY:
    default:
      g_return_val_if_reached (NULL);
    }
  if (m && out_format)
    *out_format = format;
  return m;
}

TlMatrix *
tl_matrix_load (const char *path, TlFormat format, GError **error)
{
  return tl_matrix_load_full (path, format, NULL, error);
}

gboolean
tl_matrix_save (const TlMatrix *matrix, const char *path, TlFormat format, GError **error)
{
  g_return_val_if_fail (matrix != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (format == TL_FORMAT_AUTO)
    format = tl_format_from_path (path);
  switch (format)
    {
    case TL_FORMAT_MTX:
      return tl_io_write_atomic (path, matrix, tl_mtx_write, NULL, error);
    case TL_FORMAT_NPY:
      return tl_io_write_atomic (path, matrix, tl_npy_write, NULL, error);
    case TL_FORMAT_CSV:
      {
        const char *ext = path_extension (path);
        char delim = (ext && g_ascii_strcasecmp (ext, "tsv") == 0) ? '\t' : ',';
        return tl_io_write_atomic (path, matrix, tl_csv_write, GINT_TO_POINTER (delim), error);
      }
    case TL_FORMAT_TEXT:
      return tl_io_write_atomic (path, matrix, tl_text_write, NULL, error);
    case TL_FORMAT_AUTO:
    default:
      tl_io_set_error (error, TL_ERROR_INVALID, path, 0, 0,
                       _("cannot tell the format from the name; use .mtx, .npy, .csv, .tsv "
                         "or .txt, or name the format"));
      return FALSE;
    }
}
