/* tl-json-pack.h — JSON documents built straight from a streaming scan,
 * their long arrays of numbers packed.
 *
 * A run or Gauss record's bulk is long arrays of numbers (block timings,
 * samples, the Gauss record's columns and snapshots).  json-glib spends
 * about 80 bytes a number on its tree; a record of 16 MB became a tree of
 * 250 MB.  tl_json_doc_load_file reads a file through the strict scanner
 * of tl-json-check.h a window at a time (the text is never held whole)
 * and builds the tree as it reads, no json-glib parser involved; every
 * array of at least TL_JSON_PACK_MIN numbers stays out of the tree: all
 * integers become one block of int32 while every one fits (4 bytes a
 * number: a block record's coordinates, units and most of its times),
 * else of int64, other numbers (with the strings
 * "nan", "inf" and "-inf" that stand for what JSON cannot write, and
 * integers within ±2⁵³ among doubles) one block of double — 8 bytes a
 * number (4 for int32), asked of the memory budget as the block grows.  In the tree
 * each packed array is a one-element placeholder that only this
 * document's accessors recognise (its key is random per document).  What
 * stays a tree is bounded (tl-json-check.h: TL_JSON_MAX_TREE_VALUES,
 * TL_JSON_MAX_TREE_ARRAY) and priced against the budget as it grows.
 *
 * Readers reach arrays through the accessors of core/tl-json-read.h
 * (tl_json_array_length, tl_json_array_element, tl_json_array_uints,
 * tl_json_array_values, tl_json_array_numbers), which read a packed array
 * as they read any other, with the same errors at the same index.  What
 * leaves a reader as a tree (a run record's free-form extensions) is
 * first made whole again with tl_json_doc_unpack, the tree it becomes
 * asked of the budget.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "core/tl-json-check.h"

G_BEGIN_DECLS

/* Arrays shorter than this stay in the tree. */
#define TL_JSON_PACK_MIN 32

typedef enum
{
  TL_JSON_PACKED_INT32,  /* every element a JSON integer within 32 bits */
  TL_JSON_PACKED_INT,    /* every element a JSON integer (in 64 bits) */
  TL_JSON_PACKED_DOUBLE, /* every element a number with a point or an exponent,
                            or "nan", "inf", "-inf" */
} TlJsonPackedKind;

typedef struct
{
  TlJsonPackedKind kind;
  gsize n;
  union
  {
    gint32 *ints32;
    gint64 *ints;
    double *doubles;
  };
  gsize first_string; /* DOUBLE: the first element that was a string; n when none */
  guint8 *int_bits;   /* DOUBLE: bit i set when element i was written as an integer
                         (integers and doubles mixed); NULL when none was */
} TlJsonPacked;

/* Element i of a packed array was written as an integer. */
static inline gboolean
tl_json_packed_was_int (const TlJsonPacked *pa, gsize i)
{
  return pa->kind != TL_JSON_PACKED_DOUBLE
         || (pa->int_bits != NULL && (pa->int_bits[i / 8] >> (i % 8)) & 1);
}

/* Element i as an integer (of an element that was one: exact). */
static inline gint64
tl_json_packed_int (const TlJsonPacked *pa, gsize i)
{
  return pa->kind == TL_JSON_PACKED_INT32 ? pa->ints32[i]
         : pa->kind == TL_JSON_PACKED_INT ? pa->ints[i] : (gint64) pa->doubles[i];
}

/* Element i as a double. */
static inline double
tl_json_packed_double (const TlJsonPacked *pa, gsize i)
{
  return pa->kind == TL_JSON_PACKED_DOUBLE ? pa->doubles[i] : (double) tl_json_packed_int (pa, i);
}

typedef struct _TlJsonDoc TlJsonDoc;
typedef struct _TlJsonPackStore TlJsonPackStore;

/* Strict JSON (tl_json_check_text's rules and messages) with its long
 * arrays of numbers packed; TL_ERROR_PARSE or TL_ERROR_TOO_LARGE. */
TlJsonDoc *tl_json_doc_parse     (const char *data, gsize length, GError **error);
/* A regular file (core/tl-file.h, never blocks), read a window at a time
 * while its tree is built; messages start with the path. */
TlJsonDoc *tl_json_doc_load_file (const char *path, GError **error);
/* The tree (owned by the document, placeholders and all). */
JsonNode  *tl_json_doc_root      (TlJsonDoc *doc);
void       tl_json_doc_free      (TlJsonDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlJsonDoc, tl_json_doc_free)

/* The packed array array stands for, or NULL when it is an ordinary one
 * (or a placeholder of a document already freed). */
const TlJsonPacked *tl_json_packed_of (JsonArray *array);

/* The packed array a placeholder's text names, or NULL (the writer's
 * side: core/tl-json-write.h writes a held placeholder as its numbers). */
const TlJsonPacked *tl_json_packed_of_marker (const char *text);

/* Keeps the packed arrays under node alive beyond their document, for
 * what keeps part of the tree (a run record's extensions: 8 bytes a
 * number rather than a tree's 80); the document's other packed arrays
 * are freed, so call it once they are read.  core/tl-json-write.h writes
 * them as the numbers they are.  NULL when node holds none. */
TlJsonPackStore *tl_json_pack_store_hold  (JsonNode *node);
TlJsonPackStore *tl_json_pack_store_ref   (TlJsonPackStore *store);
void             tl_json_pack_store_unref (TlJsonPackStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlJsonPackStore, tl_json_pack_store_unref)

/* Makes every placeholder under node an ordinary array again, in place,
 * after asking the budget for the tree it becomes ("the JSON document as
 * a tree needs …").  FALSE with TL_ERROR_TOO_LARGE when it does not fit. */
gboolean   tl_json_doc_unpack    (JsonNode *node, GError **error);

G_END_DECLS
