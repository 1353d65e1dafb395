/* tl-user-job.c — the "user-gemm" job's messages, both ends. */
#include "remote/tl-user-job.h"
#include "remote/tl-wire.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-read.h"

#include <math.h>
#include <string.h>

static const char *const stage_names[] = {
  [TL_GPU_STAGE_UPLOAD] = "upload",
  [TL_GPU_STAGE_WARMUP] = "warmup",
  [TL_GPU_STAGE_RUN] = "run",
  [TL_GPU_STAGE_INSTRUMENTED] = "instrumented",
  [TL_GPU_STAGE_DOWNLOAD] = "download",
  [TL_GPU_STAGE_COUNTERS] = "counters",
};

const char *
tl_user_job_stage_name (TlGpuStage stage)
{
  return (guint) stage < G_N_ELEMENTS (stage_names) ? stage_names[stage] : "run";
}

int
tl_user_job_stage_from_name (const char *name)
{
  for (guint i = 0; name && i < G_N_ELEMENTS (stage_names); i++)
    if (strcmp (stage_names[i], name) == 0)
      return (int) i;
  return -1;
}

/* ---- the request ----------------------------------------------------------- */

/* The integers of a request: one list for both directions. */
#define REQUEST_INTS(X)                                                                            \
  X ("m", m, 1, G_MAXINT)                                                                          \
  X ("k", k, 1, G_MAXINT)                                                                          \
  X ("n", n, 1, G_MAXINT)                                                                          \
  X ("warmups", warmups, 0, 10000)                                                                 \
  X ("repeats", repeats, 1, 1000000)                                                               \
  X ("flush_l2", flush_l2, 0, 1)                                                                   \
  X ("instrument", instrument, 0, 1)                                                               \
  X ("instrument_repeats", instrument_repeats, 0, 1000000)                                         \
  X ("counters", counters, 0, 2)

JsonBuilder *
tl_user_job_begin (TlUserKernel *kernel, const TlUserJobBuild *build, int device,
                   const TlGpuGemmArgs *args, const char *sha_a, const char *sha_b)
{
  JsonBuilder *b = tl_wire_begin ("job");
  tl_json_member_string (b, "kind", TL_USER_JOB_KIND);
  json_builder_set_member_name (b, "kernel");
  json_builder_begin_object (b);
  tl_json_member_string (b, "path", tl_user_kernel_path (kernel));
  tl_json_member_string (b, "source", tl_user_kernel_source (kernel));
  json_builder_end_object (b);
  json_builder_set_member_name (b, "build");
  json_builder_begin_object (b);
  g_autofree char *arch = g_strdup_printf ("sm_%d", build->arch);
  tl_json_member_string (b, "arch", arch);
  tl_json_member_string (b, "entry", build->entry);
  tl_json_member_string (b, "image", build->sha_image);
  json_builder_set_member_name (b, "timed_image");
  if (build->sha_timed)
    json_builder_add_string_value (b, build->sha_timed);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  tl_json_member_int (b, "device", device);
  tl_json_member_string (b, "dtype", tl_dtype_name ((TlDtype) args->dtype));
#define WRITE_INT(name, field, lo, hi) tl_json_member_int (b, name, args->field);
  REQUEST_INTS (WRITE_INT)
#undef WRITE_INT
  json_builder_set_member_name (b, "inputs");
  json_builder_begin_object (b);
  tl_json_member_string (b, "a", sha_a);
  tl_json_member_string (b, "b", sha_b);
  json_builder_end_object (b);
  return b;
}

/* "build": the architecture ("sm_90"), the entry, the images' uploads. */
static gboolean
parse_build (JsonObject *message, TlUserJobBuild *out, GError **error)
{
  JsonObject *build = NULL;
  g_autofree char *arch = NULL;
  if (!tl_json_get_object (message, "$", "build", TRUE, &build, error)
      || !tl_json_get_string (build, "$.build", "arch", TRUE, &arch, error)
      || !tl_json_get_string (build, "$.build", "entry", TRUE, &out->entry, error)
      || !tl_json_get_string (build, "$.build", "image", TRUE, &out->sha_image, error))
    return FALSE;
  JsonNode *timed = json_object_get_member (build, "timed_image");
  if (timed != NULL && !JSON_NODE_HOLDS_NULL (timed)
      && !tl_json_get_string (build, "$.build", "timed_image", TRUE, &out->sha_timed, error))
    return FALSE;
  char *end = NULL;
  gint64 cc = g_str_has_prefix (arch, "sm_") ? g_ascii_strtoll (arch + 3, &end, 10) : 0;
  if (end == NULL || *end != '\0' || cc < 10 || cc > 1000)
    return tl_json_fail (error, "$.build.arch", "“%s” is not an architecture like sm_90", arch);
  out->arch = (int) cc;
  return TRUE;
}

gboolean
tl_user_job_parse (JsonObject *message, TlUserJobRequest *out, GError **error)
{
  memset (out, 0, sizeof *out);
  if (!parse_build (message, &out->build, error))
    return FALSE;
  JsonObject *kernel = NULL, *inputs = NULL;
  g_autofree char *dtype_name = NULL;
  gint64 device = 0;
  if (!tl_json_get_object (message, "$", "kernel", TRUE, &kernel, error)
      || !tl_json_get_string (kernel, "$.kernel", "path", TRUE, &out->path, error)
      || !tl_json_get_string (kernel, "$.kernel", "source", TRUE, &out->source, error)
      || !tl_json_get_object (message, "$", "inputs", TRUE, &inputs, error)
      || !tl_json_get_string (inputs, "$.inputs", "a", TRUE, &out->sha_a, error)
      || !tl_json_get_string (inputs, "$.inputs", "b", TRUE, &out->sha_b, error)
      || !tl_json_get_int (message, "$", "device", TRUE, 0, 1023, &device, error)
      || !tl_json_get_string (message, "$", "dtype", TRUE, &dtype_name, error))
    return FALSE;
  TlDtype dtype;
  if (!tl_dtype_from_name (dtype_name, &dtype))
    return tl_json_fail (error, "$.dtype", "“%s” is not an element type", dtype_name);
  out->device = (int) device;
  out->args.dtype = (TlGpuDtype) dtype;
  gint64 value = 0;
#define READ_INT(name, field, lo, hi)                                                              \
  if (!tl_json_get_int (message, "$", name, TRUE, lo, hi, &value, error))                          \
    return FALSE;                                                                                  \
  out->args.field = (int) value;
  REQUEST_INTS (READ_INT)
#undef READ_INT
  return TRUE;
}

void
tl_user_job_request_clear (TlUserJobRequest *request)
{
  g_free (request->path);
  g_free (request->source);
  g_free (request->sha_a);
  g_free (request->sha_b);
  g_free (request->build.entry);
  g_free (request->build.sha_image);
  g_free (request->build.sha_timed);
  memset (request, 0, sizeof *request);
}

/* ---- the result ------------------------------------------------------------ */

/* The launch facts' integers, in this order on the wire. */
static const gsize launch_offsets[] = {
  G_STRUCT_OFFSET (TlGpuLaunchFacts, regs_per_thread),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, static_smem_bytes),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, dynamic_smem_bytes),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, local_bytes_per_thread),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, max_threads_per_block),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, active_blocks_per_sm),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, grid_x),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, grid_y),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, grid_z),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, block_x),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, block_y),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, block_z),
  G_STRUCT_OFFSET (TlGpuLaunchFacts, launches),
};
#define N_LAUNCH_INTS G_N_ELEMENTS (launch_offsets)

static int *
launch_member (TlGpuLaunchFacts *l, guint i)
{
  return G_STRUCT_MEMBER_P (l, launch_offsets[i]);
}

static void
add_launch (JsonBuilder *b, const TlGpuLaunchFacts *launch)
{
  TlGpuLaunchFacts l = *launch;
  json_builder_set_member_name (b, "launch");
  json_builder_begin_array (b);
  for (guint i = 0; i < N_LAUNCH_INTS; i++)
    json_builder_add_int_value (b, *launch_member (&l, i));
  json_builder_end_array (b);
  tl_json_member_value (b, "waves", l.waves);
  /* the kernel's __constant__ bytes, when the worker's driver said them */
  if (l.const_bytes >= 0)
    tl_json_member_int (b, "const_bytes", l.const_bytes);
}

static void
add_counters (JsonBuilder *b, const TlGpuCounters *c)
{
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  tl_json_member_int (b, "state", c->state);
  tl_json_member_string (b, "message", c->message);
  tl_json_member_int (b, "passes", c->passes);
  tl_json_member_string (b, "chip", c->chip);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
    tl_json_add_value (b, c->value[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

void
tl_user_job_add_result (JsonBuilder *b, const TlGpuGemmResult *r)
{
  json_builder_set_member_name (b, "numbers");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "times_ms");
  json_builder_begin_array (b);
  for (int i = 0; i < r->n_times; i++)
    tl_json_add_value (b, r->times_ms[i]);
  json_builder_end_array (b);
  tl_json_member_value (b, "upload_ms", r->upload_ms);
  tl_json_member_value (b, "download_ms", r->download_ms);
  tl_json_member_value (b, "instrumented_median_ms", r->instrumented_median_ms);
  add_launch (b, &r->launch);
  add_counters (b, &r->counters);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "blocks");
  json_builder_begin_array (b);
  for (gsize i = 0; i < r->n_blocks; i++)
    {
      const TlGpuBlockRecord *k = &r->blocks[i];
      json_builder_begin_array (b);
      const guint64 v[] = { k->block_x, k->block_y, k->sm, k->launch, k->start_ns, k->end_ns };
      for (guint j = 0; j < G_N_ELEMENTS (v); j++)
        json_builder_add_int_value (b, (gint64) MIN (v[j], (guint64) G_MAXINT64));
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

static gboolean
get_counters (JsonObject *numbers, TlGpuCounters *c, GError **error)
{
  JsonObject *o = NULL;
  JsonArray *values = NULL;
  gint64 state = 0, passes = 0;
  g_autofree char *message = NULL, *chip = NULL;
  if (!tl_json_get_object (numbers, "$.numbers", "counters", TRUE, &o, error)
      || !tl_json_get_int (o, "$.numbers.counters", "state", TRUE, 0, TL_GPU_COUNTERS_FAILED,
                           &state, error)
      || !tl_json_get_int (o, "$.numbers.counters", "passes", TRUE, 0, G_MAXINT, &passes, error)
      || !tl_json_get_string (o, "$.numbers.counters", "message", FALSE, &message, error)
      || !tl_json_get_string (o, "$.numbers.counters", "chip", FALSE, &chip, error)
      || !tl_json_get_array (o, "$.numbers.counters", "values", TRUE, &values, error))
    return FALSE;
  g_autofree double *v = NULL;
  if (!tl_json_array_values (values, "$.numbers.counters.values", TL_GPU_N_COUNTERS, &v, error))
    return FALSE;
  c->state = (TlGpuCountersState) state;
  c->passes = (int) passes;
  g_strlcpy (c->message, message ? message : "", sizeof c->message);
  g_strlcpy (c->chip, chip ? chip : "", sizeof c->chip);
  memcpy (c->value, v, sizeof c->value);
  return TRUE;
}

static gboolean
get_launch (JsonObject *numbers, TlGpuLaunchFacts *l, GError **error)
{
  JsonArray *a = NULL;
  guint64 v[N_LAUNCH_INTS];
  if (!tl_json_get_array (numbers, "$.numbers", "launch", TRUE, &a, error))
    return FALSE;
  if (tl_json_array_length (a) != N_LAUNCH_INTS)
    return tl_json_fail (error, "$.numbers.launch", "expected %u integers", (guint) N_LAUNCH_INTS);
  if (!tl_json_array_uints (a, "$.numbers.launch", G_MAXINT, v, error)
      || !tl_json_get_value (numbers, "$.numbers", "waves", TRUE, &l->waves, error))
    return FALSE;
  for (guint i = 0; i < N_LAUNCH_INTS; i++)
    *launch_member (l, i) = (int) v[i];
  gint64 const_bytes = -1; /* absent: the worker did not know */
  if (!tl_json_get_int (numbers, "$.numbers", "const_bytes", FALSE, 0, G_MAXINT, &const_bytes,
                        error))
    return FALSE;
  l->const_bytes = (int) const_bytes;
  return TRUE;
}

static gboolean
get_blocks (JsonObject *message, TlGpuGemmResult *r, GError **error)
{
  JsonArray *blocks = NULL;
  if (!tl_json_get_array (message, "$", "blocks", FALSE, &blocks, error))
    return FALSE;
  guint n = blocks ? json_array_get_length (blocks) : 0;
  r->blocks = n ? g_new0 (TlGpuBlockRecord, n) : NULL;
  r->n_blocks = n;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (blocks, i);
      JsonArray *row = JSON_NODE_HOLDS_ARRAY (e) ? json_node_get_array (e) : NULL;
      guint64 v[6];
      g_autofree char *path = g_strdup_printf ("$.blocks[%u]", i);
      if (row == NULL || json_array_get_length (row) != 6)
        return tl_json_fail (error, path, "expected 6 integers");
      if (!tl_json_array_uints (row, path, G_MAXINT64, v, error))
        return FALSE;
      r->blocks[i] = (TlGpuBlockRecord) { (uint32_t) v[0], (uint32_t) v[1], (uint32_t) v[2],
                                          (uint32_t) v[3], v[4], v[5] };
    }
  return TRUE;
}

gboolean
tl_user_job_get_result (JsonObject *message, TlGpuGemmResult *r, GError **error)
{
  memset (r, 0, sizeof *r);
  JsonObject *numbers = NULL;
  JsonArray *times = NULL;
  if (!tl_json_get_object (message, "$", "numbers", TRUE, &numbers, error)
      || !tl_json_get_array (numbers, "$.numbers", "times_ms", TRUE, &times, error))
    return FALSE;
  r->n_times = (int) tl_json_array_length (times);
  gboolean ok = tl_json_array_values (times, "$.numbers.times_ms", (gsize) r->n_times,
                                      &r->times_ms, error)
                && tl_json_get_value (numbers, "$.numbers", "upload_ms", TRUE, &r->upload_ms, error)
                && tl_json_get_value (numbers, "$.numbers", "download_ms", TRUE, &r->download_ms,
                                      error)
                && tl_json_get_value (numbers, "$.numbers", "instrumented_median_ms", TRUE,
                                      &r->instrumented_median_ms, error)
                && get_launch (numbers, &r->launch, error)
                && get_counters (numbers, &r->counters, error) && get_blocks (message, r, error);
  if (!ok)
    {
      g_free (r->times_ms);
      g_free (r->blocks);
      memset (r, 0, sizeof *r);
      return FALSE;
    }
  if (!isfinite (r->instrumented_median_ms))
    r->instrumented_median_ms = 0.0;
  return TRUE;
}
