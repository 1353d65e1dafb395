/* tl-job.c — jobs and their sources. */
#include "record/tl-job.h"

#include <glib/gi18n-lib.h>
#include <string.h>


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
  copy->plan = g_strdup (job->plan);
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
  g_free (job->plan);
  g_clear_pointer (&job->a_matrix, tl_matrix_unref);
  g_clear_pointer (&job->b_matrix, tl_matrix_unref);
  g_free (job);
}


static const char *const source_names[] = { "generator", "file", "matrix" };

const char *
tl_source_kind_name (TlSourceKind kind)
{
  return (guint) kind < G_N_ELEMENTS (source_names) ? source_names[kind] : "matrix";
}

gboolean
tl_source_kind_from_name (const char *name, TlSourceKind *out)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (source_names); i++)
    if (strcmp (source_names[i], name) == 0)
      {
        *out = (TlSourceKind) i;
        return TRUE;
      }
  return FALSE;
}
