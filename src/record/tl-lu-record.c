/* tl-lu-record.c — LU factorisations in run records. */
#include "record/tl-lu-record.h"
#include "core/tl-error.h"
#include "tl-gpu.h"
#include "record/tl-gauss-record.h"

#include <glib/gi18n-lib.h>
#include <math.h>

TlRunRecord *
tl_lu_run_record_new (const TlLuResult *result, const TlMatrix *a, const TlSource *source,
                      const TlLuRecorder *rec, GError **error)
{
  g_return_val_if_fail (result != NULL && a != NULL, NULL);
  if (a->rows == 0 || a->cols == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("A run record needs a matrix with at least one row and column"));
      return NULL;
    }
  g_autoptr (TlJob) job = tl_job_new_gemm (a->rows, a->cols, a->cols, a->dtype);
  g_free (job->kind);
  job->kind = g_strdup ("lu");
  tl_source_clear (&job->a);
  if (source)
    tl_source_copy_into (source, &job->a);
  else
    job->a.kind = TL_SOURCE_MATRIX;
  tl_source_clear (&job->b);
  job->b.kind = TL_SOURCE_MATRIX;
  job->b.label = g_strdup ("none");
  g_strfreev (job->kernels);
  job->kernels = g_new0 (char *, 2);
  job->kernels[0] = g_strdup (result->kernel_id);
  job->repeats = 1;
  job->warmups = 0;

  TlRunRecord *record = tl_run_record_new (job);
  const TlLuKernelInfo *info = tl_lu_kernel_find (result->kernel_id);
  if (info && info->backend == TL_BACKEND_GPU)
    record->has_device = tl_gpu_device_facts (result->gpu_ordinal, &record->device) == TL_GPU_OK;
  TlKernelRun *run = tl_kernel_run_new (result->kernel_id, info ? info->backend : TL_BACKEND_CPU);
  run->precision = g_strdup (a->dtype == TL_DTYPE_FLOAT32 ? "fp32" : "fp64");
  double ms = result->elapsed_s * 1e3;
  tl_kernel_run_set_samples (run, &ms, 1);
  double m = (double) a->rows, n = (double) a->cols;
  double flops = m >= n ? m * n * n - n * n * n / 3.0 : n * m * m - m * m * m / 3.0;
  if (ms > 0)
    run->gflops = flops / (ms * 1e-3) / 1e9;
  g_ptr_array_add (record->runs, run);

  record->extensions = json_object_new ();
  if (rec)
    {
      JsonNode *node = tl_lu_recorder_to_json (rec);
      json_object_set_member (record->extensions, "lu", node);
    }
  JsonObject *summary = json_object_new ();
  json_object_set_int_member (summary, "info", (gint64) result->info);
  json_object_set_int_member (summary, "rank", (gint64) result->rank);
  json_object_set_int_member (summary, "det_sign", result->det_sign);
  if (isfinite (result->log_abs_det))
    json_object_set_double_member (summary, "log_abs_det", result->log_abs_det);
  json_object_set_double_member (summary, "growth", result->growth);
  json_object_set_string_member (summary, "pivoting", tl_pivoting_name (result->pivoting));
  json_object_set_int_member (summary, "block_size", (gint64) result->block_size);
  json_object_set_object_member (record->extensions, "lu_result", summary);
  return record;
}

TlLuRecorder *
tl_lu_recorder_from_run_record (const TlRunRecord *record, GError **error)
{
  g_return_val_if_fail (record != NULL, NULL);
  JsonNode *node = record->extensions ? json_object_get_member (record->extensions, "lu") : NULL;
  if (node == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE,
                   _("This run record holds no Gauss step recording ($.extensions.lu)"));
      return NULL;
    }
  return tl_lu_recorder_from_json (node, error);
}
