/* tl-render-runs.c — which kernel runs of a record a view draws, and their titles. */
#include "view/tl-render-runs.h"

#include <glib/gi18n-lib.h>

#include "core/tl-error.h"
#include "gemm/tl-kernels.h"

static char *
kernel_list (const TlRunRecord *record)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *r = record->runs->pdata[i];
      g_string_append_printf (s, "%s%s", i ? ", " : "", r->kernel_id);
    }
  return g_string_free (s, FALSE);
}

const TlKernelRun *
tl_render_find_kernel (const TlRunRecord *record, const char *id, GError **error)
{
  const TlKernelRun *run = tl_run_record_find_run (record, id);
  if (run == NULL)
    {
      g_autofree char *have = kernel_list (record);
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("no kernel “%s” in the run record (it has: %s)"), id, have);
    }
  return run;
}

static gboolean
lacks (const TlKernelRun *r, int need)
{
  gboolean no_blocks = r->blocks == NULL || r->n_blocks == 0;
  return need == TL_RENDER_NEED_BLOCKS ? no_blocks : need == TL_RENDER_NEED_BLOCKS_OR_PLAN ? no_blocks && !r->has_plan : FALSE;
}

/* The runs a view shows: the ids asked for, or the default. */
GPtrArray *
tl_render_select_runs (const TlRunRecord *record, const char *kernels, int need_blocks,
             gboolean all_by_default, GError **error)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new ();

  if (kernels != NULL && *kernels)
    {
      g_auto (GStrv) ids = g_strsplit (kernels, ",", -1);
      for (guint i = 0; ids[i]; i++)
        {
          const char *id = g_strstrip (ids[i]);
          if (*id == '\0')
            continue;
          const TlKernelRun *r = tl_render_find_kernel (record, id, error);
          if (r == NULL)
            return NULL;
          if (lacks (r, need_blocks))
            {
              g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                           _("kernel “%s” has no block records in this run record "
                             "(record it with `tilelab-cli gemm --instrument`)"), id);
              return NULL;
            }
          g_ptr_array_add (runs, (gpointer) r);
        }
    }
  else
    for (guint i = 0; i < record->runs->len; i++)
      {
        const TlKernelRun *r = record->runs->pdata[i];
        if (lacks (r, need_blocks))
          continue;
        g_ptr_array_add (runs, (gpointer) r);
        if (!all_by_default)
          break;
      }

  if (runs->len == 0)
    {
      if (need_blocks)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                     _("no kernel in the run record has block records "
                       "(record the run with `tilelab-cli gemm --instrument`)"));
      else
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("the run record has no kernel runs"));
      return NULL;
    }
  return g_steal_pointer (&runs);
}

gboolean
tl_render_need_record (const TlRenderInput *input, const char *view, GError **error)
{
  if (input->record != NULL)
    return TRUE;
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
               _("the “%s” view needs a run record (tilelab-cli gemm --record); "
                 "this file is a Gauss record — use --view gauss"), view);
  return FALSE;
}

/* "gemm-03-smem16 — shared memory 16×16"; a CPU run says on how many
 * threads it ran ("cpu-blocked — cache-blocked, multi-threaded · 1 thread") */
char *
tl_render_kernel_title (const TlKernelRun *run)
{
  const TlKernelInfo *info = run->info;
  GString *s = g_string_new (run->kernel_id);
  if (info && info->title && g_strcmp0 (info->title, run->kernel_id) != 0)
    g_string_append_printf (s, " — %s", _(info->title));
  if (run->backend == TL_BACKEND_CPU && run->threads > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, ngettext ("%u thread", "%u threads", run->threads), run->threads);
    }
  return g_string_free (s, FALSE);
}
