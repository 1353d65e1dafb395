/* tl-csv.c — CSV, TSV and whitespace-separated tables of numbers.
 *
 * The delimiter is sniffed from the first row: a tab if there is one,
 * else ';' (spreadsheets in German or Italian locales, which also write a
 * decimal comma: "1,5;2,25"), else ',', else runs of blanks.  A first row
 * in which no field is a number (not even one beyond float64's range) and
 * none begins like one ("0x10", "1.5x") is a header and skipped; a row
 * with any number is data, so a row of numbers is never dropped.  Fields may be quoted ("1.5", with "" for a
 * quote inside).  Blank lines and lines starting with '#' are skipped.
 * Every row must have as many fields as the first.  The dtype follows the
 * values: int32 when every value is written as an integer that fits,
 * float64 otherwise; float32 when the file carries our writer's comment
 * "# tilelab: dtype=float32" (its values are written with float32's
 * shortest round-trip digits, so they come back exactly).
 *
 * The file is streamed, never held: the first row is read to learn the
 * delimiter, then to count its fields; a first pass counts the rows (line
 * ends found by memchr); the matrix is allocated once, and a second pass
 * parses into it (tl_io_fill: int32 until a value says float64), each
 * plain number straight from the window (tl_io_source_plain_number).
 */
#include "io/tl-csv.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define DELIM_BLANKS ' '
#define FLOAT32_NOTE "# tilelab: dtype=float32"

typedef struct
{
  const char *text; /* the field, without quotes and surrounding blanks */
  gsize len;
  guint col;        /* 1-based column of the field's start */
} Field;

typedef struct
{
  TlIoSource *src;
  const char *path;
  char delim;
  gboolean decimal_comma;
  TlIoByteSet field_stop;  /* where an unquoted field ends */
  TlIoByteSet quoted_stop; /* where a run inside quotes ends */
  TlIoByteSet space;       /* skipped before a field */
  TlIoByteSet space_tab;   /* between fields of a whitespace table */
  TlIoByteSet plain_stop;  /* where a plain number ends */
  GString *scratch;        /* a quoted field, unescaped */
} Csv;

/* What a row's fields are used for. */
typedef gboolean (*FieldFunc) (Csv *csv, const Field *f, guint k, gpointer data,
                               GError **error);

static void
csv_set_delimiter (Csv *csv, char delim)
{
  csv->delim = delim;
  /* with ';' or tab between fields, a ',' can only be a decimal comma */
  csv->decimal_comma = delim == ';' || delim == '\t';
  if (delim == DELIM_BLANKS)
    tl_io_byte_set_init (&csv->field_stop, " \t\r\n");
  else
    {
      char stop[4] = { delim, '\r', '\n', 0 };
      tl_io_byte_set_init (&csv->field_stop, stop);
    }
  csv->field_stop.has[0] = TRUE; /* a NUL ends a field, to be reported */
  tl_io_byte_set_init (&csv->quoted_stop, "\"\r\n");
  csv->quoted_stop.has[0] = TRUE;
  tl_io_byte_set_init (&csv->space, " ");
  tl_io_byte_set_init (&csv->space_tab, " \t");
  csv->plain_stop = csv->field_stop;
  csv->plain_stop.has[0] = FALSE;
}

static gboolean
nul_error (Csv *csv, GError **error)
{
  tl_io_set_error (error, TL_ERROR_PARSE, csv->path, tl_io_source_line (csv->src),
                   tl_io_source_col (csv->src, csv->src->p),
                   _("a NUL byte: expected text (is this a binary file?)"));
  return FALSE;
}

/* A quoted field at p (its opening quote): unescaped into scratch. */
static gboolean
read_quoted (Csv *csv, Field *f, GError **error)
{
  TlIoSource *src = csv->src;
  g_string_truncate (csv->scratch, 0);
  tl_io_source_advance (src); /* the opening quote */
  for (;;)
    {
      const char *run;
      gsize len;
      if (!tl_io_source_span (src, &csv->quoted_stop, &run, &len))
        return !tl_io_source_failed (src, error);
      g_string_append_len (csv->scratch, run, (gssize) len);
      if (csv->scratch->len > TL_IO_MAX_TOKEN)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, csv->path, tl_io_source_line (src), f->col,
                           _("the quoted field is longer than %u bytes"),
                           (guint) TL_IO_MAX_TOKEN);
          return FALSE;
        }
      int c = tl_io_source_peek (src);
      if (c == 0)
        return nul_error (csv, error);
      if (c != '"')
        {
          if (tl_io_source_failed (src, error))
            return FALSE;
          tl_io_set_error (error, TL_ERROR_PARSE, csv->path, tl_io_source_line (src), f->col,
                           _("the quoted field has no closing quote on this line"));
          return FALSE;
        }
      tl_io_source_advance (src);
      if (tl_io_source_peek (src) != '"')
        break;
      g_string_append_c (csv->scratch, '"'); /* "" inside quotes */
      tl_io_source_advance (src);
    }
  f->text = csv->scratch->str;
  f->len = csv->scratch->len;
  tl_io_source_skip (src, &csv->space);
  int c = tl_io_source_peek (src);
  if (c != csv->delim && c != '\n' && c != '\r' && c != TL_IO_EOF)
    {
      const char *rest;
      gsize len;
      tl_io_source_span (src, &csv->field_stop, &rest, &len);
      g_autofree char *q = tl_io_quote (rest, len);
      tl_io_set_error (error, TL_ERROR_PARSE, csv->path, tl_io_source_line (src),
                       tl_io_source_col (src, rest),
                       _("expected a delimiter after the closing quote, found %s"), q);
      return FALSE;
    }
  return TRUE;
}

/* Walks the fields of the line from p (the start of its field k) through
 * visit and takes its line end; the number of fields, or -1 with error
 * set. */
static gssize
walk_row (Csv *csv, guint k, FieldFunc visit, gpointer data, GError **error)
{
  TlIoSource *src = csv->src;
  for (;;)
    {
      tl_io_source_skip (src, csv->delim == DELIM_BLANKS ? &csv->space_tab : &csv->space);
      int c = tl_io_source_peek (src);
      if (csv->delim == DELIM_BLANKS && (c == '\n' || c == '\r' || c == TL_IO_EOF))
        break;
      Field f = { .col = tl_io_source_col (src, src->p) };
      if (c == '"' && csv->delim != DELIM_BLANKS)
        {
          if (!read_quoted (csv, &f, error))
            return -1;
        }
      else
        {
          if (!tl_io_source_span (src, &csv->field_stop, &f.text, &f.len))
            return tl_io_source_failed (src, error) ? -1 : (gssize) k;
          if (tl_io_source_peek (src) == 0)
            {
              nul_error (csv, error);
              return -1;
            }
          while (f.len > 0 && (f.text[f.len - 1] == ' ' || f.text[f.len - 1] == '\t'))
            f.len--;
        }
      if (!visit (csv, &f, k, data, error))
        return -1;
      k++;
      if (csv->delim == DELIM_BLANKS)
        continue;
      if (tl_io_source_peek (src) != csv->delim)
        break;
      tl_io_source_advance (src);
    }
  if (tl_io_source_failed (src, error))
    return -1;
  tl_io_source_newline (src);
  return (gssize) k;
}

/* Tab, then ';', then ',' outside quotes on the line at p, else blanks;
 * p stays where it was.  *open_quote_col: the column of a quote that
 * begins a field and is never closed on the line (its comma would hide
 * the delimiter), else 0. */
static char
sniff_delimiter (TlIoSource *src, guint *open_quote_col)
{
  TlIoMark start;
  tl_io_source_mark (src, &start);
  TlIoByteSet stop;
  tl_io_byte_set_init (&stop, "\"\t;,\r\n");
  gboolean quoted = FALSE, tab = FALSE, semi = FALSE, comma = FALSE;
  char before = ','; /* the byte before the next interesting one: the line's start begins a field */
  guint quote_col = 0;
  for (;;)
    {
      const char *run;
      gsize len;
      /* runs between interesting bytes may be long: only their end matters */
      if (!tl_io_source_span (src, &stop, &run, &len))
        break;
      if (len > 0)
        before = run[len - 1];
      int c = tl_io_source_peek (src);
      if (c == TL_IO_EOF || c == '\n' || c == '\r')
        break;
      if (c == '"')
        {
          quoted = !quoted;
          if (quoted)
            quote_col = before != 0 && strchr (" \t,;", before) ? tl_io_source_col (src, src->p)
                                                                 : 0;
        }
      else if (!quoted)
        tab |= c == '\t', semi |= c == ';', comma |= c == ',';
      before = (char) c;
      tl_io_source_advance (src);
    }
  tl_io_source_seek (src, &start);
  *open_quote_col = quoted ? quote_col : 0;
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

/* Whether the comment line at p is our writer's float32 note (checked
 * on its first bytes only: a comment may be as long as it likes). */
static gboolean
is_float32_note (TlIoSource *src)
{
  TlIoMark start;
  tl_io_source_mark (src, &start);
  char head[sizeof FLOAT32_NOTE + 8];
  gsize n = 0;
  int c = 0;
  while (n < sizeof head && (c = tl_io_source_peek (src)) != TL_IO_EOF && c != '\n' && c != '\r')
    head[n++] = (char) c, tl_io_source_advance (src);
  tl_io_source_seek (src, &start);
  gboolean whole_line = n < sizeof head;
  while (n > 0 && (head[n - 1] == ' ' || head[n - 1] == '\t'))
    n--;
  return whole_line && n == strlen (FLOAT32_NOTE) && memcmp (head, FLOAT32_NOTE, n) == 0;
}

/* ---- the first row: its fields, and whether it is a header ------------ */

/* Whether the field begins as a number does: a digit, or a sign or point
 * before one ("0x1p3", "1.5x", "-.5e" are numbers written wrong, not a
 * column's name, so their row is data and the error points at them). */
static gboolean
starts_like_number (const Field *f)
{
  gsize i = 0;
  if (i < f->len && (f->text[i] == '+' || f->text[i] == '-'))
    i++;
  if (i < f->len && (f->text[i] == '.' || f->text[i] == ','))
    i++;
  return i < f->len && g_ascii_isdigit (f->text[i]);
}

static gboolean
probe_field_cb (Csv *csv, const Field *f, guint k, gpointer data, GError **error)
{
  gboolean *has_number = data;
  double v;
  if (starts_like_number (f)
      || tl_io_parse_number (f->text, f->len, csv->decimal_comma, FALSE, &v, NULL)
           != TL_IO_NUMBER_BAD)
    *has_number = TRUE;
  return TRUE;
}

/* ---- the rows: parsed into the matrix --------------------------------- */

typedef struct
{
  TlIoFill *fill;
  gsize cols;
  gboolean float32;
} Store;

static gboolean
store_field_cb (Csv *csv, const Field *f, guint k, gpointer data, GError **error)
{
  Store *st = data;
  if (k >= st->cols)
    return TRUE; /* counted; the row's length is checked after it */
  double v = 0;
  gboolean is_int = FALSE;
  TlIoNumber r = tl_io_parse_number (f->text, f->len, csv->decimal_comma, st->float32, &v,
                                     &is_int);
  if (G_UNLIKELY (r != TL_IO_NUMBER_OK))
    {
      guint line = tl_io_source_line (csv->src);
      g_autofree char *q = tl_io_quote (f->text, f->len);
      if (f->len == 0)
        tl_io_set_error (error, TL_ERROR_PARSE, csv->path, line, f->col,
                         _("field %u is empty: expected a number"), k + 1);
      else if (r == TL_IO_NUMBER_RANGE)
        tl_io_set_error (error, TL_ERROR_PARSE, csv->path, line, f->col,
                         _("the number %s is beyond the range of %s"), q,
                         st->float32 ? "float32" : "float64");
      else
        tl_io_set_error (error, TL_ERROR_PARSE, csv->path, line, f->col,
                         _("field %u: expected a number, found %s"), k + 1, q);
      return FALSE;
    }
  return tl_io_fill_put (st->fill, v, is_int, error);
}

/* The row's leading fields that are plain numbers (tl_io_source_plain_
 * number), stored without a detour through Field: the common case.  Stops
 * before the first field that is not one (quoted, padded, a word, cut by
 * the window's end) and after the expected number of fields, leaving p
 * at a field's start for walk_row to go on from.  Returns the fields
 * stored, *row_done when the row's end was reached (its line end left
 * unread), or -1 with error set. */
static gssize
store_plain_fields (Csv *csv, Store *st, gboolean *row_done, GError **error)
{
  TlIoSource *src = csv->src;
  gboolean blanks = csv->delim == DELIM_BLANKS;
  gsize k = 0;
  *row_done = FALSE;
  while (k < st->cols)
    {
      double v;
      gboolean is_int = FALSE;
      if (!tl_io_source_plain_number (src, &csv->plain_stop, st->float32,
                                      st->fill->dtype == TL_DTYPE_INT32, &v, &is_int))
        break;
      if (!tl_io_fill_put (st->fill, v, is_int, error))
        return -1;
      k++;
      /* the number ended inside the window at a delimiter or a line end */
      if (blanks)
        while (src->p < src->end && (*src->p == ' ' || *src->p == '\t'))
          src->p++;
      int c = src->p < src->end ? (guchar) *src->p : TL_IO_EOF;
      if (c == '\n' || c == '\r' || (c == TL_IO_EOF && src->at_eof))
        {
          *row_done = TRUE;
          break;
        }
      if (!blanks)
        src->p++; /* the delimiter */
    }
  return (gssize) k;
}

/* Comments and blank lines before the first row (noting our float32
 * note); FALSE at the end of the input. */
static gboolean
skip_to_first_row (TlIoSource *src, gboolean *float32)
{
  for (;;)
    switch (tl_io_source_line_kind (src, '#'))
      {
      case TL_IO_LINE_END:
        return FALSE;
      case TL_IO_LINE_CONTENT:
        return TRUE;
      case TL_IO_LINE_COMMENT:
        tl_io_source_skip (src, tl_io_blanks ());
        *float32 = *float32 || is_float32_note (src);
        tl_io_source_skip_line (src);
        break;
      case TL_IO_LINE_BLANK:
        tl_io_source_skip_line (src);
        break;
      }
}

static gboolean
changed_error (const char *path, GError **error)
{
  tl_io_set_error (error, TL_ERROR_IO, path, 0, 0,
                   _("the file changed while it was read: read it again"));
  return FALSE;
}

/* The second pass: from the first data row to the end. */
static gboolean
read_rows (Csv *csv, Store *st, gsize rows, guint first_line, GError **error)
{
  TlIoSource *src = csv->src;
  gsize row = 0;
  while (tl_io_source_next_content (src, '#'))
    {
      if (row == rows)
        return changed_error (csv->path, error);
      guint line = tl_io_source_line (src);
      gboolean row_done;
      gssize n = store_plain_fields (csv, st, &row_done, error);
      if (n >= 0 && row_done)
        tl_io_source_newline (src);
      else if (n >= 0)
        n = walk_row (csv, (guint) n, store_field_cb, st, error);
      if (n < 0)
        return FALSE;
      if ((gsize) n != st->cols)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, csv->path, line, 0,
                           _("expected %zu %s-separated fields (as on line %u), found %zd"),
                           st->cols, delimiter_name (csv->delim), first_line, n);
          return FALSE;
        }
      row++;
    }
  if (tl_io_source_failed (src, error))
    return FALSE;
  return row == rows || changed_error (csv->path, error);
}

gboolean
tl_csv_read (TlIoSource *src, TlIoFill *fill, GError **error)
{
  const char *path = src->path;
  g_autoptr (GString) scratch = g_string_new (NULL);
  Csv csv = { .src = src, .path = path, .scratch = scratch };
  gboolean float32 = FALSE;

  if (!skip_to_first_row (src, &float32))
    {
      if (!tl_io_source_failed (src, error))
        tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                         _("the file is empty: expected rows of numbers"));
      return FALSE;
    }
  guint first_line = tl_io_source_line (src);
  TlIoMark first_row;
  tl_io_source_mark (src, &first_row);
  guint open_quote_col;
  csv_set_delimiter (&csv, sniff_delimiter (src, &open_quote_col));
  if (open_quote_col > 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, first_line, open_quote_col,
                       _("the quoted field has no closing quote on this line"));
      return FALSE;
    }

  /* the first row: its width, and whether it is a header */
  gboolean has_number = FALSE;
  gssize cols = walk_row (&csv, 0, probe_field_cb, &has_number, error);
  if (cols < 0)
    return FALSE;
  gboolean header = !has_number;

  /* the first pass: how many rows follow */
  TlIoMark after_first;
  tl_io_source_mark (src, &after_first);
  guint64 rows = tl_io_source_count_content_lines (src, '#') + (header ? 0 : 1);
  if (tl_io_source_failed (src, error))
    return FALSE;
  if (rows == 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, tl_io_source_end_line (src), 0,
                       _("only a header row (line %u): expected rows of numbers below it"),
                       first_line);
      return FALSE;
    }

  Store st = { .fill = fill, .cols = (gsize) cols, .float32 = float32 };
  if (!tl_io_fill_init (fill, path, first_line, TL_DTYPE_FLOAT32, !float32, rows,
                        (guint64) cols, error))
    return FALSE;
  tl_io_source_seek (src, header ? &after_first : &first_row);
  if (!read_rows (&csv, &st, (gsize) rows, first_line, error))
    {
      tl_io_fill_clear (fill);
      return FALSE;
    }
  tl_io_fill_flush (fill);
  return TRUE;
}

TlMatrix *
tl_csv_load (TlIoSource *src, GError **error)
{
  TlIoFill fill = { 0 };
  if (!tl_csv_read (src, &fill, error))
    return NULL;
  return tl_io_fill_finish (&fill, fill.m->rows);
}

TlMatrix *
tl_csv_load_data (const char *path, const char *buf, gsize len, GError **error)
{
  TlIoSource src;
  tl_io_source_init_memory (&src, path, buf, len);
  TlMatrix *m = tl_csv_load (&src, error);
  tl_io_source_clear (&src);
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
  TlIoOut o;
  tl_io_out_init (&o, out);
  /* float32's shortest digits read back as float32, not as float64 */
  if (matrix->dtype == TL_DTYPE_FLOAT32)
    tl_io_out_text (&o, FLOAT32_NOTE "\n", strlen (FLOAT32_NOTE) + 1);
  /* a float64 of whole numbers is written "1.0", which reads back float64 */
  gboolean mark_float = matrix->dtype == TL_DTYPE_FLOAT64;
  for (gsize i = 0; i < matrix->rows && !ferror (out); i++)
    tl_io_out_row (&o, matrix, i, delim, mark_float);
  return tl_io_out_finish (&o);
}
