/* test-runner.c — the worker: async jobs on a main loop, progress in
 * order on the caller's context, per-kernel news, cancellation, and GPU
 * kernels without a GPU. */
#include "core/tl-error.h"
#include "gemm/tl-gemm-check.h"
#include "run/tl-gemm-run.h"
#include "run/tl-runner.h"

#include <math.h>
#include <string.h>

static GThread *main_thread;

typedef struct
{
  GMainLoop *loop;
  guint job_id;
  GPtrArray *stages;       /* "kernel: stage" */
  GPtrArray *finished;     /* kernel ids, in order */
  double last_fraction;
  gboolean out_of_order;
  gboolean wrong_thread;
  gboolean news_after_result;
  gboolean done;
  TlRunRecord *record;
  GError *error;
  /* cancel when this stage is seen, or when this kernel finished */
  const char *cancel_at;
  const char *cancel_after;
  GCancellable *cancellable;
  gint64 cancelled_at_us;
} Watch;

static void
progress_cb (TlRunner *runner, const TlRunProgress *p, gpointer user_data)
{
  Watch *w = user_data;
  if (p->job_id != w->job_id)
    return;
  if (g_thread_self () != main_thread)
    w->wrong_thread = TRUE;
  if (w->done)
    w->news_after_result = TRUE;
  if (p->fraction + 1e-12 < w->last_fraction || p->fraction < 0 || p->fraction > 1)
    w->out_of_order = TRUE;
  w->last_fraction = p->fraction;
  g_ptr_array_add (w->stages, g_strdup_printf ("%s: %s", p->kernel_id ? p->kernel_id : "job",
                                               p->stage));
  if (w->cancel_at && w->cancelled_at_us == 0 && strstr (p->stage, w->cancel_at))
    {
      w->cancelled_at_us = g_get_monotonic_time ();
      g_cancellable_cancel (w->cancellable);
    }
}

static void
kernel_finished_cb (TlRunner *runner, guint job_id, const TlKernelRun *run, gpointer user_data)
{
  Watch *w = user_data;
  if (job_id != w->job_id)
    return;
  if (g_thread_self () != main_thread)
    w->wrong_thread = TRUE;
  if (w->done)
    w->news_after_result = TRUE;
  g_assert_nonnull (run);
  g_ptr_array_add (w->finished, g_strdup (run->kernel_id));
  if (g_strcmp0 (run->kernel_id, w->cancel_after) == 0)
    {
      w->cancelled_at_us = g_get_monotonic_time ();
      g_cancellable_cancel (w->cancellable);
    }
}

static void
done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Watch *w = user_data;
  g_assert_true (g_thread_self () == main_thread);
  w->record = tl_runner_run_gemm_finish (TL_RUNNER (source), result, &w->error);
  w->done = TRUE;
  g_main_loop_quit (w->loop);
}

static void
watch_init (Watch *w, TlRunner *runner)
{
  memset (w, 0, sizeof *w);
  w->loop = g_main_loop_new (NULL, FALSE);
  w->stages = g_ptr_array_new_with_free_func (g_free);
  w->finished = g_ptr_array_new_with_free_func (g_free);
  w->cancellable = g_cancellable_new ();
  g_signal_connect (runner, "progress", G_CALLBACK (progress_cb), w);
  g_signal_connect (runner, "kernel-finished", G_CALLBACK (kernel_finished_cb), w);
}

static void
watch_clear (Watch *w, TlRunner *runner)
{
  g_signal_handlers_disconnect_by_data (runner, w);
  g_main_loop_unref (w->loop);
  g_ptr_array_unref (w->stages);
  g_ptr_array_unref (w->finished);
  g_object_unref (w->cancellable);
  g_clear_pointer (&w->record, tl_run_record_unref);
  g_clear_error (&w->error);
}

static gboolean
stage_seen (Watch *w, const char *text)
{
  for (guint i = 0; i < w->stages->len; i++)
    if (strcmp (w->stages->pdata[i], text) == 0)
      return TRUE;
  return FALSE;
}

static guint
stage_index (Watch *w, const char *text)
{
  for (guint i = 0; i < w->stages->len; i++)
    if (strcmp (w->stages->pdata[i], text) == 0)
      return i;
  g_error ("stage “%s” never reported", text);
}

static gboolean
have_gpu (void)
{
  int count = 0;
  return tl_gpu_device_count (&count) == TL_GPU_OK && count > 0;
}

static void
test_async_cpu_job (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Watch w;
  watch_init (&w, runner);

  g_autoptr (TlJob) job = tl_job_new_gemm (67, 45, 81, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("cpu-blocked,cpu-naive,cpu-openblas", ",", -1);
  job->repeats = 3;
  job->warmups = 1;
  job->instrument = TRUE;
  job->keep_matrices = TRUE;
  w.job_id = tl_runner_run_gemm_async (runner, job, NULL, done_cb, &w);
  g_assert_cmpuint (w.job_id, >, 0);
  /* the job is a snapshot: changing ours now changes nothing */
  job->m = 3;
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("nonsense", ",", -1);

  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.record);
  g_assert_false (w.wrong_thread);
  g_assert_false (w.out_of_order);
  g_assert_false (w.news_after_result);

  /* stages in order */
  g_assert_cmpstr (w.stages->pdata[0], ==, "job: creating inputs");
  guint ref = stage_index (&w, "job: computing the reference");
  guint warm = stage_index (&w, "cpu-blocked: warming up");
  guint run1 = stage_index (&w, "cpu-blocked: run 1 of 3");
  guint run3 = stage_index (&w, "cpu-blocked: run 3 of 3");
  guint verify = stage_index (&w, "cpu-blocked: verifying");
  guint instr = stage_index (&w, "cpu-blocked: instrumented run");
  g_assert_cmpuint (ref, <, warm);
  g_assert_cmpuint (warm, <, run1);
  g_assert_cmpuint (run1, <, run3);
  g_assert_cmpuint (run3, <, verify);
  g_assert_cmpuint (verify, <, instr);
  g_assert_true (stage_seen (&w, "cpu-naive: run 2 of 3"));
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);

  /* every kernel announced itself once; the reference and the baseline first */
  g_assert_cmpuint (w.finished->len, ==, 3);
  g_assert_cmpstr (w.finished->pdata[0], ==, "cpu-openblas");
  g_assert_cmpstr (w.finished->pdata[1], ==, "cpu-naive");
  g_assert_cmpstr (w.finished->pdata[2], ==, "cpu-blocked");

  /* the record: in the order asked, verified, compared */
  TlRunRecord *r = w.record;
  g_assert_cmpuint (r->job->m, ==, 67);
  g_assert_cmpuint (r->runs->len, ==, 3);
  const char *order[] = { "cpu-blocked", "cpu-naive", "cpu-openblas" };
  for (guint i = 0; i < 3; i++)
    {
      TlKernelRun *run = r->runs->pdata[i];
      g_assert_cmpstr (run->kernel_id, ==, order[i]);
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->verified);
      g_assert_true (run->passed);
      g_assert_cmpuint (run->time.count, ==, 3);
      g_assert_cmpuint (run->n_samples, ==, 3);
      g_assert_cmpfloat (run->time.min, <=, run->time.median);
      g_assert_cmpfloat (run->time.median, <=, run->time.max);
      g_assert_cmpfloat (run->time.min, >, 0.0);
      g_assert_true (isfinite (run->gflops));
      g_assert_cmpfloat (run->rel_norm, <, 1e-5);
      g_assert_cmpstr (run->reference_id, ==, "cpu-openblas");
      g_assert_true (isfinite (run->percent_of_reference));
      g_assert_true (isfinite (run->speedup_vs_naive));
      g_assert_true (run->has_c_stats);
      g_assert_cmpuint (run->c_stats.n_nan, ==, 0);
      g_assert_nonnull (run->c);
    }
  TlKernelRun *naive = r->runs->pdata[1];
  g_assert_cmpfloat (naive->speedup_vs_naive, ==, 1.0);
  TlKernelRun *blas = r->runs->pdata[2];
  g_assert_cmpfloat (blas->percent_of_reference, ==, 100.0);

  /* the blocked kernel recorded its tiles: every tile of C once */
  TlKernelRun *blocked = r->runs->pdata[0];
  g_assert_cmpuint (blocked->n_blocks, >, 0);
  g_assert_cmpstr (blocked->block_unit, ==, "thread");
  g_assert_true (isfinite (blocked->instrumented_median_ms));
  guint64 earliest = G_MAXUINT64;
  for (gsize i = 0; i < blocked->n_blocks; i++)
    {
      earliest = MIN (earliest, blocked->blocks[i].start_ns);
      g_assert_cmpuint (blocked->blocks[i].end_ns, >=, blocked->blocks[i].start_ns);
    }
  g_assert_cmpuint (earliest, ==, 0);
  if (blocked->block_tile_m > 0)
    {
      gsize tiles = ((67 + blocked->block_tile_m - 1) / blocked->block_tile_m)
                    * ((81 + blocked->block_tile_n - 1) / blocked->block_tile_n);
      g_assert_cmpuint (blocked->n_blocks, ==, tiles);
    }

  /* inputs kept and the reference right */
  g_assert_nonnull (r->a);
  g_assert_nonnull (r->reference);
  g_assert_true (r->has_input_stats);
  g_assert_cmpuint (r->a_stats.n_finite, ==, 67 * 45);
  g_assert_cmpfloat (r->a_stats.min, >=, -1.0);
  g_assert_cmpfloat (r->a_stats.max, <=, 1.0);
  g_assert_cmpfloat (r->a_stats.max - r->a_stats.min, >, 1.0); /* random, not zeros */

  /* the record survives JSON */
  g_autofree char *text = tl_run_record_to_string (r, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->runs->len, ==, 3);
  watch_clear (&w, runner);
}

/* An n³ float32 job of `kernels` (comma-separated), ten timed runs. */
static TlJob *
ten_run_job (gsize n, const char *kernels, guint warmups)
{
  TlJob *job = tl_job_new_gemm (n, n, n, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit (kernels, ",", -1);
  job->repeats = 10;
  job->warmups = warmups;
  return job;
}

static void
test_cancel (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Watch w;
  watch_init (&w, runner);

  /* cpu-naive at 1500³: seconds per run, ten runs — far longer than we wait */
  g_autoptr (TlJob) job = ten_run_job (1500, "cpu-naive", 2);
  w.cancel_at = "warming up";
  w.job_id = tl_runner_run_gemm_async (runner, job, w.cancellable, done_cb, &w);
  g_main_loop_run (w.loop);

  g_assert_null (w.record);
  g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (w.cancelled_at_us, >, 0);
  gint64 waited_ms = (g_get_monotonic_time () - w.cancelled_at_us) / 1000;
  g_test_message ("cancelled after %" G_GINT64_FORMAT " ms", waited_ms);
  /* prompt: well under one naive run, not after the ten */
  g_assert_cmpint (waited_ms, <, 3000);
  g_assert_cmpuint (w.finished->len, ==, 0);
  watch_clear (&w, runner);

  /* cancelled before it starts: no work at all */
  Watch w2;
  watch_init (&w2, runner);
  g_cancellable_cancel (w2.cancellable);
  w2.job_id = tl_runner_run_gemm_async (runner, job, w2.cancellable, done_cb, &w2);
  g_main_loop_run (w2.loop);
  g_assert_error (w2.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (w2.stages->len, ==, 0);
  watch_clear (&w2, runner);
}

static void
test_cancel_partial (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Watch w;
  watch_init (&w, runner);

  /* cpu-openblas (the reference) runs first and finishes; the cancel
   * comes with its news, while cpu-naive (1000³, ten runs: many seconds)
   * runs */
  g_autoptr (TlJob) job = ten_run_job (1000, "cpu-naive,cpu-openblas", 1);
  w.cancel_after = "cpu-openblas";
  w.job_id = tl_runner_run_gemm_async (runner, job, w.cancellable, done_cb, &w);
  g_main_loop_run (w.loop);

  /* the record keeps what finished and says the job was cancelled */
  g_assert_no_error (w.error);
  g_assert_nonnull (w.record);
  g_assert_true (w.record->cancelled);
  gint64 waited_ms = (g_get_monotonic_time () - w.cancelled_at_us) / 1000;
  g_test_message ("cancel to result: %" G_GINT64_FORMAT " ms", waited_ms);
  g_assert_cmpint (waited_ms, <, 3000);
  g_assert_cmpuint (w.finished->len, ==, 1);
  const TlKernelRun *blas = tl_run_record_find_run (w.record, "cpu-openblas");
  const TlKernelRun *naive = tl_run_record_find_run (w.record, "cpu-naive");
  g_assert_cmpint (blas->status, ==, TL_RUN_OK);
  g_assert_true (blas->verified && blas->passed);
  g_assert_cmpuint (blas->time.count, ==, 10);
  /* the kernel that was running keeps none of its numbers */
  g_assert_cmpint (naive->status, ==, TL_RUN_CANCELLED);
  g_assert_cmpuint (naive->time.count, ==, 0);
  g_assert_false (naive->verified);
  g_assert_nonnull (naive->message);

  /* and the flag survives the file */
  g_autofree char *text = tl_run_record_to_string (w.record, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (back->cancelled);
  g_assert_cmpint (tl_run_record_find_run (back, "cpu-naive")->status, ==, TL_RUN_CANCELLED);
  watch_clear (&w, runner);
}

static void
test_gpu_without_device (void)
{
  gboolean gpu = have_gpu ();
  /* device 97 does not exist even on a GPU machine */
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Watch w;
  watch_init (&w, runner);

  g_autoptr (TlJob) job = tl_job_new_gemm (40, 30, 20, TL_DTYPE_FLOAT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("gemm-03-smem16,cpu-blocked,cublas-fp32", ",", -1);
  job->device = gpu ? 97 : 0;
  job->repeats = 2;
  w.job_id = tl_runner_run_gemm_async (runner, job, NULL, done_cb, &w);
  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  g_assert_nonnull (w.record);
  g_assert_cmpuint (w.record->runs->len, ==, 3);
  g_assert_cmpuint (w.finished->len, ==, 3);

  TlKernelRun *smem = w.record->runs->pdata[0];
  TlKernelRun *cpu = w.record->runs->pdata[1];
  TlKernelRun *cublas = w.record->runs->pdata[2];
  g_assert_cmpint (cpu->status, ==, TL_RUN_OK);
  g_assert_true (cpu->passed);
  g_assert_cmpint (smem->status, ==, TL_RUN_ERROR);
  g_assert_cmpint (cublas->status, ==, TL_RUN_ERROR);
  g_assert_nonnull (smem->message);
  if (!gpu)
    {
      g_assert_cmpint (smem->error_code, ==, TL_ERROR_NO_DEVICE);
      g_assert_cmpint (cublas->error_code, ==, TL_ERROR_NO_DEVICE);
    }
  g_assert_false (w.record->has_device);
  watch_clear (&w, runner);

  /* "all" without a GPU: the CPU kernels and a note */
  if (!gpu)
    {
      g_autoptr (GError) error = NULL;
      g_strfreev (job->kernels);
      job->kernels = g_strsplit ("all", ",", -1);
      g_autoptr (TlRunRecord) r = tl_runner_run_gemm (runner, job, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (r->note);
      g_assert_cmpuint (r->runs->len, ==, 3);
      for (guint i = 0; i < r->runs->len; i++)
        g_assert_cmpint (((TlKernelRun *) r->runs->pdata[i])->backend, ==, TL_BACKEND_CPU);
    }
}

static void
test_sync_and_order (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  g_autoptr (GError) error = NULL;

  /* int32: exact, wraps like the kernels */
  g_autoptr (TlJob) job = tl_job_new_gemm (33, 31, 65, TL_DTYPE_INT32);
  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("cpu", ",", -1);
  job->repeats = 1;
  job->warmups = 0;
  g_autoptr (TlRunRecord) r = tl_runner_run_gemm (runner, job, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->runs->len, ==, 2); /* OpenBLAS has no int32 */
  for (guint i = 0; i < r->runs->len; i++)
    {
      TlKernelRun *run = r->runs->pdata[i];
      g_assert_cmpstr (run->precision, ==, "exact");
      g_assert_true (run->passed);
      g_assert_cmpfloat (run->max_abs, ==, 0.0);
      g_assert_cmpfloat (run->tolerance, ==, 0.0);
    }

  /* int32 products beyond 2³¹ wrap the same way in kernel and reference */
  g_autoptr (TlJob) big = tl_job_new_gemm (9, 40, 7, TL_DTYPE_INT32);
  g_free (big->a.generator);
  g_free (big->b.generator);
  big->a.generator = g_strdup ("random-int:lo=-50000,hi=50000");
  big->b.generator = g_strdup ("random-int:lo=-50000,hi=50000");
  g_strfreev (big->kernels);
  big->kernels = g_strsplit ("cpu-naive,cpu-blocked", ",", -1);
  big->repeats = 1;
  g_autoptr (TlRunRecord) rb = tl_runner_run_gemm (runner, big, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (((TlKernelRun *) rb->runs->pdata[0])->passed);
  g_assert_true (((TlKernelRun *) rb->runs->pdata[1])->passed);

  /* float64: tight */
  g_autoptr (TlJob) f64 = tl_job_new_gemm (17, 130, 9, TL_DTYPE_FLOAT64);
  g_strfreev (f64->kernels);
  f64->kernels = g_strsplit ("cpu-naive,cpu-openblas", ",", -1);
  f64->repeats = 2;
  g_autoptr (TlRunRecord) rf = tl_runner_run_gemm (runner, f64, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < rf->runs->len; i++)
    {
      TlKernelRun *run = rf->runs->pdata[i];
      g_assert_cmpstr (run->precision, ==, "fp64");
      g_assert_cmpfloat (run->rel_norm, <, 1e-13);
      g_assert_true (run->passed);
    }

  /* job-wide errors: an unknown kernel, a dtype a kernel lacks */
  g_strfreev (f64->kernels);
  f64->kernels = g_strsplit ("cpu-naive,warp-magic", ",", -1);
  g_autoptr (TlRunRecord) none = tl_runner_run_gemm (runner, f64, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "warp-magic"));
  g_clear_error (&error);

  g_strfreev (job->kernels);
  job->kernels = g_strsplit ("cpu-openblas", ",", -1);
  g_autoptr (TlRunRecord) unsupported = tl_runner_run_gemm (runner, job, NULL, &error);
  g_assert_no_error (error);
  TlKernelRun *u = unsupported->runs->pdata[0];
  g_assert_cmpint (u->status, ==, TL_RUN_ERROR);
  g_assert_cmpint (u->error_code, ==, TL_ERROR_UNSUPPORTED);

  /* a file that is not there */
  g_autoptr (TlJob) files = tl_job_new_gemm (0, 0, 0, TL_DTYPE_FLOAT32);
  tl_source_clear (&files->a);
  files->a.kind = TL_SOURCE_FILE;
  files->a.path = g_strdup ("/nonexistent/a.mtx");
  g_autoptr (TlRunRecord) nofile = tl_runner_run_gemm (runner, files, NULL, &error);
  g_assert_null (nofile);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* matrices handed over in memory, with mismatched inner sizes */
  g_autoptr (TlJob) mem = tl_job_new_gemm (0, 0, 0, TL_DTYPE_FLOAT32);
  mem->a.kind = mem->b.kind = TL_SOURCE_MATRIX;
  mem->a_matrix = tl_matrix_new (TL_DTYPE_FLOAT32, 4, 5, NULL);
  mem->b_matrix = tl_matrix_new (TL_DTYPE_FLOAT32, 6, 3, NULL);
  tl_matrix_fill (mem->a_matrix, 1.5);
  tl_matrix_fill (mem->b_matrix, 2.0);
  g_autoptr (TlRunRecord) bad_shape = tl_runner_run_gemm (runner, mem, NULL, &error);
  g_assert_null (bad_shape);
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
  g_clear_error (&error);
}

typedef struct
{
  GMainLoop *loop;
  GArray *order;
  guint pending;
} Many;

static void
many_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Many *m = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) r = tl_runner_run_gemm_finish (TL_RUNNER (source), result, &error);
  g_assert_no_error (error);
  guint n = r->job->m;
  g_array_append_val (m->order, n);
  if (--m->pending == 0)
    g_main_loop_quit (m->loop);
}

static void
test_jobs_in_order (void)
{
  g_autoptr (TlRunner) runner = tl_runner_new_full (TL_RUNNER_FLAGS_NONE);
  Many m = { g_main_loop_new (NULL, FALSE), g_array_new (FALSE, FALSE, sizeof (guint)), 4 };
  guint ids[4];
  for (guint i = 0; i < 4; i++)
    {
      /* a slow one first: the quick ones still wait their turn */
      g_autoptr (TlJob) job = tl_job_new_gemm (i == 0 ? 200 : 10 + i, 50, 30, TL_DTYPE_FLOAT32);
      g_strfreev (job->kernels);
      job->kernels = g_strsplit (i == 0 ? "cpu-naive" : "cpu-blocked", ",", -1);
      job->repeats = 2;
      ids[i] = tl_runner_run_gemm_async (runner, job, NULL, many_done_cb, &m);
    }
  g_main_loop_run (m.loop);
  g_assert_cmpuint (m.order->len, ==, 4);
  g_assert_cmpuint (g_array_index (m.order, guint, 0), ==, 200);
  for (guint i = 1; i < 4; i++)
    {
      g_assert_cmpuint (g_array_index (m.order, guint, i), ==, 10 + i);
      g_assert_cmpuint (ids[i], >, ids[i - 1]);
    }
  g_array_unref (m.order);
  g_main_loop_unref (m.loop);
}

static void
test_tables (void)
{
  /* the verification's bounds are gemm/tl-gemm-check's (test-gemm-check) */
  g_assert_cmpfloat (tl_gemm_check_tolerance ("exact", 100), ==, 0.0);
  g_assert_cmpfloat (tl_gemm_check_tolerance ("fp32", 8192), >, tl_gemm_check_tolerance ("fp32", 64));
  g_assert_cmpfloat (tl_gemm_check_tolerance ("fp64", 8192), <, 1e-11);

  g_autoptr (GError) error = NULL;
  char *note = NULL;
  const char *all[] = { "all", NULL };
  g_autoptr (GPtrArray) cpu_only = tl_gemm_expand_kernels (all, TL_DTYPE_FLOAT32, FALSE, &note,
                                                            &error);
  g_assert_no_error (error);
  g_assert_nonnull (note);
  g_free (note);
  g_assert_cmpuint (cpu_only->len, ==, 3);
  g_autoptr (GPtrArray) with_gpu = tl_gemm_expand_kernels (all, TL_DTYPE_FLOAT32, TRUE, &note,
                                                            &error);
  g_assert_no_error (error);
  g_assert_null (note);
  g_assert_cmpuint (with_gpu->len, >, cpu_only->len);
  const char *dup[] = { "cpu-naive,cpu", "cpu-naive", NULL };
  g_autoptr (GPtrArray) dedup = tl_gemm_expand_kernels (dup, TL_DTYPE_INT32, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dedup->len, ==, 2);
  const char *empty[] = { " , ", NULL };
  g_assert_null (tl_gemm_expand_kernels (empty, TL_DTYPE_FLOAT32, FALSE, NULL, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  main_thread = g_thread_self ();
  g_test_add_func ("/runner/async-cpu-job", test_async_cpu_job);
  g_test_add_func ("/runner/cancel", test_cancel);
  g_test_add_func ("/runner/cancel-partial", test_cancel_partial);
  g_test_add_func ("/runner/gpu-without-device", test_gpu_without_device);
  g_test_add_func ("/runner/sync-and-errors", test_sync_and_order);
  g_test_add_func ("/runner/jobs-in-order", test_jobs_in_order);
  g_test_add_func ("/runner/tables", test_tables);
  return g_test_run ();
}
