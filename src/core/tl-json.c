/* tl-json.c — small json-glib helpers the record writers and readers share. */
#include "core/tl-json.h"

void
tl_json_member_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
tl_json_member_bool (JsonBuilder *b, const char *name, gboolean value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, value);
}

void
tl_json_member_string (JsonBuilder *b, const char *name, const char *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

static gboolean
holds_value_of (JsonNode *node, GType type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

gboolean
tl_json_node_is_int (JsonNode *node)
{
  return holds_value_of (node, G_TYPE_INT64);
}

gboolean
tl_json_node_is_number (JsonNode *node)
{
  return holds_value_of (node, G_TYPE_INT64) || holds_value_of (node, G_TYPE_DOUBLE);
}

gboolean
tl_json_node_is_bool (JsonNode *node)
{
  return holds_value_of (node, G_TYPE_BOOLEAN);
}
