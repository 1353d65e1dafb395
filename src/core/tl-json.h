/* tl-json.h — small json-glib helpers the record writers and readers share. */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* "name": value, inside an object being built. */
void     tl_json_member_int    (JsonBuilder *b, const char *name, gint64 value);
void     tl_json_member_bool   (JsonBuilder *b, const char *name, gboolean value);
/* Left out when value is NULL. */
void     tl_json_member_string (JsonBuilder *b, const char *name, const char *value);

/* What a node holds (FALSE for NULL): an integer; an integer or a double;
 * true or false. */
gboolean tl_json_node_is_int    (JsonNode *node);
gboolean tl_json_node_is_number (JsonNode *node);
gboolean tl_json_node_is_bool   (JsonNode *node);

G_END_DECLS
