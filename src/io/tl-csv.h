/* tl-csv.h — CSV, TSV and whitespace-separated tables of numbers.
 * The format is described at the top of tl-csv.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"
#include "io/tl-io-reader.h"

G_BEGIN_DECLS

TlMatrix *tl_csv_load          (TlIoSource *src, GError **error);
/* The values into fill (zeroed, or set to summarize: io/tl-io-reader.h);
 * on success a matrix fill holds its matrix. */
gboolean  tl_csv_read          (TlIoSource *src, TlIoFill *fill, GError **error);
/* The same from a buffer in memory. */
TlMatrix *tl_csv_load_data     (const char *path, const char *buf, gsize len, GError **error);
/* user_data: GINT_TO_POINTER of the delimiter character (',' or '\t') */
gboolean  tl_csv_write         (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);

G_END_DECLS
