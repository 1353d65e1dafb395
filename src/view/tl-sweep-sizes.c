/* tl-sweep-sizes.c — the problem sizes of a size sweep, as a reader types them. */
#include "view/tl-sweep-sizes.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "core/tl-error.h"

/* One item: n or m×k×n; FALSE when it is neither. */
static gboolean
parse_item (const char *item, TlSweepSize *out)
{
  g_autoptr (GString) s = g_string_new (item);
  g_string_replace (s, "×", "x", 0);
  g_string_replace (s, "X", "x", 0);
  g_string_replace (s, "*", "x", 0);
  g_auto (GStrv) parts = g_strsplit (s->str, "x", -1);
  guint n = g_strv_length (parts);
  if (n != 1 && n != 3)
    return FALSE;
  guint64 d[3];
  for (guint i = 0; i < n; i++)
    if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, G_MAXUINT32, &d[i], NULL))
      return FALSE;
  out->m = d[0];
  out->k = n == 3 ? d[1] : d[0];
  out->n = n == 3 ? d[2] : d[0];
  return TRUE;
}

static gboolean
contains (const GArray *sizes, const TlSweepSize *s)
{
  for (guint i = 0; i < sizes->len; i++)
    {
      const TlSweepSize *q = &g_array_index (sizes, TlSweepSize, i);
      if (q->m == s->m && q->k == s->k && q->n == s->n)
        return TRUE;
    }
  return FALSE;
}

GArray *
tl_sweep_sizes_parse (const char *text, GError **error)
{
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (TlSweepSize));
  g_auto (GStrv) items = g_strsplit (text ? text : "", ",", -1);
  for (guint i = 0; items[i]; i++)
    {
      const char *item = g_strstrip (items[i]);
      if (*item == '\0')
        continue;
      TlSweepSize s;
      if (!parse_item (item, &s))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("sweep sizes: “%s” is not a size (n, or m×k×n such as 1000×777×1111)"), item);
          return NULL;
        }
      if (s.m == 0 || s.k == 0 || s.n == 0 || s.m > TL_SWEEP_SIZE_MAX || s.k > TL_SWEEP_SIZE_MAX
          || s.n > TL_SWEEP_SIZE_MAX)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("sweep sizes: “%s” is out of range (each of m, k and n from 1 to %d)"), item,
                       TL_SWEEP_SIZE_MAX);
          return NULL;
        }
      if (contains (sizes, &s))
        continue;
      if (sizes->len == TL_SWEEP_SIZES_MAX)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("sweep sizes: more than %d sizes (from “%s” on)"), TL_SWEEP_SIZES_MAX, item);
          return NULL;
        }
      g_array_append_val (sizes, s);
    }
  if (sizes->len == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("sweep sizes: no size given (for example %s)"), TL_SWEEP_SIZES_DEFAULT);
      return NULL;
    }
  return g_steal_pointer (&sizes);
}

char *
tl_sweep_sizes_format (const GArray *sizes)
{
  g_return_val_if_fail (sizes != NULL, NULL);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < sizes->len; i++)
    {
      const TlSweepSize *q = &g_array_index (sizes, TlSweepSize, i);
      if (i > 0)
        g_string_append (s, ", ");
      if (q->m == q->k && q->k == q->n)
        g_string_append_printf (s, "%zu", q->m);
      else
        g_string_append_printf (s, "%zu×%zu×%zu", q->m, q->k, q->n);
    }
  return g_string_free (s, FALSE);
}
