/* tl-record.c — run records in memory: kernel runs and the record. */
#include "record/tl-record-private.h"

#include "tl-config.h"
#include "core/tl-error.h"

#include <math.h>
#include <string.h>


static const char *const status_names[] = { "ok", "error", "cancelled", "skipped" };
static const char *const backend_names[] = { "cpu", "gpu" };
/* TlErrorCode in order */
static const char *const error_names[] = {
  "parse", "io", "too-large", "unsupported", "shape", "invalid", "no-device",
  "out-of-memory", "launch-failed", "device-lost", "singular",
};

const TlNameTable tl_run_status_table = { status_names, G_N_ELEMENTS (status_names) };
const TlNameTable tl_backend_table = { backend_names, G_N_ELEMENTS (backend_names) };

gboolean
tl_name_table_lookup (const TlNameTable *table, const char *name, int *out)
{
  for (guint i = 0; name != NULL && i < table->n; i++)
    if (strcmp (table->names[i], name) == 0)
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

const char *
tl_backend_name (TlBackend backend)
{
  return (guint) backend < G_N_ELEMENTS (backend_names) ? backend_names[backend] : "cpu";
}

const char *
tl_run_error_code_name (int code)
{
  return code >= 0 && code < (int) G_N_ELEMENTS (error_names) ? error_names[code] : "other";
}

int
tl_run_error_code_from_name (const char *name)
{
  const TlNameTable table = { error_names, G_N_ELEMENTS (error_names) };
  int code;
  return tl_name_table_lookup (&table, name, &code) ? code : -1;
}


static void
launch_facts_init (TlLaunchFacts *facts)
{
  memset (facts, 0, sizeof *facts);
  facts->waves = NAN;
  facts->occupancy = NAN;
  facts->const_bytes = -1;
}

TlKernelRun *
tl_kernel_run_new (const char *kernel_id, TlBackend backend)
{
  TlKernelRun *run = g_new0 (TlKernelRun, 1);
  run->kernel_id = g_strdup (kernel_id);
  run->info = tl_kernel_find (kernel_id);
  run->backend = backend;
  run->status = TL_RUN_OK;
  run->error_code = -1;
  run->upload_ms = run->download_ms = NAN;
  run->gflops = run->gbytes_per_s = NAN;
  run->max_abs = run->max_rel = run->rel_norm = run->normwise = NAN;
  run->tolerance = run->worst = NAN;
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
  copy->counters = tl_counters_copy (run->counters);
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
  tl_counters_free (run->counters);
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



TlRunRecord *
tl_run_record_alloc (void)
{
  TlRunRecord *record = g_new0 (TlRunRecord, 1);
  record->ref_count = 1;
  record->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_kernel_run_free);
  return record;
}

TlRunRecord *
tl_run_record_new (const TlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  TlRunRecord *record = tl_run_record_alloc ();
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
  TlRunRecord *copy = tl_run_record_alloc ();
  GPtrArray *runs = copy->runs;
  *copy = *record;
  copy->ref_count = 1;
  copy->runs = runs;
  copy->schema = g_strdup (record->schema);
  copy->tilelab_version = g_strdup (record->tilelab_version);
  copy->created = g_strdup (record->created);
  copy->command_line = g_strdup (record->command_line);
  copy->note = g_strdup (record->note);
  copy->cancelled = record->cancelled;
  tl_machine_facts_copy (&record->machine, &copy->machine);
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
  copy->extensions_packed = record->extensions_packed
                              ? tl_json_pack_store_ref (record->extensions_packed) : NULL;
  copy->base_dir = g_strdup (record->base_dir);
  return copy;
}

TlRunRecord *
tl_run_record_ref (TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_atomic_int_inc (&record->ref_count);
  return record;
}

void
tl_run_record_unref (TlRunRecord *record)
{
  if (record == NULL || !g_atomic_int_dec_and_test (&record->ref_count))
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
  g_clear_pointer (&record->extensions_packed, tl_json_pack_store_unref);
  g_free (record->base_dir);
  g_free (record);
}

void
tl_run_record_free (TlRunRecord *record)
{
  tl_run_record_unref (record);
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


gboolean
tl_run_record_is_v1 (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);
  return g_strcmp0 (record->schema, TL_RUN_RECORD_SCHEMA_V1) == 0;
}

const char *
tl_run_record_counters_absence (const TlRunRecord *record, const TlKernelRun *run)
{
  g_return_val_if_fail (record != NULL && run != NULL, NULL);
  return tl_counters_absence (run->counters, run->backend == TL_BACKEND_CPU,
                              tl_run_record_is_v1 (record),
                              record->job != NULL && record->job->counters);
}
