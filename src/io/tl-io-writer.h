/* tl-io-writer.h — what every format's writer shares: the shortest text
 * that reads back exactly, written a chunk at a time, and atomic saving. */
#pragma once

#include <gio/gio.h>
#include <stdio.h>
#include "core/tl-matrix.h"
#include "core/tl-save.h"
#include "io/tl-io-error.h"

G_BEGIN_DECLS

/* Appends the shortest text that reads back as exactly the matrix's value
 * (int32 as an integer; float32 and float64 round-trip; nan, inf, -inf). */
void      tl_io_append_value   (GString *out, TlDtype dtype, double value);

/* Text for a stream, gathered into chunks (numbers are formatted straight
 * into the chunk: no GString, no printf). */
typedef struct
{
  FILE *out;
  gsize len;
  char *buf;
} TlIoOut;

void      tl_io_out_init       (TlIoOut *o, FILE *out);
/* Writes what is gathered; FALSE once the stream has failed (a full disk,
 * a cancelled save): a writer then stops. */
gboolean  tl_io_out_flush      (TlIoOut *o);
/* Flushes and frees the chunk; FALSE when the stream failed. */
gboolean  tl_io_out_finish     (TlIoOut *o);
void      tl_io_out_text       (TlIoOut *o, const char *text, gsize len);
/* n values of dtype at values, separated by sep (none after the last);
 * float values that are whole numbers get ".0" when mark_float (CSV has
 * no dtype: "1.0" reads back as float64, "1" as int32).  Runs of zeros
 * are copied, not formatted. */
void      tl_io_out_values     (TlIoOut *o, TlDtype dtype, const void *values, gsize n,
                                char sep, gboolean mark_float);
/* Row i's values separated by sep, then '\n'. */
void      tl_io_out_row        (TlIoOut *o, const TlMatrix *m, gsize i, char sep,
                                gboolean mark_float);

typedef gboolean (*TlIoWriteFunc) (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                   GError **error);

/* Writes through func as one save (core/tl-save.h): a temporary beside
 * path renamed over it, symbolic links followed, "-" for standard output,
 * other non-regular files refused; on any failure or cancellation the
 * temporary is removed and an existing file is left untouched. */
gboolean  tl_io_write_atomic   (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                                gpointer user_data, GCancellable *cancellable, GError **error);
/* Writes through func into save (begun on path) and finishes it
 * (tl_save_finish): whole in its temporary, not yet renamed. */
gboolean  tl_io_write_save     (TlSave *save, const char *path, const TlMatrix *matrix,
                                TlIoWriteFunc func, gpointer user_data, GError **error);

G_END_DECLS
