/* tl-gemm-run.c — one GEMM job: inputs, reference, every kernel, verified.
 *
 * Measuring like a benchmark (STYLE.md): random inputs, warm-up runs,
 * repeats with the median, C poisoned with NaN before the run that is
 * verified, every result judged against a float64 reference computed once
 * per job, by the one rule of gemm/tl-gemm-check.h.  Cancellation is
 * polled before the reference, before every kernel, and inside them
 * (between CPU tiles and repeats; before every GPU launch).
 */
#include "run/tl-gemm-run.h"

#include "gemm/tl-cpu-gemm.h"
#include "gemm/tl-gemm-check.h"
#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "gemm/tl-kernels.h"
#include "run/tl-user-run.h"
#include "run/tl-user-worker.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ---- the job ---------------------------------------------------------- */

typedef struct
{
  const TlJob *job;
  const TlGemmCallbacks *cb;
  GCancellable *cancellable;
  TlGpuSession *gpu;
  gsize m, k, n;
  TlMatrix *a, *b;
  TlGemmReference *reference;
  /* progress: one unit for the inputs and the reference, one per kernel */
  double units_total, unit_start, unit_size;
} JobState;

static void
report (JobState *s, const char *kernel_id, const char *stage, double within)
{
  if (s->cb == NULL || s->cb->progress == NULL)
    return;
  double f = (s->unit_start + s->unit_size * CLAMP (within, 0.0, 1.0)) / s->units_total;
  s->cb->progress (kernel_id, stage, CLAMP (f, 0.0, 1.0), s->cb->user_data);
}

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* NaN for floats; for int32 a value no product of ours is likely to hit
 * everywhere. */
static void
poison (TlMatrix *c)
{
  gsize n = tl_matrix_n_elements (c);
  switch (c->dtype)
    {
    case TL_DTYPE_FLOAT32:
      for (gsize i = 0; i < n; i++)
        ((float *) c->data)[i] = NAN;
      break;
    case TL_DTYPE_FLOAT64:
      for (gsize i = 0; i < n; i++)
        ((double *) c->data)[i] = NAN;
      break;
    case TL_DTYPE_INT32:
      for (gsize i = 0; i < n; i++)
        ((gint32 *) c->data)[i] = G_MININT32 + 0x5a5a;
      break;
    }
}

static gboolean
all_zero (const TlMatrix *m)
{
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      if (tl_matrix_get (m, i, j) != 0.0)
        return FALSE;
  return TRUE;
}

/* A contiguous matrix of the job's dtype. */
static TlMatrix *
as_job_matrix (TlMatrix *m, TlDtype dtype, GError **error)
{
  if (m->dtype == dtype && tl_matrix_is_contiguous (m))
    return tl_matrix_ref (m);
  return tl_matrix_convert (m, dtype, error);
}

static TlMatrix *
make_input (const TlSource *source, TlMatrix *given, TlDtype dtype, gsize rows, gsize cols,
            const char *name, GError **error)
{
  g_autoptr (TlMatrix) m = NULL;
  if (given)
    m = tl_matrix_ref (given);
  else
    switch (source->kind)
      {
      case TL_SOURCE_GENERATOR:
        m = tl_generate (source->generator ? source->generator
                         : dtype == TL_DTYPE_INT32 ? "random-int" : "random-uniform", dtype, rows,
                         cols, source->seed, error);
        break;
      case TL_SOURCE_FILE:
        m = tl_matrix_load (source->path, TL_FORMAT_AUTO, error);
        break;
      case TL_SOURCE_MATRIX:
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("%s: no matrix was given"), name);
        return NULL;
      }
  if (m == NULL)
    return NULL;
  return as_job_matrix (m, dtype, error);
}

static void
verify (JobState *s, TlKernelRun *run, const TlMatrix *c)
{
  TlGemmCheck check;
  tl_gemm_check (s->reference, c, run->precision, &check);
  run->verified = TRUE;
  run->max_abs = check.max_abs;
  run->max_rel = check.max_rel;
  run->rel_norm = check.rel_norm;
  run->normwise = check.normwise;
  run->tolerance = check.tolerance;
  run->worst = check.worst;
  run->n_wrong = check.n_wrong;
  run->n_mismatches = check.n_mismatches;
  memcpy (run->mismatches, check.mismatches, sizeof check.mismatches);
  run->passed = check.passed;
  tl_matrix_stats (c, &run->c_stats);
  run->has_c_stats = TRUE;
}

static void
fill_throughput (JobState *s, TlKernelRun *run)
{
  run->gflops = tl_stats_gflops (tl_stats_gemm_flops (s->m, s->k, s->n), run->time.median);
  run->bytes = tl_stats_gemm_bytes (s->m, s->k, s->n, tl_dtype_size (s->a->dtype));
  run->gbytes_per_s = tl_stats_gbytes_per_s ((double) run->bytes, run->time.median);
}

/* ---- one CPU kernel ---------------------------------------------------- */

static gboolean
run_cpu (JobState *s, const TlKernelInfo *info, TlKernelRun *run, TlMatrix *c, GError **error)
{
  const TlJob *job = s->job;
  const char *id = info->id;
  guint steps = job->warmups + job->repeats + (job->instrument ? 1 : 0) + 1;
  guint step = 0;
  run->threads = info->single_threaded ? 1 : (job->threads ? job->threads : g_get_num_processors ());

  for (guint w = 0; w < job->warmups; w++)
    {
      report (s, id, _("warming up"), (double) step++ / steps);
      if (!tl_cpu_gemm (id, s->a, s->b, c, job->threads, NULL, s->cancellable, error))
        return FALSE;
    }

  g_autofree double *samples = g_new0 (double, MAX (job->repeats, 1));
  for (guint r = 0; r < job->repeats; r++)
    {
      g_autofree char *stage = g_strdup_printf (_("run %u of %u"), r + 1, job->repeats);
      report (s, id, stage, (double) step++ / steps);
      /* the last timed run is the one verified: it must write all of C */
      if (r + 1 == job->repeats)
        poison (c);
      double t0 = now_ms ();
      if (!tl_cpu_gemm (id, s->a, s->b, c, job->threads, NULL, s->cancellable, error))
        return FALSE;
      samples[r] = now_ms () - t0;
    }
  tl_kernel_run_set_samples (run, samples, job->repeats);
  fill_throughput (s, run);

  report (s, id, _("verifying"), (double) step++ / steps);
  verify (s, run, c);

  if (job->instrument && info->records_blocks)
    {
      report (s, id, _("instrumented run"), (double) step++ / steps);
      g_autoptr (GArray) tiles = g_array_new (FALSE, FALSE, sizeof (TlCpuTileRecord));
      g_autoptr (TlMatrix) scratch = tl_matrix_new (c->dtype, c->rows, c->cols, error);
      if (scratch == NULL)
        return FALSE;
      double t0 = now_ms ();
      if (!tl_cpu_gemm (id, s->a, s->b, scratch, job->threads, tiles, s->cancellable, error))
        return FALSE;
      run->instrumented_median_ms = now_ms () - t0;
      run->instrument_overhead_pct =
        100.0 * (run->instrumented_median_ms - run->time.median) / run->time.median;

      gint64 t_min = G_MAXINT64;
      for (guint i = 0; i < tiles->len; i++)
        t_min = MIN (t_min, g_array_index (tiles, TlCpuTileRecord, i).start_ns);
      TlBlockRecord *blocks = g_new0 (TlBlockRecord, MAX (tiles->len, 1));
      for (guint i = 0; i < tiles->len; i++)
        {
          const TlCpuTileRecord *t = &g_array_index (tiles, TlCpuTileRecord, i);
          blocks[i].block_x = t->tile_col;
          blocks[i].block_y = t->tile_row;
          blocks[i].unit = t->thread;
          blocks[i].launch = 0;
          blocks[i].start_ns = (guint64) MAX (t->start_ns - t_min, 0);
          blocks[i].end_ns = (guint64) MAX (t->end_ns - t_min, 0);
        }
      tl_kernel_run_take_blocks (run, blocks, tiles->len, "thread");
      run->block_tile_m = run->block_tile_n = MAX (info->tile_m, 0);
      if (info->tile_n > 0)
        run->block_tile_n = info->tile_n;
    }
  return TRUE;
}

/* ---- one GPU kernel ---------------------------------------------------- */

typedef struct
{
  JobState *s;
  const char *id;
  guint steps;
} GpuProgress;

static void
gpu_progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  GpuProgress *p = user_data;
  JobState *s = p->s;
  guint warm = MAX (s->job->warmups, 2);
  double at = 0.0;
  g_autofree char *text = NULL;
  switch (stage)
    {
    case TL_GPU_STAGE_UPLOAD:
      text = g_strdup (_("uploading"));
      break;
    case TL_GPU_STAGE_WARMUP:
      text = g_strdup (_("warming up"));
      at = 1;
      break;
    case TL_GPU_STAGE_RUN:
      text = g_strdup_printf (_("run %d of %d"), step + 1, total);
      at = 1 + warm + step;
      break;
    case TL_GPU_STAGE_INSTRUMENTED:
      text = g_strdup (_("instrumented run"));
      at = 1 + warm + s->job->repeats;
      break;
    case TL_GPU_STAGE_DOWNLOAD:
      text = g_strdup (_("downloading"));
      at = p->steps - 1;
      break;
    case TL_GPU_STAGE_COUNTERS:
      text = g_strdup (_("counting hardware events"));
      at = p->steps - 2;
      break;
    }
  report (s, p->id, text ? text : "", at / p->steps);
}

static int
gpu_cancelled_cb (void *user_data)
{
  GpuProgress *p = user_data;
  return g_cancellable_is_cancelled (p->s->cancellable);
}

/* The launch facts of the run's main kernel, and its occupancy in warps
 * as the occupancy calculator reports it (facts: the device's, or NULL). */
static void
take_launch_facts (TlKernelRun *run, const TlGpuLaunchFacts *l, const TlGpuFacts *facts)
{
  /* the library references report no launch facts */
  run->launch.valid = l->grid_x > 0;
  run->launch.regs_per_thread = l->regs_per_thread;
  run->launch.static_smem_bytes = l->static_smem_bytes;
  run->launch.dynamic_smem_bytes = l->dynamic_smem_bytes;
  run->launch.local_bytes_per_thread = l->local_bytes_per_thread;
  run->launch.max_threads_per_block = l->max_threads_per_block;
  run->launch.active_blocks_per_sm = l->active_blocks_per_sm;
  run->launch.grid_x = l->grid_x;
  run->launch.grid_y = l->grid_y;
  run->launch.grid_z = l->grid_z;
  run->launch.block_x = l->block_x;
  run->launch.block_y = l->block_y;
  run->launch.block_z = l->block_z;
  run->launch.launches = l->launches;
  run->launch.waves = l->waves;
  int threads = l->block_x * MAX (l->block_y, 1) * MAX (l->block_z, 1);
  if (facts != NULL && facts->max_threads_per_sm > 0 && threads > 0)
    {
      int warp = facts->warp_size > 0 ? facts->warp_size : 32;
      double warps = (double) l->active_blocks_per_sm * ((threads + warp - 1) / warp);
      run->launch.occupancy = MIN (1.0, warps / (facts->max_threads_per_sm / warp));
    }
}

/* The instrumented launch's block records, with the C tile they cover. */
static void
take_block_records (TlKernelRun *run, const TlKernelInfo *info, const TlGpuGemmResult *result)
{
  if (result->n_blocks == 0 || result->blocks == NULL)
    return;
  TlBlockRecord *blocks = g_new (TlBlockRecord, result->n_blocks);
  for (size_t i = 0; i < result->n_blocks; i++)
    {
      const TlGpuBlockRecord *g = &result->blocks[i];
      blocks[i] = (TlBlockRecord) { g->block_x, g->block_y, g->sm, g->launch,
                                    g->start_ns, MAX (g->end_ns, g->start_ns) };
    }
  tl_kernel_run_take_blocks (run, blocks, result->n_blocks, "sm");
  run->block_tile_m = MAX (info->tile_m, 0);
  run->block_tile_n = MAX (info->tile_n, 0);
}

/* Whether the job's device can run the kernel at all: a device too old
 * for it skips the run (*skipped), a problem beyond int dimensions is an
 * error. */
static gboolean
gpu_can_run (JobState *s, const TlKernelInfo *info, TlKernelRun *run, gboolean *skipped,
             GError **error)
{
  TlGpuFacts facts;
  *skipped = FALSE;
  if (tl_gpu_session_get_facts (s->gpu, s->job->device, &facts)
      && !tl_kernel_runs_on (info, facts.cc_major, facts.cc_minor))
    {
      g_autofree char *why = g_strdup_printf (
        _("needs compute capability %d.%d; %s has %d.%d"), info->min_cc / 10, info->min_cc % 10,
        facts.name, facts.cc_major, facts.cc_minor);
      tl_kernel_run_set_skipped (run, why);
      *skipped = TRUE;
      return TRUE;
    }
  if (s->m > G_MAXINT || s->n > G_MAXINT || s->k > G_MAXINT)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, _("Dimensions beyond 2³¹ − 1"));
      return FALSE;
    }
  return TRUE;
}

/* The harness's arguments for one kernel: the job's inputs and C, its
 * warm-ups, repeats and instruments, progress and cancellation through p. */
static void
gemm_args_init (TlGpuGemmArgs *args, JobState *s, const TlKernelInfo *info, TlMatrix *c,
                GpuProgress *p)
{
  const TlJob *job = s->job;
  memset (args, 0, sizeof *args);
  args->dtype = (TlGpuDtype) s->a->dtype;
  args->m = (int) s->m;
  args->n = (int) s->n;
  args->k = (int) s->k;
  args->a = s->a->data;
  args->b = s->b->data;
  args->c = c->data;
  args->warmups = (int) MAX (job->warmups, 2);
  args->repeats = (int) MAX (job->repeats, 1);
  args->flush_l2 = job->flush_l2;
  args->instrument = job->instrument && info->records_blocks;
  args->instrument_repeats = 3;
  args->progress = gpu_progress_cb;
  args->cancelled = gpu_cancelled_cb;
  args->user_data = p;
  args->counters = job->counters ? TL_GPU_GEMM_COUNT : 0;
  /* a pinned plan goes to the planned rungs only; the others have one shape */
  args->plan = tl_gpu_gemm_plan_count (info->id) > 0 ? job->plan : NULL;
}

/* What the harness measured, into run: times, launch facts, the
 * instrumented run, the plan, block records (tiled by the plan or the
 * user kernel's geometry when there is one), counters. */
static void
take_gpu_result (JobState *s, const TlKernelInfo *info, TlKernelRun *run,
                 const TlGpuGemmArgs *args, const TlGpuGemmResult *result,
                 const TlUserGeometry *user_geometry)
{
  tl_kernel_run_set_samples (run, result->times_ms, (guint) MAX (result->n_times, 0));
  run->upload_ms = result->upload_ms;
  run->download_ms = result->download_ms;
  fill_throughput (s, run);
  TlGpuFacts facts;
  take_launch_facts (run, &result->launch,
                     tl_gpu_session_get_facts (s->gpu, s->job->device, &facts) ? &facts : NULL);
  if (args->instrument && result->instrumented_median_ms > 0)
    {
      run->instrumented_median_ms = result->instrumented_median_ms;
      run->instrument_overhead_pct =
        100.0 * (result->instrumented_median_ms - run->time.median) / run->time.median;
    }
  run->has_plan = result->plan.name[0] != '\0';
  run->plan = result->plan;
  take_block_records (run, info, result);
  if (run->has_plan && run->n_blocks > 0)
    {
      run->block_tile_m = (guint) result->plan.tile_m;
      run->block_tile_n = (guint) result->plan.tile_n;
    }
  if (s->job->counters)
    run->counters = tl_counters_new_from_gpu (&result->counters);
  if (user_geometry != NULL)
    {
      run->block_tile_m = user_geometry->tile_m;
      run->block_tile_n = user_geometry->tile_n;
    }
}

static gboolean
run_gpu (JobState *s, const TlKernelInfo *info, TlKernelRun *run, TlMatrix *c, GError **error)
{
  const TlJob *job = s->job;
  TlGpuDevice *device = tl_gpu_session_get_device (s->gpu, s->job->device, error);
  if (device == NULL)
    return FALSE;
  gboolean skipped;
  if (!gpu_can_run (s, info, run, &skipped, error))
    return FALSE;
  if (skipped)
    return TRUE;

  GpuProgress progress = { s, info->id, 1 + MAX (job->warmups, 2) + job->repeats
                                          + (job->instrument ? 1 : 0) + (job->counters ? 1 : 0)
                                          + 2 };
  TlGpuGemmArgs args;
  gemm_args_init (&args, s, info, c, &progress);

  poison (c);
  TlGpuGemmResult result;
  memset (&result, 0, sizeof result);
  /* a user kernel: compiled, and run in its worker process */
  TlUserKernel *user = tl_user_kernel_of (info);
  TlUserGeometry geometry;
  if (user != NULL
      && !tl_user_run_gemm (user, s->gpu, job->device, &args, job->watchdog_s, &geometry, &result,
                            error))
    return FALSE;
  TlGpuStatus status = user ? TL_GPU_OK : tl_gpu_gemm_run (device, info->id, &args, &result);
  if (status != TL_GPU_OK)
    {
      tl_gpu_gemm_result_clear (&result);
      return tl_gpu_error_set (error, status, info->id);
    }

  take_gpu_result (s, info, run, &args, &result, user ? &geometry : NULL);
  if (user != NULL)
    tl_user_worker_result_clear (&result);
  else
    tl_gpu_gemm_result_clear (&result);

  report (s, info->id, _("verifying"), 1.0);
  verify (s, run, c);
  return TRUE;
}

/* ---- comparisons within the job --------------------------------------- */

static void
fill_comparisons (TlRunRecord *record, TlKernelRun *run)
{
  if (run->status != TL_RUN_OK || run->time.count == 0)
    return;
  const TlKernelInfo *yardstick = run->info ? tl_kernel_reference (run->info, record->job->dtype)
                                            : NULL;
  g_free (run->reference_id);
  run->reference_id = yardstick ? g_strdup (yardstick->id) : NULL;
  TlKernelRun *ref = yardstick ? tl_run_record_find_run (record, yardstick->id) : NULL;
  if (ref && ref->status == TL_RUN_OK && ref->time.count > 0)
    run->percent_of_reference = tl_stats_percent_of (ref->time.median, run->time.median);
  const TlKernelInfo *baseline = tl_kernel_baseline ();
  TlKernelRun *base = baseline ? tl_run_record_find_run (record, baseline->id) : NULL;
  if (base && base->status == TL_RUN_OK && base->time.count > 0)
    run->speedup_vs_naive = tl_stats_speedup (base->time.median, run->time.median);
}

/* References and the baseline run first, so every other kernel knows its
 * % and speed-up when it finishes. */
static int
run_rank (const TlKernelInfo *row, TlDtype dtype, GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    if (tl_kernel_reference (rows->pdata[i], dtype) == row)
      return 0;
  return row->baseline ? 1 : 2;
}

static gboolean
any_gpu_row (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    if (((const TlKernelInfo *) rows->pdata[i])->backend == TL_BACKEND_GPU)
      return TRUE;
  return FALSE;
}

/* Named by its id (not only through "all", "gpu" or "cpu")? */
static gboolean
asked_by_name (const TlJob *job, const TlKernelInfo *row)
{
  if (tl_user_kernel_of (row) != NULL)
    return TRUE; /* a user kernel is always asked for by its file or id */
  for (guint r = 0; job->kernels && job->kernels[r]; r++)
    {
      g_auto (GStrv) parts = g_strsplit (job->kernels[r], ",", -1);
      for (guint p = 0; parts[p]; p++)
        if (strcmp (g_strstrip (parts[p]), row->id) == 0)
          return TRUE;
    }
  return FALSE;
}

static gboolean
setup_inputs (JobState *s, TlRunRecord *record, GError **error)
{
  const TlJob *job = s->job;
  TlDtype dtype = job->dtype;

  /* A's shape fixes m and k; B's then has to agree. */
  s->a = make_input (&job->a, job->a_matrix, dtype, job->m, job->k, "A", error);
  if (s->a == NULL)
    return FALSE;
  s->m = s->a->rows;
  s->k = s->a->cols;
  s->b = make_input (&job->b, job->b_matrix, dtype, s->k, job->n, "B", error);
  if (s->b == NULL)
    return FALSE;
  if (s->b->rows != s->k)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("A is %zu×%zu but B is %zu×%zu: A's columns must equal B's rows"),
                   s->a->rows, s->a->cols, s->b->rows, s->b->cols);
      return FALSE;
    }
  s->n = s->b->cols;
  record->job->m = s->m;
  record->job->k = s->k;
  record->job->n = s->n;
  if (all_zero (s->a) || all_zero (s->b))
    record->note = g_strdup (_("An input is all zeros: the timings say little about real work"));
  return TRUE;
}

static void
job_state_clear (JobState *s)
{
  g_clear_pointer (&s->a, tl_matrix_unref);
  g_clear_pointer (&s->b, tl_matrix_unref);
  g_clear_pointer (&s->reference, tl_gemm_reference_free);
}

/* One kernel of the job into its run: ok, error or skipped.  FALSE only
 * when the job was cancelled (error set). */
static gboolean
run_kernel (JobState *s, const TlKernelInfo *info, TlKernelRun *run, GError **error)
{
  const TlJob *job = s->job;
  g_autoptr (GError) local = NULL;
  if (!tl_kernel_supports (info, job->dtype))
    g_set_error (&local, TL_ERROR, TL_ERROR_UNSUPPORTED, _("%s does not support %s"), info->id,
                 tl_dtype_name (job->dtype));
  else if (info->backend == TL_BACKEND_GPU && tl_gpu_lost ())
    tl_kernel_run_set_skipped (run, _("the GPU stopped working earlier in this session"));
  else
    {
      g_autoptr (TlMatrix) c = tl_matrix_new (job->dtype, s->m, s->n, &local);
      if (c != NULL)
        {
          gboolean ok = info->backend == TL_BACKEND_CPU ? run_cpu (s, info, run, c, &local)
                                                        : run_gpu (s, info, run, c, &local);
          if (ok && job->keep_matrices && run->status == TL_RUN_OK)
            run->c = tl_matrix_ref (c);
        }
    }
  if (local == NULL)
    return TRUE;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* "all" means everything that can take this job: a rung that can't (or
   * isn't built) is skipped, unless asked by name */
  if (g_error_matches (local, TL_ERROR, TL_ERROR_SHAPE) && !asked_by_name (job, info))
    tl_kernel_run_set_skipped (run, local->message);
  else
    tl_kernel_run_set_error (run, local);
  return TRUE;
}

/* The float64 reference and the inputs' statistics (kept in the record
 * with the matrices when the job asks). */
static gboolean
setup_reference (JobState *s, TlRunRecord *record, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (s->cancellable, error))
    return FALSE;
  report (s, NULL, _("computing the reference"), 0.5);
  s->reference = tl_gemm_reference_new_cancellable (s->a, s->b, 0, s->cancellable, error);
  if (s->reference == NULL)
    return FALSE;
  tl_matrix_stats (s->a, &record->a_stats);
  tl_matrix_stats (s->b, &record->b_stats);
  tl_matrix_stats (s->reference->c, &record->reference_stats);
  record->has_input_stats = TRUE;
  if (s->job->keep_matrices)
    {
      record->a = tl_matrix_ref (s->a);
      record->b = tl_matrix_ref (s->b);
      record->reference = tl_matrix_ref (s->reference->c);
    }
  return TRUE;
}

/* Whether A, B and C fit the memory of the job's GPU; if not, run says
 * so (the harness checks the free memory again when it allocates). */
static gboolean
gpu_memory_fits (JobState *s, TlKernelRun *run)
{
  /* the device is opened here if no kernel has used it yet (its facts come
   * with it); one that cannot be opened is left to the run to report */
  TlGpuFacts facts;
  if (s->gpu == NULL || tl_gpu_session_get_device (s->gpu, s->job->device, NULL) == NULL
      || !tl_gpu_session_get_facts (s->gpu, s->job->device, &facts) || facts.total_mem_bytes == 0)
    return TRUE;
  double need = ((double) s->m * s->k + (double) s->k * s->n + (double) s->m * s->n)
                * tl_dtype_size (s->job->dtype);
  if (need <= (double) facts.total_mem_bytes)
    return TRUE;
  g_autoptr (GError) error = g_error_new (
    TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
    _("%s at %zu×%zu×%zu needs %.1f GiB of GPU "
      "memory for A, B and C; GPU %d (%s) has %.1f GiB. Nothing was allocated: try a smaller "
      "problem or a CPU kernel."),
    run->kernel_id, s->m, s->k, s->n, need / 1073741824.0, facts.ordinal, facts.name,
    facts.total_mem_bytes / 1073741824.0);
  tl_kernel_run_set_error (run, error);
  return FALSE;
}

/* A cancelled job keeps the kernels that finished; the one that was
 * running and those after it become fresh runs marked cancelled (a
 * partly measured kernel keeps none of its numbers). */
static void
mark_unfinished (TlRunRecord *record, const gboolean *finished, const GError *cancelled)
{
  record->cancelled = TRUE;
  for (guint i = 0; i < record->runs->len; i++)
    {
      if (finished[i])
        continue;
      TlKernelRun *old = record->runs->pdata[i];
      TlKernelRun *run = tl_kernel_run_new (old->kernel_id, old->backend);
      run->precision = g_strdup (old->precision);
      tl_kernel_run_set_error (run, cancelled);
      tl_kernel_run_free (old);
      record->runs->pdata[i] = run;
    }
}

/* text after the record's note, if it has one */
static void
add_note (TlRunRecord *record, const char *text)
{
  char *joined = record->note ? g_strconcat (record->note, "; ", text, NULL) : g_strdup (text);
  g_free (record->note);
  record->note = joined;
}

/* The roofline's slanted roofs, measured on the job's device after its
 * kernels (docs/counters.md).  A failure leaves the record without them
 * and says so in its note. */
static void
measure_bandwidth (JobState *s, TlRunRecord *record)
{
  if (g_cancellable_is_cancelled (s->cancellable))
    return;
  report (s, NULL, _("measuring memory bandwidth"), 1.0);
  TlGpuDevice *device = tl_gpu_session_get_device (s->gpu, s->job->device, NULL);
  if (device == NULL)
    return;
  TlGpuStatus st = tl_gpu_measure_bandwidth (device, &record->bandwidth);
  record->has_bandwidth = st == TL_GPU_OK;
  if (st == TL_GPU_OK)
    return;
  g_autoptr (GError) why = NULL;
  tl_gpu_error_set (&why, st, _("measuring memory bandwidth"));
  add_note (record, why->message);
}

/* Every row the list can name; the GPU is opened only when one of them
 * runs there, and without one the list is read again without them (the
 * record's note says so).  *have_gpu: the job's GPU was opened. */
static GPtrArray *
resolve_rows (JobState *s, TlRunRecord *record, gboolean *have_gpu, GError **error)
{
  const TlJob *job = s->job;
  const char *const *kernels = (const char *const *) job->kernels;
  g_autofree char *note = NULL;
  GPtrArray *rows = tl_gemm_expand_kernels (kernels, job->dtype, TRUE, NULL, error);
  if (rows == NULL)
    return NULL;
  *have_gpu = any_gpu_row (rows) && tl_gpu_session_get_device (s->gpu, job->device, NULL) != NULL;
  if (!*have_gpu)
    {
      g_ptr_array_unref (rows);
      rows = tl_gemm_expand_kernels (kernels, job->dtype, FALSE, &note, error);
      if (rows == NULL)
        return NULL;
    }
  if (note)
    add_note (record, note);
  return rows;
}

/* One run per row, in the order asked; a GPU kernel whose problem cannot
 * fit the card is refused now, before the reference is computed or
 * anything allocated (finished[i] set).  Returns how many are left. */
static guint
add_runs (JobState *s, TlRunRecord *record, GPtrArray *rows, gboolean *finished)
{
  guint to_run = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      const TlKernelInfo *info = rows->pdata[i];
      TlKernelRun *run = tl_kernel_run_new (info->id, info->backend);
      run->precision = g_strdup (tl_kernel_precision (info, s->job->dtype));
      g_ptr_array_add (record->runs, run);
      finished[i] = info->backend == TL_BACKEND_GPU && !gpu_memory_fits (s, run);
      to_run += !finished[i];
    }
  return to_run;
}

/* The kernels not finished yet, references and baseline first
 * (run_rank); returns how many finished, *cancelled set when the job was
 * cancelled. */
static guint
run_kernels (JobState *s, TlRunRecord *record, GPtrArray *rows, gboolean *finished,
             GError **cancelled)
{
  const TlGemmCallbacks *callbacks = s->cb;
  guint done = 0;
  for (int rank = 0; rank <= 2 && *cancelled == NULL; rank++)
    for (guint i = 0; i < rows->len && *cancelled == NULL; i++)
      {
        if (run_rank (rows->pdata[i], s->job->dtype, rows) != rank || finished[i])
          continue;
        const TlKernelInfo *info = rows->pdata[i];
        TlKernelRun *run = record->runs->pdata[i];
        if (g_cancellable_set_error_if_cancelled (s->cancellable, cancelled))
          break;
        s->unit_start = 1.0 + done;
        report (s, info->id, _("starting"), 0.0);
        if (!run_kernel (s, info, run, cancelled))
          break;
        fill_comparisons (record, run);
        finished[i] = TRUE;
        done++;
        report (s, info->id, _("done"), 1.0);
        if (callbacks && callbacks->kernel_finished)
          callbacks->kernel_finished (run, callbacks->user_data);
      }
  return done;
}

static TlRunRecord *
gemm_run (JobState *s, GError **error)
{
  const TlJob *job = s->job;
  g_autoptr (TlRunRecord) record = tl_run_record_new (job);

  s->units_total = 1.0;
  s->unit_size = 0.5;
  report (s, NULL, _("creating inputs"), 0.0);
  if (!setup_inputs (s, record, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (s->cancellable, error))
    return NULL;

  gboolean have_gpu = FALSE;
  g_autoptr (GPtrArray) rows = resolve_rows (s, record, &have_gpu, error);
  if (rows == NULL)
    return NULL;
  s->units_total = 1.0 + rows->len;
  s->unit_start = 0.0;
  s->unit_size = 1.0;

  g_autofree gboolean *finished = g_new0 (gboolean, rows->len);
  if (add_runs (s, record, rows, finished) > 0 && !setup_reference (s, record, error))
    return NULL;

  g_autoptr (GError) cancelled = NULL;
  guint done = run_kernels (s, record, rows, finished, &cancelled);
  if (cancelled != NULL)
    {
      /* nothing finished: no record, only the cancellation */
      if (done == 0)
        {
          g_propagate_error (error, g_steal_pointer (&cancelled));
          return NULL;
        }
      mark_unfinished (record, finished, cancelled);
    }
  for (guint i = 0; i < record->runs->len; i++)
    fill_comparisons (record, record->runs->pdata[i]);
  if (job->counters && have_gpu)
    measure_bandwidth (s, record);
  /* the device the job named, which is the one its GPU kernels ran on */
  record->has_device = tl_gpu_session_get_facts (s->gpu, job->device, &record->device);
  tl_user_run_describe (record, record->has_device ? record->device.cc_major * 10
                                                       + record->device.cc_minor
                                                   : 0);
  return g_steal_pointer (&record);
}

TlRunRecord *
tl_gemm_run (const TlJob *job, TlGpuSession *gpu, const TlGemmCallbacks *callbacks,
             GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_strcmp0 (job->kind, "gemm") != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("Not a GEMM job: “%s”"),
                   job->kind ? job->kind : "");
      return NULL;
    }
  if (job->repeats < 1)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("At least one timed run is needed"));
      return NULL;
    }

  g_autoptr (TlGpuSession) own_gpu = NULL;
  if (gpu == NULL)
    gpu = tl_gpu_session_get_thread_default ();
  if (gpu == NULL)
    gpu = own_gpu = tl_gpu_session_new ();

  JobState s = { .job = job, .cb = callbacks, .cancellable = cancellable, .gpu = gpu };
  TlRunRecord *record = gemm_run (&s, error);
  job_state_clear (&s);
  return record;
}
