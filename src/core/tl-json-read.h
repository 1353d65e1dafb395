/* tl-json-read.h — reading a parsed JSON document member by member.
 *
 * The one kit the record readers use (run records, Gauss records): each
 * getter takes an object, the JSON path it stands at ("$.runs[2]") and a
 * member's name, checks the member's type (and an integer's range, a
 * number's finiteness), and says what it found wrong as TL_ERROR_PARSE
 * naming the member's path: "$.runs[2].time.median: expected a number".
 * The reader that called it puts the document's name in front
 * * ("run record: …", "LU record: …").
 *
 * A member that is absent or null is missing: a required one is an error;
 * an optional one returns TRUE with *out left alone (object, array and
 * string getters set it to NULL).  Getters chain with ||, as the readers
 * do: the first failure keeps its error.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Sets "path: what" as TL_ERROR_PARSE; returns FALSE. */
gboolean tl_json_fail (GError **error, const char *path, const char *format, ...) G_GNUC_PRINTF (3, 4);
/* "path.name" (g_free). */
char    *tl_json_path (const char *path, const char *name);

/* The member as it is, or NULL when it is absent or null (an error if
 * required): for a member of more than one type. */
JsonNode *tl_json_get_member (JsonObject *obj, const char *path, const char *name,
                              gboolean required, GError **error);
gboolean tl_json_get_object (JsonObject *obj, const char *path, const char *name,
                             gboolean required, JsonObject **out, GError **error);
gboolean tl_json_get_array  (JsonObject *obj, const char *path, const char *name,
                             gboolean required, JsonArray **out, GError **error);
/* A copy of the string (g_free). */
gboolean tl_json_get_string (JsonObject *obj, const char *path, const char *name,
                             gboolean required, char **out, GError **error);
/* An integer in lo … hi. */
gboolean tl_json_get_int    (JsonObject *obj, const char *path, const char *name,
                             gboolean required, gint64 lo, gint64 hi, gint64 *out,
                             GError **error);
/* An integer in 0 … hi, for counts and indices. */
gboolean tl_json_get_uint   (JsonObject *obj, const char *path, const char *name,
                             gboolean required, guint hi, guint *out, GError **error);
/* A finite number (json-glib reads 1e400 as infinity: JSON has no such number). */
gboolean tl_json_get_double (JsonObject *obj, const char *path, const char *name,
                             gboolean required, double *out, GError **error);
/* A number, or "nan", "inf", "-inf" for what JSON cannot write. */
gboolean tl_json_get_value  (JsonObject *obj, const char *path, const char *name,
                             gboolean required, double *out, GError **error);
gboolean tl_json_get_bool   (JsonObject *obj, const char *path, const char *name,
                             gboolean required, gboolean *out, GError **error);

/* The length of an array and its element i, a packed array's too
 * (core/tl-json-pack.h): its elements are numbers, which only the
 * getters below read; tl_json_array_element gives NULL for them, so a
 * caller expecting an object or a string there fails at index 0 as it
 * would on the number. */
guint     tl_json_array_length  (JsonArray *array);
JsonNode *tl_json_array_element (JsonArray *array, guint i);

/* Element i of array (at path) as an object: "path[i]: expected an object". */
gboolean tl_json_element_object (JsonArray *array, const char *path, guint i, JsonObject **out,
                                 GError **error);
/* Every element of array (at path) an integer in 0 … hi, into out (one
 * slot per element): "path[i]: expected an integer in 0…hi". */
gboolean tl_json_array_uints (JsonArray *array, const char *path, guint64 hi, guint64 *out,
                              GError **error);
/* The same into one field of an array of structs: element i as an
 * unsigned integer of size bytes (4, with hi within 32 bits, or 8) at
 * out + i × stride — a packed array is read straight into the structs,
 * with no block of its own in between. */
gboolean tl_json_array_uints_into (JsonArray *array, const char *path, guint64 hi, void *out,
                                   gsize size, gsize stride, GError **error);
/* An array at path of exactly n values (numbers, "nan", "inf", "-inf") into
 * a new block of max(n, 1) doubles (g_free). */
gboolean tl_json_array_values (JsonArray *array, const char *path, gsize n, double **out,
                               GError **error);
/* Every element of array (at path) a number, into a new block of
 * max(n, 1) doubles (g_free) and *n: "path[i]: expected a number". */
gboolean tl_json_array_numbers (JsonArray *array, const char *path, double **out, guint *n,
                                GError **error);

G_END_DECLS
