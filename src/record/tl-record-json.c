/* tl-record-json.c — the record reader's getters: counts, quantities with
 * their units, names from a table, matrix statistics and paths that stay
 * beside the record, each error naming its JSON path. */
#include "record/tl-record-private.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-read.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* a count or a size: 0 … G_MAXINT32 */
gboolean
tl_record_get_count (JsonObject *obj, const char *path, const char *name, gboolean required,
                     int *out, GError **error)
{
  gint64 v = *out;
  if (!tl_json_get_int (obj, path, name, required, 0, G_MAXINT32, &v, error))
    return FALSE;
  *out = (int) v;
  return TRUE;
}

/* {"value": number, "unit": unit}; absent optional quantities read NAN */
gboolean
tl_record_get_quantity (JsonObject *obj, const char *path, const char *name, gboolean required,
                        const char *unit, double *out, GError **error)
{
  *out = NAN;
  JsonObject *q;
  if (!tl_json_get_object (obj, path, name, required, &q, error))
    return FALSE;
  if (q == NULL)
    return TRUE;
  g_autofree char *p = tl_json_path (path, name);
  g_autofree char *u = NULL;
  if (!tl_json_get_double (q, p, "value", TRUE, out, error)
      || !tl_json_get_string (q, p, "unit", TRUE, &u, error))
    return FALSE;
  if (strcmp (u, unit) != 0)
    {
      g_autofree char *pu = tl_json_path (p, "unit");
      return tl_json_fail (error, pu, _("expected “%s”, found “%s”"), unit, u);
    }
  return TRUE;
}

gboolean
tl_record_get_name (JsonObject *obj, const char *path, const char *name, const TlNameTable *table,
                    int *out, GError **error)
{
  g_autofree char *s = NULL;
  if (!tl_json_get_string (obj, path, name, TRUE, &s, error))
    return FALSE;
  if (!tl_name_table_lookup (table, s, out))
    {
      g_autofree char *p = tl_json_path (path, name);
      return tl_json_fail (error, p, _("unknown value “%s”"), s);
    }
  return TRUE;
}

gboolean
tl_record_read_stats (JsonObject *obj, const char *path, TlMatrixStats *out, GError **error)
{
  gint64 v;
  memset (out, 0, sizeof *out);
  if (!tl_json_get_double (obj, path, "min", FALSE, &out->min, error)
      || !tl_json_get_double (obj, path, "max", FALSE, &out->max, error)
      || !tl_json_get_double (obj, path, "mean", FALSE, &out->mean, error))
    return FALSE;
  v = 0;
  if (!tl_json_get_int (obj, path, "n_nan", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_nan = v;
  if (!tl_json_get_int (obj, path, "n_inf", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_inf = v;
  if (!tl_json_get_int (obj, path, "n_finite", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_finite = v;
  return TRUE;
}

gboolean
tl_record_check_relative_path (const char *rel, const char *path, GError **error)
{
  if (*rel == '\0' || g_path_is_absolute (rel) || strchr (rel, '\\') != NULL)
    return tl_json_fail (error, path, _("“%s” is not a relative path"), rel);
  g_auto (GStrv) parts = g_strsplit (rel, "/", -1);
  for (guint i = 0; parts[i]; i++)
    if (strcmp (parts[i], "..") == 0)
      return tl_json_fail (error, path, _("“%s” leaves the record's folder"), rel);
  return TRUE;
}

gboolean
tl_record_get_rel_path (JsonObject *obj, const char *path, char **out, GError **error)
{
  if (!tl_json_get_string (obj, path, "path", FALSE, out, error))
    return FALSE;
  if (*out == NULL)
    return TRUE;
  g_autofree char *p = tl_json_path (path, "path");
  if (!tl_record_check_relative_path (*out, p, error))
    {
      g_clear_pointer (out, g_free);
      return FALSE;
    }
  return TRUE;
}
