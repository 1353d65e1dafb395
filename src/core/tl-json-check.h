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

/* What the scanner tells a tree builder (core/tl-json-pack.h) as it
 * reads, in document order: a container opens (array or object); an
 * object's member name (unescaped); a scalar — a number's text as JSON
 * wrote it, or a string unescaped; the innermost container closes, and
 * close says how many of its values were lifted out of the tree (packed);
 * pending, how many values are held packed so far in an array still open.
 * A hook that fails has its error prefixed with the JSON path. */
typedef enum
{
  TL_JSON_SCALAR_INT,    /* an integer within 64 bits */
  TL_JSON_SCALAR_DOUBLE, /* a number with a point or an exponent, within float64 */
  TL_JSON_SCALAR_STRING,
  TL_JSON_SCALAR_TRUE,
  TL_JSON_SCALAR_FALSE,
  TL_JSON_SCALAR_NULL,
} TlJsonScalar;

typedef struct
{
  gboolean (*open)    (gpointer self, gboolean array, GError **error);
  gboolean (*member)  (gpointer self, const char *name, GError **error);
  gboolean (*scalar)  (gpointer self, TlJsonScalar kind, const char *text, gsize length,
                       GError **error);
  gsize    (*close)   (gpointer self);
  gsize    (*pending) (gpointer self);
  gpointer self;
} TlJsonScanHooks;

/* The tree a scan builds holds at most this many values outside packed
 * arrays, and an array in it at most TL_JSON_MAX_TREE_ARRAY elements
 * (arrays of numbers of one kind are packed and have no such limit). */
#define TL_JSON_MAX_TREE_VALUES ((guint64) 1 << 22)
#define TL_JSON_MAX_TREE_ARRAY  ((guint64) 1 << 20)

/* tl_json_check_text, telling hooks what it reads; the values the hooks
 * lift are priced as theirs, not as the tree's. */
gboolean tl_json_check_text_hooked (const char *data, gsize length, const TlJsonScanHooks *hooks,
                                    GError **error);
/* The same, reading fd to its end through a window of a few MiB (the
 * text is never held whole); at most TL_JSON_MAX_BYTES.  A read error is
 * TL_ERROR_IO.  fd is left open. */
gboolean tl_json_scan_fd (int fd, const TlJsonScanHooks *hooks, GError **error);

G_END_DECLS
