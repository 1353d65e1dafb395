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

void
tl_io_out_element (TlIoOut *o, const TlMatrix *m, gsize i, gsize j)
{
  reserve (o);
  const void *row = tl_matrix_row (m, i);
  char *at = o->buf + o->len;
  switch (m->dtype)
    {
    case TL_DTYPE_INT32:   o->len += tl_number_format_int32 (((const gint32 *) row)[j], at); break;
    case TL_DTYPE_FLOAT32: o->len += tl_number_format_float (((const float *) row)[j], FALSE, at); break;
    case TL_DTYPE_FLOAT64: o->len += tl_number_format_double (((const double *) row)[j], FALSE, at); break;
    }
}

void
tl_io_out_row (TlIoOut *o, const TlMatrix *m, gsize i, char sep, gboolean mark_float)
{
  const void *row = tl_matrix_row (m, i);
  for (gsize j = 0; j < m->cols; j++)
    {
      reserve (o);
      char *at = o->buf + o->len;
      if (j > 0)
        *at++ = sep, o->len++;
      switch (m->dtype)
        {
        case TL_DTYPE_INT32:
          o->len += tl_number_format_int32 (((const gint32 *) row)[j], at);
          break;
        case TL_DTYPE_FLOAT32:
          o->len += tl_number_format_float (((const float *) row)[j], mark_float, at);
          break;
        case TL_DTYPE_FLOAT64:
          o->len += tl_number_format_double (((const double *) row)[j], mark_float, at);
          break;
        }
    }
  reserve (o);
  o->buf[o->len++] = '\n';
}

gboolean
tl_io_write_atomic (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                    gpointer user_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (TlSave) save = tl_save_begin (path, cancellable, error);
  if (save == NULL)
    return FALSE;
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
  return tl_save_commit (g_steal_pointer (&save), error);
}
