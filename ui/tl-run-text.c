/* tl-run-text.c — numbers and runs in words. */
#include "tl-run-text.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "core/tl-stats.h"
#include "gemm/tl-kernels.h"
#include "lu/tl-lu.h"
#include "view/tl-compare-bars.h"
#include "paint/tl-paint-util.h"

char *
tl_run_text_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (value))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.4g", value));
}

char *
tl_run_text_percent (double percent)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *format = fabs (percent) >= 10 ? "%.0f" : fabs (percent) >= 1 ? "%.1f" : "%.2g";
  if (isnan (percent))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, format, percent));
}

char *
tl_run_text_bytes_or_missing (int bytes)
{
  return bytes < 0 ? g_strdup (_("— (not in this record)")) : g_strdup_printf ("%d B", bytes);
}

char *
tl_run_text_time (double ms)
{
  char buf[64];
  tl_format_ms (ms, buf, sizeof buf);
  return g_strdup (buf);
}

void
tl_run_text_describe (const TlKernelRun *run, double flops, GString *s)
{
  g_autofree char *label = tl_kernel_display_name (run->info, run->kernel_id);
  if (run->status != TL_RUN_OK)
    {
      g_string_append_printf (s, _("%s: %s"), label, run->message ? run->message : tl_run_status_name (run->status));
      return;
    }
  g_autofree char *time = tl_run_text_time (run->time.median);
  /* TRANSLATORS: kernel: its median time, e.g. "03 shared memory 16×16: 2.91 ms" */
  g_string_append_printf (s, _("%s: %s"), label, time);
  double g = tl_stats_gflops (flops, run->time.median);
  if (!isnan (g))
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (num, sizeof num, "%.1f", g);
      g_string_append_printf (s, _(", %s GFLOP/s"), num);
    }
  if (!isnan (run->percent_of_reference) && run->percent_of_reference > 0)
    {
      g_autofree char *pct = tl_run_text_percent (run->percent_of_reference);
      g_string_append_printf (s, _(", %s%% of %s"), pct,
                              run->reference_id ? tl_kernel_title (run->reference, run->reference_id)
                                                : _("the reference"));
    }
  if (run->verified)
    g_string_append (s, run->passed ? _(", verified") : _(", WRONG RESULT"));
}

/* floating-point operations of an m×n LU with partial pivoting (getrf) */
static double
lu_flops (double m, double n)
{
  return m >= n ? m * n * n - n * n * n / 3 : n * m * m - m * m * m / 3;
}

static double
lu_result_number (const TlRunRecord *record, const char *name)
{
  JsonObject *ext = record->extensions;
  JsonObject *result = ext && json_object_has_member (ext, "lu_result")
                         ? json_object_get_object_member (ext, "lu_result") : NULL;
  JsonNode *node = result ? json_object_get_member (result, name) : NULL;
  return node && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_double (node) : NAN;
}

char *
tl_run_text_lu (const TlRunRecord *r)
{
  if (r == NULL || r->job == NULL || g_strcmp0 (r->job->kind, "lu") != 0 || r->runs->len == 0)
    return NULL;
  const TlKernelRun *run = r->runs->pdata[0];
  const TlLuKernelInfo *info = tl_lu_kernel_find (run->kernel_id);
  GString *s = g_string_new (NULL);
  double flops = lu_flops (r->job->m, r->job->n);

  g_string_append_printf (s, _("LU (Gauss elimination) of a %zu×%zu %s matrix with %s"), r->job->m, r->job->n,
                          tl_dtype_name (r->job->dtype), info ? _(info->title) : run->kernel_id);
  if (r->has_device)
    g_string_append_printf (s, _(" on %s"), r->device.name);
  g_string_append (s, "\n");
  if (run->status != TL_RUN_OK || run->time.count == 0)
    g_string_append_printf (s, _("did not run: %s"), run->message ? run->message : tl_run_status_name (run->status));
  else
    {
      g_autofree char *time = tl_run_text_time (run->time.median);
      g_autofree char *gf = tl_run_text_number (tl_stats_gflops (flops, run->time.median));
      g_string_append_printf (s, _("%s, %s GFLOP/s (counting m·n² − n³/3 operations)"), time, gf);
    }
  double residual = lu_result_number (r, "residual");
  if (!isnan (residual))
    {
      g_autofree char *res = tl_run_text_number (residual);
      g_string_append_printf (s, _(", residual ‖PA − LU‖ / (n·ε·‖A‖) = %s"), res);
    }
  else
    g_string_append (s, _(", residual not in this record"));
  return g_string_free (s, FALSE);
}
