/* tl-remote-host.c — a worker elsewhere, seen as a TlRunner. */
#include "remote/tl-remote-host.h"

#include "core/tl-error.h"
#include "core/tl-memory.h"
#include "core/tl-json.h"
#include "io/tl-io.h"
#include "record/tl-gauss-record.h"
#include "remote/tl-remote-connection.h"
#include "remote/tl-wire.h"
#include "run/tl-user-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

struct _TlRemoteHost
{
  TlRemoteTarget *target;
  TlRunner *runner;
  TlRemoteConnection *conn; /* only the runner's worker thread touches it */
};

TlRemoteHost *
tl_remote_host_new (const TlRemoteTarget *target)
{
  TlRemoteHost *host = g_new0 (TlRemoteHost, 1);
  host->target = tl_remote_target_copy (target);
  host->runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  host->conn = tl_remote_connection_new (target);
  return host;
}

static gpointer
close_func (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  tl_remote_connection_free (data);
  return GINT_TO_POINTER (1);
}

void
tl_remote_host_free (TlRemoteHost *host)
{
  if (host == NULL)
    return;
  /* the connection ends on the thread that used it, after any job queued */
  tl_runner_run_func (host->runner, close_func, host->conn, NULL, NULL, NULL, NULL);
  g_object_unref (host->runner);
  tl_remote_target_free (host->target);
  g_free (host);
}

static gpointer
release_func (TlRunnerJob *job, gpointer data, GCancellable *cancellable, GError **error)
{
  tl_remote_connection_close (data);
  return GINT_TO_POINTER (1);
}

void
tl_remote_host_release (TlRemoteHost *host)
{
  tl_runner_run_func_async (host->runner, release_func, host->conn, NULL, NULL, NULL, NULL, NULL);
}

const TlRemoteTarget *
tl_remote_host_get_target (TlRemoteHost *host)
{
  return host->target;
}

TlRunner *
tl_remote_host_get_runner (TlRemoteHost *host)
{
  return host->runner;
}

void
tl_remote_devices_free (TlRemoteDevices *devices)
{
  if (devices == NULL)
    return;
  g_clear_pointer (&devices->gpus, g_array_unref);
  g_free (devices->no_device);
  tl_machine_facts_clear (&devices->machine);
  g_free (devices);
}

/* The connection's words ("connecting to gpu1", "uploading A") as the job's progress. */
static void
status_cb (const char *text, double fraction, gpointer user_data)
{
  tl_runner_job_progress (user_data, NULL, text, fraction >= 0 ? fraction : 0);
}

static TlRemoteConnection *
connection_for (TlRemoteHost *host, TlRunnerJob *job)
{
  tl_remote_connection_set_status_func (host->conn, status_cb, job);
  return host->conn;
}

static JsonObject *
member_object (JsonObject *o, const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* The worker's "machine" object (its hello, a devices answer). */
static void
machine_from_json (JsonObject *m, TlMachineFacts *out)
{
  out->host_name = g_strdup (tl_json_object_get_string (m, "host_name", "?"));
  out->os = g_strdup (tl_json_object_get_string (m, "os", "?"));
  out->cpu_model = g_strdup (tl_json_object_get_string (m, "cpu_model", "?"));
  out->cores = m ? tl_wire_get_count (m, "cores", 0) : 0;
}

/* ---- inputs ----------------------------------------------------------------------- */

/* Uploads m as NPY (once per connection); its SHA-256. */
static char *
upload_matrix (TlRemoteConnection *conn, const TlMatrix *m, const char *name,
               GCancellable *cancellable, GError **error)
{
  /* a matrix the worker has (the next run of the same input) is neither
   * copied into NPY bytes nor sent again: its SHA-256 is read from it */
  g_autofree char *sha = tl_wire_matrix_sha256 (m);
  g_autoptr (GError) local = NULL;
  if (tl_remote_connection_has_upload (conn, sha, cancellable, &local))
    return g_steal_pointer (&sha);
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  g_autoptr (GBytes) npy = tl_wire_matrix_to_npy (m, error);
  return npy ? tl_remote_connection_upload (conn, npy, name, cancellable, error) : NULL;
}

/* Adds "a"/"b": SHA256 to inputs unless the recipe in the job makes the
 * same matrix there. */
static gboolean
add_input (TlRemoteConnection *conn, JsonBuilder *inputs, const char *name, const TlJob *job,
           const TlSource *source, TlMatrix *given, GCancellable *cancellable, GError **error)
{
  g_autoptr (TlMatrix) loaded = NULL;
  TlMatrix *m = given;
  if (source->kind == TL_SOURCE_GENERATOR && (m == NULL || m->dtype == job->dtype))
    return TRUE; /* made there from its recipe, as it was here */
  if (m == NULL && source->kind == TL_SOURCE_FILE)
    m = loaded = tl_matrix_load (source->path, TL_FORMAT_AUTO, error);
  if (m == NULL)
    {
      if (error && *error == NULL)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("%s: no matrix was given"), name);
      return FALSE;
    }
  g_autofree char *label = g_strdup_printf ("%s.npy", name);
  g_autofree char *sha = upload_matrix (conn, m, label, cancellable, error);
  if (sha == NULL)
    return FALSE;
  tl_json_member_string (inputs, name[0] == 'A' ? "a" : "b", sha);
  return TRUE;
}

/* ---- GEMM ------------------------------------------------------------------------- */

typedef struct
{
  TlRemoteHost *host;
  TlJob *job;
  TlRunnerJob *rjob;
  GPtrArray *runs;        /* TlKernelRun*, as they came */
  TlKernelRun *held;      /* waits for its C */
  TlRunRecord *record;
  TlMatrix *reference, *a, *b;
  guint pooled;           /* the largest pooling factor of what came */
  gboolean cut;           /* a matrix was cut off on its way by a cancel */
} GemmCall;

/* What a job freed (its messages' text and parsed trees, payload
 * buffers) goes back to the system once the job is done, on the runner's
 * thread after its result went: glibc keeps freed blocks otherwise, and
 * the app would hold each job's peak for as long as it runs (the app's
 * threads share one arena for this: tl_memory_share_one_arena).  The
 * record the job made stays, and so do blocks a record of an earlier job
 * left that the next job takes. */
static void
give_back_freed_memory (void)
{
  tl_memory_give_back ();
}

static void
gemm_call_free (GemmCall *c)
{
  tl_job_free (c->job);
  g_ptr_array_unref (c->runs);
  g_clear_pointer (&c->held, tl_kernel_run_free);
  g_clear_pointer (&c->record, tl_run_record_unref);
  g_clear_pointer (&c->reference, tl_matrix_unref);
  g_clear_pointer (&c->a, tl_matrix_unref);
  g_clear_pointer (&c->b, tl_matrix_unref);
  g_free (c);
  give_back_freed_memory ();
}

/* A kernel's result is said twice when its C travels: at once without it
 * (the app shows the row the moment the worker had it) and again with C
 * (kernel-finished for a kernel already said replaces it). */
static void
deliver (GemmCall *c, TlKernelRun *run, gboolean again)
{
  g_ptr_array_add (c->runs, run);
  if (again)
    tl_runner_job_kernel_finished (c->rjob, run);
}

static void
take_matrix (GemmCall *c, TlRemoteConnection *conn, JsonObject *msg, GBytes *payload)
{
  const char *name = tl_json_object_get_string (msg, "name", "");
  TlMatrix *m = NULL;
  if (json_object_has_member (msg, "cut"))
    c->cut = TRUE;
  if (!json_object_has_member (msg, "error"))
    {
      g_autofree char *what = g_strdup_printf ("%s from %s", name,
                                               tl_remote_target_host (c->host->target));
      g_autoptr (GError) error = NULL;
      m = tl_remote_connection_take_matrix (conn, payload, what, &error);
      if (m == NULL)
        g_debug ("remote: %s", error->message);
      c->pooled = MAX (c->pooled, (guint) tl_wire_get_count (msg, "factor_r", 1));
      c->pooled = MAX (c->pooled, (guint) tl_wire_get_count (msg, "factor_c", 1));
    }
  if (g_str_has_prefix (name, "c/") && c->held && strcmp (name + 2, c->held->kernel_id) == 0)
    {
      c->held->c = m;
      deliver (c, g_steal_pointer (&c->held), m != NULL);
      return;
    }
  TlMatrix **slot = strcmp (name, "reference") == 0 ? &c->reference
                    : strcmp (name, "a") == 0       ? &c->a
                    : strcmp (name, "b") == 0       ? &c->b
                                                    : NULL;
  if (slot)
    {
      g_clear_pointer (slot, tl_matrix_unref);
      *slot = m;
    }
  else if (m)
    tl_matrix_unref (m);
}

static gboolean
gemm_message_cb (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload,
                 gpointer user_data, GError **error)
{
  GemmCall *c = user_data;
  if (strcmp (type, "progress") == 0)
    {
      JsonNode *f = json_object_get_member (msg, "fraction");
      tl_runner_job_progress (c->rjob, tl_json_object_get_string (msg, "kernel", NULL),
                              tl_json_object_get_string (msg, "stage", ""),
                              f && tl_json_node_is_number (f) ? json_node_get_double (f) : 0);
    }
  else if (strcmp (type, "kernel") == 0)
    {
      JsonNode *node = json_object_get_member (msg, "run");
      TlKernelRun *run = node ? tl_kernel_run_from_json (node, c->job, error) : NULL;
      if (run == NULL)
        return FALSE;
      /* for measurements on one machine (docs/perf/remote-*): both clocks are its monotonic one */
      g_debug ("remote: %s sent by the worker at %.3f ms, arrived at %.3f ms (monotonic)",
               run->kernel_id, tl_wire_get_count (msg, "sent_us", 0) / 1000.0,
               g_get_monotonic_time () / 1000.0);
      JsonNode *has_c = json_object_get_member (msg, "has_c");
      if (c->held)
        deliver (c, g_steal_pointer (&c->held), FALSE); /* its C did not come */
      tl_runner_job_kernel_finished (c->rjob, run);
      if (c->job->keep_matrices && has_c && json_node_get_boolean (has_c))
        c->held = run;
      else
        deliver (c, run, FALSE);
    }
  else if (strcmp (type, "matrix") == 0)
    take_matrix (c, conn, msg, payload);
  else if (strcmp (type, "record") == 0)
    {
      JsonNode *node = json_object_get_member (msg, "record");
      if (c->held)
        deliver (c, g_steal_pointer (&c->held), FALSE);
      g_clear_pointer (&c->record, tl_run_record_unref);
      c->record = node ? tl_run_record_from_json (node, error) : NULL;
      return c->record != NULL;
    }
  return TRUE;
}

/* A job that broke off (the connection lost, a message wrong): the
 * error names the job as well as the host; nothing of it is shown. */
static void
name_broken_job (GError **error, const char *job)
{
  if (error && *error && (*error)->domain == TL_REMOTE_ERROR
      && ((*error)->code == TL_REMOTE_ERROR_LOST || (*error)->code == TL_REMOTE_ERROR_PROTOCOL))
    g_prefix_error (error, _("%s did not finish, and nothing of it is shown: "), job);
}

static void
name_where (TlRunRecord *record, TlRemoteConnection *conn)
{
  if (record->extensions == NULL)
    record->extensions = json_object_new ();
  json_object_set_member (record->extensions, "remote", tl_remote_connection_where (conn));
}

static void
append_note (TlRunRecord *record, const char *text)
{
  char *note = record->note ? g_strdup_printf ("%s %s", record->note, text) : g_strdup (text);
  g_free (record->note);
  record->note = note;
}

/* The record that came back, with the matrices that came beside it. */
static TlRunRecord *
complete_record (GemmCall *c, TlRemoteConnection *conn)
{
  TlRunRecord *record = g_steal_pointer (&c->record);
  for (guint i = 0; i < record->runs->len; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      for (guint j = 0; j < c->runs->len && run->c == NULL; j++)
        {
          TlKernelRun *got = c->runs->pdata[j];
          if (strcmp (got->kernel_id, run->kernel_id) == 0 && got->c)
            run->c = tl_matrix_ref (got->c);
        }
    }
  record->reference = g_steal_pointer (&c->reference);
  /* the inputs: this side's own when it sent or made them, else what came */
  record->a = c->job->a_matrix ? tl_matrix_ref (c->job->a_matrix) : g_steal_pointer (&c->a);
  record->b = c->job->b_matrix ? tl_matrix_ref (c->job->b_matrix) : g_steal_pointer (&c->b);
  name_where (record, conn);
  if (c->cut)
    {
      /* a cancel stopped a matrix on its way: the record says so */
      record->cancelled = TRUE;
      g_autofree char *text = g_strdup_printf (
        _("Cancelled while the matrices came from %s: those that had not come are not shown."),
        tl_remote_target_host (c->host->target));
      append_note (record, text);
    }
  if (c->pooled > 1)
    {
      g_autofree char *text = g_strdup_printf (
        _("The results are larger than %d×%d: C and the reference came from %s as means of "
          "blocks of up to %u×%u elements (the heatmaps show those; the full matrices stay there: "
          "tilelab-cli --host … gemm --record FILE --save-matrices fetches them)."),
        TL_REMOTE_MAX_SIDE, TL_REMOTE_MAX_SIDE, tl_remote_target_host (c->host->target),
        c->pooled, c->pooled);
      append_note (record, text);
    }
  return record;
}

/* A connection lost mid-run: what finished, marked. */
static TlRunRecord *
partial_record (GemmCall *c, TlRemoteConnection *conn, const GError *error)
{
  TlRunRecord *record = tl_run_record_new (c->job);
  JsonObject *hello = tl_remote_connection_get_hello (conn);
  JsonObject *machine = member_object (hello, "machine");
  if (machine)
    {
      tl_machine_facts_clear (&record->machine);
      machine_from_json (machine, &record->machine);
    }
  for (guint i = 0; i < c->runs->len; i++)
    g_ptr_array_add (record->runs, tl_kernel_run_copy (c->runs->pdata[i]));
  record->cancelled = TRUE;
  record->a = c->job->a_matrix ? tl_matrix_ref (c->job->a_matrix) : NULL;
  record->b = c->job->b_matrix ? tl_matrix_ref (c->job->b_matrix) : NULL;
  g_autofree char *text = g_strdup_printf (
    ngettext ("%s The kernel that finished is shown; the others did not finish.",
              "%s The %u kernels that finished are shown; the others did not finish.",
              c->runs->len),
    error->message, c->runs->len);
  append_note (record, text);
  name_where (record, conn);
  JsonNode *remote = json_object_get_member (record->extensions, "remote");
  json_object_set_string_member (json_node_get_object (remote), "lost", text);
  return record;
}

static gpointer
gemm_func (TlRunnerJob *rjob, gpointer data, GCancellable *cancellable, GError **error)
{
  GemmCall *c = data;
  c->rjob = rjob;
  TlRemoteConnection *conn = connection_for (c->host, rjob);
  g_autoptr (JsonBuilder) inputs = json_builder_new ();
  json_builder_begin_object (inputs);
  if (!add_input (conn, inputs, "A", c->job, &c->job->a, c->job->a_matrix, cancellable, error)
      || !add_input (conn, inputs, "B", c->job, &c->job->b, c->job->b_matrix, cancellable, error))
    return NULL;
  json_builder_end_object (inputs);

  JsonBuilder *b = tl_wire_begin ("job");
  tl_json_member_string (b, "kind", "gemm");
  json_builder_set_member_name (b, "job");
  json_builder_add_value (b, tl_job_to_json (c->job));
  /* your own kernels travel as their text; the worker compiles them */
  JsonObject *user_kernels = tl_user_run_kernels_json ((const char *const *) c->job->kernels);
  if (user_kernels)
    {
      json_builder_set_member_name (b, "user_kernels");
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (node, user_kernels);
      json_builder_add_value (b, node);
    }
  tl_json_member_bool (b, "keep_matrices", c->job->keep_matrices);
  json_builder_set_member_name (b, "inputs");
  json_builder_add_value (b, json_builder_get_root (inputs));
  json_builder_set_member_name (b, "matrices");
  json_builder_begin_object (b);
  tl_json_member_bool (b, "c", c->job->keep_matrices);
  tl_json_member_bool (b, "reference", c->job->keep_matrices);
  tl_json_member_bool (b, "inputs", c->job->keep_matrices
                                      && (c->job->a_matrix == NULL || c->job->b_matrix == NULL));
  tl_json_member_int (b, "max_side", TL_REMOTE_MAX_SIDE);
  json_builder_end_object (b);

  g_autoptr (GError) local = NULL;
  g_autoptr (JsonObject) done = tl_remote_connection_run_job (conn, b, gemm_message_cb, c,
                                                              cancellable, &local);
  if (c->held)
    deliver (c, g_steal_pointer (&c->held), FALSE);
  if (done == NULL)
    {
      /* lost, or a cancel the worker did not answer: what finished stands */
      if (c->runs->len > 0 && local->domain == TL_REMOTE_ERROR)
        return partial_record (c, conn, local);
      g_propagate_error (error, g_steal_pointer (&local));
      g_autofree char *what = g_strdup_printf (_("GEMM %zu×%zu×%zu"), c->job->m, c->job->k,
                                               c->job->n);
      name_broken_job (error, what);
      return NULL;
    }
  if (c->record)
    return complete_record (c, conn);
  g_propagate_error (error, tl_wire_get_error (done));
  return NULL;
}

guint
tl_remote_host_run_gemm_async (TlRemoteHost *host, const TlJob *job, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_val_if_fail (host != NULL && job != NULL, 0);
  GemmCall *c = g_new0 (GemmCall, 1);
  c->host = host;
  c->job = tl_job_copy (job);
  c->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  return tl_runner_run_func_async (host->runner, gemm_func, c, (GDestroyNotify) gemm_call_free,
                                   (GDestroyNotify) tl_run_record_unref, cancellable, callback,
                                   user_data);
}

const char *
tl_remote_record_lost_connection (const TlRunRecord *record)
{
  JsonObject *remote = member_object (record ? record->extensions : NULL, "remote");
  return remote ? tl_json_object_get_string (remote, "lost", NULL) : NULL;
}

/* ---- Gauss --------------------------------------------------------------------------- */

typedef struct
{
  TlRemoteHost *host;
  TlMatrix *a;
  char *kernel;
  gsize block_size;
  TlPivoting pivoting;
  int gpu_ordinal;
  TlLuRecorder *recorder;   /* the caller's: filled with what came */
  TlLuRecorder *incoming;   /* the recording while its parts come */
  guint expected[TL_LU_N_PARTS];
  TlLuResult *lu;
} GaussCall;

static void
gauss_call_free (GaussCall *c)
{
  tl_matrix_unref (c->a);
  g_free (c->kernel);
  g_clear_pointer (&c->incoming, tl_lu_recorder_free);
  g_clear_pointer (&c->lu, tl_lu_result_free);
  g_free (c);
  give_back_freed_memory ();
}

static TlLuResult *
lu_from_summary (JsonObject *o)
{
  TlLuResult *lu = g_new0 (TlLuResult, 1);
  lu->kernel_id = g_strdup (tl_json_object_get_string (o, "kernel", "?"));
  lu->block_size = tl_wire_get_count (o, "block_size", 0);
  lu->info = tl_wire_get_count (o, "info", 0);
  lu->rank = tl_wire_get_count (o, "rank", 0);
  lu->gpu_ordinal = tl_wire_get_count (o, "gpu_ordinal", 0);
  JsonNode *sign = json_object_get_member (o, "det_sign");
  lu->det_sign = sign && tl_json_node_is_int (sign) ? (int) json_node_get_int (sign) : 0;
  const struct { const char *name; double *field; } numbers[] = {
    { "log_abs_det", &lu->log_abs_det }, { "growth", &lu->growth },
    { "elapsed_s", &lu->elapsed_s }, { "record_s", &lu->record_s },
  };
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      JsonNode *n = json_object_get_member (o, numbers[i].name);
      *numbers[i].field = n && tl_json_node_is_number (n) ? json_node_get_double (n) : NAN;
    }
  return lu;
}

/* The steps that came replace the caller's recorder's contents. */
static void
take_recorder (TlLuRecorder *dst, TlLuRecorder *src)
{
  TlLuRecorder tmp = *dst;
  *dst = *src;
  *src = tmp;
  tl_lu_recorder_free (src);
}

static gboolean
recording_error (GError **error, const char *what)
{
  g_set_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
               _("the Gauss step recording came incomplete (%s)"), what);
  return FALSE;
}

/* "gauss-record": the head, and how many parts follow. */
static gboolean
begin_recording (GaussCall *c, JsonObject *msg, GError **error)
{
  JsonNode *head = json_object_get_member (msg, "head");
  JsonObject *parts = member_object (msg, "parts");
  if (head == NULL || parts == NULL)
    return recording_error (error, _("no head"));
  g_clear_pointer (&c->incoming, tl_lu_recorder_free);
  c->incoming = tl_lu_recorder_begin_from_json (head, error);
  for (int p = 0; p < TL_LU_N_PARTS; p++)
    c->expected[p] = (guint) MIN (tl_wire_get_count (parts, tl_wire_gauss_parts[p], 0), G_MAXUINT);
  return c->incoming != NULL;
}

/* "gauss-part": the next steps, block steps or snapshots, in order, their
 * numbers in the bytes after the message. */
static gboolean
take_recording_part (GaussCall *c, JsonObject *msg, GBytes *payload, GError **error)
{
  const char *name = tl_json_object_get_string (msg, "part", "");
  int part = 0;
  while (part < TL_LU_N_PARTS && strcmp (name, tl_wire_gauss_parts[part]) != 0)
    part++;
  JsonNode *node = json_object_get_member (msg, "values");
  JsonArray *values = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (c->incoming == NULL || part == TL_LU_N_PARTS || values == NULL)
    return recording_error (error, _("a part out of place"));
  guint have = tl_lu_recorder_n_parts (c->incoming, part);
  guint n = json_array_get_length (values);
  if (tl_wire_get_count (msg, "index", -1) != have || n > c->expected[part] - have)
    return recording_error (error, _("a part out of order"));
  gsize used = 0;
  for (guint i = 0; i < n; i++)
    if (!tl_lu_recorder_take_part_json (c->incoming, part, json_array_get_element (values, i),
                                        payload, &used, error))
      return FALSE;
  if (payload && used != g_bytes_get_size (payload))
    return recording_error (error, _("more numbers than its parts hold"));
  return TRUE;
}

/* "gauss", the last: the recording is taken only when every part came
 * and it checks out whole. */
static gboolean
end_recording (GaussCall *c, JsonObject *msg, GError **error)
{
  JsonNode *recorded = json_object_get_member (msg, "recorded");
  if (c->recorder == NULL || !tl_json_node_is_bool (recorded) || !json_node_get_boolean (recorded))
    return TRUE;
  if (c->incoming == NULL)
    return recording_error (error, _("no head"));
  for (int p = 0; p < TL_LU_N_PARTS; p++)
    if (tl_lu_recorder_n_parts (c->incoming, p) != c->expected[p])
      return recording_error (error, _("parts missing"));
  if (!tl_lu_recorder_end_from_json (c->incoming, error))
    return FALSE;
  take_recorder (c->recorder, g_steal_pointer (&c->incoming));
  return TRUE;
}

static gboolean
gauss_message_cb (TlRemoteConnection *conn, const char *type, JsonObject *msg, GBytes *payload,
                  gpointer user_data, GError **error)
{
  GaussCall *c = user_data;
  if (strcmp (type, "gauss-record") == 0)
    return begin_recording (c, msg, error);
  if (strcmp (type, "gauss-part") == 0)
    return take_recording_part (c, msg, payload, error);
  if (strcmp (type, "gauss") != 0)
    return TRUE;
  JsonObject *summary = member_object (msg, "lu");
  if (summary == NULL)
    {
      g_set_error_literal (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL,
                           _("a Gauss result without its factorisation"));
      return FALSE;
    }
  if (!end_recording (c, msg, error))
    return FALSE;
  g_clear_pointer (&c->lu, tl_lu_result_free);
  c->lu = lu_from_summary (summary);
  return TRUE;
}

static gpointer
gauss_func (TlRunnerJob *rjob, gpointer data, GCancellable *cancellable, GError **error)
{
  GaussCall *c = data;
  TlRemoteConnection *conn = connection_for (c->host, rjob);
  g_autofree char *sha = upload_matrix (conn, c->a, "A.npy", cancellable, error);
  if (sha == NULL)
    return NULL;
  JsonBuilder *b = tl_wire_begin ("job");
  tl_json_member_string (b, "kind", "gauss");
  json_builder_set_member_name (b, "a");
  json_builder_begin_object (b);
  tl_json_member_string (b, "upload", sha);
  json_builder_end_object (b);
  tl_json_member_string (b, "kernel", c->kernel);
  tl_json_member_int (b, "block_size", c->block_size);
  tl_json_member_string (b, "pivoting", tl_pivoting_name (c->pivoting));
  tl_json_member_int (b, "gpu_ordinal", c->gpu_ordinal);
  tl_json_member_bool (b, "record_steps", c->recorder != NULL);
  g_autoptr (JsonObject) done = tl_remote_connection_run_job (conn, b, gauss_message_cb, c,
                                                              cancellable, error);
  if (done == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("LU of %zu×%zu (%s)"), c->a->rows, c->a->cols,
                                               c->kernel ? c->kernel : "?");
      name_broken_job (error, what);
      return NULL;
    }
  if (c->lu == NULL)
    {
      g_propagate_error (error, tl_wire_get_error (done));
      return NULL;
    }
  TlGaussResult *result = g_new0 (TlGaussResult, 1);
  result->lu = g_steal_pointer (&c->lu);
  return result;
}

guint
tl_remote_host_run_gauss_async (TlRemoteHost *host, const TlGaussJob *job,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data)
{
  g_return_val_if_fail (host != NULL && job != NULL && job->kind == TL_GAUSS_FACTOR, 0);
  GaussCall *c = g_new0 (GaussCall, 1);
  c->host = host;
  c->a = tl_matrix_ref ((TlMatrix *) job->a);
  c->kernel = g_strdup (job->options.kernel_id);
  c->block_size = job->options.block_size;
  c->pivoting = job->options.pivoting;
  c->gpu_ordinal = job->options.gpu_ordinal;
  c->recorder = job->recorder;
  return tl_runner_run_func_async (host->runner, gauss_func, c, (GDestroyNotify) gauss_call_free,
                                   (GDestroyNotify) tl_gauss_result_free, cancellable, callback,
                                   user_data);
}

/* ---- the device probe ---------------------------------------------------------------- */

static gboolean
devices_message_cb (TlRemoteConnection *conn, const char *type, JsonObject *msg,
                    GBytes *payload, gpointer user_data, GError **error)
{
  TlRemoteDevices **out = user_data;
  if (strcmp (type, "devices") != 0)
    return TRUE;
  TlRemoteDevices *d = g_new0 (TlRemoteDevices, 1);
  d->gpus = g_array_new (FALSE, TRUE, sizeof (TlGpuFacts));
  JsonNode *node = json_object_get_member (msg, "devices");
  JsonArray *gpus = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  for (guint i = 0; gpus && i < json_array_get_length (gpus); i++)
    {
      TlGpuFacts f;
      if (!tl_gpu_facts_from_json (json_array_get_element (gpus, i), &f, error))
        {
          tl_remote_devices_free (d);
          return FALSE;
        }
      g_array_append_val (d->gpus, f);
    }
  d->no_device = g_strdup (tl_json_object_get_string (msg, "no_device", NULL));
  machine_from_json (member_object (msg, "machine"), &d->machine);
  tl_remote_devices_free (*out);
  *out = d;
  return TRUE;
}

static gpointer
probe_func (TlRunnerJob *rjob, gpointer data, GCancellable *cancellable, GError **error)
{
  TlRemoteHost *host = data;
  TlRemoteConnection *conn = connection_for (host, rjob);
  TlRemoteDevices *devices = NULL;
  JsonBuilder *b = tl_wire_begin ("job");
  tl_json_member_string (b, "kind", "devices");
  g_autoptr (JsonObject) done = tl_remote_connection_run_job (conn, b, devices_message_cb,
                                                              &devices, cancellable, error);
  if (done && devices)
    return devices;
  tl_remote_devices_free (devices);
  if (done)
    g_propagate_error (error, tl_wire_get_error (done));
  return NULL;
}

guint
tl_remote_host_probe_async (TlRemoteHost *host, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  return tl_runner_run_func_async (host->runner, probe_func, host, NULL,
                                   (GDestroyNotify) tl_remote_devices_free, cancellable, callback,
                                   user_data);
}

TlRemoteDevices *
tl_remote_host_probe_finish (TlRemoteHost *host, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (host->runner, result, error);
}
