/* tl-gauss-run.c — LU, solve and GF(p) elimination as runner jobs. */
#include "run/tl-gauss-run.h"

#include "lu/tl-gfp-gpu.h"
#include "lu/tl-solve.h"

/* The snapshot a submitted job keeps. */
typedef struct
{
  TlGaussJob job;             /* pointing at what follows */
  TlMatrix *a, *b;            /* ref'd */
  TlGfpMatrix *exact;         /* copied */
  char *kernel_id, *gemm;     /* the options' strings, copied */
} GaussJobData;

static void
gauss_job_data_free (GaussJobData *d)
{
  g_clear_pointer (&d->a, tl_matrix_unref);
  g_clear_pointer (&d->b, tl_matrix_unref);
  g_clear_pointer (&d->exact, tl_gfp_matrix_free);
  g_free (d->kernel_id);
  g_free (d->gemm);
  g_free (d);
}

static GaussJobData *
gauss_job_data_new (const TlGaussJob *job)
{
  GaussJobData *d = g_new0 (GaussJobData, 1);
  d->a = job->a ? tl_matrix_ref ((TlMatrix *) job->a) : NULL;
  d->b = job->b ? tl_matrix_ref ((TlMatrix *) job->b) : NULL;
  d->exact = job->exact ? tl_gfp_matrix_copy (job->exact) : NULL;
  d->kernel_id = g_strdup (job->options.kernel_id);
  d->gemm = g_strdup (job->options.gemm);
  d->job = *job;
  d->job.a = d->a;
  d->job.b = d->b;
  d->job.exact = d->exact;
  d->job.options.kernel_id = d->kernel_id;
  d->job.options.gemm = d->gemm;
  return d;
}

void
tl_gauss_result_free (TlGaussResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->lu, tl_lu_result_free);
  g_clear_pointer (&result->x, tl_matrix_unref);
  g_clear_pointer (&result->exact, tl_gfp_lu_free);
  g_free (result);
}

static gpointer
gauss_job_func (TlRunnerJob *runner_job, gpointer job_data, GCancellable *cancellable,
                GError **error)
{
  TlGaussJob *job = &((GaussJobData *) job_data)->job;
  TlLuOptions options = job->options;
  options.gpu = tl_runner_job_get_gpu (runner_job);
  g_autoptr (TlGaussResult) result = g_new0 (TlGaussResult, 1);

  if (job->kind == TL_GAUSS_EXACT)
    {
      result->exact = job->exact_on_gpu
                        ? tl_gfp_lu_gpu (job->exact, options.gpu_ordinal, error)
                        : tl_gfp_lu (job->exact, job->recorder, cancellable, error);
      return result->exact ? g_steal_pointer (&result) : NULL;
    }

  if (!tl_lu_factor_full (&options, job->a, job->recorder, cancellable, &result->lu, error))
    return NULL;
  if (job->kind == TL_GAUSS_SOLVE)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      result->x = tl_lu_solve (result->lu, job->b, error);
      if (result->x == NULL)
        return NULL;
    }
  return g_steal_pointer (&result);
}

static gboolean
job_is_complete (const TlGaussJob *job)
{
  switch (job->kind)
    {
    case TL_GAUSS_FACTOR:
      return job->a != NULL;
    case TL_GAUSS_SOLVE:
      return job->a != NULL && job->b != NULL;
    case TL_GAUSS_EXACT:
      return job->exact != NULL;
    }
  return FALSE;
}

guint
tl_runner_run_gauss_async (TlRunner *self, const TlGaussJob *job, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_val_if_fail (job != NULL && job_is_complete (job), 0);
  return tl_runner_run_func_async (self, gauss_job_func, gauss_job_data_new (job),
                                   (GDestroyNotify) gauss_job_data_free,
                                   (GDestroyNotify) tl_gauss_result_free, cancellable, callback,
                                   user_data);
}

TlGaussResult *
tl_runner_run_gauss_finish (TlRunner *self, GAsyncResult *result, GError **error)
{
  return tl_runner_run_func_finish (self, result, error);
}

