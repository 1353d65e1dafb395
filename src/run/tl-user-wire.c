/* tl-user-wire.c — messages of the user-kernel worker: lines and bytes. */
#include "run/tl-user-wire.h"
#include "core/tl-error.h"
#include "core/tl-json.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINE (1 << 20) /* a head line; the bytes go in payloads */

void
tl_wire_message_free (TlWireMessage *message)
{
  if (message == NULL)
    return;
  g_clear_pointer (&message->head, json_object_unref);
  g_clear_pointer (&message->payloads, g_ptr_array_unref);
  g_free (message);
}

GBytes *
tl_wire_message_payload (const TlWireMessage *message, const char *name)
{
  JsonArray *list = json_object_has_member (message->head, "payload")
                      ? json_object_get_array_member (message->head, "payload")
                      : NULL;
  for (guint i = 0; list && i < json_array_get_length (list) && i < message->payloads->len; i++)
    {
      JsonArray *pair = json_array_get_array_element (list, i);
      if (strcmp (json_array_get_string_element (pair, 0), name) == 0)
        return message->payloads->pdata[i];
    }
  return NULL;
}

/* ---- reading ---------------------------------------------------------- */

struct TlWireReader
{
  int fd;
  GByteArray *buffer; /* read, not yet consumed */
};

TlWireReader *
tl_wire_reader_new (int fd)
{
  TlWireReader *r = g_new0 (TlWireReader, 1);
  r->fd = fd;
  r->buffer = g_byte_array_new ();
  return r;
}

void
tl_wire_reader_free (TlWireReader *reader)
{
  if (reader == NULL)
    return;
  g_byte_array_unref (reader->buffer);
  g_free (reader);
}

/* Reads more into the buffer: TRUE when something came; FALSE with error
 * at the deadline (monotonic µs, or -1) or the end of the pipe. */
static gboolean
fill (TlWireReader *r, gint64 deadline, GError **error)
{
  for (;;)
    {
      int wait = -1;
      if (deadline >= 0)
        {
          gint64 left = deadline - g_get_monotonic_time ();
          if (left <= 0)
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "timed out");
              return FALSE;
            }
          wait = (int) MIN (left / 1000 + 1, G_MAXINT);
        }
      struct pollfd p = { r->fd, POLLIN, 0 };
      int ready = poll (&p, 1, wait);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready == 0)
        continue; /* the deadline is checked above */
      guint8 chunk[65536];
      ssize_t got = ready > 0 ? read (r->fd, chunk, sizeof chunk) : -1;
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               got == 0 ? "end of file" : g_strerror (errno));
          return FALSE;
        }
      g_byte_array_append (r->buffer, chunk, (guint) got);
      return TRUE;
    }
}

/* The payload sizes a head announces, checked. */
static gboolean
payload_sizes (JsonObject *head, GArray *sizes, GError **error)
{
  if (!json_object_has_member (head, "payload"))
    return TRUE;
  JsonNode *node = json_object_get_member (head, "payload");
  JsonArray *list = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  guint64 total = 0;
  for (guint i = 0; list && i < json_array_get_length (list); i++)
    {
      JsonNode *e = json_array_get_element (list, i);
      JsonArray *pair = JSON_NODE_HOLDS_ARRAY (e) ? json_node_get_array (e) : NULL;
      if (pair == NULL || json_array_get_length (pair) != 2
          || !tl_json_node_is_int (json_array_get_element (pair, 1))
          || json_node_get_value_type (json_array_get_element (pair, 0)) != G_TYPE_STRING)
        break;
      gint64 size = json_array_get_int_element (pair, 1);
      if (size < 0 || (guint64) size > TL_USER_WIRE_MAX_PAYLOAD - total)
        break;
      total += (guint64) size;
      guint64 s = (guint64) size;
      g_array_append_val (sizes, s);
    }
  if (list != NULL && sizes->len == json_array_get_length (list))
    return TRUE;
  g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "the worker's message lists bad payloads");
  return FALSE;
}

TlWireMessage *
tl_wire_read (TlWireReader *r, int timeout_ms, GError **error)
{
  gint64 deadline = timeout_ms < 0 ? -1 : g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint8 *nl;
  /* an empty GByteArray's data is NULL, which memchr may not be given */
  while ((nl = r->buffer->len ? memchr (r->buffer->data, '\n', r->buffer->len) : NULL) == NULL)
    {
      if (r->buffer->len > MAX_LINE)
        {
          g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "a line of the worker is too long");
          return NULL;
        }
      if (!fill (r, deadline, error))
        return NULL;
    }
  gsize line_len = nl - r->buffer->data;
  g_autoptr (JsonNode) root = tl_json_parse ((const char *) r->buffer->data, line_len, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "a message is not a JSON object");
      return NULL;
    }
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (!payload_sizes (json_node_get_object (root), sizes, error))
    return NULL;
  guint64 need = line_len + 1;
  for (guint i = 0; i < sizes->len; i++)
    need += g_array_index (sizes, guint64, i);
  while (r->buffer->len < need)
    if (!fill (r, deadline, error))
      return NULL;
  TlWireMessage *m = g_new0 (TlWireMessage, 1);
  m->head = json_object_ref (json_node_get_object (root));
  m->payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gsize at = line_len + 1;
  for (guint i = 0; i < sizes->len; i++)
    {
      gsize size = (gsize) g_array_index (sizes, guint64, i);
      g_ptr_array_add (m->payloads, g_bytes_new (r->buffer->data + at, size));
      at += size;
    }
  g_byte_array_remove_range (r->buffer, 0, (guint) need);
  return m;
}

/* ---- writing ---------------------------------------------------------- */

static gboolean
write_all (int fd, const void *data, gsize size, GError **error)
{
  const guint8 *p = data;
  while (size > 0)
    {
      ssize_t put = write (fd, p, MIN (size, (gsize) 1 << 24));
      if (put < 0 && errno == EINTR)
        continue;
      if (put <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "%s", g_strerror (errno));
          return FALSE;
        }
      p += put;
      size -= (gsize) put;
    }
  return TRUE;
}

gboolean
tl_wire_write (int fd, JsonObject *head, const char *const *names, GBytes *const *payloads,
               guint n_payloads, GError **error)
{
  if (n_payloads > 0)
    {
      JsonArray *list = json_array_new ();
      for (guint i = 0; i < n_payloads; i++)
        {
          JsonArray *pair = json_array_new ();
          json_array_add_string_element (pair, names[i]);
          json_array_add_int_element (pair, (gint64) g_bytes_get_size (payloads[i]));
          json_array_add_array_element (list, pair);
        }
      json_object_set_array_member (head, "payload", list);
    }
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (root, head);
  gsize len = 0;
  g_autofree char *text = tl_json_to_data (root, FALSE, &len);
  if (!write_all (fd, text, len, error) || !write_all (fd, "\n", 1, error))
    return FALSE;
  for (guint i = 0; i < n_payloads; i++)
    {
      gsize size = 0;
      const void *data = g_bytes_get_data (payloads[i], &size);
      if (size > 0 && !write_all (fd, data, size, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- the request ------------------------------------------------------ */

static JsonArray *
uints (const unsigned int v[3])
{
  JsonArray *a = json_array_new ();
  for (int i = 0; i < 3; i++)
    json_array_add_int_element (a, v[i]);
  return a;
}

JsonObject *
tl_wire_request_head (guint64 id, int device, const TlGpuUserLaunch *k, const TlGpuGemmArgs *a)
{
  JsonObject *head = json_object_new ();
  json_object_set_int_member (head, "request", (gint64) id);
  json_object_set_int_member (head, "device", device);
  JsonObject *kernel = json_object_new ();
  json_object_set_string_member (kernel, "name", k->name ? k->name : "");
  json_object_set_string_member (kernel, "entry", k->entry);
  json_object_set_array_member (kernel, "grid", uints (k->grid));
  json_object_set_array_member (kernel, "block", uints (k->block));
  json_object_set_int_member (kernel, "dynamic_smem", k->dynamic_smem);
  json_object_set_object_member (head, "kernel", kernel);
  JsonObject *args = json_object_new ();
  const struct { const char *name; gint64 value; } ints[] = {
    { "dtype", a->dtype }, { "m", a->m }, { "n", a->n }, { "k", a->k },
    { "warmups", a->warmups }, { "repeats", a->repeats }, { "flush_l2", a->flush_l2 },
    { "instrument", a->instrument }, { "instrument_repeats", a->instrument_repeats },
    { "interleave_instrumented", a->interleave_instrumented }, { "counters", a->counters },
    { "want_c", a->c != NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    json_object_set_int_member (args, ints[i].name, ints[i].value);
  json_object_set_object_member (head, "args", args);
  return head;
}

static gboolean
get_int (JsonObject *o, const char *name, gint64 lo, gint64 hi, gint64 *out, GError **error)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (n && tl_json_node_is_int (n) && json_node_get_int (n) >= lo && json_node_get_int (n) <= hi)
    {
      *out = json_node_get_int (n);
      return TRUE;
    }
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, "a message's “%s” is missing or out of range",
               name);
  return FALSE;
}

static gboolean
get_uints (JsonObject *o, const char *name, unsigned int out[3], GError **error)
{
  JsonNode *n = json_object_get_member (o, name);
  JsonArray *a = n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
  for (guint i = 0; a && json_array_get_length (a) == 3 && i < 3; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!tl_json_node_is_int (e) || json_node_get_int (e) < 0 || json_node_get_int (e) > G_MAXUINT32)
        break;
      out[i] = (unsigned int) json_node_get_int (e);
      if (i == 2)
        return TRUE;
    }
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, "a request's “%s” is malformed", name);
  return FALSE;
}

static gsize
dtype_bytes (gint64 dtype)
{
  return dtype == TL_GPU_FLOAT64 ? 8 : 4;
}

gboolean
tl_wire_request_parse (const TlWireMessage *msg, guint64 *id, int *device, TlGpuUserLaunch *k,
                       TlGpuGemmArgs *a, GError **error)
{
  memset (k, 0, sizeof *k);
  memset (a, 0, sizeof *a);
  JsonObject *head = msg->head;
  JsonNode *kn = json_object_get_member (head, "kernel"), *an = json_object_get_member (head, "args");
  JsonObject *ko = kn && JSON_NODE_HOLDS_OBJECT (kn) ? json_node_get_object (kn) : NULL;
  JsonObject *ao = an && JSON_NODE_HOLDS_OBJECT (an) ? json_node_get_object (an) : NULL;
  if (ko == NULL || ao == NULL)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "a request has no kernel or no args");
      return FALSE;
    }
  gint64 rid = 0, dev = 0, dtype = 0, m = 0, n = 0, kk = 0, warm = 0, rep = 0, flush = 0;
  gint64 instr = 0, irep = 0, inter = 0, counters = 0, smem = 0, want_c = 0;
  const struct { JsonObject *from; const char *name; gint64 lo, hi; gint64 *out; } fields[] = {
    { head, "request", 0, G_MAXINT64, &rid },
    { head, "device", 0, G_MAXINT, &dev },
    { ao, "dtype", TL_GPU_INT32, TL_GPU_FLOAT64, &dtype },
    { ao, "m", 0, G_MAXINT, &m },
    { ao, "n", 0, G_MAXINT, &n },
    { ao, "k", 0, G_MAXINT, &kk },
    { ao, "warmups", 0, G_MAXINT, &warm },
    { ao, "repeats", 1, G_MAXINT, &rep },
    { ao, "flush_l2", 0, 1, &flush },
    { ao, "instrument", 0, 1, &instr },
    { ao, "instrument_repeats", 0, G_MAXINT, &irep },
    { ao, "interleave_instrumented", 0, 1, &inter },
    { ao, "counters", 0, 2, &counters },
    { ao, "want_c", 0, 1, &want_c },
    { ko, "dynamic_smem", 0, G_MAXUINT32, &smem },
  };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!get_int (fields[i].from, fields[i].name, fields[i].lo, fields[i].hi, fields[i].out, error))
      return FALSE;
  if (!get_uints (ko, "grid", k->grid, error) || !get_uints (ko, "block", k->block, error))
    return FALSE;
  *id = (guint64) rid;
  *device = (int) dev;
  a->dtype = (TlGpuDtype) dtype;
  a->m = (int) m;
  a->n = (int) n;
  a->k = (int) kk;
  a->warmups = (int) warm;
  a->repeats = (int) rep;
  a->flush_l2 = (int) flush;
  a->instrument = (int) instr;
  a->instrument_repeats = (int) irep;
  a->interleave_instrumented = (int) inter;
  a->counters = (int) counters;
  k->name = tl_json_object_get_string (ko, "name", "");
  k->entry = tl_json_object_get_string (ko, "entry", NULL);
  k->dynamic_smem = (unsigned int) smem;
  GBytes *image = tl_wire_message_payload (msg, "image");
  GBytes *timed = tl_wire_message_payload (msg, "timed_image");
  GBytes *pa = tl_wire_message_payload (msg, "a"), *pb = tl_wire_message_payload (msg, "b");
  gsize es = dtype_bytes (dtype);
  if (k->entry == NULL || image == NULL || pa == NULL || pb == NULL
      || g_bytes_get_size (pa) != (gsize) m * kk * es || g_bytes_get_size (pb) != (gsize) kk * n * es)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE,
                           "a request's kernel or inputs are missing or of the wrong size");
      return FALSE;
    }
  k->image = g_bytes_get_data (image, &k->image_size);
  if (timed)
    k->timed_image = g_bytes_get_data (timed, &k->timed_image_size);
  a->a = g_bytes_get_data (pa, NULL);
  a->b = g_bytes_get_data (pb, NULL);
  /* C is the worker's to allocate; non-NULL here says the parent wants it */
  a->c = want_c ? (void *) a->a : NULL;
  return TRUE;
}

/* ---- the result -------------------------------------------------------- */

/* NaN and infinities are not JSON: null. */
static void
add_double (JsonArray *a, double v)
{
  if (isfinite (v))
    json_array_add_double_element (a, v);
  else
    json_array_add_null_element (a);
}

static double
double_at (JsonArray *a, guint i)
{
  JsonNode *n = i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;
  return n && tl_json_node_is_number (n) ? json_node_get_double (n) : NAN;
}

/* The launch facts as [regs, static smem, dynamic smem, local, max threads,
 * active blocks, grid xyz, block xyz, launches, waves]. */
static JsonArray *
launch_array (const TlGpuLaunchFacts *l)
{
  JsonArray *a = json_array_new ();
  const int ints[] = { l->regs_per_thread, l->static_smem_bytes, l->dynamic_smem_bytes,
                       l->local_bytes_per_thread, l->max_threads_per_block, l->active_blocks_per_sm,
                       l->grid_x, l->grid_y, l->grid_z, l->block_x, l->block_y, l->block_z,
                       l->launches };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    json_array_add_int_element (a, ints[i]);
  add_double (a, l->waves);
  return a;
}

static void
launch_from_array (JsonArray *a, TlGpuLaunchFacts *l)
{
  int *ints[] = { &l->regs_per_thread, &l->static_smem_bytes, &l->dynamic_smem_bytes,
                  &l->local_bytes_per_thread, &l->max_threads_per_block, &l->active_blocks_per_sm,
                  &l->grid_x, &l->grid_y, &l->grid_z, &l->block_x, &l->block_y, &l->block_z,
                  &l->launches };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    *ints[i] = (int) double_at (a, i);
  l->waves = double_at (a, G_N_ELEMENTS (ints));
}

JsonObject *
tl_wire_result_head (guint64 id, TlGpuStatus status, const char *message, const TlGpuGemmResult *r)
{
  JsonObject *head = json_object_new ();
  json_object_set_int_member (head, "result", (gint64) id);
  json_object_set_int_member (head, "status", status);
  json_object_set_string_member (head, "message", message ? message : "");
  if (status != TL_GPU_OK || r == NULL)
    return head;
  JsonObject *o = json_object_new ();
  JsonArray *times = json_array_new ();
  for (int i = 0; i < r->n_times; i++)
    add_double (times, r->times_ms[i]);
  json_object_set_array_member (o, "times_ms", times);
  JsonArray *ms = json_array_new ();
  add_double (ms, r->upload_ms);
  add_double (ms, r->download_ms);
  add_double (ms, r->instrumented_median_ms);
  json_object_set_array_member (o, "upload_download_instrumented_ms", ms);
  json_object_set_array_member (o, "launch", launch_array (&r->launch));
  JsonObject *c = json_object_new ();
  json_object_set_int_member (c, "state", r->counters.state);
  json_object_set_string_member (c, "message", r->counters.message);
  json_object_set_int_member (c, "passes", r->counters.passes);
  json_object_set_string_member (c, "chip", r->counters.chip);
  JsonArray *values = json_array_new ();
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    add_double (values, r->counters.value[i]);
  json_object_set_array_member (c, "values", values);
  json_object_set_object_member (o, "counters", c);
  json_object_set_object_member (head, "numbers", o);
  return head;
}

static void
counters_from_json (JsonObject *c, TlGpuCounters *out)
{
  out->state = (TlGpuCountersState) json_object_get_int_member_with_default (c, "state", 0);
  g_strlcpy (out->message, tl_json_object_get_string (c, "message", ""), sizeof out->message);
  out->passes = (int) json_object_get_int_member_with_default (c, "passes", 0);
  g_strlcpy (out->chip, tl_json_object_get_string (c, "chip", ""), sizeof out->chip);
  JsonArray *values = json_object_get_array_member (c, "values");
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    out->value[i] = values ? double_at (values, (guint) i) : NAN;
}

gboolean
tl_wire_result_parse (const TlWireMessage *msg, TlGpuStatus *status, char **text,
                      TlGpuGemmResult *r, void *c, gsize c_bytes, GError **error)
{
  memset (r, 0, sizeof *r);
  gint64 st = 0;
  if (!get_int (msg->head, "status", TL_GPU_OK, TL_GPU_CANCELLED, &st, error))
    return FALSE;
  *status = (TlGpuStatus) st;
  *text = g_strdup (tl_json_object_get_string (msg->head, "message", ""));
  if (st != TL_GPU_OK)
    return TRUE;
  JsonNode *on = json_object_get_member (msg->head, "numbers");
  JsonObject *o = on && JSON_NODE_HOLDS_OBJECT (on) ? json_node_get_object (on) : NULL;
  JsonNode *tn = o ? json_object_get_member (o, "times_ms") : NULL;
  JsonNode *mn = o ? json_object_get_member (o, "upload_download_instrumented_ms") : NULL;
  JsonNode *ln = o ? json_object_get_member (o, "launch") : NULL;
  JsonNode *cn = o ? json_object_get_member (o, "counters") : NULL;
  if (!tn || !JSON_NODE_HOLDS_ARRAY (tn) || !mn || !JSON_NODE_HOLDS_ARRAY (mn) || !ln
      || !JSON_NODE_HOLDS_ARRAY (ln) || !cn || !JSON_NODE_HOLDS_OBJECT (cn))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "the worker's result is incomplete");
      return FALSE;
    }
  JsonArray *times = json_node_get_array (tn), *ms = json_node_get_array (mn);
  r->n_times = (int) json_array_get_length (times);
  r->times_ms = g_new0 (double, MAX (r->n_times, 1));
  for (int i = 0; i < r->n_times; i++)
    r->times_ms[i] = double_at (times, (guint) i);
  r->upload_ms = double_at (ms, 0);
  r->download_ms = double_at (ms, 1);
  r->instrumented_median_ms = double_at (ms, 2);
  if (!isfinite (r->instrumented_median_ms))
    r->instrumented_median_ms = 0.0;
  launch_from_array (json_node_get_array (ln), &r->launch);
  counters_from_json (json_node_get_object (cn), &r->counters);
  GBytes *pc = tl_wire_message_payload (msg, "c");
  GBytes *pblocks = tl_wire_message_payload (msg, "blocks");
  if (c != NULL && (pc == NULL || g_bytes_get_size (pc) != c_bytes))
    {
      tl_wire_result_clear (r);
      g_set_error_literal (error, TL_ERROR, TL_ERROR_PARSE, "the worker's C is missing or of the wrong size");
      return FALSE;
    }
  if (c != NULL)
    memcpy (c, g_bytes_get_data (pc, NULL), c_bytes);
  gsize block_bytes = pblocks ? g_bytes_get_size (pblocks) : 0;
  if (block_bytes % sizeof (TlGpuBlockRecord) == 0 && block_bytes > 0)
    {
      r->n_blocks = block_bytes / sizeof (TlGpuBlockRecord);
      r->blocks = g_memdup2 (g_bytes_get_data (pblocks, NULL), block_bytes);
    }
  return TRUE;
}

void
tl_wire_result_clear (TlGpuGemmResult *result)
{
  g_free (result->times_ms);
  g_free (result->blocks);
  memset (result, 0, sizeof *result);
}
