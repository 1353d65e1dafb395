/* tl-json.c — small json-glib helpers the record writers and readers share. */
#include "core/tl-json.h"
#include "core/tl-error.h"
#include "core/tl-file.h"
#include "core/tl-json-write.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

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

void
tl_json_add_value (JsonBuilder *b, double value)
{
  if (isfinite (value))
    json_builder_add_double_value (b, value);
  else
    json_builder_add_string_value (b, isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
}

void
tl_json_member_value (JsonBuilder *b, const char *name, double value)
{
  json_builder_set_member_name (b, name);
  tl_json_add_value (b, value);
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

const char *
tl_json_object_get_string (JsonObject *o, const char *name, const char *fallback)
{
  JsonNode *node = o ? json_object_get_member (o, name) : NULL;
  return holds_value_of (node, G_TYPE_STRING) ? json_node_get_string (node) : fallback;
}

/* ---- parsing (the strict check: tl-json-check.c) ------------------------ */

JsonNode *
tl_json_parse (const char *data, gsize length, GError **error)
{
  if (!tl_json_check_text (data, length, error))
    return NULL;
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("not valid JSON: %s"), local->message);
      return NULL;
    }
  JsonNode *root = json_parser_steal_root (parser);
  if (root == NULL)
    g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("the file is empty"));
  else
    g_debug ("JSON: parsed %" G_GSIZE_FORMAT " bytes", length);
  return root;
}

JsonNode *
tl_json_load_file (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;
  if (!tl_file_read_all (path, TL_JSON_MAX_BYTES, &data, &length, error))
    return NULL;
  g_autoptr (GError) local = NULL;
  JsonNode *root = tl_json_parse (data, length, &local);
  if (root == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
    }
  return root;
}

/* ---- writing (tl-json-write.c) ------------------------------------------------ */

char *
tl_json_to_data (JsonNode *root, gboolean pretty, gsize *length)
{
  g_return_val_if_fail (root != NULL, NULL);
  TlJsonOut *out = tl_json_out_new_text (pretty);
  tl_json_out_node (out, root);
  return tl_json_out_free_to_text (out, length);
}
