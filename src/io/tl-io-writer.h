/* tl-io-writer.h — what every format's writer shares: the shortest text
 * that reads back exactly, and atomic saving. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"
#include "io/tl-io-error.h"

G_BEGIN_DECLS

/* Appends the shortest text that reads back as exactly the matrix's value
 * (int32 as an integer; float32 and float64 round-trip; nan, inf, -inf). */
void      tl_io_append_value   (GString *out, TlDtype dtype, double value);
/* The same for one element read from the matrix. */
void      tl_io_append_element (GString *out, const TlMatrix *matrix, gsize i, gsize j);

typedef gboolean (*TlIoWriteFunc) (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                   GError **error);

/* Writes through func into a temporary file beside path, flushes and
 * fsyncs it, then renames it over path.  On any failure the temporary is
 * removed and an existing file at path is left untouched. */
gboolean  tl_io_write_atomic   (const char *path, const TlMatrix *matrix, TlIoWriteFunc func,
                                gpointer user_data, GError **error);

G_END_DECLS
