#include "paint/tl-compare-bars.h"

#include <glib/gi18n-lib.h>
#include <math.h>

char *
tl_kernel_display_name (const char *kernel_id)
{
  const TlKernelInfo *info = tl_kernel_find (kernel_id);
  if (info == NULL)
    return g_strdup (kernel_id);
  if (info->backend == TL_BACKEND_GPU && info->number > 0)
    return g_strdup_printf ("%02d %s", info->number, _(info->title));
  return g_strdup (_(info->title));
}

GArray *
tl_compare_bars_from_runs (GPtrArray *runs, double flops, gboolean by_title,
                           GPtrArray *strings, gint *out_baseline_index)
{
  GArray *bars = g_array_new (FALSE, TRUE, sizeof (TlCompareBar));
  *out_baseline_index = -1;

  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      const TlKernelInfo *info = tl_kernel_find (r->kernel_id);
      TlCompareBar b = { 0 };

      if (by_title)
        {
          char *label = tl_kernel_display_name (r->kernel_id);
          g_ptr_array_add (strings, label);
          b.label = label;
        }
      else
        b.label = r->kernel_id;
      b.cpu = r->backend == TL_BACKEND_CPU;
      b.reference = info && info->reference;
      b.flops = flops;
      b.percent_of_reference = NAN;
      if (r->status == TL_RUN_OK && r->time.count > 0)
        {
          b.median_ms = r->time.median;
          b.min_ms = r->time.min;
          b.max_ms = r->time.max;
        }
      else
        {
          char *why = g_strdup_printf ("%s: %s", tl_run_status_name (r->status),
                                       r->message ? r->message : "");
          g_ptr_array_add (strings, why);
          b.failed = why;
        }
      /* the yardstick's short name: "cuBLAS BF16", "OpenBLAS ?gemm" */
      const TlKernelInfo *ref = r->reference_id ? tl_kernel_find (r->reference_id) : NULL;
      if (ref != NULL)
        {
          b.percent_of_reference = r->percent_of_reference;
          b.reference_label = _(ref->title);
        }
      if (info != NULL && info->baseline && !b.failed)
        *out_baseline_index = (gint) bars->len;
      g_array_append_val (bars, b);
    }
  return bars;
}
