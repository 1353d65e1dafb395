/* tl-json-write.h — JSON written as it is produced: to a file, to memory,
 * or into a json-glib tree, through one set of calls.
 *
 * A record of millions of block timings or Gauss values used to become a
 * json-glib tree (about 80 bytes a number), then text, then the text
 * again with its packed arrays spelled out.  A TlJsonOut writes each
 * value as it comes: to a FILE (a save's temporary, core/tl-save.h) a
 * buffer at a time, so what a save holds besides the record is one
 * buffer.  The same calls build a tree when a tree is what is wanted (the
 * remote wire's messages).
 *
 * The text is json-glib 1.6's, byte for byte, where json-glib's is valid
 * JSON: pretty is one value per line, one space per level, "name" : value,
 * an empty object "{ }" padded to its level; compact has no whitespace.
 * Doubles are "%.17g" with ".0" when that has no point and no exponent
 * (json-glib also puts ".0" after an exponent, "1e+22.0", which is not
 * JSON); what JSON cannot write is the string "nan", "inf" or "-inf"
 * (core/tl-json-read.h's tl_json_get_value reads them back); control
 * characters in strings are escaped, U+001F included (json-glib writes
 * it raw, which no strict reader takes).  A packed array
 * (core/tl-json-pack.h) is written as the numbers it holds, laid out as
 * the same array in a tree would be, so write → read → write gives the
 * same bytes.
 */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _TlJsonOut TlJsonOut;

/* Into builder (borrowed): values are added to it as json-glib's own
 * calls would add them. */
TlJsonOut *tl_json_out_new_builder (JsonBuilder *builder);
/* Text to file (borrowed; a write error shows in ferror (file)). */
TlJsonOut *tl_json_out_new_file    (FILE *file, gboolean pretty);
/* Text into memory: tl_json_out_free_to_text. */
TlJsonOut *tl_json_out_new_text    (gboolean pretty);
/* Flushes a file's last buffer; frees out.  NULL is fine. */
void       tl_json_out_free         (TlJsonOut *out);
/* The text written (g_free), its length in *length when not NULL; frees out. */
char      *tl_json_out_free_to_text (TlJsonOut *out, gsize *length);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlJsonOut, tl_json_out_free)

void tl_json_out_begin_object (TlJsonOut *out);
void tl_json_out_end_object   (TlJsonOut *out);
void tl_json_out_begin_array  (TlJsonOut *out);
void tl_json_out_end_array    (TlJsonOut *out);
/* The name of the member whose value comes next. */
void tl_json_out_member       (TlJsonOut *out, const char *name);
void tl_json_out_int          (TlJsonOut *out, gint64 value);
/* A number when finite, else the string "nan", "inf" or "-inf". */
void tl_json_out_double       (TlJsonOut *out, double value);
void tl_json_out_string       (TlJsonOut *out, const char *value);
void tl_json_out_bool         (TlJsonOut *out, gboolean value);
void tl_json_out_null         (TlJsonOut *out);
/* A tree (copied into a builder; written out, its packed arrays as their
 * numbers). */
void tl_json_out_node         (TlJsonOut *out, JsonNode *node);

/* "name": value, inside an object; a NULL string is left out. */
void tl_json_out_member_int    (TlJsonOut *out, const char *name, gint64 value);
void tl_json_out_member_bool   (TlJsonOut *out, const char *name, gboolean value);
void tl_json_out_member_string (TlJsonOut *out, const char *name, const char *value);
void tl_json_out_member_double (TlJsonOut *out, const char *name, double value);

G_END_DECLS
