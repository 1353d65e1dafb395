/* tl-json-check.h — strict JSON, checked and counted before a tree is built. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Limits of every JSON document Tilelab reads (run and Gauss records). */
#define TL_JSON_MAX_DEPTH 64
#define TL_JSON_MAX_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define TL_JSON_MAX_STRING ((gsize) 1 << 20)

/* Checks data (length bytes, not NUL-terminated) is strict JSON of at
 * most TL_JSON_MAX_BYTES nesting at most TL_JSON_MAX_DEPTH deep, without
 * recursion (tl-json-check.c), and that json-glib would read it as it
 * reads: no member twice in an object, no integer beyond 64 bits, no
 * number beyond float64, strings of UTF-8 without lone surrogates and at
 * most TL_JSON_MAX_STRING bytes; and that the tree it would build fits the
 * memory budget.  TL_ERROR_PARSE "not valid JSON: line L, column C ($.path):
 * …" or TL_ERROR_TOO_LARGE. */
gboolean tl_json_check_text (const char *data, gsize length, GError **error);

G_END_DECLS
