/* tl-json-write.c — JSON written value by value, to a file, to memory or
 * into a tree (tl-json-write.h). */
#include "core/tl-json-write.h"

#include "core/tl-json-pack.h"

#include <math.h>
#include <string.h>

/* A file's text goes out whenever this much is waiting. */
#define FLUSH_BYTES (64 * 1024)

typedef struct
{
  gboolean array;
  gsize count; /* values (arrays) or members (objects) so far */
} Level;

struct _TlJsonOut
{
  JsonBuilder *builder; /* a tree, or NULL for text */
  FILE *file;           /* text: where it goes, or NULL to keep it */
  gboolean pretty;
  GString *text;        /* text not yet written out */
  GArray *levels;       /* Level, the containers open */
};

static TlJsonOut *
out_new (JsonBuilder *builder, FILE *file, gboolean pretty)
{
  TlJsonOut *out = g_new0 (TlJsonOut, 1);
  out->builder = builder;
  out->file = file;
  out->pretty = pretty;
  out->text = g_string_sized_new (builder ? 0 : FLUSH_BYTES + 256);
  out->levels = g_array_new (FALSE, FALSE, sizeof (Level));
  return out;
}

TlJsonOut *
tl_json_out_new_builder (JsonBuilder *builder)
{
  g_return_val_if_fail (builder != NULL, NULL);
  return out_new (builder, NULL, FALSE);
}

TlJsonOut *
tl_json_out_new_file (FILE *file, gboolean pretty)
{
  g_return_val_if_fail (file != NULL, NULL);
  return out_new (NULL, file, pretty);
}

TlJsonOut *
tl_json_out_new_text (gboolean pretty)
{
  return out_new (NULL, NULL, pretty);
}

static void
flush (TlJsonOut *out)
{
  if (out->file && out->text->len > 0)
    {
      fwrite (out->text->str, 1, out->text->len, out->file);
      g_string_truncate (out->text, 0);
    }
}

void
tl_json_out_free (TlJsonOut *out)
{
  if (out == NULL)
    return;
  flush (out);
  g_string_free (out->text, TRUE);
  g_array_unref (out->levels);
  g_free (out);
}

char *
tl_json_out_free_to_text (TlJsonOut *out, gsize *length)
{
  g_return_val_if_fail (out != NULL && out->builder == NULL && out->file == NULL, NULL);
  if (length)
    *length = out->text->len;
  char *text = g_string_free (g_steal_pointer (&out->text), FALSE);
  out->text = g_string_new (NULL);
  tl_json_out_free (out);
  return text;
}

/* ---- text ------------------------------------------------------------------ */

static void
indent (TlJsonOut *out, guint level)
{
  for (guint i = 0; i < level; i++)
    g_string_append_c (out->text, ' ');
}

/* Before a value: a separator and a line of its own in an array (an
 * object's member name has placed its value already). */
static void
before_value (TlJsonOut *out)
{
  if (out->text->len >= FLUSH_BYTES)
    flush (out);
  if (out->levels->len == 0)
    return;
  Level *top = &g_array_index (out->levels, Level, out->levels->len - 1);
  if (!top->array)
    return;
  if (top->count++ > 0)
    g_string_append_c (out->text, ',');
  if (out->pretty)
    {
      g_string_append_c (out->text, '\n');
      indent (out, out->levels->len);
    }
}

static void
append_escaped (GString *text, const char *s)
{
  g_string_append_c (text, '"');
  for (const guchar *p = (const guchar *) s; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (text, "\\\""); break;
      case '\\': g_string_append (text, "\\\\"); break;
      case '\b': g_string_append (text, "\\b"); break;
      case '\f': g_string_append (text, "\\f"); break;
      case '\n': g_string_append (text, "\\n"); break;
      case '\r': g_string_append (text, "\\r"); break;
      case '\t': g_string_append (text, "\\t"); break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          g_string_append_printf (text, "\\u%04x", *p);
        else
          g_string_append_c (text, (char) *p);
      }
  g_string_append_c (text, '"');
}

static void
open_text (TlJsonOut *out, gboolean array)
{
  before_value (out);
  g_string_append_c (out->text, array ? '[' : '{');
  Level level = { array, 0 };
  g_array_append_val (out->levels, level);
}

static void
close_text (TlJsonOut *out, gboolean array)
{
  g_return_if_fail (out->levels->len > 0);
  Level top = g_array_index (out->levels, Level, out->levels->len - 1);
  g_return_if_fail (top.array == array);
  g_array_set_size (out->levels, out->levels->len - 1);
  if (out->pretty && top.count > 0)
    g_string_append_c (out->text, '\n');
  /* json-glib pads an empty object to its level: "{ }" */
  if (out->pretty && (top.count > 0 || !array))
    indent (out, out->levels->len);
  g_string_append_c (out->text, array ? ']' : '}');
}

/* An integer's digits, without printf (block records hold millions). */
static void
append_int (GString *text, gint64 value)
{
  char digits[24];
  int n = 0;
  guint64 magnitude = value < 0 ? 0 - (guint64) value : (guint64) value;
  do
    digits[n++] = (char) ('0' + magnitude % 10);
  while ((magnitude /= 10) > 0);
  if (value < 0)
    g_string_append_c (text, '-');
  while (n > 0)
    g_string_append_c (text, digits[--n]);
}

static void
append_double (GString *text, double value)
{
  if (!isfinite (value))
    {
      append_escaped (text, isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
      return;
    }
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buf, sizeof buf, "%.17g", value);
  g_string_append (text, buf);
  if (strpbrk (buf, ".e") == NULL)
    g_string_append (text, ".0");
}

/* ---- the calls ---------------------------------------------------------------- */

void
tl_json_out_begin_object (TlJsonOut *out)
{
  if (out->builder)
    json_builder_begin_object (out->builder);
  else
    open_text (out, FALSE);
}

void
tl_json_out_end_object (TlJsonOut *out)
{
  if (out->builder)
    json_builder_end_object (out->builder);
  else
    close_text (out, FALSE);
}

void
tl_json_out_begin_array (TlJsonOut *out)
{
  if (out->builder)
    json_builder_begin_array (out->builder);
  else
    open_text (out, TRUE);
}

void
tl_json_out_end_array (TlJsonOut *out)
{
  if (out->builder)
    json_builder_end_array (out->builder);
  else
    close_text (out, TRUE);
}

void
tl_json_out_member (TlJsonOut *out, const char *name)
{
  if (out->builder)
    {
      json_builder_set_member_name (out->builder, name);
      return;
    }
  g_return_if_fail (out->levels->len > 0);
  Level *top = &g_array_index (out->levels, Level, out->levels->len - 1);
  g_return_if_fail (!top->array);
  if (top->count++ > 0)
    g_string_append_c (out->text, ',');
  if (out->pretty)
    {
      g_string_append_c (out->text, '\n');
      indent (out, out->levels->len);
    }
  append_escaped (out->text, name);
  g_string_append (out->text, out->pretty ? " : " : ":");
}

void
tl_json_out_int (TlJsonOut *out, gint64 value)
{
  if (out->builder)
    {
      json_builder_add_int_value (out->builder, value);
      return;
    }
  before_value (out);
  append_int (out->text, value);
}

void
tl_json_out_double (TlJsonOut *out, double value)
{
  if (out->builder && isfinite (value))
    json_builder_add_double_value (out->builder, value);
  else if (out->builder)
    json_builder_add_string_value (out->builder,
                                   isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
  else
    {
      before_value (out);
      append_double (out->text, value);
    }
}

void
tl_json_out_string (TlJsonOut *out, const char *value)
{
  if (out->builder)
    {
      json_builder_add_string_value (out->builder, value);
      return;
    }
  before_value (out);
  append_escaped (out->text, value ? value : "");
}

void
tl_json_out_bool (TlJsonOut *out, gboolean value)
{
  if (out->builder)
    {
      json_builder_add_boolean_value (out->builder, value);
      return;
    }
  before_value (out);
  g_string_append (out->text, value ? "true" : "false");
}

void
tl_json_out_null (TlJsonOut *out)
{
  if (out->builder)
    {
      json_builder_add_null_value (out->builder);
      return;
    }
  before_value (out);
  g_string_append (out->text, "null");
}

/* A packed array, as the same array in a tree is written. */
static void
write_packed (TlJsonOut *out, const TlJsonPacked *pa)
{
  tl_json_out_begin_array (out);
  for (gsize i = 0; i < pa->n; i++)
    if (tl_json_packed_was_int (pa, i))
      tl_json_out_int (out, tl_json_packed_int (pa, i));
    else
      tl_json_out_double (out, pa->doubles[i]);
  tl_json_out_end_array (out);
}

static void
write_value (TlJsonOut *out, JsonNode *node)
{
  GType type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    tl_json_out_int (out, json_node_get_int (node));
  else if (type == G_TYPE_DOUBLE)
    tl_json_out_double (out, json_node_get_double (node));
  else if (type == G_TYPE_BOOLEAN)
    tl_json_out_bool (out, json_node_get_boolean (node));
  else if (type == G_TYPE_STRING)
    tl_json_out_string (out, json_node_get_string (node));
  else
    tl_json_out_null (out);
}

/* node as text (depth: at most what its builder or reader allowed). */
static void
write_node (TlJsonOut *out, JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        tl_json_out_begin_object (out);
        /* in the order the members were set, as json-glib writes them */
        JsonObject *object = json_node_get_object (node);
        GList *names = json_object_get_members (object);
        for (GList *l = names; l != NULL; l = l->next)
          {
            tl_json_out_member (out, l->data);
            write_node (out, json_object_get_member (object, l->data));
          }
        g_list_free (names);
        tl_json_out_end_object (out);
        return;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        const TlJsonPacked *pa = tl_json_packed_of (array);
        if (pa)
          {
            write_packed (out, pa);
            return;
          }
        tl_json_out_begin_array (out);
        for (guint i = 0, n = json_array_get_length (array); i < n; i++)
          write_node (out, json_array_get_element (array, i));
        tl_json_out_end_array (out);
        return;
      }
    case JSON_NODE_VALUE:
      write_value (out, node);
      return;
    case JSON_NODE_NULL:
      tl_json_out_null (out);
      return;
    }
}

void
tl_json_out_node (TlJsonOut *out, JsonNode *node)
{
  g_return_if_fail (node != NULL);
  if (out->builder)
    json_builder_add_value (out->builder, json_node_copy (node));
  else
    write_node (out, node);
}

/* ---- members ------------------------------------------------------------------- */

void
tl_json_out_member_int (TlJsonOut *out, const char *name, gint64 value)
{
  tl_json_out_member (out, name);
  tl_json_out_int (out, value);
}

void
tl_json_out_member_bool (TlJsonOut *out, const char *name, gboolean value)
{
  tl_json_out_member (out, name);
  tl_json_out_bool (out, value);
}

void
tl_json_out_member_string (TlJsonOut *out, const char *name, const char *value)
{
  if (value == NULL)
    return;
  tl_json_out_member (out, name);
  tl_json_out_string (out, value);
}

void
tl_json_out_member_double (TlJsonOut *out, const char *name, double value)
{
  tl_json_out_member (out, name);
  tl_json_out_double (out, value);
}
