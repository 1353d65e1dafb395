/* tl-record.c — run records in memory and as JSON (docs/run-record.md). */
#include "record/tl-record.h"

#include "tl-config.h"
#include "core/tl-error.h"
#include "io/tl-io.h"
#include "core/tl-json.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/utsname.h>

/* A record is small even with 10⁵ block records; anything far larger is
 * not ours. */
#define MAX_RECORD_BYTES (G_GUINT64_CONSTANT (1) << 30)
/* json-glib parses recursively: refuse deep nesting before it does. */
#define MAX_JSON_DEPTH 64

/* ---- the job ---------------------------------------------------------- */

TlJob *
tl_job_new_gemm (gsize m, gsize k, gsize n, TlDtype dtype)
{
  TlJob *job = g_new0 (TlJob, 1);
  job->kind = g_strdup ("gemm");
  job->m = m;
  job->k = k;
  job->n = n;
  job->dtype = dtype;
  /* random inputs, never zeros; integers for int32 */
  const char *gen = dtype == TL_DTYPE_INT32 ? "random-int" : "random-uniform";
  job->a.kind = TL_SOURCE_GENERATOR;
  job->a.generator = g_strdup (gen);
  job->a.seed = 1;
  job->b.kind = TL_SOURCE_GENERATOR;
  job->b.generator = g_strdup (gen);
  job->b.seed = 2;
  const char *all[] = { "all", NULL };
  job->kernels = g_strdupv ((char **) all);
  job->repeats = 10;
  job->warmups = 2;
  return job;
}

void
tl_source_clear (TlSource *source)
{
  g_clear_pointer (&source->generator, g_free);
  g_clear_pointer (&source->path, g_free);
  g_clear_pointer (&source->label, g_free);
}

void
tl_source_copy_into (const TlSource *src, TlSource *dst)
{
  dst->kind = src->kind;
  dst->seed = src->seed;
  dst->generator = g_strdup (src->generator);
  dst->path = g_strdup (src->path);
  dst->label = g_strdup (src->label);
}

char *
tl_source_describe (const TlSource *source)
{
  switch (source->kind)
    {
    case TL_SOURCE_GENERATOR:
      return g_strdup_printf ("%s (seed %" G_GUINT64_FORMAT ")",
                              source->generator ? source->generator : "?", source->seed);
    case TL_SOURCE_FILE:
      return g_strdup (source->path ? source->path : "?");
    case TL_SOURCE_MATRIX:
      return g_strdup (source->label ? source->label : _("matrix in memory"));
    }
  return g_strdup ("?");
}

TlJob *
tl_job_copy (const TlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  TlJob *copy = g_new0 (TlJob, 1);
  *copy = *job;
  copy->kind = g_strdup (job->kind);
  tl_source_copy_into (&job->a, &copy->a);
  tl_source_copy_into (&job->b, &copy->b);
  copy->kernels = g_strdupv (job->kernels);
  copy->a_matrix = job->a_matrix ? tl_matrix_ref (job->a_matrix) : NULL;
  copy->b_matrix = job->b_matrix ? tl_matrix_ref (job->b_matrix) : NULL;
  return copy;
}

void
tl_job_free (TlJob *job)
{
  if (job == NULL)
    return;
  g_free (job->kind);
  tl_source_clear (&job->a);
  tl_source_clear (&job->b);
  g_strfreev (job->kernels);
  g_clear_pointer (&job->a_matrix, tl_matrix_unref);
  g_clear_pointer (&job->b_matrix, tl_matrix_unref);
  g_free (job);
}

/* ---- names ------------------------------------------------------------ */

static const char *const status_names[] = { "ok", "error", "cancelled", "skipped" };
static const char *const source_names[] = { "generator", "file", "matrix" };
static const char *const backend_names[] = { "cpu", "gpu" };
/* TlErrorCode in order */
static const char *const error_names[] = {
  "parse", "io", "too-large", "unsupported", "shape", "invalid", "no-device",
  "out-of-memory", "launch-failed", "device-lost", "singular",
};

static gboolean
name_lookup (const char *const *names, guint n, const char *name, int *out)
{
  for (guint i = 0; name != NULL && i < n; i++)
    if (strcmp (names[i], name) == 0)
      {
        *out = (int) i;
        return TRUE;
      }
  return FALSE;
}

const char *
tl_run_status_name (TlRunStatus status)
{
  return (guint) status < G_N_ELEMENTS (status_names) ? status_names[status] : "error";
}

gboolean
tl_run_status_from_name (const char *name, TlRunStatus *out)
{
  int v;
  if (!name_lookup (status_names, G_N_ELEMENTS (status_names), name, &v))
    return FALSE;
  *out = (TlRunStatus) v;
  return TRUE;
}

const char *
tl_backend_name (TlBackend backend)
{
  return (guint) backend < G_N_ELEMENTS (backend_names) ? backend_names[backend] : "cpu";
}

gboolean
tl_backend_from_name (const char *name, TlBackend *out)
{
  int v;
  if (!name_lookup (backend_names, G_N_ELEMENTS (backend_names), name, &v))
    return FALSE;
  *out = (TlBackend) v;
  return TRUE;
}

/* ---- kernel runs ------------------------------------------------------ */

static void
launch_facts_init (TlLaunchFacts *facts)
{
  memset (facts, 0, sizeof *facts);
  facts->waves = NAN;
  facts->occupancy = NAN;
}

TlKernelRun *
tl_kernel_run_new (const char *kernel_id, TlBackend backend)
{
  TlKernelRun *run = g_new0 (TlKernelRun, 1);
  run->kernel_id = g_strdup (kernel_id);
  run->backend = backend;
  run->status = TL_RUN_OK;
  run->error_code = -1;
  run->upload_ms = run->download_ms = NAN;
  run->gflops = run->gbytes_per_s = NAN;
  run->max_abs = run->max_rel = run->rel_norm = run->normwise = NAN;
  run->tolerance = NAN;
  run->percent_of_reference = NAN;
  run->speedup_vs_naive = NAN;
  run->instrumented_median_ms = NAN;
  run->instrument_overhead_pct = NAN;
  launch_facts_init (&run->launch);
  return run;
}

TlKernelRun *
tl_kernel_run_copy (const TlKernelRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  TlKernelRun *copy = g_new0 (TlKernelRun, 1);
  *copy = *run;
  copy->kernel_id = g_strdup (run->kernel_id);
  copy->precision = g_strdup (run->precision);
  copy->message = g_strdup (run->message);
  copy->samples_ms = run->n_samples ? g_memdup2 (run->samples_ms, run->n_samples * sizeof (double))
                                    : NULL;
  copy->reference_id = g_strdup (run->reference_id);
  copy->blocks = run->n_blocks ? g_memdup2 (run->blocks, run->n_blocks * sizeof (TlBlockRecord))
                               : NULL;
  copy->c_path = g_strdup (run->c_path);
  copy->c = run->c ? tl_matrix_ref (run->c) : NULL;
  return copy;
}

void
tl_kernel_run_free (TlKernelRun *run)
{
  if (run == NULL)
    return;
  g_free (run->kernel_id);
  g_free (run->precision);
  g_free (run->message);
  g_free (run->samples_ms);
  g_free (run->reference_id);
  g_free (run->blocks);
  g_free (run->c_path);
  g_clear_pointer (&run->c, tl_matrix_unref);
  g_free (run);
}

void
tl_kernel_run_set_error (TlKernelRun *run, const GError *error)
{
  g_return_if_fail (run != NULL && error != NULL);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      run->status = TL_RUN_CANCELLED;
      run->error_code = -1;
    }
  else
    {
      run->status = TL_RUN_ERROR;
      run->error_code = error->domain == TL_ERROR ? error->code : -1;
    }
  g_free (run->message);
  run->message = g_strdup (error->message);
  run->passed = FALSE;
}

void
tl_kernel_run_set_skipped (TlKernelRun *run, const char *reason)
{
  run->status = TL_RUN_SKIPPED;
  run->error_code = -1;
  g_free (run->message);
  run->message = g_strdup (reason);
  run->passed = FALSE;
}

void
tl_kernel_run_set_samples (TlKernelRun *run, const double *samples_ms, guint n)
{
  g_free (run->samples_ms);
  run->samples_ms = n ? g_memdup2 (samples_ms, n * sizeof (double)) : NULL;
  run->n_samples = n;
  tl_timing_stats_compute (samples_ms, n, &run->time);
}

void
tl_kernel_run_take_blocks (TlKernelRun *run, TlBlockRecord *blocks, gsize n, const char *unit)
{
  g_free (run->blocks);
  run->blocks = blocks;
  run->n_blocks = blocks ? n : 0;
  run->block_unit = g_strcmp0 (unit, "thread") == 0 ? "thread" : "sm";
}

/* ---- machine facts ---------------------------------------------------- */

static char *
read_os_name (void)
{
  g_autofree char *pretty = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  struct utsname u;
  g_autofree char *kernel = NULL;
  if (uname (&u) == 0)
    kernel = g_strdup_printf ("%s %s", u.sysname, u.release);
  if (pretty && kernel)
    return g_strdup_printf ("%s, %s", pretty, kernel);
  return g_strdup (pretty ? pretty : kernel ? kernel : "unknown");
}

static char *
read_cpu_model (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return g_strdup ("unknown");
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "model name") || g_str_has_prefix (lines[i], "Model")
        || g_str_has_prefix (lines[i], "cpu model"))
      {
        const char *colon = strchr (lines[i], ':');
        if (colon)
          return g_strstrip (g_strdup (colon + 1));
      }
  return g_strdup ("unknown");
}

void
tl_machine_facts_read (TlMachineFacts *out)
{
  static GMutex lock;
  static TlMachineFacts cached;
  static gboolean have_cached;

  g_mutex_lock (&lock);
  if (!have_cached)
    {
      cached.host_name = g_strdup (g_get_host_name ());
      cached.os = read_os_name ();
      cached.cpu_model = read_cpu_model ();
      cached.cores = g_get_num_processors ();
      have_cached = TRUE;
    }
  out->host_name = g_strdup (cached.host_name);
  out->os = g_strdup (cached.os);
  out->cpu_model = g_strdup (cached.cpu_model);
  out->cores = cached.cores;
  g_mutex_unlock (&lock);
}

void
tl_machine_facts_clear (TlMachineFacts *facts)
{
  g_clear_pointer (&facts->host_name, g_free);
  g_clear_pointer (&facts->os, g_free);
  g_clear_pointer (&facts->cpu_model, g_free);
}

/* ---- the record ------------------------------------------------------- */

static TlRunRecord *
run_record_alloc (void)
{
  TlRunRecord *record = g_new0 (TlRunRecord, 1);
  record->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  return record;
}

TlRunRecord *
tl_run_record_new (const TlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  TlRunRecord *record = run_record_alloc ();
  record->schema = g_strdup (TL_RUN_RECORD_SCHEMA);
  record->tilelab_version = g_strdup (TL_VERSION);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  record->created = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  tl_machine_facts_read (&record->machine);
  record->job = tl_job_copy (job);
  return record;
}

TlRunRecord *
tl_run_record_copy (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  TlRunRecord *copy = run_record_alloc ();
  GPtrArray *runs = copy->runs;
  *copy = *record;
  copy->runs = runs;
  copy->schema = g_strdup (record->schema);
  copy->tilelab_version = g_strdup (record->tilelab_version);
  copy->created = g_strdup (record->created);
  copy->command_line = g_strdup (record->command_line);
  copy->note = g_strdup (record->note);
  copy->machine.host_name = g_strdup (record->machine.host_name);
  copy->machine.os = g_strdup (record->machine.os);
  copy->machine.cpu_model = g_strdup (record->machine.cpu_model);
  copy->job = record->job ? tl_job_copy (record->job) : NULL;
  for (guint i = 0; i < record->runs->len; i++)
    g_ptr_array_add (copy->runs, tl_kernel_run_copy (record->runs->pdata[i]));
  copy->a_path = g_strdup (record->a_path);
  copy->b_path = g_strdup (record->b_path);
  copy->reference_path = g_strdup (record->reference_path);
  copy->a = record->a ? tl_matrix_ref (record->a) : NULL;
  copy->b = record->b ? tl_matrix_ref (record->b) : NULL;
  copy->reference = record->reference ? tl_matrix_ref (record->reference) : NULL;
  copy->extensions = record->extensions ? json_object_ref (record->extensions) : NULL;
  copy->base_dir = g_strdup (record->base_dir);
  return copy;
}

void
tl_run_record_free (TlRunRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->schema);
  g_free (record->tilelab_version);
  g_free (record->created);
  g_free (record->command_line);
  g_free (record->note);
  tl_machine_facts_clear (&record->machine);
  tl_job_free (record->job);
  g_ptr_array_unref (record->runs);
  g_free (record->a_path);
  g_free (record->b_path);
  g_free (record->reference_path);
  g_clear_pointer (&record->a, tl_matrix_unref);
  g_clear_pointer (&record->b, tl_matrix_unref);
  g_clear_pointer (&record->reference, tl_matrix_unref);
  g_clear_pointer (&record->extensions, json_object_unref);
  g_free (record->base_dir);
  g_free (record);
}

TlKernelRun *
tl_run_record_find_run (const TlRunRecord *record, const char *kernel_id)
{
  g_return_val_if_fail (record != NULL, NULL);
  for (guint i = 0; i < record->runs->len; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      if (g_strcmp0 (run->kernel_id, kernel_id) == 0)
        return run;
    }
  return NULL;
}

/* ---- writing JSON ----------------------------------------------------- */

static void
add_quantity (JsonBuilder *b, const char *name, double value, const char *unit)
{
  if (!isfinite (value))
    return;
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "value");
  json_builder_add_double_value (b, value);
  json_builder_set_member_name (b, "unit");
  json_builder_add_string_value (b, unit);
  json_builder_end_object (b);
}

static void
add_double (JsonBuilder *b, const char *name, double value)
{
  if (!isfinite (value))
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, value);
}

static void
add_stats (JsonBuilder *b, const char *name, const TlMatrixStats *s)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  add_double (b, "min", s->min);
  add_double (b, "max", s->max);
  add_double (b, "mean", s->mean);
  tl_json_member_int (b, "n_nan", s->n_nan);
  tl_json_member_int (b, "n_inf", s->n_inf);
  tl_json_member_int (b, "n_finite", s->n_finite);
  json_builder_end_object (b);
}

static void
add_source (JsonBuilder *b, const char *name, const TlSource *s)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  tl_json_member_string (b, "kind", source_names[s->kind]);
  switch (s->kind)
    {
    case TL_SOURCE_GENERATOR:
      tl_json_member_string (b, "generator", s->generator ? s->generator : "");
      /* JSON integers are signed 64-bit: larger seeds travel as text */
      if (s->seed <= G_MAXINT64)
        tl_json_member_int (b, "seed", (gint64) s->seed);
      else
        {
          g_autofree char *t = g_strdup_printf ("%" G_GUINT64_FORMAT, s->seed);
          tl_json_member_string (b, "seed", t);
        }
      break;
    case TL_SOURCE_FILE:
      tl_json_member_string (b, "path", s->path ? s->path : "");
      break;
    case TL_SOURCE_MATRIX:
      tl_json_member_string (b, "label", s->label);
      break;
    }
  json_builder_end_object (b);
}

static void
add_job (JsonBuilder *b, const TlJob *job)
{
  json_builder_set_member_name (b, "job");
  json_builder_begin_object (b);
  tl_json_member_string (b, "kind", job->kind ? job->kind : "gemm");
  tl_json_member_int (b, "m", job->m);
  tl_json_member_int (b, "k", job->k);
  tl_json_member_int (b, "n", job->n);
  tl_json_member_string (b, "dtype", tl_dtype_name (job->dtype));
  add_source (b, "a", &job->a);
  add_source (b, "b", &job->b);
  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; job->kernels && job->kernels[i]; i++)
    json_builder_add_string_value (b, job->kernels[i]);
  json_builder_end_array (b);
  tl_json_member_int (b, "repeats", job->repeats);
  tl_json_member_int (b, "warmups", job->warmups);
  tl_json_member_bool (b, "flush_l2", job->flush_l2);
  tl_json_member_bool (b, "instrument", job->instrument);
  tl_json_member_int (b, "threads", job->threads);
  tl_json_member_int (b, "device", job->device);
  json_builder_end_object (b);
}

static void
add_device (JsonBuilder *b, const TlGpuFacts *f)
{
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  tl_json_member_int (b, "ordinal", f->ordinal);
  tl_json_member_string (b, "name", f->name);
  tl_json_member_int (b, "cc_major", f->cc_major);
  tl_json_member_int (b, "cc_minor", f->cc_minor);
  tl_json_member_int (b, "sm_count", f->sm_count);
  tl_json_member_int (b, "clock_khz", f->clock_khz);
  tl_json_member_int (b, "mem_clock_khz", f->mem_clock_khz);
  tl_json_member_int (b, "mem_bus_width_bits", f->mem_bus_width_bits);
  tl_json_member_int (b, "total_mem_bytes", (gint64) f->total_mem_bytes);
  tl_json_member_int (b, "free_mem_bytes", (gint64) f->free_mem_bytes);
  tl_json_member_int (b, "l2_bytes", f->l2_bytes);
  tl_json_member_int (b, "smem_per_block_bytes", f->smem_per_block_bytes);
  tl_json_member_int (b, "smem_per_block_optin_bytes", f->smem_per_block_optin_bytes);
  tl_json_member_int (b, "smem_per_sm_bytes", f->smem_per_sm_bytes);
  tl_json_member_int (b, "regs_per_sm", f->regs_per_sm);
  tl_json_member_int (b, "regs_per_block", f->regs_per_block);
  tl_json_member_int (b, "max_threads_per_block", f->max_threads_per_block);
  tl_json_member_int (b, "max_threads_per_sm", f->max_threads_per_sm);
  tl_json_member_int (b, "max_blocks_per_sm", f->max_blocks_per_sm);
  tl_json_member_int (b, "warp_size", f->warp_size);
  tl_json_member_int (b, "driver_version", f->driver_version);
  tl_json_member_int (b, "runtime_version", f->runtime_version);
  json_builder_end_object (b);
}

#define ADD_BLOCK_ARRAY(b, name, blocks, n, field)        \
  G_STMT_START {                                          \
    json_builder_set_member_name (b, name);               \
    json_builder_begin_array (b);                         \
    for (gsize _i = 0; _i < (n); _i++)                    \
      json_builder_add_int_value (b, (gint64) (blocks)[_i].field); \
    json_builder_end_array (b);                           \
  } G_STMT_END

static void
add_run (JsonBuilder *b, const TlKernelRun *run)
{
  json_builder_begin_object (b);
  tl_json_member_string (b, "kernel", run->kernel_id);
  tl_json_member_string (b, "backend", tl_backend_name (run->backend));
  tl_json_member_string (b, "precision", run->precision);
  tl_json_member_string (b, "status", tl_run_status_name (run->status));
  if (run->status == TL_RUN_ERROR || run->status == TL_RUN_CANCELLED)
    {
      json_builder_set_member_name (b, "error");
      json_builder_begin_object (b);
      tl_json_member_string (b, "code", run->error_code >= 0 && run->error_code < (int) G_N_ELEMENTS (error_names)
                               ? error_names[run->error_code] : "other");
      tl_json_member_string (b, "message", run->message ? run->message : "");
      json_builder_end_object (b);
    }
  else if (run->status == TL_RUN_SKIPPED)
    tl_json_member_string (b, "reason", run->message ? run->message : "");
  if (run->backend == TL_BACKEND_CPU)
    tl_json_member_int (b, "threads", run->threads);

  if (run->time.count > 0)
    {
      json_builder_set_member_name (b, "time");
      json_builder_begin_object (b);
      add_quantity (b, "median", run->time.median, "ms");
      add_quantity (b, "min", run->time.min, "ms");
      add_quantity (b, "max", run->time.max, "ms");
      add_quantity (b, "mean", run->time.mean, "ms");
      tl_json_member_int (b, "count", run->time.count);
      json_builder_set_member_name (b, "samples");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "values");
      json_builder_begin_array (b);
      for (guint i = 0; i < run->n_samples; i++)
        if (isfinite (run->samples_ms[i]))
          json_builder_add_double_value (b, run->samples_ms[i]);
      json_builder_end_array (b);
      tl_json_member_string (b, "unit", "ms");
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  add_quantity (b, "upload", run->upload_ms, "ms");
  add_quantity (b, "download", run->download_ms, "ms");
  add_quantity (b, "throughput", run->gflops, "GFLOP/s");
  if (run->bytes > 0)
    add_quantity (b, "bytes", (double) run->bytes, "B");
  add_quantity (b, "bandwidth", run->gbytes_per_s, "GB/s");

  if (run->verified)
    {
      json_builder_set_member_name (b, "verification");
      json_builder_begin_object (b);
      add_double (b, "max_abs", run->max_abs);
      add_double (b, "max_rel", run->max_rel);
      add_double (b, "rel_norm", run->rel_norm);
      add_double (b, "normwise", run->normwise);
      add_double (b, "tolerance", run->tolerance);
      tl_json_member_bool (b, "passed", run->passed);
      json_builder_end_object (b);
    }
  tl_json_member_string (b, "reference_kernel", run->reference_id);
  add_quantity (b, "percent_of_reference", run->percent_of_reference, "%");
  add_quantity (b, "speedup_vs_naive", run->speedup_vs_naive, "x");

  if (run->launch.valid)
    {
      const TlLaunchFacts *l = &run->launch;
      json_builder_set_member_name (b, "launch");
      json_builder_begin_object (b);
      tl_json_member_int (b, "regs_per_thread", l->regs_per_thread);
      tl_json_member_int (b, "static_smem_bytes", l->static_smem_bytes);
      tl_json_member_int (b, "dynamic_smem_bytes", l->dynamic_smem_bytes);
      tl_json_member_int (b, "local_bytes_per_thread", l->local_bytes_per_thread);
      tl_json_member_int (b, "max_threads_per_block", l->max_threads_per_block);
      tl_json_member_int (b, "active_blocks_per_sm", l->active_blocks_per_sm);
      tl_json_member_int (b, "grid_x", l->grid_x);
      tl_json_member_int (b, "grid_y", l->grid_y);
      tl_json_member_int (b, "grid_z", l->grid_z);
      tl_json_member_int (b, "block_x", l->block_x);
      tl_json_member_int (b, "block_y", l->block_y);
      tl_json_member_int (b, "block_z", l->block_z);
      tl_json_member_int (b, "launches", l->launches);
      add_double (b, "waves", l->waves);
      add_double (b, "occupancy", l->occupancy);
      json_builder_end_object (b);
    }

  if (isfinite (run->instrumented_median_ms))
    {
      json_builder_set_member_name (b, "instrumented");
      json_builder_begin_object (b);
      add_quantity (b, "median", run->instrumented_median_ms, "ms");
      add_quantity (b, "overhead", run->instrument_overhead_pct, "%");
      json_builder_end_object (b);
    }

  if (run->n_blocks > 0)
    {
      const char *unit = g_strcmp0 (run->block_unit, "thread") == 0 ? "thread" : "sm";
      json_builder_set_member_name (b, "blocks");
      json_builder_begin_object (b);
      tl_json_member_int (b, "count", run->n_blocks);
      tl_json_member_string (b, "unit", unit);
      tl_json_member_int (b, "tile_m", run->block_tile_m);
      tl_json_member_int (b, "tile_n", run->block_tile_n);
      ADD_BLOCK_ARRAY (b, "block_x", run->blocks, run->n_blocks, block_x);
      ADD_BLOCK_ARRAY (b, "block_y", run->blocks, run->n_blocks, block_y);
      ADD_BLOCK_ARRAY (b, unit, run->blocks, run->n_blocks, unit);
      ADD_BLOCK_ARRAY (b, "launch", run->blocks, run->n_blocks, launch);
      ADD_BLOCK_ARRAY (b, "start_ns", run->blocks, run->n_blocks, start_ns);
      ADD_BLOCK_ARRAY (b, "end_ns", run->blocks, run->n_blocks, end_ns);
      json_builder_end_object (b);
    }

  if (run->has_c_stats || run->c_path)
    {
      json_builder_set_member_name (b, "result");
      json_builder_begin_object (b);
      if (run->has_c_stats)
        add_stats (b, "stats", &run->c_stats);
      tl_json_member_string (b, "path", run->c_path);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static void
add_input (JsonBuilder *b, const char *name, gboolean has_stats, const TlMatrixStats *stats,
           const char *path)
{
  if (!has_stats && path == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  if (has_stats)
    add_stats (b, "stats", stats);
  tl_json_member_string (b, "path", path);
  json_builder_end_object (b);
}

JsonNode *
tl_run_record_to_json (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  tl_json_member_string (b, "schema", TL_RUN_RECORD_SCHEMA);
  tl_json_member_string (b, "tilelab_version", record->tilelab_version ? record->tilelab_version : TL_VERSION);
  tl_json_member_string (b, "created", record->created ? record->created : "");
  tl_json_member_string (b, "command_line", record->command_line);
  tl_json_member_string (b, "note", record->note);

  json_builder_set_member_name (b, "machine");
  json_builder_begin_object (b);
  tl_json_member_string (b, "host_name", record->machine.host_name ? record->machine.host_name : "");
  tl_json_member_string (b, "os", record->machine.os ? record->machine.os : "");
  tl_json_member_string (b, "cpu_model", record->machine.cpu_model ? record->machine.cpu_model : "");
  tl_json_member_int (b, "cores", record->machine.cores);
  json_builder_end_object (b);

  if (record->has_device)
    add_device (b, &record->device);
  if (record->job)
    add_job (b, record->job);

  json_builder_set_member_name (b, "inputs");
  json_builder_begin_object (b);
  add_input (b, "a", record->has_input_stats, &record->a_stats, record->a_path);
  add_input (b, "b", record->has_input_stats, &record->b_stats, record->b_path);
  add_input (b, "reference", record->has_input_stats, &record->reference_stats,
             record->reference_path);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < record->runs->len; i++)
    add_run (b, record->runs->pdata[i]);
  json_builder_end_array (b);

  if (record->extensions)
    {
      json_builder_set_member_name (b, "extensions");
      JsonNode *ext = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (ext, record->extensions);
      json_builder_add_value (b, ext);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* json-glib 1.6 prints a double as "%.17g" and appends ".0" when there is
 * no '.', which turns 1e-08 into the invalid "1e-08.0".  Drop that ".0"
 * after an exponent, outside strings. */
static void
fix_exponents (char *text)
{
  gboolean in_string = FALSE;
  char *out = text;
  for (char *p = text; *p; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1])
            {
              *out++ = *p++;
            }
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if ((*p == 'e' || *p == 'E') && p > text && g_ascii_isdigit (p[-1]))
        {
          /* copy the exponent, then skip a ".0" that follows it */
          *out++ = *p++;
          if (*p == '+' || *p == '-')
            *out++ = *p++;
          while (g_ascii_isdigit (*p))
            *out++ = *p++;
          if (p[0] == '.' && p[1] == '0' && !g_ascii_isdigit (p[2]))
            p += 2;
          p--;
          continue;
        }
      *out++ = *p;
    }
  *out = '\0';
}

char *
tl_run_record_to_string (const TlRunRecord *record, gboolean pretty)
{
  g_autoptr (JsonNode) root = tl_run_record_to_json (record);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 1);
  json_generator_set_root (gen, root);
  char *text = json_generator_to_data (gen, NULL);
  fix_exponents (text);
  return text;
}

/* ---- reading JSON ----------------------------------------------------- */

/* Every getter names the JSON path of what it found wrong. */

G_GNUC_PRINTF (3, 4) static gboolean
parse_fail (GError **error, const char *path, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("run record: %s: %s"), path, what);
  return FALSE;
}

static JsonNode *
member (JsonObject *obj, const char *path, const char *name, gboolean required, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        parse_fail (error, path, _("missing member “%s”"), name);
      return NULL;
    }
  return node;
}

static char *
child_path (const char *path, const char *name)
{
  return g_strdup_printf ("%s.%s", path, name);
}

static gboolean
get_object (JsonObject *obj, const char *path, const char *name, gboolean required,
            JsonObject **out, GError **error)
{
  *out = NULL;
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("expected an object"));
    }
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
get_array (JsonObject *obj, const char *path, const char *name, gboolean required,
           JsonArray **out, GError **error)
{
  *out = NULL;
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("expected an array"));
    }
  *out = json_node_get_array (node);
  return TRUE;
}

/* a string; absent optional strings leave *out NULL */
static gboolean
get_string (JsonObject *obj, const char *path, const char *name, gboolean required,
            char **out, GError **error)
{
  *out = NULL;
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("expected a string"));
    }
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
get_int (JsonObject *obj, const char *path, const char *name, gboolean required,
         gint64 lo, gint64 hi, gint64 *out, GError **error)
{
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  g_autofree char *p = child_path (path, name);
  if (!tl_json_node_is_int (node))
    return parse_fail (error, p, _("expected an integer"));
  gint64 v = json_node_get_int (node);
  if (v < lo || v > hi)
    return parse_fail (error, p, _("%" G_GINT64_FORMAT " is out of range %" G_GINT64_FORMAT
                                   "…%" G_GINT64_FORMAT), v, lo, hi);
  *out = v;
  return TRUE;
}

static gboolean
get_int32 (JsonObject *obj, const char *path, const char *name, gboolean required, int *out,
           GError **error)
{
  gint64 v = *out;
  if (!get_int (obj, path, name, required, G_MININT32, G_MAXINT32, &v, error))
    return FALSE;
  *out = (int) v;
  return TRUE;
}

static gboolean
get_double (JsonObject *obj, const char *path, const char *name, gboolean required,
            double *out, GError **error)
{
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!tl_json_node_is_number (node))
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("expected a number"));
    }
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
get_bool (JsonObject *obj, const char *path, const char *name, gboolean required,
          gboolean *out, GError **error)
{
  JsonNode *node = member (obj, path, name, required, error);
  if (node == NULL)
    return !required;
  if (!tl_json_node_is_bool (node))
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("expected true or false"));
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* {"value": number, "unit": unit}; absent optional quantities read NAN */
static gboolean
get_quantity (JsonObject *obj, const char *path, const char *name, gboolean required,
              const char *unit, double *out, GError **error)
{
  *out = NAN;
  JsonObject *q;
  if (!get_object (obj, path, name, required, &q, error))
    return FALSE;
  if (q == NULL)
    return TRUE;
  g_autofree char *p = child_path (path, name);
  g_autofree char *u = NULL;
  if (!get_double (q, p, "value", TRUE, out, error)
      || !get_string (q, p, "unit", TRUE, &u, error))
    return FALSE;
  if (strcmp (u, unit) != 0)
    {
      g_autofree char *pu = child_path (p, "unit");
      return parse_fail (error, pu, _("expected “%s”, found “%s”"), unit, u);
    }
  return TRUE;
}

static gboolean
get_name (JsonObject *obj, const char *path, const char *name,
          const char *const *names, guint n_names, int *out, GError **error)
{
  g_autofree char *s = NULL;
  if (!get_string (obj, path, name, TRUE, &s, error))
    return FALSE;
  if (!name_lookup (names, n_names, s, out))
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("unknown value “%s”"), s);
    }
  return TRUE;
}

static gboolean
read_stats (JsonObject *obj, const char *path, TlMatrixStats *out, GError **error)
{
  gint64 v;
  memset (out, 0, sizeof *out);
  if (!get_double (obj, path, "min", FALSE, &out->min, error)
      || !get_double (obj, path, "max", FALSE, &out->max, error)
      || !get_double (obj, path, "mean", FALSE, &out->mean, error))
    return FALSE;
  v = 0;
  if (!get_int (obj, path, "n_nan", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_nan = v;
  if (!get_int (obj, path, "n_inf", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_inf = v;
  if (!get_int (obj, path, "n_finite", TRUE, 0, G_MAXINT64, &v, error))
    return FALSE;
  out->n_finite = v;
  return TRUE;
}

/* a path relative to the record's directory, never leaving it */
static gboolean
check_relative_path (const char *rel, const char *path, GError **error)
{
  if (*rel == '\0' || g_path_is_absolute (rel) || strchr (rel, '\\') != NULL)
    return parse_fail (error, path, _("“%s” is not a relative path"), rel);
  g_auto (GStrv) parts = g_strsplit (rel, "/", -1);
  for (guint i = 0; parts[i]; i++)
    if (strcmp (parts[i], "..") == 0)
      return parse_fail (error, path, _("“%s” leaves the record's folder"), rel);
  return TRUE;
}

static gboolean
get_rel_path (JsonObject *obj, const char *path, char **out, GError **error)
{
  if (!get_string (obj, path, "path", FALSE, out, error))
    return FALSE;
  if (*out == NULL)
    return TRUE;
  g_autofree char *p = child_path (path, "path");
  if (!check_relative_path (*out, p, error))
    {
      g_clear_pointer (out, g_free);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_source (JsonObject *parent, const char *path, const char *name, TlSource *out,
             GError **error)
{
  JsonObject *obj;
  if (!get_object (parent, path, name, TRUE, &obj, error))
    return FALSE;
  g_autofree char *p = child_path (path, name);
  int kind;
  if (!get_name (obj, p, "kind", source_names, G_N_ELEMENTS (source_names), &kind, error))
    return FALSE;
  out->kind = kind;
  switch (out->kind)
    {
    case TL_SOURCE_GENERATOR:
      {
        if (!get_string (obj, p, "generator", TRUE, &out->generator, error))
          return FALSE;
        JsonNode *seed = member (obj, p, "seed", TRUE, error);
        if (seed == NULL)
          return FALSE;
        g_autofree char *ps = child_path (p, "seed");
        if (tl_json_node_is_int (seed) && json_node_get_int (seed) >= 0)
          out->seed = json_node_get_int (seed);
        else if (JSON_NODE_HOLDS_VALUE (seed) && json_node_get_value_type (seed) == G_TYPE_STRING)
          {
            guint64 v;
            if (!g_ascii_string_to_unsigned (json_node_get_string (seed), 10, 0, G_MAXUINT64,
                                             &v, NULL))
              return parse_fail (error, ps, _("expected a non-negative integer"));
            out->seed = v;
          }
        else
          return parse_fail (error, ps, _("expected a non-negative integer"));
        return TRUE;
      }
    case TL_SOURCE_FILE:
      return get_string (obj, p, "path", TRUE, &out->path, error);
    case TL_SOURCE_MATRIX:
      return get_string (obj, p, "label", FALSE, &out->label, error);
    }
  return TRUE;
}

static TlJob *
read_job (JsonObject *obj, const char *path, GError **error)
{
  g_autoptr (TlJob) job = g_new0 (TlJob, 1);
  gint64 v;
  /* shapes: positive and within what a matrix may hold */
  const gint64 max_dim = G_MAXINT32;

  if (!get_string (obj, path, "kind", TRUE, &job->kind, error))
    return NULL;
  if (!get_int (obj, path, "m", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->m = v;
  if (!get_int (obj, path, "k", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->k = v;
  if (!get_int (obj, path, "n", TRUE, 1, max_dim, &v, error))
    return NULL;
  job->n = v;

  g_autofree char *dtype = NULL;
  if (!get_string (obj, path, "dtype", TRUE, &dtype, error))
    return NULL;
  if (!tl_dtype_from_name (dtype, &job->dtype))
    {
      g_autofree char *p = child_path (path, "dtype");
      parse_fail (error, p, _("unknown dtype “%s”"), dtype);
      return NULL;
    }
  if (!read_source (obj, path, "a", &job->a, error)
      || !read_source (obj, path, "b", &job->b, error))
    return NULL;

  JsonArray *kernels;
  if (!get_array (obj, path, "kernels", TRUE, &kernels, error))
    return NULL;
  guint nk = json_array_get_length (kernels);
  job->kernels = g_new0 (char *, nk + 1);
  for (guint i = 0; i < nk; i++)
    {
      JsonNode *node = json_array_get_element (kernels, i);
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_autofree char *p = g_strdup_printf ("%s.kernels[%u]", path, i);
          parse_fail (error, p, _("expected a string"));
          return NULL;
        }
      job->kernels[i] = g_strdup (json_node_get_string (node));
    }

  if (!get_int (obj, path, "repeats", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->repeats = v;
  if (!get_int (obj, path, "warmups", TRUE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->warmups = v;
  if (!get_bool (obj, path, "flush_l2", FALSE, &job->flush_l2, error)
      || !get_bool (obj, path, "instrument", FALSE, &job->instrument, error))
    return NULL;
  v = 0;
  if (!get_int (obj, path, "threads", FALSE, 0, G_MAXINT32, &v, error))
    return NULL;
  job->threads = v;
  if (!get_int32 (obj, path, "device", FALSE, &job->device, error))
    return NULL;
  return g_steal_pointer (&job);
}

static gboolean
read_device (JsonObject *obj, const char *path, TlGpuFacts *f, GError **error)
{
  memset (f, 0, sizeof *f);
  g_autofree char *name = NULL;
  gint64 total = 0, free_b = 0;
  if (!get_string (obj, path, "name", TRUE, &name, error))
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
    if (!get_int32 (obj, path, ints[i].key, ints[i].required, ints[i].field, error))
      return FALSE;
  if (!get_int (obj, path, "total_mem_bytes", FALSE, 0, G_MAXINT64, &total, error)
      || !get_int (obj, path, "free_mem_bytes", FALSE, 0, G_MAXINT64, &free_b, error))
    return FALSE;
  f->total_mem_bytes = total;
  f->free_mem_bytes = free_b;
  return TRUE;
}

static gboolean
read_uint_array (JsonObject *obj, const char *path, const char *name, gsize count,
                 gint64 hi, GArray *out, GError **error)
{
  JsonArray *array;
  if (!get_array (obj, path, name, TRUE, &array, error))
    return FALSE;
  if (json_array_get_length (array) != count)
    {
      g_autofree char *p = child_path (path, name);
      return parse_fail (error, p, _("has %u entries, “count” says %" G_GSIZE_FORMAT),
                         json_array_get_length (array), count);
    }
  for (gsize i = 0; i < count; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      if (!tl_json_node_is_int (node) || json_node_get_int (node) < 0 || json_node_get_int (node) > hi)
        {
          g_autofree char *p = g_strdup_printf ("%s.%s[%" G_GSIZE_FORMAT "]", path, name, i);
          return parse_fail (error, p, _("expected an integer in 0…%" G_GINT64_FORMAT), hi);
        }
      guint64 v = json_node_get_int (node);
      g_array_append_val (out, v);
    }
  return TRUE;
}

static gboolean
read_blocks (JsonObject *obj, const char *path, TlKernelRun *run, GError **error)
{
  gint64 count = 0, tile = 0;
  g_autofree char *unit = NULL;
  if (!get_int (obj, path, "count", TRUE, 0, 1 << 26, &count, error)
      || !get_string (obj, path, "unit", TRUE, &unit, error))
    return FALSE;
  if (strcmp (unit, "sm") != 0 && strcmp (unit, "thread") != 0)
    {
      g_autofree char *p = child_path (path, "unit");
      return parse_fail (error, p, _("expected “sm” or “thread”, found “%s”"), unit);
    }
  if (!get_int (obj, path, "tile_m", FALSE, 0, G_MAXINT32, &tile, error))
    return FALSE;
  run->block_tile_m = tile;
  tile = 0;
  if (!get_int (obj, path, "tile_n", FALSE, 0, G_MAXINT32, &tile, error))
    return FALSE;
  run->block_tile_n = tile;

  const char *names[] = { "block_x", "block_y", unit, "launch", "start_ns", "end_ns" };
  GArray *columns[G_N_ELEMENTS (names)];
  gboolean ok = TRUE;
  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    columns[c] = g_array_new (FALSE, FALSE, sizeof (guint64)); /* grows with the input, not with "count" */
  for (guint c = 0; ok && c < G_N_ELEMENTS (names); c++)
    ok = read_uint_array (obj, path, names[c], count, c < 4 ? G_MAXUINT32 : G_MAXINT64,
                          columns[c], error);
  if (ok)
    {
      TlBlockRecord *blocks = g_new0 (TlBlockRecord, MAX (count, 1));
      for (gint64 i = 0; i < count; i++)
        {
          blocks[i].block_x = g_array_index (columns[0], guint64, i);
          blocks[i].block_y = g_array_index (columns[1], guint64, i);
          blocks[i].unit = g_array_index (columns[2], guint64, i);
          blocks[i].launch = g_array_index (columns[3], guint64, i);
          blocks[i].start_ns = g_array_index (columns[4], guint64, i);
          blocks[i].end_ns = g_array_index (columns[5], guint64, i);
          if (blocks[i].end_ns < blocks[i].start_ns)
            {
              g_autofree char *p = g_strdup_printf ("%s.end_ns[%" G_GINT64_FORMAT "]", path, i);
              ok = parse_fail (error, p, _("a block ends before it starts"));
              break;
            }
        }
      if (ok)
        tl_kernel_run_take_blocks (run, blocks, count, unit);
      else
        g_free (blocks);
    }
  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    g_array_unref (columns[c]);
  return ok;
}

static TlKernelRun *
read_run (JsonObject *obj, const char *path, GError **error)
{
  g_autofree char *id = NULL;
  int backend, status;
  if (!get_string (obj, path, "kernel", TRUE, &id, error)
      || !get_name (obj, path, "backend", backend_names, G_N_ELEMENTS (backend_names), &backend,
                    error)
      || !get_name (obj, path, "status", status_names, G_N_ELEMENTS (status_names), &status,
                    error))
    return NULL;
  if (*id == '\0')
    {
      g_autofree char *p = child_path (path, "kernel");
      parse_fail (error, p, _("empty kernel id"));
      return NULL;
    }

  g_autoptr (TlKernelRun) run = tl_kernel_run_new (id, backend);
  run->status = status;
  if (!get_string (obj, path, "precision", FALSE, &run->precision, error))
    return NULL;

  if (run->status == TL_RUN_ERROR || run->status == TL_RUN_CANCELLED)
    {
      JsonObject *err;
      g_autofree char *p = child_path (path, "error");
      g_autofree char *code = NULL;
      if (!get_object (obj, path, "error", TRUE, &err, error)
          || !get_string (err, p, "code", TRUE, &code, error)
          || !get_string (err, p, "message", TRUE, &run->message, error))
        return NULL;
      int c;
      run->error_code = name_lookup (error_names, G_N_ELEMENTS (error_names), code, &c) ? c : -1;
    }
  else if (run->status == TL_RUN_SKIPPED)
    {
      if (!get_string (obj, path, "reason", TRUE, &run->message, error))
        return NULL;
    }
  gint64 threads = 0;
  if (!get_int (obj, path, "threads", FALSE, 0, G_MAXINT32, &threads, error))
    return NULL;
  run->threads = threads;

  JsonObject *time;
  if (!get_object (obj, path, "time", run->status == TL_RUN_OK, &time, error))
    return NULL;
  if (time)
    {
      g_autofree char *p = child_path (path, "time");
      g_autofree char *ps = child_path (p, "samples");
      JsonObject *samples;
      gint64 count;
      if (!get_quantity (time, p, "median", TRUE, "ms", &run->time.median, error)
          || !get_quantity (time, p, "min", TRUE, "ms", &run->time.min, error)
          || !get_quantity (time, p, "max", TRUE, "ms", &run->time.max, error)
          || !get_quantity (time, p, "mean", FALSE, "ms", &run->time.mean, error)
          || !get_int (time, p, "count", TRUE, 1, G_MAXINT32, &count, error)
          || !get_object (time, p, "samples", TRUE, &samples, error))
        return NULL;
      run->time.count = count;
      JsonArray *values;
      g_autofree char *unit = NULL;
      if (!get_array (samples, ps, "values", TRUE, &values, error)
          || !get_string (samples, ps, "unit", TRUE, &unit, error))
        return NULL;
      if (strcmp (unit, "ms") != 0)
        {
          g_autofree char *pu = child_path (ps, "unit");
          parse_fail (error, pu, _("expected “ms”, found “%s”"), unit);
          return NULL;
        }
      run->n_samples = json_array_get_length (values);
      run->samples_ms = g_new0 (double, MAX (run->n_samples, 1));
      for (guint i = 0; i < run->n_samples; i++)
        {
          JsonNode *node = json_array_get_element (values, i);
          if (!tl_json_node_is_number (node))
            {
              g_autofree char *pv = g_strdup_printf ("%s.values[%u]", ps, i);
              parse_fail (error, pv, _("expected a number"));
              return NULL;
            }
          run->samples_ms[i] = json_node_get_double (node);
        }
    }

  double bytes = NAN;
  if (!get_quantity (obj, path, "upload", FALSE, "ms", &run->upload_ms, error)
      || !get_quantity (obj, path, "download", FALSE, "ms", &run->download_ms, error)
      || !get_quantity (obj, path, "throughput", FALSE, "GFLOP/s", &run->gflops, error)
      || !get_quantity (obj, path, "bytes", FALSE, "B", &bytes, error)
      || !get_quantity (obj, path, "bandwidth", FALSE, "GB/s", &run->gbytes_per_s, error)
      || !get_string (obj, path, "reference_kernel", FALSE, &run->reference_id, error)
      || !get_quantity (obj, path, "percent_of_reference", FALSE, "%",
                        &run->percent_of_reference, error)
      || !get_quantity (obj, path, "speedup_vs_naive", FALSE, "x", &run->speedup_vs_naive,
                        error))
    return NULL;
  run->bytes = bytes >= 0 && bytes < 1.8e19 ? (guint64) bytes : 0;

  JsonObject *ver;
  if (!get_object (obj, path, "verification", FALSE, &ver, error))
    return NULL;
  if (ver)
    {
      g_autofree char *p = child_path (path, "verification");
      run->verified = TRUE;
      if (!get_double (ver, p, "max_abs", FALSE, &run->max_abs, error)
          || !get_double (ver, p, "max_rel", FALSE, &run->max_rel, error)
          || !get_double (ver, p, "rel_norm", FALSE, &run->rel_norm, error)
          || !get_double (ver, p, "normwise", FALSE, &run->normwise, error)
          || !get_double (ver, p, "tolerance", TRUE, &run->tolerance, error)
          || !get_bool (ver, p, "passed", TRUE, &run->passed, error))
        return NULL;
    }

  JsonObject *launch;
  if (!get_object (obj, path, "launch", FALSE, &launch, error))
    return NULL;
  if (launch)
    {
      g_autofree char *p = child_path (path, "launch");
      TlLaunchFacts *l = &run->launch;
      struct { const char *key; int *field; } ints[] = {
        { "regs_per_thread", &l->regs_per_thread },
        { "static_smem_bytes", &l->static_smem_bytes },
        { "dynamic_smem_bytes", &l->dynamic_smem_bytes },
        { "local_bytes_per_thread", &l->local_bytes_per_thread },
        { "max_threads_per_block", &l->max_threads_per_block },
        { "active_blocks_per_sm", &l->active_blocks_per_sm },
        { "grid_x", &l->grid_x }, { "grid_y", &l->grid_y }, { "grid_z", &l->grid_z },
        { "block_x", &l->block_x }, { "block_y", &l->block_y }, { "block_z", &l->block_z },
        { "launches", &l->launches },
      };
      for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
        if (!get_int32 (launch, p, ints[i].key, FALSE, ints[i].field, error))
          return NULL;
      if (!get_double (launch, p, "waves", FALSE, &l->waves, error)
          || !get_double (launch, p, "occupancy", FALSE, &l->occupancy, error))
        return NULL;
      l->valid = TRUE;
    }

  JsonObject *instr;
  if (!get_object (obj, path, "instrumented", FALSE, &instr, error))
    return NULL;
  if (instr)
    {
      g_autofree char *p = child_path (path, "instrumented");
      if (!get_quantity (instr, p, "median", TRUE, "ms", &run->instrumented_median_ms, error)
          || !get_quantity (instr, p, "overhead", FALSE, "%", &run->instrument_overhead_pct,
                            error))
        return NULL;
    }

  JsonObject *blocks;
  if (!get_object (obj, path, "blocks", FALSE, &blocks, error))
    return NULL;
  if (blocks)
    {
      g_autofree char *p = child_path (path, "blocks");
      if (!read_blocks (blocks, p, run, error))
        return NULL;
    }

  JsonObject *result;
  if (!get_object (obj, path, "result", FALSE, &result, error))
    return NULL;
  if (result)
    {
      g_autofree char *p = child_path (path, "result");
      JsonObject *stats;
      if (!get_object (result, p, "stats", FALSE, &stats, error)
          || !get_rel_path (result, p, &run->c_path, error))
        return NULL;
      if (stats)
        {
          g_autofree char *ps = child_path (p, "stats");
          if (!read_stats (stats, ps, &run->c_stats, error))
            return NULL;
          run->has_c_stats = TRUE;
        }
    }
  return g_steal_pointer (&run);
}

static gboolean
read_input (JsonObject *inputs, const char *name, gboolean *has_stats, TlMatrixStats *stats,
            char **path_out, GError **error)
{
  JsonObject *obj;
  if (!get_object (inputs, "$.inputs", name, FALSE, &obj, error))
    return FALSE;
  if (obj == NULL)
    return TRUE;
  g_autofree char *p = g_strdup_printf ("$.inputs.%s", name);
  JsonObject *s;
  if (!get_object (obj, p, "stats", FALSE, &s, error) || !get_rel_path (obj, p, path_out, error))
    return FALSE;
  if (s)
    {
      g_autofree char *ps = child_path (p, "stats");
      if (!read_stats (s, ps, stats, error))
        return FALSE;
      *has_stats = TRUE;
    }
  return TRUE;
}

TlRunRecord *
tl_run_record_from_json (JsonNode *node, GError **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      parse_fail (error, "$", _("expected an object"));
      return NULL;
    }
  JsonObject *root = json_node_get_object (node);
  g_autoptr (TlRunRecord) record = run_record_alloc ();

  if (!get_string (root, "$", "schema", TRUE, &record->schema, error))
    return NULL;
  if (strcmp (record->schema, TL_RUN_RECORD_SCHEMA) != 0)
    {
      parse_fail (error, "$.schema", _("“%s” is not a Tilelab run record (expected “%s”)"),
                  record->schema, TL_RUN_RECORD_SCHEMA);
      return NULL;
    }
  if (!get_string (root, "$", "tilelab_version", TRUE, &record->tilelab_version, error)
      || !get_string (root, "$", "created", TRUE, &record->created, error)
      || !get_string (root, "$", "command_line", FALSE, &record->command_line, error)
      || !get_string (root, "$", "note", FALSE, &record->note, error))
    return NULL;

  JsonObject *machine;
  gint64 cores = 0;
  if (!get_object (root, "$", "machine", TRUE, &machine, error)
      || !get_string (machine, "$.machine", "host_name", TRUE, &record->machine.host_name, error)
      || !get_string (machine, "$.machine", "os", TRUE, &record->machine.os, error)
      || !get_string (machine, "$.machine", "cpu_model", TRUE, &record->machine.cpu_model, error)
      || !get_int (machine, "$.machine", "cores", TRUE, 0, G_MAXINT32, &cores, error))
    return NULL;
  record->machine.cores = cores;

  JsonObject *device;
  if (!get_object (root, "$", "device", FALSE, &device, error))
    return NULL;
  if (device)
    {
      if (!read_device (device, "$.device", &record->device, error))
        return NULL;
      record->has_device = TRUE;
    }

  JsonObject *job;
  if (!get_object (root, "$", "job", TRUE, &job, error))
    return NULL;
  record->job = read_job (job, "$.job", error);
  if (record->job == NULL)
    return NULL;

  JsonObject *inputs;
  if (!get_object (root, "$", "inputs", FALSE, &inputs, error))
    return NULL;
  if (inputs)
    {
      gboolean ha = FALSE, hb = FALSE, hr = FALSE;
      if (!read_input (inputs, "a", &ha, &record->a_stats, &record->a_path, error)
          || !read_input (inputs, "b", &hb, &record->b_stats, &record->b_path, error)
          || !read_input (inputs, "reference", &hr, &record->reference_stats,
                          &record->reference_path, error))
        return NULL;
      record->has_input_stats = ha && hb && hr;
    }

  JsonArray *runs;
  if (!get_array (root, "$", "runs", TRUE, &runs, error))
    return NULL;
  for (guint i = 0; i < json_array_get_length (runs); i++)
    {
      g_autofree char *p = g_strdup_printf ("$.runs[%u]", i);
      JsonNode *rn = json_array_get_element (runs, i);
      if (!JSON_NODE_HOLDS_OBJECT (rn))
        {
          parse_fail (error, p, _("expected an object"));
          return NULL;
        }
      TlKernelRun *run = read_run (json_node_get_object (rn), p, error);
      if (run == NULL)
        return NULL;
      g_ptr_array_add (record->runs, run);
    }

  JsonObject *ext;
  if (!get_object (root, "$", "extensions", FALSE, &ext, error))
    return NULL;
  record->extensions = ext ? json_object_ref (ext) : NULL;
  return g_steal_pointer (&record);
}

/* Nesting depth outside strings, so json-glib's recursive parser never
 * meets a stack-busting document. */
static gboolean
json_depth_ok (const char *data, gsize length, guint max_depth)
{
  guint depth = 0;
  gboolean in_string = FALSE;
  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];
      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

TlRunRecord *
tl_run_record_from_data (const char *data, gssize length, GError **error)
{
  g_return_val_if_fail (data != NULL, NULL);
  gsize len = length < 0 ? strlen (data) : (gsize) length;
  if (!json_depth_ok (data, len, MAX_JSON_DEPTH))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE,
                   _("run record: nested deeper than %d levels"), MAX_JSON_DEPTH);
      return NULL;
    }
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GError) local = NULL;
  if (!json_parser_load_from_data (parser, data, len, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("run record: not valid JSON: %s"),
                   local->message);
      return NULL;
    }
  JsonNode *root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("run record: the file is empty"));
      return NULL;
    }
  return tl_run_record_from_json (root, error);
}

/* ---- files ------------------------------------------------------------ */

static char *
record_stem (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".json"))
    base[strlen (base) - 5] = '\0';
  return g_steal_pointer (&base);
}

static gboolean
save_matrix_beside (const TlMatrix *m, const char *dir, const char *stem, const char *what,
                    char **rel_out, GError **error)
{
  g_autofree char *rel = g_strdup_printf ("%s.%s.npy", stem, what);
  g_autofree char *full = g_build_filename (dir, rel, NULL);
  if (!tl_matrix_save (m, full, TL_FORMAT_NPY, error))
    return FALSE;
  g_free (*rel_out);
  *rel_out = g_steal_pointer (&rel);
  return TRUE;
}

gboolean
tl_run_record_save (TlRunRecord *record, const char *path, TlRecordSaveFlags flags,
                    GError **error)
{
  g_return_val_if_fail (record != NULL && path != NULL, FALSE);
  if (flags & TL_RECORD_SAVE_MATRICES)
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *stem = record_stem (path);
      if ((record->a && !save_matrix_beside (record->a, dir, stem, "A", &record->a_path, error))
          || (record->b && !save_matrix_beside (record->b, dir, stem, "B", &record->b_path, error))
          || (record->reference
              && !save_matrix_beside (record->reference, dir, stem, "reference",
                                      &record->reference_path, error)))
        return FALSE;
      for (guint i = 0; i < record->runs->len; i++)
        {
          TlKernelRun *run = record->runs->pdata[i];
          g_autofree char *what = g_strdup_printf ("C.%s", run->kernel_id);
          if (run->c && !save_matrix_beside (run->c, dir, stem, what, &run->c_path, error))
            return FALSE;
        }
    }
  /* indented for people; on one line when block records make it big */
  gsize n_blocks = 0;
  for (guint i = 0; i < record->runs->len; i++)
    n_blocks += ((TlKernelRun *) record->runs->pdata[i])->n_blocks;
  g_autofree char *text = tl_run_record_to_string (record, n_blocks <= TL_RUN_RECORD_PRETTY_BLOCKS);
  g_autoptr (GError) local = NULL;
  if (!g_file_set_contents (path, text, -1, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO, _("Could not write the run record: %s"),
                   local->message);
      return FALSE;
    }
  return TRUE;
}

TlMatrix *
tl_run_record_load_matrix (const TlRunRecord *record, const char *relative_path,
                           GError **error)
{
  g_return_val_if_fail (record != NULL && relative_path != NULL, NULL);
  if (!check_relative_path (relative_path, "matrix path", error))
    return NULL;
  g_autofree char *full = g_build_filename (record->base_dir ? record->base_dir : ".",
                                            relative_path, NULL);
  return tl_matrix_load (full, TL_FORMAT_NPY, error);
}

static gboolean
load_named (const TlRunRecord *record, const char *rel, TlMatrix **out, GError **error)
{
  if (rel == NULL)
    return TRUE;
  TlMatrix *m = tl_run_record_load_matrix (record, rel, error);
  if (m == NULL)
    return FALSE;
  g_clear_pointer (out, tl_matrix_unref);
  *out = m;
  return TRUE;
}

TlRunRecord *
tl_run_record_load (const char *path, TlRecordLoadFlags flags, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, TL_ERROR, TL_ERROR_IO, _("%s: %s"), path, g_strerror (saved));
      return NULL;
    }
  if ((guint64) st.st_size > MAX_RECORD_BYTES)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   _("%s: %" G_GUINT64_FORMAT " bytes is too large for a run record"), path,
                   (guint64) st.st_size);
      return NULL;
    }
  g_autofree char *data = NULL;
  gsize length = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO, "%s", local->message);
      return NULL;
    }
  g_autoptr (TlRunRecord) record = tl_run_record_from_data (data, length, &local);
  if (record == NULL)
    {
      g_set_error (error, TL_ERROR, local->code, "%s: %s", path, local->message);
      return NULL;
    }
  record->base_dir = g_path_get_dirname (path);
  if (flags & TL_RECORD_LOAD_MATRICES)
    {
      if (!load_named (record, record->a_path, &record->a, error)
          || !load_named (record, record->b_path, &record->b, error)
          || !load_named (record, record->reference_path, &record->reference, error))
        return NULL;
      for (guint i = 0; i < record->runs->len; i++)
        {
          TlKernelRun *run = record->runs->pdata[i];
          if (!load_named (record, run->c_path, &run->c, error))
            return NULL;
        }
    }
  return g_steal_pointer (&record);
}
