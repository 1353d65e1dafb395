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

/* What the scanner tells a packer (core/tl-json-pack.h) as it reads:
 * an array opens at text offset at (its '['); a scalar element of the
 * innermost open array — a number [start, end), integer or not, or a
 * string's raw contents (is_string) — which may fail (the budget); an
 * element that is no scalar (array, object, true, false, null) begins
 * there; the innermost array closes at end (just past its ']'), and
 * close says how many elements it lifted out of the tree; pending, how
 * many the open candidate holds so far (not yet the tree's). */
typedef struct
{
  void     (*open)    (gpointer self, gsize at);
  gboolean (*scalar)  (gpointer self, const char *start, const char *end, gboolean integer,
                       gboolean is_string, GError **error);
  void     (*keep)    (gpointer self);
  gsize    (*close)   (gpointer self, const char *end);
  gsize    (*pending) (gpointer self);
  gpointer self;
} TlJsonScanHooks;

/* tl_json_check_text, telling hooks what it reads; the values the hooks
 * lift are priced as theirs, not as the tree's. */
gboolean tl_json_check_text_hooked (const char *data, gsize length, const TlJsonScanHooks *hooks,
                                    GError **error);

G_END_DECLS
