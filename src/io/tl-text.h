/* tl-text.h — Tilelab's plain text format "rows cols [dtype]" then the values.
 * The format is described at the top of tl-text.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"
#include "io/tl-io-reader.h"

G_BEGIN_DECLS

TlMatrix *tl_text_load         (TlIoSource *src, GError **error);
/* The values into fill (zeroed, or set to summarize: io/tl-io-reader.h);
 * on success a matrix fill holds its matrix. */
gboolean  tl_text_read         (TlIoSource *src, TlIoFill *fill, GError **error);
/* The same from a buffer in memory. */
TlMatrix *tl_text_load_data    (const char *path, const char *buf, gsize len, GError **error);
gboolean  tl_text_write        (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);
/* TRUE when the file starts (after comments) with a Tilelab text header:
 * "rows cols dtype", or "rows cols" followed by exactly rows × cols values
 * in a file that is not also a table of two columns (every line two
 * values).  *out_note (may be NULL) gets a sentence saying what a
 * "rows cols" line was taken for, and why.  The source is left where it
 * was. */
gboolean  tl_text_sniff_source (TlIoSource *src, char **out_note);
gboolean  tl_text_sniff        (const char *buf, gsize len);

G_END_DECLS
