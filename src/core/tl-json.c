/* tl-json.c — small json-glib helpers the record writers and readers share. */
#include "core/tl-json.h"
#include "core/tl-error.h"
#include "core/tl-file.h"

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

/* ---- strict, bounded parsing -------------------------------------------- */

typedef struct
{
  const char *data, *p, *end;
  GError **error;
} Scanner;

G_GNUC_PRINTF (2, 3) static gboolean
scan_fail (Scanner *s, const char *format, ...)
{
  guint line = 1, col = 1;
  for (const char *q = s->data; q < s->p && q < s->end; q++)
    {
      if (*q == '\n')
        line++, col = 1;
      else if (((guchar) *q & 0xc0) != 0x80) /* count characters, not UTF-8 bytes */
        col++;
    }
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (s->error, TL_ERROR, TL_ERROR_PARSE, _("not valid JSON: line %u, column %u: %s"),
               line, col, what);
  return FALSE;
}

static void
skip_space (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    s->p++;
}

/* "…" with JSON's escapes; no raw control characters. */
static gboolean
scan_string (Scanner *s)
{
  s->p++; /* the opening quote */
  while (s->p < s->end)
    {
      guchar c = (guchar) *s->p;
      if (c == '"')
        {
          s->p++;
          return TRUE;
        }
      if (c < 0x20)
        return scan_fail (s, _("a control character inside a string"));
      if (c != '\\')
        {
          s->p++;
          continue;
        }
      if (s->p + 1 >= s->end)
        break;
      char e = s->p[1];
      if (e == 'u')
        {
          for (int k = 2; k < 6; k++)
            if (s->p + k >= s->end || !g_ascii_isxdigit (s->p[k]))
              return scan_fail (s, _("expected four hex digits after \\u"));
          s->p += 6;
        }
      else if (strchr ("\"\\/bfnrt", e) != NULL && e != '\0')
        s->p += 2;
      else
        return scan_fail (s, _("an unknown escape in a string"));
    }
  return scan_fail (s, _("the text ends inside a string"));
}

static gboolean
scan_digits (Scanner *s)
{
  const char *start = s->p;
  while (s->p < s->end && g_ascii_isdigit (*s->p))
    s->p++;
  return s->p > start;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
scan_number (Scanner *s)
{
  if (*s->p == '-')
    s->p++;
  if (s->p < s->end && *s->p == '0')
    s->p++;
  else if (!scan_digits (s))
    return scan_fail (s, _("expected a value"));
  if (s->p < s->end && *s->p == '.')
    {
      s->p++;
      if (!scan_digits (s))
        return scan_fail (s, _("expected digits after the decimal point"));
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (!scan_digits (s))
        return scan_fail (s, _("expected digits in the exponent"));
    }
  return TRUE;
}

static gboolean
scan_scalar (Scanner *s)
{
  static const char *const words[] = { "true", "false", "null" };
  if (*s->p == '"')
    return scan_string (s);
  if (*s->p == '-' || g_ascii_isdigit (*s->p))
    return scan_number (s);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);
      if ((gsize) (s->end - s->p) >= n && memcmp (s->p, words[i], n) == 0)
        {
          s->p += n;
          return TRUE;
        }
    }
  return scan_fail (s, _("expected a value"));
}

gboolean
tl_json_check_text (const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  if (length > TL_JSON_MAX_BYTES)
    {
      g_autofree char *have = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (TL_JSON_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   _("the JSON text is %s, more than the limit of %s"), have, limit);
      return FALSE;
    }

  enum { VALUE, VALUE_OR_CLOSE, KEY, KEY_OR_CLOSE, AFTER_VALUE } state = VALUE;
  char open[TL_JSON_MAX_DEPTH]; /* '[' or '{' per level */
  guint depth = 0;
  Scanner s = { data, data, data + length, error };

  for (;;)
    {
      skip_space (&s);
      if (s.p >= s.end)
        {
          if (state == AFTER_VALUE && depth == 0)
            return TRUE;
          return scan_fail (&s, length == 0 || state == VALUE ? _("expected a value")
                                                               : _("the text ends early"));
        }
      char c = *s.p;
      switch (state)
        {
        case VALUE_OR_CLOSE:
          if (c == ']')
            {
              s.p++, depth--, state = AFTER_VALUE;
              break;
            }
          G_GNUC_FALLTHROUGH;
        case VALUE:
          if (c == '[' || c == '{')
            {
              if (depth == TL_JSON_MAX_DEPTH)
                return scan_fail (&s, _("nested deeper than %d levels"), TL_JSON_MAX_DEPTH);
              open[depth++] = c;
              s.p++;
              state = c == '[' ? VALUE_OR_CLOSE : KEY_OR_CLOSE;
              break;
            }
          if (!scan_scalar (&s))
            return FALSE;
          state = AFTER_VALUE;
          break;
        case KEY_OR_CLOSE:
          if (c == '}')
            {
              s.p++, depth--, state = AFTER_VALUE;
              break;
            }
          G_GNUC_FALLTHROUGH;
        case KEY:
          if (c != '"')
            return scan_fail (&s, _("expected a member name in double quotes"));
          if (!scan_string (&s))
            return FALSE;
          skip_space (&s);
          if (s.p >= s.end || *s.p != ':')
            return scan_fail (&s, _("expected “:” after the member name"));
          s.p++;
          state = VALUE;
          break;
        case AFTER_VALUE:
          if (depth == 0)
            return scan_fail (&s, _("expected the end of the text"));
          if (c == ',')
            state = open[depth - 1] == '[' ? VALUE : KEY;
          else if (c == (open[depth - 1] == '[' ? ']' : '}'))
            depth--;
          else
            return scan_fail (&s, open[depth - 1] == '[' ? _("expected “,” or “]”")
                                                         : _("expected “,” or “}”"));
          s.p++;
          break;
        }
    }
}

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

char *
tl_json_to_data (JsonNode *root, gboolean pretty, gsize *length)
{
  g_return_val_if_fail (root != NULL, NULL);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 1);
  json_generator_set_root (gen, root);
  char *text = json_generator_to_data (gen, NULL);
  fix_exponents (text);
  if (length)
    *length = strlen (text);
  return text;
}
