/* tl-record-write.c — run records as JSON text and files (docs/run-record.md). */
#include "record/tl-record-private.h"

#include "tl-config.h"
#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-write.h"
#include "core/tl-save-set.h"
#include "record/tl-gauss-record.h"
#include "record/tl-lu-record.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>


static void
add_quantity (TlJsonOut *b, const char *name, double value, const char *unit)
{
  if (!isfinite (value))
    return;
  tl_json_out_member (b, name);
  tl_json_out_begin_object (b);
  tl_json_out_member (b, "value");
  tl_json_out_double (b, value);
  tl_json_out_member (b, "unit");
  tl_json_out_string (b, unit);
  tl_json_out_end_object (b);
}

static void
add_double (TlJsonOut *b, const char *name, double value)
{
  if (!isfinite (value))
    return;
  tl_json_out_member (b, name);
  tl_json_out_double (b, value);
}

/* "wrong": how many elements broke their bound; "mismatches": the first. */
static void
add_mismatches (TlJsonOut *b, const TlKernelRun *run)
{
  tl_json_out_member_int (b, "wrong", (gint64) run->n_wrong);
  tl_json_out_member (b, "mismatches");
  tl_json_out_begin_array (b);
  for (guint i = 0; i < run->n_mismatches; i++)
    {
      const TlGemmMismatch *m = &run->mismatches[i];
      tl_json_out_begin_object (b);
      tl_json_out_member_int (b, "row", (gint64) m->row);
      tl_json_out_member_int (b, "col", (gint64) m->col);
      tl_json_out_member_double (b, "got", m->got);
      tl_json_out_member_double (b, "expected", m->expected);
      tl_json_out_member_double (b, "bound", m->bound);
      tl_json_out_end_object (b);
    }
  tl_json_out_end_array (b);
}

static void
add_stats (TlJsonOut *b, const char *name, const TlMatrixStats *s)
{
  tl_json_out_member (b, name);
  tl_json_out_begin_object (b);
  add_double (b, "min", s->min);
  add_double (b, "max", s->max);
  add_double (b, "mean", s->mean);
  tl_json_out_member_int (b, "n_nan", s->n_nan);
  tl_json_out_member_int (b, "n_inf", s->n_inf);
  tl_json_out_member_int (b, "n_finite", s->n_finite);
  tl_json_out_end_object (b);
}

static void
add_source (TlJsonOut *b, const char *name, const TlSource *s)
{
  tl_json_out_member (b, name);
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "kind", tl_source_kind_name (s->kind));
  switch (s->kind)
    {
    case TL_SOURCE_GENERATOR:
      tl_json_out_member_string (b, "generator", s->generator ? s->generator : "");
      /* JSON integers are signed 64-bit: larger seeds travel as text */
      if (s->seed <= G_MAXINT64)
        tl_json_out_member_int (b, "seed", (gint64) s->seed);
      else
        {
          g_autofree char *t = g_strdup_printf ("%" G_GUINT64_FORMAT, s->seed);
          tl_json_out_member_string (b, "seed", t);
        }
      break;
    case TL_SOURCE_FILE:
      tl_json_out_member_string (b, "path", s->path ? s->path : "");
      break;
    case TL_SOURCE_MATRIX:
      tl_json_out_member_string (b, "label", s->label);
      break;
    }
  tl_json_out_end_object (b);
}

/* A planned rung's plan (docs/run-record.md, "plan"). */
static void
add_plan (TlJsonOut *b, const TlGpuGemmPlan *p)
{
  tl_json_out_member (b, "plan");
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "name", p->name);
  tl_json_out_member_int (b, "tile_m", p->tile_m);
  tl_json_out_member_int (b, "tile_n", p->tile_n);
  tl_json_out_member_int (b, "splits", p->splits);
  tl_json_out_member_int (b, "k_per_split", p->k_per_split);
  tl_json_out_member_int (b, "cluster", p->cluster);
  tl_json_out_member_int (b, "raster", p->raster);
  tl_json_out_member_int (b, "tiles", p->tiles);
  tl_json_out_member_int (b, "work", p->work);
  tl_json_out_member_int (b, "slots", p->slots);
  tl_json_out_member_int (b, "ctas_per_sm", p->ctas_per_sm);
  tl_json_out_member_int (b, "waves", p->waves);
  add_double (b, "last_wave_fill", p->last_wave_fill);
  tl_json_out_member_int (b, "idle_sms", p->idle_sms);
  tl_json_out_member_int (b, "idle_sms_default", p->idle_sms_default);
  add_double (b, "model_us", p->model_us);
  tl_json_out_member_bool (b, "pinned", p->pinned);
  tl_json_out_member_string (b, "why", p->why);
  tl_json_out_end_object (b);
}

static void
add_job (TlJsonOut *b, const TlJob *job)
{
  tl_json_out_member (b, "job");
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "kind", job->kind ? job->kind : "gemm");
  tl_json_out_member_int (b, "m", job->m);
  tl_json_out_member_int (b, "k", job->k);
  tl_json_out_member_int (b, "n", job->n);
  tl_json_out_member_string (b, "dtype", tl_dtype_name (job->dtype));
  add_source (b, "a", &job->a);
  add_source (b, "b", &job->b);
  tl_json_out_member (b, "kernels");
  tl_json_out_begin_array (b);
  for (guint i = 0; job->kernels && job->kernels[i]; i++)
    tl_json_out_string (b, job->kernels[i]);
  tl_json_out_end_array (b);
  tl_json_out_member_int (b, "repeats", job->repeats);
  tl_json_out_member_int (b, "warmups", job->warmups);
  tl_json_out_member_bool (b, "flush_l2", job->flush_l2);
  tl_json_out_member_bool (b, "instrument", job->instrument);
  tl_json_out_member_bool (b, "counters", job->counters);
  tl_json_out_member_int (b, "threads", job->threads);
  tl_json_out_member_int (b, "device", job->device);
  if (job->plan != NULL)
    tl_json_out_member_string (b, "plan", job->plan);
  tl_json_out_end_object (b);
}

static void
add_device (TlJsonOut *b, const TlGpuFacts *f)
{
  tl_json_out_member (b, "device");
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "ordinal", f->ordinal);
  tl_json_out_member_string (b, "name", f->name);
  tl_json_out_member_int (b, "cc_major", f->cc_major);
  tl_json_out_member_int (b, "cc_minor", f->cc_minor);
  tl_json_out_member_int (b, "sm_count", f->sm_count);
  tl_json_out_member_int (b, "clock_khz", f->clock_khz);
  tl_json_out_member_int (b, "mem_clock_khz", f->mem_clock_khz);
  tl_json_out_member_int (b, "mem_bus_width_bits", f->mem_bus_width_bits);
  tl_json_out_member_int (b, "total_mem_bytes", (gint64) f->total_mem_bytes);
  tl_json_out_member_int (b, "free_mem_bytes", (gint64) f->free_mem_bytes);
  tl_json_out_member_int (b, "l2_bytes", f->l2_bytes);
  tl_json_out_member_int (b, "smem_per_block_bytes", f->smem_per_block_bytes);
  tl_json_out_member_int (b, "smem_per_block_optin_bytes", f->smem_per_block_optin_bytes);
  tl_json_out_member_int (b, "smem_per_sm_bytes", f->smem_per_sm_bytes);
  tl_json_out_member_int (b, "regs_per_sm", f->regs_per_sm);
  tl_json_out_member_int (b, "regs_per_block", f->regs_per_block);
  tl_json_out_member_int (b, "max_threads_per_block", f->max_threads_per_block);
  tl_json_out_member_int (b, "max_threads_per_sm", f->max_threads_per_sm);
  tl_json_out_member_int (b, "max_blocks_per_sm", f->max_blocks_per_sm);
  tl_json_out_member_int (b, "warp_size", f->warp_size);
  tl_json_out_member_int (b, "driver_version", f->driver_version);
  tl_json_out_member_int (b, "runtime_version", f->runtime_version);
  tl_json_out_end_object (b);
}

/* hardware counters (docs/counters.md): raw sums by key; NaN ones absent */
static void
add_counters (TlJsonOut *b, const TlCounters *c)
{
  tl_json_out_member (b, "counters");
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "state", tl_counters_state_name (c->state));
  tl_json_out_member_string (b, "message", c->message);
  tl_json_out_member_string (b, "chip", c->chip);
  if (c->passes > 0)
    tl_json_out_member_int (b, "passes", c->passes);
  if (c->state == TL_GPU_COUNTERS_MEASURED)
    {
      tl_json_out_member (b, "values");
      tl_json_out_begin_object (b);
      for (int i = 0; i < TL_GPU_N_COUNTERS; i++)
        add_double (b, tl_gpu_counter_info (i)->key, c->value[i]);
      tl_json_out_end_object (b);
    }
  tl_json_out_end_object (b);
}

static void
add_bandwidth (TlJsonOut *b, const TlGpuBandwidth *bw)
{
  tl_json_out_member (b, "bandwidth");
  tl_json_out_begin_object (b);
  add_quantity (b, "dram", bw->dram_bytes_per_s / 1e9, "GB/s");
  add_quantity (b, "l2", bw->l2_bytes_per_s / 1e9, "GB/s");
  tl_json_out_member_int (b, "dram_buffer_bytes", (gint64) bw->dram_buffer_bytes);
  tl_json_out_member_int (b, "l2_buffer_bytes", (gint64) bw->l2_buffer_bytes);
  tl_json_out_end_object (b);
}

#define ADD_BLOCK_ARRAY(b, name, blocks, n, field)      \
  G_STMT_START {                                        \
    tl_json_out_member (b, name);                       \
    tl_json_out_begin_array (b);                        \
    for (gsize _i = 0; _i < (n); _i++)                  \
      tl_json_out_int (b, (gint64) (blocks)[_i].field); \
    tl_json_out_end_array (b);                          \
  } G_STMT_END

/* Which kernel, how it ended and why. */
static void
add_outcome (TlJsonOut *b, const TlKernelRun *run)
{
  tl_json_out_member_string (b, "kernel", run->kernel_id);
  tl_json_out_member_string (b, "backend", tl_backend_name (run->backend));
  tl_json_out_member_string (b, "precision", run->precision);
  tl_json_out_member_string (b, "status", tl_run_status_name (run->status));
  if (run->status == TL_RUN_ERROR || run->status == TL_RUN_CANCELLED)
    {
      tl_json_out_member (b, "error");
      tl_json_out_begin_object (b);
      tl_json_out_member_string (b, "code", tl_run_error_code_name (run->error_code));
      tl_json_out_member_string (b, "message", run->message ? run->message : "");
      tl_json_out_end_object (b);
    }
  else if (run->status == TL_RUN_SKIPPED)
    tl_json_out_member_string (b, "reason", run->message ? run->message : "");
  if (run->backend == TL_BACKEND_CPU)
    tl_json_out_member_int (b, "threads", run->threads);
}

/* The timed launches: their statistics and every sample. */
static void
add_time (TlJsonOut *b, const TlKernelRun *run)
{
  tl_json_out_member (b, "time");
  tl_json_out_begin_object (b);
  add_quantity (b, "median", run->time.median, "ms");
  add_quantity (b, "min", run->time.min, "ms");
  add_quantity (b, "max", run->time.max, "ms");
  add_quantity (b, "mean", run->time.mean, "ms");
  tl_json_out_member_int (b, "count", run->time.count);
  tl_json_out_member (b, "samples");
  tl_json_out_begin_object (b);
  tl_json_out_member (b, "values");
  tl_json_out_begin_array (b);
  for (guint i = 0; i < run->n_samples; i++)
    if (isfinite (run->samples_ms[i]))
      tl_json_out_double (b, run->samples_ms[i]);
  tl_json_out_end_array (b);
  tl_json_out_member_string (b, "unit", "ms");
  tl_json_out_end_object (b);
  tl_json_out_end_object (b);
}

static void
add_verification (TlJsonOut *b, const TlKernelRun *run)
{
  tl_json_out_member (b, "verification");
  tl_json_out_begin_object (b);
  add_double (b, "max_abs", run->max_abs);
  add_double (b, "max_rel", run->max_rel);
  add_double (b, "rel_norm", run->rel_norm);
  add_double (b, "normwise", run->normwise);
  add_double (b, "tolerance", run->tolerance);
  add_double (b, "worst", run->worst);
  tl_json_out_member_bool (b, "passed", run->passed);
  if (run->n_wrong > 0)
    add_mismatches (b, run);
  tl_json_out_end_object (b);
}

static void
add_launch (TlJsonOut *b, const TlLaunchFacts *l)
{
  tl_json_out_member (b, "launch");
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "regs_per_thread", l->regs_per_thread);
  tl_json_out_member_int (b, "static_smem_bytes", l->static_smem_bytes);
  tl_json_out_member_int (b, "dynamic_smem_bytes", l->dynamic_smem_bytes);
  tl_json_out_member_int (b, "local_bytes_per_thread", l->local_bytes_per_thread);
  if (l->const_bytes >= 0)
    tl_json_out_member_int (b, "const_bytes", l->const_bytes);
  tl_json_out_member_int (b, "max_threads_per_block", l->max_threads_per_block);
  tl_json_out_member_int (b, "active_blocks_per_sm", l->active_blocks_per_sm);
  tl_json_out_member_int (b, "grid_x", l->grid_x);
  tl_json_out_member_int (b, "grid_y", l->grid_y);
  tl_json_out_member_int (b, "grid_z", l->grid_z);
  tl_json_out_member_int (b, "block_x", l->block_x);
  tl_json_out_member_int (b, "block_y", l->block_y);
  tl_json_out_member_int (b, "block_z", l->block_z);
  tl_json_out_member_int (b, "launches", l->launches);
  add_double (b, "waves", l->waves);
  add_double (b, "occupancy", l->occupancy);
  tl_json_out_end_object (b);
}

/* The block records, one array per field. */
static void
add_blocks (TlJsonOut *b, const TlKernelRun *run)
{
  const char *unit = g_strcmp0 (run->block_unit, "thread") == 0 ? "thread" : "sm";
  tl_json_out_member (b, "blocks");
  tl_json_out_begin_object (b);
  tl_json_out_member_int (b, "count", run->n_blocks);
  tl_json_out_member_string (b, "unit", unit);
  /* a tile not known is left out (the reader refuses a tile of 0) */
  if (run->block_tile_m > 0 && run->block_tile_n > 0)
    {
      tl_json_out_member_int (b, "tile_m", run->block_tile_m);
      tl_json_out_member_int (b, "tile_n", run->block_tile_n);
    }
  ADD_BLOCK_ARRAY (b, "block_x", run->blocks, run->n_blocks, block_x);
  ADD_BLOCK_ARRAY (b, "block_y", run->blocks, run->n_blocks, block_y);
  ADD_BLOCK_ARRAY (b, unit, run->blocks, run->n_blocks, unit);
  ADD_BLOCK_ARRAY (b, "launch", run->blocks, run->n_blocks, launch);
  ADD_BLOCK_ARRAY (b, "start_ns", run->blocks, run->n_blocks, start_ns);
  ADD_BLOCK_ARRAY (b, "end_ns", run->blocks, run->n_blocks, end_ns);
  tl_json_out_end_object (b);
}

static void
add_run (TlJsonOut *b, const TlKernelRun *run)
{
  tl_json_out_begin_object (b);
  add_outcome (b, run);
  if (run->time.count > 0)
    add_time (b, run);
  add_quantity (b, "upload", run->upload_ms, "ms");
  add_quantity (b, "download", run->download_ms, "ms");
  add_quantity (b, "throughput", run->gflops, "GFLOP/s");
  if (run->bytes > 0)
    add_quantity (b, "bytes", (double) run->bytes, "B");
  add_quantity (b, "bandwidth", run->gbytes_per_s, "GB/s");

  if (run->verified)
    add_verification (b, run);
  tl_json_out_member_string (b, "reference_kernel", run->reference_id);
  add_quantity (b, "percent_of_reference", run->percent_of_reference, "%");
  add_quantity (b, "speedup_vs_naive", run->speedup_vs_naive, "x");

  if (run->launch.valid)
    add_launch (b, &run->launch);
  if (run->has_plan)
    add_plan (b, &run->plan);

  if (isfinite (run->instrumented_median_ms))
    {
      tl_json_out_member (b, "instrumented");
      tl_json_out_begin_object (b);
      add_quantity (b, "median", run->instrumented_median_ms, "ms");
      add_quantity (b, "overhead", run->instrument_overhead_pct, "%");
      tl_json_out_end_object (b);
    }

  if (run->counters != NULL && tl_counters_state_name (run->counters->state) != NULL)
    add_counters (b, run->counters);
  if (run->n_blocks > 0)
    add_blocks (b, run);

  if (run->has_c_stats || run->c_path)
    {
      tl_json_out_member (b, "result");
      tl_json_out_begin_object (b);
      if (run->has_c_stats)
        add_stats (b, "stats", &run->c_stats);
      tl_json_out_member_string (b, "path", run->c_path);
      tl_json_out_end_object (b);
    }
  tl_json_out_end_object (b);
}

static void
add_input (TlJsonOut *b, const char *name, gboolean has_stats, const TlMatrixStats *stats,
           const char *path)
{
  if (!has_stats && path == NULL)
    return;
  tl_json_out_member (b, name);
  tl_json_out_begin_object (b);
  if (has_stats)
    add_stats (b, "stats", stats);
  tl_json_out_member_string (b, "path", path);
  tl_json_out_end_object (b);
}

/* The whole record, written to b as it is produced; lu (may be NULL), a
 * Gauss step recording, as $.extensions.lu. */
static void
add_record (TlJsonOut *b, const TlRunRecord *record, const TlLuRecorder *lu)
{
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "schema", TL_RUN_RECORD_SCHEMA);
  tl_json_out_member_string (b, "tilelab_version", record->tilelab_version ? record->tilelab_version : TL_VERSION);
  tl_json_out_member_string (b, "created", record->created ? record->created : "");
  tl_json_out_member_string (b, "command_line", record->command_line);
  tl_json_out_member_string (b, "note", record->note);
  if (record->cancelled)
    tl_json_out_member_bool (b, "cancelled", TRUE);

  tl_json_out_member (b, "machine");
  tl_json_out_begin_object (b);
  tl_json_out_member_string (b, "host_name", record->machine.host_name ? record->machine.host_name : "");
  tl_json_out_member_string (b, "os", record->machine.os ? record->machine.os : "");
  tl_json_out_member_string (b, "cpu_model", record->machine.cpu_model ? record->machine.cpu_model : "");
  tl_json_out_member_int (b, "cores", record->machine.cores);
  tl_json_out_end_object (b);

  if (record->has_device)
    add_device (b, &record->device);
  if (record->has_bandwidth)
    add_bandwidth (b, &record->bandwidth);
  if (record->job)
    add_job (b, record->job);

  tl_json_out_member (b, "inputs");
  tl_json_out_begin_object (b);
  add_input (b, "a", record->has_input_stats, &record->a_stats, record->a_path);
  add_input (b, "b", record->has_input_stats, &record->b_stats, record->b_path);
  add_input (b, "reference", record->has_input_stats, &record->reference_stats,
             record->reference_path);
  tl_json_out_end_object (b);

  tl_json_out_member (b, "runs");
  tl_json_out_begin_array (b);
  for (guint i = 0; i < record->runs->len; i++)
    add_run (b, record->runs->pdata[i]);
  tl_json_out_end_array (b);

  if (record->extensions || lu)
    {
      tl_json_out_member (b, "extensions");
      tl_json_out_begin_object (b);
      if (lu)
        {
          tl_json_out_member (b, "lu");
          tl_lu_recorder_write (lu, b);
        }
      GList *names = record->extensions ? json_object_get_members (record->extensions) : NULL;
      for (GList *l = names; l != NULL; l = l->next)
        if (!lu || strcmp (l->data, "lu") != 0)
          {
            tl_json_out_member (b, l->data);
            tl_json_out_node (b, json_object_get_member (record->extensions, l->data));
          }
      g_list_free (names);
      tl_json_out_end_object (b);
    }
  tl_json_out_end_object (b);
}

JsonNode *
tl_run_record_to_json (const TlRunRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  add_record (b, record, NULL);
  return json_builder_get_root (builder);
}

/* add_job and add_device write a member of an object: they write into a
 * wrapper object (begun on b), and that member is taken out of it; frees b */
static JsonNode *
member_of_wrapper (JsonBuilder *builder, TlJsonOut *b, const char *name)
{
  tl_json_out_end_object (b);
  tl_json_out_free (b);
  g_autoptr (JsonNode) wrapper = json_builder_get_root (builder);
  return json_node_copy (json_object_get_member (json_node_get_object (wrapper), name));
}

JsonNode *
tl_job_to_json (const TlJob *job)
{
  g_return_val_if_fail (job != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  TlJsonOut *b = tl_json_out_new_builder (builder);
  tl_json_out_begin_object (b);
  add_job (b, job);
  return member_of_wrapper (builder, b, "job");
}

JsonNode *
tl_gpu_facts_to_json (const TlGpuFacts *facts)
{
  g_return_val_if_fail (facts != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  TlJsonOut *b = tl_json_out_new_builder (builder);
  tl_json_out_begin_object (b);
  add_device (b, facts);
  return member_of_wrapper (builder, b, "device");
}

JsonNode *
tl_kernel_run_to_json (const TlKernelRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  add_run (b, run);
  return json_builder_get_root (builder);
}

char *
tl_run_record_to_string (const TlRunRecord *record, gboolean pretty)
{
  g_return_val_if_fail (record != NULL, NULL);
  TlJsonOut *b = tl_json_out_new_text (pretty);
  add_record (b, record, NULL);
  return tl_json_out_free_to_text (b, NULL);
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

/* A matrix a record saved with TL_RECORD_SAVE_MATRICES writes beside
 * itself as STEM.WHAT.npy, and the record's member naming it. */
typedef struct
{
  const TlMatrix *m;
  char *what;      /* "A", "B", "reference", "C.KERNEL" */
  char **rel;      /* the record's relative path to it */
  char *old_rel;   /* what that was, put back when the save fails */
  gboolean named;  /* *rel names the new file */
} Beside;

static void
beside_clear (gpointer data)
{
  g_free (((Beside *) data)->what);
}

static GArray *
matrices_beside (TlRunRecord *record, TlRecordSaveFlags flags)
{
  GArray *list = g_array_new (FALSE, FALSE, sizeof (Beside));
  g_array_set_clear_func (list, beside_clear);
  if (!(flags & TL_RECORD_SAVE_MATRICES))
    return list;
  const struct { const TlMatrix *m; const char *what; char **rel; } inputs[] = {
    { record->a, "A", &record->a_path }, { record->b, "B", &record->b_path },
    { record->reference, "reference", &record->reference_path },
  };
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    if (inputs[i].m)
      g_array_append_val (list, ((Beside) { inputs[i].m, g_strdup (inputs[i].what),
                                            inputs[i].rel }));
  for (guint i = 0; i < record->runs->len; i++)
    {
      TlKernelRun *run = record->runs->pdata[i];
      if (run->c)
        g_array_append_val (list, ((Beside) { run->c, g_strdup_printf ("C.%s", run->kernel_id),
                                              &run->c_path }));
    }
  return list;
}

/* Each matrix of list into the set beside the record at path, and its
 * new relative path into the record. */
static gboolean
save_matrices_beside (GArray *list, TlSaveSet *set, const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *stem = record_stem (path);
  for (guint i = 0; i < list->len; i++)
    {
      Beside *b = &g_array_index (list, Beside, i);
      g_autofree char *rel = g_strdup_printf ("%s.%s.npy", stem, b->what);
      g_autofree char *full = g_build_filename (dir, rel, NULL);
      TlSave *save = tl_save_set_add (set, full, error);
      if (save == NULL || !tl_matrix_save_into (b->m, save, full, TL_FORMAT_NPY, error))
        return FALSE;
      b->old_rel = *b->rel;
      *b->rel = g_steal_pointer (&rel);
      b->named = TRUE;
    }
  return TRUE;
}

/* The record's paths as they were (ok FALSE) or as saved. */
static void
settle_paths (GArray *list, gboolean ok)
{
  for (guint i = 0; i < list->len; i++)
    {
      Beside *b = &g_array_index (list, Beside, i);
      if (!b->named)
        continue;
      if (ok)
        g_free (b->old_rel);
      else
        {
          g_free (*b->rel);
          *b->rel = b->old_rel;
        }
    }
}

/* The record and, with TL_RECORD_SAVE_MATRICES, its matrices as one set
 * of files (core/tl-save-set.h): all of them written, or none — a full
 * disk at B leaves no A, no record and no temporary. */
static gboolean
save_record (TlRunRecord *record, const TlLuRecorder *lu, const char *path,
             TlRecordSaveFlags flags, GError **error)
{
  g_autoptr (TlSaveSet) set = tl_save_set_new (NULL);
  g_autoptr (GArray) list = matrices_beside (record, flags);
  g_autoptr (GError) local = NULL;
  gboolean ok = save_matrices_beside (list, set, path, &local);
  /* indented for people; on one line when block records make it big */
  gsize n_blocks = 0;
  for (guint i = 0; i < record->runs->len; i++)
    n_blocks += ((TlKernelRun *) record->runs->pdata[i])->n_blocks;
  /* a link written through, a FIFO or device refused (core/tl-save.h);
   * the text written to it as it is produced, never whole in memory */
  TlSave *save = ok ? tl_save_set_add (set, path, &local) : NULL;
  if (save != NULL)
    {
      TlJsonOut *b = tl_json_out_new_file (tl_save_stream (save),
                                           n_blocks <= TL_RUN_RECORD_PRETTY_BLOCKS);
      add_record (b, record, lu);
      tl_json_out_free (b);
    }
  ok = save != NULL && tl_save_set_commit (g_steal_pointer (&set), &local);
  settle_paths (list, ok);
  if (!ok)
    g_set_error (error, TL_ERROR, TL_ERROR_IO,
                 list->len ? _("Could not write the run record and its matrices: %s")
                           : _("Could not write the run record: %s"),
                 local->message);
  return ok;
}

gboolean
tl_run_record_save (TlRunRecord *record, const char *path, TlRecordSaveFlags flags,
                    GError **error)
{
  g_return_val_if_fail (record != NULL && path != NULL, FALSE);
  return save_record (record, NULL, path, flags, error);
}

gboolean
tl_lu_run_record_save (TlRunRecord *record, const TlLuRecorder *rec, const char *path,
                       GError **error)
{
  g_return_val_if_fail (record != NULL && path != NULL, FALSE);
  return save_record (record, rec, path, TL_RECORD_SAVE_DEFAULT, error);
}
