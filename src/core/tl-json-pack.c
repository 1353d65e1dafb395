/* tl-json-pack.c — long arrays of numbers lifted out of a JSON text into
 * packed blocks while the strict scanner reads it, and the documents
 * that hold them (tl-json-pack.h). */
#include "core/tl-json-pack.h"

#include "core/tl-error.h"
#include "core/tl-file.h"
#include "core/tl-json-check.h"
#include "core/tl-memory.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* What json-glib spends per value of a tree (tl-json-check.c's estimate). */
#define TREE_BYTES_PER_VALUE 128
/* A placeholder's string: this prefix, the document's key, the index. */
#define MARKER_PREFIX "tl-packed:"

typedef struct
{
  const char *data;   /* the text being scanned */
  GString *out;       /* the text with lifted arrays replaced; NULL until the first */
  gsize copied;       /* data[0, copied) is in out */
  guint64 key;        /* this document's, in every placeholder */
  GPtrArray *packed;  /* TlJsonPacked*, in the order they were lifted */

  /* the innermost open array, while every element so far is a scalar of one kind */
  gboolean candidate;
  gboolean kind_known;
  TlJsonPackedKind kind;
  gsize open_at;      /* offset of its '[' */
  gsize n, cap;       /* elements so far, room in values */
  guint64 *values;    /* int64 or double bits */
  gsize first_string;
} Packer;

struct _TlJsonDoc
{
  JsonNode *root;
  guint64 key;
  GPtrArray *packed;  /* TlJsonPacked* */
};

/* Every live document by key, so a placeholder finds its packed array. */
G_LOCK_DEFINE_STATIC (docs);
static GHashTable *docs;

static void
packed_free (gpointer data)
{
  TlJsonPacked *pa = data;
  g_free (pa->ints);
  g_free (pa);
}

/* ---- the scanner's side ---------------------------------------------------- */

static void
packer_open (gpointer self, gsize at)
{
  Packer *p = self;
  p->candidate = TRUE;
  p->kind_known = FALSE;
  p->open_at = at;
  p->n = 0;
  p->first_string = G_MAXSIZE;
}

static void
packer_keep (gpointer self)
{
  Packer *p = self;
  p->candidate = FALSE;
}

/* Room for one more value, the growth asked of the budget. */
static gboolean
grow (Packer *p, GError **error)
{
  if (p->n < p->cap)
    return TRUE;
  gsize cap = MAX (p->cap * 2, 1024);
  if (!tl_memory_check ((guint64) cap * sizeof (guint64),
                        _("an array of numbers in the JSON document"), error))
    return FALSE;
  guint64 *grown = g_try_realloc (p->values, cap * sizeof (guint64));
  if (grown == NULL)
    {
      g_autofree char *size = g_format_size_full ((guint64) cap * sizeof (guint64),
                                                  G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("an array of numbers in the JSON document needs %s: the system refused it"),
                   size);
      return FALSE;
    }
  p->values = grown;
  p->cap = cap;
  return TRUE;
}

/* A number's text as a C string (the text need not end in a NUL). */
static char *
token_copy (const char *start, const char *end, char *buf, gsize size)
{
  gsize n = (gsize) (end - start);
  if (n >= size)
    return g_strndup (start, n);
  memcpy (buf, start, n);
  buf[n] = '\0';
  return buf;
}

static gboolean
packer_scalar (gpointer self, const char *start, const char *end, gboolean integer,
               gboolean is_string, GError **error)
{
  Packer *p = self;
  if (!p->candidate)
    return TRUE;
  double special = 0;
  if (is_string)
    {
      gsize n = (gsize) (end - start);
      if (n == 3 && memcmp (start, "nan", 3) == 0)
        special = NAN;
      else if (n == 3 && memcmp (start, "inf", 3) == 0)
        special = INFINITY;
      else if (n == 4 && memcmp (start, "-inf", 4) == 0)
        special = -INFINITY;
      else
        return p->candidate = FALSE, TRUE;
    }
  TlJsonPackedKind kind = integer && !is_string ? TL_JSON_PACKED_INT : TL_JSON_PACKED_DOUBLE;
  if (!p->kind_known)
    p->kind = kind, p->kind_known = TRUE;
  else if (p->kind != kind)
    return p->candidate = FALSE, TRUE;
  if (!grow (p, error))
    return FALSE;
  if (is_string)
    {
      p->first_string = MIN (p->first_string, p->n);
      memcpy (&p->values[p->n++], &special, sizeof special);
      return TRUE;
    }
  char buf[64];
  char *text = token_copy (start, end, buf, sizeof buf);
  if (kind == TL_JSON_PACKED_INT)
    {
      gint64 v = g_ascii_strtoll (text, NULL, 10);
      memcpy (&p->values[p->n++], &v, sizeof v);
    }
  else
    {
      double v = g_ascii_strtod (text, NULL);
      memcpy (&p->values[p->n++], &v, sizeof v);
    }
  if (text != buf)
    g_free (text);
  return TRUE;
}

static gsize
packer_pending (gpointer self)
{
  Packer *p = self;
  return p->candidate ? p->n : 0;
}

static gsize
packer_close (gpointer self, const char *end)
{
  Packer *p = self;
  gboolean lift = p->candidate && p->n >= TL_JSON_PACK_MIN;
  p->candidate = FALSE;
  if (!lift)
    return 0;
  if (p->out == NULL)
    p->out = g_string_new (NULL);
  g_string_append_len (p->out, p->data + p->copied, (gssize) (p->open_at - p->copied));
  g_string_append_printf (p->out, "[\"" MARKER_PREFIX "%016" G_GINT64_MODIFIER "x:%u\"]", p->key,
                          p->packed->len);
  p->copied = (gsize) (end - p->data);

  TlJsonPacked *pa = g_new0 (TlJsonPacked, 1);
  pa->kind = p->kind;
  pa->n = p->n;
  pa->first_string = MIN (p->first_string, p->n);
  pa->ints = g_realloc (p->values, p->n * sizeof (guint64)); /* shrinks: never fails */
  g_ptr_array_add (p->packed, pa);
  p->values = NULL;
  p->cap = 0;
  return pa->n;
}

/* ---- documents --------------------------------------------------------------- */

/* A key no live document has. */
static guint64
register_key (TlJsonDoc *doc)
{
  G_LOCK (docs);
  if (docs == NULL)
    docs = g_hash_table_new (g_int64_hash, g_int64_equal);
  do
    doc->key = ((guint64) g_random_int () << 32) | g_random_int ();
  while (doc->key == 0 || g_hash_table_contains (docs, &doc->key));
  g_hash_table_insert (docs, &doc->key, doc);
  G_UNLOCK (docs);
  return doc->key;
}

void
tl_json_doc_free (TlJsonDoc *doc)
{
  if (doc == NULL)
    return;
  G_LOCK (docs);
  g_hash_table_remove (docs, &doc->key);
  G_UNLOCK (docs);
  g_clear_pointer (&doc->root, json_node_unref);
  g_ptr_array_unref (doc->packed);
  g_free (doc);
}

JsonNode *
tl_json_doc_root (TlJsonDoc *doc)
{
  g_return_val_if_fail (doc != NULL, NULL);
  return doc->root;
}

/* The tree of text (the scanned text, or what the packer made of it). */
static gboolean
build_tree (TlJsonDoc *doc, const char *text, gsize length, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) length, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("not valid JSON: %s"), local->message);
      return FALSE;
    }
  doc->root = json_parser_steal_root (parser);
  if (doc->root == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("the file is empty"));
      return FALSE;
    }
  return TRUE;
}

/* Scans data, lifting arrays; with free_text the text is freed as soon as
 * it is scanned (the packer's copy of the rest is far smaller). */
static TlJsonDoc *
doc_parse (char *data, gsize length, gboolean free_text, GError **error)
{
  g_autoptr (TlJsonDoc) doc = g_new0 (TlJsonDoc, 1);
  doc->packed = g_ptr_array_new_with_free_func (packed_free);
  Packer packer = { .data = data, .packed = doc->packed, .key = register_key (doc) };
  const TlJsonScanHooks hooks = { packer_open, packer_scalar, packer_keep, packer_close,
                                  packer_pending, &packer };
  gboolean ok = tl_json_check_text_hooked (data, length, &hooks, error);
  g_free (packer.values);
  if (ok && packer.out)
    g_string_append_len (packer.out, data + packer.copied, (gssize) (length - packer.copied));
  if (free_text && packer.out)
    g_free (data), data = NULL;
  if (ok)
    ok = packer.out ? build_tree (doc, packer.out->str, packer.out->len, error)
                    : build_tree (doc, data, length, error);
  if (packer.out)
    g_string_free (packer.out, TRUE);
  if (free_text)
    g_free (data);
  if (!ok)
    return NULL;
  g_debug ("JSON: parsed %" G_GSIZE_FORMAT " bytes, %u arrays packed", length, doc->packed->len);
  return g_steal_pointer (&doc);
}

TlJsonDoc *
tl_json_doc_parse (const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  return doc_parse ((char *) data, length, FALSE, error);
}

TlJsonDoc *
tl_json_doc_load_file (const char *path, GError **error)
{
  char *data = NULL;
  gsize length = 0;
  if (!tl_file_read_all (path, TL_JSON_MAX_BYTES, &data, &length, error))
    return NULL;
  g_autoptr (GError) local = NULL;
  TlJsonDoc *doc = doc_parse (data, length, TRUE, &local);
  if (doc == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
    }
  return doc;
}

const TlJsonPacked *
tl_json_packed_of (JsonArray *array)
{
  if (array == NULL || json_array_get_length (array) != 1)
    return NULL;
  JsonNode *node = json_array_get_element (array, 0);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  const char *text = json_node_get_string (node);
  if (!g_str_has_prefix (text, MARKER_PREFIX))
    return NULL;
  char *end = NULL;
  guint64 key = g_ascii_strtoull (text + strlen (MARKER_PREFIX), &end, 16);
  if (end == NULL || *end != ':')
    return NULL;
  guint64 index = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0')
    return NULL;
  const TlJsonPacked *found = NULL;
  G_LOCK (docs);
  TlJsonDoc *doc = docs ? g_hash_table_lookup (docs, &key) : NULL;
  if (doc && index < doc->packed->len)
    found = doc->packed->pdata[index];
  G_UNLOCK (docs);
  return found;
}

/* ---- back to a tree ---------------------------------------------------------- */

/* Calls fn on every array under node (depth at most TL_JSON_MAX_DEPTH). */
static void
each_array (JsonNode *node, void (*fn) (JsonArray *array, gpointer data), gpointer data)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      JsonNode *member;
      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, NULL, &member))
        each_array (member, fn, data);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      fn (array, data);
      for (guint i = 0, n = json_array_get_length (array); i < n; i++)
        each_array (json_array_get_element (array, i), fn, data);
    }
}

static void
count_packed (JsonArray *array, gpointer data)
{
  const TlJsonPacked *pa = tl_json_packed_of (array);
  if (pa)
    *(guint64 *) data += pa->n;
}

static void
unpack_array (JsonArray *array, gpointer data)
{
  const TlJsonPacked *pa = tl_json_packed_of (array);
  if (pa == NULL)
    return;
  json_array_remove_element (array, 0);
  for (gsize i = 0; i < pa->n; i++)
    {
      if (pa->kind == TL_JSON_PACKED_INT)
        json_array_add_int_element (array, pa->ints[i]);
      else if (isfinite (pa->doubles[i]))
        json_array_add_double_element (array, pa->doubles[i]);
      else
        json_array_add_string_element (array, isnan (pa->doubles[i]) ? "nan"
                                              : pa->doubles[i] > 0 ? "inf" : "-inf");
    }
}

gboolean
tl_json_doc_unpack (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, FALSE);
  guint64 values = 0;
  each_array (node, count_packed, &values);
  if (values == 0)
    return TRUE;
  g_autoptr (GError) local = NULL;
  if (!tl_memory_check (values * TREE_BYTES_PER_VALUE, _("the JSON document as a tree"), &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE, _("%s (%" PRIu64 " numbers)"),
                   local->message, values);
      return FALSE;
    }
  /* an unpacked array holds no placeholder any more: the walk passes it */
  each_array (node, unpack_array, NULL);
  return TRUE;
}
