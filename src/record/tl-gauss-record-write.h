/* tl-gauss-record-write.h — the Gauss step record written as JSON: whole,
 * or in parts for a stream.
 *
 * The whole record is the file form docs/gauss-record.md describes.  In
 * parts (the worker protocol sends a recording so, docs/remote.md): its
 * head — the object without its lists "steps", "blocks" and "snapshots" —
 * and then each element of those lists on its own; tl-gauss-record.h
 * reads them back the same way.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "lu/tl-lu-recorder.h"

G_BEGIN_DECLS

#define TL_LU_RECORD_SCHEMA 1

typedef enum
{
  TL_LU_PART_STEP,
  TL_LU_PART_BLOCK,
  TL_LU_PART_SNAPSHOT,
  TL_LU_N_PARTS
} TlLuRecordPart;

JsonNode     *tl_lu_recorder_to_json         (const TlLuRecorder *self);
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

G_END_DECLS
