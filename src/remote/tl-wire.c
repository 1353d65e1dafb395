/* tl-wire.c — the worker protocol's messages, as they travel. */
#include "remote/tl-wire.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-json-read.h"
#include "io/tl-npy.h"
#include "record/tl-gauss-record.h"
#include "record/tl-record.h"
#include "tl-config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (tl-remote-error-quark, tl_remote_error)

/* ---- messages ------------------------------------------------------------- */

JsonBuilder *
tl_wire_begin (const char *type)
{
  JsonBuilder *b = json_builder_new ();
  json_builder_begin_object (b);
  tl_json_member_string (b, "type", type);
  return b;
}

GBytes *
tl_wire_end (JsonBuilder *builder)
{
  json_builder_end_object (builder);
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_object_unref (builder);
  gsize length = 0;
  char *text = tl_json_to_data (root, FALSE, &length);
  /* the generator never writes a raw newline: strings escape it */
  text = g_realloc (text, length + 1);
  text[length] = '\n';
  return g_bytes_new_take (text, length + 1);
}

/* The start of a line, to name a message that could not be read: up to
 * 48 bytes, what is not printable UTF-8 as '?' (g_free). */
static char *
line_start (const char *line, gsize length)
{
  g_autofree char *valid = g_utf8_make_valid (line, (gssize) MIN (length, 48));
  for (char *p = valid; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return g_strdup_printf ("%s%s", valid, length > 48 ? "…" : "");
}

JsonObject *
tl_wire_parse_packed (const char *line, gsize length, const char **type,
                      TlJsonPackStore **arrays, GError **error)
{
  /* read as records are (core/tl-json-pack.h): strict JSON within the
   * bounds on depth, string size, values and array lengths, long arrays
   * of numbers packed as they are read and priced against the memory
   * budget as they grow — a broken or hostile peer gets a message
   * refused, never memory without bound */
  g_autoptr (GError) local = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (line, length, &local);
  JsonNode *root = doc ? tl_json_doc_root (doc) : NULL;
  /* without a hold, the tree the packed arrays make, priced first */
  if (root != NULL && arrays == NULL && !tl_json_doc_unpack (root, &local))
    root = NULL;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *start = line_start (line, length);
      g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                   _("a message that is not a JSON object (%s; %s, beginning “%s”)"),
                   local ? local->message : _("another JSON value"), size, start);
      return NULL;
    }
  JsonObject *object = json_node_get_object (root);
  const char *t = tl_json_object_get_string (object, "type", NULL);
  if (t == NULL)
    {
      g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                           _("a message without a “type”"));
      return NULL;
    }
  *type = t;
  /* the object outlives its document: its packed arrays with it, held */
  if (arrays)
    *arrays = tl_json_pack_store_hold (root);
  return json_object_ref (object);
}

JsonObject *
tl_wire_parse (const char *line, gsize length, const char **type, GError **error)
{
  return tl_wire_parse_packed (line, length, type, NULL, error);
}

gint64
tl_wire_get_count (JsonObject *object, const char *name, gint64 fallback)
{
  JsonNode *node = json_object_get_member (object, name);
  if (!tl_json_node_is_int (node) || json_node_get_int (node) < 0)
    return fallback;
  return json_node_get_int (node);
}

/* ---- versions -------------------------------------------------------------- */

void
tl_wire_add_versions (JsonBuilder *b)
{
  tl_json_member_int (b, "protocol", TL_WIRE_PROTOCOL);
  tl_json_member_string (b, "schema", TL_RUN_RECORD_SCHEMA);
  tl_json_member_int (b, "gauss_schema", TL_LU_RECORD_SCHEMA);
  tl_json_member_string (b, "version", TL_VERSION);
}

gboolean
tl_wire_check_versions (JsonObject *hello, const char *who, GError **error)
{
  gint64 protocol = tl_wire_get_count (hello, "protocol", -1);
  gint64 gauss = tl_wire_get_count (hello, "gauss_schema", -1);
  const char *schema = tl_json_object_get_string (hello, "schema", "?");
  const char *version = tl_json_object_get_string (hello, "version", "?");
  if (protocol == TL_WIRE_PROTOCOL && gauss == TL_LU_RECORD_SCHEMA
      && strcmp (schema, TL_RUN_RECORD_SCHEMA) == 0)
    return TRUE;
  g_autofree char *sides = g_strdup_printf (
    _("%s is Tilelab %s, which speaks worker protocol %" PRId64 " with run records %s and Gauss "
      "records %" PRId64 "; this Tilelab %s speaks protocol %d with %s and %d."),
    who, version, protocol, schema, gauss, TL_VERSION, TL_WIRE_PROTOCOL, TL_RUN_RECORD_SCHEMA,
    TL_LU_RECORD_SCHEMA);
  /* one version number, two protocols: builds of different sources */
  const char *advice = strcmp (version, TL_VERSION) == 0
                         ? _("Both carry the same version number but were built from different "
                             "sources: install the same build on both.")
                         : _("Install the same Tilelab version on both.");
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_VERSION, "%s %s", sides, advice);
  return FALSE;
}

/* ---- errors ------------------------------------------------------------------ */

static const char *const remote_error_names[] = {
  "unreachable", "host-key", "auth", "no-worker", "version", "launcher", "lost", "timeout",
  "protocol",
};

void
tl_wire_add_error (JsonBuilder *b, const GError *error)
{
  const char *domain = "other", *code = "other";
  if (error->domain == TL_ERROR)
    {
      domain = "tilelab";
      code = tl_run_error_code_name (error->code);
    }
  else if (error->domain == TL_REMOTE_ERROR && error->code >= 0
           && error->code < (int) G_N_ELEMENTS (remote_error_names))
    {
      domain = "remote";
      code = remote_error_names[error->code];
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    domain = code = "cancelled";
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  tl_json_member_string (b, "domain", domain);
  tl_json_member_string (b, "code", code);
  tl_json_member_string (b, "message", error->message);
  json_builder_end_object (b);
}

GError *
tl_wire_get_error (JsonObject *object)
{
  JsonNode *node = object ? json_object_get_member (object, "error") : NULL;
  JsonObject *e = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *domain = e ? tl_json_object_get_string (e, "domain", "other") : "other";
  const char *code = e ? tl_json_object_get_string (e, "code", "other") : "other";
  const char *message = e ? tl_json_object_get_string (e, "message", NULL) : NULL;
  if (message == NULL)
    message = _("the worker failed without saying why");

  if (strcmp (domain, "cancelled") == 0)
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, message);
  if (strcmp (domain, "remote") == 0)
    for (guint i = 0; i < G_N_ELEMENTS (remote_error_names); i++)
      if (strcmp (code, remote_error_names[i]) == 0)
        return g_error_new_literal (TL_REMOTE_ERROR, i, message);
  int tl_code = strcmp (domain, "tilelab") == 0 ? tl_run_error_code_from_name (code) : -1;
  return g_error_new_literal (TL_ERROR, tl_code >= 0 ? tl_code : TL_ERROR_INVALID, message);
}

/* ---- matrices ---------------------------------------------------------------- */

/* Room for the NPY header beside the data: NumPy pads it to a multiple of
 * 64 bytes; a header of version 1 has at most 65535. */
#define NPY_HEADER_ROOM (64 * 1024 + 16)
/* the stdio buffer of an NPY stream in memory */
#define WIRE_STREAM_BUFFER (64 * 1024)

GBytes *
tl_wire_matrix_to_npy (const TlMatrix *matrix, GError **error)
{
  /* the header this protocol writes, then the rows: one buffer of its
   * final size, each byte written once */
  g_autoptr (GBytes) header = tl_wire_npy_header (matrix->dtype, matrix->rows, matrix->cols);
  gsize header_size = g_bytes_get_size (header);
  gsize row_bytes = matrix->cols * tl_dtype_size (matrix->dtype);
  char *data = g_try_malloc (header_size + row_bytes * matrix->rows + 1);
  if (data == NULL)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                           _("no memory for the matrix's NPY bytes"));
      return NULL;
    }
  memcpy (data, g_bytes_get_data (header, NULL), header_size);
  if (tl_matrix_is_contiguous (matrix))
    memcpy (data + header_size, matrix->data, row_bytes * matrix->rows);
  else
    for (gsize i = 0; i < matrix->rows; i++)
      memcpy (data + header_size + i * row_bytes, tl_matrix_row (matrix, i), row_bytes);
  return g_bytes_new_take (data, header_size + row_bytes * matrix->rows);
}

char *
tl_wire_matrix_sha256 (const TlMatrix *matrix)
{
  g_autoptr (GBytes) header = tl_wire_npy_header (matrix->dtype, matrix->rows, matrix->cols);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, g_bytes_get_data (header, NULL), g_bytes_get_size (header));
  gsize row_bytes = matrix->cols * tl_dtype_size (matrix->dtype);
  if (tl_matrix_is_contiguous (matrix))
    g_checksum_update (sum, matrix->data, row_bytes * matrix->rows);
  else
    for (gsize i = 0; i < matrix->rows; i++)
      g_checksum_update (sum, (const guchar *) tl_matrix_row (matrix, i), row_bytes);
  char *hex = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return hex;
}

TlMatrix *
tl_wire_matrix_from_npy (GBytes *npy, const char *name, GError **error)
{
  gsize size = 0;
  const void *data = g_bytes_get_data (npy, &size);
  if (size == 0)
    {
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL, _("%s: no bytes"), name);
      return NULL;
    }
  FILE *f = fmemopen ((void *) data, size, "rb");
  if (f == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY, _("%s: cannot read its bytes"), name);
      return NULL;
    }
  /* as for writing: unbuffered, the bytes would come one by one through
   * the stream's one-byte buffer (0.29 s for 4 MB, against 0.3 ms) */
  setvbuf (f, NULL, _IOFBF, WIRE_STREAM_BUFFER);
  TlMatrix *m = tl_npy_load_stream (name, f, size, NULL, error);
  fclose (f);
  return m;
}

/* ---- matrices straight from and into their rows ------------------------------ */

GBytes *
tl_wire_npy_header (TlDtype dtype, gsize rows, gsize cols)
{
  static const char *const descr[TL_DTYPE_COUNT] = { "<i4", "<f4", "<f8" };
  g_return_val_if_fail ((guint) dtype < TL_DTYPE_COUNT, NULL);
  g_autofree char *dict = g_strdup_printf ("{'descr': '%s', 'fortran_order': False, "
                                           "'shape': (%zu, %zu), }",
                                           descr[dtype], rows, cols);
  /* magic, version 1.0, the length (16 bits, little-endian), the dict
   * padded with spaces and a newline so the data starts on a 64-byte
   * boundary, as NumPy writes it */
  gsize dict_len = strlen (dict);
  gsize total = (10 + dict_len + 1 + 63) / 64 * 64;
  guint8 *h = g_malloc (total);
  memcpy (h, "\x93NUMPY\x01\x00", 8);
  h[8] = (guint8) ((total - 10) & 0xff);
  h[9] = (guint8) ((total - 10) >> 8);
  memcpy (h + 10, dict, dict_len);
  memset (h + 10 + dict_len, ' ', total - 10 - dict_len - 1);
  h[total - 1] = '\n';
  return g_bytes_new_take (h, total);
}

void
tl_wire_add_matrix_form (JsonBuilder *b, const TlMatrix *m)
{
  g_autoptr (GBytes) header = tl_wire_npy_header (m->dtype, m->rows, m->cols);
  gsize header_size = g_bytes_get_size (header);
  tl_json_member_string (b, "dtype", tl_dtype_name (m->dtype));
  json_builder_set_member_name (b, "shape");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, (gint64) m->rows);
  json_builder_add_int_value (b, (gint64) m->cols);
  json_builder_end_array (b);
  tl_json_member_int (b, "header", (gint64) header_size);
  tl_json_member_int (b, "bytes", (gint64) (header_size + tl_matrix_n_bytes (m)));
}

gboolean
tl_wire_write_matrix (GOutputStream *out, const TlMatrix *m, GError **error)
{
  g_autoptr (GBytes) header = tl_wire_npy_header (m->dtype, m->rows, m->cols);
  gsize size = 0;
  const void *h = g_bytes_get_data (header, &size);
  if (!g_output_stream_write_all (out, h, size, NULL, NULL, error))
    return FALSE;
  gsize row_bytes = m->cols * tl_dtype_size (m->dtype);
  if (tl_matrix_is_contiguous (m))
    return g_output_stream_write_all (out, m->data, row_bytes * m->rows, NULL, NULL, error);
  for (gsize i = 0; i < m->rows; i++)
    if (!g_output_stream_write_all (out, tl_matrix_row (m, i), row_bytes, NULL, NULL, error))
      return FALSE;
  return TRUE;
}

TlMatrix *
tl_wire_matrix_for_message (JsonObject *msg, gsize *header, GError **error)
{
  TlDtype dtype;
  JsonNode *node = json_object_get_member (msg, "shape");
  JsonArray *shape = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  guint64 dims[2];
  gint64 head = tl_wire_get_count (msg, "header", -1);
  gint64 bytes = tl_wire_get_count (msg, "bytes", -1);
  if (!tl_dtype_from_name (tl_json_object_get_string (msg, "dtype", ""), &dtype)
      || shape == NULL || json_array_get_length (shape) != 2
      || !tl_json_array_uints (shape, "$.shape", G_MAXUINT32, dims, NULL)
      || head < 10 || head > NPY_HEADER_ROOM || bytes < head)
    return NULL;
  guint64 data_bytes = 0;
  if (!tl_matrix_check_size (dtype, dims[0], dims[1], &data_bytes, error))
    return NULL;
  if ((guint64) (bytes - head) != data_bytes)
    return NULL;
  *header = (gsize) head;
  return tl_matrix_new (dtype, dims[0], dims[1], error);
}

gboolean
tl_wire_check_npy_header (const TlMatrix *m, const void *header, gsize length)
{
  g_autoptr (GBytes) want = tl_wire_npy_header (m->dtype, m->rows, m->cols);
  gsize size = 0;
  const void *w = g_bytes_get_data (want, &size);
  return size == length && memcmp (w, header, length) == 0;
}

void
tl_wire_widen_pipe (int fd)
{
#ifdef F_SETPIPE_SZ
  /* the system's cap (/proc/sys/fs/pipe-max-size) may be lower: then the
   * call fails and the pipe keeps its size */
  (void) fcntl (fd, F_SETPIPE_SZ, 1 << 20);
#endif
}

/* ---- a Gauss step recording as a stream ---------------------------------- */

const char *const tl_wire_gauss_parts[TL_LU_N_PARTS] = { "step", "block", "snapshot" };

JsonBuilder *
tl_wire_gauss_record (const TlLuRecorder *recorder)
{
  JsonBuilder *b = tl_wire_begin ("gauss-record");
  json_builder_set_member_name (b, "head");
  json_builder_add_value (b, tl_lu_recorder_head_to_json (recorder));
  json_builder_set_member_name (b, "parts");
  json_builder_begin_object (b);
  for (int part = 0; part < TL_LU_N_PARTS; part++)
    tl_json_member_int (b, tl_wire_gauss_parts[part], tl_lu_recorder_n_parts (recorder, part));
  json_builder_end_object (b);
  return b;
}

JsonBuilder *
tl_wire_gauss_part (const TlLuRecorder *recorder, TlLuRecordPart part, guint first, guint count,
                    GByteArray *values)
{
  JsonBuilder *b = tl_wire_begin ("gauss-part");
  tl_json_member_string (b, "part", tl_wire_gauss_parts[part]);
  tl_json_member_int (b, "index", first);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = first; i < first + count; i++)
    tl_lu_recorder_add_part (b, recorder, part, i, values);
  json_builder_end_array (b);
  return b;
}

char *
tl_wire_sha256 (GBytes *bytes)
{
  gsize size = 0;
  const guchar *data = g_bytes_get_data (bytes, &size);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
}

TlMatrix *
tl_wire_pool_mean (TlMatrix *matrix, gsize max_side, guint *factor_r, guint *factor_c,
                   GError **error)
{
  g_return_val_if_fail (matrix != NULL && max_side > 0, NULL);
  /* one factor for both axes: a pooled matrix keeps its proportions */
  gsize longer = MAX (matrix->rows, matrix->cols);
  guint f = (guint) MAX ((longer + max_side - 1) / max_side, 1);
  guint fr = f, fc = f;
  *factor_r = *factor_c = f;
  if (f == 1)
    return tl_matrix_ref (matrix);
  gsize rows = (matrix->rows + fr - 1) / fr, cols = (matrix->cols + fc - 1) / fc;
  TlMatrix *out = tl_matrix_new (TL_DTYPE_FLOAT64, rows, cols, error);
  if (out == NULL)
    return NULL;
  double *sum = g_new0 (double, cols);
  guint *count = g_new0 (guint, cols);
  for (gsize r = 0; r < rows; r++)
    {
      memset (sum, 0, cols * sizeof *sum);
      memset (count, 0, cols * sizeof *count);
      gsize i1 = MIN ((r + 1) * fr, matrix->rows);
      for (gsize i = r * fr; i < i1; i++)
        for (gsize j = 0; j < matrix->cols; j++)
          {
            sum[j / fc] += tl_matrix_get (matrix, i, j); /* NaN stays NaN */
            count[j / fc]++;
          }
      double *row = tl_matrix_row (out, r);
      for (gsize c = 0; c < cols; c++)
        row[c] = sum[c] / count[c];
    }
  g_free (sum);
  g_free (count);
  return out;
}
