/* tl-json.h — small json-glib helpers the record writers share, and the
 * one door through which JSON text is parsed (the readers' getters:
 * tl-json-read.h).
 *
 * json-glib's parser recurses once per nesting level and is lenient
 * (single quotes, comments), so a hostile document could overflow the
 * stack.  tl_json_parse first checks the raw text against strict JSON
 * (RFC 8259) with a non-recursive scanner that also bounds the size and
 * the depth, and only then builds a tree. */
#pragma once

#include <json-glib/json-glib.h>

#include "core/tl-json-check.h"

G_BEGIN_DECLS

/* "name": value, inside an object being built. */
void     tl_json_member_int    (JsonBuilder *b, const char *name, gint64 value);
void     tl_json_member_bool   (JsonBuilder *b, const char *name, gboolean value);
/* Left out when value is NULL. */
void     tl_json_member_string (JsonBuilder *b, const char *name, const char *value);
/* A number that may be NaN or ±Inf: a JSON number when finite, else the
 * string "nan", "inf" or "-inf" (JSON has no such numbers; tl-json-read.h's
 * tl_json_get_value reads them back). */
void     tl_json_add_value     (JsonBuilder *b, double value);
void     tl_json_member_value  (JsonBuilder *b, const char *name, double value);

/* What a node holds (FALSE for NULL): an integer; an integer or a double;
 * true or false. */
gboolean tl_json_node_is_int    (JsonNode *node);
gboolean tl_json_node_is_number (JsonNode *node);
gboolean tl_json_node_is_bool   (JsonNode *node);
/* The string member name of o, or fallback when it is absent or not a
 * string (no json-glib warning for a member of another type). */
const char *tl_json_object_get_string (JsonObject *o, const char *name, const char *fallback);

/* The JSON text of root (core/tl-json-write.h: json-glib's layout, pretty
 * one space per level, always valid JSON, packed arrays as their numbers).
 * length may be NULL; g_free. */
char    *tl_json_to_data (JsonNode *root, gboolean pretty, gsize *length);

/* tl_json_check_text, then json-glib: the root (owned), or NULL.  Each
 * parse logs "JSON: parsed N bytes" at debug level (G_MESSAGES_DEBUG=Tilelab
 * shows them; the tests count them: a record file is parsed once). */
JsonNode *tl_json_parse      (const char *data, gsize length, GError **error);
/* A regular file (core/tl-file.h: never blocks, size-capped) parsed with
 * tl_json_parse; messages start with the path. */
JsonNode *tl_json_load_file  (const char *path, GError **error);

G_END_DECLS
