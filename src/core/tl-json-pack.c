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
#include <unistd.h>

/* What json-glib spends per value of a tree (tl-json-check.c's estimate). */
#define TREE_BYTES_PER_VALUE 128
/* A placeholder's string: this prefix, the document's key, the index. */
#define MARKER_PREFIX "tl-packed:"
/* Integers up to this size are doubles exactly. */
#define EXACT_INT ((gint64) 1 << 53)

/* A container being built: borrowed from the tree (the root owns it). */
typedef struct
{
  JsonNode *node;
  char *key;           /* objects: the member whose value comes next */
  gboolean candidate;  /* arrays: every element so far a number, held packed */
} Frame;

typedef struct
{
  Frame frames[TL_JSON_MAX_DEPTH];
  guint depth;
  JsonNode *root;
  guint64 key;         /* this document's, in every placeholder */
  GPtrArray *packed;   /* TlJsonPacked*, in the order they were lifted */

  /* the innermost array while it is a candidate (only it can be one: an
   * array that gets a container as an element stops being one) */
  gboolean kind_known;
  TlJsonPackedKind kind;
  gboolean ints_exact; /* INT: every value within ±2⁵³ so far */
  gsize n, cap;        /* elements so far, room in values */
  gsize cap_size;      /* the bytes of an element cap counts (values outlives a
                          candidate: the next may hold another kind) */
  void *values;        /* int32, int64 or double, as kind says */
  guint8 *int_bits;    /* DOUBLE: which were integers; NULL while none */
  gsize first_string;
} Builder;

/* A document's packed arrays, kept by the document and by what holds
 * part of its tree beyond it (a run record's extensions). */
struct _TlJsonPackStore
{
  gint ref_count;
  guint64 key;        /* in every placeholder of its arrays */
  GPtrArray *packed;  /* TlJsonPacked*, NULL where freed (tl_json_pack_store_hold) */
};

struct _TlJsonDoc
{
  JsonNode *root;
  TlJsonPackStore *store;
};

/* Every live store by key, so a placeholder finds its packed array. */
G_LOCK_DEFINE_STATIC (stores);
static GHashTable *stores;

static void
packed_free (gpointer data)
{
  TlJsonPacked *pa = data;
  if (pa == NULL) /* freed already (tl_json_pack_store_hold) */
    return;
  g_free (pa->ints);
  g_free (pa->int_bits);
  g_free (pa);
}

/* ---- the packed values of a candidate array ------------------------------- */

static gboolean
refused (GError **error, guint64 bytes)
{
  g_autofree char *size = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
               _("an array of numbers in the JSON document needs %s: the system refused it"),
               size);
  return FALSE;
}

/* Bytes a packed value of kind takes. */
static gsize
value_size (TlJsonPackedKind kind)
{
  return kind == TL_JSON_PACKED_INT32 ? sizeof (gint32) : sizeof (guint64);
}

/* Room for one more value, the growth asked of the budget. */
static gboolean
grow (Builder *b, GError **error)
{
  if (b->n < b->cap)
    return TRUE;
  gsize cap = MAX (b->cap * 2, 1024);
  guint64 bytes = (guint64) cap * value_size (b->kind) + (b->int_bits ? cap / 8 : 0);
  if (!tl_memory_check (bytes, _("an array of numbers in the JSON document"), error))
    return FALSE;
  void *grown = g_try_realloc (b->values, cap * value_size (b->kind));
  if (grown == NULL)
    return refused (error, bytes);
  b->values = grown;
  b->cap_size = value_size (b->kind);
  if (b->int_bits)
    {
      guint8 *bits = g_try_realloc (b->int_bits, cap / 8);
      if (bits == NULL)
        return refused (error, bytes);
      memset (bits + b->cap / 8, 0, (cap - b->cap) / 8);
      b->int_bits = bits;
    }
  b->cap = cap;
  return TRUE;
}

/* An integer beyond 32 bits: the int32 values so far become int64, with
 * room for those values (not for the int32 room: that may be the bytes of
 * an earlier candidate counted in int32s, and widening it doubled it for
 * each array of integers and doubles — a 615-byte record asked 512 MiB). */
static gboolean
widen (Builder *b, GError **error)
{
  gsize cap = 1024;
  while (cap < b->n)
    cap *= 2;
  guint64 bytes = (guint64) cap * sizeof (gint64);
  if (!tl_memory_check (bytes, _("an array of numbers in the JSON document"), error))
    return FALSE;
  gint64 *wide = g_try_new (gint64, cap);
  if (wide == NULL)
    return refused (error, bytes);
  const gint32 *narrow = b->values;
  for (gsize i = 0; i < b->n; i++)
    wide[i] = narrow[i];
  g_free (b->values);
  b->values = wide;
  b->cap = cap;
  b->cap_size = sizeof (gint64);
  b->kind = TL_JSON_PACKED_INT;
  return TRUE;
}

/* Integers and doubles mix: the integers so far become doubles, marked. */
static gboolean
mix (Builder *b, GError **error)
{
  if (b->kind == TL_JSON_PACKED_INT32 && !widen (b, error))
    return FALSE;
  if (!tl_memory_check (MAX (b->cap, 1024) / 8, _("an array of numbers in the JSON document"),
                        error))
    return FALSE;
  b->int_bits = g_try_malloc0 (MAX (b->cap, 1024) / 8);
  if (b->int_bits == NULL)
    return refused (error, MAX (b->cap, 1024) / 8);
  if (b->kind == TL_JSON_PACKED_INT)
    {
      guint64 *values = b->values;
      for (gsize i = 0; i < b->n; i++)
        {
          gint64 v;
          memcpy (&v, &values[i], sizeof v);
          double d = (double) v;
          memcpy (&values[i], &d, sizeof d);
          b->int_bits[i / 8] |= 1u << (i % 8);
        }
    }
  b->kind = TL_JSON_PACKED_DOUBLE;
  return TRUE;
}

/* A number's text as a C string (the text need not end in a NUL). */
static char *
token_copy (const char *start, gsize n, char *buf, gsize size)
{
  if (n >= size)
    return g_strndup (start, n);
  memcpy (buf, start, n);
  buf[n] = '\0';
  return buf;
}

/* The number a scalar a candidate may hold stands for: FALSE when it is
 * none ("nan", "inf" and "-inf" are). */
static gboolean
scalar_number (TlJsonScalar kind, const char *text, gsize length, gint64 *v, double *d)
{
  if (kind == TL_JSON_SCALAR_STRING)
    {
      if (strcmp (text, "nan") == 0)
        *d = NAN;
      else if (strcmp (text, "inf") == 0)
        *d = INFINITY;
      else if (strcmp (text, "-inf") == 0)
        *d = -INFINITY;
      else
        return FALSE;
      return TRUE;
    }
  if (kind != TL_JSON_SCALAR_INT && kind != TL_JSON_SCALAR_DOUBLE)
    return FALSE;
  char buf[64];
  char *copy = token_copy (text, length, buf, sizeof buf);
  if (kind == TL_JSON_SCALAR_INT)
    *v = g_ascii_strtoll (copy, NULL, 10);
  else
    *d = g_ascii_strtod (copy, NULL);
  if (copy != buf)
    g_free (copy);
  return TRUE;
}

/* The candidate's kind, given one more value (integer or not, exact as a
 * double or not): 1 kept or changed, 0 the array stays a tree, -1 failed
 * (the budget). */
static int
settle_kind (Builder *b, gboolean integer, gboolean exact, gboolean narrow, GError **error)
{
  if (!b->kind_known)
    {
      b->kind = !integer ? TL_JSON_PACKED_DOUBLE
                : narrow ? TL_JSON_PACKED_INT32 : TL_JSON_PACKED_INT;
      b->kind_known = TRUE;
      /* the room left by an earlier candidate, in this one's elements */
      if (b->cap > 0)
        b->cap = b->cap * b->cap_size / value_size (b->kind);
      b->cap_size = value_size (b->kind);
      return 1;
    }
  if ((b->kind != TL_JSON_PACKED_DOUBLE) != integer && b->int_bits == NULL)
    {
      /* integers and doubles: doubles, when every integer is one exactly */
      if (!exact || (b->kind != TL_JSON_PACKED_DOUBLE && !b->ints_exact))
        return 0;
      return mix (b, error) ? 1 : -1;
    }
  if (b->int_bits != NULL && !exact)
    return 0;
  if (b->kind == TL_JSON_PACKED_INT32 && !narrow)
    return widen (b, error) ? 1 : -1;
  return 1;
}

/* The scalar as a packed value: 1 taken, 0 not one a candidate holds
 * (the array stays a tree), -1 failed (the budget). */
static int
take_number (Builder *b, TlJsonScalar kind, const char *text, gsize length, GError **error)
{
  double d = 0;
  gint64 v = 0;
  gboolean integer = kind == TL_JSON_SCALAR_INT;
  if (!scalar_number (kind, text, length, &v, &d))
    return 0;
  gboolean exact = !integer || (v >= -EXACT_INT && v <= EXACT_INT);
  gboolean narrow = integer && v >= G_MININT32 && v <= G_MAXINT32;
  int settled = settle_kind (b, integer, exact, narrow, error);
  if (settled <= 0)
    return settled;
  b->ints_exact = b->n == 0 ? exact : b->ints_exact && exact;
  if (!grow (b, error))
    return -1;
  if (kind == TL_JSON_SCALAR_STRING)
    b->first_string = MIN (b->first_string, b->n);
  if (b->kind == TL_JSON_PACKED_INT32)
    ((gint32 *) b->values)[b->n] = (gint32) v;
  else if (b->kind == TL_JSON_PACKED_INT)
    ((gint64 *) b->values)[b->n] = v;
  else
    {
      if (integer)
        {
          d = (double) v;
          b->int_bits[b->n / 8] |= 1u << (b->n % 8);
        }
      ((double *) b->values)[b->n] = d;
    }
  b->n++;
  return 1;
}

/* Element i of a packed array (or of what the candidate holds) as a node. */
static JsonNode *
packed_node (const TlJsonPacked *pa, gsize i)
{
  JsonNode *node = json_node_alloc ();
  if (tl_json_packed_was_int (pa, i))
    return json_node_init_int (node, tl_json_packed_int (pa, i));
  double d = pa->doubles[i];
  if (!isfinite (d))
    return json_node_init_string (node, isnan (d) ? "nan" : d > 0 ? "inf" : "-inf");
  return json_node_init_double (node, d);
}

/* What the candidate holds so far, seen as a packed array (borrowed). */
static TlJsonPacked
candidate_view (const Builder *b)
{
  TlJsonPacked view = { .kind = b->kind, .n = b->n, .first_string = b->first_string,
                        .int_bits = b->int_bits };
  view.ints = b->values;
  return view;
}

/* The candidate array f stays a tree: its values become nodes, within the
 * tree's bounds. */
static gboolean
too_long (GError **error)
{
  g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
               _("an array of more than %" PRIu64 " values that are not all numbers "
                 "(longer arrays are read only when they hold numbers alone)"),
               TL_JSON_MAX_TREE_ARRAY);
  return FALSE;
}

static gboolean
spill (Builder *b, Frame *f, GError **error)
{
  f->candidate = FALSE;
  if (b->n + 1 > TL_JSON_MAX_TREE_ARRAY)
    return too_long (error);
  if (!tl_memory_check ((guint64) b->n * TREE_BYTES_PER_VALUE, _("the JSON document as a tree"),
                        error))
    return FALSE;
  JsonArray *array = json_node_get_array (f->node);
  const TlJsonPacked view = candidate_view (b);
  for (gsize i = 0; i < b->n; i++)
    json_array_add_element (array, packed_node (&view, i));
  b->n = 0;
  return TRUE;
}

/* ---- the scanner's side: the tree built as the text is read -------------- */

/* node, a value just read, into its container (or as the root): owned by
 * the tree, or freed on failure. */
static gboolean
attach (Builder *b, JsonNode *node, GError **error)
{
  if (b->depth == 0)
    {
      b->root = node;
      return TRUE;
    }
  Frame *f = &b->frames[b->depth - 1];
  if (JSON_NODE_HOLDS_OBJECT (f->node))
    {
      json_object_set_member (json_node_get_object (f->node), f->key, node);
      g_clear_pointer (&f->key, g_free);
      return TRUE;
    }
  JsonArray *array = json_node_get_array (f->node);
  if ((f->candidate && !spill (b, f, error))
      || (json_array_get_length (array) >= TL_JSON_MAX_TREE_ARRAY && !too_long (error)))
    {
      json_node_unref (node);
      return FALSE;
    }
  json_array_add_element (array, node);
  return TRUE;
}

static gboolean
builder_open (gpointer self, gboolean is_array, GError **error)
{
  Builder *b = self;
  JsonNode *node = json_node_alloc ();
  if (is_array)
    {
      JsonArray *array = json_array_new ();
      json_node_init_array (node, array);
      json_array_unref (array);
    }
  else
    {
      JsonObject *object = json_object_new ();
      json_node_init_object (node, object);
      json_object_unref (object);
    }
  if (!attach (b, node, error))
    return FALSE;
  b->frames[b->depth++] = (Frame) { node, NULL, is_array };
  if (is_array)
    {
      b->kind_known = FALSE;
      b->ints_exact = TRUE;
      b->n = 0;
      b->first_string = G_MAXSIZE;
      g_clear_pointer (&b->int_bits, g_free);
    }
  return TRUE;
}

static gboolean
builder_member (gpointer self, const char *name, GError **error)
{
  Builder *b = self;
  Frame *f = &b->frames[b->depth - 1];
  g_free (f->key);
  f->key = g_strdup (name);
  return TRUE;
}

static gboolean
builder_scalar (gpointer self, TlJsonScalar kind, const char *text, gsize length,
                GError **error)
{
  Builder *b = self;
  if (b->depth > 0 && b->frames[b->depth - 1].candidate)
    {
      int taken = take_number (b, kind, text, length, error);
      if (taken != 0)
        return taken > 0;
    }
  JsonNode *node = json_node_alloc ();
  char buf[64];
  char *copy = kind == TL_JSON_SCALAR_INT || kind == TL_JSON_SCALAR_DOUBLE
                 ? token_copy (text, length, buf, sizeof buf) : buf;
  switch (kind)
    {
    case TL_JSON_SCALAR_INT:
      json_node_init_int (node, g_ascii_strtoll (copy, NULL, 10));
      break;
    case TL_JSON_SCALAR_DOUBLE:
      json_node_init_double (node, g_ascii_strtod (copy, NULL));
      break;
    case TL_JSON_SCALAR_STRING:
      json_node_init_string (node, text);
      break;
    case TL_JSON_SCALAR_TRUE:
    case TL_JSON_SCALAR_FALSE:
      json_node_init_boolean (node, kind == TL_JSON_SCALAR_TRUE);
      break;
    case TL_JSON_SCALAR_NULL:
      json_node_init_null (node);
      break;
    }
  if (copy != buf)
    g_free (copy);
  return attach (b, node, error);
}

static gsize
builder_pending (gpointer self)
{
  Builder *b = self;
  return b->depth > 0 && b->frames[b->depth - 1].candidate ? b->n : 0;
}

/* The candidate closes with n values: packed, its array a placeholder. */
static void
lift (Builder *b, Frame *f)
{
  TlJsonPacked *pa = g_new0 (TlJsonPacked, 1);
  pa->kind = b->kind;
  pa->n = b->n;
  pa->first_string = MIN (b->first_string, b->n);
  pa->ints = g_realloc (b->values, b->n * value_size (b->kind)); /* shrinks: never fails */
  pa->int_bits = b->int_bits ? g_realloc (b->int_bits, (b->n + 7) / 8) : NULL;
  b->values = NULL;
  b->int_bits = NULL;
  b->cap = 0;
  g_autofree char *marker = g_strdup_printf (MARKER_PREFIX "%016" G_GINT64_MODIFIER "x:%u",
                                             b->key, b->packed->len);
  json_array_add_string_element (json_node_get_array (f->node), marker);
  g_ptr_array_add (b->packed, pa);
}

static gsize
builder_close (gpointer self)
{
  Builder *b = self;
  Frame *f = &b->frames[--b->depth];
  g_clear_pointer (&f->key, g_free);
  if (!f->candidate)
    return 0;
  gsize lifted = b->n;
  if (b->n >= TL_JSON_PACK_MIN)
    lift (b, f);
  else
    spill (b, f, NULL), lifted = 0; /* fewer than TL_JSON_PACK_MIN: within every bound */
  f->candidate = FALSE;
  return lifted;
}

/* ---- documents --------------------------------------------------------------- */

/* A store under a key no live store has. */
static TlJsonPackStore *
store_new (void)
{
  TlJsonPackStore *store = g_new0 (TlJsonPackStore, 1);
  store->ref_count = 1;
  store->packed = g_ptr_array_new_with_free_func (packed_free);
  G_LOCK (stores);
  if (stores == NULL)
    stores = g_hash_table_new (g_int64_hash, g_int64_equal);
  do
    store->key = ((guint64) g_random_int () << 32) | g_random_int ();
  while (store->key == 0 || g_hash_table_contains (stores, &store->key));
  g_hash_table_insert (stores, &store->key, store);
  G_UNLOCK (stores);
  return store;
}

TlJsonPackStore *
tl_json_pack_store_ref (TlJsonPackStore *store)
{
  g_atomic_int_inc (&store->ref_count);
  return store;
}

void
tl_json_pack_store_unref (TlJsonPackStore *store)
{
  if (store == NULL || !g_atomic_int_dec_and_test (&store->ref_count))
    return;
  G_LOCK (stores);
  g_hash_table_remove (stores, &store->key);
  G_UNLOCK (stores);
  g_ptr_array_unref (store->packed);
  g_free (store);
}

void
tl_json_doc_free (TlJsonDoc *doc)
{
  if (doc == NULL)
    return;
  g_clear_pointer (&doc->root, json_node_unref);
  tl_json_pack_store_unref (doc->store);
  g_free (doc);
}

JsonNode *
tl_json_doc_root (TlJsonDoc *doc)
{
  g_return_val_if_fail (doc != NULL, NULL);
  return doc->root;
}

/* The tree of the text (data, or fd read to its end when fd ≥ 0). */
static TlJsonDoc *
doc_build (const char *data, gsize length, int fd, GError **error)
{
  g_autoptr (TlJsonDoc) doc = g_new0 (TlJsonDoc, 1);
  doc->store = store_new ();
  g_autofree Builder *b = g_new0 (Builder, 1);
  b->packed = doc->store->packed;
  b->key = doc->store->key;
  const TlJsonScanHooks hooks = { builder_open, builder_member, builder_scalar, builder_close,
                                  builder_pending, b };
  gboolean ok = fd >= 0 ? tl_json_scan_fd (fd, &hooks, error)
                        : tl_json_check_text_hooked (data, length, &hooks, error);
  for (guint d = 0; d < b->depth; d++)
    g_free (b->frames[d].key);
  g_free (b->values);
  g_free (b->int_bits);
  if (!ok)
    {
      g_clear_pointer (&b->root, json_node_unref);
      return NULL;
    }
  doc->root = b->root;
  g_debug ("JSON: parsed %" G_GSIZE_FORMAT " bytes, %u arrays packed", length, doc->store->packed->len);
  return g_steal_pointer (&doc);
}

TlJsonDoc *
tl_json_doc_parse (const char *data, gsize length, GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  return doc_build (data, length, -1, error);
}

TlJsonDoc *
tl_json_doc_load_file (const char *path, GError **error)
{
  guint64 size = 0;
  int fd = tl_file_open_regular (path, &size, error);
  if (fd < 0)
    return NULL;
  g_autoptr (GError) local = NULL;
  TlJsonDoc *doc = NULL;
  if (size > TL_JSON_MAX_BYTES)
    {
      g_autofree char *have = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (TL_JSON_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (&local, TL_ERROR, TL_ERROR_TOO_LARGE,
                   _("the JSON text is %s, more than the limit of %s"), have, limit);
    }
  else
    doc = doc_build (NULL, (gsize) size, fd, &local);
  close (fd);
  if (doc == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      g_set_error (error, TL_ERROR, local->code, "%s: %s", name, local->message);
    }
  return doc;
}

/* The store and index a placeholder's text names (NULL when none). */
static TlJsonPackStore *
marker_store (const char *text, guint64 *index)
{
  if (!g_str_has_prefix (text, MARKER_PREFIX))
    return NULL;
  char *end = NULL;
  guint64 key = g_ascii_strtoull (text + strlen (MARKER_PREFIX), &end, 16);
  if (end == NULL || *end != ':')
    return NULL;
  *index = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0')
    return NULL;
  G_LOCK (stores);
  TlJsonPackStore *store = stores ? g_hash_table_lookup (stores, &key) : NULL;
  G_UNLOCK (stores);
  return store;
}

const TlJsonPacked *
tl_json_packed_of_marker (const char *text)
{
  guint64 index = 0;
  TlJsonPackStore *store = marker_store (text, &index);
  if (store == NULL || index >= store->packed->len)
    return NULL;
  return store->packed->pdata[index];
}

/* The placeholder's text when array is one, else NULL. */
static const char *
marker_of (JsonArray *array)
{
  if (array == NULL || json_array_get_length (array) != 1)
    return NULL;
  JsonNode *node = json_array_get_element (array, 0);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

const TlJsonPacked *
tl_json_packed_of (JsonArray *array)
{
  const char *text = marker_of (array);
  return text ? tl_json_packed_of_marker (text) : NULL;
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
    json_array_add_element (array, packed_node (pa, i));
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

typedef struct
{
  TlJsonPackStore *store;
  gboolean *keep;
} Hold;

static void
hold_array (JsonArray *array, gpointer data)
{
  Hold *h = data;
  const char *text = marker_of (array);
  guint64 index = 0;
  TlJsonPackStore *store = text ? marker_store (text, &index) : NULL;
  if (store == NULL || index >= store->packed->len || store->packed->pdata[index] == NULL)
    return;
  if (h->store == NULL)
    {
      h->store = tl_json_pack_store_ref (store);
      h->keep = g_new0 (gboolean, store->packed->len);
    }
  if (store == h->store)
    h->keep[index] = TRUE;
}

TlJsonPackStore *
tl_json_pack_store_hold (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);
  Hold h = { NULL, NULL };
  each_array (node, hold_array, &h);
  if (h.store == NULL)
    return NULL;
  GPtrArray *packed = h.store->packed;
  for (guint i = 0; i < packed->len; i++)
    if (!h.keep[i] && packed->pdata[i] != NULL)
      {
        packed_free (packed->pdata[i]);
        packed->pdata[i] = NULL;
      }
  g_free (h.keep);
  return h.store;
}
