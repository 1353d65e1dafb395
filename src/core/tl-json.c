/* tl-json.c — small json-glib helpers the record writers and readers share. */
#include "core/tl-json.h"
#include "core/tl-error.h"
#include "core/tl-file.h"
#include "core/tl-json-pack.h"

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

/* ---- writing ------------------------------------------------------------ */

/* json-glib 1.6 prints a double as "%.17g" and appends ".0" when there is
 * no '.', which turns 1e-08 into the invalid "1e-08.0".  Drop that ".0"
 * after an exponent, outside strings; the text only shrinks. */
static void
fix_exponents (char *text)
{
  gboolean in_string = FALSE;
  char *out = text;
  for (char *p = text; *p; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1])
            {
              *out++ = *p++;
            }
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if ((*p == 'e' || *p == 'E') && p > text && g_ascii_isdigit (p[-1]))
        {
          /* copy the exponent, then skip a ".0" that follows it */
          *out++ = *p++;
          if (*p == '+' || *p == '-')
            *out++ = *p++;
          while (g_ascii_isdigit (*p))
            *out++ = *p++;
          if (p[0] == '.' && p[1] == '0' && !g_ascii_isdigit (p[2]))
            p += 2;
          p--;
          continue;
        }
      *out++ = *p;
    }
  *out = '\0';
}

/* JSON has no NaN or infinity; json-glib would print "inf" or "nan",
 * which no reader takes.  A double that is not finite becomes the string
 * tl_json_add_value writes ("nan", "inf", "-inf"), wherever a writer put it. */
static void
spell_nonfinite (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        JsonNode *member;
        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, NULL, &member))
          spell_nonfinite (member);
        return;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        for (guint i = 0, n = json_array_get_length (array); i < n; i++)
          spell_nonfinite (json_array_get_element (array, i));
        return;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE && !json_node_is_immutable (node))
        {
          double v = json_node_get_double (node);
          if (!isfinite (v))
            json_node_set_string (node, isnan (v) ? "nan" : v > 0 ? "inf" : "-inf");
        }
      return;
    case JSON_NODE_NULL:
      return;
    }
}

/* A packed array's numbers as JSON: integers as integers, doubles as
 * json-glib prints them (with a point or an exponent), what JSON cannot
 * write as tl_json_add_value spells it. */
static void
append_packed (GString *out, const TlJsonPacked *pa, gboolean pretty)
{
  g_string_append_c (out, '[');
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (gsize i = 0; i < pa->n; i++)
    {
      if (i > 0)
        g_string_append (out, pretty ? ", " : ",");
      if (tl_json_packed_was_int (pa, i))
        {
          gint64 v = pa->kind == TL_JSON_PACKED_INT ? pa->ints[i] : (gint64) pa->doubles[i];
          g_string_append_printf (out, "%" G_GINT64_FORMAT, v);
        }
      else if (!isfinite (pa->doubles[i]))
        g_string_append (out, isnan (pa->doubles[i]) ? "\"nan\""
                              : pa->doubles[i] > 0 ? "\"inf\"" : "\"-inf\"");
      else
        {
          g_ascii_formatd (buf, sizeof buf, "%.17g", pa->doubles[i]);
          g_string_append (out, buf);
          if (strpbrk (buf, ".e") == NULL)
            g_string_append (out, ".0");
        }
    }
  g_string_append_c (out, ']');
}

/* A run record's extensions may hold packed arrays
 * (tl_json_pack_store_hold): the generator wrote each as its placeholder,
 * ["tl-packed:…"], which becomes the numbers.  Takes text; g_free. */
static char *
spell_packed (char *text, gboolean pretty)
{
  static const char needle[] = "\"tl-packed:";
  const char *p = strstr (text, needle);
  if (p == NULL)
    return text;
  GString *out = g_string_new (NULL);
  const char *copied = text;
  for (; p != NULL; p = strstr (p + 1, needle))
    {
      const char *close_quote = strchr (p + 1, '"');
      if (close_quote == NULL)
        break;
      /* the placeholder alone in its array: [ "tl-packed:…" ] */
      const char *open = p, *after = close_quote + 1;
      while (open > copied && g_ascii_isspace (open[-1]))
        open--;
      while (g_ascii_isspace (*after))
        after++;
      if (open == copied || open[-1] != '[' || *after != ']')
        continue;
      g_autofree char *marker = g_strndup (p + 1, (gsize) (close_quote - p - 1));
      const TlJsonPacked *pa = tl_json_packed_of_marker (marker);
      if (pa == NULL)
        continue;
      g_string_append_len (out, copied, open - 1 - copied);
      append_packed (out, pa, pretty);
      copied = after + 1;
      p = after;
    }
  g_string_append (out, copied);
  g_free (text);
  return g_string_free (out, FALSE);
}

char *
tl_json_to_data (JsonNode *root, gboolean pretty, gsize *length)
{
  g_return_val_if_fail (root != NULL, NULL);
  spell_nonfinite (root);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 1);
  json_generator_set_root (gen, root);
  char *text = json_generator_to_data (gen, NULL);
  fix_exponents (text);
  text = spell_packed (text, pretty);
  if (length)
    *length = strlen (text);
  return text;
}
