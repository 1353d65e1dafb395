/* tl-gauss-record.h — the Gauss step record: a TlLuRecorder as JSON and back.
 *
 * The recorder (lu/tl-lu-recorder.h) collects the steps of an elimination;
 * this is its file form, a self-contained object {"kind": "lu", "schema": 1,
 * …} that docs/gauss-record.md describes.  It travels bare, or inside a run
 * record as $.extensions.lu (tl-lu-record.h).  Reading checks every number
 * before it becomes an index, a size or an integer, and then what the
 * numbers say together: a record that loads can be replayed.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "lu/tl-lu-recorder.h"
/* writing: the record whole (tl_lu_recorder_to_json) or in parts */
#include "record/tl-gauss-record-write.h"

G_BEGIN_DECLS

/* The largest GF(p) modulus a record may name: tl-gfp.h's TL_GFP_MAX_PRIME,
 * 2³¹ − 1, so the product of two residues fits in 64 bits. */
#define TL_LU_RECORD_MAX_MODULUS G_GINT64_CONSTANT (2147483647)

TlLuRecorder *tl_lu_recorder_from_json (JsonNode *node, GError **error);
gboolean      tl_lu_recorder_save      (const TlLuRecorder *self, const char *path, GError **error);

/* A recording read in parts, as tl-gauss-record-write.h writes them for a
 * stream: a recorder begun from the head takes the elements in order
 * (each checked as it comes) and is checked whole at the end, as
 * tl_lu_recorder_from_json checks a record. */
TlLuRecorder *tl_lu_recorder_begin_from_json (JsonNode *head, GError **error);
/* values: the bytes written beside the part (NULL: its numbers are in
 * the JSON), read from *used on, which moves past those it takes (parts
 * written one after another into one values are read so in turn). */
gboolean      tl_lu_recorder_take_part_json  (TlLuRecorder *self, TlLuRecordPart part,
                                              JsonNode *node, GBytes *values, gsize *used,
                                              GError **error);
gboolean      tl_lu_recorder_end_from_json   (TlLuRecorder *self, GError **error);
/* Reads a bare {"kind": "lu"} document or a run record holding
 * $.extensions.lu, through tl_json_parse (strict JSON, bounded size and
 * depth); from a regular file (never blocking) or from memory. */
TlLuRecorder *tl_lu_recorder_load      (const char *path, GError **error);
TlLuRecorder *tl_lu_recorder_from_data (const char *data, gsize length, GError **error);

G_END_DECLS
