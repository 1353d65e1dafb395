/* tl-mtx.h — Matrix Market files (NIST), dense and sparse, read into a dense matrix.
 * The format is described at the top of tl-mtx.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"
#include "io/tl-io-source.h"

G_BEGIN_DECLS

TlMatrix *tl_mtx_load          (TlIoSource *src, GError **error);
/* The same from a buffer in memory. */
TlMatrix *tl_mtx_load_data     (const char *path, const char *buf, gsize len, GError **error);
gboolean  tl_mtx_write         (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);

G_END_DECLS
