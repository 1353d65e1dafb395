/* tl-npy.c — NumPy .npy files, versions 1.0, 2.0 and 3.0.
 *
 *   "\x93NUMPY" major minor  header-length  header  data
 *                            (2 bytes LE in v1, 4 in v2/v3)
 *
 * The header is a Python dict literal such as
 *   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n'.  We parse exactly that grammar
 * (no eval): the three keys, each once, string / bool / tuple values.
 * 2-D arrays load as they are, 1-D arrays as an n×1 column.  int8…int64
 * and uint8…uint64 load as int32 when every value fits (else an error
 * naming the first value that does not); float32 and float64 as they are.
 * Positions in messages are byte offsets in the file.
 */
#include "io/tl-npy.h"
#include "core/tl-file.h"
#include "core/tl-memory.h"
#include "io/tl-io-reader.h"
#include "io/tl-io-writer.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_CHUNK (1 << 20)
#define NPY_PIECE (64 << 20) /* read between polls of the cancellable */

typedef enum { KIND_FLOAT, KIND_INT, KIND_UINT, KIND_BOOL } NpyKind;

typedef struct
{
  const char *path;
  gsize base;          /* file offset of the header text, for messages */
  const char *text;
  gsize len;
  gsize pos;
  GError **error;
} HeaderParser;

typedef struct
{
  NpyKind kind;
  int size;            /* bytes per element */
  gboolean swap;       /* file byte order differs from ours */
  gboolean fortran;
  int ndim;
  guint64 shape[2];
} NpyInfo;

static void
header_error (HeaderParser *p, TlErrorCode code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
header_error (HeaderParser *p, TlErrorCode code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  tl_io_set_error (p->error, code, p->path, 0, 0, _("header byte %zu: %s"),
                   p->base + p->pos, message);
}

static void
skip_space (HeaderParser *p)
{
  while (p->pos < p->len && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t'
                             || p->text[p->pos] == '\n' || p->text[p->pos] == '\r'))
    p->pos++;
}

static gboolean
expect_char (HeaderParser *p, char c, const char *what)
{
  skip_space (p);
  if (p->pos < p->len && p->text[p->pos] == c)
    {
      p->pos++;
      return TRUE;
    }
  header_error (p, TL_ERROR_PARSE, _("expected %s"), what);
  return FALSE;
}

/* A Python string literal in ' or " (no escapes: numpy never writes any
 * in the three values we read). */
static char *
parse_string (HeaderParser *p)
{
  skip_space (p);
  if (p->pos >= p->len || (p->text[p->pos] != '\'' && p->text[p->pos] != '"'))
    {
      header_error (p, TL_ERROR_PARSE, _("expected a quoted string"));
      return NULL;
    }
  char q = p->text[p->pos++];
  gsize start = p->pos;
  while (p->pos < p->len && p->text[p->pos] != q)
    {
      if (p->text[p->pos] == '\\' || p->text[p->pos] == '\n')
        {
          header_error (p, TL_ERROR_PARSE, _("unexpected character in a string"));
          return NULL;
        }
      p->pos++;
    }
  if (p->pos >= p->len)
    {
      header_error (p, TL_ERROR_PARSE, _("the string has no closing quote"));
      return NULL;
    }
  char *s = g_strndup (p->text + start, p->pos - start);
  p->pos++;
  return s;
}

static gboolean
parse_descr (HeaderParser *p, NpyInfo *info)
{
  skip_space (p);
  if (p->pos < p->len && p->text[p->pos] == '[')
    {
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("structured dtypes (records with named fields) are not supported: "
                      "save a plain numeric array"));
      return FALSE;
    }
  gsize at = p->pos;
  g_autofree char *d = parse_string (p);
  if (d == NULL)
    return FALSE;
  p->pos = at; /* report problems at the value */

  size_t n = strlen (d);
  char order = n > 0 ? d[0] : 0;
  if (order != '<' && order != '>' && order != '|' && order != '=')
    {
      header_error (p, TL_ERROR_PARSE, _("the dtype “%s” has no byte order: expected e.g. '<f8'"),
                    d);
      return FALSE;
    }
  char kind = n > 1 ? d[1] : 0;
  gint64 size = 0;
  if (n > 2 && !tl_io_parse_int64 (d + 2, n - 2, &size))
    size = -1;

  switch (kind)
    {
    case 'O':
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("object arrays (dtype '%s', pickled Python objects) are not supported: "
                      "save a numeric array"), d);
      return FALSE;
    case 'c':
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("complex arrays (dtype '%s') are not supported"), d);
      return FALSE;
    case 'U': case 'S': case 'a': case 'V': case 'M': case 'm':
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("the dtype '%s' is not numeric: Tilelab reads integers and floats"), d);
      return FALSE;
    case 'f':
      info->kind = KIND_FLOAT;
      if (size != 4 && size != 8)
        {
          header_error (p, TL_ERROR_UNSUPPORTED,
                        _("the dtype '%s' is not supported: floats must be 'f4' or 'f8'"), d);
          return FALSE;
        }
      break;
    case 'i': case 'u': case 'b':
      info->kind = kind == 'i' ? KIND_INT : kind == 'u' ? KIND_UINT : KIND_BOOL;
      if (kind == 'b' ? size != 1 : (size != 1 && size != 2 && size != 4 && size != 8))
        {
          header_error (p, TL_ERROR_UNSUPPORTED,
                        _("the dtype '%s' is not supported"), d);
          return FALSE;
        }
      break;
    default:
      header_error (p, TL_ERROR_PARSE, _("expected a dtype such as '<f8', found '%s'"), d);
      return FALSE;
    }
  info->size = (int) size;
  if (order == '|' && size != 1)
    {
      header_error (p, TL_ERROR_PARSE,
                    _("the dtype '%s' has no byte order ('|'), but %d-byte values need one: "
                      "expected '<%c%d' or '>%c%d'"), d, info->size, kind, info->size, kind,
                    info->size);
      return FALSE;
    }
  gboolean big = order == '>' || (order == '=' && G_BYTE_ORDER == G_BIG_ENDIAN);
  info->swap = size > 1 && (big != (G_BYTE_ORDER == G_BIG_ENDIAN));
  g_free (parse_string (p)); /* step over it again */
  return TRUE;
}

static gboolean
parse_bool (HeaderParser *p, gboolean *out)
{
  skip_space (p);
  if (p->len - p->pos >= 4 && memcmp (p->text + p->pos, "True", 4) == 0)
    *out = TRUE, p->pos += 4;
  else if (p->len - p->pos >= 5 && memcmp (p->text + p->pos, "False", 5) == 0)
    *out = FALSE, p->pos += 5;
  else
    {
      header_error (p, TL_ERROR_PARSE, _("expected True or False"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_shape (HeaderParser *p, NpyInfo *info)
{
  guint64 dims[32];
  int ndim = 0;
  if (!expect_char (p, '(', _("a shape tuple such as (3, 4)")))
    return FALSE;
  for (;;)
    {
      skip_space (p);
      if (p->pos < p->len && p->text[p->pos] == ')')
        {
          p->pos++;
          break;
        }
      gsize start = p->pos;
      if (p->pos < p->len && p->text[p->pos] == '-')
        {
          header_error (p, TL_ERROR_PARSE, _("a dimension in the shape is negative"));
          return FALSE;
        }
      while (p->pos < p->len && g_ascii_isdigit (p->text[p->pos]))
        p->pos++;
      guint64 v;
      if (p->pos == start || !tl_io_parse_size (p->text + start, p->pos - start, &v, NULL))
        {
          p->pos = start;
          header_error (p, TL_ERROR_PARSE, _("expected a dimension (a whole number) in the shape"));
          return FALSE;
        }
      if (p->pos < p->len && p->text[p->pos] == 'L') /* Python 2 longs */
        p->pos++;
      if (ndim == G_N_ELEMENTS (dims))
        {
          header_error (p, TL_ERROR_UNSUPPORTED, _("too many dimensions"));
          return FALSE;
        }
      dims[ndim++] = v;
      skip_space (p);
      if (p->pos < p->len && p->text[p->pos] == ',')
        p->pos++;
      else if (!(p->pos < p->len && p->text[p->pos] == ')'))
        {
          header_error (p, TL_ERROR_PARSE, _("expected “,” or “)” in the shape"));
          return FALSE;
        }
    }
  if (ndim == 0)
    {
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("a 0-dimensional array (a scalar) is not a matrix"));
      return FALSE;
    }
  if (ndim > 2)
    {
      header_error (p, TL_ERROR_UNSUPPORTED,
                    _("a %d-dimensional array is not a matrix: expected 1 or 2 dimensions"), ndim);
      return FALSE;
    }
  info->ndim = ndim;
  info->shape[0] = dims[0];
  info->shape[1] = ndim == 2 ? dims[1] : 1;
  return TRUE;
}

static gboolean
parse_header (HeaderParser *p, NpyInfo *info)
{
  gboolean have_descr = FALSE, have_order = FALSE, have_shape = FALSE;
  if (!expect_char (p, '{', _("the header dict “{'descr': …, 'fortran_order': …, 'shape': …}”")))
    return FALSE;
  for (;;)
    {
      skip_space (p);
      if (p->pos < p->len && p->text[p->pos] == '}')
        {
          p->pos++;
          break;
        }
      gsize at = p->pos;
      g_autofree char *key = parse_string (p);
      if (key == NULL || !expect_char (p, ':', _("“:” after the key")))
        return FALSE;
      gboolean *seen;
      if (strcmp (key, "descr") == 0)
        seen = &have_descr;
      else if (strcmp (key, "fortran_order") == 0)
        seen = &have_order;
      else if (strcmp (key, "shape") == 0)
        seen = &have_shape;
      else
        {
          p->pos = at;
          header_error (p, TL_ERROR_PARSE,
                        _("unexpected key '%s': expected 'descr', 'fortran_order' and 'shape'"),
                        key);
          return FALSE;
        }
      if (*seen)
        {
          p->pos = at;
          header_error (p, TL_ERROR_PARSE, _("the key '%s' appears twice"), key);
          return FALSE;
        }
      *seen = TRUE;
      gboolean ok = seen == &have_descr ? parse_descr (p, info)
                    : seen == &have_order ? parse_bool (p, &info->fortran)
                    : parse_shape (p, info);
      if (!ok)
        return FALSE;
      skip_space (p);
      if (p->pos < p->len && p->text[p->pos] == ',')
        p->pos++;
      else if (!(p->pos < p->len && p->text[p->pos] == '}'))
        {
          header_error (p, TL_ERROR_PARSE, _("expected “,” or “}” in the header dict"));
          return FALSE;
        }
    }
  skip_space (p);
  if (p->pos != p->len)
    {
      header_error (p, TL_ERROR_PARSE, _("expected only padding after the header dict"));
      return FALSE;
    }
  if (!have_descr || !have_order || !have_shape)
    {
      header_error (p, TL_ERROR_PARSE, _("the header lacks the key '%s'"),
                    !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
      return FALSE;
    }
  return TRUE;
}

static void
swap_bytes (guint8 *e, int size)
{
  for (int a = 0, b = size - 1; a < b; a++, b--)
    {
      guint8 t = e[a];
      e[a] = e[b];
      e[b] = t;
    }
}

/* One element from the file as a double (integers of up to 64 bits are
 * returned through *wide so none is rounded). */
static double
element_value (const NpyInfo *info, guint8 *e, gint64 *wide, gboolean *wide_ok)
{
  if (info->swap)
    swap_bytes (e, info->size);
  *wide_ok = TRUE;
  switch (info->kind)
    {
    case KIND_FLOAT:
      if (info->size == 4)
        {
          float f;
          memcpy (&f, e, 4);
          return f;
        }
      else
        {
          double d;
          memcpy (&d, e, 8);
          return d;
        }
    case KIND_BOOL:
      *wide = e[0] != 0;
      return (double) *wide;
    case KIND_INT:
      switch (info->size)
        {
        case 1: *wide = (gint8) e[0]; break;
        case 2: { gint16 v; memcpy (&v, e, 2); *wide = v; } break;
        case 4: { gint32 v; memcpy (&v, e, 4); *wide = v; } break;
        default: { gint64 v; memcpy (&v, e, 8); *wide = v; } break;
        }
      return (double) *wide;
    case KIND_UINT:
      switch (info->size)
        {
        case 1: *wide = e[0]; break;
        case 2: { guint16 v; memcpy (&v, e, 2); *wide = v; } break;
        case 4: { guint32 v; memcpy (&v, e, 4); *wide = v; } break;
        default:
          {
            guint64 v;
            memcpy (&v, e, 8);
            *wide_ok = v <= G_MAXINT64;
            *wide = *wide_ok ? (gint64) v : G_MAXINT64;
          }
          break;
        }
      return (double) *wide;
    }
  g_return_val_if_reached (0);
}

static gboolean
read_exact (FILE *f, void *buf, gsize n)
{
  return fread (buf, 1, n, f) == n;
}

/* The magic, the version, the header's length and the header itself,
 * parsed into info; *data_start is the file offset of the data. */
static gboolean
read_header (const char *path, FILE *f, guint64 file_size, NpyInfo *info, guint64 *data_start,
             GError **error)
{
  guint8 pre[12];

  if (file_size < 10 || !read_exact (f, pre, 10))
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       _("byte 0: expected the .npy magic “\\x93NUMPY” and a version, but "
                         "the file has only %" PRIu64 " bytes"), file_size);
      return FALSE;
    }
  if (memcmp (pre, NPY_MAGIC, 6) != 0)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       _("byte 0: expected the .npy magic “\\x93NUMPY”"));
      return FALSE;
    }
  int major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0)
    {
      tl_io_set_error (error, major > 3 ? TL_ERROR_UNSUPPORTED : TL_ERROR_PARSE, path, 0, 0,
                       _("byte 6: the .npy version %d.%d is not one of 1.0, 2.0, 3.0"),
                       major, minor);
      return FALSE;
    }
  guint64 header_len, header_start;
  if (major == 1)
    {
      header_len = pre[8] | (guint64) pre[9] << 8;
      header_start = 10;
    }
  else
    {
      if (!read_exact (f, pre + 10, 2))
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                           _("byte 8: the file ends inside the header length"));
          return FALSE;
        }
      header_len = pre[8] | (guint64) pre[9] << 8 | (guint64) pre[10] << 16
                   | (guint64) pre[11] << 24;
      header_start = 12;
    }
  if (header_start + header_len > file_size)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       _("byte 8: the header length %" PRIu64 " runs past the end of "
                         "the file (%" PRIu64 " bytes)"), header_len, file_size);
      return FALSE;
    }
  if (header_len > 1 << 24)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       _("byte 8: the header length %" PRIu64 " is implausibly large"),
                       header_len);
      return FALSE;
    }
  g_autofree char *header = g_malloc (header_len + 1);
  if (!read_exact (f, header, header_len))
    {
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read the header"));
      return FALSE;
    }
  header[header_len] = '\0';
  /* a NUL would end the strings parsed from the header early: '<f8\0…'
   * was read as '<f8' */
  for (gsize k = 0; k < header_len; k++)
    if ((guchar) header[k] < 0x20 && header[k] != '\n' && header[k] != '\t'
        && header[k] != '\r')
      {
        tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                         _("header byte %" PRIu64 ": a control byte (0x%02x) in the header"),
                         header_start + k, (guchar) header[k]);
        return FALSE;
      }
  if (major < 3)
    for (gsize k = 0; k < header_len; k++)
      if ((guchar) header[k] >= 0x80)
        {
          tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                           _("header byte %" PRIu64 ": a non-ASCII byte in a "
                             "version %d header"), header_start + k, major);
          return FALSE;
        }

  HeaderParser p = { path, (gsize) header_start, header, (gsize) header_len, 0, error };
  *data_start = header_start + header_len;
  return parse_header (&p, info);
}


/* numpy's default layout in our byte order and dtype: the bytes are the matrix */
static gboolean
is_native (const NpyInfo *info, TlDtype dtype)
{
  return !info->fortran && !info->swap
         && ((info->kind == KIND_FLOAT && info->size == (int) tl_dtype_size (dtype))
             || (info->kind == KIND_INT && info->size == 4));
}

/* A read that failed: cancelled, or the system's error. */
static gboolean
read_failed (const char *path, GCancellable *cancellable, GError **error)
{
  int e = errno;
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read the data: %s"),
                     g_strerror (e ? e : EIO));
  return FALSE;
}

/* Element e of the file (row i, column j) as a matrix of dtype holds it;
 * FALSE with the error for an integer beyond int32. */
static gboolean
element_as (const char *path, const NpyInfo *info, TlDtype dtype, guint8 *e, gsize i, gsize j,
            double *out, GError **error)
{
  gint64 wide = 0;
  gboolean wide_ok = TRUE;
  double v = element_value (info, e, &wide, &wide_ok);
  if (dtype == TL_DTYPE_INT32)
    {
      if (!wide_ok || wide < G_MININT32 || wide > G_MAXINT32)
        {
          tl_io_set_error (error, TL_ERROR_UNSUPPORTED, path, 0, 0,
                           _("the value at row %zu, column %zu (%" PRId64
                             "%s) does not fit in int32: convert the array to "
                             "int32 or float64 before saving"),
                           i + 1, j + 1, wide, wide_ok ? "" : "+");
          return FALSE;
        }
      *out = (double) wide;
    }
  else
    *out = dtype == TL_DTYPE_FLOAT32 ? (double) (float) v : v;
  return TRUE;
}

/* The data, straight into the matrix when numpy's layout is ours, else
 * chunk by chunk (converting, reordering, swapping bytes); the
 * cancellable is polled between pieces. */
static gboolean
read_data (const char *path, FILE *f, const NpyInfo *pinfo, guint64 data_start,
           guint64 data_bytes, TlMatrix *m, GCancellable *cancellable, gsize *progress,
           GError **error)
{
  const NpyInfo info = *pinfo;
  TlDtype dtype = m->dtype;
  guint64 rows = m->rows, cols = m->cols, n = rows * cols;
  /* The common case, numpy's default layout in our byte order and dtype:
   * the bytes are the matrix, read at the disk's speed. */
  gboolean same_layout = is_native (&info, dtype);
  if (same_layout)
    {
      for (guint64 at = 0; at < data_bytes; at += NPY_PIECE)
        {
          gsize piece = (gsize) MIN ((guint64) NPY_PIECE, data_bytes - at);
          if (g_cancellable_is_cancelled (cancellable)
              || !read_exact (f, (char *) m->data + at, piece))
            return read_failed (path, cancellable, error);
          if (progress)
            g_atomic_pointer_set (progress, (gsize) (data_start + at + piece));
        }
      return TRUE;
    }

  /* Otherwise stream the data in chunks: element k of the file is (k / cols, k % cols)
   * in C order and (k % rows, k / rows) in Fortran order. */
  g_autofree guint8 *chunk = g_malloc (NPY_CHUNK);
  gsize per_chunk = NPY_CHUNK / (gsize) info.size;
  guint64 k = 0;
  while (k < n)
    {
      gsize count = (gsize) MIN ((guint64) per_chunk, n - k);
      if (g_cancellable_is_cancelled (cancellable)
          || !read_exact (f, chunk, count * (gsize) info.size))
        return read_failed (path, cancellable, error);
      if (progress)
        g_atomic_pointer_set (progress, (gsize) (data_start + (k + count) * (guint64) info.size));
      for (gsize c = 0; c < count; c++, k++)
        {
          gsize i = (gsize) (info.fortran ? k % rows : k / cols);
          gsize j = (gsize) (info.fortran ? k / rows : k % cols);
          double v;
          if (!element_as (path, &info, dtype, chunk + c * (gsize) info.size, i, j, &v, error))
            return FALSE;
          if (dtype == TL_DTYPE_INT32)
            ((gint32 *) m->data)[i * cols + j] = (gint32) v;
          else if (dtype == TL_DTYPE_FLOAT32)
            ((float *) m->data)[i * cols + j] = (float) v;
          else
            ((double *) m->data)[i * cols + j] = v;
        }
    }
  return TRUE;
}

/* The header, checked against the file's size: the dtype and shape of
 * its matrix, f at the data. */
static gboolean
open_data (const char *path, FILE *f, guint64 file_size, gboolean for_matrix, NpyInfo *info,
           TlDtype *dtype, guint64 *data_start, guint64 *data_bytes, GError **error)
{
  if (!read_header (path, f, file_size, info, data_start, error))
    return FALSE;
  *dtype = info->kind == KIND_FLOAT ? (info->size == 4 ? TL_DTYPE_FLOAT32 : TL_DTYPE_FLOAT64)
                                    : TL_DTYPE_INT32;
  guint64 rows = info->shape[0], cols = info->shape[1];
  g_autoptr (GError) local = NULL;
  /* the budget is asked only for a matrix: a summary streams the data */
  if (for_matrix ? !tl_matrix_check_size (*dtype, rows, cols, NULL, &local)
                 : !tl_matrix_check_shape (rows, cols, &local))
    {
      tl_io_set_error (error, TL_ERROR_TOO_LARGE, path, 0, 0, "%s", local->message);
      return FALSE;
    }

  /* the data must be exactly rows × cols elements */
  guint64 have = file_size - *data_start;
  if (!g_uint64_checked_mul (data_bytes, rows * cols, (guint64) info->size)
      || have != *data_bytes)
    {
      tl_io_set_error (error, TL_ERROR_PARSE, path, 0, 0,
                       have < *data_bytes
                         ? _("byte %" PRIu64 ": the data is truncated: the shape "
                             "needs %" PRIu64 " bytes, the file has %" PRIu64)
                         : _("byte %" PRIu64 ": the shape needs %" PRIu64
                             " bytes of data, but the file has %" PRIu64),
                       *data_start, *data_bytes, have);
      return FALSE;
    }
  return TRUE;
}

/* The C-order data of info's rows × cols into pass, a chunk at a time. */
static gboolean
summarize_data (const char *path, FILE *f, const NpyInfo *info, TlDtype dtype, guint64 rows,
                guint64 cols, TlSummaryPass *pass, GError **error)
{
  gsize size = (gsize) info->size, per_chunk = NPY_CHUNK / size;
  g_autofree guint8 *chunk = g_malloc (NPY_CHUNK);
  g_autofree double *values = g_new (double, per_chunk);
  gboolean native = is_native (info, dtype) && dtype == TL_DTYPE_FLOAT64;
  for (guint64 k = 0, n = rows * cols; k < n;)
    {
      gsize count = (gsize) MIN ((guint64) per_chunk, n - k);
      if (!read_exact (f, chunk, count * size))
        return read_failed (path, NULL, error);
      for (gsize c = 0; !native && c < count; c++)
        if (!element_as (path, info, dtype, chunk + c * size, (gsize) ((k + c) / cols),
                         (gsize) ((k + c) % cols), &values[c], error))
          return FALSE;
      tl_summary_pass_add (pass, native ? (const double *) chunk : values, count);
      k += count;
    }
  return TRUE;
}

/* n bytes at offset `at` of fd, all of them. */
static gboolean
pread_exact (int fd, void *buf, gsize n, guint64 at)
{
  for (gsize done = 0; done < n;)
    {
      gssize got = pread (fd, (char *) buf + done, n - done, (off_t) (at + done));
      if (got <= 0 && !(got < 0 && errno == EINTR))
        return FALSE;
      done += (gsize) MAX (got, 0);
    }
  return TRUE;
}

/* The error a load gives for data holding an integer beyond int32: the
 * first such value in the file's order, found by one pass. */
static gboolean
first_misfit (const char *path, int fd, const NpyInfo *info, TlDtype dtype, guint64 data_start,
                guint64 rows, guint64 cols, GError **error)
{
  gsize size = (gsize) info->size, per_chunk = NPY_CHUNK / size;
  g_autofree guint8 *chunk = g_malloc (NPY_CHUNK);
  double v;
  for (guint64 k = 0, n = rows * cols; k < n;)
    {
      gsize count = (gsize) MIN ((guint64) per_chunk, n - k);
      if (!pread_exact (fd, chunk, count * size, data_start + k * size))
        return read_failed (path, NULL, error);
      for (gsize c = 0; c < count; c++, k++)
        if (!element_as (path, info, dtype, chunk + c * size,
                         (gsize) (info->fortran ? k % rows : k / cols),
                         (gsize) (info->fortran ? k / rows : k % cols), &v, error))
          return FALSE;
    }
  /* the value that did not fit is gone: the file was written meanwhile */
  tl_io_set_error (error, TL_ERROR_IO, path, 0, 0,
                   _("the file changed while it was read: read it again"));
  return FALSE;
}

#define FORTRAN_GROUP 8 /* columns read before they are spread across the band's rows */
#define FORTRAN_PAGE 4096 /* a column shorter than this is not read alone */

/* Rows i0 … i0 + n − 1 of a Fortran-order file into the band (values,
 * row-major, cols wide), each column's piece read where it lies: one read
 * per column.  FALSE: a read failed (error set) or, with *misfit, a value
 * does not fit. */
static gboolean
band_by_columns (const char *path, int fd, const NpyInfo *info, TlDtype dtype,
                 guint64 data_start, guint64 rows, guint64 cols, guint64 i0, gsize n,
                 guint8 *group, double *values, gboolean *misfit, GError **error)
{
  gsize size = (gsize) info->size;
  for (guint64 j0 = 0; j0 < cols; j0 += FORTRAN_GROUP)
    {
      gsize g = (gsize) MIN ((guint64) FORTRAN_GROUP, cols - j0);
      for (gsize c = 0; c < g; c++)
        if (!pread_exact (fd, group + c * n * size, n * size,
                          data_start + ((j0 + c) * rows + i0) * size))
          return read_failed (path, NULL, error);
      for (gsize r = 0; r < n; r++)
        for (gsize c = 0; c < g; c++)
          if (!element_as (path, info, dtype, group + (c * n + r) * size, 0, 0,
                           &values[r * cols + j0 + c], NULL))
            return !(*misfit = TRUE);
    }
  return TRUE;
}

/* The same in one pass over all the data, NPY_CHUNK at a time: for
 * columns shorter than a page, which read one by one cost a read each
 * (a 2 × 2000000 file: 4 million reads of 8 bytes, 16 s) where the pass
 * reads each page once per band. */
static gboolean
band_by_pass (const char *path, int fd, const NpyInfo *info, TlDtype dtype, guint64 data_start,
              guint64 rows, guint64 cols, guint64 i0, gsize n, guint8 *chunk, double *values,
              gboolean *misfit, GError **error)
{
  gsize size = (gsize) info->size, column = (gsize) rows * size;
  gsize per_read = NPY_CHUNK / column; /* whole columns; at least 256 */
  for (guint64 j0 = 0; j0 < cols; j0 += per_read)
    {
      gsize g = (gsize) MIN ((guint64) per_read, cols - j0);
      if (!pread_exact (fd, chunk, g * column, data_start + j0 * column))
        return read_failed (path, NULL, error);
      for (gsize c = 0; c < g; c++)
        for (gsize r = 0; r < n; r++)
          if (!element_as (path, info, dtype, chunk + c * column + (i0 + r) * size, 0, 0,
                           &values[r * cols + j0 + c], NULL))
            return !(*misfit = TRUE);
    }
  return TRUE;
}

/* How many values a band of a Fortran-order file holds: 1 Mi (8 MiB), or
 * 8 Mi (64 MiB) where that would take more than a million reads (one per
 * column per band) and the budget has room — a 20000² float64 file takes
 * 48 bands of 419 rows (960 000 reads, 15 s at a load of 10), not 385 of
 * 52 (7.7 million, beyond 20 s). */
static gsize
fortran_band_values (guint64 rows, guint64 cols)
{
  gsize small = (gsize) 1 << 20, large = (gsize) 8 << 20;
  guint64 reads = (rows * cols / small + 1) * cols;
  if (reads <= small
      || !tl_memory_check (MIN (rows * cols, (guint64) large) * sizeof (double), NULL, NULL))
    return small;
  return large;
}

/* Fortran-order data (element (i, j) is number j·rows + i of the file)
 * into pass row after row: a band of rows at a time (up to 8 Mi doubles,
 * or one row) is all that is held, each of its columns read where it
 * lies — FORTRAN_GROUP columns at a time, so each row of the band is
 * written a cache line at once, not a value a line — or, for columns
 * shorter than a page, picked out of one pass over the data. */
static gboolean
summarize_fortran (const char *path, int fd, const NpyInfo *info, TlDtype dtype,
                   guint64 data_start, guint64 rows, guint64 cols, TlSummaryPass *pass,
                   GError **error)
{
  gsize size = (gsize) info->size;
  gsize band = (gsize) MIN (rows, MAX (fortran_band_values (rows, cols) / cols, 1));
  gboolean by_pass = rows * size < FORTRAN_PAGE, misfit = FALSE;
  g_autofree double *values = g_new (double, band * cols);
  g_autofree guint8 *buffer = g_malloc (by_pass ? NPY_CHUNK : FORTRAN_GROUP * band * size);
  for (guint64 i0 = 0; i0 < rows; i0 += band)
    {
      gsize n = (gsize) MIN ((guint64) band, rows - i0);
      if (!(by_pass ? band_by_pass (path, fd, info, dtype, data_start, rows, cols, i0, n, buffer,
                                    values, &misfit, error)
                    : band_by_columns (path, fd, info, dtype, data_start, rows, cols, i0, n,
                                       buffer, values, &misfit, error)))
        return misfit ? first_misfit (path, fd, info, dtype, data_start, rows, cols, error)
                      : FALSE;
      tl_summary_pass_add (pass, values, n * cols);
    }
  return TRUE;
}

#define BLOCK_VALUES ((gsize) 1 << 20) /* a block of columns: 8 MiB of doubles */

/* Columns j0 … j0 + n − 1 of every row into values (row-major, rows × n):
 * in C order one read per row, in Fortran order one read (the columns lie
 * one after another).  FALSE: a read failed (error set) or, with *misfit,
 * a value does not fit. */
static gboolean
read_block (const char *path, int fd, const NpyInfo *info, TlDtype dtype, guint64 data_start,
            guint64 rows, guint64 cols, guint64 j0, gsize n, guint8 *bytes, double *values,
            gboolean *misfit, GError **error)
{
  gsize size = (gsize) info->size;
  for (guint64 i = 0; i < (info->fortran ? 1 : rows); i++)
    if (info->fortran ? !pread_exact (fd, bytes, n * rows * size, data_start + j0 * rows * size)
                      : !pread_exact (fd, bytes + i * n * size, n * size,
                                      data_start + (i * cols + j0) * size))
      return read_failed (path, NULL, error);
  for (gsize i = 0; i < rows; i++)
    for (gsize c = 0; c < n; c++)
      if (!element_as (path, info, dtype,
                       bytes + (info->fortran ? c * rows + i : i * n + c) * size, 0, 0,
                       &values[i * n + c], NULL))
        return !(*misfit = TRUE);
  return TRUE;
}

/* A matrix too wide for the 1-norm's column sums into pass a block of
 * columns at a time (rows × block ≤ BLOCK_VALUES, at least one column):
 * a 2 × 2²⁸ float32 file in 512 blocks of 2 MiB a row, 12 MiB held. */
static gboolean
summarize_blocks (const char *path, int fd, const NpyInfo *info, TlDtype dtype,
                  guint64 data_start, guint64 rows, guint64 cols, TlSummaryPass *pass,
                  GError **error)
{
  gsize width = (gsize) MIN (cols, MAX ((guint64) BLOCK_VALUES / rows, 1));
  g_autofree guint8 *bytes = g_malloc (rows * width * (gsize) info->size);
  g_autofree double *values = g_new (double, rows * width);
  gboolean misfit = FALSE;
  for (guint64 j0 = 0; j0 < cols; j0 += width)
    {
      gsize n = (gsize) MIN ((guint64) width, cols - j0);
      if (!read_block (path, fd, info, dtype, data_start, rows, cols, j0, n, bytes, values,
                       &misfit, error))
        return misfit ? first_misfit (path, fd, info, dtype, data_start, rows, cols, error)
                      : FALSE;
      tl_summary_pass_add_block (pass, (gsize) j0, n, values);
    }
  return TRUE;
}

gboolean
tl_npy_summarize (const char *path, FILE *f, guint64 file_size, TlDtype *dtype,
                  guint64 *rows, guint64 *cols, TlSummaryPass *pass, GError **error)
{
  NpyInfo info = { 0 };
  guint64 data_start, data_bytes;
  if (!open_data (path, f, file_size, FALSE, &info, dtype, &data_start, &data_bytes, error))
    return FALSE;
  *rows = info.shape[0];
  *cols = info.shape[1];
  /* as tl_matrix_summarize sees a matrix without cells */
  tl_summary_pass_begin (pass, *cols == 0 ? 0 : (gsize) *rows, *rows == 0 ? 0 : (gsize) *cols);
  /* too wide for the 1-norm's column sums: a block of columns at a time */
  gboolean by_blocks = !pass->has_one;
  if (by_blocks && !tl_summary_pass_begin_blocks (pass, (gsize) *rows, (gsize) *cols, error))
    return FALSE;
  gboolean by_columns = info.fortran && info.shape[0] > 1 && info.shape[1] > 1;
  int fd = fileno (f);
  if (by_blocks ? summarize_blocks (path, fd, &info, *dtype, data_start, *rows, *cols, pass,
                                    error)
      : by_columns ? summarize_fortran (path, fd, &info, *dtype, data_start, *rows, *cols, pass,
                                        error)
                   : summarize_data (path, f, &info, *dtype, *rows, *cols, pass, error))
    return TRUE;
  TlMatrixSummary unused;
  tl_summary_pass_end (pass, &unused);
  return FALSE;
}

static TlMatrix *
load_stream (const char *path, FILE *f, guint64 file_size, GCancellable *cancellable,
             gsize *progress, GError **error)
{
  NpyInfo info = { 0 };
  TlDtype dtype;
  guint64 data_start, data_bytes;
  if (!open_data (path, f, file_size, TRUE, &info, &dtype, &data_start, &data_bytes, error))
    return NULL;

  /* the file holds exactly the data the header declares: allocate */
  g_autoptr (TlMatrix) m = tl_io_matrix_new (path, 0, dtype, info.shape[0], info.shape[1], FALSE,
                                             error);
  if (m == NULL)
    return NULL;

  if (!read_data (path, f, &info, data_start, data_bytes, m, cancellable, progress, error))
    return NULL;
  return g_steal_pointer (&m);
}

/* fd as a stream, or NULL (fd closed) with the error */
static FILE *
stream_of (const char *path, int fd, GError **error)
{
  FILE *f = fdopen (fd, "rb");
  if (f == NULL)
    {
      int e = errno;
      close (fd);
      tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot read: %s"), g_strerror (e));
    }
  return f;
}

gboolean
tl_npy_read_shape (const char *path, guint64 *rows, guint64 *cols, GError **error)
{
  guint64 size;
  int fd = tl_file_open_regular (path, &size, error);
  if (fd < 0)
    return FALSE;
  FILE *f = stream_of (path, fd, error);
  if (f == NULL)
    return FALSE;
  NpyInfo info = { 0 };
  guint64 data_start;
  gboolean ok = read_header (path, f, size, &info, &data_start, error);
  fclose (f);
  *rows = info.shape[0];
  *cols = info.shape[1];
  return ok;
}

TlMatrix *
tl_npy_load_stream (const char *path, FILE *f, guint64 file_size, GCancellable *cancellable,
                    GError **error)
{
  return load_stream (path, f, file_size, cancellable, NULL, error);
}

TlMatrix *
tl_npy_load_fd (const char *path, int fd, guint64 size, GCancellable *cancellable,
                gsize *progress, GError **error)
{
  FILE *f = stream_of (path, fd, error);
  if (f == NULL)
    return NULL;
  TlMatrix *m = load_stream (path, f, size, cancellable, progress, error);
  fclose (f);
  return m;
}

#define NPY_WRITE_BLOCK ((gsize) 8 << 20)

gboolean
tl_npy_write (FILE *out, const TlMatrix *matrix, gpointer user_data, GError **error)
{
  static const char *const descr[TL_DTYPE_COUNT] = { "i4", "f4", "f8" };
  char order = G_BYTE_ORDER == G_LITTLE_ENDIAN ? '<' : '>';
  g_autofree char *dict = g_strdup_printf ("{'descr': '%c%s', 'fortran_order': False, "
                                           "'shape': (%zu, %zu), }",
                                           order, descr[matrix->dtype], matrix->rows,
                                           matrix->cols);
  /* pad with spaces so the data starts on a 64-byte boundary, as numpy does */
  gsize dict_len = strlen (dict);
  int major = dict_len + 1 + 10 > G_MAXUINT16 ? 2 : 1;
  gsize prefix = major == 1 ? 10 : 12;
  gsize total = (prefix + dict_len + 1 + 63) / 64 * 64;
  gsize header_len = total - prefix;

  guint8 pre[12];
  memcpy (pre, NPY_MAGIC, 6);
  pre[6] = (guint8) major;
  pre[7] = 0;
  for (gsize b = 0; b < prefix - 8; b++)
    pre[8 + b] = (guint8) (header_len >> (8 * b));
  fwrite (pre, 1, prefix, out);
  fwrite (dict, 1, dict_len, out);
  for (gsize k = dict_len; k + 1 < header_len; k++)
    fputc (' ', out);
  fputc ('\n', out);

  /* the data as it lies in memory, in large blocks (the save polls its
   * cancellable at each); a view's rows one at a time */
  gsize row_bytes = matrix->cols * tl_dtype_size (matrix->dtype);
  if (tl_matrix_is_contiguous (matrix))
    {
      const char *data = matrix->data;
      gsize bytes = row_bytes * matrix->rows;
      for (gsize done = 0; done < bytes && !ferror (out); done += NPY_WRITE_BLOCK)
        fwrite (data + done, 1, MIN (NPY_WRITE_BLOCK, bytes - done), out);
      return TRUE;
    }
  for (gsize i = 0; i < matrix->rows && !ferror (out); i++)
    fwrite (tl_matrix_row (matrix, i), 1, row_bytes, out);
  return TRUE;
}
