/* tl-number.h — numbers as text, exact, fast and free of the locale.
 *
 * Two maintained libraries do the work behind this C header (a small C++
 * shim, tl-number.cc):
 *
 *   parsing   fast_float (Lemire's Eisel–Lemire algorithm with an exact
 *             fallback): correctly rounded to float64 or float32 — never
 *             through float64 first, which could round a float32 twice —
 *             and a decimal comma when asked;
 *   printing  the C++ standard library's std::to_chars (Ryu in libstdc++):
 *             the shortest digits that read back as exactly the same value,
 *             fixed or scientific, whichever is shorter.
 *
 * Neither looks at the locale: a German desktop still writes "1.5".  The
 * token's syntax (which characters, nan and inf words, the decimal comma)
 * is checked by the callers in io/tl-io-reader.c; these functions only
 * convert.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Big enough for any text these functions write, with its NUL. */
#define TL_NUMBER_BUF 40

/* Parses [text, text + len) as a decimal number with decimal_point ('.'
 * or ','), to float32 precision when as_float32.  Returns the number of
 * bytes it used (0: not a number); overflow gives ±Inf, for the caller to
 * call out of range. */
gsize tl_number_parse     (const char *text, gsize len, char decimal_point, gboolean as_float32,
                           double *out);

/* The shortest text that reads back as v ("0.1", "1e+22", "-0", "nan",
 * "inf", "-inf"); with mark_float, integral values get ".0" ("3.0") so
 * that they read back as floating point.  Returns the length written
 * (buf holds TL_NUMBER_BUF bytes). */
gsize tl_number_format_double (double v, gboolean mark_float, char *buf);
gsize tl_number_format_float  (float v, gboolean mark_float, char *buf);
/* An int32 in decimal. */
gsize tl_number_format_int32  (gint32 v, char *buf);

G_END_DECLS
