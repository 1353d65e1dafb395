/* tl-json-read.c — getters that name the JSON path of what they found wrong. */
#include "core/tl-json-read.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-memory.h"

gboolean
tl_json_fail (GError **error, const char *path, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, "%s: %s", path, what);
  return FALSE;
}

char *
tl_json_path (const char *path, const char *name)
{
  return g_strdup_printf ("%s.%s", path, name);
}

JsonNode *
tl_json_get_member (JsonObject *obj, const char *path, const char *name, gboolean required,
                    GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        tl_json_fail (error, path, _("missing member “%s”"), name);
      return NULL;
    }
  return node;
}

/* "path.name: what" */
static gboolean
member_fail (GError **error, const char *path, const char *name, const char *what)
{
  g_autofree char *p = tl_json_path (path, name);
  return tl_json_fail (error, p, "%s", what);
}

gboolean
tl_json_get_object (JsonObject *obj, const char *path, const char *name, gboolean required,
                    JsonObject **out, GError **error)
{
  *out = NULL;
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return member_fail (error, path, name, _("expected an object"));
  *out = json_node_get_object (node);
  return TRUE;
}

gboolean
tl_json_get_array (JsonObject *obj, const char *path, const char *name, gboolean required,
                   JsonArray **out, GError **error)
{
  *out = NULL;
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return member_fail (error, path, name, _("expected an array"));
  *out = json_node_get_array (node);
  return TRUE;
}

gboolean
tl_json_get_string (JsonObject *obj, const char *path, const char *name, gboolean required,
                    char **out, GError **error)
{
  *out = NULL;
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return member_fail (error, path, name, _("expected a string"));
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* The shortest of %.15g … %.17g that reads back as v: 1e+23, not
 * 9.9999999999999992e+22. */
static void
shortest_text (double v, char *buf, gsize size)
{
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, (int) size, format, v);
      if (g_ascii_strtod (buf, NULL) == v)
        return;
    }
}

gboolean
tl_json_get_int (JsonObject *obj, const char *path, const char *name, gboolean required,
                 gint64 lo, gint64 hi, gint64 *out, GError **error)
{
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  gint64 v;
  if (tl_json_node_is_int (node))
    v = json_node_get_int (node);
  else if (tl_json_node_is_number (node))
    {
      /* a whole number written as a double ("1e23", "5.0"): judged as
       * itself, never through a conversion that wraps around */
      double d = json_node_get_double (node);
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      shortest_text (d, text, sizeof text);
      g_autofree char *p = tl_json_path (path, name);
      if (d != nearbyint (d))
        return tl_json_fail (error, p, _("expected an integer, found %s"), text);
      /* (2⁶³ is where a double stops fitting an int64) */
      if (!(d >= (double) lo && d <= (double) hi && d < 9223372036854775808.0))
        return tl_json_fail (error, p, _("%s is out of range %" PRId64 "…%" PRId64), text, lo,
                             hi);
      v = (gint64) d;
    }
  else
    return member_fail (error, path, name, _("expected an integer"));
  if (v < lo || v > hi)
    {
      g_autofree char *p = tl_json_path (path, name);
      return tl_json_fail (error, p, _("%" PRId64 " is out of range %" PRId64 "…%" PRId64), v,
                           lo, hi);
    }
  *out = v;
  return TRUE;
}

gboolean
tl_json_get_uint (JsonObject *obj, const char *path, const char *name, gboolean required,
                  guint hi, guint *out, GError **error)
{
  gint64 v = *out;
  if (!tl_json_get_int (obj, path, name, required, 0, hi, &v, error))
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

gboolean
tl_json_get_double (JsonObject *obj, const char *path, const char *name, gboolean required,
                    double *out, GError **error)
{
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!tl_json_node_is_number (node))
    return member_fail (error, path, name, _("expected a number"));
  double v = json_node_get_double (node);
  if (!isfinite (v))
    return member_fail (error, path, name, _("the number is beyond the range of float64"));
  *out = v;
  return TRUE;
}

/* A number, or one of the strings JSON needs for NaN and the infinities. */
static gboolean
node_value (JsonNode *node, double *out)
{
  if (tl_json_node_is_number (node))
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  const char *text = json_node_get_string (node);
  if (g_str_equal (text, "nan"))
    *out = NAN;
  else if (g_str_equal (text, "inf"))
    *out = INFINITY;
  else if (g_str_equal (text, "-inf"))
    *out = -INFINITY;
  else
    return FALSE;
  return TRUE;
}

gboolean
tl_json_get_value (JsonObject *obj, const char *path, const char *name, gboolean required,
                   double *out, GError **error)
{
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!node_value (node, out))
    return member_fail (error, path, name,
                        _("expected a number, “nan”, “inf” or “-inf”"));
  return TRUE;
}

gboolean
tl_json_get_bool (JsonObject *obj, const char *path, const char *name, gboolean required,
                  gboolean *out, GError **error)
{
  JsonNode *node = tl_json_get_member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!tl_json_node_is_bool (node))
    return member_fail (error, path, name, _("expected true or false"));
  *out = json_node_get_boolean (node);
  return TRUE;
}

guint
tl_json_array_length (JsonArray *array)
{
  const TlJsonPacked *pa = tl_json_packed_of (array);
  return pa ? (guint) pa->n : json_array_get_length (array);
}

JsonNode *
tl_json_array_element (JsonArray *array, guint i)
{
  if (tl_json_packed_of (array) || i >= json_array_get_length (array))
    return NULL;
  return json_array_get_element (array, i);
}

/* "path[i]: what" */
static gboolean
element_fail (GError **error, const char *path, gsize i, const char *what)
{
  g_autofree char *p = g_strdup_printf ("%s[%zu]", path, i);
  return tl_json_fail (error, p, "%s", what);
}

gboolean
tl_json_element_object (JsonArray *array, const char *path, guint i, JsonObject **out,
                        GError **error)
{
  JsonNode *node = tl_json_array_element (array, i);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return element_fail (error, path, i, _("expected an object"));
  *out = json_node_get_object (node);
  return TRUE;
}

/* v into slot i of out: an unsigned integer of size bytes (4 or 8),
 * stride bytes after slot i − 1. */
static inline void
put_uint (void *out, gsize size, gsize stride, gsize i, guint64 v)
{
  char *slot = (char *) out + i * stride;
  if (size == sizeof (guint32))
    *(guint32 *) slot = (guint32) v;
  else
    *(guint64 *) slot = v;
}

/* The index of the first element of a packed array that is no integer
 * in 0 … hi (pa->n when none), the others put into out. */
static gsize
packed_uints (const TlJsonPacked *pa, guint64 hi, void *out, gsize size, gsize stride)
{
  for (gsize i = 0; i < pa->n; i++)
    {
      /* integers among doubles are doubles exactly (within ±2⁵³) */
      gint64 v = tl_json_packed_int (pa, i);
      if (!tl_json_packed_was_int (pa, i) || v < 0 || (guint64) v > hi)
        return i;
      put_uint (out, size, stride, i, (guint64) v);
    }
  return pa->n;
}

gboolean
tl_json_array_uints_into (JsonArray *array, const char *path, guint64 hi, void *out, gsize size,
                          gsize stride, GError **error)
{
  g_return_val_if_fail (size == sizeof (guint32) || size == sizeof (guint64), FALSE);
  g_return_val_if_fail (size == sizeof (guint64) || hi <= G_MAXUINT32, FALSE);
  const TlJsonPacked *pa = tl_json_packed_of (array);
  const gsize n = pa ? pa->n : json_array_get_length (array);
  gsize bad = n;
  if (pa)
    bad = n == 0 ? 0 : packed_uints (pa, hi, out, size, stride);
  for (gsize i = 0; !pa && i < n && bad == n; i++)
    {
      JsonNode *node = json_array_get_element (array, (guint) i);
      if (!tl_json_node_is_int (node) || json_node_get_int (node) < 0
          || (guint64) json_node_get_int (node) > hi)
        bad = i;
      else
        put_uint (out, size, stride, i, (guint64) json_node_get_int (node));
    }
  if (bad == n)
    return TRUE;
  g_autofree char *what = g_strdup_printf (_("expected an integer in 0…%" PRIu64), hi);
  return element_fail (error, path, bad, what);
}

gboolean
tl_json_array_uints (JsonArray *array, const char *path, guint64 hi, guint64 *out, GError **error)
{
  return tl_json_array_uints_into (array, path, hi, out, sizeof (guint64), sizeof (guint64),
                                   error);
}

/* A packed array's elements as doubles, into out (n of them). */
static void
packed_doubles (const TlJsonPacked *pa, double *out)
{
  if (pa->kind == TL_JSON_PACKED_DOUBLE)
    memcpy (out, pa->doubles, pa->n * sizeof (double));
  else
    for (gsize i = 0; i < pa->n; i++)
      out[i] = tl_json_packed_double (pa, i);
}

/* A block of max(n, 1) doubles for the elements of the array at path. */
static double *
new_doubles (gsize n, const char *path, GError **error)
{
  g_autofree char *what = g_strdup_printf (_("the %zu numbers of %s"), n, path);
  return tl_memory_new0 (double, MAX (n, 1), what, error);
}

gboolean
tl_json_array_values (JsonArray *array, const char *path, gsize n, double **out, GError **error)
{
  *out = NULL;
  const TlJsonPacked *pa = tl_json_packed_of (array);
  if (tl_json_array_length (array) != n)
    return tl_json_fail (error, path, _("expected %zu values, found %u"), n,
                         tl_json_array_length (array));
  g_autofree double *v = new_doubles (n, path, error);
  if (v == NULL)
    return FALSE;
  if (pa)
    packed_doubles (pa, v); /* "nan", "inf" and "-inf" were packed as what they say */
  for (gsize i = 0; !pa && i < n; i++)
    if (!node_value (json_array_get_element (array, (guint) i), &v[i]))
      return element_fail (error, path, i, _("expected a number, “nan”, “inf” or “-inf”"));
  *out = g_steal_pointer (&v);
  return TRUE;
}

gboolean
tl_json_array_numbers (JsonArray *array, const char *path, double **out, guint *n,
                       GError **error)
{
  *out = NULL;
  const TlJsonPacked *pa = tl_json_packed_of (array);
  *n = tl_json_array_length (array);
  g_autofree double *v = new_doubles (*n, path, error);
  if (v == NULL)
    return FALSE;
  if (pa && pa->first_string < pa->n)
    return element_fail (error, path, pa->first_string, _("expected a number"));
  if (pa)
    packed_doubles (pa, v);
  for (guint i = 0; !pa && i < *n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      if (!tl_json_node_is_number (node))
        return element_fail (error, path, i, _("expected a number"));
      v[i] = json_node_get_double (node);
      if (!isfinite (v[i]))
        return element_fail (error, path, i, _("the number is beyond the range of float64"));
    }
  *out = g_steal_pointer (&v);
  return TRUE;
}
