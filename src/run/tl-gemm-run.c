/* tl-gemm-run.c — one GEMM job: inputs, reference, every kernel, verified.
 *
 * Measuring like a benchmark (STYLE.md; each kernel: tl-gemm-measure.c): random inputs, warm-up runs,
 * repeats with the median, C poisoned with NaN before the run that is
 * verified, every result judged against a float64 reference computed once
 * per job, by the one rule of gemm/tl-gemm-check.h.  Cancellation is
 * polled before the reference, before every kernel, and inside them
 * (between CPU tiles and repeats; before every GPU launch).
 */
#include "run/tl-gemm-run.h"
#include "run/tl-gemm-measure.h"

#include "core/tl-error.h"
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "run/tl-user-run.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ---- the job ---------------------------------------------------------- */

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
  /* a float64 value beyond float32's range would become ±Inf: the run
   * would then judge a conversion, not a kernel */
  if (dtype == TL_DTYPE_FLOAT32 && !tl_matrix_fits_float32 (m, error))
    {
      g_prefix_error (error, "%s: ", source->kind == TL_SOURCE_FILE && source->path ? source->path
                                                                                     : name);
      return NULL;
    }
  return as_job_matrix (m, dtype, error);
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
  run->reference = yardstick;
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
setup_inputs (TlGemmJobState *s, TlRunRecord *record, GError **error)
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
job_state_clear (TlGemmJobState *s)
{
  g_clear_pointer (&s->a, tl_matrix_unref);
  g_clear_pointer (&s->b, tl_matrix_unref);
  g_clear_pointer (&s->reference, tl_gemm_reference_free);
}

/* One kernel of the job into its run: ok, error or skipped.  FALSE only
 * when the job was cancelled (error set). */
static gboolean
run_kernel (TlGemmJobState *s, const TlKernelInfo *info, TlKernelRun *run, GError **error)
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
          gboolean ok = tl_gemm_measure_kernel (s, info, run, c, &local);
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
setup_reference (TlGemmJobState *s, TlRunRecord *record, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (s->cancellable, error))
    return FALSE;
  tl_gemm_job_report (s, NULL, _("computing the reference"), 0.5);
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
gpu_memory_fits (TlGemmJobState *s, TlKernelRun *run)
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
measure_bandwidth (TlGemmJobState *s, TlRunRecord *record)
{
  if (g_cancellable_is_cancelled (s->cancellable))
    return;
  tl_gemm_job_report (s, NULL, _("measuring memory bandwidth"), 1.0);
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
resolve_rows (TlGemmJobState *s, TlRunRecord *record, gboolean *have_gpu, GError **error)
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
add_runs (TlGemmJobState *s, TlRunRecord *record, GPtrArray *rows, gboolean *finished)
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
run_kernels (TlGemmJobState *s, TlRunRecord *record, GPtrArray *rows, gboolean *finished,
             GError **cancelled)
{
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
        tl_gemm_job_report (s, info->id, _("starting"), 0.0);
        if (!run_kernel (s, info, run, cancelled))
          break;
        fill_comparisons (record, run);
        finished[i] = TRUE;
        done++;
        tl_gemm_job_report (s, info->id, _("done"), 1.0);
        if (s->kernel_finished)
          s->kernel_finished (run, s->user_data);
      }
  return done;
}

static TlRunRecord *
gemm_run (TlGemmJobState *s, GError **error)
{
  const TlJob *job = s->job;
  g_autoptr (TlRunRecord) record = tl_run_record_new (job);

  s->units_total = 1.0;
  s->unit_size = 0.5;
  tl_gemm_job_report (s, NULL, _("creating inputs"), 0.0);
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

  TlGemmJobState s = { .job = job, .cancellable = cancellable, .gpu = gpu };
  if (callbacks != NULL)
    {
      s.progress = callbacks->progress;
      s.kernel_finished = callbacks->kernel_finished;
      s.user_data = callbacks->user_data;
    }
  TlRunRecord *record = gemm_run (&s, error);
  job_state_clear (&s);
  return record;
}
