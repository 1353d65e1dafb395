/* tl-csv.c — CSV, TSV and whitespace-separated tables of numbers.
 *
 * The delimiter is sniffed from the first row: a tab if there is one,
 * else ';' (spreadsheets in German or Italian locales, which also write a
 * decimal comma: "1,5;2,25"), else ',', else runs of blanks.  A first row
 * in which no field is a number (not even one beyond float64's range) is
 * a header and skipped; a row with any number is data, so a row of
 * numbers is never dropped.  Fields may be quoted
 * ("1.5", with "" for a quote inside).  Blank lines and lines starting
 * with '#' are skipped.  Every row must have as many fields as the first.
 * The dtype follows the values: int32 when every value is written as an
 * integer that fits, float64 otherwise; float32 when the file carries our
 * writer's comment "# tilelab: dtype=float32" (its values are written
 * with float32's shortest round-trip digits, so they come back exactly).
 */
#include "io/tl-csv.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define DELIM_BLANKS ' '

typedef struct
{
  const char *text; /* the field, without quotes and surrounding blanks */
  gsize len;
  guint col;        /* 1-based column of the field's start */
  gboolean quoted;
} Field;

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* Splits a line into fields (appended to out).  Quoted fields are copied
 * into scratch with "" unescaped.  Errors: an unterminated quote, text
 * after a closing quote. */
static gboolean
split_line (const char *path, const TlIoLine *line, char delim, GArray *out, GString *scratch,
            GError **error)
{
  const char *s = line->text;
  gsize n = line->len, i = 0;

  g_array_set_size (out, 0);
  g_string_truncate (scratch, 0);
  /* quoted fields point into scratch, so reserve enough that it never moves */
  g_string_set_size (scratch, n + 1);
  g_string_truncate (scratch, 0);

  if (delim == DELIM_BLANKS)
    {
      while (i < n)
        {
          while (i < n && is_blank (s[i]))
            i++;
          if (i >= n)
            break;
          Field f = { s + i, 0, (guint) i + 1, FALSE };
          while (i < n && !is_blank (s[i]))
            i++;
          f.len = (gsize) (s + i - f.text);
          g_array_append_val (out, f);
        }
      return TRUE;
    }

  for (;;)
    {
      while (i < n && s[i] == ' ')
        i++;
      Field f = { s + i, 0, (guint) i + 1, FALSE };
      if (i < n && s[i] == '"')
        {
          gsize start = scratch->len;
          f.quoted = TRUE;
          i++;
          for (;;)
            {
              if (i >= n)
                {
                  tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, f.col,
                                   _("the quoted field has no closing quote on this line"));
                  return FALSE;
                }
              if (s[i] == '"' && i + 1 < n && s[i + 1] == '"')
                g_string_append_c (scratch, '"'), i += 2;
              else if (s[i] == '"')
                {
                  i++;
                  break;
                }
              else
                g_string_append_c (scratch, s[i++]);
            }
          f.text = scratch->str + start;
          f.len = scratch->len - start;
          while (i < n && s[i] == ' ')
            i++;
          if (i < n && s[i] != delim)
            {
              g_autofree char *q = tl_io_quote (s + i, n - i);
              tl_io_set_error (error, TL_ERROR_PARSE, path, line->number, (guint) i + 1,
                               _("expected a delimiter after the closing quote, found %s"), q);
              return FALSE;
            }
        }
      else
        {
          const char *end = memchr (s + i, delim, n - i);
          gsize stop = end ? (gsize) (end - s) : n;
          f.len = stop - i;
          while (f.len > 0 && is_blank (f.text[f.len - 1]))
            f.len--;
          i = stop;
        }
      g_array_append_val (out, f);
      if (i >= n)
        break;
      i++; /* the delimiter */
    }
  return TRUE;
}

static gboolean
skip_line (const TlIoLine *line)
{
  if (tl_io_line_is_blank (line))
    return TRUE;
  for (gsize i = 0; i < line->len; i++)
    if (!is_blank (line->text[i]))
      return line->text[i] == '#';
  return FALSE;
}

#define FLOAT32_NOTE "# tilelab: dtype=float32"

static gboolean
is_float32_note (const TlIoLine *line)
{
  TlIoLine l = *line;
  while (l.len > 0 && (l.text[l.len - 1] == ' ' || l.text[l.len - 1] == '\t'))
    l.len--;
  return l.len == strlen (FLOAT32_NOTE) && memcmp (l.text, FLOAT32_NOTE, l.len) == 0;
}

/* A header row has no field that is a number, not even one beyond
 * float64's range ("1e999"): a row with any number is data, and its bad
 * fields are reported rather than the row dropped. */
static gboolean
is_header_row (GArray *fields, gboolean decimal_comma)
{
  for (guint k = 0; k < fields->len; k++)
    {
      const Field *f = &g_array_index (fields, Field, k);
      double v;
      if (tl_io_parse_number (f->text, f->len, decimal_comma, &v, NULL) != TL_IO_NUMBER_BAD)
        return FALSE;
    }
  return TRUE;
}

/* Appends a row's fields to values as numbers; *all_int is cleared by any
 * not written as an int32 integer.  Errors name the field. */
static gboolean
append_row (const char *path, guint line, GArray *fields, gboolean decimal_comma,
            gboolean float32, GArray *values, gboolean *all_int, GError **error)
{
  for (guint k = 0; k < fields->len; k++)
    {
      const Field *f = &g_array_index (fields, Field, k);
      double v = 0;
      gboolean is_int = FALSE;
      TlIoNumber r = tl_io_parse_number (f->text, f->len, decimal_comma, &v, &is_int);
      if (r != TL_IO_NUMBER_OK)
        {
          g_autofree char *q = tl_io_quote (f->text, f->len);
          if (f->len == 0)
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, f->col,
                             _("field %u is empty: expected a number"), k + 1);
          else if (r == TL_IO_NUMBER_RANGE)
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, f->col,
                             _("the number %s is beyond the range of float64"), q);
          else
            tl_io_set_error (error, TL_ERROR_PARSE, path, line, f->col,
                             _("field %u: expected a number, found %s"), k + 1, q);
          return FALSE;
        }
      if (float32 && !tl_io_fits_float32 (v))
        {
          g_autofree char *q = tl_io_quote (f->text, f->len);
          tl_io_set_error (error, TL_ERROR_PARSE, path, line, f->col,
                           _("the number %s is beyond the range of float32"), q);
          return FALSE;
        }
      *all_int = *all_int && is_int;
      g_array_append_val (values, v);
    }
  return TRUE;
}

/* Tab, then ';', then ',' outside quotes on the first row, else blanks. */
static char
sniff_delimiter (const TlIoLine *line)
{
  gboolean quoted = FALSE, tab = FALSE, semi = FALSE, comma = FALSE;
  for (gsize i = 0; i < line->len; i++)
    {
      char c = line->text[i];
      if (c == '"')
        quoted = !quoted;
      else if (!quoted)
        tab |= c == '\t', semi |= c == ';', comma |= c == ',';
    }
  return tab ? '\t' : semi ? ';' : comma ? ',' : DELIM_BLANKS;
}

static const char *
delimiter_name (char delim)
{
  switch (delim)
    {
    case '\t': return _("tab");
    case ';':  return _("semicolon");
    case ',':  return _("comma");
    default:   return _("whitespace");
    }
}

TlMatrix *
tl_csv_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoReader reader;
  TlIoLine line;
  g_autoptr (GArray) fields = g_array_new (FALSE, FALSE, sizeof (Field));
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GString) scratch = g_string_new (NULL);
  gsize cols = 0, rows = 0;
  guint first_line = 0;
  char delim = 0;
  gboolean decimal_comma = FALSE, all_int = TRUE, have_header = FALSE, float32 = FALSE;
  guint64 cap = tl_matrix_byte_cap ();

  if (memchr (buf, '\0', len) != NULL)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       _("the file holds NUL bytes: expected text"));
      return NULL;
    }

  tl_io_reader_init (&reader, path, buf, len);
  while (tl_io_reader_next (&reader, &line))
    {
      if (skip_line (&line))
        {
          /* our writer's note counts before the first row */
          float32 = float32 || (cols == 0 && is_float32_note (&line));
          continue;
        }
      if (delim == 0)
        {
          delim = sniff_delimiter (&line);
          /* with ';' or tab between fields, a ',' can only be a decimal comma */
          decimal_comma = delim == ';' || delim == '\t';
        }
      if (!split_line (path, &line, delim, fields, scratch, error))
        return NULL;

      if (cols == 0)
        {
          cols = fields->len;
          first_line = line.number;
          have_header = is_header_row (fields, decimal_comma);
          if (have_header)
            continue;
        }

      if (fields->len != cols)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, line.number, 0,
                           _("expected %zu %s-separated fields (as on line %u), found %u"),
                           cols, delimiter_name (delim), first_line, fields->len);
          return NULL;
        }
      if (!append_row (path, line.number, fields, decimal_comma, float32, values, &all_int,
                       error))
        return NULL;
      rows++;
      /* the table is collected as float64 before its size is known */
      if ((guint64) values->len * sizeof (double) > cap)
        {
          g_autoptr (GError) local = NULL;
          tl_matrix_check_size (TL_DTYPE_FLOAT64, rows, cols, NULL, &local);
          tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, line.number, 0, "%s",
                           local ? local->message : _("the table is too large"));
          return NULL;
        }
    }

  if (cols == 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (&reader), 0,
                       _("the file is empty: expected rows of numbers"));
      return NULL;
    }
  if (rows == 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_reader_end_line (&reader), 0,
                       _("only a header row (line %u): expected rows of numbers below it"),
                       first_line);
      return NULL;
    }

  TlDtype dtype = float32 ? TL_DTYPE_FLOAT32 : all_int ? TL_DTYPE_INT32 : TL_DTYPE_FLOAT64;
  TlMatrix *m = tl_io_matrix_new (path, 0, dtype, rows, cols, FALSE, error);
  if (m == NULL)
    return NULL;
  const double *v = (const double *) values->data;
  if (dtype == TL_DTYPE_FLOAT64)
    memcpy (m->data, v, rows * cols * sizeof (double));
  else if (dtype == TL_DTYPE_FLOAT32)
    for (gsize k = 0; k < rows * cols; k++)
      ((float *) m->data)[k] = (float) v[k];
  else
    for (gsize k = 0; k < rows * cols; k++)
      ((gint32 *) m->data)[k] = (gint32) v[k];
  return m;
}

gboolean
tl_csv_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  char delim = (char) GPOINTER_TO_INT (user_data);
  if (matrix->rows == 0 || matrix->cols == 0)
    {
      /* a table without cells reads back as an empty file, which is an error */
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("a %zu×%zu matrix has no cells for a CSV table to hold: save it as "
                     ".npy, .mtx or .txt"), matrix->rows, matrix->cols);
      return FALSE;
    }
  g_autoptr (GString) row = g_string_new (NULL);
  /* float32's shortest digits read back as float32, not as float64 */
  if (matrix->dtype == TL_DTYPE_FLOAT32)
    fprintf (out, "%s\n", FLOAT32_NOTE);
  for (gsize i = 0; i < matrix->rows; i++)
    {
      g_string_truncate (row, 0);
      for (gsize j = 0; j < matrix->cols; j++)
        {
          if (j > 0)
            g_string_append_c (row, delim);
          tl_io_append_element (row, matrix, i, j);
        }
      g_string_append_c (row, '\n');
      fwrite (row->str, 1, row->len, out);
    }
  return TRUE;
}
