/* tl-text.h — Tilelab's plain text format "rows cols [dtype]" then the values.
 * The format is described at the top of tl-text.c and in docs/formats.md;
 * tl-io.h chooses it.  Readers name the file (path) in their errors. */
#pragma once

#include <stdio.h>
#include "core/tl-matrix.h"

G_BEGIN_DECLS

TlMatrix *tl_text_load_data    (const char *path, const char *buf, gsize len, GError **error);
gboolean  tl_text_write        (FILE *out, const TlMatrix *matrix, gpointer user_data,
                                GError **error);
/* TRUE when the buffer starts (after comments) with a Tilelab text header
 * that agrees with the number of values that follow, or names a dtype. */
gboolean  tl_text_sniff        (const char *buf, gsize len);

G_END_DECLS
