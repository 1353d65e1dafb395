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

#include "core/tl-json-write.h"
#include "lu/tl-lu-recorder.h"

G_BEGIN_DECLS

#define TL_LU_RECORD_SCHEMA 1
/* The largest GF(p) modulus a record may name: tl-gfp.h's TL_GFP_MAX_PRIME,
 * 2³¹ − 1, so the product of two residues fits in 64 bits. */
#define TL_LU_RECORD_MAX_MODULUS G_GINT64_CONSTANT (2147483647)

JsonNode     *tl_lu_recorder_to_json   (const TlLuRecorder *self);
/* The record written to out value by value, no tree in between (a save
 * streams it: tl_lu_recorder_save, tl_lu_run_record_save). */
void          tl_lu_recorder_write     (const TlLuRecorder *self, TlJsonOut *out);
TlLuRecorder *tl_lu_recorder_from_json (JsonNode *node, GError **error);
gboolean      tl_lu_recorder_save      (const TlLuRecorder *self, const char *path, GError **error);

/* The record in parts, for a stream (the worker protocol sends a
 * recording so, docs/remote.md): its head — the object without its lists
 * "steps", "blocks" and "snapshots" — and then each element of those
 * lists on its own.  Read back the same way: a recorder begun from the
 * head takes the elements in order (each checked as it comes) and is
 * checked whole at the end, as tl_lu_recorder_from_json checks a record. */
typedef enum
{
  TL_LU_PART_STEP,
  TL_LU_PART_BLOCK,
  TL_LU_PART_SNAPSHOT,
  TL_LU_N_PARTS
} TlLuRecordPart;

JsonNode     *tl_lu_recorder_head_to_json    (const TlLuRecorder *self);
guint         tl_lu_recorder_n_parts         (const TlLuRecorder *self, TlLuRecordPart part);
/* How many numbers element index of the list part holds. */
gsize         tl_lu_recorder_part_values     (const TlLuRecorder *self, TlLuRecordPart part,
                                              guint index);
/* Adds element index of the list part as a value to builder.  values:
 * NULL writes its numbers into the JSON, as a file has them; otherwise
 * they are appended to values (little-endian float64, exact and far
 * cheaper to write and read than decimal text) and the JSON says only
 * how many ("len" in place of "data"). */
void          tl_lu_recorder_add_part        (JsonBuilder *builder, const TlLuRecorder *self,
                                              TlLuRecordPart part, guint index,
                                              GByteArray *values);
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
