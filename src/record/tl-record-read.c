/* tl-record-read.c — run records from JSON text and files, validated
 * member by member (docs/run-record.md). */
#include "record/tl-record-private.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-json-read.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

static gboolean
read_source (JsonObject *parent, const char *path, const char *name, TlSource *out,
             GError **error)
{
  JsonObject *obj;
  if (!tl_json_get_object (parent, path, name, TRUE, &obj, error))
    return FALSE;
  g_autofree char *p = tl_json_path (path, name);
  g_autofree char *kind = NULL;
  if (!tl_json_get_string (obj, p, "kind", TRUE, &kind, error))
    return FALSE;
  if (!tl_source_kind_from_name (kind, &out->kind))
    {
      g_autofree char *pk = tl_json_path (p, "kind");
      return tl_json_fail (error, pk, _("unknown value “%s”"), kind);
    }
  switch (out->kind)
    {
    case TL_SOURCE_GENERATOR:
      {
        if (!tl_json_get_string (obj, p, "generator", TRUE, &out->generator, error))
          return FALSE;
        JsonNode *seed = tl_json_get_member (obj, p, "seed", TRUE, error);
        if (seed == NULL)
          return FALSE;
        g_autofree char *ps = tl_json_path (p, "seed");
        if (tl_json_node_is_int (seed) && json_node_get_int (seed) >= 0)
          out->seed = json_node_get_int (seed);
        else if (JSON_NODE_HOLDS_VALUE (seed) && json_node_get_value_type (seed) == G_TYPE_STRING)
          {
            guint64 v;
            if (!g_ascii_string_to_unsigned (json_node_get_string (seed), 10, 0, G_MAXUINT64,
                                             &v, NULL))
              return tl_json_fail (error, ps, _("expected a non-negative integer"));
            out->seed = v;
          }
        else
          return tl_json_fail (error, ps, _("expected a non-negative integer"));
        return TRUE;
      }
    case TL_SOURCE_FILE:
      return tl_json_get_string (obj, p, "path", TRUE, &out->path, error);
    case TL_SOURCE_MATRIX:
      return tl_json_get_string (obj, p, "label", FALSE, &out->label, error);
    }
  return TRUE;
}

static TlJob *
read_job (JsonObject *obj, const char *path, GError **error)
{
  g_autoptr (TlJob) job = g_new0 (TlJob, 1);
  gint64 v;
  /* shapes: positive and within what a matrix may hold (tl_matrix_check_shape) */
  const gint64 max_dim = TL_MATRIX_MAX_DIM;

  if (!tl_json_get_string (obj, path, "kind", TRUE, &job->kind, error))
    return NULL;
  if (!tl_json_get_int (obj, path, "m", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->m = v;
  if (!tl_json_get_int (obj, path, "k", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->k = v;
  if (!tl_json_get_int (obj, path, "n", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->n = v;

  g_autofree char *dtype = NULL;
  if (!tl_json_get_string (obj, path, "dtype", TRUE, &dtype, error))
    return NULL;
  if (!tl_dtype_from_name (dtype, &job->dtype))
    {
      g_autofree char *p = tl_json_path (path, "dtype");
      tl_json_fail (error, p, _("unknown dtype “%s”"), dtype);
      return NULL;
    }
  if (!read_source (obj, path, "a", &job->a, error)
      || !read_source (obj, path, "b", &job->b, error))
    return NULL;

  JsonArray *kernels;
  if (!tl_json_get_array (obj, path, "kernels", TRUE, &kernels, error))
    return NULL;
  guint nk = tl_json_array_length (kernels);
  job->kernels = g_new0 (char *, nk + 1);
  for (guint i = 0; i < nk; i++)
    {
      JsonNode *node = tl_json_array_element (kernels, i);
      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
          || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_autofree char *p = g_strdup_printf ("%s.kernels[%u]", path, i);
          tl_json_fail (error, p, _("expected a string"));
          return NULL;
        }
      job->kernels[i] = g_strdup (json_node_get_string (node));
    }

  if (!tl_json_get_int (obj, path, "repeats", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->repeats = v;
  if (!tl_json_get_int (obj, path, "warmups", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->warmups = v;
  if (!tl_json_get_bool (obj, path, "flush_l2", FALSE, &job->flush_l2, error)
      || !tl_json_get_bool (obj, path, "instrument", FALSE, &job->instrument, error)
      || !tl_json_get_bool (obj, path, "counters", FALSE, &job->counters, error))
    return NULL;
  v = 0;
  if (!tl_json_get_int (obj, path, "threads", FALSE, 0, TL_RECORD_MAX_UNITS, &v, error))
    return NULL;
  job->threads = v;
  if (!tl_json_get_string (obj, path, "plan", FALSE, &job->plan, error))
    return NULL;
  if (!tl_record_get_count (obj, path, "device", FALSE, &job->device, error))
    return NULL;
  return g_steal_pointer (&job);
}

static gboolean
read_device (JsonObject *obj, const char *path, TlGpuFacts *f, GError **error)
{
  memset (f, 0, sizeof *f);
  g_autofree char *name = NULL;
  gint64 total = 0, free_b = 0;
  if (!tl_json_get_string (obj, path, "name", TRUE, &name, error))
    return FALSE;
  g_strlcpy (f->name, name, sizeof f->name);
  struct { const char *key; int *field; gboolean required; } ints[] = {
    { "ordinal", &f->ordinal, FALSE },
    { "cc_major", &f->cc_major, TRUE },
    { "cc_minor", &f->cc_minor, TRUE },
    { "sm_count", &f->sm_count, TRUE },
    { "clock_khz", &f->clock_khz, FALSE },
    { "mem_clock_khz", &f->mem_clock_khz, FALSE },
    { "mem_bus_width_bits", &f->mem_bus_width_bits, FALSE },
    { "l2_bytes", &f->l2_bytes, FALSE },
    { "smem_per_block_bytes", &f->smem_per_block_bytes, FALSE },
    { "smem_per_block_optin_bytes", &f->smem_per_block_optin_bytes, FALSE },
    { "smem_per_sm_bytes", &f->smem_per_sm_bytes, FALSE },
    { "regs_per_sm", &f->regs_per_sm, FALSE },
    { "regs_per_block", &f->regs_per_block, FALSE },
    { "max_threads_per_block", &f->max_threads_per_block, FALSE },
    { "max_threads_per_sm", &f->max_threads_per_sm, FALSE },
    { "max_blocks_per_sm", &f->max_blocks_per_sm, FALSE },
    { "warp_size", &f->warp_size, FALSE },
    { "driver_version", &f->driver_version, FALSE },
    { "runtime_version", &f->runtime_version, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    if (!tl_record_get_count (obj, path, ints[i].key, ints[i].required, ints[i].field, error))
      return FALSE;
  /* SMs become lanes of the timeline */
  if (f->sm_count > TL_RECORD_MAX_UNITS)
    {
      g_autofree char *p = tl_json_path (path, "sm_count");
      return tl_json_fail (error, p, _("%d is out of range 0…%d"), f->sm_count, TL_RECORD_MAX_UNITS);
    }
  if (!tl_json_get_int (obj, path, "total_mem_bytes", FALSE, 0, G_MAXINT64, &total, error)
      || !tl_json_get_int (obj, path, "free_mem_bytes", FALSE, 0, G_MAXINT64, &free_b, error))
    return FALSE;
  f->total_mem_bytes = total;
  f->free_mem_bytes = free_b;
  return TRUE;
}

/* The measured bandwidths of the roofline's slanted roofs. */
static gboolean
read_bandwidth (JsonObject *obj, const char *path, TlGpuBandwidth *bw, GError **error)
{
  double dram = NAN, l2 = NAN;
  gint64 dram_buf = 0, l2_buf = 0;
  if (!tl_record_get_quantity (obj, path, "dram", TRUE, "GB/s", &dram, error)
      || !tl_record_get_quantity (obj, path, "l2", TRUE, "GB/s", &l2, error)
      || !tl_json_get_int (obj, path, "dram_buffer_bytes", FALSE, 0, G_MAXINT64, &dram_buf, error)
      || !tl_json_get_int (obj, path, "l2_buffer_bytes", FALSE, 0, G_MAXINT64, &l2_buf, error))
    return FALSE;
  /* 1 PB/s: far beyond any memory, and no bandwidth is zero or negative */
  const double most = 1e6;
  const char *names[] = { "dram", "l2" };
  double values[] = { dram, l2 };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (!(values[i] > 0 && values[i] <= most))
      {
        g_autofree char *p = tl_json_path (path, names[i]);
        return tl_json_fail (error, p, _("%g GB/s is out of range (0, %g]"), values[i], most);
      }
  bw->dram_bytes_per_s = dram * 1e9;
  bw->l2_bytes_per_s = l2 * 1e9;
  bw->dram_buffer_bytes = (double) dram_buf;
  bw->l2_buffer_bytes = (double) l2_buf;
  return TRUE;
}

static gboolean
read_input (JsonObject *inputs, const char *name, gboolean *has_stats, TlMatrixStats *stats,
            char **path_out, GError **error)
{
  JsonObject *obj;
  if (!tl_json_get_object (inputs, "$.inputs", name, FALSE, &obj, error))
    return FALSE;
  if (obj == NULL)
    return TRUE;
  g_autofree char *p = g_strdup_printf ("$.inputs.%s", name);
  JsonObject *s;
  if (!tl_json_get_object (obj, p, "stats", FALSE, &s, error)
      || !tl_record_get_rel_path (obj, p, path_out, error))
    return FALSE;
  if (s)
    {
      g_autofree char *ps = tl_json_path (p, "stats");
      if (!tl_record_read_stats (s, ps, stats, error))
        return FALSE;
      *has_stats = TRUE;
    }
  return TRUE;
}

TlJob *
tl_job_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  return read_job (json_node_get_object (node), "$", error);
}

gboolean
tl_gpu_facts_from_json (JsonNode *node, TlGpuFacts *out, GError **error)
{
  g_return_val_if_fail (node != NULL && out != NULL, FALSE);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return tl_json_fail (error, "$", _("expected an object"));
  return read_device (json_node_get_object (node), "$", out, error);
}

/* The schema (either version), who wrote the record, when and why. */
static gboolean
read_header (JsonObject *root, TlRunRecord *record, GError **error)
{
  if (!tl_json_get_string (root, "$", "schema", TRUE, &record->schema, error))
    return FALSE;
  /* the first schema is still read: it is the second without counters */
  if (strcmp (record->schema, TL_RUN_RECORD_SCHEMA) != 0
      && strcmp (record->schema, TL_RUN_RECORD_SCHEMA_V1) != 0)
    return tl_json_fail (error, "$.schema",
                         _("“%s” is not a Tilelab run record (expected “%s” or “%s”)"),
                         record->schema, TL_RUN_RECORD_SCHEMA, TL_RUN_RECORD_SCHEMA_V1);
  return tl_json_get_string (root, "$", "tilelab_version", TRUE, &record->tilelab_version, error)
         && tl_json_get_string (root, "$", "created", TRUE, &record->created, error)
         && tl_json_get_string (root, "$", "command_line", FALSE, &record->command_line, error)
         && tl_json_get_string (root, "$", "note", FALSE, &record->note, error)
         && tl_json_get_bool (root, "$", "cancelled", FALSE, &record->cancelled, error);
}

/* The machine, and the device and its bandwidth when the record has them. */
static gboolean
read_machine (JsonObject *root, TlRunRecord *record, GError **error)
{
  JsonObject *machine, *device, *bandwidth;
  gint64 cores = 0;
  if (!tl_json_get_object (root, "$", "machine", TRUE, &machine, error)
      || !tl_json_get_string (machine, "$.machine", "host_name", TRUE, &record->machine.host_name, error)
      || !tl_json_get_string (machine, "$.machine", "os", TRUE, &record->machine.os, error)
      || !tl_json_get_string (machine, "$.machine", "cpu_model", TRUE, &record->machine.cpu_model, error)
      || !tl_json_get_int (machine, "$.machine", "cores", TRUE, 0, G_MAXINT32, &cores, error))
    return FALSE;
  record->machine.cores = cores;

  if (!tl_json_get_object (root, "$", "device", FALSE, &device, error))
    return FALSE;
  if (device)
    {
      if (!read_device (device, "$.device", &record->device, error))
        return FALSE;
      record->has_device = TRUE;
    }
  if (!tl_json_get_object (root, "$", "bandwidth", FALSE, &bandwidth, error))
    return FALSE;
  if (bandwidth)
    {
      if (!read_bandwidth (bandwidth, "$.bandwidth", &record->bandwidth, error))
        return FALSE;
      record->has_bandwidth = TRUE;
    }
  return TRUE;
}

/* The inputs' statistics and paths, when the record has them. */
static gboolean
read_inputs (JsonObject *root, TlRunRecord *record, GError **error)
{
  JsonObject *inputs;
  if (!tl_json_get_object (root, "$", "inputs", FALSE, &inputs, error))
    return FALSE;
  if (inputs == NULL)
    return TRUE;
  gboolean ha = FALSE, hb = FALSE, hr = FALSE;
  if (!read_input (inputs, "a", &ha, &record->a_stats, &record->a_path, error)
      || !read_input (inputs, "b", &hb, &record->b_stats, &record->b_path, error)
      || !read_input (inputs, "reference", &hr, &record->reference_stats,
                      &record->reference_path, error))
    return FALSE;
  record->has_input_stats = ha && hb && hr;
  return TRUE;
}

/* Every kernel's run, read against the record's job (and the user's
 * kernels the record names, held to less: tl_record_check_blocks). */
static gboolean
read_runs (JsonObject *root, TlRunRecord *record, GError **error)
{
  JsonArray *runs;
  if (!tl_json_get_array (root, "$", "runs", TRUE, &runs, error))
    return FALSE;
  /* (extensions are free-form: read as a whole below) */
  JsonNode *ext = json_object_get_member (root, "extensions");
  JsonNode *user = ext && JSON_NODE_HOLDS_OBJECT (ext)
                     ? json_object_get_member (json_node_get_object (ext), "user_kernels") : NULL;
  JsonObject *user_kernels = user && JSON_NODE_HOLDS_OBJECT (user) ? json_node_get_object (user)
                                                                   : NULL;
  for (guint i = 0; i < tl_json_array_length (runs); i++)
    {
      g_autofree char *p = g_strdup_printf ("$.runs[%u]", i);
      JsonNode *rn = tl_json_array_element (runs, i);
      if (rn == NULL || !JSON_NODE_HOLDS_OBJECT (rn))
        return tl_json_fail (error, p, _("expected an object"));
      TlKernelRun *run = tl_record_read_run (json_node_get_object (rn), p, record->job,
                                             user_kernels, error);
      if (run == NULL)
        return FALSE;
      g_ptr_array_add (record->runs, run);
    }
  return TRUE;
}

static TlRunRecord *
read_record (JsonNode *node, GError **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      tl_json_fail (error, "$", _("expected an object"));
      return NULL;
    }
  JsonObject *root = json_node_get_object (node);
  g_autoptr (TlRunRecord) record = tl_run_record_alloc ();
  if (!read_header (root, record, error) || !read_machine (root, record, error))
    return NULL;

  JsonObject *job;
  if (!tl_json_get_object (root, "$", "job", TRUE, &job, error))
    return NULL;
  record->job = read_job (job, "$.job", error);
  if (record->job == NULL || !read_inputs (root, record, error) || !read_runs (root, record, error))
    return NULL;

  /* free-form, kept as a tree whose long arrays of numbers stay packed
   * (the writer prints them as numbers again) */
  JsonObject *ext;
  if (!tl_json_get_object (root, "$", "extensions", FALSE, &ext, error))
    return NULL;
  record->extensions = ext ? json_object_ref (ext) : NULL;
  if (ext)
    record->extensions_packed = tl_json_pack_store_hold (json_object_get_member (root,
                                                                                 "extensions"));
  return g_steal_pointer (&record);
}

TlRunRecord *
tl_run_record_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  GError *local = NULL;
  TlRunRecord *record = read_record (node, &local);
  if (record == NULL)
    g_propagate_prefixed_error (error, local, _("run record: "));
  return record;
}

TlRunRecord *
tl_run_record_from_data (const char *data, gssize length, GError **error)
{
  g_return_val_if_fail (data != NULL, NULL);
  gsize len = length < 0 ? strlen (data) : (gsize) length;
  g_autoptr (GError) local = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (data, len, &local);
  if (doc == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, _("run record: %s"), local->message);
      return NULL;
    }
  return tl_run_record_from_json (tl_json_doc_root (doc), error);
}
