/* tl-io-writer.c — shortest round-trip numbers, chunked output, atomic saving. */
#include "io/tl-io-writer.h"
#include "io/tl-number.h"
#include "core/tl-save.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define OUT_CHUNK (1 << 16)

void
tl_io_append_value (GString *out, TlDtype dtype, double value)
{
  char buf[TL_NUMBER_BUF];
  gsize n;
  switch (dtype)
    {
    case TL_DTYPE_INT32:   n = tl_number_format_int32 ((gint32) value, buf); break;
    case TL_DTYPE_FLOAT32: n = tl_number_format_float ((float) value, FALSE, buf); break;
    case TL_DTYPE_FLOAT64:
    default:               n = tl_number_format_double (value, FALSE, buf); break;
    }
  g_string_append_len (out, buf, (gssize) n);
}

void
tl_io_out_init (TlIoOut *o, FILE *out)
{
  o->out = out;
  o->len = 0;
  o->buf = g_malloc (OUT_CHUNK);
}

gboolean
tl_io_out_flush (TlIoOut *o)
{
  if (o->len > 0)
    fwrite (o->buf, 1, o->len, o->out);
  o->len = 0;
  return !ferror (o->out);
}

gboolean
tl_io_out_finish (TlIoOut *o)
{
  gboolean ok = tl_io_out_flush (o);
  g_clear_pointer (&o->buf, g_free);
  return ok;
}

/* room for one more number and its separator */
static inline void
reserve (TlIoOut *o)
{
  if (G_UNLIKELY (o->len + TL_NUMBER_BUF + 2 > OUT_CHUNK))
    tl_io_out_flush (o);
}

void
tl_io_out_text (TlIoOut *o, const char *text, gsize len)
{
  if (o->len + len > OUT_CHUNK)
    {
      tl_io_out_flush (o);
      if (len > OUT_CHUNK)
        {
          fwrite (text, 1, len, o->out);
          return;
        }
    }
  memcpy (o->buf + o->len, text, len);
  o->len += len;
}

/* How many values from j on are +0 (all bits zero: -0 keeps its sign). */
static gsize
zero_run (const void *values, TlDtype dtype, gsize j, gsize n)
{
  gsize k = j;
  if (dtype == TL_DTYPE_FLOAT64)
    {
      const guint64 *v = values;
      while (k < n && v[k] == 0)
        k++;
    }
  else
    {
      const guint32 *v = values;
      while (k < n && v[k] == 0)
        k++;
    }
  return k - j;
}

/* count times unit ("\t0", ",0.0", "0\n", …), copied from a block of
 * units: the dense form of a sparse matrix is mostly zeros, and a copy
 * is much cheaper than a number formatted. */
static void
out_repeat (TlIoOut *o, const char *unit, gsize unit_len, gsize count)
{
  char block[1024];
  gsize per_block = sizeof block / unit_len;
  for (gsize k = 0; k < MIN (per_block, count); k++)
    memcpy (block + k * unit_len, unit, unit_len);
  while (count > 0)
    {
      gsize n = MIN (count, per_block);
      tl_io_out_text (o, block, n * unit_len);
      count -= n;
    }
}

static inline gsize
format_value (const void *values, TlDtype dtype, gsize j, gboolean mark_float, char *at)
{
  switch (dtype)
    {
    case TL_DTYPE_INT32:   return tl_number_format_int32 (((const gint32 *) values)[j], at);
    case TL_DTYPE_FLOAT32: return tl_number_format_float (((const float *) values)[j], mark_float, at);
    case TL_DTYPE_FLOAT64:
    default:               return tl_number_format_double (((const double *) values)[j], mark_float, at);
    }
}

void
tl_io_out_values (TlIoOut *o, TlDtype dtype, const void *values, gsize n, char sep,
                  gboolean mark_float)
{
  /* a zero as its writer prints it, after its separator */
  gboolean float_zero = mark_float && dtype != TL_DTYPE_INT32;
  char zero_unit[4] = { sep, '0', '.', '0' };
  gsize zero_len = float_zero ? 4 : 2;
  for (gsize j = 0; j < n;)
    {
      gsize zeros = zero_run (values, dtype, j, n);
      if (zeros > 0)
        {
          if (j == 0)
            tl_io_out_text (o, zero_unit + 1, zero_len - 1);
          out_repeat (o, zero_unit, zero_len, j == 0 ? zeros - 1 : zeros);
          j += zeros;
          continue;
        }
      reserve (o);
      char *at = o->buf + o->len;
      if (j > 0)
        *at++ = sep, o->len++;
      o->len += format_value (values, dtype, j, mark_float, at);
      j++;
    }
}

void
tl_io_out_row (TlIoOut *o, const TlMatrix *m, gsize i, char sep, gboolean mark_float)
{
  tl_io_out_values (o, m->dtype, tl_matrix_row (m, i), m->cols, sep, mark_float);
  reserve (o);
  o->buf[o->len++] = '\n';
}

gboolean
tl_io_write_save (TlSave *save, const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                  gpointer user_data, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (!func (tl_save_stream (save), matrix, user_data, &local))
    {
      if (local != NULL)
        {
          /* the writer says what; the message names the file */
          g_autofree char *name = g_filename_display_name (path);
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", name);
          return FALSE;
        }
      if (!ferror (tl_save_stream (save)))
        {
          tl_io_set_error (error, TL_ERROR_IO, path, 0, 0, _("cannot write: %s"),
                           g_strerror (EIO));
          return FALSE;
        }
      /* the stream failed (a full disk, a cancellation): the save says why */
    }
  return tl_save_finish (save, error);
}

gboolean
tl_io_write_atomic (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                    gpointer user_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (TlSave) save = tl_save_begin (path, cancellable, error);
  return save != NULL && tl_io_write_save (save, path, matrix, func, user_data, error)
         && tl_save_commit (g_steal_pointer (&save), error);
}
