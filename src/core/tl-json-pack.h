/* tl-json-pack.h — JSON documents whose long arrays of numbers stay packed.
 *
 * A run or Gauss record's bulk is long arrays of numbers (block timings,
 * samples, the Gauss record's columns and snapshots).  json-glib spends
 * about 80 bytes a number on its tree; a record of 16 MB became a tree of
 * 250 MB.  tl_json_doc_parse reads the text once with the strict scanner
 * of tl-json-check.h and, as it goes, lifts every array of at least
 * TL_JSON_PACK_MIN numbers of one kind out of the text: all integers
 * become one block of int64, all other numbers (with the strings "nan",
 * "inf" and "-inf" that stand for what JSON cannot write) one block of
 * double — 8 bytes a number, asked of the memory budget as the block
 * grows.  json-glib then builds the tree of what is left, where each
 * lifted array is a one-element placeholder that only this document's
 * accessors recognise (its key is random per document).
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
    gint64 *ints;
    double *doubles;
  };
  gsize first_string; /* DOUBLE: the first element that was a string; n when none */
} TlJsonPacked;

typedef struct _TlJsonDoc TlJsonDoc;

/* Strict JSON (tl_json_check_text's rules and messages) with its long
 * arrays of numbers packed; TL_ERROR_PARSE or TL_ERROR_TOO_LARGE. */
TlJsonDoc *tl_json_doc_parse     (const char *data, gsize length, GError **error);
/* A regular file (core/tl-file.h), its text freed once it is scanned;
 * messages start with the path. */
TlJsonDoc *tl_json_doc_load_file (const char *path, GError **error);
/* The tree (owned by the document, placeholders and all). */
JsonNode  *tl_json_doc_root      (TlJsonDoc *doc);
void       tl_json_doc_free      (TlJsonDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlJsonDoc, tl_json_doc_free)

/* The packed array array stands for, or NULL when it is an ordinary one
 * (or a placeholder of a document already freed). */
const TlJsonPacked *tl_json_packed_of (JsonArray *array);

/* Makes every placeholder under node an ordinary array again, in place,
 * after asking the budget for the tree it becomes ("the JSON document as
 * a tree needs …").  FALSE with TL_ERROR_TOO_LARGE when it does not fit. */
gboolean   tl_json_doc_unpack    (JsonNode *node, GError **error);

G_END_DECLS
