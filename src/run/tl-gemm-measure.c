/* tl-gemm-measure.c — one kernel of a GEMM job, measured like a
 * benchmark: warm-ups, timed runs with the median, C poisoned with NaN
 * before the run that is verified against the job's float64 reference,
 * then the instrumented run's block records, launch facts and counters.
 * CPU kernels are timed on the host clock, GPU ones by the harness on the
 * device (device events), a user kernel in its worker process.
 */
#include "run/tl-gemm-measure.h"

#include "gemm/tl-cpu-gemm.h"
#include "core/tl-error.h"
#include "run/tl-user-run.h"
#include "run/tl-user-worker.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <time.h>

void
tl_gemm_job_report (TlGemmJobState *s, const char *kernel_id, const char *stage, double within)
{
  if (s->progress == NULL)
    return;
  double f = (s->unit_start + s->unit_size * CLAMP (within, 0.0, 1.0)) / s->units_total;
  s->progress (kernel_id, stage, CLAMP (f, 0.0, 1.0), s->user_data);
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

static void
verify (TlGemmJobState *s, TlKernelRun *run, const TlMatrix *c)
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
fill_throughput (TlGemmJobState *s, TlKernelRun *run)
{
  run->gflops = tl_stats_gflops (tl_stats_gemm_flops (s->m, s->k, s->n), run->time.median);
  run->bytes = tl_stats_gemm_bytes (s->m, s->k, s->n, tl_dtype_size (s->a->dtype));
  run->gbytes_per_s = tl_stats_gbytes_per_s ((double) run->bytes, run->time.median);
}

/* ---- one CPU kernel ---------------------------------------------------- */

static gboolean
run_cpu (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run, TlMatrix *c, GError **error)
{
  const TlJob *job = s->job;
  const char *id = info->id;
  guint steps = job->warmups + job->repeats + (job->instrument ? 1 : 0) + 1;
  guint step = 0;
  run->threads = info->single_threaded ? 1 : (job->threads ? job->threads : g_get_num_processors ());

  for (guint w = 0; w < job->warmups; w++)
    {
      tl_gemm_job_report (s, id, _("warming up"), (double) step++ / steps);
      if (!tl_cpu_gemm (id, s->a, s->b, c, job->threads, NULL, s->cancellable, error))
        return FALSE;
    }

  g_autofree double *samples = g_new0 (double, MAX (job->repeats, 1));
  for (guint r = 0; r < job->repeats; r++)
    {
      g_autofree char *stage = g_strdup_printf (_("run %u of %u"), r + 1, job->repeats);
      tl_gemm_job_report (s, id, stage, (double) step++ / steps);
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

  tl_gemm_job_report (s, id, _("verifying"), (double) step++ / steps);
  verify (s, run, c);

  if (job->instrument && info->records_blocks)
    {
      tl_gemm_job_report (s, id, _("instrumented run"), (double) step++ / steps);
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
  TlGemmJobState *s;
  const char *id;
  guint steps;
} GpuProgress;

static void
gpu_progress_cb (TlGpuStage stage, int step, int total, void *user_data)
{
  GpuProgress *p = user_data;
  TlGemmJobState *s = p->s;
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
  tl_gemm_job_report (s, p->id, text ? text : "", at / p->steps);
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
  run->launch.const_bytes = l->const_bytes;
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
gpu_can_run (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run, gboolean *skipped,
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
gemm_args_init (TlGpuGemmArgs *args, TlGemmJobState *s, const TlKernelInfo *info, TlMatrix *c,
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
take_gpu_result (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run,
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
run_gpu (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run, TlMatrix *c, GError **error)
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

  tl_gemm_job_report (s, info->id, _("verifying"), 1.0);
  verify (s, run, c);
  return TRUE;
}

/* ---- either ------------------------------------------------------------ */

gboolean
tl_gemm_measure_kernel (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run,
                        TlMatrix *c, GError **error)
{
  return info->backend == TL_BACKEND_CPU ? run_cpu (s, info, run, c, error)
                                         : run_gpu (s, info, run, c, error);
}
