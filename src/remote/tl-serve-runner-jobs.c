/* tl-serve-runner-jobs.c — the worker's jobs on its TlRunner: devices, gemm, gauss.
 *
 * The runner is the one the app uses locally: one worker thread that owns
 * the GPUs and runs jobs in order.  Its signals arrive on the worker's
 * main loop and become messages at once, so a kernel's result leaves the
 * moment the kernel is done.
 */
#include "remote/tl-serve-kinds.h"

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "record/tl-gauss-record.h"
#include "record/tl-machine.h"
#include "record/tl-record.h"
#include "remote/tl-wire.h"
#include "run/tl-gauss-run.h"
#include "run/tl-user-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ---- devices ----------------------------------------------------------------- */

static void
devices_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  TlServeJob *job = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) gpus = tl_runner_probe_devices_finish (TL_RUNNER (source), result, &error);
  if (gpus == NULL && !g_error_matches (error, TL_ERROR, TL_ERROR_NO_DEVICE))
    {
      tl_serve_job_done (job, error, -1);
      return;
    }
  JsonBuilder *b = tl_wire_begin ("devices");
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; gpus && i < gpus->len; i++)
    json_builder_add_value (b, tl_gpu_facts_to_json (&g_array_index (gpus, TlGpuFacts, i)));
  json_builder_end_array (b);
  /* no GPU is an answer, not an error: the CPU serves */
  if (error)
    tl_json_member_string (b, "no_device", error->message);
  tl_serve_add_machine (b);
  tl_serve_job_send (job, b, NULL);
  tl_serve_job_done (job, NULL, -1);
}

gboolean
tl_serve_start_devices (TlServeJob *job, JsonObject *message, GError **error)
{
  TlRunner *runner = tl_serve_get_runner (tl_serve_job_get_serve (job));
  tl_runner_probe_devices_async (runner, tl_serve_job_get_cancellable (job), devices_done_cb, job);
  return TRUE;
}

/* ---- inputs ------------------------------------------------------------------ */

/* {"upload": SHA256} or {"generator": SPEC, "seed": N, "rows": R, "cols": C,
 * "dtype": D}: the matrix, or NULL with the error. */
static TlMatrix *
load_input (TlServe *serve, JsonObject *input, const char *name, GError **error)
{
  const char *sha = tl_json_object_get_string (input, "upload", NULL);
  if (sha)
    return tl_serve_get_upload_matrix (serve, sha, name, error);
  const char *spec = tl_json_object_get_string (input, "generator", NULL);
  TlDtype dtype = TL_DTYPE_FLOAT32;
  gint64 rows = tl_wire_get_count (input, "rows", 0), cols = tl_wire_get_count (input, "cols", 0);
  if (spec == NULL || rows <= 0 || cols <= 0
      || !tl_dtype_from_name (tl_json_object_get_string (input, "dtype", ""), &dtype))
    {
      g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                   _("%s: neither an upload nor a complete generator recipe"), name);
      return NULL;
    }
  return tl_generate (spec, dtype, rows, cols, tl_wire_get_count (input, "seed", 0), error);
}

/* What a generated input is, all of it: the key it is kept under. */
static char *
recipe_key (const TlJob *job, int which)
{
  const TlSource *s = which == 0 ? &job->a : &job->b;
  if (s->kind != TL_SOURCE_GENERATOR)
    return NULL;
  return g_strdup_printf ("recipe %s %s %zu×%zu seed %" G_GUINT64_FORMAT,
                          s->generator ? s->generator : "(default)", tl_dtype_name (job->dtype),
                          which == 0 ? job->m : job->k, which == 0 ? job->k : job->n, s->seed);
}

static gboolean
load_job_inputs (TlServeJob *job, JsonObject *message, TlJob *tl_job, GError **error)
{
  JsonNode *node = json_object_get_member (message, "inputs");
  JsonObject *inputs = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  TlServe *serve = tl_serve_job_get_serve (job);
  const char *sha_a = inputs ? tl_json_object_get_string (inputs, "a", NULL) : NULL;
  const char *sha_b = inputs ? tl_json_object_get_string (inputs, "b", NULL) : NULL;
  for (int i = 0; i < 2; i++)
    {
      const char *sha = i == 0 ? sha_a : sha_b;
      if (sha == NULL)
        {
          /* the job's source says how to make it: made by the runner, or
           * kept from a job before that made the same */
          g_autofree char *key = recipe_key (tl_job, i);
          TlMatrix *kept = key ? tl_serve_get_kept_input (serve, key) : NULL;
          if (i == 0)
            tl_job->a_matrix = kept;
          else
            tl_job->b_matrix = kept;
          continue;
        }
      TlMatrix *m = tl_serve_get_upload_matrix (serve, sha, i == 0 ? "A" : "B", error);
      if (m == NULL)
        return FALSE;
      if (i == 0)
        tl_job->a_matrix = m;
      else
        tl_job->b_matrix = m;
    }
  return TRUE;
}

/* ---- gemm -------------------------------------------------------------------- */

typedef struct
{
  TlServeJob *job;
  TlRunner *runner;
  guint runner_id;
  gulong progress_handler, kernel_handler;
  /* "matrices" of the job message: sent without being asked, each after
   * what it belongs to (C after its kernel; the others after the record) */
  gboolean send_c, send_reference, send_inputs;
  gint64 max_side;
} GemmJob;

static gboolean
get_flag (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && tl_json_node_is_bool (n) && json_node_get_boolean (n);
}

static void
gemm_progress_cb (TlRunner *runner, const TlRunProgress *p, GemmJob *g)
{
  if (p->job_id != g->runner_id)
    return;
  JsonBuilder *b = tl_wire_begin ("progress");
  tl_json_member_string (b, "kernel", p->kernel_id);
  tl_json_member_string (b, "stage", p->stage);
  json_builder_set_member_name (b, "fraction");
  json_builder_add_double_value (b, isfinite (p->fraction) ? p->fraction : 0);
  tl_serve_job_send (g->job, b, NULL);
}

static void
gemm_kernel_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, GemmJob *g)
{
  if (job_id != g->runner_id)
    return;
  if (run->c)
    {
      g_autofree char *name = g_strdup_printf ("c/%s", run->kernel_id);
      tl_serve_job_keep_matrix (g->job, name, run->c);
    }
  JsonBuilder *b = tl_wire_begin ("kernel");
  json_builder_set_member_name (b, "run");
  json_builder_add_value (b, tl_kernel_run_to_json (run));
  tl_json_member_bool (b, "has_c", run->c != NULL);
  /* the worker's monotonic clock: on one machine, the client can tell how
   * long the result took to reach it (docs/perf/remote-*) */
  tl_json_member_int (b, "sent_us", g_get_monotonic_time ());
  tl_serve_job_send (g->job, b, NULL);
  if (g->send_c && run->c)
    {
      g_autofree char *name = g_strdup_printf ("c/%s", run->kernel_id);
      tl_serve_job_send_matrix (g->job, name, run->c, g->max_side, 0);
    }
}

static void
gemm_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GemmJob *g = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) record = tl_runner_run_gemm_finish (g->runner, result, &error);
  g_signal_handler_disconnect (g->runner, g->progress_handler);
  g_signal_handler_disconnect (g->runner, g->kernel_handler);
  if (record)
    {
      TlServe *serve = tl_serve_job_get_serve (g->job);
      for (int i = 0; i < 2; i++)
        {
          g_autofree char *key = recipe_key (record->job, i);
          TlMatrix *m = i == 0 ? record->a : record->b;
          if (key && m)
            tl_serve_keep_input (serve, key, m);
        }
      tl_serve_job_keep_matrix (g->job, "a", record->a);
      tl_serve_job_keep_matrix (g->job, "b", record->b);
      tl_serve_job_keep_matrix (g->job, "reference", record->reference);
      JsonBuilder *b = tl_wire_begin ("record");
      json_builder_set_member_name (b, "record");
      json_builder_add_value (b, tl_run_record_to_json (record));
      tl_serve_job_send (g->job, b, NULL);
      if (g->send_reference && record->reference)
        tl_serve_job_send_matrix (g->job, "reference", record->reference, g->max_side, 0);
      if (g->send_inputs && record->a && record->b)
        {
          tl_serve_job_send_matrix (g->job, "a", record->a, g->max_side, 0);
          tl_serve_job_send_matrix (g->job, "b", record->b, g->max_side, 0);
        }
    }
  tl_serve_job_done (g->job, error, -1);
  g_free (g);
}

gboolean
tl_serve_start_gemm (TlServeJob *job, JsonObject *message, GError **error)
{
  /* the client's own kernels, by the ids the job names them with */
  JsonNode *user = json_object_get_member (message, "user_kernels");
  if (user && JSON_NODE_HOLDS_OBJECT (user))
    tl_user_run_register_json (json_node_get_object (user));
  JsonNode *node = json_object_get_member (message, "job");
  g_autoptr (TlJob) tl_job = node ? tl_job_from_json (node, error) : NULL;
  if (tl_job == NULL)
    {
      if (node == NULL)
        g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                             _("a gemm job without its “job”"));
      return FALSE;
    }
  tl_job->keep_matrices = get_flag (message, "keep_matrices");
  if (!load_job_inputs (job, message, tl_job, error))
    return FALSE;

  GemmJob *g = g_new0 (GemmJob, 1);
  g->job = job;
  JsonNode *mn = json_object_get_member (message, "matrices");
  JsonObject *matrices = mn && JSON_NODE_HOLDS_OBJECT (mn) ? json_node_get_object (mn) : NULL;
  g->send_c = get_flag (matrices, "c");
  g->send_reference = get_flag (matrices, "reference");
  g->send_inputs = get_flag (matrices, "inputs");
  g->max_side = matrices ? tl_wire_get_count (matrices, "max_side", 0) : 0;
  g->runner = tl_serve_get_runner (tl_serve_job_get_serve (job));
  g->progress_handler = g_signal_connect (g->runner, "progress", G_CALLBACK (gemm_progress_cb), g);
  g->kernel_handler = g_signal_connect (g->runner, "kernel-finished", G_CALLBACK (gemm_kernel_cb), g);
  g->runner_id = tl_runner_run_gemm_async (g->runner, tl_job, tl_serve_job_get_cancellable (job),
                                           gemm_done_cb, g);
  return TRUE;
}

/* ---- gauss ------------------------------------------------------------------- */

typedef struct
{
  TlServeJob *job;
  TlMatrix *a;
  TlLuRecorder *recorder;
  char *kernel;
} GaussJob;

static void
add_lu_summary (JsonBuilder *b, const TlLuResult *lu)
{
  json_builder_set_member_name (b, "lu");
  json_builder_begin_object (b);
  tl_json_member_string (b, "kernel", lu->kernel_id);
  tl_json_member_int (b, "block_size", lu->block_size);
  tl_json_member_int (b, "info", lu->info);
  tl_json_member_int (b, "rank", lu->rank);
  tl_json_member_int (b, "det_sign", lu->det_sign);
  tl_json_member_int (b, "gpu_ordinal", lu->gpu_ordinal);
  const struct { const char *name; double value; } numbers[] = {
    { "log_abs_det", lu->log_abs_det }, { "growth", lu->growth },
    { "elapsed_s", lu->elapsed_s }, { "record_s", lu->record_s },
  };
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (isfinite (numbers[i].value))
      {
        json_builder_set_member_name (b, numbers[i].name);
        json_builder_add_double_value (b, numbers[i].value);
      }
  json_builder_end_object (b);
}

/* The step recording as a stream: "gauss-record" (its head and how many
 * of each part follow), then "gauss-part" messages with the steps, block
 * steps and snapshots in order, a few at a time, their numbers as float64
 * bytes after each — never one document of them all, which at n = 1000
 * is 50 MB of decimal text, built, written and parsed whole. */
#define PART_MESSAGE_BYTES (256u << 10) /* a message's values, about */
#define PART_MESSAGE_PARTS 64

static void
send_recording (TlServeJob *job, const TlLuRecorder *recorder)
{
  tl_serve_job_send (job, tl_wire_gauss_record (recorder), NULL);
  for (int part = 0; part < TL_LU_N_PARTS; part++)
    {
      guint n = tl_lu_recorder_n_parts (recorder, part);
      for (guint first = 0; first < n;)
        {
          /* as many parts as fill a message */
          guint count = 0;
          gsize bytes = 0;
          while (first + count < n && count < PART_MESSAGE_PARTS && bytes < PART_MESSAGE_BYTES)
            bytes += tl_lu_recorder_part_values (recorder, part, first + count++) * sizeof (double);
          /* its own bytes: the writer sends them later, on its thread */
          GByteArray *values = g_byte_array_sized_new (bytes);
          JsonBuilder *b = tl_wire_gauss_part (recorder, part, first, count, values);
          g_autoptr (GBytes) payload = g_byte_array_free_to_bytes (values);
          tl_serve_job_send (job, b, g_bytes_get_size (payload) ? payload : NULL);
          first += count;
        }
    }
}

static void
gauss_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  GaussJob *g = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlGaussResult) done = tl_runner_run_gauss_finish (TL_RUNNER (source), result, &error);
  if (done && done->lu)
    {
      if (g->recorder)
        send_recording (g->job, g->recorder);
      /* last: the client takes the recording as whole only with it */
      JsonBuilder *b = tl_wire_begin ("gauss");
      add_lu_summary (b, done->lu);
      tl_json_member_bool (b, "recorded", g->recorder != NULL);
      tl_serve_job_send (g->job, b, NULL);
    }
  tl_serve_job_done (g->job, error, -1);
  tl_matrix_unref (g->a);
  g_clear_pointer (&g->recorder, tl_lu_recorder_free);
  g_free (g->kernel);
  g_free (g);
}

gboolean
tl_serve_start_gauss (TlServeJob *job, JsonObject *message, GError **error)
{
  JsonNode *node = json_object_get_member (message, "a");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                           _("a gauss job without its matrix “a”"));
      return FALSE;
    }
  g_autoptr (TlMatrix) a = load_input (tl_serve_job_get_serve (job), json_node_get_object (node),
                                       "A", error);
  if (a == NULL)
    return FALSE;
  TlPivoting pivoting = TL_PIVOTING_PARTIAL;
  tl_pivoting_from_name (tl_json_object_get_string (message, "pivoting", "partial"), &pivoting);
  JsonNode *steps = json_object_get_member (message, "record_steps");

  GaussJob *g = g_new0 (GaussJob, 1);
  g->job = job;
  g->a = g_steal_pointer (&a);
  g->kernel = g_strdup (tl_json_object_get_string (message, "kernel", NULL));
  if (steps && tl_json_node_is_bool (steps) && json_node_get_boolean (steps))
    g->recorder = tl_lu_recorder_new (0);
  TlGaussJob gauss = { .kind = TL_GAUSS_FACTOR, .a = g->a, .recorder = g->recorder };
  gauss.options.kernel_id = g->kernel;
  gauss.options.block_size = tl_wire_get_count (message, "block_size", 0);
  gauss.options.pivoting = pivoting;
  gauss.options.gpu_ordinal = (int) MIN (tl_wire_get_count (message, "gpu_ordinal", 0), 64);
  tl_runner_run_gauss_async (tl_serve_get_runner (tl_serve_job_get_serve (job)), &gauss,
                             tl_serve_job_get_cancellable (job), gauss_done_cb, g);
  return TRUE;
}
