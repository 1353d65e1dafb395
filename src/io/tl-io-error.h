/* tl-io-error.h — errors of the readers and writers, with positions. */
#pragma once

#include "core/tl-error.h"

G_BEGIN_DECLS

/* Sets "PATH:LINE:COL: message" (":COL" left out when col is 0, ":LINE"
 * too when line is 0). */
void      tl_io_set_error      (GError **error, TlErrorCode code, const char *path,
                                guint line, guint col, const char *format, ...)
                                G_GNUC_PRINTF (6, 7);
/* A token quoted for a message: printable, escaped, at most ~40 characters. */
char     *tl_io_quote          (const char *text, gsize len);

G_END_DECLS
